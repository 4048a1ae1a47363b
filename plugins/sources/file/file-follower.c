/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A file followed as programs append to it, as `tail -F` does: what file()
 * runs for its file and wildcard-file() for each it found. It notices
 * rotation (another file at the path: the old one is read to its
 * end first) and truncation (the file got shorter than what was read: read
 * again from the start; with rsyslog-reopen-on-truncate(no), as rsyslog's
 * imfile by default, read on from where it was once it grows past that),
 * and keeps its position in the persist file. The
 * position moves only over lines whose messages were delivered: the
 * reader posts at most a window of messages (log-iw-size()), waits for
 * them to be delivered and saves where they end, so a restart after a
 * stop repeats nothing and one after a kill -9 at most a window. */
#include "core/i18n.h"
#include "core/internal.h"
#include "core/store/persist.h"
#include "core/route/source.h"
#include "plugins/sources/file/file-follower.h"
#include "core/io/multi-line.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#define READ_CHUNK (64 * 1024)
#define POST_BATCH 256
/* How long stopping waits for the last lines read to be delivered; what
 * is still undelivered then is read again after a restart. */
#define STOP_GRACE_USEC (2 * G_USEC_PER_SEC)
/* follow-freq(0) without inotify would never look again */
#define FALLBACK_POLL_MS 1000

struct _SlFileFollower
{
  gchar *id;                /* the driver's, for what is logged */
  gchar *path;
  gsize path_len;
  SlHandle file_name;       /* $FILE_NAME, which every message gets, as in syslog-ng */
  SlHandle meta_name;       /* rsyslog-metadata(): !metadata.filename, or SL_F_NONE */
  SlHandle meta_offset;     /* and !metadata.fileoffset */
  gchar *dir;
  gint follow_ms;           /* 0: only inotify wakes the reader */
  gboolean reread_truncated;
  const FileMultiLine *lines;   /* the driver's multi-line-mode() */
  gchar *persist_key;

  SlSource *source;
  SlWindow *window;
  GThread *thread;
  gint wake;                /* eventfd: stop() */
  gint inotify;             /* watches the folder; -1 when unavailable */
  gint stopping;
  GMutex lock;
  GCond finished_cond;
  gboolean finished;

  /* the reading thread's own */
  gint fd;
  ino_t ino;
  gint64 offset;            /* where in the file buf[start] is */
  gboolean resumed;         /* the saved position has been looked at */
  gboolean missing_logged;
  gchar *buf;
  gsize size;
  gsize start;
  gsize end;
  gboolean skipping;        /* dropping the rest of an oversize line */
  /* multi-line-mode(): the bytes from start taken into the message being
   * put together, which stays in the buffer until sent, so that the
   * position saved never passes the start of a message not yet sent */
  gsize held;
  SlMultiLineState ml_state;
  gint64 last_read;         /* monotonic; for multi-line-timeout() */
  gsize record_size;        /* the format's binary records; 0: lines */
  guint window_size;
  guint unsettled;          /* messages posted since the position was saved */
  SlMessage *batch[POST_BATCH];
  guint batched;
};


FileFollower *
file_follower_new (const gchar *id, const gchar *path, const gchar *persist_key, gint follow_ms,
                   const FileMultiLine *lines, gboolean metadata, gboolean reread_truncated)
{
  FileFollower *self = g_new0 (FileFollower, 1);
  self->id = g_strdup (id);
  self->path = g_strdup (path);
  self->path_len = strlen (path);
  self->file_name = sl_field_handle ("FILE_NAME");
  if (metadata)
    {
      self->meta_name = sl_field_handle ("!metadata.filename");
      self->meta_offset = sl_field_handle ("!metadata.fileoffset");
    }
  self->follow_ms = follow_ms;
  self->reread_truncated = reread_truncated;
  self->lines = lines;
  self->dir = g_path_get_dirname (path);
  self->persist_key = persist_key ? g_strdup (persist_key) : g_strdup_printf ("file(%s)", path);
  self->fd = -1;
  self->wake = -1;
  self->inotify = -1;
  g_mutex_init (&self->lock);
  g_cond_init (&self->finished_cond);
  return self;
}

