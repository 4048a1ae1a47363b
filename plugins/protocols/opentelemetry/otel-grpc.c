/* SPDX-License-Identifier: GPL-2.0-or-later */
/* OTLP/gRPC: HTTP/2 in cleartext (h2c) framed by nghttp2, gRPC's
 * length-prefixed messages and grpc-status trailers on top. Only the
 * LogsService's unary Export is served, which needs none of a gRPC
 * library's machinery (streaming, name resolution, channels): nghttp2
 * keeps HTTP/2 itself (HPACK, flow control, settings, pings) right, and
 * Debian's grpc C core would bring C++ and a completion-queue loop for one
 * method. Each connection is an SlSession of the kit's listener, on a
 * thread of its own, so that a request waiting for room in its
 * connection's window holds that client only. */
#include "otel-grpc.h"
#include "otel-export.h"
#include "otel-gzip.h"
#include "core/i18n.h"
#include "core/internal.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <nghttp2/nghttp2.h>
#include <string.h>
#include <sys/socket.h>

#define LOGS_EXPORT_PATH "/opentelemetry.proto.collector.logs.v1.LogsService/Export"
/* gRPC status codes */
#define GRPC_OK 0
#define GRPC_INVALID_ARGUMENT 3
#define GRPC_RESOURCE_EXHAUSTED 8
#define GRPC_UNIMPLEMENTED 12
#define GRPC_UNAVAILABLE 14
#define GRPC_WINDOW (16 * 1024 * 1024)

typedef struct
{
  OtelSource *source;
  SlSession *conn;
  SlWindow *window;
  nghttp2_session *session;
  GQueue ready;              /* ids of streams whose request is complete */
  GQueue streams;            /* every open GrpcStream: nghttp2_session_del() does not close them */
  GByteArray *out;           /* the frames of one flush */
} GrpcConnection;

typedef struct
{
  gint32 id;
  gchar *path;
  gchar *encoding;           /* grpc-encoding */
  GByteArray *body;
  gboolean too_large;
  GByteArray *response;      /* the length-prefixed message, once answered */
  gsize sent;
  gint status;
} GrpcStream;

static void
stream_free (GrpcStream *s)
{
  g_free (s->path);
  g_free (s->encoding);
  g_byte_array_unref (s->body);
  if (s->response)
    g_byte_array_unref (s->response);
  g_free (s);
}

/* What nghttp2 has to send, in one write: frame by frame, an answer's
 * headers, message and trailers went as separate segments, the later
 * ones held by Nagle until the client acknowledged the first. */
static gboolean
flush (GrpcConnection *conn)
{
  g_byte_array_set_size (conn->out, 0);
  for (;;)
    {
      const uint8_t *data;
      ssize_t len = nghttp2_session_mem_send (conn->session, &data);
      if (len < 0)
        return FALSE;
      if (len == 0)
        break;
      g_byte_array_append (conn->out, data, (guint) len);
    }
  return !conn->out->len || sl_session_write (conn->conn, conn->out->data, conn->out->len);
}

static int
begin_headers_cb (nghttp2_session *session, const nghttp2_frame *frame, void *user_data)
{
  GrpcConnection *conn = user_data;
  if (frame->hd.type != NGHTTP2_HEADERS || frame->headers.cat != NGHTTP2_HCAT_REQUEST)
    return 0;
  GrpcStream *s = g_new0 (GrpcStream, 1);
  s->id = frame->hd.stream_id;
  s->body = g_byte_array_new ();
  g_queue_push_tail (&conn->streams, s);
  nghttp2_session_set_stream_user_data (session, s->id, s);
  return 0;
}

static int
header_cb (nghttp2_session *session, const nghttp2_frame *frame, const uint8_t *name, size_t namelen,
           const uint8_t *value, size_t valuelen, uint8_t flags, void *user_data)
{
  GrpcStream *s = nghttp2_session_get_stream_user_data (session, frame->hd.stream_id);
  if (!s || frame->hd.type != NGHTTP2_HEADERS)
    return 0;
  if (namelen == 5 && memcmp (name, ":path", 5) == 0 && !s->path)
    s->path = g_strndup ((const gchar *) value, valuelen);
  else if (namelen == 13 && memcmp (name, "grpc-encoding", 13) == 0 && !s->encoding)
    s->encoding = g_strndup ((const gchar *) value, valuelen);
  return 0;
}

static int
data_chunk_cb (nghttp2_session *session, uint8_t flags, int32_t stream_id, const uint8_t *data, size_t len,
               void *user_data)
{
  GrpcConnection *conn = user_data;
  GrpcStream *s = nghttp2_session_get_stream_user_data (session, stream_id);
  if (!s)
    return 0;
  /* the 5 bytes of gRPC's prefix on top of the message */
  if (s->body->len + len > (gsize) conn->source->max_request_size + 5)
    s->too_large = TRUE;
  else
    g_byte_array_append (s->body, data, (guint) len);
  return 0;
}

