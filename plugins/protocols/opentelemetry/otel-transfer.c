/* SPDX-License-Identifier: GPL-2.0-or-later */
/* OTLP/HTTP: one request at a time on the writer's easy handle, which
 * keeps its connection between requests; workers() give more in flight.
 * (gRPC is not sent through libcurl: Debian's 7.88 fails the second
 * request on a reused HTTP/2 connection, "Error in the HTTP2 framing
 * layer", so it went one connection per request; otel-grpc-client.c.) */
#include "otel-destination.h"
#include "otel-request.h"
#include "core/version.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/io/tls-block-curl.h"

#include <stdlib.h>
#include <string.h>

/* a Retry-After longer than this is cut to it, so a stop is not held */
#define RETRY_AFTER_MAX_MS 30000

static size_t
collect_body (gchar *data, size_t size, size_t n, gpointer user_data)
{
  OtelDestination *self = user_data;
  /* a response is small; a receiver that sends more is not read past 1 MiB */
  if (self->response->len < 1024 * 1024)
    g_byte_array_append (self->response, (const guint8 *) data, (guint) (size * n));
  return size * n;
}

/* Headers: Retry-After is the one read. */
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
  if (g_ascii_strcasecmp (line, "retry-after") == 0)
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
  sl_tls_block_fill_curl (self->tls, e);
}

/* Sends self->body and reads the answer; *retry_after_ms the wait the
 * receiver asked for (0: none). A failure leaves why in self->why. */
static OtelOutcome
send_request (OtelDestination *self, gint64 *retry_after_ms)
{
  CURL *e = self->easy;
  g_byte_array_set_size (self->response, 0);
  self->retry_after_s = 0;
  curl_easy_setopt (e, CURLOPT_POSTFIELDS, self->body->data);
  curl_easy_setopt (e, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t) self->body->len);
  CURLcode rc = curl_easy_perform (e);
  sl_counter_add (self->requests, 1);
  *retry_after_ms = self->retry_after_s > 0 ? self->retry_after_s * 1000 : 0;
  if (rc != CURLE_OK)
    return otel_request_failed (self, OTEL_OUTCOME_RETRY, curl_easy_strerror (rc));
  glong status = 0;
  curl_easy_getinfo (e, CURLINFO_RESPONSE_CODE, &status);
  g_autofree gchar *why = NULL;
  if (status == 429 || status == 502 || status == 503 || status == 504)
    {
      why = g_strdup_printf ("HTTP %ld", status);
      return otel_request_failed (self, OTEL_OUTCOME_RETRY, why);
    }
  if (status < 200 || status >= 300)
    {
      why = g_strdup_printf ("HTTP %ld", status);
      return otel_request_failed (self, OTEL_OUTCOME_DROP, why);
    }
  otel_request_partial_success (self, self->response->data, self->response->len);
  return OTEL_OUTCOME_ACCEPTED;
}

/* OTLP/HTTP: each request answered before the next; under
 * SL_CAP_ANSWERS its messages are sent and answered in the same call. */
SlWriteResult
otel_transfer_write (OtelDestination *self, SlWriteBatch *batch)
{
  while (batch->done < batch->n)
    {
      guint k = otel_encode (self->encoder, batch->msgs + batch->done, batch->n - batch->done,
                             (guint) self->batch_lines, (gsize) self->batch_bytes, self->records);
      if (!otel_request_frame (self, self->body))
        return sl_write_batch_fail (batch, SL_WRITE_ERROR, 0, _("the request body could not be compressed"));
      OtelOutcome outcome = OTEL_OUTCOME_RETRY;
      gint64 backoff = OTEL_BACKOFF_FIRST_MS;
      for (gint attempt = 0; attempt <= self->retries; attempt++)
        {
          gint64 retry_after_ms = 0;
          outcome = send_request (self, &retry_after_ms);
          if (outcome != OTEL_OUTCOME_RETRY || attempt == self->retries)
            break;
          sl_counter_add (self->retried, 1);
          if (!otel_request_back_off (retry_after_ms ? MIN (retry_after_ms, RETRY_AFTER_MAX_MS) : backoff))
            break;
          backoff = MIN (backoff * 2, OTEL_BACKOFF_MAX_MS);
        }
      if (outcome == OTEL_OUTCOME_RETRY)
        return sl_write_batch_fail (batch, SL_WRITE_RETRY, 0, "%s", self->why);
      batch->done += k;
      batch->answered += k;
      if (outcome == OTEL_OUTCOME_DROP)
        batch->dropped += k;
    }
  return SL_WRITE_OK;
}
