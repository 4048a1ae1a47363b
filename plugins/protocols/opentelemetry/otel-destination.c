/* SPDX-License-Identifier: GPL-2.0-or-later */
/* opentelemetry() destination: messages as OTLP logs, over gRPC
 * (url("host:4317"), the default) or HTTP (transport("http")
 * url("http://host:4318/v1/logs")), through libcurl, which is a
 * dependency already: HTTP/2 with prior knowledge (or ALPN over TLS) for
 * gRPC, with grpc-status read from the trailers libcurl hands to the
 * header callback. A write() is cut into requests of batch-lines() and
 * batch-bytes(); a message is acknowledged only when its request was
 * accepted, so flow control and disk-buffer() hold it until then.
 * Retryable answers (gRPC 1, 4, 8, 10, 11, 14, 15; HTTP 429, 502, 503,
 * 504; no answer at all) are retried retries() times with back-off, or
 * after the Retry-After the receiver asked for, then left to
 * time-reopen(): never dropped. Answers the OTLP specification calls
 * final (a bad request) drop the request's messages, counted. */
#include "otel-encode.h"
#include "otel-destination.h"
#include "core/config/error.h"
#include "core/route/destination.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/io/tls-block-curl.h"
#include "opentelemetry/proto/collector/logs/v1/logs_service.pb-c.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define GRPC_LOGS_PATH "/opentelemetry.proto.collector.logs.v1.LogsService/Export"
#define BACKOFF_FIRST_MS 100
#define BACKOFF_MAX_MS 5000
/* a Retry-After longer than this is cut to it, so a stop is not held */
#define RETRY_AFTER_MAX_MS 30000

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
    "the TLS options (doc/tls.md, 8) that libcurl can do, as http() takes them" },
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
  /* gRPC's target is host:port; a scheme names plain or TLS, as some SDKs write it */
  const gchar *target = self->url;
  gboolean https = self->tls_node != NULL;
  if (g_str_has_prefix (target, "https://"))
    target += 8, https = TRUE;
  else if (g_str_has_prefix (target, "http://"))
    target += 7;
  if (!*target || strchr (target, '/'))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "url"),
                        _("opentelemetry() takes url(\"host:port\") for gRPC, not '%s'"), self->url);
      return FALSE;
    }
  self->endpoint = g_strconcat (https ? "https://" : "http://", target, GRPC_LOGS_PATH, NULL);
  return TRUE;
}

static gboolean
otel_dest_init (SlDriver *d, GError **error)
{
  OtelDestination *self = (OtelDestination *) d;
  static GOnce once = G_ONCE_INIT;
  if (!GPOINTER_TO_INT (g_once (&once, global_init, NULL)))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos, _("opentelemetry(): libcurl cannot be initialised"));
      return FALSE;
    }
  if (self->batch_lines < 1)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "batch-lines"),
                        _("batch-lines() must be at least 1, not %d"), self->batch_lines);
      return FALSE;
    }
  if (!read_url (self, error))
    return FALSE;
  g_autofree gchar *owner = g_strdup_printf ("%s()", d->klass->name);
  self->tls = sl_tls_block_new (owner, self->tls_node, NULL, SL_TLS_CAN_CURL, "libcurl", d->pos, error);
  if (!self->tls)
    return FALSE;
  for (guint i = 0; self->headers && i < self->headers->len; i++)
    self->header_list = curl_slist_append (self->header_list, g_ptr_array_index (self->headers, i));
  self->header_list = curl_slist_append (self->header_list, "Expect:");
  if (self->transport == OTEL_DEST_GRPC)
    {
      self->header_list = curl_slist_append (self->header_list, "Content-Type: application/grpc");
      self->header_list = curl_slist_append (self->header_list, "TE: trailers");
      if (self->compression)
        self->header_list = curl_slist_append (self->header_list, "grpc-encoding: gzip");
    }
  else
    {
      self->header_list = curl_slist_append (self->header_list, "Content-Type: application/x-protobuf");
      if (self->compression)
        self->header_list = curl_slist_append (self->header_list, "Content-Encoding: gzip");
    }
  self->encoder = otel_encoder_new (d->klass == &syslog_ng_otlp_class);
  self->records = g_byte_array_new ();
  self->body = g_byte_array_new ();
  self->response = g_byte_array_new ();
  self->requests = sl_stats_counter ("destination", d->id, d->klass->name, "requests");
  self->retried = sl_stats_counter ("destination", d->id, d->klass->name, "retries");
  self->rejected = sl_stats_counter ("destination", d->id, d->klass->name, "rejected");
  return TRUE;
}

