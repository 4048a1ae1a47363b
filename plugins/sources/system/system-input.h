/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What system() reads on this host. */
#ifndef SYSTEM_INPUT_H
#define SYSTEM_INPUT_H

#include <glib.h>

G_BEGIN_DECLS

/* journald's runtime folder; its dev-log is the socket journald offers as
 * /dev/log */
#define JOURNALD_RUN_DIR "/run/systemd/journal"

/* TRUE on a host where journald runs (run_dir is a folder) and dev_log
 * is journald's socket (the same file as run_dir/dev-log, usually through
 * a symbolic link): system() then reads the journal, as syslog-ng's does,
 * since journald already takes /dev/log and the kernel's log. */
gboolean system_journald_owns_log (const gchar *run_dir, const gchar *dev_log);

G_END_DECLS

#endif
