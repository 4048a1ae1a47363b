/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What both transports of the opentelemetry() destination do with a
 * request: its body, its back-off, what its answer says. */
#ifndef OTEL_REQUEST_H
#define OTEL_REQUEST_H

#include "otel-destination.h"

/* The request's body from self->records into out: gRPC's length
 * prefix, gzip; FALSE when it could not be compressed. */
gboolean    otel_request_frame           (OtelDestination *self, GByteArray *out);
/* Waits ms, or less when the destination stops; FALSE then. */
gboolean    otel_request_back_off        (gint64 ms);
/* Counts and logs the records the receiver refused in a response that
 * accepted the request (an ExportLogsServiceResponse: data, len). */
void        otel_request_partial_success (OtelDestination *self, const guint8 *data, gsize len);
/* Puts why in self->why, the write's reason; a refused request (DROP) is
 * logged as its messages are dropped, a retry's reason goes to the core,
 * which logs the failure once. */
OtelOutcome otel_request_failed          (OtelDestination *self, OtelOutcome outcome, const gchar *why);

#endif
