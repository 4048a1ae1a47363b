/* SPDX-License-Identifier: GPL-2.0-or-later */
/* nghttp2 frames HTTP/2 in memory (nghttp2_session_mem_recv/_mem_send);
 * this unit moves the bytes over a non-blocking socket, plain or through
 * the core's TLS, and waits with poll(). Request bodies are sent one
 * after the other (a later call's data is deferred until the one before
 * it is out), so a server that handles requests as they complete, as
 * ours and grpc-js do, takes the records in the order they were sent. */
#include "otel-grpc-client.h"
#include "core/io/net-connect.h"
#include "core/route/destination.h"
#include "core/i18n.h"

#include <errno.h>
#include <fcntl.h>
#include <nghttp2/nghttp2.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* what one read() or one write() moves at most */
#define IO_CHUNK (256 * 1024)
/* how often a wait looks whether the destination is stopping */
#define STOP_POLL_MS 200
/* how long a stopping destination waits for answers */
#define STOP_GRACE_US (2 * G_USEC_PER_SEC)
/* the answers are small; a large window spares WINDOW_UPDATE frames */
#define RECV_WINDOW (1024 * 1024)
/* a response larger than this is not kept past it */
#define RESPONSE_MAX (1024 * 1024)

struct _OtelGrpcClient
{
  gint fd;
  SlTls *tls;
  nghttp2_session *session;
  gchar *authority;
  const gchar *scheme;
  const gchar *path;
  const gchar *const *headers;
  GQueue sending;            /* calls whose body is not all out, oldest first */
  guint closed;              /* calls closed so far */
  GByteArray *out;           /* frames nghttp2 made that the socket did not take yet */
  gsize out_at;
  gchar *in;
  gchar failure[160];
  gint64 stop_deadline;
};

OtelGrpcCall *
otel_grpc_call_new (void)
{
  OtelGrpcCall *call = g_new0 (OtelGrpcCall, 1);
  call->body = g_byte_array_new ();
  call->response = g_byte_array_new ();
  call->grpc_status = -1;
  return call;
}

void
otel_grpc_call_reset (OtelGrpcCall *call)
{
  call->sent = 0;
  call->stream_id = 0;
  call->closed = FALSE;
  call->http_status = 0;
  call->grpc_status = -1;
  g_clear_pointer (&call->grpc_message, g_free);
  g_byte_array_set_size (call->response, 0);
}

void
otel_grpc_call_free (OtelGrpcCall *call)
{
  g_byte_array_unref (call->body);
  g_byte_array_unref (call->response);
  g_free (call->grpc_message);
  g_free (call);
}

static void
fail (OtelGrpcClient *c, const gchar *why)
{
  if (!c->failure[0])
    g_strlcpy (c->failure, why, sizeof c->failure);
}

static gint
header_cb (nghttp2_session *session, const nghttp2_frame *frame, const uint8_t *name, size_t namelen,
           const uint8_t *value, size_t valuelen, uint8_t flags, void *user_data)
{
  OtelGrpcCall *call = nghttp2_session_get_stream_user_data (session, frame->hd.stream_id);
  if (!call || frame->hd.type != NGHTTP2_HEADERS)
    return 0;
  g_autofree gchar *v = g_strndup ((const gchar *) value, valuelen);
  if (namelen == 7 && memcmp (name, ":status", 7) == 0)
    call->http_status = (gint) g_ascii_strtoll (v, NULL, 10);
  else if (namelen == 11 && memcmp (name, "grpc-status", 11) == 0)
    call->grpc_status = (gint) g_ascii_strtoll (v, NULL, 10);
  else if (namelen == 12 && memcmp (name, "grpc-message", 12) == 0)
    {
      g_free (call->grpc_message);
      call->grpc_message = g_uri_unescape_string (v, NULL);
      if (!call->grpc_message)
        call->grpc_message = g_steal_pointer (&v);
    }
  return 0;
}

static gint
data_chunk_cb (nghttp2_session *session, uint8_t flags, int32_t stream_id, const uint8_t *data, size_t len,
               void *user_data)
{
  OtelGrpcCall *call = nghttp2_session_get_stream_user_data (session, stream_id);
  if (call && call->response->len + len <= RESPONSE_MAX)
    g_byte_array_append (call->response, data, (guint) len);
  return 0;
}

