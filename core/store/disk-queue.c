/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/store/disk-queue.h"
#include "core/store/crc32c.h"
#include "core/i18n.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define SEGMENT_MAGIC "SLDQSEGM"
#define HEAD_MAGIC "SLDQHEAD"
#define MAGIC_LEN 8
/* magic, u32 version, u32 0, u64 segment number, u32 CRC of what precedes, u32 0 */
#define SEGMENT_HEADER 32
/* magic, u32 version, u32 0, u64 segment, u64 offset, u32 CRC of what precedes */
#define HEAD_LEN 36
#define READ_AHEAD (256 * 1024)
/* An empty queue whose segment holds this much is truncated to its header. */
#define TRUNCATE_AT (1 << 20)

typedef struct
{
  guint64 id;
  gchar *path;
  gint fd;
  guint64 size;        /* header and flushed records */
  guint64 records;     /* flushed records, from where reading starts */
  guint64 bytes;       /* their payload bytes */
  guint64 published;   /* of records, those readable */
  guint64 published_bytes;
  guint64 read;        /* of records, those the reader passed */
  guint64 read_bytes;
} Segment;

struct _SlDiskQueue
{
  gchar *dir;
  gchar *name;
  gchar *head_path;
  gint head_fd;
  SlDiskQueueLimits limits;
  GQueue segments;          /* Segment *, oldest first; the last one is appended to */
  GList *cursor_link;       /* the reader's segment */
  guint64 cursor;           /* the reader's offset in it */
  SlDiskPos head;
  SlDiskPos readable;       /* where the published records end */
  guint64 records;
  guint64 bytes;
  guint64 unread;
  guint64 next_id;
  GByteArray *wbuf;         /* appended, not yet flushed */
  guint64 wbuf_records;
  guint64 wbuf_bytes;
  gboolean roll;            /* the tail is full: the next flush starts a new segment */
  Segment *unsynced;        /* the segment before the tail, flushed since the last sync */
  GByteArray *rbuf;         /* read-ahead: bytes of segment rb_seg from rb_off */
  guint64 rb_seg;
  guint64 rb_off;
};

static void
put_le32 (guint8 *p, guint32 v)
{
  v = GUINT32_TO_LE (v);
  memcpy (p, &v, 4);
}

static void
put_le64 (guint8 *p, guint64 v)
{
  v = GUINT64_TO_LE (v);
  memcpy (p, &v, 8);
}

static guint32
get_le32 (const guint8 *p)
{
  guint32 v;
  memcpy (&v, p, 4);
  return GUINT32_FROM_LE (v);
}

static guint64
get_le64 (const guint8 *p)
{
  guint64 v;
  memcpy (&v, p, 8);
  return GUINT64_FROM_LE (v);
}

static Segment *
tail (const SlDiskQueue *q)
{
  return q->segments.tail->data;
}

/* format says what failed on which file, as a whole sentence that
 * translates; the system's reason follows it */
static gboolean G_GNUC_PRINTF (3, 4)
set_errno_error (GError **error, gint err, const gchar *format, ...)
{
  va_list ap;
  va_start (ap, format);
  g_autofree gchar *what = g_strdup_vprintf (format, ap);
  va_end (ap);
  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (err), "%s: %s", what, g_strerror (err));
  return FALSE;
}

static gboolean
pwrite_all (gint fd, const guint8 *data, gsize len, guint64 off)
{
  while (len)
    {
      gssize n = pwrite (fd, data, len, off);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      data += n;
      len -= n;
      off += n;
    }
  return TRUE;
}

static gssize
pread_all (gint fd, guint8 *data, gsize len, guint64 off)
{
  gsize done = 0;
  while (done < len)
    {
      gssize n = pread (fd, data + done, len - done, off + done);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return -1;
      if (n == 0)
        break;
      done += n;
    }
  return done;
}

static void
segment_free (Segment *s)
{
  if (s->fd >= 0)
    close (s->fd);
  g_free (s->path);
  g_free (s);
}

