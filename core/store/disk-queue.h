/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SlDiskQueue: a destination's disk buffer as files. Records (a length, a
 * CRC-32C and a payload) are appended to segment files in a folder; a
 * reader takes them in order; the head, the first record not yet
 * delivered, is kept in a small side file, so that after a restart
 * replay starts there. A segment the head has passed is deleted.
 *
 *   NAME.dq-head             magic, version, head segment and offset, CRC
 *   NAME.<16 hex digits>.dq  magic, version, segment number, CRC; records
 *
 * Opening checks every record from the head on: a torn or corrupt tail of a
 * segment is cut off and reported, a file of another format or version is
 * refused. Not thread-safe: the caller serializes calls, except
 * sl_disk_queue_sync(), which the appending thread may call unserialized. */
#ifndef SL_DISK_QUEUE_H
#define SL_DISK_QUEUE_H

#include <glib.h>

G_BEGIN_DECLS

#define SL_DISK_QUEUE_VERSION 1
/* A record's length and CRC before its payload. */
#define SL_DISK_QUEUE_RECORD_OVERHEAD 8
/* The longest payload a record may have. */
#define SL_DISK_QUEUE_PAYLOAD_MAX (64u << 20)

typedef struct _SlDiskQueue SlDiskQueue;

/* Where a record ends in the files. */
typedef struct
{
  guint64 segment;
  guint64 offset;
} SlDiskPos;

typedef struct
{
  gint64 max_bytes;      /* disk-buf-size(): records queued, with their overhead */
  gint64 segment_size;   /* 0: derived from max_bytes */
  gboolean prealloc;     /* allocate each segment whole when it is made */
} SlDiskQueueLimits;

/* What opening found. */
typedef struct
{
  guint64 records;        /* queued, from the head on */
  guint64 bytes;
  guint64 cut_bytes;      /* of torn or corrupt tails, cut off */
  guint   cut_segments;   /* segments that had such a tail */
  gboolean head_lost;     /* the head file was unreadable: replay from the oldest record */
} SlDiskQueueReport;

/* Opens or creates the queue name in dir (made if missing) and locks it
 * against a second process. report, when not NULL, says what was found. */
SlDiskQueue *sl_disk_queue_open    (const gchar *dir, const gchar *name, const SlDiskQueueLimits *limits,
                                    SlDiskQueueReport *report, GError **error);
/* Writes what was appended and the head, and closes. */
void         sl_disk_queue_close   (SlDiskQueue *q);
const gchar *sl_disk_queue_head_path (const SlDiskQueue *q);

/* Whether a payload of len bytes fits under max_bytes now. */
gboolean     sl_disk_queue_has_room (const SlDiskQueue *q, gsize len);
/* Buffers a record; *end is where it will end. FALSE, buffering nothing,
 * when the current segment is full: sl_disk_queue_flush() then moves on
 * to a new one. A payload longer than SL_DISK_QUEUE_PAYLOAD_MAX is the
 * caller's error. */
gboolean     sl_disk_queue_append  (SlDiskQueue *q, const guint8 *payload, gsize len, SlDiskPos *end);
/* Writes what was buffered, and starts a new segment when append asked.
 * On failure (disk full, I/O error) the records appended since the last
 * successful flush are forgotten and the files are as they were then. */
gboolean     sl_disk_queue_flush   (SlDiskQueue *q, GError **error);
/* fdatasync()s what was flushed. Only the appending thread calls it. */
gboolean     sl_disk_queue_sync    (SlDiskQueue *q, GError **error);
/* Makes the records flushed so far readable. */
void         sl_disk_queue_publish (SlDiskQueue *q);

typedef enum
{
  SL_DISK_READ_NONE,      /* nothing readable left */
  SL_DISK_READ_RECORD,
  SL_DISK_READ_CORRUPT,   /* a record changed since it was written: its segment's rest was skipped */
} SlDiskReadResult;

/* The next readable record: *payload stays valid until the next read.
 * For SL_DISK_READ_CORRUPT, *skipped says how many records were lost. */
SlDiskReadResult sl_disk_queue_read (SlDiskQueue *q, const guint8 **payload, gsize *len, SlDiskPos *end,
                                     guint64 *skipped);
/* Moves the reader past the record of len payload bytes that ends at end
 * without reading it, for a caller that still holds it in memory. */
void         sl_disk_queue_skip    (SlDiskQueue *q, SlDiskPos end, gsize len);
/* Records up to end were delivered: records and bytes (payloads) of
 * them. The head moves there and is written; segments before it are deleted. */
void         sl_disk_queue_ack     (SlDiskQueue *q, SlDiskPos end, guint64 records, guint64 bytes);

/* Records and payload bytes queued: appended and not acknowledged. */
guint64      sl_disk_queue_records (const SlDiskQueue *q);
guint64      sl_disk_queue_bytes   (const SlDiskQueue *q);
/* Readable records the reader has not reached. */
guint64      sl_disk_queue_unread  (const SlDiskQueue *q);

G_END_DECLS

#endif
