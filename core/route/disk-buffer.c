/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/route/disk-buffer.h"
#include "core/store/disk-queue.h"
#include "core/store/disk-record.h"
#include "core/i18n.h"
#include "core/internal.h"

#define BATCH 1024
#define RETRY_US G_USEC_PER_SEC

/* A FIFO of fixed-size elements without an allocation per element. */
typedef struct
{
  GArray *a;
  guint start;
} Ring;

static void
ring_init (Ring *r, guint element_size)
{
  r->a = g_array_new (FALSE, FALSE, element_size);
  r->start = 0;
}

static guint
ring_len (const Ring *r)
{
  return r->a->len - r->start;
}

static gpointer
ring_at (const Ring *r, guint i)
{
  return r->a->data + (gsize) (r->start + i) * g_array_get_element_size (r->a);
}

static void
ring_push (Ring *r, gconstpointer element)
{
  g_array_append_vals (r->a, element, 1);
}

static void
ring_shift (Ring *r, guint n)
{
  r->start += n;
  if (r->start == r->a->len)
    {
      g_array_set_size (r->a, 0);
      r->start = 0;
    }
  else if (r->start >= 4096 && r->start > r->a->len / 2)
    {
      g_array_remove_range (r->a, 0, r->start);
      r->start = 0;
    }
}

/* reliable(yes): a record at the reader's place, still in memory. */
typedef struct
{
  SlMessage *msg;
  SlDiskPos end;
  guint32 len;
} Cached;

/* A record handed to a writer and not yet settled. */
typedef struct
{
  SlDiskPos end;
  guint32 len;
  gboolean done;
} InFlight;

typedef struct
{
  SlMessage *msg;
  guint64 seq;   /* 0: a message only in memory */
} Returned;

struct _SlDiskBuffer
{
  SlDiskBufferOptions o;
  gchar *dir;
  gchar *name;
  gchar *id;
  SlDiskBufferCounters counters;
  SlQueue *front;
  SlDiskQueue *dq;
  GMutex lock;
  GCond cond;              /* something to pop, or room on disk */
  GArray *returned;        /* Returned: a stack, the next to pop last */
  Ring memory;             /* SlMessage *: reliable(no), in front of the disk */
  guint memory_cap;
  Ring cache;              /* Cached: reliable(yes), the records at the reader's place */
  guint64 cache_bytes;
  Ring inflight;           /* InFlight, by seq from base_seq */
  guint64 base_seq;
  GThread *spooler;
  gboolean spooler_done;
  gboolean write_failing;  /* the spooler's: logged once per episode */
  GByteArray *encoded;     /* the spooler's */
  guint offsets[BATCH + 1];
};

SlDiskBuffer *
sl_disk_buffer_new (const SlDiskBufferOptions *options, const gchar *dir, const gchar *name,
                    const gchar *driver_id, const SlDiskBufferCounters *counters)
{
  SlDiskBuffer *db = g_new0 (SlDiskBuffer, 1);
  db->o = *options;
  db->dir = g_strdup (dir);
  db->name = g_strdup (name);
  db->id = g_strdup (driver_id);
  db->counters = *counters;
  g_mutex_init (&db->lock);
  g_cond_init (&db->cond);
  db->returned = g_array_new (FALSE, FALSE, sizeof (Returned));
  ring_init (&db->memory, sizeof (SlMessage *));
  ring_init (&db->cache, sizeof (Cached));
  ring_init (&db->inflight, sizeof (InFlight));
  db->memory_cap = MAX (options->mem_buf_length, 0) + MAX (options->qout_size, 0);
  db->base_seq = 1;
  db->encoded = g_byte_array_new ();
  return db;
}

static void
update_counters_locked (SlDiskBuffer *db)
{
  sl_counter_set (db->counters.length, sl_disk_queue_records (db->dq) + ring_len (&db->memory));
  sl_counter_set (db->counters.bytes, sl_disk_queue_bytes (db->dq));
}

static void
count_dropped (SlDiskBuffer *db, guint64 n, const gchar *why)
{
  gint64 before = sl_counter_get (db->counters.dropped);
  sl_counter_add (db->counters.dropped, n);
  if (before == 0 || (before + (gint64) n) / 10000 != before / 10000)
    sl_log (SL_LOG_ERROR, _("disk buffer of %s dropped %llu messages (%s); %lld so far"),
            db->id, (unsigned long long) n, why, (long long) (before + (gint64) n));
}

