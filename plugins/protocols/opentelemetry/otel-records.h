/* SPDX-License-Identifier: GPL-2.0-or-later */
/* An OTLP export request's log records made messages and posted, and the
 * wait until the path holds them safe. */
#ifndef OTEL_RECORDS_H
#define OTEL_RECORDS_H

#include "core/route/source.h"
#include "opentelemetry/proto/collector/logs/v1/logs_service.pb-c.h"

typedef Opentelemetry__Proto__Collector__Logs__V1__ExportLogsServiceRequest OtelLogsRequest;

/* Posts every record of req as a message bound to window, peer (an
 * address, or NULL) as its HOST_FROM, and waits until the window is
 * empty again: every flow-controlled destination wrote its messages.
 * FALSE when the window was cancelled first (the source stops): the
 * sender is to be told to try again. *records says how many were posted. */
gboolean otel_records_deliver (SlSource *src, SlWindow *window, const gchar *peer, const OtelLogsRequest *req,
                               gsize *records);

#endif
