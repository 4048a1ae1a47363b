/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SlDiskBuffer: a destination's disk-buffer(), between its memory queue
 * and its writers. A thread of its own moves what routing queued onto the
 * disk (SlDiskQueue): with reliable(yes) every message is written and
 * fdatasync()ed, one sync per batch, before its source's flow-control
 * window is released; with reliable(no) messages are released at once and
 * kept in memory up to mem-buf-length() + qout-size(), and only what does
 * not fit goes to the disk. Writers take messages in order (what a
 * previous run left on disk first) and a record is removed only once the
 * driver said it was handled. When the buffer is full, flow-controlled
 * messages wait (their senders are held), others are dropped and counted. */
#ifndef SL_DISK_BUFFER_H
#define SL_DISK_BUFFER_H

#include <glib.h>
#include "core/route/driver-private.h"
#include "core/route/queue.h"
#include "core/stats.h"

G_BEGIN_DECLS

typedef struct _SlDiskBuffer SlDiskBuffer;

/* The counters a destination shares with its buffer. */
typedef struct
{
  SlCounter *queued;    /* in the memory queue in front */
  SlCounter *dropped;
  SlCounter *length;    /* disk_queue_length: messages in the buffer */
  SlCounter *bytes;     /* disk_queue_bytes: their bytes on disk */
} SlDiskBufferCounters;

/* dir and name: where the files are and what they are called. */
SlDiskBuffer *sl_disk_buffer_new   (const SlDiskBufferOptions *options, const gchar *dir, const gchar *name,
                                    const gchar *driver_id, const SlDiskBufferCounters *counters);
/* Opens the files (replaying what they hold) and starts taking from front. */
gboolean      sl_disk_buffer_start (SlDiskBuffer *db, SlQueue *front, GError **error);
/* Moves out up to max messages, waiting until the deadline (monotonic µs)
 * when there are none; seqs[i] identifies out[i] for done and unpop. */
guint         sl_disk_buffer_pop   (SlDiskBuffer *db, SlQueueItem *out, guint64 *seqs, guint max, gint64 deadline);
/* The driver handled these (written or dropped): removed for good. */
void          sl_disk_buffer_done  (SlDiskBuffer *db, SlQueueItem *items, const guint64 *seqs, guint n);
/* Puts messages back at the front, in order, for a retry. */
void          sl_disk_buffer_unpop (SlDiskBuffer *db, const SlQueueItem *items, const guint64 *seqs, guint n);
/* TRUE once the front queue is closed and taken in, and nothing is left to pop. */
gboolean      sl_disk_buffer_drained (SlDiskBuffer *db);
/* Wakes writers waiting in pop. */
void          sl_disk_buffer_wake  (SlDiskBuffer *db);
/* After the front queue was closed and the writers stopped: takes in what
 * is left, saves what is only in memory to the disk and closes the files;
 * returns how many messages it leaves there. */
guint64       sl_disk_buffer_stop  (SlDiskBuffer *db);
void          sl_disk_buffer_free  (SlDiskBuffer *db);

G_END_DECLS

#endif
