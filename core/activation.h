/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Sockets systemd passed at start (socket activation: LISTEN_FDS,
 * LISTEN_PID, LISTEN_FDNAMES). A source asks for one bound where it would
 * bind and uses it instead of binding; the process keeps every passed
 * socket for its life, so that after a reload the new configuration's
 * sources get the same sockets again. */
#ifndef SL_ACTIVATION_H
#define SL_ACTIVATION_H

#include <glib.h>
#include <sys/socket.h>

G_BEGIN_DECLS

/* A new descriptor (close-on-exec, the caller's to close) of the passed
 * socket of type (SOCK_STREAM, listening, or SOCK_DGRAM) whose address
 * (getsockname()) is addr: the same IP address and port, or the same unix
 * socket file. -1 when none was passed. Thread-safe. */
gint  sl_activation_take            (const struct sockaddr *addr, socklen_t len, gint type);

G_END_DECLS

#endif
