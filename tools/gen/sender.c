/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A connection's frames are prepared once in a buffer; for each batch its
 * thread writes the sequence numbers (and, as the clock moves, the
 * timestamps) in place and sends the batch with one write, or a few
 * sendmmsg calls for UDP. A rate is kept by sleeping after a batch until
 * the batch is due. With TLS a connection's handshake is made when it
 * connects, on a blocking socket, and batches go through SSL_write. */
#include "tools/gen/sender.h"
#include "tools/gen/relp-client.h"
#include "core/i18n.h"

#include <errno.h>
#include <netdb.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <openssl/err.h>
#include <openssl/ssl.h>

/* frames prepared per connection, and the most one stream write sends */
#define BUFFER_BYTES (256 * 1024)
/* datagrams per sendmmsg: the kernel takes at most UIO_MAXIOV */
#define UDP_BATCH 1024
/* a paced connection sends about this many batches a second */
#define PACED_BATCHES_PER_SEC 100
/* a receiver that takes nothing for this long has stopped reading */
#define SEND_TIMEOUT_SEC 60
/* pauses between reconnection attempts: doubling from the first to the last */
#define RECONNECT_FIRST_PAUSE_US (10 * 1000)
#define RECONNECT_MAX_PAUSE_US (500 * 1000)
/* connections that each send a fixed count without pacing take turns on
 * at most this many threads: a thread for each of thousands of short
 * connections cost the generator more than the daemon spent on their
 * messages */
#define SHARED_THREADS_MAX 32

typedef enum
{
  SEND_OK,
  SEND_BROKEN,              /* the peer closed or reset the connection */
  SEND_FAILED,
} SendResult;

typedef struct
{
  SlGenSender *owner;
  guint id;
  gint fd;
  SSL *ssl;                 /* with plan.tls */
  gchar *frames;            /* this connection's prepared frames, or NULL when replaying */
  SlGenLayout layout;
  gsize *offsets;           /* frame i is frames[offsets[i] .. offsets[i + 1]) */
  guint nframes;
  struct mmsghdr *msgs;
  struct iovec *iovs;
  gint64 first_usec;        /* monotonic */
  gint64 last_usec;
  gchar *error;
  guint last_write_frames;  /* frames the last successful write() completed */
  SlGenRelp relp;           /* with plan.relp */
  SlGenConnBreaks breaks;
} Connection;

struct _SlGenSender
{
  SlGenPlan plan;
  SSL_CTX *tls;             /* with plan.tls */
  GString *replay;          /* every replayed line framed, shared by the connections */
  gsize *replay_offsets;
  guint replay_lines;
  Connection *conns;
  GThread **threads;
  guint nthreads;           /* thread i sends on connections i, i + nthreads, ... in turn */
  gint running;
  guint64 messages;
  guint64 bytes;
};

static GQuark
sender_error_quark (void)
{
  return g_quark_from_static_string ("sluice-gen-sender");
}

static gint
connect_unix (const gchar *path, GError **error)
{
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  if (strlen (path) >= sizeof addr.sun_path)
    {
      g_set_error (error, sender_error_quark (), 0, _("socket path too long: %s"), path);
      return -1;
    }
  strcpy (addr.sun_path, path);
  gint fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd >= 0 && connect (fd, (struct sockaddr *) &addr, sizeof addr) == 0)
    return fd;
  g_set_error (error, sender_error_quark (), 0, _("cannot connect to %s: %s"), path, g_strerror (errno));
  if (fd >= 0)
    close (fd);
  return -1;
}

