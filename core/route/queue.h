/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SlQueue: a destination's bounded queue. Messages that came under flow
 * control are never dropped: their sources' windows bound them instead.
 * Those that came under the default, lapsing hold are kept the same way
 * until the queue is stalled (its destination wrote nothing for
 * stall-timeout()): then their holds end and they are dropped past
 * log-fifo-size() like those that came without flow control. */
#ifndef SL_QUEUE_H
#define SL_QUEUE_H

#include <glib.h>
#include "core/message/message.h"

G_BEGIN_DECLS

typedef struct
{
  SlMessage *msg;
  gboolean flow_controlled;   /* holds its place in its source's window until handled */
  gboolean lapsing;           /* ... unless its destination stalls first */
} SlQueueItem;

typedef struct _SlQueue SlQueue;

SlQueue *sl_queue_new      (guint capacity);
void     sl_queue_free     (SlQueue *q);
/* Takes the items' references; returns how many it dropped (and unref'd)
 * because the queue was full. One lock for the whole batch. */
guint    sl_queue_push     (SlQueue *q, const SlQueueItem *items, guint n);
/* Waits until items are there, the deadline (monotonic µs, or -1 for none)
 * passes, or the queue is closed; moves up to max items out. */
guint    sl_queue_pop      (SlQueue *q, SlQueueItem *out, guint max, gint64 deadline);
/* Puts items back at the head, in order, for a retry. */
void     sl_queue_unpop    (SlQueue *q, const SlQueueItem *items, guint n);
/* With mark (0: never) items queued, those whose level is at least level
 * (as a number: as unimportant or more) are dropped as they come, flow
 * control or not. */
void     sl_queue_set_discard (SlQueue *q, guint mark, guint level);
/* Lets go of an item taken out of (or kept from) a queue: its hold on its
 * source's window acknowledged, its reference dropped. */
void     sl_queue_item_free (const SlQueueItem *item);
/* Ends the hold of lapsing items: each is acknowledged to its source now
 * and is kept as one without flow control. */
void     sl_queue_items_lapse (SlQueueItem *items, guint n);
/* While stalled, lapsing items pushed and queued are held no more, and
 * those past the capacity are dropped; sl_queue_stall returns how many it
 * dropped of those queued. */
guint    sl_queue_stall    (SlQueue *q);
void     sl_queue_unstall  (SlQueue *q);
/* Wakes the consumer: pop returns what is left, then 0 at once. */
void     sl_queue_close    (SlQueue *q);
gboolean sl_queue_is_closed (SlQueue *q);
guint    sl_queue_length   (SlQueue *q);

G_END_DECLS

#endif
