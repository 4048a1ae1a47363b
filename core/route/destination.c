/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/route/destination.h"
#include "core/route/destination-private.h"
#include "core/route/backoff.h"
#include "core/route/disk-buffer.h"
#include "core/i18n.h"
#include "core/message/in-flight.h"
#include "core/internal.h"
#include "core/message/mark.h"
#include "core/route/mark-timer.h"
#include "core/store/persist.h"
#include "core/stats.h"
#include "core/route/suppress.h"
#include "core/message/window.h"

#include <inttypes.h>
#include <string.h>

#define MAX_BATCH 1024
#define TICK_INTERVAL_US G_USEC_PER_SEC
/* At a stop, how long a destination with a disk buffer goes on writing
 * before it leaves the rest on disk. */
#define STOP_WRITE_LIMIT_US (5 * G_USEC_PER_SEC)

/* Three failures in a row of the same first message, and it is dropped. */
#define ERROR_RETRIES 3
/* The first wait after a failure; each next one is twice as long, up to
 * time-reopen(): a disk that has room again or a peer that is back is
 * written to within a fraction of a second, not a minute later. */
#define RETRY_FIRST_MS 200
/* How often the watch looks whether a destination wrote: a stall is seen
 * within this much of stall-timeout(). */
#define WATCH_INTERVAL_US (G_USEC_PER_SEC / 5)

typedef struct _SlWriter SlWriter;

struct _SlDestination
{
  SlDriver *driver;          /* the first writer's, for ids and messages */
  SlDestinationOptions settings;
  GPtrArray *writers;        /* SlWriter */
  GPtrArray *drivers;        /* each writer's */
  SlQueue *queue;
  SlDiskBuffer *disk;        /* disk-buffer(), while started */
  gint stopping;
  gint handing_over;         /* a reload replaces it: what it cannot write goes to the replacement */
  gint64 stop_deadline;      /* with a disk buffer: when writing at a stop ends */
  GMutex pause_lock;
  GCond pause_cond;
  GMutex throttle_lock;
  gdouble tokens;           /* throttle(): messages that may be written now */
  gint64 tokens_at;
  SlCounter *queued;
  SlCounter *dropped;
  SlCounter *written;
  SlCounter *processed;
  SlCounter *disk_length;
  SlCounter *disk_bytes;
  gint64 settled;            /* messages written or dropped by the writers, ever */
  /* the watch's own (stall-timeout()) */
  gint64 settled_seen;
  gint64 progress_at;        /* monotonic: it last wrote, or had nothing to write */
  gint stalled;              /* read by pushing threads, for what they log */
  gint64 dropped_before_stall;
  /* A run of failures is the destination's, not a writer's, so that
   * workers(N) log an outage once: the first writer that fails logs it,
   * the first that writes again its end. */
  gint failing;
  gint recoveries;           /* runs ended: a failure of an attempt begun before is none */
  gint64 failing_since;      /* monotonic µs */
  gint retries;
  gint64 waited;             /* the most messages queued during the run */
  SlSuppress *suppress;      /* suppress() or reduce-repeats(), or NULL */
  SlMarkTimer mark;          /* mark-mode(), mark-freq() */
};

struct _SlWriter
{
  SlDestination *d;
  SlDriver *driver;
  const SlDestinationOps *ops;
  GThread *thread;
  gint reopen_requested;
  gboolean opened;
  guint head_failures;       /* SL_WRITE_ERROR for the same first message */
  SlBackoff backoff;
  gboolean leaving;          /* stopping, and a write failed: the rest stays in the disk buffer */
  gchar reason[SL_WRITE_REASON_MAX];   /* why the last write or open failed, as the driver said */
  gint recoveries_seen;      /* the destination's, as the current attempt began */
  /* the batch the driver is writing, where a stall can end its holds */
  GMutex hand_lock;
  SlQueueItem *hand;
  guint hand_n;
  /* SL_CAP_ANSWERS: what was sent and is not answered yet, in the order it
   * was taken, in fly[fly_head..fly_tail) of max-in-flight() places; the
   * next batch is taken into the places after it */
  SlQueueItem *fly;
  guint64 *fly_seqs;
  guint fly_head;
  guint fly_tail;
  guint fly_cap;
};

/* The destination whose writer thread this is, for sl_destination_stopping(). */
static __thread SlDestination *current_destination;

static void
free_writer (gpointer data)
{
  SlWriter *w = data;
  g_mutex_clear (&w->hand_lock);
  g_free (w->fly);
  g_free (w->fly_seqs);
  g_free (w);
}