static gchar *
segment_path (const SlDiskQueue *q, guint64 id)
{
  gchar *base = g_strdup_printf ("%s.%016" G_GINT64_MODIFIER "x.dq", q->name, id);
  gchar *path = g_build_filename (q->dir, base, NULL);
  g_free (base);
  return path;
}

static void
sync_dir (const SlDiskQueue *q)
{
  gint fd = open (q->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0)
    {
      fsync (fd);
      close (fd);
    }
}

static void
preallocate (const SlDiskQueue *q, Segment *s)
{
  if (q->limits.prealloc)
    posix_fallocate (s->fd, 0, q->limits.segment_size);
}

static Segment *
segment_create (SlDiskQueue *q, GError **error)
{
  Segment *s = g_new0 (Segment, 1);
  s->id = q->next_id++;
  s->path = segment_path (q, s->id);
  s->fd = open (s->path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  guint8 header[SEGMENT_HEADER] = { 0 };
  memcpy (header, SEGMENT_MAGIC, MAGIC_LEN);
  put_le32 (header + 8, SL_DISK_QUEUE_VERSION);
  put_le64 (header + 16, s->id);
  put_le32 (header + 24, sl_crc32c (0, header, 24));
  if (s->fd < 0 || !pwrite_all (s->fd, header, sizeof header, 0))
    {
      set_errno_error (error, errno, _("cannot create disk-buffer file %s"), s->path);
      if (s->fd >= 0)
        g_unlink (s->path);
      segment_free (s);
      return NULL;
    }
  preallocate (q, s);
  sync_dir (q);
  s->size = SEGMENT_HEADER;
  return s;
}

static void
write_head (SlDiskQueue *q)
{
  guint8 buf[HEAD_LEN] = { 0 };
  memcpy (buf, HEAD_MAGIC, MAGIC_LEN);
  put_le32 (buf + 8, SL_DISK_QUEUE_VERSION);
  put_le64 (buf + 16, q->head.segment);
  put_le64 (buf + 24, q->head.offset);
  put_le32 (buf + 32, sl_crc32c (0, buf, 32));
  /* A head that did not reach the disk replays delivered records again
   * after a crash: duplicates, never a loss. */
  pwrite_all (q->head_fd, buf, sizeof buf, 0);
}

/* The record at p, of which avail bytes are at hand and room remain in
 * the segment: 1 valid (*len its payload), 0 more bytes needed, -1 not a
 * record (a torn or corrupt tail, or the zeros after it). */
static gint
check_record (const guint8 *p, gsize avail, guint64 room, guint32 *len)
{
  if (room < SL_DISK_QUEUE_RECORD_OVERHEAD)
    return -1;
  if (avail < SL_DISK_QUEUE_RECORD_OVERHEAD)
    return 0;
  *len = get_le32 (p);
  if (*len == 0 || *len > SL_DISK_QUEUE_PAYLOAD_MAX || *len > room - SL_DISK_QUEUE_RECORD_OVERHEAD)
    return -1;
  if (avail < SL_DISK_QUEUE_RECORD_OVERHEAD + (gsize) *len)
    return 0;
  guint32 crc = sl_crc32c (0, p, 4);
  crc = sl_crc32c (crc, p + SL_DISK_QUEUE_RECORD_OVERHEAD, *len);
  return crc == get_le32 (p + 4) ? 1 : -1;
}

/* Bytes of s from off on, at least want of them unless its data ends
 * sooner; *avail says how many there are. */
static const guint8 *
window (SlDiskQueue *q, Segment *s, guint64 off, gsize want, gsize *avail)
{
  if (q->rb_seg == s->id && off >= q->rb_off && off + want <= q->rb_off + q->rbuf->len)
    {
      *avail = q->rb_off + q->rbuf->len - off;
      return q->rbuf->data + (off - q->rb_off);
    }
  gsize n = MIN ((guint64) MAX (want, READ_AHEAD), s->size - off);
  g_byte_array_set_size (q->rbuf, n);
  gssize got = pread_all (s->fd, q->rbuf->data, n, off);
  g_byte_array_set_size (q->rbuf, MAX (got, 0));
  q->rb_seg = s->id;
  q->rb_off = off;
  *avail = q->rbuf->len;
  return q->rbuf->data;
}

static void
forget_read_ahead (SlDiskQueue *q)
{
  q->rb_seg = G_MAXUINT64;
  g_byte_array_set_size (q->rbuf, 0);
}

/* The record at off in s: 1 with *len, or -1. */
static gint
record_at (SlDiskQueue *q, Segment *s, guint64 off, const guint8 **p, guint32 *len)
{
  gsize avail;
  *p = window (q, s, off, SL_DISK_QUEUE_RECORD_OVERHEAD, &avail);
  gint r = check_record (*p, avail, s->size - off, len);
  if (r == 0)
    {
      *p = window (q, s, off, SL_DISK_QUEUE_RECORD_OVERHEAD + (gsize) *len, &avail);
      r = check_record (*p, avail, s->size - off, len);
    }
  return r == 1 ? 1 : -1;
}

static gboolean
all_zero (SlDiskQueue *q, Segment *s, guint64 off)
{
  while (off < s->size)
    {
      gsize avail;
      const guint8 *p = window (q, s, off, 1, &avail);
      if (!avail)
        return TRUE;
      for (gsize i = 0; i < avail; i++)
        if (p[i])
          return FALSE;
      off += avail;
    }
  return TRUE;
}

/* Counts the records of s from start on; cuts what follows the last good
 * one off unless it is only the zeros of preallocation. */
static void
scan_segment (SlDiskQueue *q, Segment *s, guint64 start, SlDiskQueueReport *report)
{
  guint64 off = start;
  for (;;)
    {
      const guint8 *p;
      guint32 len;
      if (off >= s->size || record_at (q, s, off, &p, &len) < 0)
        break;
      s->records++;
      s->bytes += len;
      off += SL_DISK_QUEUE_RECORD_OVERHEAD + len;
    }
  if (off < s->size && !all_zero (q, s, off))
    {
      report->cut_bytes += s->size - off;
      report->cut_segments++;
      if (ftruncate (s->fd, off) == 0)
        preallocate (q, s);
    }
  s->size = off;
  s->published = s->records;
  s->published_bytes = s->bytes;
  forget_read_ahead (q);
}

static gboolean
refuse (GError **error, const gchar *path, const gchar *why)
{
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, _("%s: %s; move it away or remove it to start an empty disk buffer"),
               path, why);
  return FALSE;
}