const gchar *
file_follower_path (const FileFollower *self)
{
  return self->path;
}

static void
flush_batch (FileFollower *self)
{
  if (!self->batched)
    return;
  sl_source_post (self->source, self->batch, self->batched);
  self->batched = 0;
}

static void
save_position (FileFollower *self)
{
  gchar value[64];
  g_snprintf (value, sizeof value, "%" G_GUINT64_FORMAT " %" G_GINT64_FORMAT, (guint64) self->ino, self->offset);
  sl_persist_set (self->persist_key, value);
}

/* Posts what was framed, waits until every message posted was delivered
 * and saves the position, which is where the last one ends; FALSE when
 * stop() gave up waiting. */
static gboolean
settle (FileFollower *self)
{
  flush_batch (self);
  if (!sl_window_wait_empty (self->window, -1))
    return FALSE;
  save_position (self);
  self->unsettled = 0;
  return TRUE;
}

/* After a window's worth of messages: what a kill -9 may read again. */
static gboolean
settle_if_full (FileFollower *self)
{
  return self->unsettled < self->window_size || settle (self);
}

/* The fields every message of the file gets; self->offset is where it
 * starts */
static void
set_file_fields (FileFollower *self, SlMessage *msg)
{
  sl_message_set (msg, self->file_name, self->path, self->path_len);
  if (self->meta_name)
    {
      gchar offset[24];
      sl_message_set (msg, self->meta_name, self->path, self->path_len);
      sl_message_set (msg, self->meta_offset, offset,
                      g_snprintf (offset, sizeof offset, "%" G_GINT64_FORMAT, self->offset));
    }
}

static void
emit (FileFollower *self, const gchar *line, gsize len)
{
  if (len && line[len - 1] == '\r')
    len--;
  if (!len)
    return;
  SlMessage *msg = sl_source_parse (self->source, line, len, NULL);
  set_file_fields (self, msg);
  sl_message_bind_window (msg, self->window);
  self->batch[self->batched++] = msg;
  self->unsettled++;
  if (self->batched == POST_BATCH)
    flush_batch (self);
}

/* A format of binary records (format("pacct")): each record whole, a
 * short one only at_end, when no one will finish it any more. */
static gsize
frame_record (FileFollower *self, gboolean at_end)
{
  gsize avail = self->end - self->start;
  gsize size = MIN (avail, self->record_size);

  if (size < self->record_size && !at_end)
    return 0;
  SlMessage *msg = sl_source_parse (self->source, self->buf + self->start, size, NULL);
  set_file_fields (self, msg);
  sl_message_bind_window (msg, self->window);
  self->batch[self->batched++] = msg;
  self->unsettled++;
  if (self->batched == POST_BATCH)
    flush_batch (self);
  return size;
}

/* Sends msg_len bytes of the held message, without the newlines it ends
 * in (as syslog-ng), and moves past used bytes. */
static void
send_held (FileFollower *self, gsize msg_len, gsize used)
{
  const gchar *p = self->buf + self->start;
  while (msg_len && (p[msg_len - 1] == '\n' || p[msg_len - 1] == '\r' || p[msg_len - 1] == '\0'))
    msg_len--;
  emit (self, p, msg_len);
  self->start += used;
  self->offset += used;
  self->held = 0;
}

/* multi-line-mode(): adds the complete lines after the held ones to
 * messages; at_end also a last line without its newline, and sends what
 * is held, which no one will finish any more. FALSE as settle(). */
