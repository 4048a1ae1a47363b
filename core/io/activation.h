/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Sockets systemd passed at start (socket activation: LISTEN_FDS,
 * LISTEN_PID, LISTEN_FDNAMES), and the one way a source gets its
 * listening socket: the passed one where there is one, else its own. The
 * process keeps every passed socket for its life, so that after a reload
 * the new configuration's sources get the same sockets again. */
#ifndef SL_ACTIVATION_H
#define SL_ACTIVATION_H

#include <glib.h>
#include <sys/socket.h>
#include "core/plugin/plugin.h"

G_BEGIN_DECLS

/* A new descriptor (close-on-exec, the caller's to close) of the passed
 * socket of type (SOCK_STREAM, listening, or SOCK_DGRAM) whose address
 * (getsockname()) is addr: the same IP address and port, or the same unix
 * socket file. -1 when none was passed. Thread-safe. */
gint  sl_activation_take            (const struct sockaddr *addr, socklen_t len, gint type);

typedef struct
{
  const gchar *ip;        /* a name or address; NULL: every address */
  const gchar *port;      /* a number or a service name */
  gint type;              /* SOCK_STREAM (listening) or SOCK_DGRAM */
  gint backlog;           /* SOCK_STREAM's listen() backlog */
  gint so_rcvbuf;         /* SOCK_DGRAM's receive buffer; 0 keeps the system's */
} SlListenAddress;

/* A socket bound to where, listening if a stream: the one systemd passed
 * for that address, else a new one (SO_REUSEADDR, close-on-exec).
 * *inherited says which. -1 with error (at the driver's position, in its
 * name) when the address does not resolve or cannot be bound. */
gint  sl_activation_listen          (const SlDriver *d, const SlListenAddress *where, gboolean *inherited,
                                     GError **error);

G_END_DECLS

#endif
