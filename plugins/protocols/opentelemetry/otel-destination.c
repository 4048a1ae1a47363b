/* SPDX-License-Identifier: GPL-2.0-or-later */
/* opentelemetry() destination: messages as OTLP logs, over gRPC
 * (url("host:4317"), the default) or HTTP (transport("http")
 * url("http://host:4318/v1/logs")). gRPC goes through our own client on
 * nghttp2 (otel-grpc-client.c, otel-grpc-write.c): one connection, many
 * requests in flight, each message done when its request's answer came
 * (SL_CAP_ANSWERS). HTTP goes through libcurl, one request at a time per
 * writer. A message is acknowledged only when its request was accepted,
 * so flow control and disk-buffer() hold it until then. Retryable
 * answers (gRPC 1, 4, 8, 10, 11, 14, 15; HTTP 429, 502, 503, 504; no
 * answer at all) are retried retries() times with back-off (HTTP: or
 * after the Retry-After the receiver asked for), then left to
 * time-reopen(): never dropped. Answers the OTLP specification calls
 * final (a bad request) drop the request's messages, counted. */
#include "otel-encode.h"
#include "otel-destination.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/io/tls-block-curl.h"
#include "core/version.h"

#include <stdlib.h>
#include <string.h>


static const SlOptionWord transport_words[] = {
  { "grpc", OTEL_DEST_GRPC },
  { "http", OTEL_DEST_HTTP },
  { NULL }
};

static const SlOptionSpec otel_dest_options[] = {
  { "url", SL_STRING (OtelDestination, url), "localhost:4317",
    "gRPC: host:port; HTTP: the endpoint, http://host:4318/v1/logs" },
  { "transport", SL_CHOICE (OtelDestination, transport), "grpc", "OTLP/gRPC (grpc) or OTLP/HTTP with protobuf (http)",
    .words = transport_words },
  { "batch-lines", SL_INT (OtelDestination, batch_lines), "1000", "most records in one request" },
  { "batch-bytes", SL_SIZE (OtelDestination, batch_bytes), "4M",
    "most bytes of records in one request (a larger record goes alone); 0: no limit" },
  { "compression", SL_BOOL (OtelDestination, compression), "no", "gzip requests (grpc-encoding, Content-Encoding)" },
  { "headers", SL_LIST (OtelDestination, headers), NULL,
    "request headers (gRPC metadata), each \"Name: value\", such as a vendor's API key" },
  { "timeout", SL_DURATION (OtelDestination, timeout_ms), "10", "how long a request may take before it is retried" },
  { "retries", SL_INT (OtelDestination, retries), "3",
    "attempts of a request, with back-off, before its messages wait time-reopen(); none is dropped" },
  { "tls", SL_BLOCK (OtelDestination, tls_node), NULL,
    "the TLS options (doc/tls.md, 8): all of them for gRPC, those libcurl can do for HTTP" },
  { NULL }
};

static const SlDriverClass syslog_ng_otlp_class;

static gpointer
global_init (gpointer data)
{
  return GINT_TO_POINTER (curl_global_init (CURL_GLOBAL_DEFAULT) == CURLE_OK);
}

static gboolean
read_url (OtelDestination *self, GError **error)
{
  SlDriver *d = &self->super;
  gboolean http_url = g_str_has_prefix (self->url, "http://") || g_str_has_prefix (self->url, "https://");
  if (self->transport == OTEL_DEST_HTTP)
    {
      if (!http_url)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "url"),
                            _("opentelemetry(transport(\"http\")) takes an http:// or https:// url(), not '%s'"),
                            self->url);
          return FALSE;
        }
      self->endpoint = g_strdup (self->url);
      return TRUE;
    }
  /* gRPC's target is host:port ([v6]:port); a scheme names plain or TLS, as some SDKs write it */
  const gchar *target = self->url;
  gboolean https = self->tls_node != NULL;
  if (g_str_has_prefix (target, "https://"))
    target += 8, https = TRUE;
  else if (g_str_has_prefix (target, "http://"))
    target += 7;
  const gchar *colon = strrchr (target, ':');
  const gchar *host_end = colon;
  if (*target == '[' && colon && colon > target && colon[-1] == ']')
    target++, host_end = colon - 1;
  if (!colon || host_end == target || !colon[1] || strchr (target, '/') || strspn (colon + 1, "0123456789") != strlen (colon + 1))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "url"),
                        _("opentelemetry() takes url(\"host:port\") for gRPC, not '%s'"), self->url);
      return FALSE;
    }
  self->host = g_strndup (target, (gsize) (host_end - target));
  self->port = g_strdup (colon + 1);
  self->endpoint = g_strdup_printf ("%s%s", https ? "https://" : "", target);
  if (https)
    {
      g_autofree gchar *owner = g_strdup_printf ("%s()", d->klass->name);
      self->grpc_tls = sl_tls_context_new (owner, SL_TLS_CLIENT, self->tls_node, d->pos, error);
      if (!self->grpc_tls)
        return FALSE;
      sl_tls_context_set_alpn (self->grpc_tls, "h2");
    }
  return TRUE;
}

