/* SPDX-License-Identifier: GPL-2.0-or-later */
/* options { stats(freq(N) level(L)) }: every N seconds the counters go
 * into the log through internal(), as syslog-ng's "Log statistics". */
#ifndef SL_STATS_LOG_H
#define SL_STATS_LOG_H

#include "core/stats.h"

G_BEGIN_DECLS

typedef struct _SlStatsLog SlStatsLog;

SlStatsLog *sl_stats_log_new   (void);
/* Takes a configuration's settings: the timer starts over only when the
 * period changed, so a reload that keeps it keeps the rhythm. */
void        sl_stats_log_apply (SlStatsLog *log, const SlStatsSettings *settings);
void        sl_stats_log_free  (SlStatsLog *log);

G_END_DECLS

#endif
