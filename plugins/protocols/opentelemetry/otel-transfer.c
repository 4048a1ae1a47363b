/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One request at a time on the writer's easy handle; workers() give more
 * in flight. OTLP/HTTP keeps its connection between requests. gRPC opens
 * one per request: Debian's libcurl (7.88) fails the second request on a
 * reused HTTP/2 connection ("Error in the HTTP2 framing layer", with
 * grpc-js's server and nghttp2's alike), and a request carries a whole
 * batch, so the handshake is paid once per batch-lines() records. */
#include "otel-destination.h"
#include "core/version.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/io/tls-block-curl.h"
#include "opentelemetry/proto/collector/logs/v1/logs_service.pb-c.h"

#include <stdlib.h>
#include <string.h>

typedef Opentelemetry__Proto__Collector__Logs__V1__ExportLogsServiceResponse LogsResponse;

static size_t
collect_body (gchar *data, size_t size, size_t n, gpointer user_data)
{
  OtelDestination *self = user_data;
  /* a response is small; a receiver that sends more is not read past 1 MiB */
  if (self->response->len < 1024 * 1024)
    g_byte_array_append (self->response, (const guint8 *) data, (guint) (size * n));
  return size * n;
}

/* Headers and, for gRPC, the trailers after the message: libcurl hands
 * both to this callback. */
static size_t
read_header (gchar *data, size_t size, size_t n, gpointer user_data)
{
  OtelDestination *self = user_data;
  gsize len = size * n;
  g_autofree gchar *line = g_strstrip (g_strndup (data, len));
  gchar *colon = strchr (line, ':');
  if (!colon)
    return len;
  *colon = '\0';
  const gchar *value = g_strstrip (colon + 1);
  if (g_ascii_strcasecmp (line, "grpc-status") == 0)
    self->grpc_status = atoi (value);
  else if (g_ascii_strcasecmp (line, "grpc-message") == 0)
    {
      g_free (self->grpc_message);
      self->grpc_message = g_uri_unescape_string (value, NULL);
    }
  else if (g_ascii_strcasecmp (line, "retry-after") == 0)
    self->retry_after_s = g_ascii_strtoll (value, NULL, 10);
  return len;
}

void
otel_transfer_setup (OtelDestination *self)
{
  CURL *e = self->easy;
  curl_easy_setopt (e, CURLOPT_URL, self->endpoint);
  curl_easy_setopt (e, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt (e, CURLOPT_POST, 1L);
  curl_easy_setopt (e, CURLOPT_HTTPHEADER, self->header_list);
  curl_easy_setopt (e, CURLOPT_USERAGENT, "sluice/" SL_VERSION);
  curl_easy_setopt (e, CURLOPT_TIMEOUT_MS, (long) self->timeout_ms);
  curl_easy_setopt (e, CURLOPT_WRITEFUNCTION, collect_body);
  curl_easy_setopt (e, CURLOPT_WRITEDATA, self);
  curl_easy_setopt (e, CURLOPT_HEADERFUNCTION, read_header);
  curl_easy_setopt (e, CURLOPT_HEADERDATA, self);
  if (self->transport == OTEL_DEST_GRPC)
    {
      curl_easy_setopt (e, CURLOPT_HTTP_VERSION,
                        g_str_has_prefix (self->endpoint, "https://") ? (long) CURL_HTTP_VERSION_2TLS
                                                                     : (long) CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE);
      curl_easy_setopt (e, CURLOPT_FORBID_REUSE, 1L);
    }
  sl_tls_block_fill_curl (self->tls, e);
}

/* partial_success: the receiver took the request but refused some of
 * its records; sending them again would not change that (OTLP says not
 * to), so they are counted and logged, and the request is done. */
static void
read_partial_success (OtelDestination *self, const guint8 *data, gsize len)
{
  LogsResponse *r = (LogsResponse *) protobuf_c_message_unpack (
    &opentelemetry__proto__collector__logs__v1__export_logs_service_response__descriptor, NULL, len, data);
  if (!r)
    return;
  if (r->partial_success && r->partial_success->rejected_log_records > 0)
    {
      sl_counter_add (self->rejected, r->partial_success->rejected_log_records);
      sl_log (SL_LOG_WARNING, _("%s: the receiver refused %" G_GINT64_FORMAT " records of a request: %s"),
              self->super.id, (gint64) r->partial_success->rejected_log_records,
              r->partial_success->error_message ? r->partial_success->error_message : "");
    }
  protobuf_c_message_free_unpacked (&r->base, NULL);
}

/* The OTLP specification's retryable gRPC codes: CANCELLED,
 * DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED, ABORTED, OUT_OF_RANGE,
 * UNAVAILABLE, DATA_LOSS */
static gboolean
grpc_retryable (gint status)
{
  return status == 1 || status == 4 || status == 8 || status == 10 || status == 11 || status == 14 || status == 15;
}

/* A retry's reason goes to the core, which logs the failure once; a
 * refused request is logged as its messages are dropped. */
static OtelOutcome
failed (OtelDestination *self, OtelOutcome outcome, const gchar *why)
{
  g_snprintf (self->why, sizeof self->why, _("the request to %s failed: %s"), self->endpoint, why);
  if (outcome == OTEL_OUTCOME_DROP)
    sl_log (SL_LOG_ERROR, _("%s: the receiver refused a request, its messages are dropped: %s"), self->super.id, why);
  return outcome;
}

OtelOutcome
otel_transfer_send (OtelDestination *self, gint64 *retry_after_ms)
{
  CURL *e = self->easy;
  g_byte_array_set_size (self->response, 0);
  self->grpc_status = -1;
  self->retry_after_s = 0;
  curl_easy_setopt (e, CURLOPT_POSTFIELDS, self->body->data);
  curl_easy_setopt (e, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t) self->body->len);
  CURLcode rc = curl_easy_perform (e);
  sl_counter_add (self->requests, 1);
  *retry_after_ms = self->retry_after_s > 0 ? self->retry_after_s * 1000 : 0;
  if (rc != CURLE_OK)
    return failed (self, OTEL_OUTCOME_RETRY, curl_easy_strerror (rc));
  glong status = 0;
  curl_easy_getinfo (e, CURLINFO_RESPONSE_CODE, &status);
  g_autofree gchar *why = NULL;
  if (self->transport == OTEL_DEST_GRPC)
    {
      if (status != 200 || self->grpc_status < 0)
        {
          why = g_strdup_printf ("HTTP %ld without a grpc-status", status);
          return failed (self, OTEL_OUTCOME_RETRY, why);
        }
      if (self->grpc_status != 0)
        {
          why = g_strdup_printf ("grpc-status %d: %s", self->grpc_status, self->grpc_message ? self->grpc_message : "");
          return failed (self, grpc_retryable (self->grpc_status) ? OTEL_OUTCOME_RETRY : OTEL_OUTCOME_DROP, why);
        }
      if (self->response->len >= 5 && self->response->data[0] == 0)
        read_partial_success (self, self->response->data + 5, self->response->len - 5);
    }
  else
    {
      if (status == 429 || status == 502 || status == 503 || status == 504)
        {
          why = g_strdup_printf ("HTTP %ld", status);
          return failed (self, OTEL_OUTCOME_RETRY, why);
        }
      if (status < 200 || status >= 300)
        {
          why = g_strdup_printf ("HTTP %ld", status);
          return failed (self, OTEL_OUTCOME_DROP, why);
        }
      read_partial_success (self, self->response->data, self->response->len);
    }
  return OTEL_OUTCOME_ACCEPTED;
}
