/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A configuration as compiled: its tree, its objects, its drivers and the
 * log paths between them. Loaded whole, started whole, stopped whole. */
#ifndef SL_CONFIG_H
#define SL_CONFIG_H

#include <glib.h>
#include "core/plugin.h"
#include "core/stats.h"
#include "core/template.h"

G_BEGIN_DECLS

SlConfig   *sl_config_load       (const gchar *path, GError **error);
SlConfig   *sl_config_load_string (const gchar *text, const gchar *name, GError **error);
/* The same for a configuration that is to replace running: its sources and
 * destinations made exactly as running's are running's own objects. */
SlConfig   *sl_config_load_after (const gchar *path, SlConfig *running, GError **error);
SlConfig   *sl_config_load_string_after (const gchar *text, const gchar *name, SlConfig *running,
                                         GError **error);
/* Starts next in place of running, which must be what next was loaded
 * after: what next took over keeps running (its sockets, connections,
 * queues and messages) and routes by next's paths from now on; the rest of
 * running is stopped (its destinations drained) and the rest of next
 * started. When next cannot start, running is as it was and FALSE is
 * returned. Either way the caller frees the one that is not running. */
gboolean    sl_config_take_over  (SlConfig *next, SlConfig *running, GError **error);
gboolean    sl_config_start      (SlConfig *cfg, GError **error);
/* Stops sources, drains destination queues, and joins every thread. */
void        sl_config_stop       (SlConfig *cfg);
void        sl_config_free       (SlConfig *cfg);
/* Asks every destination to reopen its files (SIGHUP, sluicectl reopen). */
void        sl_config_reopen     (SlConfig *cfg);

/* What options { stats(...) } says. */
const SlStatsSettings *sl_config_stats (const SlConfig *cfg);

/* The parsed tree, for a plugin that reads a top-level statement of its
 * own (the code of `python { ... };`). */
const SlCfgNode *sl_config_tree (const SlConfig *cfg);

/* A template a driver builds from text of its own making: a template
 * object's name or template text; an error points at pos. */
SlTemplate *sl_config_compile_template (SlConfig *cfg, const gchar *text, SlCfgPos pos,
                                        GError **error);

G_END_DECLS

#endif
