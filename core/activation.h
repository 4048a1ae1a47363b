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

/* Takes the sockets passed to this process, if any, and removes the
 * variables from the environment so that programs the daemon runs do not
 * take them for theirs. Call once, before anything forks. */
void  sl_activation_init            (void);
/* A new descriptor (close-on-exec, the caller's to close) of the passed
 * socket of type (SOCK_STREAM, listening, or SOCK_DGRAM) whose address
 * (getsockname()) is addr: the same IP address and port, or the same unix
 * socket file. -1 when none was passed. Thread-safe. */
gint  sl_activation_take            (const struct sockaddr *addr, socklen_t len, gint type);
/* Closes the passed sockets that no source took since the previous call,
 * saying so with each one's name and address: what systemd gives and the
 * configuration does not use would otherwise hold its port for nothing. */
void  sl_activation_close_unclaimed (void);

G_END_DECLS

#endif