enum { STORED, HELD, DROPPED, IN_MEMORY };

/* Appends items[from..n) that are not to go to memory; status says what
 * became of each. Stops at the first flow-controlled one that has no room
 * (it and the rest are held) or at a write error (held from the first not
 * written). Called with the lock. */
static void
append_locked (SlDiskBuffer *db, SlQueueItem *items, guint n, guint8 *status, SlDiskPos *ends)
{
  /* items before committed are flushed; a record appended after it is
   * only buffered, and forgotten by a failed flush */
  guint committed = 0;
  guint stop = n;
  GError *error = NULL;
  for (guint i = 0; i < n; i++)
    {
      if (status[i] != STORED)
        continue;
      const guint8 *payload = db->encoded->data + db->offsets[i];
      gsize len = db->offsets[i + 1] - db->offsets[i];
      if (len > SL_DISK_QUEUE_PAYLOAD_MAX)
        {
          status[i] = DROPPED;
          continue;
        }
      if (!sl_disk_queue_has_room (db->dq, len))
        {
          /* the disk buffer is the room a lapsing hold waits for */
          if (!items[i].flow_controlled || items[i].lapsing)
            {
              status[i] = DROPPED;
              continue;
            }
          for (guint k = i; k < n; k++)
            status[k] = status[k] == STORED ? HELD : status[k];
          break;
        }
      if (!sl_disk_queue_append (db->dq, payload, len, &ends[i]))
        {
          if (!sl_disk_queue_flush (db->dq, &error))
            break;
          committed = i;
          /* the segment was flushed but no new one could be made: the
           * flush below says why, and this record waits */
          if (!sl_disk_queue_append (db->dq, payload, len, &ends[i]))
            {
              stop = i;
              break;
            }
        }
    }
  if (!error && sl_disk_queue_flush (db->dq, &error))
    committed = stop;
  if (error)
    {
      if (!db->write_failing)
        sl_log (SL_LOG_ERROR, _("disk buffer of %s cannot write; holding messages and retrying: %s"), db->id,
                error->message);
      db->write_failing = TRUE;
      g_error_free (error);
    }
  else if (db->write_failing)
    {
      sl_log (SL_LOG_NOTICE, _("disk buffer of %s writes again"), db->id);
      db->write_failing = FALSE;
    }
  for (guint k = committed; k < n; k++)
    status[k] = status[k] == STORED ? HELD : status[k];
}

/* reliable(yes): records written and synced are cached in memory as long
 * as the cache holds every unread record, within mem-buf-size(). */
static void
cache_locked (SlDiskBuffer *db, SlQueueItem *items, guint n, const guint8 *status, const SlDiskPos *ends,
              guint64 unread_before)
{
  gboolean contiguous = ring_len (&db->cache) == unread_before;
  for (guint i = 0; contiguous && i < n; i++)
    {
      if (status[i] != STORED)
        continue;
      guint32 len = db->offsets[i + 1] - db->offsets[i];
      if (db->cache_bytes + len > (guint64) db->o.mem_buf_size)
        break;
      Cached c = { sl_message_ref (items[i].msg), ends[i], len };
      ring_push (&db->cache, &c);
      db->cache_bytes += len;
    }
}

/* Takes a batch from the memory queue into the buffer; returns how many
 * are held (moved to the front of items) for want of room. */
