/* SPDX-License-Identifier: GPL-2.0-or-later */
/* OTLP/HTTP on libmicrohttpd. */
#ifndef OTEL_HTTP_H
#define OTEL_HTTP_H

#include "otel-connection.h"
#include "core/io/session.h"

/* libmicrohttpd without a socket of its own: the kit's listener hands it
 * each connection through otel_http_session_ops (their data is the
 * server). */
OtelHttpServer *otel_http_server_start (OtelSource *self, GError **error);
extern const SlSessionOps otel_http_session_ops;
/* Waits a little for the answers of requests cut short by the stop. */
void            otel_http_server_drain (OtelHttpServer *server);
void            otel_http_server_free  (OtelHttpServer *server);

#endif