SlDestination *
sl_destination_new (GPtrArray *drivers, const SlDestinationOptions *options)
{
  SlDestination *d = g_new0 (SlDestination, 1);
  d->driver = g_ptr_array_index (drivers, 0);
  d->settings = *options;
  d->settings.fifo_size = MAX (options->fifo_size, 1);
  d->settings.flush_lines = CLAMP (options->flush_lines, 1, MAX_BATCH);
  d->settings.flush_timeout_ms = MAX (options->flush_timeout_ms, 0);
  d->settings.time_reopen_ms = MAX (options->time_reopen_ms, 1);
  d->settings.throttle = MAX (options->throttle, 0);
  d->tokens = d->settings.throttle;
  d->tokens_at = g_get_monotonic_time ();
  d->queue = sl_queue_new (d->settings.fifo_size);
  sl_queue_set_discard (d->queue, d->settings.discard_mark, d->settings.discard_level);
  sl_mark_timer_init (&d->mark, d->settings.mark_mode, d->settings.mark_freq, d->tokens_at);
  d->writers = g_ptr_array_new_with_free_func (free_writer);
  for (guint i = 0; i < drivers->len; i++)
    {
      SlWriter *w = g_new0 (SlWriter, 1);
      w->d = d;
      w->driver = g_ptr_array_index (drivers, i);
      w->ops = w->driver->klass->ops.destination;
      sl_backoff_init (&w->backoff, RETRY_FIRST_MS, d->settings.time_reopen_ms);
      g_mutex_init (&w->hand_lock);
      if (w->driver->klass->capabilities & SL_CAP_ANSWERS)
        {
          w->fly_cap = (guint) MAX (d->settings.max_in_flight, 1);
          w->fly = g_new (SlQueueItem, w->fly_cap);
          w->fly_seqs = g_new0 (guint64, w->fly_cap);
        }
      g_ptr_array_add (d->writers, w);
    }
  d->drivers = drivers;
  g_mutex_init (&d->pause_lock);
  g_cond_init (&d->pause_cond);
  g_mutex_init (&d->throttle_lock);
  const gchar *id = d->driver->id, *kind = d->driver->klass->name;
  d->queued = sl_stats_gauge ("destination", id, kind, "queued");
  d->dropped = sl_stats_counter ("destination", id, kind, "dropped");
  d->written = sl_stats_counter ("destination", id, kind, "written");
  d->processed = sl_stats_counter ("destination", id, kind, "processed");
  if (options->suppress > 0 || options->reduce_repeats)
    d->suppress = sl_suppress_new (options->reduce_repeats ? SL_SUPPRESS_RSYSLOG : SL_SUPPRESS_SYSLOG_NG,
                                   options->suppress, sl_stats_counter ("destination", id, kind, "suppressed"));
  if (d->settings.disk_buffer.node)
    {
      d->disk_length = sl_stats_gauge ("destination", id, kind, "disk_queue_length");
      d->disk_bytes = sl_stats_gauge ("destination", id, kind, "disk_queue_bytes");
    }
  return d;
}

static void enqueue (SlDestination *d, const SlQueueItem *items, guint n);

/* mark-mode() drops the MARKs it does not write, then suppress() the
 * repeats (never a MARK). */
void
sl_destination_push (SlDestination *d, const SlQueueItem *items, guint n)
{
  g_autofree SlQueueItem *copy = NULL;
  items = sl_mark_timer_pass (&d->mark, items, &n, &copy);
  if (!n)
    return;
  if (!d->suppress)
    {
      enqueue (d, items, n);
      return;
    }
  SlQueueItem *kept = sl_suppress_filter (d->suppress, items, &n, g_get_monotonic_time ());
  enqueue (d, kept, n);
  g_free (kept);
}

void
sl_destination_take_queued (SlDestination *d, SlDestinationTake func, gpointer user_data)
{
  SlQueueItem items[64];
  guint n;

  while ((n = sl_queue_pop (d->queue, items, G_N_ELEMENTS (items), g_get_monotonic_time ())) > 0)
    {
      sl_counter_add (d->queued, -(gint64) n);
      for (guint i = 0; i < n; i++)
        {
          func (items[i].msg, user_data);
          sl_queue_item_free (&items[i]);
        }
    }
}

/* mark-mode() dst-idle, host-idle and periodical: a MARK of its own,
 * queued as syslog-ng's writer queues it, past what the pass drops; none
 * once it stops, as syslog-ng's timer ends with its writer. */
static void
queue_own_mark (SlDestination *d, gint64 now)
{
  if (g_atomic_int_get (&d->stopping) || !sl_mark_timer_due (&d->mark, now))
    return;
  SlQueueItem item = { sl_mark_message_new (SL_MARK_TEXT), FALSE, FALSE };
  item.msg->flags |= SL_MSG_MARK;
  enqueue (d, &item, 1);
}

/* A summary of repeats that suppress() makes on its own, queued as the
 * repeated message's own would be, but under no flow control. */
static void
enqueue_summary (SlDestination *d, SlMessage *summary)
{
  if (summary)
    enqueue (d, &(SlQueueItem) { summary, FALSE }, 1);
}

