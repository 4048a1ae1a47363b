/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/route/rate-limit.h"

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
  limit->windows = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  return limit;
}

void
sl_rate_limit_free (SlRateLimit *limit)
{
  if (!limit)
    return;
  g_hash_table_destroy (limit->windows);
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

SlRateLimitVerdict
sl_rate_limit_check (SlRateLimit *limit, gint64 sender, gint severity, gint64 now, guint64 *lost)
{
  *lost = 0;
  if (severity < limit->spec.severity)
    return SL_RATE_LIMIT_PASSED;
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