static gint
stream_close_cb (nghttp2_session *session, int32_t stream_id, uint32_t error_code, void *user_data)
{
  OtelGrpcClient *c = user_data;
  OtelGrpcCall *call = nghttp2_session_get_stream_user_data (session, stream_id);
  if (!call)
    return 0;
  call->closed = TRUE;
  c->closed++;
  /* a call the server reset before its body was out does not hold back the next */
  if (g_queue_remove (&c->sending, call) && c->sending.head)
    nghttp2_session_resume_data (session, ((OtelGrpcCall *) c->sending.head->data)->stream_id);
  nghttp2_session_set_stream_user_data (session, stream_id, NULL);
  return 0;
}

static ssize_t
read_body_cb (nghttp2_session *session, int32_t stream_id, uint8_t *buf, size_t length, uint32_t *data_flags,
              nghttp2_data_source *source, void *user_data)
{
  OtelGrpcClient *c = user_data;
  OtelGrpcCall *call = source->ptr;
  if (!c->sending.head || c->sending.head->data != call)
    return NGHTTP2_ERR_DEFERRED;
  gsize n = MIN (length, call->body->len - call->sent);
  memcpy (buf, call->body->data + call->sent, n);
  call->sent += n;
  if (call->sent == call->body->len)
    {
      *data_flags |= NGHTTP2_DATA_FLAG_EOF;
      g_queue_pop_head (&c->sending);
      if (c->sending.head)
        nghttp2_session_resume_data (session, ((OtelGrpcCall *) c->sending.head->data)->stream_id);
    }
  return (ssize_t) n;
}

static gboolean
session_new (OtelGrpcClient *c)
{
  nghttp2_session_callbacks *cbs;
  if (nghttp2_session_callbacks_new (&cbs) != 0)
    return FALSE;
  nghttp2_session_callbacks_set_on_header_callback (cbs, header_cb);
  nghttp2_session_callbacks_set_on_data_chunk_recv_callback (cbs, data_chunk_cb);
  nghttp2_session_callbacks_set_on_stream_close_callback (cbs, stream_close_cb);
  gint rc = nghttp2_session_client_new (&c->session, cbs, c);
  nghttp2_session_callbacks_del (cbs);
  if (rc != 0)
    return FALSE;
  const nghttp2_settings_entry settings[] = {
    { NGHTTP2_SETTINGS_ENABLE_PUSH, 0 },
    { NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, RECV_WINDOW },
  };
  return nghttp2_submit_settings (c->session, NGHTTP2_FLAG_NONE, settings, G_N_ELEMENTS (settings)) == 0
         && nghttp2_session_set_local_window_size (c->session, NGHTTP2_FLAG_NONE, 0, RECV_WINDOW) == 0;
}

/* Waits for events on the socket until deadline, in slices that notice a
 * stop; a stopping destination waits STOP_GRACE_US at most. */
static OtelGrpcIo
await (OtelGrpcClient *c, short events, gint64 deadline)
{
  gint64 now = g_get_monotonic_time ();
  if (sl_destination_stopping ())
    {
      if (!c->stop_deadline)
        c->stop_deadline = now + STOP_GRACE_US;
      if (now >= c->stop_deadline)
        return OTEL_GRPC_STOPPED;
      deadline = MIN (deadline, c->stop_deadline);
    }
  if (now >= deadline)
    return OTEL_GRPC_TIMEOUT;
  struct pollfd p = { .fd = c->fd, .events = events };
  gint ms = (gint) MIN ((deadline - now + 999) / 1000, STOP_POLL_MS);
  if (poll (&p, 1, ms) < 0 && errno != EINTR)
    {
      fail (c, g_strerror (errno));
      return OTEL_GRPC_BROKEN;
    }
  return OTEL_GRPC_OK;
}

static OtelGrpcIo
tls_status (OtelGrpcClient *c, SlTlsStatus status)
{
  if (status == SL_TLS_CLOSED)
    fail (c, _("closed by the receiver"));
  else
    fail (c, sl_tls_failure (c->tls) ? sl_tls_failure (c->tls) : _("TLS failed"));
  return OTEL_GRPC_BROKEN;
}

