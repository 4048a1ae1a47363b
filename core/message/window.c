/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/message/window.h"
#include "core/message/in-flight.h"

struct _SlWindow
{
  gint ref_count;
  guint size;
  gint in_flight;
  gint waiting;
  gint armed;
  SlWindowNotify notify;
  gpointer notify_data;
  gboolean cancelled;
  gint budget_queued;   /* waits in sl_in_flight_notify_below() for room in the bytes' bound */
  GMutex lock;
  GCond room;
};

SlWindow *
sl_window_new (guint size)
{
  SlWindow *w = g_new0 (SlWindow, 1);
  w->ref_count = 1;
  w->size = MAX (size, 1);
  g_mutex_init (&w->lock);
  g_cond_init (&w->room);
  return w;
}

void
sl_window_ref_many (SlWindow *w, guint n)
{
  g_atomic_int_add (&w->ref_count, (gint) n);
}

void
sl_window_unref_many (SlWindow *w, guint n)
{
  if (!n || g_atomic_int_add (&w->ref_count, -(gint) n) != (gint) n)
    return;
  g_mutex_clear (&w->lock);
  g_cond_clear (&w->room);
  g_free (w);
}

void
sl_window_unref (SlWindow *w)
{
  sl_window_unref_many (w, 1);
}

void
sl_window_take (SlWindow *w, guint n)
{
  g_atomic_int_add (&w->in_flight, n);
}

/* Whoever clears armed (here or sl_window_arm) owns the one wake-up it
 * stands for. */
static void
wake (SlWindow *w)
{
  if (g_atomic_int_get (&w->waiting))
    {
      g_mutex_lock (&w->lock);
      g_cond_broadcast (&w->room);
      g_mutex_unlock (&w->lock);
    }
  if (g_atomic_int_get (&w->armed) && g_atomic_int_compare_and_exchange (&w->armed, 1, 0))
    {
      g_mutex_lock (&w->lock);
      if (w->notify)
        w->notify (w->notify_data);
      g_mutex_unlock (&w->lock);
    }
}

/* The reader only sleeps or arms when the window is full, so
 * acknowledgements take the lock only while someone waits. */
void
sl_window_release (SlWindow *w, guint n)
{
  gint before = g_atomic_int_add (&w->in_flight, -(gint) n);
  if ((guint) before - n >= w->size)
    return;
  wake (w);
}

/* The bytes' bound has room again. budget_queued is cleared before
 * waiting is read, and a waiter reads it after raising waiting: one of
 * the two sees the other. */
static void
budget_room (gpointer data)
{
  SlWindow *w = data;
  g_atomic_int_set (&w->budget_queued, 0);
  wake (w);
  sl_window_unref (w);
}

/* Whether the process holds its bound of bytes in flight; if so, w is
 * woken (once) when it no longer does. */
static gboolean
budget_over (SlWindow *w)
{
  sl_in_flight_flush ();
  if (!sl_in_flight_over ())
    return FALSE;
  if (g_atomic_int_compare_and_exchange (&w->budget_queued, 0, 1))
    {
      sl_window_ref_many (w, 1);
      sl_in_flight_notify_below (budget_room, w);
    }
  return TRUE;
}

static gboolean
window_full (SlWindow *w)
{
  return (guint) g_atomic_int_get (&w->in_flight) >= w->size;
}

void
sl_window_set_notify (SlWindow *w, SlWindowNotify notify, gpointer data)
{
  g_mutex_lock (&w->lock);
  w->notify = notify;
  w->notify_data = data;
  g_mutex_unlock (&w->lock);
}

/* armed is set before in_flight is read again, and release reads armed
 * after it lowered in_flight: one of the two sees the other, so room that
 * appears in between is never missed. */
gboolean
sl_window_arm (SlWindow *w)
{
  if (!window_full (w) && !sl_in_flight_over ())
    return FALSE;
  g_atomic_int_set (&w->armed, 1);
  if (!window_full (w) && !budget_over (w) && g_atomic_int_compare_and_exchange (&w->armed, 1, 0))
    return FALSE;
  return TRUE;
}

/* Waiting for the bound of bytes, the window's lock is taken only after
 * budget_over(): its wake-up may come at once, and it takes that lock. */
gboolean
sl_window_wait (SlWindow *w)
{
  for (;;)
    {
      if (!window_full (w))
        {
          if (!budget_over (w))
            return !g_atomic_int_get (&w->cancelled);
          g_mutex_lock (&w->lock);
          g_atomic_int_inc (&w->waiting);
          if (!w->cancelled && g_atomic_int_get (&w->budget_queued) && sl_in_flight_over ())
            g_cond_wait (&w->room, &w->lock);
        }
      else
        {
          g_mutex_lock (&w->lock);
          g_atomic_int_inc (&w->waiting);
          while (window_full (w) && !w->cancelled)
            g_cond_wait (&w->room, &w->lock);
        }
      g_atomic_int_dec_and_test (&w->waiting);
      gboolean cancelled = w->cancelled;
      g_mutex_unlock (&w->lock);
      if (cancelled)
        return FALSE;
    }
}

gboolean
sl_window_wait_empty (SlWindow *w, gint64 end_time)
{
  if (g_atomic_int_get (&w->in_flight) == 0)
    return TRUE;
  g_mutex_lock (&w->lock);
  g_atomic_int_inc (&w->waiting);
  gboolean timed_out = FALSE;
  while (g_atomic_int_get (&w->in_flight) > 0 && !w->cancelled && !timed_out)
    {
      if (end_time < 0)
        g_cond_wait (&w->room, &w->lock);
      else
        timed_out = !g_cond_wait_until (&w->room, &w->lock, end_time);
    }
  g_atomic_int_dec_and_test (&w->waiting);
  gboolean empty = g_atomic_int_get (&w->in_flight) == 0;
  g_mutex_unlock (&w->lock);
  return empty;
}

void
sl_window_cancel (SlWindow *w)
{
  g_mutex_lock (&w->lock);
  w->cancelled = TRUE;
  g_cond_broadcast (&w->room);
  g_mutex_unlock (&w->lock);
}

guint
sl_window_in_flight (SlWindow *w)
{
  return g_atomic_int_get (&w->in_flight);
}
