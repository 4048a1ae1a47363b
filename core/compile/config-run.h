/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A configuration's life: loaded (parsed, built, its log paths compiled)
 * whole, started whole, stopped whole, or taken over by the next one at a
 * reload. The daemon's and the tests', not the plugin kit's. */
#ifndef SL_CONFIG_RUN_H
#define SL_CONFIG_RUN_H

#include <glib.h>
#include "core/compile/config.h"
#include "core/route/driver-private.h"
#include "core/stats.h"
#include "core/route/tap.h"

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
/* What options {} says of the daemon's own settings (user(), group()). */
const SlDaemonSettings *sl_config_daemon (const SlConfig *cfg);
/* Where options {} set one of them (its file is NULL when it was not). */
SlCfgPos    sl_config_daemon_pos (const SlConfig *cfg, const gchar *name);
/* A configuration of no statements: it owns drivers made outside any
 * file, such as the filter functions of a template's $(if). */
SlConfig  *sl_config_new_empty (void);
/* Where sluicectl tap looks: the point of the source, parser, rewrite or
 * destination object id names ("NAME", or "KIND/NAME" when objects of two
 * kinds have that name) that cfg's paths use; NULL and *error when there
 * is none or the name is ambiguous. */
SlTapPoint *sl_config_tap_point (SlConfig *cfg, const gchar *id, GError **error);

G_END_DECLS

#endif