/* Bytes that came, into nghttp2; OK once the socket has no more. */
static OtelGrpcIo
read_some (OtelGrpcClient *c)
{
  for (;;)
    {
      gssize n;
      if (c->tls)
        {
          SlTlsStatus status;
          n = (gssize) sl_tls_read (c->tls, c->in, IO_CHUNK, &status);
          if (!n && (status == SL_TLS_WANT_READ || status == SL_TLS_WANT_WRITE))
            return OTEL_GRPC_OK;
          if (!n)
            return tls_status (c, status);
        }
      else
        {
          n = read (c->fd, c->in, IO_CHUNK);
          if (n < 0 && errno == EINTR)
            continue;
          if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return OTEL_GRPC_OK;
          if (n <= 0)
            {
              fail (c, n == 0 ? _("closed by the receiver") : g_strerror (errno));
              return OTEL_GRPC_BROKEN;
            }
        }
      if (nghttp2_session_mem_recv (c->session, (const uint8_t *) c->in, (size_t) n) < 0)
        {
          fail (c, _("the receiver broke HTTP/2"));
          return OTEL_GRPC_BROKEN;
        }
    }
}

/* Frames nghttp2 has, out to the socket until it takes no more. */
static OtelGrpcIo
write_some (OtelGrpcClient *c)
{
  for (;;)
    {
      while (c->out->len - c->out_at < IO_CHUNK)
        {
          const uint8_t *data;
          ssize_t len = nghttp2_session_mem_send (c->session, &data);
          if (len < 0)
            {
              fail (c, nghttp2_strerror ((gint) len));
              return OTEL_GRPC_BROKEN;
            }
          if (len == 0)
            break;
          g_byte_array_append (c->out, data, (guint) len);
        }
      if (c->out_at == c->out->len)
        {
          g_byte_array_set_size (c->out, 0);
          c->out_at = 0;
          return OTEL_GRPC_OK;
        }
      const gchar *buf = (const gchar *) c->out->data + c->out_at;
      gsize len = c->out->len - c->out_at;
      gssize n;
      if (c->tls)
        {
          SlTlsStatus status;
          n = (gssize) sl_tls_write (c->tls, buf, len, &status);
          if (!n && (status == SL_TLS_WANT_READ || status == SL_TLS_WANT_WRITE))
            return OTEL_GRPC_OK;
          if (!n)
            return tls_status (c, status);
        }
      else
        {
          n = send (c->fd, buf, len, MSG_NOSIGNAL);
          if (n < 0 && errno == EINTR)
            continue;
          if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return OTEL_GRPC_OK;
          if (n < 0)
            {
              fail (c, errno == EPIPE || errno == ECONNRESET ? _("closed by the receiver") : g_strerror (errno));
              return OTEL_GRPC_BROKEN;
            }
        }
      c->out_at += (gsize) n;
    }
}

static gboolean
want_write (OtelGrpcClient *c)
{
  return c->out_at < c->out->len || nghttp2_session_want_write (c->session);
}

OtelGrpcIo
otel_grpc_client_pump (OtelGrpcClient *c, gboolean wait, gint64 deadline)
{
  guint closed = c->closed;
  for (;;)
    {
      OtelGrpcIo io = read_some (c);
      if (io == OTEL_GRPC_OK)
        io = write_some (c);
      if (io != OTEL_GRPC_OK)
        return io;
      if (!nghttp2_session_want_read (c->session) && !want_write (c))
        {
          fail (c, _("the receiver ended the HTTP/2 session"));
          return OTEL_GRPC_BROKEN;
        }
      if (!wait || c->closed != closed)
        return OTEL_GRPC_OK;
      if (c->tls && sl_tls_pending (c->tls))
        continue;
      io = await (c, (short) (POLLIN | (want_write (c) ? POLLOUT : 0)), deadline);
      if (io != OTEL_GRPC_OK)
        return io;
    }
}

