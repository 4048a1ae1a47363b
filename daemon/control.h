/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The control socket: one command per connection, a text answer back. */
#ifndef SL_CONTROL_H
#define SL_CONTROL_H

#include <glib.h>

G_BEGIN_DECLS

/* Answers a command line ("STATS", "STATS JSON", "RELOAD", "REOPEN",
 * "STOP", "HEALTH"); the first word of the answer is OK or ERROR. */
typedef gchar *(*SlControlHandler) (const gchar *command, gpointer user_data);

typedef struct _SlControl SlControl;

SlControl *sl_control_new  (const gchar *path, SlControlHandler handler, gpointer user_data,
                            GError **error);
void       sl_control_free (SlControl *control);

/* For commands that answer for as long as the client listens (TAP): a
 * handler that returns TRUE took the client's connection, and closes it
 * when it is done; FALSE leaves the command to the handler of answers. */
typedef gboolean (*SlControlStreamHandler) (const gchar *command, gint client, gpointer user_data);
void       sl_control_set_stream_handler (SlControl *control, SlControlStreamHandler handler, gpointer user_data);

/* Whether a process listens on the control socket at path; *pid is the
 * one it names when it answers HEALTH, or 0. */
gboolean   sl_control_probe (const gchar *path, gint *pid);

G_END_DECLS

#endif
