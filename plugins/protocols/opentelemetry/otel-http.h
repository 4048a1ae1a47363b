/* SPDX-License-Identifier: GPL-2.0-or-later */
/* OTLP/HTTP on libmicrohttpd. */
#ifndef OTEL_HTTP_H
#define OTEL_HTTP_H

#include "otel-connection.h"

/* OTLP/HTTP: listens on fd (bound and listening, taken) until stop,
 * behind TLS when the source has tls(). */
OtelHttpServer *otel_http_server_start (OtelSource *self, gint fd, GError **error);
void            otel_http_server_stop  (OtelHttpServer *server);

#endif
