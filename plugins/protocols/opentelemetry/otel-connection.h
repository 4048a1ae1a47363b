/* SPDX-License-Identifier: GPL-2.0-or-later */
/* opentelemetry(): the driver's state, which its transports share, and
 * its connections' windows. Below the transports, which the driver in
 * otel-source.c starts. */
#ifndef OTEL_CONNECTION_H
#define OTEL_CONNECTION_H

#include "core/io/listener.h"
#include "core/route/source.h"
#include "core/io/tls.h"

#include <sys/socket.h>

typedef enum
{
  OTEL_TRANSPORT_GRPC,
  OTEL_TRANSPORT_HTTP,
} OtelTransport;

typedef struct _OtelHttpServer OtelHttpServer;

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
  OtelHttpServer *http;     /* OTLP/HTTP's libmicrohttpd, fed by the listener */
  SlListener *listener;
} OtelSource;

/* A window for a new connection, cancelled when the source stops; NULL
 * when it already stops. */
SlWindow *otel_source_connection_window (OtelSource *self);
void      otel_source_connection_closed (OtelSource *self, SlWindow *window);

/* The peer's address as text, for HOST_FROM */
gchar *otel_peer_address (const struct sockaddr *sa);

#endif
