/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/io/stream.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/io/partial-budget.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#define READ_CHUNK (64 * 1024)
#define POST_BATCH 256
/* Connections closed for the partial budget are logged the first time
 * and then once per this many; the counters have every one. */
#define LOG_EVERY 1000

typedef struct
{
  SlMessage *msgs[POST_BATCH];
  guint n;
  guint limited;          /* dropped by the rate limit, not counted yet */
} Batch;

struct _SlStreamReader
{
  SlSource *src;
  gint fd;
  gchar *peer;
  GString *extra;         /* peer, its NUL, then the TLS fields, kept behind every frame */
  SlWindow *window;
  gint cancelled;
  gint wake;              /* eventfd of run(): cancel() wakes it while it waits for data */
  gint64 last_read;       /* monotonic µs of the last read that brought data */
  gint64 last_frame;      /* monotonic µs of the last read that completed a frame */
  gboolean framed;        /* a frame was completed since read_once() began */
  SlStreamFraming framing;
  gchar *buf;             /* part of a frame, or NULL: see read_once() */
  gsize size;
  gsize start;
  gsize end;
  gsize skip;             /* bytes still to drop from an oversize frame */
  gboolean skip_to_newline;
  gsize held;             /* bytes of an unfinished frame counted in the partial budget */
  gboolean over_budget;   /* the partial budget had no room for its unfinished frame */
  Batch *batch;           /* the reading thread's, set at each read */
  SlTls *tls;             /* or NULL: read() */
  SlProxyHeader *proxy;   /* or NULL: not behind a PROXY header */
  SlRateLimit *limit;     /* or NULL: sl_stream_reader_set_rate_limit() */
  gboolean awaiting_proxy; /* the stream starts with a PROXY header not read yet */
};

/* Messages framed and not yet posted. Every entry point posts them
 * before it returns, so a thread reads for one reader at a time and the
 * batch can be the thread's rather than each connection's. */
static __thread Batch thread_batch;

SlStreamReader *
sl_stream_reader_new (SlSource *src, gint fd, const gchar *peer, SlStreamFraming framing)
{
  SlStreamReader *r = g_new0 (SlStreamReader, 1);
  r->src = src;
  r->framing = framing;
  r->fd = fd;
  r->peer = g_strdup (peer);
  r->window = sl_source_new_window (src);
  r->wake = -1;
  r->size = MAX (READ_CHUNK, sl_source_max_msg_size (src) + 32);
  return r;
}

void
sl_stream_reader_set_tls (SlStreamReader *r, SlTls *tls)
{
  r->tls = tls;
}

void
sl_stream_reader_set_rate_limit (SlStreamReader *r, SlRateLimit *limit)
{
  r->limit = limit;
}

void
sl_stream_reader_set_proxy (SlStreamReader *r, const SlProxyHeader *header)
{
  if (header->local)
    return;
  r->proxy = g_memdup2 (header, sizeof *header);
  g_free (r->peer);
  r->peer = g_strdup (header->src_ip);
  if (r->extra)
    g_string_free (g_steal_pointer (&r->extra), TRUE);
}

void
sl_stream_reader_expect_proxy (SlStreamReader *r)
{
  r->awaiting_proxy = TRUE;
}

gboolean
sl_stream_reader_awaiting_proxy (SlStreamReader *r)
{
  return r->awaiting_proxy;
}

const gchar *
sl_stream_reader_peer (SlStreamReader *r)
{
  return r->peer;
}

/* The header at the start of what was read; FALSE when there is none. */
static gboolean
take_proxy_header (SlStreamReader *r)
{
  SlProxyHeader header;
  gsize used = 0;
  SlProxyHeaderStatus status = sl_proxy_header_parse ((const guint8 *) r->buf + r->start, r->end - r->start,
                                                      &header, &used);
  if (status == SL_PROXY_HEADER_INCOMPLETE)
    return TRUE;
  if (status != SL_PROXY_HEADER_DONE)
    {
      sl_source_count (r->src, "proxy_refused", 1);
      sl_log (SL_LOG_WARNING, _("connection closed: %s; balancer='%s', driver='%s'"),
              sl_proxy_header_failure (status), r->peer ? r->peer : "local", sl_source_id (r->src));
      return FALSE;
    }
  r->start += used;
  r->awaiting_proxy = FALSE;
  sl_stream_reader_set_proxy (r, &header);
  return TRUE;
}

