/* SPDX-License-Identifier: GPL-2.0-or-later */
/* OTLP/gRPC on nghttp2. */
#ifndef OTEL_GRPC_H
#define OTEL_GRPC_H

#include "otel-connection.h"
#include "otel-listener.h"

/* OTLP/gRPC: serves one connection (an OtelServeFunc, see otel-listener.h). */
void            otel_grpc_serve        (OtelSource *self, gint fd, const struct sockaddr *peer, socklen_t peer_len,
                                        gint stop_fd, OtelActivity *activity, gpointer data);

#endif