static gint
connect_inet (const gchar *host, const gchar *port, gint type, GError **error)
{
  struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = type };
  struct addrinfo *res = NULL;
  gint rc = getaddrinfo (host, port, &hints, &res);
  if (rc != 0)
    {
      g_set_error (error, sender_error_quark (), 0, _("cannot resolve %s port %s: %s"), host, port,
                   gai_strerror (rc));
      return -1;
    }
  gint fd = -1;
  gint saved = 0;
  for (struct addrinfo *ai = res; ai && fd < 0; ai = ai->ai_next)
    {
      fd = socket (ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
      if (fd >= 0 && connect (fd, ai->ai_addr, ai->ai_addrlen) < 0)
        {
          saved = errno;
          close (fd);
          fd = -1;
        }
      else if (fd < 0)
        saved = errno;
    }
  freeaddrinfo (res);
  if (fd < 0)
    g_set_error (error, sender_error_quark (), 0, _("cannot connect to %s port %s: %s"), host, port,
                 g_strerror (saved));
  return fd;
}

static SSL_CTX *
tls_context (const SlGenPlan *plan, GError **error)
{
  SSL_CTX *ctx = SSL_CTX_new (TLS_client_method ());
  const gchar *what = NULL;
  if (!ctx)
    what = "TLS";
  else if (plan->tls_ca && SSL_CTX_load_verify_locations (ctx, plan->tls_ca, NULL) != 1)
    what = plan->tls_ca;
  else if (plan->tls_cert && SSL_CTX_use_certificate_chain_file (ctx, plan->tls_cert) != 1)
    what = plan->tls_cert;
  else if (plan->tls_key && SSL_CTX_use_PrivateKey_file (ctx, plan->tls_key, SSL_FILETYPE_PEM) != 1)
    what = plan->tls_key;
  if (!what)
    {
      SSL_CTX_set_verify (ctx, plan->tls_ca ? SSL_VERIFY_PEER : SSL_VERIFY_NONE, NULL);
      return ctx;
    }
  g_set_error (error, sender_error_quark (), 0, _("%s: %s"), what, ERR_reason_error_string (ERR_peek_last_error ()));
  if (ctx)
    SSL_CTX_free (ctx);
  return NULL;
}

static SSL *
tls_connect (SSL_CTX *ctx, gint fd, GError **error)
{
  SSL *ssl = SSL_new (ctx);
  SSL_set_fd (ssl, fd);
  ERR_clear_error ();
  if (SSL_connect (ssl) == 1)
    return ssl;
  unsigned long e = ERR_peek_last_error ();
  g_set_error (error, sender_error_quark (), 0, _("TLS handshake: %s"),
               e ? ERR_reason_error_string (e) : g_strerror (errno));
  SSL_free (ssl);
  return NULL;
}

static void
connection_close (Connection *c)
{
  if (c->ssl)
    SSL_free (c->ssl);
  c->ssl = NULL;
  if (c->fd >= 0)
    close (c->fd);
  c->fd = -1;
}

