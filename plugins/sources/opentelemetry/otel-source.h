/* SPDX-License-Identifier: GPL-2.0-or-later */
/* opentelemetry(): what its transports share, the driver and its
 * connections' windows. */
#ifndef OTEL_SOURCE_H
#define OTEL_SOURCE_H

#include "core/source.h"
#include "core/tls.h"

#include <sys/socket.h>

typedef enum
{
  OTEL_TRANSPORT_GRPC,
  OTEL_TRANSPORT_HTTP,
} OtelTransport;

typedef struct _OtelHttpServer OtelHttpServer;
typedef struct _OtelListener OtelListener;

typedef struct
{
  SlDriver super;
  /* options */
  const gchar *ip;
  const gchar *port;
  gint transport;
  gint64 max_request_size;
  gint listen_backlog;
  const SlCfgNode *tls_node;

  SlTlsContext *tls;
  SlSource *source;
  guint max_connections;
  GMutex lock;
  GPtrArray *windows;        /* of the open connections, cancelled at stop */
  gboolean stopping;
  OtelHttpServer *http;
  OtelListener *grpc;
} OtelSource;

/* A window for a new connection, cancelled when the source stops; NULL
 * when it already stops. */
SlWindow *otel_source_connection_window (OtelSource *self);
void      otel_source_connection_closed (OtelSource *self, SlWindow *window);

/* OTLP/HTTP: listens on fd (bound and listening, taken) until stop,
 * behind TLS when the source has tls(). */
OtelHttpServer *otel_http_server_start (OtelSource *self, gint fd, GError **error);
void            otel_http_server_stop  (OtelHttpServer *server);
/* OTLP/gRPC: serves one connection (an OtelServeFunc, see otel-listener.h). */
void            otel_grpc_serve        (OtelSource *self, gint fd, const struct sockaddr *peer, socklen_t peer_len,
                                        gint stop_fd, gpointer data);

/* The peer's address as text, for HOST_FROM */
gchar *otel_peer_address (const struct sockaddr *sa);

#endif