/* Checks a file's magic and version: another format or version is
 * refused, never misread. */
static gboolean
check_magic (const guint8 *buf, gsize len, const gchar *magic, const gchar *path, GError **error)
{
  if (len < 12 || memcmp (buf, magic, MAGIC_LEN) != 0)
    return refuse (error, path, _("not a sluice disk-buffer file"));
  guint32 version = get_le32 (buf + 8);
  if (version != SL_DISK_QUEUE_VERSION)
    {
      gchar *why = g_strdup_printf (_("disk-buffer format version %u; this sluiced reads version %u"),
                                    version, SL_DISK_QUEUE_VERSION);
      refuse (error, path, why);
      g_free (why);
      return FALSE;
    }
  return TRUE;
}

/* Opens a segment found in the folder: NULL with error for another
 * format; NULL without for one whose header never reached the disk. */
static Segment *
segment_open (SlDiskQueue *q, guint64 id, GError **error)
{
  Segment *s = g_new0 (Segment, 1);
  s->id = id;
  s->path = segment_path (q, id);
  s->fd = open (s->path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
  struct stat st;
  guint8 header[SEGMENT_HEADER];
  gssize n;
  if (s->fd < 0 || fstat (s->fd, &st) < 0 || (n = pread_all (s->fd, header, sizeof header, 0)) < 0)
    {
      set_errno_error (error, errno, _("cannot read disk-buffer file %s"), s->path);
      segment_free (s);
      return NULL;
    }
  s->size = st.st_size;
  if (n < SEGMENT_HEADER && memcmp (header, SEGMENT_MAGIC, MIN ((gsize) n, MAGIC_LEN)) == 0)
    {
      segment_free (s);
      return NULL;
    }
  if (!check_magic (header, n, SEGMENT_MAGIC, s->path, error))
    {
      segment_free (s);
      return NULL;
    }
  if (get_le32 (header + 24) != sl_crc32c (0, header, 24) || get_le64 (header + 16) != id)
    {
      refuse (error, s->path, _("its header is corrupt"));
      segment_free (s);
      return NULL;
    }
  return s;
}

static gint
compare_ids (gconstpointer a, gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;
  return x < y ? -1 : x > y;
}

/* The numbers of the queue's segments in its folder, in order. */
static GArray *
list_segments (SlDiskQueue *q, GError **error)
{
  GDir *dir = g_dir_open (q->dir, 0, error);
  if (!dir)
    return NULL;
  GArray *ids = g_array_new (FALSE, FALSE, sizeof (guint64));
  gsize prefix = strlen (q->name);
  const gchar *entry;
  while ((entry = g_dir_read_name (dir)))
    {
      if (strncmp (entry, q->name, prefix) != 0 || entry[prefix] != '.' || strlen (entry + prefix) != 20
          || strcmp (entry + prefix + 17, ".dq") != 0)
        continue;
      gchar *end;
      guint64 id = g_ascii_strtoull (entry + prefix + 1, &end, 16);
      if (end == entry + prefix + 17)
        g_array_append_val (ids, id);
    }
  g_dir_close (dir);
  g_array_sort (ids, compare_ids);
  return ids;
}

/* Reads the head file: FALSE with error for another format; *found tells
 * whether a head was there and sound. */
static gboolean
read_head (SlDiskQueue *q, gboolean *found, SlDiskQueueReport *report, GError **error)
{
  guint8 buf[HEAD_LEN];
  gssize n = pread_all (q->head_fd, buf, sizeof buf, 0);
  *found = FALSE;
  if (n == 0)
    return TRUE;
  if (n < 0)
    return set_errno_error (error, errno, _("cannot read disk-buffer file %s"), q->head_path);
  if (!check_magic (buf, n, HEAD_MAGIC, q->head_path, error))
    return FALSE;
  if (n < HEAD_LEN || get_le32 (buf + 32) != sl_crc32c (0, buf, 32))
    {
      report->head_lost = TRUE;
      return TRUE;
    }
  q->head.segment = get_le64 (buf + 16);
  q->head.offset = get_le64 (buf + 24);
  *found = TRUE;
  return TRUE;
}

static gboolean
load_segments (SlDiskQueue *q, gboolean have_head, SlDiskQueueReport *report, GError **error)
{
  GArray *ids = list_segments (q, error);
  if (!ids)
    return FALSE;
  gboolean ok = TRUE;
  for (guint i = 0; ok && i < ids->len; i++)
    {
      guint64 id = g_array_index (ids, guint64, i);
      q->next_id = MAX (q->next_id, id + 1);
      GError *inner = NULL;
      Segment *s = segment_open (q, id, &inner);
      if (!s && inner)
        {
          g_propagate_error (error, inner);
          ok = FALSE;
          break;
        }
      gboolean before_head = have_head && id < q->head.segment;
      if (!s || before_head)
        {
          /* delivered already, or made by a crash before its header was written */
          gchar *path = segment_path (q, id);
          g_unlink (path);
          g_free (path);
          if (s)
            segment_free (s);
          continue;
        }
      guint64 start = SEGMENT_HEADER;
      if (have_head && id == q->head.segment)
        {
          if (q->head.offset >= SEGMENT_HEADER && q->head.offset <= s->size)
            start = q->head.offset;
          else
            report->head_lost = TRUE;
        }
      scan_segment (q, s, start, report);
      if (!q->segments.length)
        {
          q->head.segment = id;
          q->head.offset = start;
        }
      g_queue_push_tail (&q->segments, s);
    }
  g_array_unref (ids);
  return ok;
}

SlDiskQueue *
sl_disk_queue_open (const gchar *dir, const gchar *name, const SlDiskQueueLimits *limits,
                    SlDiskQueueReport *report, GError **error)
{
  SlDiskQueueReport ignored;
  report = report ? report : &ignored;
  memset (report, 0, sizeof *report);
  if (g_mkdir_with_parents (dir, 0700) < 0)
    {
      set_errno_error (error, errno, _("cannot make the disk buffer's folder %s"), dir);
      return NULL;
    }
  SlDiskQueue *q = g_new0 (SlDiskQueue, 1);
  q->dir = g_strdup (dir);
  q->name = g_strdup (name);
  q->limits = *limits;
  if (q->limits.segment_size <= 0)
    q->limits.segment_size = CLAMP (q->limits.max_bytes / 8, 1 << 20, 64 << 20);
  gchar *base = g_strdup_printf ("%s.dq-head", name);
  q->head_path = g_build_filename (dir, base, NULL);
  g_free (base);
  q->wbuf = g_byte_array_new ();
  q->rbuf = g_byte_array_new ();
  q->rb_seg = G_MAXUINT64;
  q->next_id = 1;
  q->head_fd = open (q->head_path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (q->head_fd < 0)
    {
      set_errno_error (error, errno, _("cannot open disk-buffer file %s"), q->head_path);
      sl_disk_queue_close (q);
      return NULL;
    }
  if (flock (q->head_fd, LOCK_EX | LOCK_NB) < 0)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_EXIST, _("disk buffer %s is in use by another process"),
                   q->head_path);
      close (q->head_fd);
      q->head_fd = -1;
      sl_disk_queue_close (q);
      return NULL;
    }
  gboolean have_head;
  if (!read_head (q, &have_head, report, error))
    {
      close (q->head_fd);
      q->head_fd = -1;
      sl_disk_queue_close (q);
      return NULL;
    }
  if (have_head)
    q->next_id = MAX (q->next_id, q->head.segment);
  if (!load_segments (q, have_head, report, error))
    {
      close (q->head_fd);
      q->head_fd = -1;
      sl_disk_queue_close (q);
      return NULL;
    }
  if (!q->segments.length)
    {
      Segment *s = segment_create (q, error);
      if (!s)
        {
          sl_disk_queue_close (q);
          return NULL;
        }
      g_queue_push_tail (&q->segments, s);
      q->head = (SlDiskPos) { s->id, SEGMENT_HEADER };
    }
  for (GList *l = q->segments.head; l; l = l->next)
    {
      Segment *s = l->data;
      q->records += s->records;
      q->bytes += s->bytes;
    }
  q->unread = q->records;
  q->cursor_link = q->segments.head;
  q->cursor = q->head.offset;
  q->readable = (SlDiskPos) { tail (q)->id, tail (q)->size };
  report->records = q->records;
  report->bytes = q->bytes;
  write_head (q);
  return q;
}

