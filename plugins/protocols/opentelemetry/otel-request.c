/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "otel-request.h"
#include "core/route/destination.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "opentelemetry/proto/collector/logs/v1/logs_service.pb-c.h"

#include <string.h>
#include <zlib.h>

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

gboolean
otel_request_frame (OtelDestination *self, GByteArray *out)
{
  g_byte_array_set_size (out, 0);
  if (self->transport == OTEL_DEST_GRPC)
    g_byte_array_set_size (out, 5);
  if (self->compression ? !gzip (self->records, out)
                        : !g_byte_array_append (out, self->records->data, self->records->len))
    return FALSE;
  if (self->transport == OTEL_DEST_GRPC)
    {
      guint32 len = out->len - 5;
      guint8 prefix[5] = { self->compression ? 1 : 0, (guint8) (len >> 24), (guint8) (len >> 16),
                           (guint8) (len >> 8), (guint8) len };
      memcpy (out->data, prefix, 5);
    }
  return TRUE;
}

gboolean
otel_request_back_off (gint64 ms)
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

typedef Opentelemetry__Proto__Collector__Logs__V1__ExportLogsServiceResponse LogsResponse;

/* partial_success: the receiver took the request but refused some of
 * its records; sending them again would not change that (OTLP says not
 * to), so they are counted and logged, and the request is done. */
void
otel_request_partial_success (OtelDestination *self, const guint8 *data, gsize len)
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

OtelOutcome
otel_request_failed (OtelDestination *self, OtelOutcome outcome, const gchar *why)
{
  g_snprintf (self->why, sizeof self->why, _("the request to %s failed: %s"), self->endpoint, why);
  if (outcome == OTEL_OUTCOME_DROP)
    sl_log (SL_LOG_ERROR, _("%s: the receiver refused a request, its messages are dropped: %s"), self->super.id, why);
  return outcome;
}
