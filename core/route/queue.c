/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/route/queue.h"
#include "core/message/in-flight.h"

#include <string.h>

struct _SlQueue
{
  GMutex lock;
  GCond filled;
  SlQueueItem *ring;
  guint size;        /* allocated slots, a power of two */
  guint head;
  guint len;
  guint capacity;    /* log-fifo-size() */
  gboolean closed;
  gboolean stalled;
  guint discard_mark;
  guint discard_level;
  guint waiting;     /* consumers asleep in pop: a destination's workers share the queue */
};

#define RING_INITIAL 1024
/* A ring grown this large by a burst is let go of once the queue is empty. */
#define RING_SHRINK (16 * RING_INITIAL)

SlQueue *
sl_queue_new (guint capacity)
{
  SlQueue *q = g_new0 (SlQueue, 1);
  g_mutex_init (&q->lock);
  g_cond_init (&q->filled);
  q->capacity = MAX (capacity, 1);
  q->size = RING_INITIAL;
  q->ring = g_new (SlQueueItem, q->size);
  return q;
}

void
sl_queue_free (SlQueue *q)
{
  for (guint i = 0; i < q->len; i++)
    sl_message_unref (q->ring[(q->head + i) & (q->size - 1)].msg);
  g_free (q->ring);
  g_mutex_clear (&q->lock);
  g_cond_clear (&q->filled);
  g_free (q);
}

static void
grow_locked (SlQueue *q, guint need)
{
  if (need <= q->size)
    return;
  guint size = q->size;
  while (size < need)
    size *= 2;
  SlQueueItem *ring = g_new (SlQueueItem, size);
  for (guint i = 0; i < q->len; i++)
    ring[i] = q->ring[(q->head + i) & (q->size - 1)];
  g_free (q->ring);
  q->ring = ring;
  q->size = size;
  q->head = 0;
}

void
sl_queue_set_discard (SlQueue *q, guint mark, guint level)
{
  q->discard_mark = mark;
  q->discard_level = level;
}

static gboolean
discarded (SlQueue *q, const SlMessage *msg)
{
  return q->discard_mark && q->len >= q->discard_mark && SL_PRI_SEVERITY (msg->pri) >= q->discard_level;
}

void
sl_queue_item_free (const SlQueueItem *item)
{
  if (item->flow_controlled)
    sl_message_ack (item->msg);
  sl_message_unref (item->msg);
}

static void
end_hold (SlQueueItem *item)
{
  sl_message_ack (item->msg);
  item->flow_controlled = item->lapsing = FALSE;
}

void
sl_queue_items_lapse (SlQueueItem *items, guint n)
{
  for (guint i = 0; i < n; i++)
    if (items[i].lapsing)
      end_hold (&items[i]);
}

guint
sl_queue_push (SlQueue *q, const SlQueueItem *items, guint n)
{
  guint dropped = 0;
  /* past the process's bound of bytes in flight, as past a full queue */
  gboolean over = sl_in_flight_over ();
  g_mutex_lock (&q->lock);
  grow_locked (q, q->len + n);
  for (guint i = 0; i < n; i++)
    {
      SlQueueItem item = items[i];
      gboolean discard = discarded (q, item.msg);
      if (discard && item.flow_controlled)
        end_hold (&item);
      if (q->stalled)
        sl_queue_items_lapse (&item, 1);
      if (!item.flow_controlled && (discard || over || q->len >= q->capacity))
        {
          sl_message_unref (item.msg);
          dropped++;
          continue;
        }
      q->ring[(q->head + q->len) & (q->size - 1)] = item;
      q->len++;
    }
  if (q->waiting && q->len)
    g_cond_signal (&q->filled);
  g_mutex_unlock (&q->lock);
  return dropped;
}

guint
sl_queue_pop (SlQueue *q, SlQueueItem *out, guint max, gint64 deadline)
{
  g_mutex_lock (&q->lock);
  while (!q->len && !q->closed)
    {
      q->waiting++;
      gboolean woken = TRUE;
      if (deadline < 0)
        g_cond_wait (&q->filled, &q->lock);
      else
        woken = g_cond_wait_until (&q->filled, &q->lock, deadline);
      q->waiting--;
      if (!woken)
        break;
    }
  guint n = MIN (max, q->len);
  for (guint i = 0; i < n; i++)
    out[i] = q->ring[(q->head + i) & (q->size - 1)];
  q->head = (q->head + n) & (q->size - 1);
  q->len -= n;
  if (!q->len && q->size >= RING_SHRINK)
    {
      g_free (q->ring);
      q->size = RING_INITIAL;
      q->ring = g_new (SlQueueItem, q->size);
      q->head = 0;
    }
  g_mutex_unlock (&q->lock);
  return n;
}

void
sl_queue_unpop (SlQueue *q, const SlQueueItem *items, guint n)
{
  g_mutex_lock (&q->lock);
  grow_locked (q, q->len + n);
  q->head = (q->head - n) & (q->size - 1);
  for (guint i = 0; i < n; i++)
    q->ring[(q->head + i) & (q->size - 1)] = items[i];
  q->len += n;
  g_mutex_unlock (&q->lock);
}

/* Those kept are moved down over those dropped, in order. */
guint
sl_queue_stall (SlQueue *q)
{
  g_mutex_lock (&q->lock);
  q->stalled = TRUE;
  guint kept = 0, plain = 0;
  for (guint i = 0; i < q->len; i++)
    {
      SlQueueItem *item = &q->ring[(q->head + i) & (q->size - 1)];
      sl_queue_items_lapse (item, 1);
      if (!item->flow_controlled && plain++ >= q->capacity)
        {
          sl_message_unref (item->msg);
          continue;
        }
      q->ring[(q->head + kept++) & (q->size - 1)] = *item;
    }
  guint dropped = q->len - kept;
  q->len = kept;
  g_mutex_unlock (&q->lock);
  return dropped;
}

void
sl_queue_unstall (SlQueue *q)
{
  g_mutex_lock (&q->lock);
  q->stalled = FALSE;
  g_mutex_unlock (&q->lock);
}

void
sl_queue_close (SlQueue *q)
{
  g_mutex_lock (&q->lock);
  q->closed = TRUE;
  g_cond_broadcast (&q->filled);
  g_mutex_unlock (&q->lock);
}

gboolean
sl_queue_is_closed (SlQueue *q)
{
  g_mutex_lock (&q->lock);
  gboolean closed = q->closed;
  g_mutex_unlock (&q->lock);
  return closed;
}

guint
sl_queue_length (SlQueue *q)
{
  g_mutex_lock (&q->lock);
  guint len = q->len;
  g_mutex_unlock (&q->lock);
  return len;
}