void
sl_disk_queue_close (SlDiskQueue *q)
{
  if (!q)
    return;
  if (q->head_fd >= 0)
    {
      sl_disk_queue_flush (q, NULL);
      write_head (q);
      fdatasync (q->head_fd);
      close (q->head_fd);
    }
  g_queue_clear_full (&q->segments, (GDestroyNotify) segment_free);
  g_byte_array_unref (q->wbuf);
  g_byte_array_unref (q->rbuf);
  g_free (q->head_path);
  g_free (q->name);
  g_free (q->dir);
  g_free (q);
}

const gchar *
sl_disk_queue_head_path (const SlDiskQueue *q)
{
  return q->head_path;
}

gboolean
sl_disk_queue_has_room (const SlDiskQueue *q, gsize len)
{
  guint64 used = q->bytes + q->records * SL_DISK_QUEUE_RECORD_OVERHEAD;
  return used + len + SL_DISK_QUEUE_RECORD_OVERHEAD <= (guint64) q->limits.max_bytes;
}

gboolean
sl_disk_queue_append (SlDiskQueue *q, const guint8 *payload, gsize len, SlDiskPos *end)
{
  Segment *s = tail (q);
  guint64 start = s->size + q->wbuf->len;
  gboolean empty = start == SEGMENT_HEADER;
  if (q->roll || (!empty && start + SL_DISK_QUEUE_RECORD_OVERHEAD + len > (guint64) q->limits.segment_size))
    {
      q->roll = TRUE;
      return FALSE;
    }
  guint8 header[SL_DISK_QUEUE_RECORD_OVERHEAD];
  put_le32 (header, len);
  put_le32 (header + 4, sl_crc32c (sl_crc32c (0, header, 4), payload, len));
  g_byte_array_append (q->wbuf, header, sizeof header);
  g_byte_array_append (q->wbuf, payload, len);
  q->wbuf_records++;
  q->wbuf_bytes += len;
  q->records++;
  q->bytes += len;
  *end = (SlDiskPos) { s->id, start + SL_DISK_QUEUE_RECORD_OVERHEAD + len };
  return TRUE;
}

