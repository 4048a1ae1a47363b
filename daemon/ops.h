/* SPDX-License-Identifier: GPL-2.0-or-later */
/* syslog-ng 4's operations verbs on the control socket: the counters
 * queried by a glob, the log level at run time, and the running
 * configuration's id. */
#ifndef SL_OPS_H
#define SL_OPS_H

#include <glib.h>
#include "core/compile/config.h"
#include "core/stats.h"

G_BEGIN_DECLS

/* The answer to "QUERY LIST GLOB", "QUERY GET GLOB", "QUERY SUM GLOB",
 * "LOG-LEVEL" and "LOG-LEVEL NAME"; NULL for another command. */
gchar *sl_ops_answer (const gchar *command);

/* The id of a configuration: the SHA-256 of its tree as loaded (includes
 * read, either language), in hex. The same text gives the same id. */
gchar *sl_ops_config_id (const SlConfig *cfg);

/* The running configuration's id shown in stats: config;ID;;running is 1,
 * the id it replaced goes to 0. previous may be NULL. */
void   sl_ops_config_running (const gchar *id, const gchar *previous);

G_END_DECLS

#endif
