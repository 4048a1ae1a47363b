/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/window.h"

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

/* The reader only sleeps or arms when the window is full, so
 * acknowledgements take the lock only while someone waits. Whoever clears
 * armed (here or sl_window_arm) owns the one wake-up it stands for. */
void
sl_window_release (SlWindow *w, guint n)
{
  gint before = g_atomic_int_add (&w->in_flight, -(gint) n);
  if ((guint) before - n >= w->size)
    return;
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
  if ((guint) g_atomic_int_get (&w->in_flight) < w->size)
    return FALSE;
  g_atomic_int_set (&w->armed, 1);
  if ((guint) g_atomic_int_get (&w->in_flight) < w->size
      && g_atomic_int_compare_and_exchange (&w->armed, 1, 0))
    return FALSE;
  return TRUE;
}

gboolean
sl_window_wait (SlWindow *w)
{
  if ((guint) g_atomic_int_get (&w->in_flight) < w->size)
    return !g_atomic_int_get (&w->cancelled);
  g_mutex_lock (&w->lock);
  g_atomic_int_inc (&w->waiting);
  while ((guint) g_atomic_int_get (&w->in_flight) >= w->size && !w->cancelled)
    g_cond_wait (&w->room, &w->lock);
  g_atomic_int_dec_and_test (&w->waiting);
  gboolean ok = !w->cancelled;
  g_mutex_unlock (&w->lock);
  return ok;
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