static gboolean
otel_dest_open (SlDriver *d, GError **error)
{
  OtelDestination *self = (OtelDestination *) d;
  self->easy = curl_easy_init ();
  otel_transfer_setup (self);
  return TRUE;
}

static void
otel_dest_close (SlDriver *d)
{
  OtelDestination *self = (OtelDestination *) d;
  if (self->easy)
    curl_easy_cleanup (self->easy);
  self->easy = NULL;
}

static gboolean
gzip (const GByteArray *in, GByteArray *out)
{
  z_stream z = { 0 };
  if (deflateInit2 (&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    return FALSE;
  gsize at = out->len;
  g_byte_array_set_size (out, (guint) (at + deflateBound (&z, in->len)));
  z.next_in = in->data;
  z.avail_in = in->len;
  z.next_out = out->data + at;
  z.avail_out = (uInt) (out->len - at);
  gint rc = deflate (&z, Z_FINISH);
  g_byte_array_set_size (out, (guint) (at + z.total_out));
  deflateEnd (&z);
  return rc == Z_STREAM_END;
}

/* The request's body from self->records: gRPC's length prefix, gzip. */
static gboolean
frame_body (OtelDestination *self)
{
  g_byte_array_set_size (self->body, 0);
  if (self->transport == OTEL_DEST_GRPC)
    g_byte_array_set_size (self->body, 5);
  if (self->compression ? !gzip (self->records, self->body)
                        : !g_byte_array_append (self->body, self->records->data, self->records->len))
    return FALSE;
  if (self->transport == OTEL_DEST_GRPC)
    {
      guint32 len = self->body->len - 5;
      guint8 prefix[5] = { self->compression ? 1 : 0, (guint8) (len >> 24), (guint8) (len >> 16),
                           (guint8) (len >> 8), (guint8) len };
      memcpy (self->body->data, prefix, 5);
    }
  return TRUE;
}

/* Waits ms, or less when the destination stops; FALSE then. */
static gboolean
back_off (gint64 ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;
  while (g_get_monotonic_time () < end)
    {
      if (sl_destination_stopping ())
        return FALSE;
      g_usleep (MIN (50000, MAX (end - g_get_monotonic_time (), 0)));
    }
  return TRUE;
}

static SlWriteResult
otel_dest_write (SlDriver *d, SlWriteBatch *batch)
{
  OtelDestination *self = (OtelDestination *) d;
  while (batch->done < batch->n)
    {
      guint k = otel_encode (self->encoder, batch->msgs + batch->done, batch->n - batch->done,
                             (guint) self->batch_lines, (gsize) self->batch_bytes, self->records);
      if (!frame_body (self))
        return sl_write_batch_fail (batch, SL_WRITE_ERROR, 0, _("the request body could not be compressed"));
      OtelOutcome outcome = OTEL_OUTCOME_RETRY;
      gint64 backoff = BACKOFF_FIRST_MS;
      for (gint attempt = 0; attempt <= self->retries; attempt++)
        {
          gint64 retry_after_ms = 0;
          outcome = otel_transfer_send (self, &retry_after_ms);
          if (outcome != OTEL_OUTCOME_RETRY || attempt == self->retries)
            break;
          sl_counter_add (self->retried, 1);
          if (!back_off (retry_after_ms ? MIN (retry_after_ms, RETRY_AFTER_MAX_MS) : backoff))
            break;
          backoff = MIN (backoff * 2, BACKOFF_MAX_MS);
        }
      if (outcome == OTEL_OUTCOME_RETRY)
        return sl_write_batch_fail (batch, SL_WRITE_RETRY, 0, "%s", self->why);
      batch->done += k;
      if (outcome == OTEL_OUTCOME_DROP)
        batch->dropped += k;
    }
  return SL_WRITE_OK;
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
  g_free (self->endpoint);
  g_free (self->grpc_message);
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
  .capabilities = SL_CAP_WORKERS | SL_CAP_DISK_BUFFER | SL_CAP_BATCHES,
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
  { "tls", SL_BLOCK (OtelDestination, tls_node), NULL,
    "the TLS options (doc/tls.md, 8) that libcurl can do, as http() takes them" },
  { NULL }
};

static const SlDriverClass syslog_ng_otlp_class = {
  .kind = SL_DRIVER_DESTINATION,
  .name = "syslog-ng-otlp",
  .summary = "send messages with all their name-value pairs as syslog-ng 4 does between instances (OTLP/gRPC)",
  .options = syslog_ng_otlp_options,
  .defaults = (const gchar *const[]) { "flush-lines", "1000", NULL },
  .capabilities = SL_CAP_WORKERS | SL_CAP_DISK_BUFFER | SL_CAP_BATCHES,
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