static void
enqueue (SlDestination *d, const SlQueueItem *items, guint n)
{
  /* counted before a writer can take them, so that the gauge (and what
   * a fault's log says waited) never reads below what is queued */
  sl_counter_add (d->queued, n);
  guint dropped = sl_queue_push (d->queue, items, n);
  sl_counter_add (d->processed, n);
  if (dropped)
    {
      sl_counter_add (d->queued, -(gint64) dropped);
      /* Only the first drop after a quiet spell is logged, or the log of
       * drops would itself flood the queue it reports on; a stall's drops
       * are logged as it ends. */
      gint64 before = sl_counter_get (d->dropped);
      sl_counter_add (d->dropped, dropped);
      if (g_atomic_int_get (&d->stalled))
        return;
      if ((before == 0 || (before + dropped) / 10000 != before / 10000) && sl_in_flight_over ())
        sl_log (SL_LOG_WARNING, _("in-flight-bytes-max() reached, dropping messages without flow control; "
                                  "driver='%s', dropped='%" PRId64 "', in-flight-bytes-max='%" PRId64 "'"),
                d->driver->id, before + dropped, sl_in_flight_max ());
      else if (before == 0 || (before + dropped) / 10000 != before / 10000)
        sl_log (SL_LOG_WARNING, _("destination queue full, dropping messages; driver='%s', dropped='%" PRId64 "', log-fifo-size='%u'"),
                d->driver->id, before + dropped, d->settings.fifo_size);
    }
}

/* Handled messages: acknowledged and let go, or, from a disk buffer,
 * removed from it. */
static void
finish_items (SlDestination *d, SlQueueItem *items, const guint64 *seqs, guint n)
{
  if (d->disk)
    {
      sl_disk_buffer_done (d->disk, items, seqs, n);
      __atomic_add_fetch (&d->settled, n, __ATOMIC_RELAXED);
      return;
    }
  /* Acknowledged first, while every message (and so its window) is still
   * held; each window is released and let go of once per run of messages
   * from it. */
  SlWindow *window = NULL;
  guint places = 0;
  for (guint i = 0; i < n; i++)
    {
      SlWindow *acked = items[i].flow_controlled ? sl_message_ack_defer (items[i].msg) : NULL;
      if (!acked)
        continue;
      if (acked != window)
        {
          if (places)
            sl_window_release (window, places);
          window = acked;
          places = 0;
        }
      places++;
    }
  if (places)
    sl_window_release (window, places);

  window = NULL;
  guint refs = 0;
  for (guint i = 0; i < n; i++)
    {
      SlWindow *held = sl_message_unref_defer (items[i].msg);
      if (!held)
        continue;
      if (held != window)
        {
          if (refs)
            sl_window_unref_many (window, refs);
          window = held;
          refs = 0;
        }
      refs++;
    }
  if (refs)
    sl_window_unref_many (window, refs);
  /* the bytes let go count at once: a source may wait for them */
  sl_in_flight_flush ();
  sl_counter_add (d->queued, -(gint64) n);
  __atomic_add_fetch (&d->settled, n, __ATOMIC_RELAXED);
}

/* Messages the driver gave up on are acknowledged like written ones (their
 * sources' windows must not stay held), counted, and logged the first time
 * and then once per 10000. */
static void
drop_items (SlDestination *d, SlQueueItem *items, const guint64 *seqs, guint n, const gchar *why)
{
  if (!n)
    return;
  gint64 before = sl_counter_get (d->dropped);
  sl_counter_add (d->dropped, n);
  if (before == 0 || (before + n) / 10000 != before / 10000)
    sl_log (SL_LOG_ERROR, _("destination %s dropped %u messages (%s); %" PRId64 " so far"),
            d->driver->id, n, why, before + n);
  finish_items (d, items, seqs, n);
}

static void
put_back (SlDestination *d, const SlQueueItem *items, const guint64 *seqs, guint n)
{
  if (d->disk)
    sl_disk_buffer_unpop (d->disk, items, seqs, n);
  else
    sl_queue_unpop (d->queue, items, n);
}

/* Messages waiting for the writers: in the queue, or on disk. */
static gint64
waiting_messages (SlDestination *d)
{
  return sl_counter_get (d->queued) + (d->disk_length ? sl_counter_get (d->disk_length) : 0);
}

