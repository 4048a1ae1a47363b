/* SPDX-License-Identifier: GPL-2.0-or-later */
/* OTLP/HTTP on libmicrohttpd: a thread per connection, so that a request
 * whose records wait for room in the connection's window holds that
 * client only, as a TCP window holds one sender. libmicrohttpd parses
 * HTTP/1.1 (chunked bodies, keep-alive, pipelining, limits) as a
 * well-kept library does; only POST /v1/logs is ours.
 *
 * libmicrohttpd has no listening socket: the kit's listener accepts,
 * admits (max-connections() and its evictions, first-message-timeout(),
 * idle-timeout(), max-connections-per-ip()) and runs the TLS handshake,
 * and each session hands its socket (or, with TLS, the plaintext end of
 * a socketpair the session pumps) to libmicrohttpd, then waits until
 * libmicrohttpd closed it. The session is told of the requests, so the
 * listener judges the connection as it judges a tcp() one. */
#include "otel-http.h"
#include "otel-export.h"
#include "otel-gzip.h"
#include "otel-tls-front.h"
#include "core/i18n.h"
#include "core/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <microhttpd.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

struct _OtelHttpServer
{
  OtelSource *source;
  struct MHD_Daemon *daemon;
  GMutex lock;
  GCond answered;            /* also: a connection closed */
  guint exporting;           /* requests delivering or not yet answered */
  GHashTable *handed;        /* libmicrohttpd's descriptor -> HttpSession, until it started it */
};

/* A session of the listener, while libmicrohttpd serves its connection */
typedef struct
{
  SlSession *session;
  gboolean closed;           /* under the server's lock: libmicrohttpd is done with it */
} HttpSession;

/* One request being read */
typedef struct
{
  GByteArray *body;
  gboolean too_large;
  gboolean exporting;
} HttpRequest;

/* How long a stop waits for the answers of requests it cut short */
#define STOP_ANSWER_USEC (2 * G_USEC_PER_SEC)

/* The connection's own: its window and its peer */
typedef struct
{
  SlWindow *window;
  gchar *peer;
  HttpSession *session;
} HttpConnection;

/* Seconds a client that got 503 waits before it sends again */
#define RETRY_AFTER "5"

static enum MHD_Result
reply (struct MHD_Connection *c, guint status, const gchar *content_type, const guint8 *body, gsize len)
{
  struct MHD_Response *r = MHD_create_response_from_buffer (len, (void *) body, MHD_RESPMEM_MUST_COPY);
  if (content_type)
    MHD_add_response_header (r, MHD_HTTP_HEADER_CONTENT_TYPE, content_type);
  if (status == MHD_HTTP_SERVICE_UNAVAILABLE)
    MHD_add_response_header (r, MHD_HTTP_HEADER_RETRY_AFTER, RETRY_AFTER);
  enum MHD_Result rc = MHD_queue_response (c, status, r);
  MHD_destroy_response (r);
  return rc;
}

static enum MHD_Result
reply_text (struct MHD_Connection *c, guint status, const gchar *text)
{
  return reply (c, status, "text/plain; charset=utf-8", (const guint8 *) text, strlen (text));
}

/* "application/json; charset=utf-8" is JSON */
static gboolean
media_type_is (const gchar *value, const gchar *type)
{
  gsize n = strlen (type);
  return value && g_ascii_strncasecmp (value, type, n) == 0 && (value[n] == '\0' || value[n] == ';'
                                                                 || value[n] == ' ');
}