gboolean
sl_disk_queue_flush (SlDiskQueue *q, GError **error)
{
  Segment *s = tail (q);
  if (q->wbuf->len && !pwrite_all (s->fd, q->wbuf->data, q->wbuf->len, s->size))
    {
      gint err = errno ? errno : ENOSPC;
      if (ftruncate (s->fd, s->size) == 0)
        preallocate (q, s);
      forget_read_ahead (q);
      q->records -= q->wbuf_records;
      q->bytes -= q->wbuf_bytes;
      q->wbuf_records = q->wbuf_bytes = 0;
      g_byte_array_set_size (q->wbuf, 0);
      return set_errno_error (error, err, _("cannot write disk-buffer file %s"), s->path);
    }
  gboolean wrote = q->wbuf->len > 0;
  s->size += q->wbuf->len;
  s->records += q->wbuf_records;
  s->bytes += q->wbuf_bytes;
  q->wbuf_records = q->wbuf_bytes = 0;
  g_byte_array_set_size (q->wbuf, 0);
  if (!q->roll)
    return TRUE;
  /* What was written stays written when no new segment can be made:
   * the next append is refused again and the next flush says why. */
  Segment *next = segment_create (q, wrote ? NULL : error);
  if (!next)
    return wrote;
  q->unsynced = s;
  g_queue_push_tail (&q->segments, next);
  q->roll = FALSE;
  return TRUE;
}

