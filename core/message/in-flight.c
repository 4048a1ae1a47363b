/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/message/in-flight.h"
#include "core/stats.h"

/* A thread adds its local sum to the shared one past SL_IN_FLIGHT_SLACK
 * bytes either way: a few messages' worth, so that the gauge is near and
 * a reader's and a writer's threads meet on the shared line rarely. */

typedef struct
{
  SlInFlightNotify notify;
  gpointer data;
} Waiter;

static gint64 max_bytes;
static SlCounter *held;
static SlCounter *bound;
static gint waiting;
static GMutex waiters_lock;
static GArray *waiters;
__thread gint64 sl_in_flight_local;

__attribute__ ((constructor)) static void
in_flight_init (void)
{
  held = sl_stats_gauge ("global", "messages", "memory", "bytes_in_flight");
  bound = sl_stats_gauge ("global", "messages", "memory", "bytes_in_flight_max");
  waiters = g_array_new (FALSE, FALSE, sizeof (Waiter));
}


gint64
sl_in_flight_max (void)
{
  return __atomic_load_n (&max_bytes, __ATOMIC_RELAXED);
}

gint64
sl_in_flight_bytes (void)
{
  return sl_counter_get (held);
}

static gboolean
below (gint64 sum)
{
  gint64 max = __atomic_load_n (&max_bytes, __ATOMIC_SEQ_CST);
  return !max || sum < max;
}

static void
wake_waiters (void)
{
  g_mutex_lock (&waiters_lock);
  GArray *due = waiters;
  waiters = g_array_new (FALSE, FALSE, sizeof (Waiter));
  __atomic_store_n (&waiting, 0, __ATOMIC_SEQ_CST);
  g_mutex_unlock (&waiters_lock);
  for (guint i = 0; i < due->len; i++)
    {
      Waiter *w = &g_array_index (due, Waiter, i);
      w->notify (w->data);
    }
  g_array_unref (due);
}

/* A reload that raises or removes the bound lets waiting sources go on at
 * once rather than at the next written batch. */
void
sl_in_flight_set_max (gint64 bytes)
{
  __atomic_store_n (&max_bytes, bytes, __ATOMIC_SEQ_CST);
  sl_counter_set (bound, bytes);
  if (__atomic_load_n (&waiting, __ATOMIC_SEQ_CST) && below (sl_counter_get (held)))
    wake_waiters ();
}

/* The shared add and the read of waiting after it pair with the waiter's
 * store of waiting and read of the sum after it (both sequentially
 * consistent): one of the two sees the other, so no wake-up is lost. */
void
sl_in_flight_flush (void)
{
  if (!sl_in_flight_local)
    return;
  gint64 delta = sl_in_flight_local;
  sl_in_flight_local = 0;
  gint64 sum = __atomic_add_fetch (&held->value, delta, __ATOMIC_SEQ_CST);
  if (delta < 0 && __atomic_load_n (&waiting, __ATOMIC_SEQ_CST) && below (sum))
    wake_waiters ();
}

gboolean
sl_in_flight_over (void)
{
  if (G_LIKELY (!__atomic_load_n (&max_bytes, __ATOMIC_RELAXED)))
    return FALSE;
  return !below (sl_counter_get (held));
}

gboolean
sl_in_flight_notify_below (SlInFlightNotify notify, gpointer data)
{
  sl_in_flight_flush ();
  g_mutex_lock (&waiters_lock);
  Waiter w = { notify, data };
  g_array_append_val (waiters, w);
  __atomic_store_n (&waiting, 1, __ATOMIC_SEQ_CST);
  g_mutex_unlock (&waiters_lock);
  if (below (__atomic_load_n (&held->value, __ATOMIC_SEQ_CST)))
    {
      wake_waiters ();
      return FALSE;
    }
  return TRUE;
}