static gboolean
frame_multi_line (FileFollower *self, gboolean at_end)
{
  gsize max = sl_source_max_msg_size (self->source);
  while (self->start + self->held < self->end)
    {
      gchar *line = self->buf + self->start + self->held;
      gsize avail = self->end - self->start - self->held;
      gchar *nl = memchr (line, '\n', avail);
      if (self->skipping)
        {
          gsize used = nl ? (gsize) (nl - line) + 1 : avail;
          self->skipping = nl == NULL;
          self->start += used;
          self->offset += used;
          continue;
        }
      if (!nl && !at_end)
        {
          if (self->end - self->start <= max)
            break;
          /* longer than log-msg-size(): what is held goes as it is; a
           * line alone that long is cut as without multi-line-mode() */
          if (self->held)
            send_held (self, self->held, self->held);
          else
            {
              emit (self, line, avail);
              self->start += avail;
              self->offset += avail;
              self->skipping = TRUE;
            }
          continue;
        }
      gsize len = nl ? (gsize) (nl - line) : avail;
      gsize used = nl ? len + 1 : len;
      gsize keep = 0;
      switch (sl_multi_line_add (self->lines->ml, &self->ml_state, self->held, line, len, &keep))
        {
        case SL_MULTI_LINE_BEFORE:
          send_held (self, self->held, self->held);
          break;
        case SL_MULTI_LINE_END:
          send_held (self, self->held + keep, self->held + used);
          break;
        case SL_MULTI_LINE_WAIT:
          if (self->held && self->held + used > max)
            send_held (self, self->held, self->held);
          else
            self->held += used;
          break;
        }
      if (!settle_if_full (self))
        return FALSE;
    }
  if (at_end && self->held)
    send_held (self, self->held, self->held);
  return TRUE;
}

/* Makes messages of the complete lines (or records) in the buffer; at_end
 * also of a last line without its newline, which no one will finish any
 * more. FALSE as settle(). */
static gboolean
frame_lines (FileFollower *self, gboolean at_end)
{
  gsize max = sl_source_max_msg_size (self->source);
  while (!self->lines->ml && self->start < self->end)
    {
      if (self->record_size)
        {
          gsize used = frame_record (self, at_end);
          if (!used)
            break;
          self->start += used;
          self->offset += used;
          if (!settle_if_full (self))
            return FALSE;
          continue;
        }
      gchar *p = self->buf + self->start;
      gsize avail = self->end - self->start;
      gchar *nl = memchr (p, '\n', avail);
      gsize used;
      if (self->skipping)
        {
          used = nl ? (gsize) (nl - p) + 1 : avail;
          self->skipping = nl == NULL;
        }
      else if (nl)
        {
          emit (self, p, nl - p);
          used = nl - p + 1;
        }
      else if (avail > max || at_end)
        {
          /* longer than log-msg-size(): the source keeps the head and
           * counts it, the rest of the line is dropped as it comes */
          emit (self, p, avail);
          used = avail;
          self->skipping = !at_end;
        }
      else
        break;
      self->start += used;
      self->offset += used;
      if (!settle_if_full (self))
        return FALSE;
    }
  if (self->lines->ml && !frame_multi_line (self, at_end))
    return FALSE;
  if (self->start == self->end)
    self->start = self->end = 0;
  else if (self->start > 0)
    {
      memmove (self->buf, self->buf + self->start, self->end - self->start);
      self->end -= self->start;
      self->start = 0;
    }
  return TRUE;
}

/* Posts what the buffer holds and records the position once all of it was
 * delivered; FALSE when stop() gave up waiting for that. */
static gboolean
deliver (FileFollower *self, gboolean at_end)
{
  return frame_lines (self, at_end) && settle (self);
}

/* The saved position when it belongs to this file (the same inode) and
 * the file still reaches it; else the start. */
static gint64
resume_offset (FileFollower *self, const struct stat *st)
{
  gchar *saved = sl_persist_get (self->persist_key);
  guint64 ino = 0;
  gint64 offset = 0;
  gint64 resume = 0;
  if (saved && sscanf (saved, "%" G_GUINT64_FORMAT " %" G_GINT64_FORMAT, &ino, &offset) == 2
      && ino == (guint64) st->st_ino && offset > 0)
    {
      if (offset <= st->st_size)
        resume = offset;
      else
        {
          sl_source_count (self->source, "truncations", 1);
          sl_log (SL_LOG_NOTICE, _("%s: %s is shorter than where reading stopped; reading it from the start"),
                  self->id, self->path);
        }
    }
  g_free (saved);
  return resume;
}

