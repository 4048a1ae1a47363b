/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sluicectl's side of the control socket: a command line sent, the answer
 * read, within a patience. */
#ifndef SL_CTL_CONN_H
#define SL_CTL_CONN_H

#include <glib.h>

G_BEGIN_DECLS

/* A connection to the control socket at path, its reads and writes giving
 * up after seconds (0: never); -1 and *error when there is none. */
gint   sl_ctl_connect (const gchar *path, gint seconds, GError **error);
/* Sends command on fd as one line. */
gboolean sl_ctl_send  (gint fd, const gchar *command, GError **error);
/* The whole answer to command (up to the daemon's close), or NULL and
 * *error: unreachable, or no answer within seconds. */
gchar *sl_ctl_request (const gchar *path, const gchar *command, gint seconds, GError **error);

G_END_DECLS

#endif