static enum MHD_Result
export (OtelHttpServer *server, struct MHD_Connection *c, HttpRequest *req)
{
  OtelSource *self = server->source;
  const gchar *type = MHD_lookup_connection_value (c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
  OtelEncoding encoding;
  if (media_type_is (type, "application/x-protobuf"))
    encoding = OTEL_ENCODING_PROTOBUF;
  else if (media_type_is (type, "application/json"))
    encoding = OTEL_ENCODING_JSON;
  else
    return reply_text (c, MHD_HTTP_UNSUPPORTED_MEDIA_TYPE,
                       _("OTLP/HTTP takes application/x-protobuf or application/json"));
  if (req->too_large)
    {
      sl_source_count (self->source, "truncated", 1);
      return reply_text (c, MHD_HTTP_CONTENT_TOO_LARGE, _("the request is larger than max-request-size()"));
    }
  const gchar *coding = MHD_lookup_connection_value (c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_ENCODING);
  g_autoptr (GByteArray) inflated = NULL;
  const guint8 *data = req->body->data;
  gsize len = req->body->len;
  if (coding && g_ascii_strcasecmp (coding, "gzip") == 0)
    {
      inflated = g_byte_array_new ();
      if (!otel_gunzip (data, len, (gsize) self->max_request_size, inflated))
        {
          sl_source_count (self->source, "errors", 1);
          return reply_text (c, MHD_HTTP_BAD_REQUEST, _("the body is not gzip, or inflates past max-request-size()"));
        }
      data = inflated->data;
      len = inflated->len;
    }
  else if (coding && g_ascii_strcasecmp (coding, "identity") != 0)
    return reply_text (c, MHD_HTTP_UNSUPPORTED_MEDIA_TYPE, _("OTLP/HTTP bodies are gzip or not encoded"));

  const union MHD_ConnectionInfo *info = MHD_get_connection_info (c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  HttpConnection *conn = info ? info->socket_context : NULL;
  if (!conn || !conn->window)
    return reply_text (c, MHD_HTTP_SERVICE_UNAVAILABLE, _("the receiver is stopping; send again"));
  g_mutex_lock (&server->lock);
  server->exporting++;
  req->exporting = TRUE;
  g_mutex_unlock (&server->lock);
  g_autoptr (GByteArray) response = g_byte_array_new ();
  sl_session_waiting (conn->session->session, TRUE);
  OtelExportStatus status = otel_export_logs (self, conn->window, conn->peer, encoding, data, len, response);
  sl_session_waiting (conn->session->session, FALSE);
  switch (status)
    {
    case OTEL_EXPORT_OK:
      return reply (c, MHD_HTTP_OK, encoding == OTEL_ENCODING_JSON ? "application/json" : "application/x-protobuf",
                    response->data, response->len);
    case OTEL_EXPORT_BAD_REQUEST:
      return reply (c, MHD_HTTP_BAD_REQUEST, "text/plain; charset=utf-8", response->data, response->len);
    case OTEL_EXPORT_UNAVAILABLE:
    default:
      return reply (c, MHD_HTTP_SERVICE_UNAVAILABLE, "text/plain; charset=utf-8", response->data, response->len);
    }
}

static enum MHD_Result
handle (void *cls, struct MHD_Connection *c, const char *url, const char *method, const char *version,
        const char *upload_data, size_t *upload_data_size, void **con_cls)
{
  OtelHttpServer *server = cls;
  HttpRequest *req = *con_cls;
  if (!req)
    {
      req = g_new0 (HttpRequest, 1);
      req->body = g_byte_array_new ();
      *con_cls = req;
      return MHD_YES;
    }
  if (*upload_data_size)
    {
      if (req->body->len + *upload_data_size > (gsize) server->source->max_request_size)
        req->too_large = TRUE;
      else
        g_byte_array_append (req->body, (const guint8 *) upload_data, (guint) *upload_data_size);
      *upload_data_size = 0;
      return MHD_YES;
    }
  /* traces and metrics are refused, not taken and dropped: this receiver has logs only */
  if (strcmp (url, "/v1/logs") != 0)
    return reply_text (c, MHD_HTTP_NOT_FOUND, _("this OTLP receiver takes logs only, at /v1/logs"));
  if (strcmp (method, MHD_HTTP_METHOD_POST) != 0)
    return reply_text (c, MHD_HTTP_METHOD_NOT_ALLOWED, _("OTLP/HTTP exports are POSTed"));
  return export (server, c, req);
}

static void
request_completed (void *cls, struct MHD_Connection *c, void **con_cls, enum MHD_RequestTerminationCode toe)
{
  OtelHttpServer *server = cls;
  HttpRequest *req = *con_cls;
  if (!req)
    return;
  const union MHD_ConnectionInfo *info = MHD_get_connection_info (c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  HttpConnection *conn = info ? info->socket_context : NULL;
  if (conn && toe == MHD_REQUEST_TERMINATED_COMPLETED_OK)
    sl_session_message (conn->session->session);
  if (req->exporting)
    {
      g_mutex_lock (&server->lock);
      server->exporting--;
      g_cond_broadcast (&server->answered);
      g_mutex_unlock (&server->lock);
    }
  g_byte_array_unref (req->body);
  g_free (req);
  *con_cls = NULL;
}

static void
connection_notify (void *cls, struct MHD_Connection *c, void **socket_context, enum MHD_ConnectionNotificationCode code)
{
  OtelHttpServer *server = cls;
  if (code == MHD_CONNECTION_NOTIFY_STARTED)
    {
      const union MHD_ConnectionInfo *fd = MHD_get_connection_info (c, MHD_CONNECTION_INFO_CONNECTION_FD);
      g_mutex_lock (&server->lock);
      HttpSession *session = fd ? g_hash_table_lookup (server->handed, GINT_TO_POINTER (fd->connect_fd)) : NULL;
      if (session)
        g_hash_table_remove (server->handed, GINT_TO_POINTER (fd->connect_fd));
      g_mutex_unlock (&server->lock);
      if (!session)
        return;
      HttpConnection *conn = g_new0 (HttpConnection, 1);
      conn->session = session;
      conn->window = otel_source_connection_window (server->source);
      conn->peer = g_strdup (sl_session_peer (session->session));
      *socket_context = conn;
      return;
    }
  HttpConnection *conn = *socket_context;
  if (!conn)
    return;
  if (conn->window)
    otel_source_connection_closed (server->source, conn->window);
  g_mutex_lock (&server->lock);
  conn->session->closed = TRUE;
  g_cond_broadcast (&server->answered);
  g_mutex_unlock (&server->lock);
  g_free (conn->peer);
  g_free (conn);
  *socket_context = NULL;
}

static void
log_mhd (void *cls, const char *fmt, va_list ap)
{
  g_autofree gchar *text = g_strdup_vprintf (fmt, ap);
  g_strchomp (text);
  sl_log (SL_LOG_DEBUG, "%s: %s", ((OtelHttpServer *) cls)->source->super.id, text);
}

/* A session's thread: its socket (a duplicate, which libmicrohttpd
 * closes; the listener's stays open until the session ends, so that an
 * eviction never shuts down a number reused) or the plaintext end of its
 * TLS front goes to libmicrohttpd, which serves it until either side
 * ends it. */
static void
http_serve (SlSession *session, gpointer data)
{
  OtelHttpServer *server = data;
  HttpSession hs = { .session = session };
  gint fd = sl_session_fd (session);
  struct sockaddr_storage peer;
  socklen_t peer_len = sizeof peer;
  if (getpeername (fd, (struct sockaddr *) &peer, &peer_len) < 0)
    return;
  g_autofree gchar *why = NULL;
  OtelTlsFront *front = NULL;
  gint handed = -1;
  if (sl_session_tls (session))
    front = otel_tls_front_new (sl_session_tls (session), fd, &handed, &why);
  else
    handed = fcntl (fd, F_DUPFD_CLOEXEC, 0);
  if (handed < 0)
    {
      sl_log (SL_LOG_WARNING, _("%s: cannot hand a connection to the OTLP/HTTP server: %s"),
              server->source->super.id, why ? why : g_strerror (errno));
      return;
    }
  g_mutex_lock (&server->lock);
  g_hash_table_insert (server->handed, GINT_TO_POINTER (handed), &hs);
  g_mutex_unlock (&server->lock);
  if (MHD_add_connection (server->daemon, handed, (struct sockaddr *) &peer, peer_len) != MHD_YES)
    {
      sl_log (SL_LOG_WARNING, _("%s: the OTLP/HTTP server refused a connection"), server->source->super.id);
      g_mutex_lock (&server->lock);
      g_hash_table_remove (server->handed, GINT_TO_POINTER (handed));
      hs.closed = TRUE;
      g_mutex_unlock (&server->lock);
    }
  if (front)
    {
      otel_tls_front_pump (front);
      /* closing our end of the socketpair ends libmicrohttpd's */
      otel_tls_front_free (front);
    }
  g_mutex_lock (&server->lock);
  while (!hs.closed)
    g_cond_wait (&server->answered, &server->lock);
  g_mutex_unlock (&server->lock);
}

const SlSessionOps otel_http_session_ops = {
  .serve = http_serve,
};

OtelHttpServer *
otel_http_server_start (OtelSource *self, GError **error)
{
  OtelHttpServer *server = g_new0 (OtelHttpServer, 1);
  server->source = self;
  g_mutex_init (&server->lock);
  g_cond_init (&server->answered);
  server->handed = g_hash_table_new (NULL, NULL);
  guint flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_ERROR_LOG | MHD_USE_ITC
                | MHD_USE_NO_LISTEN_SOCKET;
  server->daemon = MHD_start_daemon (flags, 0, NULL, NULL, handle, server,
                                     MHD_OPTION_NOTIFY_COMPLETED, request_completed, server,
                                     MHD_OPTION_NOTIFY_CONNECTION, connection_notify, server,
                                     MHD_OPTION_EXTERNAL_LOGGER, log_mhd, server,
                                     MHD_OPTION_END);
  if (!server->daemon)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, _("%s: cannot start the OTLP/HTTP server"), self->super.id);
      otel_http_server_free (server);
      return NULL;
    }
  return server;
}

/* The windows are cancelled already: requests that waited on them are
 * being answered 503, and the listener's stop would cut those answers
 * off, so it waits for them first. */
void
otel_http_server_drain (OtelHttpServer *server)
{
  gint64 deadline = g_get_monotonic_time () + STOP_ANSWER_USEC;
  g_mutex_lock (&server->lock);
  while (server->exporting)
    if (!g_cond_wait_until (&server->answered, &server->lock, deadline))
      break;
  g_mutex_unlock (&server->lock);
}

/* After the listener stopped: no connection is left. */
void
otel_http_server_free (OtelHttpServer *server)
{
  if (server->daemon)
    MHD_stop_daemon (server->daemon);
  g_hash_table_unref (server->handed);
  g_mutex_clear (&server->lock);
  g_cond_clear (&server->answered);
  g_free (server);
}