static void
note_waiting (SlDestination *d)
{
  gint64 now = waiting_messages (d);
  gint64 seen = __atomic_load_n (&d->waited, __ATOMIC_RELAXED);
  while (now > seen && !__atomic_compare_exchange_n (&d->waited, &seen, now, FALSE, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
    ;
}

/* The one line of a destination's run of failures, with the reason the
 * driver gave; its retries are not logged, its end is (note_success()).
 * One that begins at a stop is not: what it leaves is logged as dropped
 * or kept. Nor is the failure of an attempt that began before another
 * writer ended the run: it is the run's, late. */
static void
note_failure (SlWriter *w)
{
  SlDestination *d = w->d;
  if (g_atomic_int_get (&d->stopping) || g_atomic_int_get (&d->recoveries) != w->recoveries_seen
      || !g_atomic_int_compare_and_exchange (&d->failing, 0, 1))
    return;
  __atomic_store_n (&d->failing_since, g_get_monotonic_time (), __ATOMIC_RELAXED);
  __atomic_store_n (&d->waited, waiting_messages (d), __ATOMIC_RELAXED);
  g_atomic_int_set (&d->retries, 0);
  sl_log (SL_LOG_WARNING, _("destination cannot write now, retrying with waits up to time-reopen() (%" PRId64 " ms); "
                            "driver='%s', reason='%s', queued='%" PRId64 "'"),
          d->settings.time_reopen_ms, w->driver->id, w->reason[0] ? w->reason : _("not given"),
          __atomic_load_n (&d->waited, __ATOMIC_RELAXED));
}

static gboolean
open_driver (SlWriter *w)
{
  GError *error = NULL;
  if (!w->ops->open || w->ops->open (w->driver, &error))
    return w->opened = TRUE;
  g_strlcpy (w->reason, error->message, sizeof w->reason);
  g_error_free (error);
  note_failure (w);
  return FALSE;
}

static void
close_driver (SlWriter *w)
{
  if (w->opened && w->ops->close)
    w->ops->close (w->driver);
  w->opened = FALSE;
}

/* A reopen is applied, and the driver's tick called, whether messages come
 * or not: a file renamed by logrotate is let go of without waiting for the
 * next message. TRUE when the tick said a failed write may be retried. */
static gboolean
housekeeping (SlWriter *w, gint64 *next_tick)
{
  if (g_atomic_int_compare_and_exchange (&w->reopen_requested, 1, 0) && w->opened && w->ops->reopen)
    w->ops->reopen (w->driver);
  gint64 now = g_get_monotonic_time ();
  queue_own_mark (w->d, now);
  if (now < *next_tick)
    return FALSE;
  *next_tick = now + TICK_INTERVAL_US;
  if (w->d->suppress)
    enqueue_summary (w->d, sl_suppress_expire (w->d->suppress, now, FALSE));
  return w->opened && w->ops->tick && w->ops->tick (w->driver);
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

/* Sleeps for the next wait of the back-off unless the destination is
 * being stopped or its driver's tick says it can take messages again
 * sooner (a program restarted after its back-off). */
static void
pause_before_retry (SlWriter *w, gint64 *next_tick)
{
  gint64 wait_ms = sl_backoff_failed (&w->backoff);
  note_failure (w);
  if (g_atomic_int_get (&w->d->failing))
    {
      g_atomic_int_inc (&w->d->retries);
      note_waiting (w->d);
    }
  gint64 until = g_get_monotonic_time () + wait_ms * 1000;
  while (!nap (w->d, MIN (until, *next_tick)))
    if (g_get_monotonic_time () >= until || housekeeping (w, next_tick))
      return;
}

static void
note_success (SlWriter *w)
{
  SlDestination *d = w->d;
  sl_backoff_worked (&w->backoff);
  if (!g_atomic_int_get (&d->failing) || !g_atomic_int_compare_and_exchange (&d->failing, 1, 0))
    return;
  g_atomic_int_inc (&d->recoveries);
  sl_log (SL_LOG_NOTICE, _("destination writes again; driver='%s', failed_for='%.1f s', retries='%u', "
                           "queued='%" PRId64 "'"),
          w->driver->id, (g_get_monotonic_time () - __atomic_load_n (&d->failing_since, __ATOMIC_RELAXED)) / 1e6,
          (guint) g_atomic_int_get (&d->retries), __atomic_load_n (&d->waited, __ATOMIC_RELAXED));
}

/* How many messages throttle() lets through now: a bucket that fills at
 * throttle() a second and holds one second's worth, shared by the
 * writers. At shutdown what is queued is written without delay. */
static guint
throttle_allowance (SlDestination *d)
{
  guint rate = d->settings.throttle;
  if (!rate || g_atomic_int_get (&d->stopping))
    return d->settings.flush_lines;
  g_mutex_lock (&d->throttle_lock);
  gint64 now = g_get_monotonic_time ();
  d->tokens = MIN ((gdouble) rate, d->tokens + (gdouble) (now - d->tokens_at) * rate / G_USEC_PER_SEC);
  d->tokens_at = now;
  guint allowed = MIN ((guint) d->settings.flush_lines, (guint) d->tokens);
  g_mutex_unlock (&d->throttle_lock);
  return allowed;
}

static void
spend_tokens (SlDestination *d, guint n)
{
  if (!d->settings.throttle)
    return;
  g_mutex_lock (&d->throttle_lock);
  d->tokens -= n;
  g_mutex_unlock (&d->throttle_lock);
}

/* Waits until throttle() lets the next message through. */
static void
wait_for_token (SlDestination *d, gint64 next_tick)
{
  g_mutex_lock (&d->throttle_lock);
  gint64 wait = (gint64) ((1.0 - d->tokens) * G_USEC_PER_SEC / d->settings.throttle) + 1;
  g_mutex_unlock (&d->throttle_lock);
  nap (d, MIN (g_get_monotonic_time () + wait, next_tick));
}

/* What the writer holds while its driver writes, so that a stall can end
 * the holds of a batch a driver never returns from. */
static void
in_hand (SlWriter *w, SlQueueItem *items, guint n)
{
  g_mutex_lock (&w->hand_lock);
  w->hand = items;
  w->hand_n = n;
  g_mutex_unlock (&w->hand_lock);
}

/* What the driver did not handle: put back for a retry, or dropped, as
 * its result asks; TRUE when the writer should wait before it tries
 * again. */
static gboolean
settle_rest (SlWriter *w, SlWriteResult result, SlQueueItem *items, guint64 *seqs, guint rest)
{
  SlDestination *d = w->d;
  /* At shutdown a destination that keeps failing gets one more try;
   * then what is left is counted and logged, not waited on forever.
   * A disk buffer keeps it instead. */
  if (g_atomic_int_get (&d->stopping) && result != SL_WRITE_DROP && (d->disk || ++w->head_failures > 1))
    {
      if (d->disk || g_atomic_int_get (&d->handing_over))
        {
          put_back (d, items, seqs, rest);
          w->leaving = TRUE;
        }
      else
        drop_items (d, items, seqs, rest, "still failing at shutdown");
      return FALSE;
    }
  switch (result)
    {
    case SL_WRITE_DROP:
      drop_items (d, items, seqs, rest, w->reason[0] ? w->reason : "the destination refused them");
      return FALSE;
    case SL_WRITE_ERROR:
      if (++w->head_failures >= ERROR_RETRIES)
        {
          w->head_failures = 0;
          drop_items (d, items, seqs, 1, "failed three times in a row");
          put_back (d, items + 1, seqs + 1, rest - 1);
          return FALSE;
        }
      break;
    case SL_WRITE_NOT_CONNECTED:
      close_driver (w);
      break;
    case SL_WRITE_OK:
    case SL_WRITE_RETRY:
      break;
    }
  put_back (d, items, seqs, rest);
  return TRUE;
}

/* Hands msgs to the driver and settles what it says: written and dropped
 * ones are acknowledged and counted, the rest is put back or dropped as
 * the result asks. Returns how many the driver handled; *wait tells
 * whether the writer should wait before trying again. */
static guint
write_batch (SlWriter *w, SlQueueItem *items, guint64 *seqs, SlMessage **msgs, guint n, gboolean *wait)
{
  SlDestination *d = w->d;
  SlWriteBatch batch = { .msgs = msgs, .n = n };
  w->recoveries_seen = g_atomic_int_get (&d->recoveries);
  in_hand (w, items, n);
  SlWriteResult result = SL_WRITE_NOT_CONNECTED;
  if (w->opened || open_driver (w))
    {
      result = w->ops->write (w->driver, &batch);
      g_strlcpy (w->reason, batch.reason, sizeof w->reason);
    }
  in_hand (w, NULL, 0);
  guint done = MIN (batch.done, n);
  guint dropped = MIN (batch.dropped, done);
  spend_tokens (d, done);
  sl_counter_add (d->written, done - dropped);
  sl_counter_add (d->dropped, dropped);
  finish_items (d, items, seqs, done);
  if (done > 0)
    w->head_failures = 0;
  *wait = FALSE;
  if (done < n)
    *wait = settle_rest (w, result, items + done, seqs + done, n - done);
  return done;
}

/* SL_CAP_ANSWERS: the n messages taken into the places after those in
 * flight are handed to the driver (n may be 0: only answers are asked
 * for); what it says was answered is settled from the oldest in flight.
 * Returns how many it sent. */
static guint
write_answered (SlWriter *w, SlMessage **msgs, guint n, gboolean *wait)
{
  SlDestination *d = w->d;
  SlWriteBatch batch = { .msgs = msgs, .n = n };
  w->recoveries_seen = g_atomic_int_get (&d->recoveries);
  w->fly_tail += n;
  in_hand (w, w->fly + w->fly_head, w->fly_tail - w->fly_head);
  SlWriteResult result = SL_WRITE_NOT_CONNECTED;
  if (w->opened || open_driver (w))
    {
      result = w->ops->write (w->driver, &batch);
      g_strlcpy (w->reason, batch.reason, sizeof w->reason);
    }
  in_hand (w, NULL, 0);
  guint done = MIN (batch.done, n);
  spend_tokens (d, done);
  guint unsent = n - done;
  guint answered = MIN (batch.answered, w->fly_tail - w->fly_head - unsent);
  guint dropped = MIN (batch.dropped, answered);
  sl_counter_add (d->written, answered - dropped);
  sl_counter_add (d->dropped, dropped);
  finish_items (d, w->fly + w->fly_head, w->fly_seqs + w->fly_head, answered);
  w->fly_head += answered;
  if (answered > 0)
    w->head_failures = 0;
  *wait = FALSE;
  if (result == SL_WRITE_OK && unsent)
    {
      /* its window is full: the rest goes out after answers, at once
       * unless nothing is in flight to be answered */
      w->fly_tail -= unsent;
      put_back (d, w->fly + w->fly_tail, w->fly_seqs + w->fly_tail, unsent);
      *wait = w->fly_tail == w->fly_head;
    }
  else if (result != SL_WRITE_OK && w->fly_tail > w->fly_head)
    {
      /* the driver let go of every message not answered: sent again, in order */
      guint head = w->fly_head, rest = w->fly_tail - head;
      w->fly_head = w->fly_tail = 0;
      *wait = settle_rest (w, result, w->fly + head, w->fly_seqs + head, rest);
    }
  if (w->fly_head == w->fly_tail)
    w->fly_head = w->fly_tail = 0;
  return done;
}

/* Up to max messages from the queue, or from the disk buffer when there
 * is one; *closed once nothing more will come (with a disk buffer: at a
 * stop, once it is empty or the time to write is over). */
static guint
next_batch (SlWriter *w, SlQueueItem *items, guint64 *seqs, guint max, gint64 deadline, gboolean *closed)
{
  SlDestination *d = w->d;
  if (!d->disk)
    {
      if (w->leaving)
        {
          *closed = TRUE;
          return 0;
        }
      guint n = sl_queue_pop (d->queue, items, max, deadline);
      *closed = !n && sl_queue_is_closed (d->queue);
      return n;
    }
  gboolean stopping = g_atomic_int_get (&d->stopping);
  if (stopping && (w->leaving || g_get_monotonic_time () >= d->stop_deadline))
    {
      *closed = TRUE;
      return 0;
    }
  guint n = sl_disk_buffer_pop (d->disk, items, seqs, max, deadline);
  *closed = !n && stopping && sl_disk_buffer_drained (d->disk);
  return n;
}

/* batch-timeout(): a partial batch waits that long for the rest, so that
 * a destination that pays per request (http()) makes fewer of them when
 * messages trickle in. How many more came. */
static guint
gather (SlWriter *w, SlQueueItem *items, guint64 *seqs, guint max)
{
  gint64 deadline = g_get_monotonic_time () + w->d->settings.batch_timeout_ms * 1000;
  guint n = 0;
  gboolean closed = FALSE;
  while (n < max && !closed && !g_atomic_int_get (&w->d->stopping) && g_get_monotonic_time () < deadline)
    n += next_batch (w, items + n, seqs + n, max - n, deadline, &closed);
  return n;
}

/* SL_CAP_ANSWERS: how many of want may be sent, with the places for them
 * after those in flight (moved to the front when the end is near). */
static guint
room_in_flight (SlWriter *w, guint want)
{
  guint flying = w->fly_tail - w->fly_head;
  want = MIN (want, w->fly_cap - flying);
  if (w->fly_tail + want > w->fly_cap)
    {
      memmove (w->fly, w->fly + w->fly_head, flying * sizeof *w->fly);
      memmove (w->fly_seqs, w->fly_seqs + w->fly_head, flying * sizeof *w->fly_seqs);
      w->fly_head = 0;
      w->fly_tail = flying;
    }
  return want;
}

static gpointer
writer_thread (gpointer data)
{
  SlWriter *w = data;
  SlDestination *d = w->d;
  current_destination = d;
  SlQueueItem items[MAX_BATCH];
  guint64 seqs[MAX_BATCH];
  SlMessage *msgs[MAX_BATCH];
  open_driver (w);
  gboolean dirty = FALSE;
  gint64 next_tick = g_get_monotonic_time () + TICK_INTERVAL_US;
  gint64 flush_at = 0;

  for (;;)
    {
      guint allowed = throttle_allowance (d);
      if (!allowed)
        {
          wait_for_token (d, next_tick);
          housekeeping (w, &next_tick);
          continue;
        }
      gboolean closed = FALSE;
      gint64 deadline = dirty ? MIN (next_tick, flush_at) : next_tick;
      SlQueueItem *into = items;
      guint64 *into_seqs = seqs;
      gboolean flying = FALSE;
      if (w->fly)
        {
          allowed = room_in_flight (w, allowed);
          into = w->fly + w->fly_tail;
          into_seqs = w->fly_seqs + w->fly_tail;
          /* answers are due: new messages are not waited for */
          flying = w->fly_tail > w->fly_head;
          if (flying)
            deadline = 0;
        }
      guint n = allowed ? next_batch (w, into, into_seqs, allowed, deadline, &closed) : 0;
      if (n && n < allowed && d->settings.batch_timeout_ms)
        n += gather (w, into + n, into_seqs + n, allowed - n);
      housekeeping (w, &next_tick);
      if (w->fly && (n || flying))
        {
          for (guint i = 0; i < n; i++)
            msgs[i] = into[i].msg;
          gboolean wait;
          if (write_answered (w, msgs, n, &wait) > 0)
            {
              dirty = TRUE;
              flush_at = g_get_monotonic_time () + d->settings.flush_timeout_ms * 1000;
            }
          if (wait)
            pause_before_retry (w, &next_tick);
          else
            note_success (w);
          continue;
        }
      if (!n)
        {
          if (dirty && (closed || g_get_monotonic_time () >= flush_at))
            {
              if (w->opened && w->ops->flush)
                w->ops->flush (w->driver);
              dirty = FALSE;
            }
          if (closed)
            break;
          continue;
        }
      for (guint i = 0; i < n; i++)
        msgs[i] = items[i].msg;
      gboolean wait;
      if (write_batch (w, items, seqs, msgs, n, &wait) > 0)
        {
          dirty = TRUE;
          flush_at = g_get_monotonic_time () + d->settings.flush_timeout_ms * 1000;
        }
      if (wait)
        pause_before_retry (w, &next_tick);
      else
        note_success (w);
    }
  close_driver (w);
  return NULL;
}

const gchar *
sl_destination_driver_id (SlDestination *d)
{
  return d->driver->id;
}

GPtrArray *
sl_destination_drivers (SlDestination *d)
{
  return d->drivers;
}

gboolean
sl_destination_stopping (void)
{
  return current_destination && g_atomic_int_get (&current_destination->stopping);
}

gboolean
sl_destination_holds_lapse (SlDestination *d)
{
  return d->settings.stall_timeout_ms > 0;
}

/* stall-timeout(): one thread for the process looks at every started
 * destination that has it, a few times a second. */
static GMutex watch_lock;
static GCond watch_cond;
static GPtrArray *watched;   /* SlDestination */
static GThread *watch_thread;

static void
stall_begin (SlDestination *d, gint64 now)
{
  g_atomic_int_set (&d->stalled, TRUE);
  d->dropped_before_stall = sl_counter_get (d->dropped);
  guint dropped = sl_queue_stall (d->queue);
  for (guint i = 0; i < d->writers->len; i++)
    {
      SlWriter *w = g_ptr_array_index (d->writers, i);
      g_mutex_lock (&w->hand_lock);
      sl_queue_items_lapse (w->hand, w->hand_n);
      g_mutex_unlock (&w->hand_lock);
    }
  sl_counter_add (d->queued, -(gint64) dropped);
  sl_counter_add (d->dropped, dropped);
  sl_log (SL_LOG_WARNING, _("destination has written nothing for %.1f s; its sources no longer wait for it, and what "
                            "its queue cannot take is dropped until it writes again; driver='%s', stall-timeout='%.1f s', "
                            "queued='%" PRId64 "', log-fifo-size='%u', dropped='%u'"),
          (now - d->progress_at) / 1e6, d->driver->id, d->settings.stall_timeout_ms / 1e3,
          sl_counter_get (d->queued), d->settings.fifo_size, dropped);
}

static void
stall_end (SlDestination *d)
{
  g_atomic_int_set (&d->stalled, FALSE);
  sl_queue_unstall (d->queue);
  sl_log (SL_LOG_NOTICE, _("destination writes again, and its sources wait for it again; driver='%s', "
                           "dropped_while_stalled='%" PRId64 "'"),
          d->driver->id, sl_counter_get (d->dropped) - d->dropped_before_stall);
}

/* Whether any message is waiting for d's writers, queued or in a batch
 * being written. */
static gboolean
has_work (SlDestination *d)
{
  if (sl_queue_length (d->queue))
    return TRUE;
  gboolean busy = FALSE;
  for (guint i = 0; !busy && i < d->writers->len; i++)
    {
      SlWriter *w = g_ptr_array_index (d->writers, i);
      g_mutex_lock (&w->hand_lock);
      busy = w->hand_n > 0;
      g_mutex_unlock (&w->hand_lock);
    }
  return busy;
}

static void
watch_one (SlDestination *d, gint64 now)
{
  gint64 settled = __atomic_load_n (&d->settled, __ATOMIC_RELAXED);
  if (settled != d->settled_seen)
    {
      d->settled_seen = settled;
      d->progress_at = now;
      if (d->stalled)
        stall_end (d);
      return;
    }
  /* idle is not stalled; but a stall ends only with a write */
  if (!has_work (d))
    {
      if (!d->stalled)
        d->progress_at = now;
      return;
    }
  if (!d->stalled && now - d->progress_at >= d->settings.stall_timeout_ms * 1000)
    stall_begin (d, now);
}

static gpointer
watch_thread_run (gpointer data)
{
  g_mutex_lock (&watch_lock);
  while (watch_thread == g_thread_self ())
    {
      gint64 now = g_get_monotonic_time ();
      for (guint i = 0; i < watched->len; i++)
        watch_one (g_ptr_array_index (watched, i), now);
      g_cond_wait_until (&watch_cond, &watch_lock, now + WATCH_INTERVAL_US);
    }
  g_mutex_unlock (&watch_lock);
  return NULL;
}

static void
watch_add (SlDestination *d)
{
  g_mutex_lock (&watch_lock);
  d->progress_at = g_get_monotonic_time ();
  d->settled_seen = __atomic_load_n (&d->settled, __ATOMIC_RELAXED);
  if (!watched)
    watched = g_ptr_array_new ();
  g_ptr_array_add (watched, d);
  if (!watch_thread)
    watch_thread = g_thread_new ("sl-stall-watch", watch_thread_run, NULL);
  g_mutex_unlock (&watch_lock);
}

/* The last one out stops the thread; a thread started since by
 * watch_add() is another one. */
static void
watch_remove (SlDestination *d)
{
  GThread *done = NULL;
  g_mutex_lock (&watch_lock);
  if (!watched || !g_ptr_array_remove (watched, d))
    {
      g_mutex_unlock (&watch_lock);
      return;
    }
  if (d->stalled)
    {
      g_atomic_int_set (&d->stalled, FALSE);
      sl_queue_unstall (d->queue);
    }
  if (!watched->len)
    {
      done = watch_thread;
      watch_thread = NULL;
      g_cond_broadcast (&watch_cond);
    }
  g_mutex_unlock (&watch_lock);
  if (done)
    g_thread_join (done);
}

/* disk-buffer(): its files, in dir() or beside the persist file, opened
 * and replayed before the writers start. */
static gboolean
start_disk_buffer (SlDestination *d, GError **error)
{
  const SlDiskBufferOptions *o = &d->settings.disk_buffer;
  gchar *dir = o->dir ? g_strdup (o->dir) : sl_persist_dir ();
  if (!dir)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   _("disk-buffer() of %s needs dir(): there is no persist file to put it beside"), d->driver->id);
      return FALSE;
    }
  gchar *name = sl_driver_persist_name (d->driver);
  SlDiskBufferCounters counters = { d->queued, d->dropped, d->disk_length, d->disk_bytes };
  d->disk = sl_disk_buffer_new (o, dir, name, d->driver->id, &counters);
  g_free (name);
  g_free (dir);
  if (sl_disk_buffer_start (d->disk, d->queue, error))
    return TRUE;
  g_prefix_error (error, _("cannot start destination %s: "), d->driver->id);
  sl_disk_buffer_free (d->disk);
  d->disk = NULL;
  return FALSE;
}

gboolean
sl_destination_start (SlDestination *d, GError **error)
{
  if (d->settings.disk_buffer.node && !start_disk_buffer (d, error))
    return FALSE;
  for (guint i = 0; i < d->writers->len; i++)
    {
      SlWriter *w = g_ptr_array_index (d->writers, i);
      w->thread = g_thread_try_new (d->driver->id, writer_thread, w, error);
      if (!w->thread)
        {
          sl_destination_stop (d);
          return FALSE;
        }
    }
  if (sl_destination_holds_lapse (d))
    watch_add (d);
  return TRUE;
}

void
sl_destination_stop (SlDestination *d)
{
  watch_remove (d);
  g_mutex_lock (&d->pause_lock);
  d->stop_deadline = g_get_monotonic_time () + STOP_WRITE_LIMIT_US;
  g_atomic_int_set (&d->stopping, 1);
  g_cond_broadcast (&d->pause_cond);
  g_mutex_unlock (&d->pause_lock);
  if (d->suppress)
    enqueue_summary (d, sl_suppress_expire (d->suppress, g_get_monotonic_time (), TRUE));
  sl_queue_close (d->queue);
  if (d->disk)
    sl_disk_buffer_wake (d->disk);
  for (guint i = 0; i < d->writers->len; i++)
    {
      SlWriter *w = g_ptr_array_index (d->writers, i);
      if (w->thread)
        g_thread_join (w->thread);
      w->thread = NULL;
      w->leaving = FALSE;
    }
  if (!d->disk)
    return;
  guint64 left = sl_disk_buffer_stop (d->disk);
  sl_log (SL_LOG_NOTICE, _("destination %s stopped; %llu messages left in its disk buffer"),
          d->driver->id, (unsigned long long) left);
  sl_disk_buffer_free (d->disk);
  d->disk = NULL;
}

void
sl_destination_hand_over (SlDestination *d, SlDestination *to)
{
  if (d->disk || to->disk)
    {
      sl_destination_stop (d);
      return;
    }
  g_atomic_int_set (&d->handing_over, 1);
  sl_destination_stop (d);
  SlQueueItem items[MAX_BATCH];
  guint64 moved = 0;
  for (guint n; (n = sl_queue_pop (d->queue, items, MAX_BATCH, 0)) > 0;)
    {
      sl_counter_add (d->queued, -(gint64) n);
      sl_destination_push (to, items, n);
      moved += n;
    }
  if (moved)
    sl_log (SL_LOG_NOTICE, _("destination %s was changed by a reload; the %llu messages it still held go to the new one"),
            d->driver->id, (unsigned long long) moved);
}

void
sl_destination_reopen (SlDestination *d)
{
  for (guint i = 0; i < d->writers->len; i++)
    g_atomic_int_set (&((SlWriter *) g_ptr_array_index (d->writers, i))->reopen_requested, 1);
}

void
sl_destination_free (SlDestination *d)
{
  sl_destination_stop (d);
  sl_suppress_free (d->suppress);
  sl_queue_free (d->queue);
  g_ptr_array_unref (d->writers);
  g_ptr_array_unref (d->drivers);
  g_mutex_clear (&d->pause_lock);
  g_cond_clear (&d->pause_cond);
  g_mutex_clear (&d->throttle_lock);
  g_free (d);
}