gboolean
sl_disk_queue_sync (SlDiskQueue *q, GError **error)
{
  /* the segment left behind first: its records are not acknowledged
   * before this sync, so nothing can have deleted it */
  Segment *s = q->unsynced;
  if (s && fdatasync (s->fd) < 0)
    return set_errno_error (error, errno, _("cannot sync disk-buffer file %s"), s->path);
  q->unsynced = NULL;
  s = tail (q);
  if (fdatasync (s->fd) < 0)
    return set_errno_error (error, errno, _("cannot sync disk-buffer file %s"), s->path);
  return TRUE;
}

void
sl_disk_queue_publish (SlDiskQueue *q)
{
  for (GList *l = q->cursor_link; l; l = l->next)
    {
      Segment *s = l->data;
      q->unread += s->records - s->published;
      s->published = s->records;
      s->published_bytes = s->bytes;
    }
  q->readable = (SlDiskPos) { tail (q)->id, tail (q)->size };
}

/* Moves the reader to the next segment when it finished its own. */
static gboolean
cursor_advance (SlDiskQueue *q)
{
  Segment *s = q->cursor_link->data;
  if (q->cursor < s->size && !(s->id == q->readable.segment && q->cursor >= q->readable.offset))
    return TRUE;
  if (!q->cursor_link->next || s->id >= q->readable.segment)
    return FALSE;
  q->cursor_link = q->cursor_link->next;
  q->cursor = SEGMENT_HEADER;
  return cursor_advance (q);
}

