/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One daemon per pid file and control socket: a second sluiced started by
 * mistake with the same ones refuses before it touches any socket or file
 * of the configuration. */
#ifndef SL_INSTANCE_H
#define SL_INSTANCE_H

#include <glib.h>

G_BEGIN_DECLS

typedef struct _SlInstance SlInstance;

/* Locks the pid file (held until sl_instance_release, so a pid file left
 * by a dead process never blocks) and checks that nobody answers on the
 * control socket. NULL and error, a sentence naming the running process,
 * when another one holds either. A pid file that cannot be opened is
 * reported and not locked; the control socket is still checked. */
SlInstance *sl_instance_claim     (const gchar *pidfile, const gchar *control_path, GError **error);
/* Writes the calling process's id into the pid file: after daemonizing,
 * so it names the process that stays. */
void        sl_instance_write_pid (SlInstance *instance);
/* Removes the pid file, then lets go of its lock. */
void        sl_instance_release   (SlInstance *instance);

G_END_DECLS

#endif