SlWindow *
sl_stream_reader_window (SlStreamReader *r)
{
  return r->window;
}

void
sl_stream_reader_free (SlStreamReader *r)
{
  sl_window_unref (r->window);
  sl_partial_budget_move (r->held, 0);
  if (r->wake >= 0)
    close (r->wake);
  g_free (r->buf);
  g_free (r->peer);
  if (r->extra)
    g_string_free (r->extra, TRUE);
  g_free (r->proxy);
  g_free (r);
}

void
sl_stream_reader_finish (SlStreamReader *r)
{
  shutdown (r->fd, SHUT_WR);
}

gint64
sl_stream_reader_last_read (SlStreamReader *r)
{
  return __atomic_load_n (&r->last_read, __ATOMIC_RELAXED);
}

gint64
sl_stream_reader_last_frame (SlStreamReader *r)
{
  return __atomic_load_n (&r->last_frame, __ATOMIC_RELAXED);
}

/* Only a reader that cannot be woken through its eventfd is shut down:
 * data a TCP peer sends after shutdown(SHUT_RD) resets the connection,
 * which throws away what the kernel still held for us. run() makes the
 * eventfd and then looks at cancelled, this sets cancelled and then looks
 * at the eventfd: one of the two sees the other. */
void
sl_stream_reader_cancel (SlStreamReader *r)
{
  g_atomic_int_set (&r->cancelled, 1);
  sl_window_cancel (r->window);
  gint wake = g_atomic_int_get (&r->wake);
  guint64 one = 1;
  if (wake < 0 || write (wake, &one, sizeof one) != sizeof one)
    shutdown (r->fd, SHUT_RDWR);
}

static void
flush_batch (SlStreamReader *r)
{
  if (!r->batch)
    return;
  if (r->batch->limited)
    {
      sl_source_count (r->src, "rate_limited", r->batch->limited);
      r->batch->limited = 0;
    }
  if (!r->batch->n)
    return;
  sl_message_bind_window_many (r->batch->msgs, r->batch->n, r->window);
  sl_source_post (r->src, r->batch->msgs, r->batch->n);
  r->batch->n = 0;
}

