#include "core/destination.h"
#include "core/internal.h"
#include "core/stats.h"

#define MAX_BATCH 1024

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

/* Sleeps for time-reopen() unless the destination is being stopped. */
static void
pause_before_retry (SlDestination *d)
{
  gint64 until = g_get_monotonic_time () + MAX (d->settings.time_reopen_s, 1) * G_USEC_PER_SEC;
  g_mutex_lock (&d->pause_lock);
  while (!g_atomic_int_get (&d->stopping))
    if (!g_cond_wait_until (&d->pause_cond, &d->pause_lock, until))
      break;
  g_mutex_unlock (&d->pause_lock);
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

  for (;;)
    {
      gint64 deadline = dirty ? g_get_monotonic_time () + d->settings.flush_timeout_ms * 1000 : -1;
      guint n = sl_queue_pop (d->queue, items, d->settings.batch_lines, deadline);
      if (!n)
        {
          if (dirty && klass->flush)
            klass->flush (d->driver);
          dirty = FALSE;
          if (sl_queue_is_closed (d->queue))
            break;
          continue;
        }
      if (g_atomic_int_compare_and_exchange (&d->reopen_requested, 1, 0) && opened && klass->reopen)
        klass->reopen (d->driver);
      if (!opened)
        opened = open_driver (d);
      for (guint i = 0; i < n; i++)
        msgs[i] = items[i].msg;
      guint written = opened ? klass->write (d->driver, msgs, n) : 0;
      sl_counter_add (d->written, written);
      finish_items (d, items, written);
      dirty = dirty || written > 0;
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
      pause_before_retry (d);
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