static void
add_grpc_header (OtelDestination *self, const gchar *name, const gchar *value)
{
  g_ptr_array_insert (self->grpc_headers, (gint) self->grpc_headers->len - 1, g_ascii_strdown (name, -1));
  g_ptr_array_insert (self->grpc_headers, (gint) self->grpc_headers->len - 1, g_strdup (value));
}

/* gRPC's metadata: headers() as HTTP/2 writes them, lower-case names */
static gboolean
grpc_headers (OtelDestination *self, GError **error)
{
  self->grpc_headers = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (self->grpc_headers, NULL);
  add_grpc_header (self, "content-type", "application/grpc");
  add_grpc_header (self, "te", "trailers");
  add_grpc_header (self, "user-agent", "sluice/" SL_VERSION);
  if (self->compression)
    add_grpc_header (self, "grpc-encoding", "gzip");
  for (guint i = 0; self->headers && i < self->headers->len; i++)
    {
      const gchar *h = g_ptr_array_index (self->headers, i);
      const gchar *colon = strchr (h, ':');
      if (!colon || colon == h)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (self->super.options, "headers"),
                            _("headers() takes \"Name: value\", not '%s'"), h);
          return FALSE;
        }
      g_autofree gchar *name = g_strstrip (g_strndup (h, (gsize) (colon - h)));
      g_autofree gchar *value = g_strstrip (g_strdup (colon + 1));
      add_grpc_header (self, name, value);
    }
  return TRUE;
}

/* OTLP/HTTP through libcurl: its TLS options and headers */
static gboolean
http_init (OtelDestination *self, GError **error)
{
  SlDriver *d = &self->super;
  static GOnce once = G_ONCE_INIT;
  if (!GPOINTER_TO_INT (g_once (&once, global_init, NULL)))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos, _("opentelemetry(): libcurl cannot be initialised"));
      return FALSE;
    }
  g_autofree gchar *owner = g_strdup_printf ("%s()", d->klass->name);
  self->tls = sl_tls_block_new (owner, self->tls_node, NULL, SL_TLS_CAN_CURL, "libcurl", d->pos, error);
  if (!self->tls)
    return FALSE;
  for (guint i = 0; self->headers && i < self->headers->len; i++)
    self->header_list = curl_slist_append (self->header_list, g_ptr_array_index (self->headers, i));
  self->header_list = curl_slist_append (self->header_list, "Expect:");
  self->header_list = curl_slist_append (self->header_list, "Content-Type: application/x-protobuf");
  if (self->compression)
    self->header_list = curl_slist_append (self->header_list, "Content-Encoding: gzip");
  self->body = g_byte_array_new ();
  self->response = g_byte_array_new ();
  return TRUE;
}

static gboolean
otel_dest_init (SlDriver *d, GError **error)
{
  OtelDestination *self = (OtelDestination *) d;
  g_queue_init (&self->calls);
  g_queue_init (&self->spare);
  if (self->batch_lines < 1)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "batch-lines"),
                        _("batch-lines() must be at least 1, not %d"), self->batch_lines);
      return FALSE;
    }
  if (!read_url (self, error))
    return FALSE;
  if (self->transport == OTEL_DEST_HTTP ? !http_init (self, error) : !grpc_headers (self, error))
    return FALSE;
  self->encoder = otel_encoder_new (d->id, d->klass == &syslog_ng_otlp_class);
  self->records = g_byte_array_new ();
  self->requests = sl_stats_counter ("destination", d->id, d->klass->name, "requests");
  self->retried = sl_stats_counter ("destination", d->id, d->klass->name, "retries");
  self->rejected = sl_stats_counter ("destination", d->id, d->klass->name, "rejected");
  return TRUE;
}

static gboolean
otel_dest_open (SlDriver *d, GError **error)
{
  OtelDestination *self = (OtelDestination *) d;
  if (self->transport == OTEL_DEST_GRPC)
    return otel_grpc_open (self, error);
  self->easy = curl_easy_init ();
  otel_transfer_setup (self);
  return TRUE;
}

