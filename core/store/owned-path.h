/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Paths the daemon makes and replaces (the control socket, the pid file,
 * the persist file, disk-buffer files, unix sockets): what is there may
 * be replaced only when it is what the daemon leaves there, never through
 * a symbolic link and never when it belongs to someone else. */
#ifndef SL_OWNED_PATH_H
#define SL_OWNED_PATH_H

#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

/* TRUE when nothing is at path, or an object of kind (S_IFREG, S_IFSOCK)
 * that belongs to the daemon's user or to root (the daemon as it
 * started). Otherwise FALSE and *error, naming the path, what is there
 * and whose it is. what names the path in the message ("the pid file"). */
gboolean sl_owned_path_check (const gchar *path, mode_t kind, const gchar *what, GError **error);

G_END_DECLS

#endif
