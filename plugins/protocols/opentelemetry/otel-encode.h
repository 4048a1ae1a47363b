/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Messages into an OTLP ExportLogsServiceRequest (its protobuf encoding). */
#ifndef OTEL_ENCODE_H
#define OTEL_ENCODE_H

#include "core/message/message.h"

typedef struct _OtelEncoder OtelEncoder;

/* syslog_ng: every message as syslog-ng-otlp() sends it (otel-syslog-ng.h) */
OtelEncoder *otel_encoder_new  (gboolean syslog_ng);
void         otel_encoder_free (OtelEncoder *enc);

/* Encodes msgs[0..n) into out (emptied first), as many as max_lines and
 * max_bytes (0: no limit) allow but at least one; how many it took. A
 * message that came in as OTLP (.otel_raw.log) goes out as its record
 * was received, with its resource and scope; any other is mapped as
 * doc/opentelemetry.md's table says. Consecutive messages of the same
 * resource and scope share their ResourceLogs and ScopeLogs. */
guint        otel_encode       (OtelEncoder *enc, SlMessage *const *msgs, guint n, guint max_lines, gsize max_bytes,
                                GByteArray *out);

#endif