static void
emit (SlStreamReader *r, const gchar *data, gsize len)
{
  /* an octet-counted frame often ends in the newline a sender adds anyway;
   * a line's CR goes with its newline, a frame's is kept, as syslog-ng does */
  gboolean newline = r->framing == SL_STREAM_FRAME_NEWLINE;
  while (len && (data[len - 1] == '\n' || (newline && data[len - 1] == '\r') || data[len - 1] == '\0'))
    len--;
  if (!len)
    return;
  r->framed = TRUE;
  SlMessage *msg;
  if (r->tls && r->peer)
    {
      /* one copy of the certificate's fields per connection, behind each
       * frame as its peer is, instead of an allocation per field and message */
      if (!r->extra)
        {
          r->extra = g_string_new (r->peer);
          g_string_append_c (r->extra, '\0');
          sl_tls_append_fields (r->tls, r->extra);
        }
      const gchar *copy;
      msg = sl_source_parse_extra (r->src, data, len, r->extra->str, r->extra->len - 1, &copy);
      sl_tls_set_field_slices (msg, copy + strlen (copy) + 1);
    }
  else
    {
      msg = sl_source_parse (r->src, data, len, r->peer);
      if (r->tls)
        sl_tls_set_fields (r->tls, msg);
    }
  if (r->proxy)
    sl_proxy_header_set_fields (r->proxy, msg);
  if (r->limit && !sl_rate_limit_admit (r->limit, sl_source_id (r->src), FALSE, 0, SL_PRI_SEVERITY (msg->pri),
                                        g_get_real_time () / G_USEC_PER_SEC))
    {
      sl_message_unref (msg);
      r->batch->limited++;
      return;
    }
  r->batch->msgs[r->batch->n++] = msg;
  if (r->batch->n == POST_BATCH)
    flush_batch (r);
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
  gsize line = nl ? (gsize) (nl - p) : avail;
  SlTrimLargeMessages trim = line > max ? sl_source_trim_large_messages (r->src) : SL_TRIM_DROP_REST;
  if (trim == SL_TRIM_SPLIT)
    {
      sl_source_count_truncated (r->src);
      emit (r, p, max);
      r->start += max;
      return TRUE;
    }
  if (trim == SL_TRIM_SPLIT_LOSING_ONE)
    {
      /* one byte over: the source cuts and counts it */
      emit (r, p, max + 1);
      r->start += max + 1;
      return TRUE;
    }
  if (nl)
    {
      emit (r, p, nl - p);
      r->start += (nl - p) + 1;
      return TRUE;
    }
  if (avail > max)
    {
      /* trim-large-messages(yes): keep the head (counted as truncated by
       * the source), and drop the rest of the line as it arrives */
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
  /* many senders end a frame with a newline too */
  gsize gap = 0;
  while (gap < avail && (p[gap] == '\n' || p[gap] == '\r'))
    gap++;
  if (gap)
    {
      r->start += gap;
      return gap < avail;
    }
  gsize i = 0;
  guint64 len = 0;
  while (i < avail && i < 10 && g_ascii_isdigit (p[i]))
    len = len * 10 + (p[i++] - '0');
  if (i == avail && !at_eof && i < 10)
    return FALSE;
  if (i == 0 || i >= avail || p[i] != ' ' || p[0] == '0')
    {
      /* not a frame header: syslog-ng closes the connection here; the rest
       * is read by newline instead, so a sender that frames by newline
       * loses nothing (doc/compatibility.md) */
      sl_log (SL_LOG_WARNING, _("%s: a frame without an octet count from %s; reading the rest of the connection by newline"),
              sl_source_id (r->src), r->peer ? r->peer : _("a local peer"));
      sl_source_count (r->src, "framing_errors", 1);
      r->framing = SL_STREAM_FRAME_NEWLINE;
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
      gboolean more = r->framing == SL_STREAM_FRAME_NEWLINE ? frame_newline (r, at_eof)
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

typedef struct
{
  gsize size;
  gchar data[];
} Scratch;

static GPrivate scratch_key = G_PRIVATE_INIT (g_free);

static gchar *
thread_scratch (gsize size)
{
  Scratch *s = g_private_get (&scratch_key);
  if (!s || s->size < size)
    {
      s = g_malloc (sizeof (Scratch) + size);
      s->size = size;
      g_private_replace (&scratch_key, s);
    }
  return s->data;
}

/* After framing: a reader that read into the thread's scratch buffer
 * copies the start of a frame it has not seen the end of into a buffer
 * of its own. */
static void
keep_rest (SlStreamReader *r, gboolean borrowed)
{
  if (borrowed && r->start == r->end)
    r->buf = NULL;
  else if (borrowed)
    {
      gchar *own = g_malloc (r->size);
      memcpy (own, r->buf + r->start, r->end - r->start);
      r->end -= r->start;
      r->start = 0;
      r->buf = own;
    }
}

/* After keep_rest(): the unfinished frame it keeps is counted in the
 * process's partial budget; one that does not fit is dropped, and the
 * connection is to be closed, as the peer holds more than its share. */
static void
account_partial (SlStreamReader *r)
{
  gsize now = r->buf ? r->end - r->start : 0;
  if (sl_partial_budget_move (r->held, now))
    {
      r->held = now;
      return;
    }
  g_clear_pointer (&r->buf, g_free);
  r->start = r->end = 0;
  sl_partial_budget_move (r->held, 0);
  r->held = 0;
  r->over_budget = TRUE;
  static gint64 closed;
  gint64 total = __atomic_add_fetch (&closed, 1, __ATOMIC_RELAXED);
  sl_source_count (r->src, "partial_limit_closed", 1);
  if ((total - 1) % LOG_EVERY == 0)
    sl_log (SL_LOG_WARNING, _("the process holds %d MiB of unfinished messages, closing a connection that adds to "
                              "them; client='%s', driver='%s', closed='%" G_GINT64_FORMAT "'"),
            SL_PARTIAL_BUDGET / (1024 * 1024), r->peer ? r->peer : "local", sl_source_id (r->src), total);
}

/* read()'s answers for a TLS session: a session that ended with bytes
 * still to give gives them first, and its end on the next call. */
static gssize
tls_read (SlStreamReader *r, gchar *buf, gsize len)
{
  SlTlsStatus status;
  gsize n = sl_tls_read (r->tls, buf, len, &status);
  if (n > 0)
    return n;
  switch (status)
    {
    case SL_TLS_CLOSED:
      return 0;
    case SL_TLS_FAILED:
      errno = EPROTO;
      return -1;
    default:
      errno = EAGAIN;
      return -1;
    }
}

/* One read() and the framing of what it brought: the bytes read, 0 when
 * there was nothing to read, or -1 at the end of the stream or on an
 * error. A quiet reader holds no buffer between frames: it reads into
 * its thread's scratch buffer, and messages copy their frames, so
 * thousands of quiet connections on a worker take no 64 KiB each. */
static gssize
read_once (SlStreamReader *r)
{
  r->batch = &thread_batch;
  gboolean borrowed = r->buf == NULL;
  gchar *buf = borrowed ? thread_scratch (r->size) : r->buf;
  gssize n = r->tls ? tls_read (r, buf + r->end, r->size - r->end) : read (r->fd, buf + r->end, r->size - r->end);
  if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
    return 0;
  if (n < 0)
    {
      sl_source_count (r->src, "read_errors", 1);
      sl_log (SL_LOG_NOTICE, _("read error on %s from %s: %s"), sl_source_id (r->src),
              r->peer ? r->peer : "local", r->tls ? sl_tls_failure (r->tls) : g_strerror (errno));
      return -1;
    }
  if (n == 0)
    {
      frame_all (r, TRUE);
      return -1;
    }
  gint64 now = g_get_monotonic_time ();
  __atomic_store_n (&r->last_read, now, __ATOMIC_RELAXED);
  sl_source_mark_read_time ();
  r->buf = buf;
  r->end += n;
  r->framed = FALSE;
  if (r->awaiting_proxy && !take_proxy_header (r))
    return -1;
  if (!r->awaiting_proxy)
    frame_all (r, FALSE);
  if (r->framed)
    __atomic_store_n (&r->last_frame, now, __ATOMIC_RELAXED);
  keep_rest (r, borrowed);
  account_partial (r);
  flush_batch (r);
  return r->over_budget ? -1 : n;
}

SlStreamStatus
sl_stream_reader_pump (SlStreamReader *r, guint reads)
{
  for (guint i = 0; i < reads; i++)
    {
      if (sl_window_arm (r->window))
        return SL_STREAM_FULL;
      gssize n = read_once (r);
      if (n < 0)
        {
          flush_batch (r);
          return SL_STREAM_END;
        }
      if (n == 0)
        {
          /* quiet now: a buffer of its own would only take memory; one
           * that floods keeps it instead of allocating it again and again */
          if (r->buf && r->start == r->end)
            g_clear_pointer (&r->buf, g_free);
          return SL_STREAM_AGAIN;
        }
    }
  return SL_STREAM_MORE;
}

/* What the kernel already holds was acknowledged to the peer, so it is
 * read and posted without waiting for window room, up to one receive
 * buffer (the most the kernel can have held). A frame the peer had not
 * finished is dropped, as the peer was cut off in it: a sender that keeps
 * what was not acknowledged sends it whole again. */
void
sl_stream_reader_drain (SlStreamReader *r)
{
  gint rcvbuf = 0;
  socklen_t len = sizeof rcvbuf;
  gsize budget = getsockopt (r->fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, &len) == 0 && rcvbuf > 0
                 ? (gsize) rcvbuf : READ_CHUNK;
  struct pollfd pfd = { r->fd, POLLIN, 0 };
  for (gsize taken = 0; taken < budget;)
    {
      gboolean pending = r->tls && sl_tls_pending (r->tls);
      if (!pending && (poll (&pfd, 1, 0) <= 0 || !(pfd.revents & (POLLIN | POLLHUP | POLLERR))))
        break;
      gssize n = read_once (r);
      if (n <= 0)
        break;
      taken += n;
    }
  flush_batch (r);
}

/* The window is waited for before poll, and only this thread fills it:
 * pump() finds room and makes its one read, which poll said will not
 * block. */
void
sl_stream_reader_run (SlStreamReader *r)
{
  g_atomic_int_set (&r->wake, eventfd (0, EFD_CLOEXEC | EFD_NONBLOCK));
  struct pollfd fds[2] = { { r->fd, POLLIN, 0 }, { r->wake, POLLIN, 0 } };
  for (;;)
    {
      if (g_atomic_int_get (&r->cancelled))
        {
          sl_stream_reader_drain (r);
          break;
        }
      if (!sl_window_wait (r->window))
        continue;
      if (r->wake >= 0 && poll (fds, 2, -1) < 0 && errno != EINTR)
        break;
      if (r->wake >= 0 && !fds[0].revents)
        continue;
      if (sl_stream_reader_pump (r, 1) == SL_STREAM_END)
        break;
    }
  flush_batch (r);
}
