#include "core/stream-writer.h"

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
  GString *out;      /* messages rendered back to back, from the first not known to be read */
  GArray *ends;      /* gsize per message in out: where its text ends */
  gsize written;     /* how much of out is written */
};

SlStreamWriter *
sl_stream_writer_new (gboolean keep_unread)
{
  SlStreamWriter *w = g_new0 (SlStreamWriter, 1);
  w->keep_unread = keep_unread;
  w->out = g_string_sized_new (64 * 1024);
  w->ends = g_array_new (FALSE, FALSE, sizeof (gsize));
  return w;
}

void
sl_stream_writer_free (SlStreamWriter *w)
{
  if (!w)
    return;
  g_string_free (w->out, TRUE);
  g_array_unref (w->ends);
  g_free (w);
}

static gsize
message_start (const SlStreamWriter *w, guint i)
{
  return i ? g_array_index (w->ends, gsize, i - 1) : 0;
}

/* The first message whose text ends after offset, or ends->len. */
static guint
message_after (const SlStreamWriter *w, gsize offset)
{
  guint lo = 0, hi = w->ends->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (g_array_index (w->ends, gsize, mid) <= offset)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
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

/* Writes out from written on. A descriptor in blocking mode that is no
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
  while (w->written < w->out->len)
    {
      gsize len = w->out->len - w->written;
      if (careful)
        {
          if (!wait_for_room (fd, deadline))
            {
              *err = EAGAIN;
              return FALSE;
            }
          len = MIN (len, PIPE_BUF);
        }
      gssize n = write (fd, w->out->str + w->written, len);
      if (n > 0)
        {
          w->written += n;
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

/* Drops the first count messages from out. */
static void
forget_messages (SlStreamWriter *w, guint count)
{
  if (!count)
    return;
  gsize shift = message_start (w, count);
  g_string_erase (w->out, 0, shift);
  g_array_remove_range (w->ends, 0, count);
  for (guint i = 0; i < w->ends->len; i++)
    g_array_index (w->ends, gsize, i) -= shift;
  w->written -= shift;
}

/* How much of what was written the reader has read: all of it, unless
 * keep_unread and the pipe still holds some. */
static gsize
read_up_to (SlStreamWriter *w, gint fd)
{
  gint queued = 0;
  if (!w->keep_unread || ioctl (fd, FIONREAD, &queued) < 0 || queued <= 0)
    return w->written;
  return w->written - MIN ((gsize) queued, w->written);
}

guint
sl_stream_writer_write (SlStreamWriter *w, gint fd, const SlTemplate *t, const SlTemplateEnv *env,
                        SlMessage **msgs, guint n, gint wait_ms, gint *err)
{
  guint first = w->ends->len;
  for (guint i = 0; i < n; i++)
    {
      sl_template_append (t, msgs[i], env, w->out);
      g_array_append_val (w->ends, w->out->len);
    }
  gboolean ok = write_out (w, fd, wait_ms, err);
  /* Messages not started are taken out again: the caller keeps them
   * queued and hands them in again. One that was cut stays, to be
   * finished first. */
  guint kept = message_after (w, w->written);
  if (kept < w->ends->len && message_start (w, kept) < w->written)
    kept++;
  kept = MAX (kept, first);
  g_string_truncate (w->out, message_start (w, kept));
  g_array_set_size (w->ends, kept);
  forget_messages (w, message_after (w, read_up_to (w, fd)));
  return ok ? n : kept - first;
}

gboolean
sl_stream_writer_flush (SlStreamWriter *w, gint fd, gint wait_ms, gint *err)
{
  gboolean ok = write_out (w, fd, wait_ms, err);
  forget_messages (w, message_after (w, read_up_to (w, fd)));
  return ok;
}

gboolean
sl_stream_writer_pending (const SlStreamWriter *w)
{
  return w->written < w->out->len;
}

void
sl_stream_writer_reader_gone (SlStreamWriter *w, gint fd)
{
  forget_messages (w, message_after (w, read_up_to (w, fd)));
  /* what is left starts with the first message not read whole */
  w->written = 0;
}
