/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/route/rate-limit.h"
#include "core/i18n.h"
#include "core/internal.h"

/* Windows whose senders may have gone are dropped once this many are
 * kept, so that a host whose PIDs come and go does not grow the table
 * for ever (rsyslogd keeps every one). */
#define PRUNE_AT 4096

typedef struct
{
  gint64 begin;     /* 0: opens at the next message, as rsyslogd's does after it ended one */
  guint done;
  guint64 missed;
} Window;

struct _SlRateLimit
{
  SlRateLimitSpec spec;
  GMutex lock;
  GHashTable *windows;  /* sender (gint64) -> Window */
};

SlRateLimit *
sl_rate_limit_new (const SlRateLimitSpec *spec)
{
  if (!spec->interval)
    return NULL;
  SlRateLimit *limit = g_new0 (SlRateLimit, 1);
  limit->spec = *spec;
  limit->spec.burst = MAX (spec->burst, 1);
  g_mutex_init (&limit->lock);
  limit->windows = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  return limit;
}

void
sl_rate_limit_free (SlRateLimit *limit)
{
  if (!limit)
    return;
  g_hash_table_destroy (limit->windows);
  g_mutex_clear (&limit->lock);
  g_free (limit);
}

/* A window that ended long ago and has nothing left to tell is the same
 * as none. */
static void
prune (SlRateLimit *limit, gint64 now)
{
  GHashTableIter iter;
  gpointer value;
  g_hash_table_iter_init (&iter, limit->windows);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      const Window *w = value;
      if (!w->missed && (!w->begin || now > w->begin + limit->spec.interval))
        g_hash_table_iter_remove (&iter);
    }
}

static Window *
window_of (SlRateLimit *limit, gint64 sender, gint64 now)
{
  Window *w = g_hash_table_lookup (limit->windows, &sender);
  if (w)
    return w;
  if (g_hash_table_size (limit->windows) >= PRUNE_AT)
    prune (limit, now);
  gint64 *key = g_new (gint64, 1);
  *key = sender;
  w = g_new0 (Window, 1);
  g_hash_table_insert (limit->windows, key, w);
  return w;
}

static SlRateLimitVerdict
check_locked (SlRateLimit *limit, gint64 sender, gint64 now, guint64 *lost)
{
  Window *w = window_of (limit, sender, now);
  if (!w->begin)
    w->begin = now;
  if (now > w->begin + limit->spec.interval || now < w->begin)
    {
      /* rsyslogd opens the next window at the message after this one */
      w->begin = 0;
      w->done = 0;
      *lost = w->missed;
      w->missed = 0;
    }
  if (w->done < limit->spec.burst)
    {
      w->done++;
      return SL_RATE_LIMIT_PASSED;
    }
  return ++w->missed == 1 ? SL_RATE_LIMIT_BEGIN_DROPPING : SL_RATE_LIMIT_DROPPED;
}

SlRateLimitVerdict
sl_rate_limit_check (SlRateLimit *limit, gint64 sender, gint severity, gint64 now, guint64 *lost)
{
  *lost = 0;
  if (severity < limit->spec.severity)
    return SL_RATE_LIMIT_PASSED;
  g_mutex_lock (&limit->lock);
  SlRateLimitVerdict verdict = check_locked (limit, sender, now, lost);
  g_mutex_unlock (&limit->lock);
  return verdict;
}

gboolean
sl_rate_limit_admit (SlRateLimit *limit, const gchar *who, gboolean per_pid, gint64 sender, gint severity,
                     gint64 now)
{
  guint64 lost;
  SlRateLimitVerdict verdict = sl_rate_limit_check (limit, sender, severity, now, &lost);
  const SlRateLimitSpec *spec = &limit->spec;

  if (lost && per_pid)
    sl_log (SL_LOG_INFO, _("%s: %" G_GUINT64_FORMAT " messages from pid %" G_GINT64_FORMAT
                           " lost due to rate-limiting (%u allowed within %u seconds)"),
            who, lost, sender, spec->burst, spec->interval);
  else if (lost)
    sl_log (SL_LOG_INFO, _("%s: %" G_GUINT64_FORMAT " messages lost due to rate-limiting (%u allowed within %u "
                           "seconds)"), who, lost, spec->burst, spec->interval);
  if (verdict == SL_RATE_LIMIT_BEGIN_DROPPING && per_pid)
    sl_log (SL_LOG_INFO, _("%s: begin to drop messages from pid %" G_GINT64_FORMAT " due to rate-limiting"),
            who, sender);
  else if (verdict == SL_RATE_LIMIT_BEGIN_DROPPING)
    sl_log (SL_LOG_INFO, _("%s: begin to drop messages due to rate-limiting"), who);
  return verdict == SL_RATE_LIMIT_PASSED;
}