static gint
connect_plan (const SlGenPlan *plan, GError **error)
{
  gint fd;
  if (plan->transport == SL_GEN_UNIX_STREAM)
    fd = connect_unix (plan->target, error);
  else
    fd = connect_inet (plan->target, plan->port, plan->transport == SL_GEN_UDP ? SOCK_DGRAM : SOCK_STREAM,
                       error);
  if (fd >= 0 && plan->transport != SL_GEN_UDP)
    {
      struct timeval timeout = { .tv_sec = SEND_TIMEOUT_SEC };
      setsockopt (fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
      /* RELP waits for answers: a receiver that gives none has stopped too */
      if (plan->relp)
        setsockopt (fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    }
  return fd;
}

static gssize stream_write (Connection *c, const gchar *data, gsize len);

static gssize
relp_write (gpointer conn, gchar *buf, gsize len)
{
  return stream_write (conn, buf, len);
}

/* read() or SSL_read(): -1 and errno on failure, 0 at the end. */
static gssize
relp_read (gpointer conn, gchar *buf, gsize len)
{
  Connection *c = conn;
  if (!c->ssl)
    return read (c->fd, buf, len);
  size_t n = 0;
  ERR_clear_error ();
  errno = 0;
  if (SSL_read_ex (c->ssl, buf, len, &n) == 1)
    return (gssize) n;
  gint e = SSL_get_error (c->ssl, 0);
  if (e == SSL_ERROR_ZERO_RETURN)
    return 0;
  if (e != SSL_ERROR_SYSCALL || !errno)
    errno = ECONNRESET;
  return -1;
}

/* A connection made, with its handshake under TLS and its session opened
 * under RELP. */
static gboolean
connection_open (SlGenSender *s, Connection *c, GError **error)
{
  c->fd = connect_plan (&s->plan, error);
  if (c->fd < 0)
    return FALSE;
  if (s->tls && !(c->ssl = tls_connect (s->tls, c->fd, error)))
    {
      connection_close (c);
      return FALSE;
    }
  if (s->plan.relp && !sl_gen_relp_open (&c->relp, relp_read, relp_write, c, error))
    {
      connection_close (c);
      return FALSE;
    }
  return TRUE;
}

/* write() or SSL_write(): -1 and errno on failure. */
static gssize
stream_write (Connection *c, const gchar *data, gsize len)
{
  if (!c->ssl)
    return write (c->fd, data, len);
  size_t n = 0;
  ERR_clear_error ();
  errno = 0;
  if (SSL_write_ex (c->ssl, data, len, &n) == 1)
    return n;
  if (SSL_get_error (c->ssl, 0) != SSL_ERROR_SYSCALL || !errno)
    errno = EPIPE;
  return -1;
}

static gboolean
is_break (gint err)
{
  return err == EPIPE || err == ECONNRESET || err == ECONNABORTED || err == ENOTCONN || err == ETIMEDOUT;
}

static void
set_write_error (Connection *c, gint err)
{
  c->error = err == EAGAIN ? g_strdup_printf (_("connection %u: the receiver took nothing for %d seconds"), c->id,
                                              SEND_TIMEOUT_SEC)
                           : g_strdup_printf (_("connection %u: %s"), c->id, g_strerror (err));
}

/* Frames first .. first + count - 1 of base on a stream. *whole: how many
 * went out whole, also when the connection broke; *cut: whether the break
 * came in the middle of a frame. */
static SendResult
write_frames (Connection *c, const gchar *base, guint first, guint count, guint *whole, gboolean *cut)
{
  gsize off = c->offsets[first];
  gsize end = c->offsets[first + count];
  guint done = 0;
  while (off < end)
    {
      gssize n = stream_write (c, base + off, end - off);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          *whole = done;
          *cut = off > c->offsets[first + done];
          if (c->owner->plan.reconnect && is_break (errno))
            return SEND_BROKEN;
          set_write_error (c, errno);
          return SEND_FAILED;
        }
      off += (gsize) n;
      guint before = done;
      while (done < count && c->offsets[first + done + 1] <= off)
        done++;
      c->last_write_frames = done - before;
    }
  *whole = done;
  return SEND_OK;
}

/* Frames first .. first + count - 1 of base, one datagram each. */
static gboolean
send_datagrams (Connection *c, const gchar *base, guint first, guint count)
{
  guint done = 0;
  while (done < count)
    {
      guint n = MIN (count - done, UDP_BATCH);
      for (guint i = 0; i < n; i++)
        {
          guint frame = first + done + i;
          c->iovs[i].iov_base = (gchar *) base + c->offsets[frame];
          c->iovs[i].iov_len = c->offsets[frame + 1] - c->offsets[frame];
          memset (&c->msgs[i], 0, sizeof c->msgs[i]);
          c->msgs[i].msg_hdr.msg_iov = &c->iovs[i];
          c->msgs[i].msg_hdr.msg_iovlen = 1;
        }
      gint sent = sendmmsg (c->fd, c->msgs, n, 0);
      if (sent < 0)
        {
          /* an earlier datagram's refusal, or a full device queue: this
           * one was not sent, so it is sent again */
          if (errno == EINTR || errno == ECONNREFUSED)
            continue;
          if (errno == ENOBUFS || errno == EAGAIN)
            {
              g_usleep (100);
              continue;
            }
          c->error = g_strdup_printf (_("connection %u: %s"), c->id, g_strerror (errno));
          return FALSE;
        }
      done += (guint) sent;
    }
  return TRUE;
}

/* Over RELP what was not answered is sent again after a break, so a
 * break loses nothing: last_write_frames stays 0. */
static SendResult
send_relp (Connection *c, const gchar *base, guint first, guint count, guint *whole)
{
  if (sl_gen_relp_send (&c->relp, base, c->offsets, first, count, whole))
    return SEND_OK;
  if (c->owner->plan.reconnect && (is_break (errno) || errno == EPROTO || errno == EAGAIN))
    return SEND_BROKEN;
  set_write_error (c, errno);
  return SEND_FAILED;
}

static SendResult
send_frames (Connection *c, const gchar *base, guint first, guint count, guint *whole, gboolean *cut)
{
  *whole = 0;
  *cut = FALSE;
  if (c->owner->plan.relp)
    return send_relp (c, base, first, count, whole);
  if (c->owner->plan.transport != SL_GEN_UDP)
    return write_frames (c, base, first, count, whole, cut);
  if (!send_datagrams (c, base, first, count))
    return SEND_FAILED;
  *whole = count;
  return SEND_OK;
}

/* A peer that closed the connection (a daemon that stops) or reset it;
 * asked before each batch, because writing into a closed connection
 * succeeds until the peer's reset comes back. */
static gboolean
peer_gone (Connection *c)
{
  gchar byte;
  gssize n = recv (c->fd, &byte, 1, MSG_DONTWAIT);
  return n == 0 || (n < 0 && is_break (errno));
}

/* Counts what the break may have cost and connects again, pausing
 * between attempts; FALSE (and c->error) when the reconnect timeout ran
 * out. */
static gboolean
reconnect (Connection *c, gboolean cut)
{
  const SlGenPlan *plan = &c->owner->plan;
  c->breaks.possibly_lost += c->last_write_frames;
  c->breaks.possibly_duplicated += cut;
  c->last_write_frames = 0;
  connection_close (c);
  gint64 give_up = g_get_monotonic_time () + (gint64) plan->reconnect_timeout * G_USEC_PER_SEC;
  gulong pause = RECONNECT_FIRST_PAUSE_US;
  for (;;)
    {
      GError *error = NULL;
      if (connection_open (c->owner, c, &error))
        {
          c->breaks.reconnects++;
          return TRUE;
        }
      if (g_get_monotonic_time () + (gint64) pause > give_up)
        {
          c->error = g_strdup_printf (_("connection %u: no reconnection within %u seconds: %s"), c->id,
                                      plan->reconnect_timeout, error->message);
          g_error_free (error);
          return FALSE;
        }
      g_error_free (error);
      g_usleep (pause);
      pause = MIN (pause * 2, RECONNECT_MAX_PAUSE_US);
    }
}

/* How many frames from first on fill about one buffer. */
static guint
frames_for_buffer (const Connection *c, guint first)
{
  guint n = 1;
  while (first + n < c->nframes && c->offsets[first + n + 1] - c->offsets[first] <= BUFFER_BYTES)
    n++;
  return n;
}

/* Keeps the prepared frames' timestamps current: RFC 3164 stamps change
 * once a second, RFC 5424 ones (with microseconds) every batch. */
static void
refresh_stamp (Connection *c, guint count, gint64 *stamped_sec)
{
  const SlGenFormat *format = &c->owner->plan.format;
  gint64 now = g_get_real_time ();
  if (format->syntax == SL_GEN_RFC3164 && now / G_USEC_PER_SEC == *stamped_sec)
    return;
  *stamped_sec = now / G_USEC_PER_SEC;
  gchar *stamp = sl_gen_format_stamp (format->syntax, now);
  sl_gen_frames_set_stamp (c->frames, &c->layout, count, stamp);
  g_free (stamp);
}

static void
connection_send (Connection *c)
{
  SlGenSender *s = c->owner;
  const SlGenPlan *plan = &s->plan;
  const gchar *base = c->frames ? c->frames : s->replay->str;
  guint64 limit = plan->count ? plan->count : G_MAXUINT64;
  if (!c->frames && !plan->count && plan->seconds <= 0)
    limit = s->replay_lines;
  guint64 paced = plan->rate ? MAX (plan->rate / PACED_BATCHES_PER_SEC, 1) : G_MAXUINT64;
  guint64 sent = 0;
  guint pos = 0;
  gint64 stamped_sec = 0;

  c->first_usec = g_get_monotonic_time ();
  gint64 deadline = plan->seconds > 0 ? c->first_usec + (gint64) (plan->seconds * G_USEC_PER_SEC) : G_MAXINT64;
  while (sent < limit && g_get_monotonic_time () < deadline)
    {
      guint k = frames_for_buffer (c, pos);
      k = (guint) MIN ((guint64) k, MIN (limit - sent, paced));
      if (c->frames)
        {
          refresh_stamp (c, k, &stamped_sec);
          sl_gen_frames_set_seq (c->frames, &c->layout, k, sent + 1);
        }
      guint whole = 0;
      gboolean cut = FALSE;
      SendResult result = plan->reconnect && !plan->relp && peer_gone (c) ? SEND_BROKEN
                                                           : send_frames (c, base, pos, k, &whole, &cut);
      sent += whole;
      __atomic_add_fetch (&s->messages, whole, __ATOMIC_RELAXED);
      __atomic_add_fetch (&s->bytes, c->offsets[pos + whole] - c->offsets[pos], __ATOMIC_RELAXED);
      if (!c->frames)
        pos = (pos + whole) % c->nframes;
      if (result == SEND_FAILED || (result == SEND_BROKEN && !reconnect (c, cut)))
        break;
      if (plan->rate)
        {
          gint64 wake = MIN (c->first_usec + (gint64) (sent * G_USEC_PER_SEC / plan->rate), deadline);
          gint64 now = g_get_monotonic_time ();
          if (wake > now)
            g_usleep ((gulong) (wake - now));
        }
    }
  c->last_usec = g_get_monotonic_time ();
  if (c->ssl)
    SSL_shutdown (c->ssl);
  if (c->fd >= 0)
    shutdown (c->fd, SHUT_WR);
  g_atomic_int_add (&s->running, -1);
}

/* data: the thread's first connection */
static gpointer
sender_thread (gpointer data)
{
  Connection *first = data;
  SlGenSender *s = first->owner;
  for (guint i = (guint) (first - s->conns); i < s->plan.connections; i += s->nthreads)
    connection_send (&s->conns[i]);
  return NULL;
}

static void
prepare_frames (SlGenSender *s, Connection *c)
{
  if (s->replay)
    {
      c->offsets = s->replay_offsets;
      c->nframes = s->replay_lines;
    }
  else
    {
      SlGenLayout probe;
      g_free (sl_gen_frames_new (&s->plan.format, c->id, 1, g_get_real_time (), &probe));
      gsize frame_len = probe.frame_len;
      c->nframes = (guint) MAX (BUFFER_BYTES / frame_len, 1);
      /* thousands of short connections would otherwise each format a
       * buffer's worth of frames they never send */
      if (s->plan.count)
        c->nframes = (guint) MIN ((guint64) c->nframes, s->plan.count);
      c->frames = sl_gen_frames_new (&s->plan.format, c->id, c->nframes, g_get_real_time (), &c->layout);
      c->offsets = g_new (gsize, c->nframes + 1);
      for (guint i = 0; i <= c->nframes; i++)
        c->offsets[i] = (gsize) i * frame_len;
    }
  if (s->plan.transport == SL_GEN_UDP)
    {
      c->msgs = g_new (struct mmsghdr, UDP_BATCH);
      c->iovs = g_new (struct iovec, UDP_BATCH);
    }
}

static void
prepare_replay (SlGenSender *s)
{
  const GPtrArray *lines = s->plan.replay;
  s->replay = g_string_new (NULL);
  s->replay_lines = lines->len;
  s->replay_offsets = g_new (gsize, lines->len + 1);
  for (guint i = 0; i < lines->len; i++)
    {
      const gchar *line = g_ptr_array_index (lines, i);
      s->replay_offsets[i] = s->replay->len;
      sl_gen_frame_append (s->replay, s->plan.format.framing, line, strlen (line));
    }
  s->replay_offsets[lines->len] = s->replay->len;
}

static void
sender_free (SlGenSender *s)
{
  for (guint i = 0; i < s->plan.connections; i++)
    {
      Connection *c = &s->conns[i];
      connection_close (c);
      if (s->plan.relp)
        sl_gen_relp_clear (&c->relp);
      if (c->frames)
        g_free (c->offsets);
      g_free (c->frames);
      g_free (c->msgs);
      g_free (c->iovs);
      g_free (c->error);
    }
  if (s->replay)
    g_string_free (s->replay, TRUE);
  g_free (s->replay_offsets);
  g_free (s->conns);
  g_free (s->threads);
  if (s->tls)
    SSL_CTX_free (s->tls);
  g_free (s);
}

SlGenSender *
sl_gen_sender_start (const SlGenPlan *plan, GError **error)
{
  g_return_val_if_fail (plan->connections > 0, NULL);
  g_return_val_if_fail (!plan->replay || plan->replay->len > 0, NULL);
  SlGenSender *s = g_new0 (SlGenSender, 1);
  s->plan = *plan;
  /* a datagram has no connection to break */
  s->plan.reconnect = plan->reconnect && plan->transport != SL_GEN_UDP;
  s->conns = g_new0 (Connection, plan->connections);
  for (guint i = 0; i < plan->connections; i++)
    s->conns[i].fd = -1;
  if (plan->replay)
    prepare_replay (s);
  if (plan->tls && !(s->tls = tls_context (plan, error)))
    {
      sender_free (s);
      return NULL;
    }
  for (guint i = 0; i < plan->connections; i++)
    {
      Connection *c = &s->conns[i];
      c->owner = s;
      c->id = plan->first_conn + i;
      c->breaks.id = c->id;
      if (plan->relp)
        sl_gen_relp_init (&c->relp, plan->relp_window);
      if (!connection_open (s, c, error))
        {
          sender_free (s);
          return NULL;
        }
      prepare_frames (s, c);
    }
  s->running = (gint) plan->connections;
  s->nthreads = plan->count && !plan->rate ? MIN (plan->connections, SHARED_THREADS_MAX) : plan->connections;
  s->threads = g_new (GThread *, s->nthreads);
  for (guint i = 0; i < s->nthreads; i++)
    s->threads[i] = g_thread_new ("sluice-gen", sender_thread, &s->conns[i]);
  return s;
}

void
sl_gen_sender_progress (SlGenSender *s, guint64 *messages, guint64 *bytes)
{
  *messages = __atomic_load_n (&s->messages, __ATOMIC_RELAXED);
  *bytes = __atomic_load_n (&s->bytes, __ATOMIC_RELAXED);
}

gboolean
sl_gen_sender_done (SlGenSender *s)
{
  return g_atomic_int_get (&s->running) == 0;
}

gboolean
sl_gen_sender_finish (SlGenSender *s, guint64 *messages, guint64 *bytes, gdouble *seconds, GArray **breaks,
                      GError **error)
{
  if (breaks)
    *breaks = g_array_new (FALSE, FALSE, sizeof (SlGenConnBreaks));
  gint64 first = G_MAXINT64, last = 0;
  const gchar *failure = NULL;
  for (guint i = 0; i < s->nthreads; i++)
    g_thread_join (s->threads[i]);
  for (guint i = 0; i < s->plan.connections; i++)
    {
      Connection *c = &s->conns[i];
      first = MIN (first, c->first_usec);
      last = MAX (last, c->last_usec);
      if (c->error && !failure)
        failure = c->error;
      if (breaks)
        g_array_append_val (*breaks, c->breaks);
    }
  sl_gen_sender_progress (s, messages, bytes);
  *seconds = (gdouble) (last - first) / G_USEC_PER_SEC;
  if (failure)
    g_set_error_literal (error, sender_error_quark (), 0, failure);
  sender_free (s);
  return failure == NULL;
}