static gboolean
open_file (FileFollower *self)
{
  gint fd = open (self->path, O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (fd >= 0 && (fstat (fd, &st) < 0 || !S_ISREG (st.st_mode)))
    {
      close (fd);
      fd = -1;
      errno = EINVAL;
    }
  if (fd < 0)
    {
      if (!self->missing_logged)
        sl_log (SL_LOG_NOTICE, _("%s: cannot read %s yet (%s); waiting for it"), self->id, self->path,
                errno == EINVAL ? _("not a regular file; pipe() reads named pipes") : g_strerror (errno));
      self->missing_logged = TRUE;
      return FALSE;
    }
  self->missing_logged = FALSE;
  self->fd = fd;
  self->ino = st.st_ino;
  self->offset = 0;
  self->start = self->end = 0;
  self->held = 0;
  self->skipping = FALSE;
  if (!self->resumed)
    {
      self->resumed = TRUE;
      self->offset = resume_offset (self, &st);
      if (self->offset && lseek (fd, self->offset, SEEK_SET) != self->offset)
        self->offset = 0;
    }
  save_position (self);
  sl_log (SL_LOG_INFO, _("%s: reading %s from byte %" PRId64), self->id, self->path, self->offset);
  return TRUE;
}

static void
close_file (FileFollower *self)
{
  if (self->fd >= 0)
    close (self->fd);
  self->fd = -1;
}

/* At the end of the file: is another file at the path now (or none)? */
static gboolean
was_replaced (FileFollower *self)
{
  struct stat st;
  if (stat (self->path, &st) < 0)
    return errno == ENOENT;
  return st.st_ino != self->ino;
}

/* At the end of the file: did it get shorter than what was read? */
static gboolean
was_truncated (FileFollower *self)
{
  struct stat st;
  gint64 read_up_to = self->offset + (gint64) (self->end - self->start);
  if (fstat (self->fd, &st) < 0 || st.st_size >= read_up_to)
    return FALSE;
  sl_source_count (self->source, "truncations", 1);
  sl_log (SL_LOG_NOTICE, _("%s: %s was truncated; reading it from the start"), self->id, self->path);
  lseek (self->fd, 0, SEEK_SET);
  self->offset = 0;
  self->start = self->end = 0;
  self->held = 0;
  self->skipping = FALSE;
  save_position (self);
  return TRUE;
}

/* Sleeps until inotify reports a change in the folder, follow-freq()
 * (or limit_ms, when not -1) passes, or stop() wakes the thread. */
static void
wait_for_change (FileFollower *self, gint limit_ms)
{
  struct pollfd fds[2] = { { self->wake, POLLIN, 0 }, { self->inotify, POLLIN, 0 } };
  gint timeout = self->follow_ms > 0 ? self->follow_ms : self->inotify >= 0 ? -1 : FALLBACK_POLL_MS;
  if (limit_ms >= 0 && (timeout < 0 || limit_ms < timeout))
    timeout = limit_ms;
  if (poll (fds, self->inotify >= 0 ? 2 : 1, timeout) > 0 && fds[1].revents)
    {
      gchar events[4096] __attribute__ ((aligned (__alignof__ (struct inotify_event))));
      while (read (self->inotify, events, sizeof events) > 0)
        ;
    }
}

/* How long until multi-line-timeout() sends the held message: 0 now, -1
 * never. */
static gint64
held_timeout_ms (FileFollower *self)
{
  if (!self->held || !self->lines->timeout)
    return -1;
  gint64 idle_ms = (g_get_monotonic_time () - self->last_read) / 1000;
  return MAX (self->lines->timeout - idle_ms, 0);
}

static gboolean
read_some (FileFollower *self)
{
  gssize n = read (self->fd, self->buf + self->end, self->size - self->end);
  if (n > 0)
    {
      self->end += n;
      self->last_read = g_get_monotonic_time ();
      return deliver (self, FALSE);
    }
  if (n < 0 && errno == EINTR)
    return TRUE;
  if (n < 0)
    {
      sl_source_count (self->source, "read_errors", 1);
      sl_log (SL_LOG_ERROR, _("%s: cannot read %s: %s; opening it again"), self->id, self->path,
              g_strerror (errno));
      /* and going on from the last position delivered */
      self->resumed = FALSE;
      close_file (self);
      wait_for_change (self, -1);
      return TRUE;
    }
  if (was_replaced (self))
    {
      /* the old file is read to its end; the new one from its start */
      gboolean delivered = deliver (self, TRUE);
      close_file (self);
      sl_source_count (self->source, "rotations", 1);
      sl_log (SL_LOG_INFO, _("%s: %s was rotated; following the new file"), self->id, self->path);
      return delivered;
    }
  if (self->reread_truncated && was_truncated (self))
    return TRUE;
  gint64 idle_ms = held_timeout_ms (self);
  if (idle_ms == 0)
    {
      /* multi-line-timeout() passed: no more lines for the held message */
      send_held (self, self->held, self->held);
      return deliver (self, FALSE);
    }
  wait_for_change (self, (gint) MIN (idle_ms, G_MAXINT));
  return TRUE;
}

static gpointer
reader_thread (gpointer data)
{
  FileFollower *self = data;
  while (!g_atomic_int_get (&self->stopping))
    {
      if (self->fd < 0 && !open_file (self))
        wait_for_change (self, -1);
      else if (!read_some (self))
        break;
    }
  g_mutex_lock (&self->lock);
  self->finished = TRUE;
  g_cond_signal (&self->finished_cond);
  g_mutex_unlock (&self->lock);
  return NULL;
}

gboolean
file_follower_start (FileFollower *self, SlSource *source, GError **error)
{
  self->wake = eventfd (0, EFD_CLOEXEC);
  if (self->wake < 0)
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno), "eventfd: %s", g_strerror (errno));
      return FALSE;
    }
  /* a folder that does not exist yet is looked at every follow-freq() */
  self->inotify = inotify_init1 (IN_NONBLOCK | IN_CLOEXEC);
  if (self->inotify >= 0
      && inotify_add_watch (self->inotify, self->dir,
                            IN_MODIFY | IN_ATTRIB | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO) < 0)
    {
      close (self->inotify);
      self->inotify = -1;
    }
  self->source = source;
  self->window = sl_source_new_window (source);
  self->record_size = sl_source_record_size (source);
  self->window_size = sl_source_window_size (source);
  self->unsettled = 0;
  self->size = MAX (READ_CHUNK, sl_source_max_msg_size (source) + 1);
  self->buf = g_malloc (self->size);
  self->stopping = 0;
  self->finished = FALSE;
  self->thread = g_thread_new ("sl-file", reader_thread, self);
  return TRUE;
}

