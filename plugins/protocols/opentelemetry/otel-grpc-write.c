/* SPDX-License-Identifier: GPL-2.0-or-later */
/* OTLP/gRPC's write(): one connection (otel-grpc-client.c) that lives
 * across writes, a call of up to batch-lines() records per stream, many
 * calls in flight (SL_CAP_ANSWERS). write() submits calls for its batch
 * while the server allows streams, takes the answers that came and
 * reports the run answered from the oldest; the core keeps the messages
 * in flight until then (max-in-flight() bounds them) and calls write()
 * with no messages to wait for an answer. A retryable answer sends its
 * call again, retries() times with back-off, on the same connection; then
 * the write fails with RETRY. A lost connection or a call that takes
 * longer than timeout() fails the write with NOT_CONNECTED. Either way
 * the core takes back every message not answered and sends it again, in
 * order, once write() can go on: a request the receiver took but whose
 * answer was lost arrives twice, none is lost. */
#include "otel-destination.h"
#include "otel-request.h"
#include "core/i18n.h"
#include "core/internal.h"

/* calls on the connection at once, whatever the server allows */
#define MAX_CALLS 64

/* The OTLP specification's retryable gRPC codes: CANCELLED,
 * DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED, ABORTED, OUT_OF_RANGE,
 * UNAVAILABLE, DATA_LOSS */
static gboolean
retryable (gint status)
{
  return status == 1 || status == 4 || status == 8 || status == 10 || status == 11 || status == 14 || status == 15;
}

/* What a closed call's answer means; why says it, unless accepted. */
static OtelOutcome
outcome_of (const OtelGrpcCall *call, gchar *why, gsize size)
{
  if (call->http_status != 200 || call->grpc_status < 0)
    {
      g_snprintf (why, size, "HTTP %d without a grpc-status", call->http_status);
      return OTEL_OUTCOME_RETRY;
    }
  if (call->grpc_status == 0)
    return OTEL_OUTCOME_ACCEPTED;
  g_snprintf (why, size, "grpc-status %d: %s", call->grpc_status, call->grpc_message ? call->grpc_message : "");
  return retryable (call->grpc_status) ? OTEL_OUTCOME_RETRY : OTEL_OUTCOME_DROP;
}

gboolean
otel_grpc_open (OtelDestination *self, GError **error)
{
  if (self->client)
    return TRUE;
  self->client = otel_grpc_client_connect (self->host, self->port, self->grpc_tls, OTEL_GRPC_LOGS_PATH,
                                           (const gchar *const *) self->grpc_headers->pdata,
                                           (gint) self->timeout_ms, error);
  return self->client != NULL;
}

static void
call_put_back (OtelDestination *self, OtelGrpcCall *call)
{
  otel_grpc_call_reset (call);
  g_queue_push_tail (&self->spare, call);
}

/* Forgets the connection and every call on it: the core sends their
 * messages again. */
void
otel_grpc_close (OtelDestination *self)
{
  OtelGrpcCall *call;
  while ((call = g_queue_pop_head (&self->calls)))
    call_put_back (self, call);
  g_clear_pointer (&self->client, otel_grpc_client_free);
}

static SlWriteResult
broke (OtelDestination *self, SlWriteBatch *batch, const gchar *why)
{
  sl_counter_add (self->retried, self->calls.length);
  sl_write_batch_fail (batch, SL_WRITE_NOT_CONNECTED, 0, _("the gRPC connection to %s broke: %s"), self->endpoint,
                       why);
  otel_grpc_close (self);
  return SL_WRITE_NOT_CONNECTED;
}

/* Calls for msgs[done..n) while the server allows streams. */
static gboolean
submit (OtelDestination *self, SlWriteBatch *batch)
{
  guint room = otel_grpc_client_room (self->client, MAX_CALLS);
  while (batch->done < batch->n && self->calls.length < room)
    {
      OtelGrpcCall *call = g_queue_pop_head (&self->spare);
      if (!call)
        call = otel_grpc_call_new ();
      call->messages = otel_encode (self->encoder, batch->msgs + batch->done, batch->n - batch->done,
                                    (guint) self->batch_lines, (gsize) self->batch_bytes, self->records);
      call->attempts = 0;
      g_queue_push_tail (&self->calls, call);
      if (!otel_request_frame (self, call->body) || !otel_grpc_client_submit (self->client, call))
        return FALSE;
      sl_counter_add (self->requests, 1);
      batch->done += call->messages;
    }
  return TRUE;
}