SlDiskReadResult
sl_disk_queue_read (SlDiskQueue *q, const guint8 **payload, gsize *len, SlDiskPos *end, guint64 *skipped)
{
  if (!q->unread || !cursor_advance (q))
    return SL_DISK_READ_NONE;
  Segment *s = q->cursor_link->data;
  const guint8 *p;
  guint32 n;
  if (record_at (q, s, q->cursor, &p, &n) < 0)
    {
      *skipped = s->published - s->read;
      q->unread -= *skipped;
      q->records -= *skipped;
      q->bytes -= s->published_bytes - s->read_bytes;
      s->read = s->published;
      s->read_bytes = s->published_bytes;
      q->cursor = s->id == q->readable.segment ? q->readable.offset : s->size;
      return SL_DISK_READ_CORRUPT;
    }
  q->cursor += SL_DISK_QUEUE_RECORD_OVERHEAD + n;
  s->read++;
  s->read_bytes += n;
  q->unread--;
  *payload = p + SL_DISK_QUEUE_RECORD_OVERHEAD;
  *len = n;
  *end = (SlDiskPos) { s->id, q->cursor };
  return SL_DISK_READ_RECORD;
}

void
sl_disk_queue_skip (SlDiskQueue *q, SlDiskPos end, gsize len)
{
  while (((Segment *) q->cursor_link->data)->id < end.segment && q->cursor_link->next)
    q->cursor_link = q->cursor_link->next;
  Segment *s = q->cursor_link->data;
  s->read++;
  s->read_bytes += len;
  q->cursor = end.offset;
  q->unread--;
}

/* Nothing queued and the tail holds a lot: it starts over, so that a
 * healthy destination never keeps more than TRUNCATE_AT on disk. */
static void
truncate_when_empty (SlDiskQueue *q)
{
  Segment *s = tail (q);
  if (q->records || q->wbuf->len || q->segments.length > 1 || s->size < TRUNCATE_AT)
    return;
  if (ftruncate (s->fd, SEGMENT_HEADER) < 0)
    return;
  preallocate (q, s);
  forget_read_ahead (q);
  s->size = SEGMENT_HEADER;
  s->records = s->bytes = s->published = s->published_bytes = s->read = s->read_bytes = 0;
  q->head = (SlDiskPos) { s->id, SEGMENT_HEADER };
  q->cursor = SEGMENT_HEADER;
  q->readable = q->head;
}

void
sl_disk_queue_ack (SlDiskQueue *q, SlDiskPos end, guint64 records, guint64 bytes)
{
  q->head = end;
  q->records -= MIN (records, q->records);
  q->bytes -= MIN (bytes, q->bytes);
  while (q->segments.length > 1 && ((Segment *) q->segments.head->data)->id < end.segment)
    {
      Segment *s = g_queue_pop_head (&q->segments);
      if (q->cursor_link && q->cursor_link->data == s)
        q->cursor_link = q->segments.head;
      /* the head is written first: a crash in between leaves a segment
       * before the head, deleted at the next start */
      write_head (q);
      g_unlink (s->path);
      segment_free (s);
    }
  truncate_when_empty (q);
  write_head (q);
}

guint64
sl_disk_queue_records (const SlDiskQueue *q)
{
  return q->records;
}

guint64
sl_disk_queue_bytes (const SlDiskQueue *q)
{
  return q->bytes;
}

guint64
sl_disk_queue_unread (const SlDiskQueue *q)
{
  return q->unread;
}