static gboolean
handshake (OtelGrpcClient *c, gint64 deadline)
{
  for (;;)
    {
      SlTlsStatus status = sl_tls_handshake (c->tls);
      if (status == SL_TLS_DONE)
        return TRUE;
      if (status != SL_TLS_WANT_READ && status != SL_TLS_WANT_WRITE)
        {
          tls_status (c, status);
          return FALSE;
        }
      OtelGrpcIo io = await (c, status == SL_TLS_WANT_READ ? POLLIN : POLLOUT, deadline);
      if (io != OTEL_GRPC_OK)
        {
          fail (c, io == OTEL_GRPC_TIMEOUT ? _("the TLS handshake timed out") : _("stopping"));
          return FALSE;
        }
    }
}

OtelGrpcClient *
otel_grpc_client_connect (const gchar *host, const gchar *port, SlTlsContext *tls, const gchar *path,
                          const gchar *const *headers, gint timeout_ms, GError **error)
{
  gint fd = sl_net_connect (host, port, timeout_ms, FALSE, error);
  if (fd < 0)
    return NULL;
  OtelGrpcClient *c = g_new0 (OtelGrpcClient, 1);
  c->fd = fd;
  c->path = path;
  c->headers = headers;
  c->scheme = tls ? "https" : "http";
  c->authority = strchr (host, ':') ? g_strdup_printf ("[%s]:%s", host, port) : g_strdup_printf ("%s:%s", host, port);
  c->out = g_byte_array_sized_new (IO_CHUNK);
  c->in = g_malloc (IO_CHUNK);
  g_queue_init (&c->sending);
  gint flags = fcntl (fd, F_GETFL);
  fcntl (fd, F_SETFL, flags | O_NONBLOCK);
  /* a request's headers and its first data go as separate frames: Nagle
   * would hold the later ones for the server's delayed acknowledgement */
  gint one = 1;
  setsockopt (fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;
  if (tls)
    {
      c->tls = sl_tls_new (tls, fd, host);
      if (!handshake (c, deadline))
        goto failed;
    }
  if (!session_new (c))
    {
      fail (c, _("nghttp2 could not make a session"));
      goto failed;
    }
  if (write_some (c) != OTEL_GRPC_OK)
    goto failed;
  return c;

failed:
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, _("%s port %s: %s"), host, port, c->failure);
  otel_grpc_client_free (c);
  return NULL;
}

void
otel_grpc_client_free (OtelGrpcClient *c)
{
  if (c->session)
    nghttp2_session_del (c->session);
  if (c->tls)
    {
      sl_tls_close_notify (c->tls);
      sl_tls_free (c->tls);
    }
  close (c->fd);
  g_queue_clear (&c->sending);
  g_byte_array_unref (c->out);
  g_free (c->in);
  g_free (c->authority);
  g_free (c);
}

guint
otel_grpc_client_room (OtelGrpcClient *c, guint cap)
{
  guint32 max = nghttp2_session_get_remote_settings (c->session, NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS);
  return MAX (MIN (max, cap), 1);
}

#define NV(n, v) { (uint8_t *) (n), (uint8_t *) (v), strlen (n), strlen (v), NGHTTP2_NV_FLAG_NONE }

gboolean
otel_grpc_client_submit (OtelGrpcClient *c, OtelGrpcCall *call)
{
  GArray *nv = g_array_sized_new (FALSE, FALSE, sizeof (nghttp2_nv), 16);
  const nghttp2_nv fixed[] = {
    NV (":method", "POST"),
    NV (":scheme", c->scheme),
    NV (":path", c->path),
    NV (":authority", c->authority),
  };
  g_array_append_vals (nv, fixed, G_N_ELEMENTS (fixed));
  for (guint i = 0; c->headers[i]; i += 2)
    {
      nghttp2_nv h = NV (c->headers[i], c->headers[i + 1]);
      g_array_append_val (nv, h);
    }
  otel_grpc_call_reset (call);
  nghttp2_data_provider provider = { .source.ptr = call, .read_callback = read_body_cb };
  gint32 id = nghttp2_submit_request (c->session, NULL, (const nghttp2_nv *) nv->data, nv->len, &provider, call);
  g_array_free (nv, TRUE);
  if (id < 0)
    {
      fail (c, nghttp2_strerror (id));
      return FALSE;
    }
  call->stream_id = id;
  call->since = g_get_monotonic_time ();
  g_queue_push_tail (&c->sending, call);
  return TRUE;
}

const gchar *
otel_grpc_client_failure (OtelGrpcClient *c)
{
  return c->failure[0] ? c->failure : _("failed");
}
