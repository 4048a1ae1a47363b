/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Accepting for opentelemetry(): a thread per connection, at most
 * max-connections() at once (more wait in the kernel's backlog), TLS in
 * front when tls() is given. */
#ifndef OTEL_LISTENER_H
#define OTEL_LISTENER_H

#include "otel-connection.h"
#include "core/tls.h"

typedef struct _OtelListener OtelListener;

/* Serves one connection on its thread: fd is plaintext (and the serve
 * function's to close); it returns when the connection ends or stop_fd
 * becomes readable. A serve function that hands the connection on (to
 * libmicrohttpd) returns at once. */
typedef void (*OtelServeFunc) (OtelSource *self, gint fd, const struct sockaddr *peer, socklen_t peer_len,
                               gint stop_fd, gpointer data);

/* Takes listen_fd; tls may be NULL. */
OtelListener *otel_listener_start (OtelSource *self, gint listen_fd, SlTlsContext *tls, OtelServeFunc serve,
                                   gpointer data, GError **error);
/* Stops accepting, wakes every connection and waits for their threads. */
void          otel_listener_stop  (OtelListener *listener);

#endif