static int
frame_recv_cb (nghttp2_session *session, const nghttp2_frame *frame, void *user_data)
{
  GrpcConnection *conn = user_data;
  if ((frame->hd.type == NGHTTP2_HEADERS || frame->hd.type == NGHTTP2_DATA)
      && (frame->hd.flags & NGHTTP2_FLAG_END_STREAM)
      && nghttp2_session_get_stream_user_data (session, frame->hd.stream_id))
    g_queue_push_tail (&conn->ready, GINT_TO_POINTER (frame->hd.stream_id));
  return 0;
}

static int
stream_close_cb (nghttp2_session *session, int32_t stream_id, uint32_t error_code, void *user_data)
{
  GrpcConnection *conn = user_data;
  GrpcStream *s = nghttp2_session_get_stream_user_data (session, stream_id);
  if (!s)
    return 0;
  g_queue_remove (&conn->ready, GINT_TO_POINTER (stream_id));
  g_queue_remove (&conn->streams, s);
  nghttp2_session_set_stream_user_data (session, stream_id, NULL);
  stream_free (s);
  return 0;
}

#define HEADER(n, v) { (uint8_t *) (n), (uint8_t *) (v), sizeof (n) - 1, strlen (v), NGHTTP2_NV_FLAG_NONE }

static ssize_t
read_response_cb (nghttp2_session *session, int32_t stream_id, uint8_t *buf, size_t length, uint32_t *data_flags,
                  nghttp2_data_source *source, void *user_data)
{
  GrpcStream *s = source->ptr;
  gsize n = MIN (length, s->response->len - s->sent);
  memcpy (buf, s->response->data + s->sent, n);
  s->sent += n;
  if (s->sent == s->response->len)
    {
      /* the status goes in trailers, after the message */
      *data_flags |= NGHTTP2_DATA_FLAG_EOF | NGHTTP2_DATA_FLAG_NO_END_STREAM;
      const nghttp2_nv trailers[] = { HEADER ("grpc-status", "0") };
      nghttp2_submit_trailer (session, stream_id, trailers, G_N_ELEMENTS (trailers));
    }
  return (ssize_t) n;
}

/* A response of headers alone, as gRPC answers a call that failed */
static void
answer_status (GrpcConnection *conn, GrpcStream *s, gint status, const gchar *message)
{
  gchar code[8];
  g_snprintf (code, sizeof code, "%d", status);
  /* grpc-message is percent-encoded */
  g_autofree gchar *escaped = g_uri_escape_string (message, " ", FALSE);
  const nghttp2_nv headers[] = {
    HEADER (":status", "200"),
    HEADER ("content-type", "application/grpc"),
    HEADER ("grpc-status", code),
    HEADER ("grpc-message", escaped),
  };
  nghttp2_submit_response (conn->session, s->id, headers, G_N_ELEMENTS (headers), NULL);
}

static void
answer_message (GrpcConnection *conn, GrpcStream *s, const GByteArray *message)
{
  s->response = g_byte_array_sized_new (message->len + 5);
  guint8 prefix[5] = { 0, (guint8) (message->len >> 24), (guint8) (message->len >> 16),
                       (guint8) (message->len >> 8), (guint8) message->len };
  g_byte_array_append (s->response, prefix, 5);
  g_byte_array_append (s->response, message->data, message->len);
  const nghttp2_nv headers[] = {
    HEADER (":status", "200"),
    HEADER ("content-type", "application/grpc"),
  };
  nghttp2_data_provider provider = { .source.ptr = s, .read_callback = read_response_cb };
  nghttp2_submit_response (conn->session, s->id, headers, G_N_ELEMENTS (headers), &provider);
}

static void
serve (GrpcConnection *conn, GrpcStream *s)
{
  OtelSource *self = conn->source;
  /* traces and metrics are refused, not taken and dropped: this receiver has logs only */
  if (!s->path || strcmp (s->path, LOGS_EXPORT_PATH) != 0)
    {
      answer_status (conn, s, GRPC_UNIMPLEMENTED, _("this OTLP receiver takes logs only"));
      return;
    }
  if (s->too_large)
    {
      sl_source_count (self->source, "truncated", 1);
      answer_status (conn, s, GRPC_RESOURCE_EXHAUSTED, _("the request is larger than max-request-size()"));
      return;
    }
  const guint8 *p = s->body->data;
  guint32 len = s->body->len >= 5 ? (guint32) p[1] << 24 | (guint32) p[2] << 16 | (guint32) p[3] << 8 | p[4] : 0;
  if (s->body->len < 5 || len != s->body->len - 5)
    {
      sl_source_count (self->source, "errors", 1);
      answer_status (conn, s, GRPC_INVALID_ARGUMENT, _("not one length-prefixed gRPC message"));
      return;
    }
  g_autoptr (GByteArray) inflated = NULL;
  const guint8 *data = p + 5;
  if (p[0])
    {
      if (!s->encoding || strcmp (s->encoding, "gzip") != 0)
        {
          answer_status (conn, s, GRPC_UNIMPLEMENTED, _("this receiver inflates gzip only"));
          return;
        }
      inflated = g_byte_array_new ();
      if (!otel_gunzip (data, len, (gsize) self->max_request_size, inflated))
        {
          sl_source_count (self->source, "errors", 1);
          answer_status (conn, s, GRPC_INVALID_ARGUMENT, _("the message is not gzip, or inflates past max-request-size()"));
          return;
        }
      data = inflated->data;
      len = inflated->len;
    }
  g_autoptr (GByteArray) response = g_byte_array_new ();
  sl_session_waiting (conn->conn, TRUE);
  OtelExportStatus status = otel_export_logs (self, conn->window, sl_session_peer (conn->conn),
                                              OTEL_ENCODING_PROTOBUF, data, len, response);
  sl_session_waiting (conn->conn, FALSE);
  switch (status)
    {
    case OTEL_EXPORT_OK:
      answer_message (conn, s, response);
      return;
    case OTEL_EXPORT_BAD_REQUEST:
      g_byte_array_append (response, (const guint8 *) "", 1);
      answer_status (conn, s, GRPC_INVALID_ARGUMENT, (const gchar *) response->data);
      return;
    case OTEL_EXPORT_UNAVAILABLE:
    default:
      g_byte_array_append (response, (const guint8 *) "", 1);
      answer_status (conn, s, GRPC_UNAVAILABLE, (const gchar *) response->data);
      return;
    }
}

