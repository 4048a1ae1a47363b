#include "core/stream.h"
#include "core/internal.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#define READ_CHUNK (64 * 1024)
#define POST_BATCH 256

typedef enum
{
  FRAMING_UNKNOWN,
  FRAMING_NEWLINE,
  FRAMING_OCTET_COUNT,
} Framing;

struct _SlStreamReader
{
  SlSource *src;
  gint fd;
  gint wake;              /* eventfd; -1 for a socket, which shutdown() wakes */
  gchar *peer;
  SlWindow *window;
  gint cancelled;
  Framing framing;
  gchar *buf;
  gsize size;
  gsize start;
  gsize end;
  gsize skip;             /* bytes still to drop from an oversize frame */
  gboolean skip_to_newline;
  SlMessage *batch[POST_BATCH];
  guint batched;
};

SlStreamReader *
sl_stream_reader_new (SlSource *src, gint fd, const gchar *peer)
{
  SlStreamReader *r = g_new0 (SlStreamReader, 1);
  r->src = src;
  r->fd = fd;
  /* shutdown() ends a blocked read() on a socket only; a pipe or a terminal
   * is watched together with an eventfd that cancel() writes to */
  struct stat st;
  r->wake = fstat (fd, &st) == 0 && S_ISSOCK (st.st_mode) ? -1 : eventfd (0, EFD_CLOEXEC);
  r->peer = g_strdup (peer);
  r->window = sl_source_new_window (src);
  r->size = MAX (READ_CHUNK, sl_source_max_msg_size (src) + 32);
  r->buf = g_malloc (r->size);
  return r;
}

void
sl_stream_reader_frame_by_newline (SlStreamReader *r)
{
  r->framing = FRAMING_NEWLINE;
}

void
sl_stream_reader_free (SlStreamReader *r)
{
  if (r->wake >= 0)
    close (r->wake);
  sl_window_unref (r->window);
  g_free (r->buf);
  g_free (r->peer);
  g_free (r);
}

void
sl_stream_reader_cancel (SlStreamReader *r)
{
  g_atomic_int_set (&r->cancelled, 1);
  sl_window_cancel (r->window);
  if (r->wake >= 0)
    eventfd_write (r->wake, 1);
  else
    shutdown (r->fd, SHUT_RDWR);
}

/* For a reader with an eventfd: waits until fd has data or the reader is
 * cancelled; FALSE when cancelled. */
static gboolean
wait_readable (SlStreamReader *r)
{
  struct pollfd fds[2] = { { r->fd, POLLIN, 0 }, { r->wake, POLLIN, 0 } };
  while (poll (fds, 2, -1) < 0)
    if (errno != EINTR)
      return FALSE;
  return !fds[1].revents;
}

static void
flush_batch (SlStreamReader *r)
{
  if (!r->batched)
    return;
  sl_source_post (r->src, r->batch, r->batched);
  r->batched = 0;
}

static void
emit (SlStreamReader *r, const gchar *data, gsize len)
{
  /* an octet-counted frame often ends in the newline a sender adds anyway */
  while (len && (data[len - 1] == '\n' || data[len - 1] == '\r' || data[len - 1] == '\0'))
    len--;
  if (!len)
    return;
  SlMessage *msg = sl_source_parse (r->src, data, len, r->peer);
  sl_message_bind_window (msg, r->window);
  r->batch[r->batched++] = msg;
  if (r->batched == POST_BATCH)
    flush_batch (r);
}

/* RFC 6587: a frame that starts with digits and a space is octet-counted.
 * The first frame decides for the whole connection, as rsyslog and
 * syslog-ng do. */
static Framing
detect_framing (const gchar *p, gsize len)
{
  gsize i = 0;
  while (i < len && i < 10 && g_ascii_isdigit (p[i]))
    i++;
  if (i == len)
    return FRAMING_UNKNOWN;
  return (i > 0 && p[0] != '0' && p[i] == ' ') ? FRAMING_OCTET_COUNT : FRAMING_NEWLINE;
}