static guint
take_in (SlDiskBuffer *db, SlQueueItem *items, guint n)
{
  guint8 status[BATCH];
  SlDiskPos ends[BATCH];
  g_byte_array_set_size (db->encoded, 0);
  g_mutex_lock (&db->lock);
  gboolean spill = sl_disk_queue_unread (db->dq) > 0 || db->o.reliable;
  for (guint i = 0; i < n; i++)
    {
      db->offsets[i] = db->encoded->len;
      if (!spill && ring_len (&db->memory) < db->memory_cap)
        {
          status[i] = IN_MEMORY;
          SlMessage *msg = sl_message_ref (items[i].msg);
          ring_push (&db->memory, &msg);
          continue;
        }
      spill = TRUE;
      status[i] = STORED;
      if (db->o.reliable)
        continue;
      sl_disk_record_encode (items[i].msg, db->encoded);
    }
  db->offsets[n] = db->encoded->len;
  if (db->o.reliable)
    {
      /* encoding needs no lock: the writers go on meanwhile */
      g_mutex_unlock (&db->lock);
      for (guint i = 0; i < n; i++)
        {
          db->offsets[i] = db->encoded->len;
          sl_disk_record_encode (items[i].msg, db->encoded);
        }
      db->offsets[n] = db->encoded->len;
      g_mutex_lock (&db->lock);
    }
  append_locked (db, items, n, status, ends);
  g_mutex_unlock (&db->lock);

  /* What is not known to be on disk is not acknowledged: the batch waits
   * for a sync that succeeds, or for the stop. */
  GError *error = NULL;
  while (db->o.reliable && !sl_disk_queue_sync (db->dq, &error))
    {
      if (!db->write_failing)
        sl_log (SL_LOG_ERROR, _("disk buffer of %s cannot write; holding messages and retrying: %s"), db->id,
                error->message);
      db->write_failing = TRUE;
      g_clear_error (&error);
      if (sl_queue_is_closed (db->front))
        break;
      g_usleep (RETRY_US);
    }

  g_mutex_lock (&db->lock);
  guint64 unread_before = sl_disk_queue_unread (db->dq);
  sl_disk_queue_publish (db->dq);
  if (db->o.reliable)
    cache_locked (db, items, n, status, ends, unread_before);
  update_counters_locked (db);
  g_cond_broadcast (&db->cond);
  g_mutex_unlock (&db->lock);

  guint held = 0, dropped = 0;
  for (guint i = 0; i < n; i++)
    switch (status[i])
      {
      case HELD:
        items[held++] = items[i];
        break;
      case DROPPED:
        dropped++;
        sl_queue_item_free (&items[i]);
        break;
      default:
        sl_queue_item_free (&items[i]);
      }
  if (dropped)
    count_dropped (db, dropped, _("the disk buffer is full"));
  return held;
}

static gpointer
spooler_thread (gpointer data)
{
  SlDiskBuffer *db = data;
  SlQueueItem items[BATCH];
  guint held = 0;
  for (;;)
    {
      guint got = sl_queue_pop (db->front, items + held, BATCH - held, held ? 0 : -1);
      sl_counter_add (db->counters.queued, -(gint64) got);
      guint n = held + got;
      gboolean closed = sl_queue_is_closed (db->front);
      if (!n && closed)
        break;
      if (!n)
        continue;
      guint before = held;
      held = take_in (db, items, n);
      if (!held)
        continue;
      if (closed && held == before && !got)
        {
          /* stopping, and the writers freed no room since the last try */
          for (guint i = 0; i < held; i++)
            sl_queue_item_free (&items[i]);
          count_dropped (db, held, _("the disk buffer was full at shutdown"));
          held = 0;
          continue;
        }
      g_mutex_lock (&db->lock);
      g_cond_wait_until (&db->cond, &db->lock, g_get_monotonic_time () + RETRY_US);
      g_mutex_unlock (&db->lock);
    }
  g_mutex_lock (&db->lock);
  db->spooler_done = TRUE;
  g_cond_broadcast (&db->cond);
  g_mutex_unlock (&db->lock);
  return NULL;
}

gboolean
sl_disk_buffer_start (SlDiskBuffer *db, SlQueue *front, GError **error)
{
  SlDiskQueueLimits limits = { db->o.disk_buf_size, 0, db->o.prealloc };
  SlDiskQueueReport report;
  db->dq = sl_disk_queue_open (db->dir, db->name, &limits, &report, error);
  if (!db->dq)
    return FALSE;
  const gchar *file = sl_disk_queue_head_path (db->dq);
  if (report.cut_segments)
    sl_log (SL_LOG_WARNING, _("disk buffer %s: cut off %llu bytes of torn or corrupt records in %u files"),
            file, (unsigned long long) report.cut_bytes, report.cut_segments);
  if (report.head_lost)
    sl_log (SL_LOG_WARNING, _("disk buffer %s: its head was unreadable; replaying from the oldest record, delivered ones may repeat"),
            file);
  if (report.records)
    sl_log (SL_LOG_NOTICE, _("disk buffer %s: replaying %llu messages"), file, (unsigned long long) report.records);
  update_counters_locked (db);
  db->front = front;
  db->spooler = g_thread_try_new ("disk-buffer", spooler_thread, db, error);
  return db->spooler != NULL;
}

