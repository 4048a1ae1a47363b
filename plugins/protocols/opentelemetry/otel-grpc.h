/* SPDX-License-Identifier: GPL-2.0-or-later */
/* OTLP/gRPC on nghttp2. */
#ifndef OTEL_GRPC_H
#define OTEL_GRPC_H

#include "otel-connection.h"
#include "core/io/session.h"

/* OTLP/gRPC's sessions on the kit's listener; their data is the
 * OtelSource. */
extern const SlSessionOps otel_grpc_session_ops;

#endif