/* Sends again, after a back-off, the calls a retryable answer closed;
 * RETRY once one of them has had its retries(). */
static SlWriteResult
retry (OtelDestination *self, SlWriteBatch *batch)
{
  gint most = -1;
  for (GList *l = self->calls.head; l; l = l->next)
    {
      OtelGrpcCall *call = l->data;
      gchar why[SL_WRITE_REASON_MAX];
      if (call->closed && outcome_of (call, why, sizeof why) == OTEL_OUTCOME_RETRY && call->attempts >= most)
        {
          most = call->attempts;
          otel_request_failed (self, OTEL_OUTCOME_RETRY, why);
        }
    }
  if (most < 0)
    return SL_WRITE_OK;
  if (most >= self->retries)
    {
      sl_write_batch_fail (batch, SL_WRITE_RETRY, 0, "%s", self->why);
      otel_grpc_close (self);
      return SL_WRITE_RETRY;
    }
  gint64 ms = OTEL_BACKOFF_FIRST_MS << MIN (most, 6);
  if (!otel_request_back_off (MIN (ms, OTEL_BACKOFF_MAX_MS)))
    return broke (self, batch, _("stopping"));
  for (GList *l = self->calls.head; l; l = l->next)
    {
      OtelGrpcCall *call = l->data;
      gchar why[SL_WRITE_REASON_MAX];
      if (!call->closed || outcome_of (call, why, sizeof why) != OTEL_OUTCOME_RETRY)
        continue;
      call->attempts++;
      sl_counter_add (self->retried, 1);
      sl_counter_add (self->requests, 1);
      if (!otel_grpc_client_submit (self->client, call))
        return broke (self, batch, otel_grpc_client_failure (self->client));
    }
  return SL_WRITE_OK;
}

/* The run of answered calls from the oldest leaves the flight. */
static void
settle (OtelDestination *self, SlWriteBatch *batch)
{
  OtelGrpcCall *call;
  while ((call = g_queue_peek_head (&self->calls)) && call->closed)
    {
      gchar why[SL_WRITE_REASON_MAX];
      OtelOutcome outcome = outcome_of (call, why, sizeof why);
      if (outcome == OTEL_OUTCOME_RETRY)
        return;
      g_queue_pop_head (&self->calls);
      batch->answered += call->messages;
      if (outcome == OTEL_OUTCOME_DROP)
        {
          otel_request_failed (self, outcome, why);
          batch->dropped += call->messages;
        }
      else if (call->response->len > 5 && call->response->data[0] == 0)
        otel_request_partial_success (self, call->response->data + 5, call->response->len - 5);
      call_put_back (self, call);
    }
}

SlWriteResult
otel_grpc_write (OtelDestination *self, SlWriteBatch *batch)
{
  g_autoptr (GError) error = NULL;
  if (!otel_grpc_open (self, &error))
    return sl_write_batch_fail (batch, SL_WRITE_NOT_CONNECTED, 0, "%s", error->message);
  for (;;)
    {
      if (!submit (self, batch))
        return broke (self, batch, otel_grpc_client_failure (self->client));
      /* a call with nothing new, or with more than the streams take, waits for an answer */
      gboolean wait = batch->done < batch->n || (!batch->n && !batch->answered);
      OtelGrpcCall *oldest = g_queue_peek_head (&self->calls);
      if (!oldest)
        return SL_WRITE_OK;
      gint64 deadline = oldest->since + self->timeout_ms * 1000;
      OtelGrpcIo io = otel_grpc_client_pump (self->client, wait, deadline);
      if (io == OTEL_GRPC_OK && !oldest->closed && g_get_monotonic_time () >= deadline)
        io = OTEL_GRPC_TIMEOUT;
      if (io == OTEL_GRPC_TIMEOUT)
        return broke (self, batch, _("no answer in timeout()"));
      if (io != OTEL_GRPC_OK)
        return broke (self, batch, io == OTEL_GRPC_STOPPED ? _("stopping") : otel_grpc_client_failure (self->client));
      SlWriteResult r = retry (self, batch);
      if (r != SL_WRITE_OK)
        return r;
      settle (self, batch);
      if (!wait || (batch->done == batch->n && (batch->n || batch->answered)))
        return SL_WRITE_OK;
    }
}