static gboolean
available_locked (SlDiskBuffer *db)
{
  return db->returned->len || ring_len (&db->memory) || sl_disk_queue_unread (db->dq);
}

/* Moves the head past every settled record at the front. */
static void
advance_locked (SlDiskBuffer *db)
{
  guint k = 0;
  guint64 bytes = 0;
  SlDiskPos end = { 0 };
  while (k < ring_len (&db->inflight))
    {
      InFlight *f = ring_at (&db->inflight, k);
      if (!f->done)
        break;
      end = f->end;
      bytes += f->len;
      k++;
    }
  if (!k)
    return;
  ring_shift (&db->inflight, k);
  db->base_seq += k;
  sl_disk_queue_ack (db->dq, end, k, bytes);
}

static gboolean
take_record_locked (SlDiskBuffer *db, SlQueueItem *out, guint64 *seq)
{
  SlMessage *msg = NULL;
  InFlight f = { .done = FALSE };
  if (ring_len (&db->cache))
    {
      Cached *c = ring_at (&db->cache, 0);
      sl_disk_queue_skip (db->dq, c->end, c->len);
      msg = c->msg;
      f.end = c->end;
      f.len = c->len;
      db->cache_bytes -= c->len;
      ring_shift (&db->cache, 1);
    }
  else
    for (;;)
      {
        const guint8 *payload;
        gsize len;
        guint64 skipped;
        SlDiskReadResult r = sl_disk_queue_read (db->dq, &payload, &len, &f.end, &skipped);
        if (r == SL_DISK_READ_NONE)
          return FALSE;
        if (r == SL_DISK_READ_CORRUPT)
          {
            count_dropped (db, skipped, _("records changed on disk since they were written"));
            continue;
          }
        f.len = len;
        msg = sl_disk_record_decode (payload, len);
        if (msg)
          break;
        /* a record intact but not a message: settled at once */
        count_dropped (db, 1, _("a record that is not a message"));
        f.done = TRUE;
        ring_push (&db->inflight, &f);
        advance_locked (db);
      }
  ring_push (&db->inflight, &f);
  *out = (SlQueueItem) { msg, FALSE };
  *seq = db->base_seq + ring_len (&db->inflight) - 1;
  return TRUE;
}

guint
sl_disk_buffer_pop (SlDiskBuffer *db, SlQueueItem *out, guint64 *seqs, guint max, gint64 deadline)
{
  g_mutex_lock (&db->lock);
  while (!available_locked (db) && !db->spooler_done)
    if (!g_cond_wait_until (&db->cond, &db->lock, deadline))
      break;
  guint n = 0;
  while (n < max && db->returned->len)
    {
      Returned *r = &g_array_index (db->returned, Returned, db->returned->len - 1);
      out[n] = (SlQueueItem) { r->msg, FALSE };
      seqs[n++] = r->seq;
      g_array_set_size (db->returned, db->returned->len - 1);
    }
  while (n < max && ring_len (&db->memory))
    {
      out[n] = (SlQueueItem) { *(SlMessage **) ring_at (&db->memory, 0), FALSE };
      seqs[n++] = 0;
      ring_shift (&db->memory, 1);
    }
  while (n < max && take_record_locked (db, &out[n], &seqs[n]))
    n++;
  update_counters_locked (db);
  g_mutex_unlock (&db->lock);
  return n;
}

void
sl_disk_buffer_done (SlDiskBuffer *db, SlQueueItem *items, const guint64 *seqs, guint n)
{
  g_mutex_lock (&db->lock);
  for (guint i = 0; i < n; i++)
    if (seqs[i])
      ((InFlight *) ring_at (&db->inflight, seqs[i] - db->base_seq))->done = TRUE;
  advance_locked (db);
  update_counters_locked (db);
  g_cond_broadcast (&db->cond);
  g_mutex_unlock (&db->lock);
  for (guint i = 0; i < n; i++)
    sl_message_unref (items[i].msg);
}

