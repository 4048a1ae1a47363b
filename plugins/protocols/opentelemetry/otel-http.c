/* SPDX-License-Identifier: GPL-2.0-or-later */
/* OTLP/HTTP on libmicrohttpd: a thread per connection, so that a request
 * whose records wait for room in the connection's window holds that
 * client only, as a TCP window holds one sender. libmicrohttpd parses
 * HTTP/1.1 (chunked bodies, keep-alive, pipelining, limits) as a
 * well-kept library does; only POST /v1/logs is ours. */
#include "otel-http.h"
#include "otel-export.h"
#include "otel-gzip.h"
#include "otel-listener.h"
#include "core/i18n.h"
#include "core/internal.h"

#include <microhttpd.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

struct _OtelHttpServer
{
  OtelSource *source;
  struct MHD_Daemon *daemon;
  OtelListener *tls_listener;  /* with tls(): accepts and decrypts, libmicrohttpd gets the plaintext */
  GMutex lock;
  GCond answered;
  guint exporting;           /* requests delivering or not yet answered */
};

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
  switch (otel_export_logs (self, conn->window, conn->peer, encoding, data, len, response))
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
      HttpConnection *conn = g_new0 (HttpConnection, 1);
      conn->window = otel_source_connection_window (server->source);
      const union MHD_ConnectionInfo *info = MHD_get_connection_info (c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
      conn->peer = info && info->client_addr ? otel_peer_address (info->client_addr) : NULL;
      *socket_context = conn;
      sl_source_count (server->source->source, "connections", 1);
      return;
    }
  HttpConnection *conn = *socket_context;
  if (!conn)
    return;
  if (conn->window)
    otel_source_connection_closed (server->source, conn->window);
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

/* An OtelServeFunc: the plaintext end of a TLS connection to libmicrohttpd
 * (which closes it, also when it refuses it) */
static void
add_connection (OtelSource *self, gint fd, const struct sockaddr *peer, socklen_t peer_len, gint stop_fd,
                OtelActivity *activity, gpointer data)
{
  OtelHttpServer *server = data;
  if (MHD_add_connection (server->daemon, fd, peer, peer_len) != MHD_YES)
    sl_log (SL_LOG_WARNING, _("%s: the OTLP/HTTP server refused a connection"), self->super.id);
}

OtelHttpServer *
otel_http_server_start (OtelSource *self, gint fd, GError **error)
{
  OtelHttpServer *server = g_new0 (OtelHttpServer, 1);
  server->source = self;
  g_mutex_init (&server->lock);
  g_cond_init (&server->answered);
  guint flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_ERROR_LOG | MHD_USE_ITC;
  /* with tls() the listener accepts, and libmicrohttpd has no socket of its own */
  if (self->tls)
    server->daemon = MHD_start_daemon (flags | MHD_USE_NO_LISTEN_SOCKET, 0, NULL, NULL, handle, server,
                                       MHD_OPTION_CONNECTION_LIMIT, (unsigned int) self->max_connections,
                                       MHD_OPTION_NOTIFY_COMPLETED, request_completed, server,
                                       MHD_OPTION_NOTIFY_CONNECTION, connection_notify, server,
                                       MHD_OPTION_EXTERNAL_LOGGER, log_mhd, server,
                                       MHD_OPTION_END);
  else
    server->daemon = MHD_start_daemon (flags, 0, NULL, NULL, handle, server,
                                       MHD_OPTION_LISTEN_SOCKET, (MHD_socket) fd,
                                       MHD_OPTION_CONNECTION_LIMIT, (unsigned int) self->max_connections,
                                       MHD_OPTION_NOTIFY_COMPLETED, request_completed, server,
                                       MHD_OPTION_NOTIFY_CONNECTION, connection_notify, server,
                                       MHD_OPTION_EXTERNAL_LOGGER, log_mhd, server,
                                       MHD_OPTION_END);
  if (server->daemon && self->tls)
    {
      server->tls_listener = otel_listener_start (self, fd, self->tls, FALSE, add_connection, server, error);
      if (!server->tls_listener)
        {
          MHD_stop_daemon (server->daemon);
          server->daemon = NULL;
        }
    }
  else if (!server->daemon)
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, _("%s: cannot start the OTLP/HTTP server"), self->super.id);
  if (!server->daemon)
    {
      g_mutex_clear (&server->lock);
      g_cond_clear (&server->answered);
      g_free (server);
      return NULL;
    }
  return server;
}

/* The windows are cancelled already: requests that waited on them are
 * being answered 503, and libmicrohttpd's stop would cut those answers
 * off, so it waits for them first (new connections are no longer taken). */
void
otel_http_server_stop (OtelHttpServer *server)
{
  MHD_socket fd = server->tls_listener ? MHD_INVALID_SOCKET : MHD_quiesce_daemon (server->daemon);
  gint64 deadline = g_get_monotonic_time () + STOP_ANSWER_USEC;
  g_mutex_lock (&server->lock);
  while (server->exporting)
    if (!g_cond_wait_until (&server->answered, &server->lock, deadline))
      break;
  g_mutex_unlock (&server->lock);
  if (server->tls_listener)
    otel_listener_stop (server->tls_listener);
  MHD_stop_daemon (server->daemon);
  if (fd != MHD_INVALID_SOCKET)
    close (fd);
  g_mutex_clear (&server->lock);
  g_cond_clear (&server->answered);
  g_free (server);
}