void
file_follower_stop (FileFollower *self)
{
  g_atomic_int_set (&self->stopping, 1);
  eventfd_write (self->wake, 1);
  /* the destinations still run: lines read are usually delivered at once */
  gint64 deadline = g_get_monotonic_time () + STOP_GRACE_USEC;
  g_mutex_lock (&self->lock);
  while (!self->finished)
    if (!g_cond_wait_until (&self->finished_cond, &self->lock, deadline))
      break;
  gboolean finished = self->finished;
  g_mutex_unlock (&self->lock);
  if (!finished)
    {
      sl_log (SL_LOG_NOTICE, _("%s: the last lines of %s were not delivered in time; they will be read again at the next start"),
              self->id, self->path);
      sl_window_cancel (self->window);
    }
  g_thread_join (self->thread);
  self->thread = NULL;
  close_file (self);
  self->resumed = FALSE;
  g_clear_pointer (&self->buf, g_free);
  g_clear_pointer (&self->window, sl_window_unref);
  close (self->wake);
  self->wake = -1;
  if (self->inotify >= 0)
    close (self->inotify);
  self->inotify = -1;
}

void
file_follower_free (FileFollower *self)
{
  g_free (self->id);
  g_free (self->path);
  g_free (self->dir);
  g_free (self->persist_key);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->finished_cond);
  g_free (self);
}
