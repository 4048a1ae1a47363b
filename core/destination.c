#include "core/destination.h"
#include "core/internal.h"
#include "core/stats.h"

#define MAX_BATCH 1024
#define TICK_INTERVAL_US G_USEC_PER_SEC

struct _SlDestination
{
  SlDriver *driver;
  SlDestinationSettings settings;
  SlQueue *queue;
  GThread *thread;
  gint reopen_requested;
  gint stopping;
  GMutex pause_lock;
  GCond pause_cond;
  gdouble tokens;           /* throttle(): messages that may be written now */
  gint64 tokens_at;
  SlCounter *queued;
  SlCounter *dropped;
  SlCounter *written;
  SlCounter *processed;
};

/* The destination whose writer thread this is, for sl_destination_stopping(). */
static __thread SlDestination *current_destination;

SlDestination *
sl_destination_new (SlDriver *driver, const SlDestinationSettings *settings)
{
  SlDestination *d = g_new0 (SlDestination, 1);
  d->driver = driver;
  d->settings = *settings;
  d->settings.batch_lines = CLAMP (settings->batch_lines, 1, MAX_BATCH);
  d->tokens = settings->throttle;
  d->tokens_at = g_get_monotonic_time ();
  d->queue = sl_queue_new (settings->fifo_size);
  g_mutex_init (&d->pause_lock);
  g_cond_init (&d->pause_cond);
  d->queued = sl_stats_counter ("destination", driver->id, driver->klass->name, "queued");
  d->dropped = sl_stats_counter ("destination", driver->id, driver->klass->name, "dropped");
  d->written = sl_stats_counter ("destination", driver->id, driver->klass->name, "written");
  d->processed = sl_stats_counter ("destination", driver->id, driver->klass->name, "processed");
  return d;
}

SlDriver *
sl_destination_driver (SlDestination *d)
{
  return d->driver;
}

void
sl_destination_push (SlDestination *d, const SlQueueItem *items, guint n)
{
  guint dropped = sl_queue_push (d->queue, items, n);
  sl_counter_add (d->processed, n);
  sl_counter_add (d->queued, n - dropped);
  if (dropped)
    {
      /* Only the first drop after a quiet spell is logged, or the log of
       * drops would itself flood the queue it reports on. */
      gint64 before = sl_counter_get (d->dropped);
      sl_counter_add (d->dropped, dropped);
      if (before == 0 || (before + dropped) / 10000 != before / 10000)
        sl_log (SL_LOG_WARNING, "destination queue full, dropping messages; driver='%s', dropped='%" G_GINT64_FORMAT "', log-fifo-size='%u'",
                d->driver->id, before + dropped, d->settings.fifo_size);
    }
}

static void
finish_items (SlDestination *d, SlQueueItem *items, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      if (items[i].flow_controlled)
        sl_message_ack (items[i].msg);
      sl_message_unref (items[i].msg);
    }
  sl_counter_add (d->queued, -(gint64) n);
}

static gboolean
open_driver (SlDestination *d)
{
  const SlDriverClass *klass = d->driver->klass;
  GError *error = NULL;
  if (!klass->open || klass->open (d->driver, &error))
    return TRUE;
  sl_log (SL_LOG_ERROR, "cannot open destination %s: %s; retrying in %" G_GINT64_FORMAT "s",
          d->driver->id, error->message, d->settings.time_reopen_s);
  g_error_free (error);
  return FALSE;
}

/* A reopen is applied, and the driver's tick called, whether messages come
 * or not: a file renamed by logrotate is let go of without waiting for the
 * next message. TRUE when the tick said a failed write may be retried. */
static gboolean
housekeeping (SlDestination *d, gboolean opened, gint64 *next_tick)
{
  const SlDriverClass *klass = d->driver->klass;
  if (g_atomic_int_compare_and_exchange (&d->reopen_requested, 1, 0) && opened && klass->reopen)
    klass->reopen (d->driver);
  gint64 now = g_get_monotonic_time ();
  if (now < *next_tick)
    return FALSE;
  *next_tick = now + TICK_INTERVAL_US;
  return opened && klass->tick && klass->tick (d->driver);
}

/* Sleeps until the monotonic time until, or less when the destination is
 * being stopped; TRUE when it is. */
static gboolean
nap (SlDestination *d, gint64 until)
{
  g_mutex_lock (&d->pause_lock);
  if (!g_atomic_int_get (&d->stopping))
    g_cond_wait_until (&d->pause_cond, &d->pause_lock, until);
  gboolean stopping = g_atomic_int_get (&d->stopping);
  g_mutex_unlock (&d->pause_lock);
  return stopping;
}

/* Sleeps for time-reopen() unless the destination is being stopped or
 * its driver's tick says it can take messages again sooner (a program
 * restarted after its back-off). */
