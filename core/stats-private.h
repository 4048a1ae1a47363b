/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The counters written out, for sluicectl stats and /metrics: the daemon's,
 * not the plugin kit's. */
#ifndef SL_STATS_PRIVATE_H
#define SL_STATS_PRIVATE_H

#include "core/stats.h"

G_BEGIN_DECLS

/* The sum of the counters named name of every component of kind, such as
 * every source's "received": for a line of totals. */
gint64 sl_stats_sum (const gchar *kind, const gchar *name);
/* One line per counter: kind;id;instance;name;value */
gchar *sl_stats_to_text (void);
/* An array of objects {kind, id, instance, counters: {name: value}} */
gchar *sl_stats_to_json (void);
/* Prometheus's text exposition format: sluice_KIND_NAME_total{id="ID",driver="INSTANCE"}
 * for counters, sluice_KIND_NAME for gauges. */
gchar *sl_stats_to_prometheus (void);
/* The text of syslog-ng's "Log statistics" message: "Log statistics; "
 * then name='component(id,instance)=value' items joined by ", ". level 0
 * gives the totals (center(), source(NAME), destination(NAME)) and each
 * driver's main counters, a higher level every counter. The mapping of
 * kind;id;instance;name onto syslog-ng's names is in doc/architecture.md. */
gchar *sl_stats_to_log (gint level);
/* Whether the driver of id was given internal(yes): syslog-ng registers
 * such a driver's counters at stats level 3, so the "Log statistics"
 * message names them only from level 3 (the totals still count them). */
void   sl_stats_set_internal (const gchar *id, gboolean internal);
/* syslog-ng-ctl's query: the counters whose dotted name (kind.id.name, or
 * kind.id.instance.name when the counter has an instance) matches glob
 * (g_pattern_match_simple: * and ?), one a line, as NAME=VALUE, or their
 * sum alone with sum, or the names alone with names_only. */
gchar *sl_stats_query (const gchar *glob, gboolean names_only, gboolean sum);

G_END_DECLS

#endif