static void
otel_dest_close (SlDriver *d)
{
  OtelDestination *self = (OtelDestination *) d;
  otel_grpc_close (self);
  if (self->easy)
    curl_easy_cleanup (self->easy);
  self->easy = NULL;
}

static SlWriteResult
otel_dest_write (SlDriver *d, SlWriteBatch *batch)
{
  OtelDestination *self = (OtelDestination *) d;
  return self->transport == OTEL_DEST_GRPC ? otel_grpc_write (self, batch) : otel_transfer_write (self, batch);
}

static void
otel_dest_free (SlDriver *d)
{
  OtelDestination *self = (OtelDestination *) d;
  otel_dest_close (d);
  if (self->header_list)
    curl_slist_free_all (self->header_list);
  sl_tls_block_free (self->tls);
  if (self->encoder)
    otel_encoder_free (self->encoder);
  if (self->records)
    g_byte_array_unref (self->records);
  if (self->body)
    g_byte_array_unref (self->body);
  if (self->response)
    g_byte_array_unref (self->response);
  g_queue_clear_full (&self->spare, (GDestroyNotify) otel_grpc_call_free);
  if (self->grpc_tls)
    sl_tls_context_unref (self->grpc_tls);
  if (self->grpc_headers)
    g_ptr_array_unref (self->grpc_headers);
  g_free (self->endpoint);
  g_free (self->host);
  g_free (self->port);
}

static const SlDestinationOps otel_dest_ops = {
  .open = otel_dest_open,
  .write = otel_dest_write,
  .close = otel_dest_close,
};

/* flush-lines() as large as a batch, so that a writer's pop fills a request */
static const SlDriverClass otel_dest_class = {
  .kind = SL_DRIVER_DESTINATION,
  .name = "opentelemetry",
  .summary = "send messages as OpenTelemetry logs (OTLP over gRPC or HTTP); acknowledged once the receiver took them",
  .options = otel_dest_options,
  .defaults = (const gchar *const[]) { "flush-lines", "1000", NULL },
  .capabilities = SL_CAP_WORKERS | SL_CAP_DISK_BUFFER | SL_CAP_BATCHES | SL_CAP_ANSWERS,
  .instance_size = sizeof (OtelDestination),
  .init = otel_dest_init,
  .free = otel_dest_free,
  .ops.destination = &otel_dest_ops,
};

/* syslog-ng 4's: Sluice to Sluice or to syslog-ng, every name-value pair
 * carried (otel-syslog-ng.c), over gRPC */
static const SlOptionSpec syslog_ng_otlp_options[] = {
  { "url", SL_STRING (OtelDestination, url), "localhost:4317", "host:port of the receiver (gRPC)" },
  { "batch-lines", SL_INT (OtelDestination, batch_lines), "1000", "most records in one request" },
  { "batch-bytes", SL_SIZE (OtelDestination, batch_bytes), "4M",
    "most bytes of records in one request (a larger record goes alone); 0: no limit" },
  { "compression", SL_BOOL (OtelDestination, compression), "no", "gzip requests (grpc-encoding)" },
  { "headers", SL_LIST (OtelDestination, headers), NULL, "gRPC metadata, each \"Name: value\"" },
  { "timeout", SL_DURATION (OtelDestination, timeout_ms), "10", "how long a request may take before it is retried" },
  { "retries", SL_INT (OtelDestination, retries), "3",
    "attempts of a request, with back-off, before its messages wait time-reopen(); none is dropped" },
  { "tls", SL_BLOCK (OtelDestination, tls_node), NULL, "the TLS options (doc/tls.md, 8)" },
  { NULL }
};

static const SlDriverClass syslog_ng_otlp_class = {
  .kind = SL_DRIVER_DESTINATION,
  .name = "syslog-ng-otlp",
  .summary = "send messages with all their name-value pairs as syslog-ng 4 does between instances (OTLP/gRPC)",
  .options = syslog_ng_otlp_options,
  .defaults = (const gchar *const[]) { "flush-lines", "1000", NULL },
  .capabilities = SL_CAP_WORKERS | SL_CAP_DISK_BUFFER | SL_CAP_BATCHES | SL_CAP_ANSWERS,
  .instance_size = sizeof (OtelDestination),
  .init = otel_dest_init,
  .free = otel_dest_free,
  .ops.destination = &otel_dest_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "opentelemetry-destination",
  .drivers = (const SlDriverClass *const[]) { &otel_dest_class, &syslog_ng_otlp_class, NULL },
};
