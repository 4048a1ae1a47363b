/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "daemon/stats-log.h"

#include "core/internal.h"
#include "core/stats-private.h"

struct _SlStatsLog
{
  guint timer;
  gint freq;
  gint level;
};

SlStatsLog *
sl_stats_log_new (void)
{
  return g_new0 (SlStatsLog, 1);
}

static gboolean
on_timer (gpointer data)
{
  SlStatsLog *log = data;
  gchar *text = sl_stats_to_log (log->level);
  /* not translated: tools parse these lines as syslog-ng writes them */
  sl_log (SL_LOG_INFO, "%s", text);
  g_free (text);
  return G_SOURCE_CONTINUE;
}

void
sl_stats_log_apply (SlStatsLog *log, const SlStatsSettings *settings)
{
  log->level = settings->level;
  gint freq = MAX (settings->freq, 0);
  if (freq == log->freq && (log->timer || !freq))
    return;
  if (log->timer)
    g_source_remove (log->timer);
  log->timer = freq ? g_timeout_add_seconds (freq, on_timer, log) : 0;
  log->freq = freq;
}

void
sl_stats_log_free (SlStatsLog *log)
{
  if (log && log->timer)
    g_source_remove (log->timer);
  g_free (log);
}