static gboolean
frame_newline (SlStreamReader *r, gboolean at_eof)
{
  gchar *p = r->buf + r->start;
  gsize avail = r->end - r->start;
  gsize max = sl_source_max_msg_size (r->src);
  gchar *nl = memchr (p, '\n', avail);
  /* glibc's syslog(3) ends each message with a NUL instead of a newline
   * on stream sockets: either ends a frame */
  gchar *nul = memchr (p, '\0', nl ? (gsize) (nl - p) : avail);
  if (nul)
    nl = nul;

  if (r->skip_to_newline)
    {
      r->start = nl ? (gsize) (nl - r->buf) + 1 : r->end;
      r->skip_to_newline = nl == NULL;
      return nl != NULL;
    }
  if (nl)
    {
      emit (r, p, nl - p);
      r->start += (nl - p) + 1;
      return TRUE;
    }
  if (avail > max)
    {
      /* over log-msg-size(): keep the head (counted as truncated by the
       * source), and drop the rest of the line as it arrives */
      emit (r, p, avail);
      r->start = r->end;
      r->skip_to_newline = TRUE;
      return FALSE;
    }
  if (at_eof && avail)
    {
      emit (r, p, avail);
      r->start = r->end;
    }
  return FALSE;
}

static gboolean
frame_octet_count (SlStreamReader *r, gboolean at_eof)
{
  gchar *p = r->buf + r->start;
  gsize avail = r->end - r->start;

  if (r->skip)
    {
      gsize n = MIN (r->skip, avail);
      r->skip -= n;
      r->start += n;
      return r->skip == 0 && n < avail;
    }
  gsize i = 0;
  guint64 len = 0;
  while (i < avail && i < 10 && g_ascii_isdigit (p[i]))
    len = len * 10 + (p[i++] - '0');
  if (i == avail && !at_eof && i < 10)
    return FALSE;
  if (i == 0 || i >= avail || p[i] != ' ')
    {
      /* not a frame header: the sender mixes framings; fall back to lines */
      sl_source_count (r->src, "framing_errors", 1);
      r->framing = FRAMING_NEWLINE;
      return avail > 0;
    }
  gsize header = i + 1;
  gsize max = sl_source_max_msg_size (r->src);
  if (len > max)
    {
      if (avail - header < max && !at_eof)
        return FALSE;
      emit (r, p + header, MIN (avail - header, max + 1));
      gsize consumed = MIN (avail, header + len);
      r->start += consumed;
      r->skip = header + len - consumed;
      return r->start < r->end;
    }
  if (avail - header < len)
    {
      if (at_eof)
        {
          sl_source_count (r->src, "truncated_frames", 1);
          emit (r, p + header, avail - header);
          r->start = r->end;
        }
      return FALSE;
    }
  emit (r, p + header, len);
  r->start += header + len;
  return TRUE;
}

static void
frame_all (SlStreamReader *r, gboolean at_eof)
{
  for (;;)
    {
      if (r->start == r->end)
        break;
      if (r->framing == FRAMING_UNKNOWN)
        {
          r->framing = detect_framing (r->buf + r->start, r->end - r->start);
          if (r->framing == FRAMING_UNKNOWN)
            {
              if (!at_eof)
                break;
              r->framing = FRAMING_NEWLINE;
            }
        }
      gboolean more = r->framing == FRAMING_NEWLINE ? frame_newline (r, at_eof)
                                                    : frame_octet_count (r, at_eof);
      if (!more)
        break;
    }
  if (r->start == r->end)
    r->start = r->end = 0;
  else if (r->start > 0 && r->end == r->size)
    {
      memmove (r->buf, r->buf + r->start, r->end - r->start);
      r->end -= r->start;
      r->start = 0;
    }
}

void
sl_stream_reader_run (SlStreamReader *r)
{
  while (!g_atomic_int_get (&r->cancelled))
    {
      if (!sl_window_wait (r->window))
        break;
      if (r->wake >= 0 && !wait_readable (r))
        break;
      gssize n = read (r->fd, r->buf + r->end, r->size - r->end);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          if (!g_atomic_int_get (&r->cancelled))
            {
              sl_source_count (r->src, "read_errors", 1);
              sl_log (SL_LOG_NOTICE, "read error on %s from %s: %s", sl_source_id (r->src),
                      r->peer ? r->peer : "local", g_strerror (errno));
            }
          break;
        }
      if (n == 0)
        {
          frame_all (r, TRUE);
          break;
        }
      r->end += n;
      frame_all (r, FALSE);
      flush_batch (r);
    }
  flush_batch (r);
}