void
sl_disk_buffer_unpop (SlDiskBuffer *db, const SlQueueItem *items, const guint64 *seqs, guint n)
{
  g_mutex_lock (&db->lock);
  for (guint i = n; i-- > 0;)
    {
      Returned r = { items[i].msg, seqs[i] };
      g_array_append_val (db->returned, r);
    }
  g_cond_broadcast (&db->cond);
  g_mutex_unlock (&db->lock);
}

gboolean
sl_disk_buffer_drained (SlDiskBuffer *db)
{
  g_mutex_lock (&db->lock);
  gboolean drained = db->spooler_done && !available_locked (db);
  g_mutex_unlock (&db->lock);
  return drained;
}

void
sl_disk_buffer_wake (SlDiskBuffer *db)
{
  g_mutex_lock (&db->lock);
  g_cond_broadcast (&db->cond);
  g_mutex_unlock (&db->lock);
}

/* reliable(no): what is only in memory goes to the disk at a stop, after
 * what is there already. */
static void
save_memory_locked (SlDiskBuffer *db)
{
  GArray *pending = g_array_new (FALSE, FALSE, sizeof (SlMessage *));
  for (guint i = db->returned->len; i-- > 0;)
    {
      Returned *r = &g_array_index (db->returned, Returned, i);
      if (!r->seq)
        g_array_append_val (pending, r->msg);
      else
        sl_message_unref (r->msg);
    }
  g_array_set_size (db->returned, 0);
  for (guint i = 0; i < ring_len (&db->memory); i++)
    g_array_append_val (pending, *(SlMessage **) ring_at (&db->memory, i));
  ring_shift (&db->memory, ring_len (&db->memory));
  guint lost = 0;
  GByteArray *payload = g_byte_array_new ();
  for (guint i = 0; i < pending->len; i++)
    {
      SlMessage *msg = g_array_index (pending, SlMessage *, i);
      g_byte_array_set_size (payload, 0);
      sl_disk_record_encode (msg, payload);
      SlDiskPos end;
      gboolean ok = sl_disk_queue_has_room (db->dq, payload->len)
                    && (sl_disk_queue_append (db->dq, payload->data, payload->len, &end)
                        || (sl_disk_queue_flush (db->dq, NULL)
                            && sl_disk_queue_append (db->dq, payload->data, payload->len, &end)));
      lost += !ok;
      sl_message_unref (msg);
    }
  if (pending->len && (!sl_disk_queue_flush (db->dq, NULL) || !sl_disk_queue_sync (db->dq, NULL)))
    lost = pending->len;
  if (lost)
    count_dropped (db, lost, _("no room on disk for what was in memory at shutdown"));
  g_byte_array_unref (payload);
  g_array_unref (pending);
}

guint64
sl_disk_buffer_stop (SlDiskBuffer *db)
{
  if (db->spooler)
    g_thread_join (db->spooler);
  db->spooler = NULL;
  if (!db->dq)
    return 0;
  g_mutex_lock (&db->lock);
  save_memory_locked (db);
  for (guint i = 0; i < db->returned->len; i++)
    sl_message_unref (g_array_index (db->returned, Returned, i).msg);
  g_array_set_size (db->returned, 0);
  for (guint i = 0; i < ring_len (&db->cache); i++)
    sl_message_unref (((Cached *) ring_at (&db->cache, i))->msg);
  ring_shift (&db->cache, ring_len (&db->cache));
  db->cache_bytes = 0;
  guint64 left = sl_disk_queue_records (db->dq);
  update_counters_locked (db);
  sl_disk_queue_close (db->dq);
  db->dq = NULL;
  g_mutex_unlock (&db->lock);
  return left;
}

void
sl_disk_buffer_free (SlDiskBuffer *db)
{
  if (!db)
    return;
  sl_disk_buffer_stop (db);
  g_array_unref (db->returned);
  g_array_unref (db->memory.a);
  g_array_unref (db->cache.a);
  g_array_unref (db->inflight.a);
  g_byte_array_unref (db->encoded);
  g_mutex_clear (&db->lock);
  g_cond_clear (&db->cond);
  g_free (db->dir);
  g_free (db->name);
  g_free (db->id);
  g_free (db);
}
