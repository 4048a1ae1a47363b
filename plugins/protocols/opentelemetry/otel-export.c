/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "otel-export.h"
#include "otel-json.h"
#include "otel-records.h"
#include "core/i18n.h"
#include "core/internal.h"

#include <string.h>

/* protobuf-c's allocations for one request come from a few large blocks
 * freed together: unpacking a request of 1000 records makes thousands of
 * small allocations (each record, its body, attributes and strings), and
 * malloc and free of them took about half of the receiver's time. */
#define ARENA_BLOCK (256 * 1024)

typedef struct
{
  GPtrArray *blocks;
  guint8 *at;
  gsize left;
} Arena;

static void *
arena_alloc (void *data, size_t size)
{
  Arena *a = data;
  size = (size + 15) & ~(size_t) 15;
  if (size > a->left)
    {
      gsize n = MAX (size, ARENA_BLOCK);
      a->at = g_malloc (n);
      a->left = n;
      g_ptr_array_add (a->blocks, a->at);
    }
  void *p = a->at;
  a->at += size;
  a->left -= size;
  return p;
}

static void
arena_free (void *data, void *p)
{
}

static void
say (GByteArray *response, const gchar *text)
{
  g_byte_array_set_size (response, 0);
  g_byte_array_append (response, (const guint8 *) text, (guint) strlen (text));
}

OtelExportStatus
otel_export_logs (OtelSource *self, SlWindow *window, const gchar *peer, OtelEncoding encoding,
                  const guint8 *data, gsize len, GByteArray *response)
{
  const ProtobufCMessageDescriptor *desc
    = &opentelemetry__proto__collector__logs__v1__export_logs_service_request__descriptor;
  ProtobufCMessage *m;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) blocks = g_ptr_array_new_with_free_func (g_free);
  Arena arena = { .blocks = blocks };
  ProtobufCAllocator allocator = { .alloc = arena_alloc, .free = arena_free, .allocator_data = &arena };
  if (encoding == OTEL_ENCODING_JSON)
    m = otel_json_unpack (desc, (const gchar *) data, len, &error);
  else
    m = protobuf_c_message_unpack (desc, &allocator, len, data);
  if (!m)
    {
      sl_source_count (self->source, "errors", 1);
      say (response, error ? error->message : _("not an OTLP ExportLogsServiceRequest"));
      return OTEL_EXPORT_BAD_REQUEST;
    }
  gsize records = 0;
  gboolean safe = otel_records_deliver (self->source, window, peer, (const OtelLogsRequest *) m, &records);
  if (encoding == OTEL_ENCODING_JSON)
    protobuf_c_message_free_unpacked (m, NULL);
  if (!safe)
    {
      say (response, _("the receiver is stopping; send again"));
      return OTEL_EXPORT_UNAVAILABLE;
    }
  /* an empty response: nothing rejected, so no partial_success */
  g_byte_array_set_size (response, 0);
  if (encoding == OTEL_ENCODING_JSON)
    say (response, "{}");
  return OTEL_EXPORT_OK;
}