static gboolean
session_new (GrpcConnection *conn)
{
  nghttp2_session_callbacks *cbs;
  nghttp2_session_callbacks_new (&cbs);
  nghttp2_session_callbacks_set_on_begin_headers_callback (cbs, begin_headers_cb);
  nghttp2_session_callbacks_set_on_header_callback (cbs, header_cb);
  nghttp2_session_callbacks_set_on_data_chunk_recv_callback (cbs, data_chunk_cb);
  nghttp2_session_callbacks_set_on_frame_recv_callback (cbs, frame_recv_cb);
  nghttp2_session_callbacks_set_on_stream_close_callback (cbs, stream_close_cb);
  gint rc = nghttp2_session_server_new (&conn->session, cbs, conn);
  nghttp2_session_callbacks_del (cbs);
  if (rc != 0)
    return FALSE;
  /* An export is one large message: with HTTP/2's default 64 KiB windows
   * a client sends a batch in many round trips (and libcurl 7.88 spins
   * while it waits for the window to open), so the stream and the
   * connection may take a whole request at once. */
  const nghttp2_settings_entry settings[] = {
    { NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, 100 },
    { NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, GRPC_WINDOW },
  };
  return nghttp2_submit_settings (conn->session, NGHTTP2_FLAG_NONE, settings, G_N_ELEMENTS (settings)) == 0
         && nghttp2_session_set_local_window_size (conn->session, NGHTTP2_FLAG_NONE, 0, GRPC_WINDOW) == 0;
}

static void
connection_free (GrpcConnection *conn)
{
  if (conn->session)
    nghttp2_session_del (conn->session);
  g_queue_clear (&conn->ready);
  g_queue_clear_full (&conn->streams, (GDestroyNotify) stream_free);
  g_byte_array_unref (conn->out);
  if (conn->window)
    otel_source_connection_closed (conn->source, conn->window);
  g_free (conn);
}

/* The server's settings go out before the client's preface is read. */
static gpointer
grpc_opened (SlSession *session, gpointer data)
{
  GrpcConnection *conn = g_new0 (GrpcConnection, 1);
  conn->source = data;
  conn->conn = session;
  g_queue_init (&conn->ready);
  g_queue_init (&conn->streams);
  conn->out = g_byte_array_new ();
  /* A client with several requests in flight gets several small answers
   * (and WINDOW_UPDATEs) in a row: with Nagle each waited for the
   * client's delayed acknowledgement of the one before. */
  gint one = 1;
  setsockopt (sl_session_fd (session), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  conn->window = otel_source_connection_window (conn->source);
  if (!conn->window || !session_new (conn) || !flush (conn))
    {
      connection_free (conn);
      return NULL;
    }
  return conn;
}

static gboolean
grpc_readable (SlSession *session, gpointer state, const gchar *buf, gsize len, gboolean more)
{
  GrpcConnection *conn = state;
  if (nghttp2_session_mem_recv (conn->session, (const guint8 *) buf, len) < 0)
    return FALSE;
  while (!g_queue_is_empty (&conn->ready))
    {
      gint32 id = GPOINTER_TO_INT (g_queue_pop_head (&conn->ready));
      GrpcStream *s = nghttp2_session_get_stream_user_data (conn->session, id);
      /* each answer goes as soon as it is made: a client with more
       * requests in flight gets on with them */
      if (s)
        serve (conn, s);
      sl_session_message (session);
      if (!flush (conn))
        return FALSE;
    }
  return flush (conn)
         && (nghttp2_session_want_read (conn->session) || nghttp2_session_want_write (conn->session));
}

static void
grpc_closed (SlSession *session, gpointer state)
{
  connection_free (state);
}

const SlSessionOps otel_grpc_session_ops = {
  .opened = grpc_opened,
  .readable = grpc_readable,
  .closed = grpc_closed,
};
