/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/io/stream-writer.h"
#include "core/io/resend-buffer.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

struct _SlStreamWriter
{
  gboolean keep_unread;
  SlResendBuffer buf;  /* messages rendered back to back, from the first not known to be read */
};

SlStreamWriter *
sl_stream_writer_new (gboolean keep_unread)
{
  SlStreamWriter *w = g_new0 (SlStreamWriter, 1);
  w->keep_unread = keep_unread;
  sl_resend_buffer_init (&w->buf);
  return w;
}

void
sl_stream_writer_free (SlStreamWriter *w)
{
  if (!w)
    return;
  sl_resend_buffer_clear (&w->buf);
  g_free (w);
}

static gboolean
wait_for_room (gint fd, gint64 deadline)
{
  for (;;)
    {
      gint64 left_ms = (deadline - g_get_monotonic_time () + 999) / 1000;
      if (left_ms <= 0)
        return FALSE;
      struct pollfd p = { .fd = fd, .events = POLLOUT };
      gint rc = poll (&p, 1, (gint) MIN (left_ms, G_MAXINT));
      if (rc > 0)
        return TRUE;
      if (rc == 0 || errno != EINTR)
        return FALSE;
    }
}

/* Writes the buffer from sent on. A descriptor in blocking mode that is no
 * regular file (a shared stdout) is written in pieces of at most PIPE_BUF
 * once poll() says there is room, so a stalled reader holds the writer
 * for wait_ms, not for ever. */
static gboolean
write_out (SlStreamWriter *w, gint fd, gint wait_ms, gint *err)
{
  gint flags = fcntl (fd, F_GETFL);
  struct stat st;
  gboolean careful = flags >= 0 && !(flags & O_NONBLOCK) && fstat (fd, &st) == 0 && !S_ISREG (st.st_mode);
  gint64 deadline = g_get_monotonic_time () + (gint64) wait_ms * 1000;
  SlResendBuffer *b = &w->buf;
  while (sl_resend_buffer_unsent (b))
    {
      gsize len = b->bytes->len - b->sent;
      if (careful)
        {
          if (!wait_for_room (fd, deadline))
            {
              *err = EAGAIN;
              return FALSE;
            }
          len = MIN (len, PIPE_BUF);
        }
      gssize n = write (fd, b->bytes->str + b->sent, len);
      if (n > 0)
        {
          b->sent += n;
          deadline = g_get_monotonic_time () + (gint64) wait_ms * 1000;
          continue;
        }
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && wait_for_room (fd, deadline))
        continue;
      *err = n < 0 ? errno : EIO;
      return FALSE;
    }
  return TRUE;
}

/* Forgets what the reader has read: all that was written, unless
 * keep_unread and the pipe still holds some. */
static void
note_read (SlStreamWriter *w, gint fd)
{
  gint queued = 0;
  if (w->keep_unread && (ioctl (fd, FIONREAD, &queued) < 0 || queued < 0))
    queued = 0;
  sl_resend_buffer_delivered (&w->buf, queued);
}

guint
sl_stream_writer_write (SlStreamWriter *w, gint fd, const SlTemplate *t, const SlTemplateEnv *env,
                        SlMessage *const *msgs, guint n, gint wait_ms, gint *err)
{
  sl_resend_buffer_compact (&w->buf);
  guint mark = sl_resend_buffer_mark (&w->buf);
  for (guint i = 0; i < n; i++)
    {
      sl_template_append (t, msgs[i], env, w->buf.bytes);
      sl_resend_buffer_end_message (&w->buf);
    }
  gboolean ok = write_out (w, fd, wait_ms, err);
  /* Messages not started are taken out again: the caller keeps them
   * queued and hands them in again. One that was cut stays, to be
   * finished first. */
  guint written = ok ? n : sl_resend_buffer_take_back (&w->buf, mark, TRUE);
  note_read (w, fd);
  return written;
}

gboolean
sl_stream_writer_flush (SlStreamWriter *w, gint fd, gint wait_ms, gint *err)
{
  gboolean ok = write_out (w, fd, wait_ms, err);
  note_read (w, fd);
  return ok;
}

gboolean
sl_stream_writer_pending (const SlStreamWriter *w)
{
  return sl_resend_buffer_unsent (&w->buf);
}

void
sl_stream_writer_reader_gone (SlStreamWriter *w, gint fd)
{
  note_read (w, fd);
  /* what is kept starts with the first message not read whole */
  sl_resend_buffer_rewind (&w->buf);
}
