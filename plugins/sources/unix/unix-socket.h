/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Making the socket file of a local source: shared by unix-stream(),
 * unix-dgram() and system(), which compile it in. */
#ifndef UNIX_SOCKET_H
#define UNIX_SOCKET_H

#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

typedef struct
{
  const gchar *path;
  gboolean stream;
  gint perm;
  uid_t owner;          /* (uid_t) -1 keeps the daemon's */
  gid_t group;          /* (gid_t) -1 keeps the daemon's */
  gint so_rcvbuf;       /* 0 keeps the system default */
} UnixSocketSpec;

/* Binds a socket at spec->path (replacing a socket file a previous run
 * left, never anything else), listening when it is a stream socket, and
 * sets its mode and owner. driver names the source in errors. When systemd
 * passed a socket of that path and type, that one instead, as it is
 * (*inherited TRUE): its file is systemd's, never to be removed. */
gint unix_socket_open (const UnixSocketSpec *spec, const gchar *driver, gboolean *inherited, GError **error);

G_END_DECLS

#endif
