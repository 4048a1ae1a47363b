/* SPDX-License-Identifier: GPL-2.0-or-later */
/* opentelemetry(): an OTLP logs receiver, over gRPC (the default, on
 * 4317, as syslog-ng 4 spells it) or over HTTP (transport("http"), on
 * 4318). A request is answered success only once its records are safe
 * by the path's rules: each connection has a flow-control window, and a
 * request's answer waits until the window is empty again, that is until
 * every flow-controlled destination wrote the request's messages; a
 * window that is full holds the request, and with it the client, as a
 * TCP window holds a sender. A stopping source cancels the windows and
 * answers "unavailable" (gRPC 14, HTTP 503), which OTLP clients retry:
 * duplicates are possible, losses are not. */
#include "otel-connection.h"
#include "otel-grpc.h"
#include "otel-http.h"
#include "core/io/activation.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/internal.h"

#include <arpa/inet.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static const SlOptionWord transport_words[] = {
  { "grpc", OTEL_TRANSPORT_GRPC },
  { "http", OTEL_TRANSPORT_HTTP },
  { NULL }
};

static const SlOptionSpec otel_source_options[] = {
  { "ip", SL_STRING (OtelSource, ip), "0.0.0.0", "address to listen on" },
  { "port", SL_STRING (OtelSource, port), "4317", "port to listen on; 4318 with transport(\"http\") unless written" },
  { "transport", SL_CHOICE (OtelSource, transport), "grpc",
    "OTLP/gRPC (grpc) or OTLP/HTTP (http: POST /v1/logs, protobuf or JSON)", .words = transport_words },
  { "max-request-size", SL_SIZE (OtelSource, max_request_size), "16M",
    "the largest request taken, after gzip is inflated; larger ones are refused" },
  { "listen-backlog", SL_INT (OtelSource, listen_backlog), "256", "pending connections the kernel keeps" },
  { "tls", SL_BLOCK (OtelSource, tls_node), NULL,
    "TLS for either transport: key-file() cert-file() ca-file() peer-verify() ...; gRPC negotiates h2 by ALPN" },
  { NULL }
};

static gboolean
otel_source_init (SlDriver *d, GError **error)
{
  OtelSource *self = (OtelSource *) d;
  if (self->transport == OTEL_TRANSPORT_HTTP && !sl_options_is_set (d->options, "port"))
    self->port = "4318";
  if (self->max_request_size < 1 || self->max_request_size > G_MAXINT32)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "max-request-size"),
                        _("max-request-size() must be between 1 byte and 2 GiB"));
      return FALSE;
    }
  self->listen_backlog = MAX (self->listen_backlog, 1);
  if (self->tls_node)
    {
      self->tls = sl_tls_context_new ("opentelemetry()", SL_TLS_SERVER, self->tls_node, d->pos, error);
      if (!self->tls)
        return FALSE;
      /* gRPC over TLS is HTTP/2 chosen by ALPN; HTTP/1.1 clients offer none or http/1.1 */
      if (self->transport == OTEL_TRANSPORT_GRPC)
        sl_tls_context_set_alpn (self->tls, "h2");
    }
  g_mutex_init (&self->lock);
  self->windows = g_ptr_array_new ();
  return TRUE;
}

static void
otel_source_free (SlDriver *d)
{
  OtelSource *self = (OtelSource *) d;
  if (self->tls)
    sl_tls_context_unref (self->tls);
  if (!self->windows)
    return;
  g_ptr_array_unref (self->windows);
  g_mutex_clear (&self->lock);
}

static gboolean
otel_source_start (SlDriver *d, SlSource *source, GError **error)
{
  OtelSource *self = (OtelSource *) d;
  self->source = source;
  self->max_connections = sl_source_max_connections (source);
  self->stopping = FALSE;
  SlListenerSettings settings = {
    .max_connections = self->max_connections,
    .tls = self->tls,
    .session = &otel_grpc_session_ops,
    .session_data = self,
  };
  if (self->transport == OTEL_TRANSPORT_HTTP)
    {
      self->http = otel_http_server_start (self, error);
      if (!self->http)
        return FALSE;
      settings.session = &otel_http_session_ops;
      settings.session_data = self->http;
    }
  SlListenAddress where = { .ip = self->ip, .port = self->port, .type = SOCK_STREAM, .backlog = self->listen_backlog };
  gboolean inherited;
  gint fd = sl_activation_listen (&self->super, &where, &inherited, error);
  if (fd >= 0)
    self->listener = sl_listener_start (source, fd, &settings, error);
  if (!self->listener)
    {
      g_clear_pointer (&self->http, otel_http_server_free);
      return FALSE;
    }
  sl_log (SL_LOG_INFO, _("opentelemetry() listening on %s port %s (%s%s)"), self->ip, self->port,
          self->transport == OTEL_TRANSPORT_HTTP ? "OTLP/HTTP" : "OTLP/gRPC", self->tls ? " over TLS" : "");
  return TRUE;
}

static void
otel_source_stop (SlDriver *d)
{
  OtelSource *self = (OtelSource *) d;
  g_mutex_lock (&self->lock);
  self->stopping = TRUE;
  for (guint i = 0; i < self->windows->len; i++)
    sl_window_cancel (g_ptr_array_index (self->windows, i));
  g_mutex_unlock (&self->lock);
  if (self->http)
    otel_http_server_drain (self->http);
  g_clear_pointer (&self->listener, sl_listener_stop);
  g_clear_pointer (&self->http, otel_http_server_free);
}

static const SlSourceOps otel_source_ops = {
  .start = otel_source_start,
  .stop = otel_source_stop,
};

static const SlDriverClass otel_source_class = {
  .kind = SL_DRIVER_SOURCE,
  .name = "opentelemetry",
  .summary = "receive OpenTelemetry logs (OTLP over gRPC or HTTP); a request is answered once its records are safe",
  .options = otel_source_options,
  .capabilities = SL_CAP_PARSES | SL_CAP_CONNECTIONS,
  .instance_size = sizeof (OtelSource),
  .init = otel_source_init,
  .free = otel_source_free,
  .ops.source = &otel_source_ops,
};

/* syslog-ng 4's name for the same receiver between syslog-ng instances:
 * records of scope "@syslog-ng" become the messages they were sent from
 * (as they do in opentelemetry() too) */
static const SlDriverClass syslog_ng_otlp_source_class = {
  .kind = SL_DRIVER_SOURCE,
  .name = "syslog-ng-otlp",
  .summary = "receive messages with all their name-value pairs from syslog-ng-otlp() destinations (OTLP)",
  .options = otel_source_options,
  .capabilities = SL_CAP_PARSES | SL_CAP_CONNECTIONS,
  .instance_size = sizeof (OtelSource),
  .init = otel_source_init,
  .free = otel_source_free,
  .ops.source = &otel_source_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "opentelemetry-source",
  .drivers = (const SlDriverClass *const[]) { &otel_source_class, &syslog_ng_otlp_source_class, NULL },
};
