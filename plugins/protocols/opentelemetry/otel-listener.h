/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Accepting for opentelemetry(): a thread per connection, at most
 * max-connections() at once (more wait in the kernel's backlog), TLS in
 * front when tls() is given. A serve function that reports its activity
 * has its connections judged by the core's SlAdmission, as tcp()'s are:
 * first-message-timeout() and idle-timeout() close them, and at
 * max-connections() the one that should go makes room for a newcomer. */
#ifndef OTEL_LISTENER_H
#define OTEL_LISTENER_H

#include "otel-connection.h"
#include "core/io/tls.h"

typedef struct _OtelListener OtelListener;
typedef struct _OtelActivity OtelActivity;

/* Serves one connection on its thread: fd is plaintext (and the serve
 * function's to close); it returns when the connection ends or stop_fd
 * becomes readable. A serve function that hands the connection on (to
 * libmicrohttpd) returns at once. activity is NULL unless the listener
 * was started to judge its connections. */
typedef void (*OtelServeFunc) (OtelSource *self, gint fd, const struct sockaddr *peer, socklen_t peer_len,
                               gint stop_fd, OtelActivity *activity, gpointer data);

/* What the serve function saw: bytes, a whole request, and whether it
 * waits for room in its window (its silence is then ours). A NULL
 * activity takes nothing. */
void otel_activity_heard   (OtelActivity *activity);
void otel_activity_request (OtelActivity *activity);
void otel_activity_waiting (OtelActivity *activity, gboolean waiting);

/* Takes listen_fd; tls may be NULL. With judge, serve reports activity. */
OtelListener *otel_listener_start (OtelSource *self, gint listen_fd, SlTlsContext *tls, gboolean judge,
                                   OtelServeFunc serve, gpointer data, GError **error);
/* Stops accepting, wakes every connection and waits for their threads. */
void          otel_listener_stop  (OtelListener *listener);

#endif