static void
pause_before_retry (SlDestination *d, gboolean opened, gint64 *next_tick)
{
  gint64 until = g_get_monotonic_time () + MAX (d->settings.time_reopen_s, 1) * G_USEC_PER_SEC;
  while (!nap (d, MIN (until, *next_tick)))
    if (g_get_monotonic_time () >= until || housekeeping (d, opened, next_tick))
      return;
}

/* How many messages throttle() lets through now: a bucket that fills at
 * throttle() a second and holds one second's worth. At shutdown what is
 * queued is written without delay. */
static guint
throttle_allowance (SlDestination *d)
{
  guint rate = d->settings.throttle;
  if (!rate || g_atomic_int_get (&d->stopping))
    return d->settings.batch_lines;
  gint64 now = g_get_monotonic_time ();
  d->tokens = MIN ((gdouble) rate, d->tokens + (gdouble) (now - d->tokens_at) * rate / G_USEC_PER_SEC);
  d->tokens_at = now;
  return MIN (d->settings.batch_lines, (guint) d->tokens);
}

/* Waits until throttle() lets the next message through. */
static void
wait_for_token (SlDestination *d, gint64 next_tick)
{
  gint64 wait = (gint64) ((1.0 - d->tokens) * G_USEC_PER_SEC / d->settings.throttle) + 1;
  nap (d, MIN (g_get_monotonic_time () + wait, next_tick));
}

static gpointer
writer_thread (gpointer data)
{
  SlDestination *d = data;
  const SlDriverClass *klass = d->driver->klass;
  current_destination = d;
  SlQueueItem items[MAX_BATCH];
  SlMessage *msgs[MAX_BATCH];
  gboolean opened = open_driver (d);
  gboolean dirty = FALSE;
  guint failures = 0;
  gint64 next_tick = g_get_monotonic_time () + TICK_INTERVAL_US;
  gint64 flush_at = 0;

  for (;;)
    {
      guint allowed = throttle_allowance (d);
      if (!allowed)
        {
          wait_for_token (d, next_tick);
          housekeeping (d, opened, &next_tick);
          continue;
        }
      guint n = sl_queue_pop (d->queue, items, allowed,
                              dirty ? MIN (next_tick, flush_at) : next_tick);
      housekeeping (d, opened, &next_tick);
      if (!n)
        {
          gboolean closed = sl_queue_is_closed (d->queue);
          if (dirty && (closed || g_get_monotonic_time () >= flush_at))
            {
              if (klass->flush)
                klass->flush (d->driver);
              dirty = FALSE;
            }
          if (closed)
            break;
          continue;
        }
      if (!opened)
        opened = open_driver (d);
      for (guint i = 0; i < n; i++)
        msgs[i] = items[i].msg;
      guint written = opened ? klass->write (d->driver, msgs, n) : 0;
      if (d->settings.throttle)
        d->tokens -= written;
      sl_counter_add (d->written, written);
      finish_items (d, items, written);
      if (written > 0)
        {
          dirty = TRUE;
          flush_at = g_get_monotonic_time () + d->settings.flush_timeout_ms * 1000;
        }
      if (written == n)
        {
          failures = 0;
          continue;
        }
      /* At shutdown a destination that keeps failing gets one more try;
       * then what is left is counted and logged, not waited on forever. */
      if (g_atomic_int_get (&d->stopping) && ++failures > 1)
        {
          guint lost = n - written;
          sl_counter_add (d->dropped, lost);
          if (failures == 2)
            sl_log (SL_LOG_ERROR, "destination %s still failing at shutdown; %u messages not written",
                    d->driver->id, lost + sl_queue_length (d->queue));
          finish_items (d, items + written, lost);
          continue;
        }
      sl_queue_unpop (d->queue, items + written, n - written);
      pause_before_retry (d, opened, &next_tick);
    }
  if (opened && klass->close)
    klass->close (d->driver);
  return NULL;
}

gboolean
sl_destination_stopping (void)
{
  return current_destination && g_atomic_int_get (&current_destination->stopping);
}

gboolean
sl_destination_start (SlDestination *d, GError **error)
{
  d->thread = g_thread_try_new (d->driver->id, writer_thread, d, error);
  return d->thread != NULL;
}

void
sl_destination_stop (SlDestination *d)
{
  if (!d->thread)
    return;
  g_mutex_lock (&d->pause_lock);
  g_atomic_int_set (&d->stopping, 1);
  g_cond_broadcast (&d->pause_cond);
  g_mutex_unlock (&d->pause_lock);
  sl_queue_close (d->queue);
  g_thread_join (d->thread);
  d->thread = NULL;
}

void
sl_destination_reopen (SlDestination *d)
{
  g_atomic_int_set (&d->reopen_requested, 1);
}

void
sl_destination_free (SlDestination *d)
{
  sl_destination_stop (d);
  sl_queue_free (d->queue);
  g_mutex_clear (&d->pause_lock);
  g_cond_clear (&d->pause_cond);
  g_free (d);
}
