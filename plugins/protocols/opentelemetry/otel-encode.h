/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Messages into an OTLP ExportLogsServiceRequest (its protobuf encoding). */
#ifndef OTEL_ENCODE_H
#define OTEL_ENCODE_H

#include "core/message/message.h"

typedef struct _OtelEncoder OtelEncoder;

/* id: the destination's, for what it logs; syslog_ng: every message as
 * syslog-ng-otlp() sends it (otel-syslog-ng.h) */
OtelEncoder *otel_encoder_new  (const gchar *id, gboolean syslog_ng);
void         otel_encoder_free (OtelEncoder *enc);

/* Encodes msgs[0..n) into out (emptied first), as many as max_lines and
 * max_bytes (0: no limit) allow but at least one; how many it took. A
 * message whose .otel_raw.type or .otel.type says it is a log goes out
 * with the record, resource and scope it came with (.otel_raw.*), or
 * those made from its .otel.* fields (otel-fields.h); any other is mapped
 * as doc/opentelemetry.md's table says. Consecutive messages of the same
 * resource and scope share their ResourceLogs and ScopeLogs. */
guint        otel_encode       (OtelEncoder *enc, SlMessage *const *msgs, guint n, guint max_lines, gsize max_bytes,
                                GByteArray *out);

#endif
