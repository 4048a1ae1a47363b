/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The three levels around the records (request, ResourceLogs, ScopeLogs)
 * are written here as protobuf's length-delimited fields, so that a
 * record, resource or scope received as OTLP is spliced in as the bytes
 * it came as, without unpacking and packing it again; what is made from a
 * syslog message is packed by protobuf-c. */
#include "otel-encode.h"
#include "otel-fields.h"
#include "otel-syslog-ng.h"
#include "core/version.h"
#include "core/i18n.h"
#include "core/message/priority.h"
#include "opentelemetry/proto/collector/logs/v1/logs_service.pb-c.h"

#include <string.h>

typedef Opentelemetry__Proto__Common__V1__AnyValue AnyValue;
typedef Opentelemetry__Proto__Common__V1__KeyValue KeyValue;

/* field numbers of logs.proto */
#define REQUEST_RESOURCE_LOGS 1
#define RESOURCE_LOGS_RESOURCE 1
#define RESOURCE_LOGS_SCOPE_LOGS 2
#define RESOURCE_LOGS_SCHEMA_URL 3
#define SCOPE_LOGS_SCOPE 1
#define SCOPE_LOGS_LOG_RECORDS 2
#define SCOPE_LOGS_SCHEMA_URL 3
#define WIRE_LEN 2

#define MAX_ATTRIBUTES 64

struct _OtelEncoder
{
  SlHandle raw_log, raw_resource, raw_scope, raw_resource_schema, raw_scope_schema;
  OtelPart resource, scope;      /* of the message being encoded */
  OtelPart open_resource, open_scope; /* of the ResourceLogs and ScopeLogs being written */
  GByteArray *record;
  GByteArray *resource_logs;     /* the open ResourceLogs' body */
  GByteArray *scope_logs;        /* the open ScopeLogs' body */
  GByteArray *syslog_scope;      /* the scope of mapped syslog messages, packed once */
  OtelFields *fields;            /* logs made from .otel.* fields */
  gboolean syslog_ng;            /* syslog-ng-otlp(): every message as syslog-ng sends it */
  GString *text;                 /* scratch for NUL-terminated copies */
};

static void
part_init (OtelPart *p)
{
  p->bytes = g_byte_array_new ();
  p->schema = g_string_new (NULL);
}

static void
part_clear (OtelPart *p)
{
  g_byte_array_unref (p->bytes);
  g_string_free (p->schema, TRUE);
}

static gboolean
part_equal (const OtelPart *a, const OtelPart *b)
{
  return a->bytes->len == b->bytes->len
         && (!a->bytes->len || memcmp (a->bytes->data, b->bytes->data, a->bytes->len) == 0)
         && g_string_equal (a->schema, b->schema);
}

static void
part_copy (OtelPart *to, const OtelPart *from)
{
  g_byte_array_set_size (to->bytes, 0);
  g_byte_array_append (to->bytes, from->bytes->data, from->bytes->len);
  g_string_assign (to->schema, from->schema->str);
}

static void
put_varint (GByteArray *out, guint64 v)
{
  guint8 b[10];
  guint n = 0;
  do
    {
      b[n] = (guint8) (v & 0x7f);
      v >>= 7;
      if (v)
        b[n] |= 0x80;
      n++;
    }
  while (v);
  g_byte_array_append (out, b, n);
}

static void
put_field (GByteArray *out, guint field, const guint8 *data, gsize len)
{
  put_varint (out, (guint64) field << 3 | WIRE_LEN);
  put_varint (out, len);
  g_byte_array_append (out, data, (guint) len);
}

OtelEncoder *
otel_encoder_new (const gchar *id, gboolean syslog_ng)
{
  OtelEncoder *enc = g_new0 (OtelEncoder, 1);
  enc->syslog_ng = syslog_ng;
  enc->fields = otel_fields_new (id);
  enc->raw_log = sl_field_handle (".otel_raw.log");
  enc->raw_resource = sl_field_handle (".otel_raw.resource");
  enc->raw_scope = sl_field_handle (".otel_raw.scope");
  enc->raw_resource_schema = sl_field_handle (".otel_raw.resource_schema_url");
  enc->raw_scope_schema = sl_field_handle (".otel_raw.scope_schema_url");
  part_init (&enc->resource);
  part_init (&enc->scope);
  part_init (&enc->open_resource);
  part_init (&enc->open_scope);
  enc->record = g_byte_array_new ();
  enc->resource_logs = g_byte_array_new ();
  enc->scope_logs = g_byte_array_new ();
  enc->text = g_string_new (NULL);
  Opentelemetry__Proto__Common__V1__InstrumentationScope scope = OPENTELEMETRY__PROTO__COMMON__V1__INSTRUMENTATION_SCOPE__INIT;
  scope.name = syslog_ng ? OTEL_SYSLOG_NG_SCOPE : "sluice";
  scope.version = SL_VERSION;
  enc->syslog_scope = g_byte_array_sized_new ((guint) protobuf_c_message_get_packed_size (&scope.base));
  g_byte_array_set_size (enc->syslog_scope, (guint) protobuf_c_message_get_packed_size (&scope.base));
  protobuf_c_message_pack (&scope.base, enc->syslog_scope->data);
  return enc;
}

void
otel_encoder_free (OtelEncoder *enc)
{
  part_clear (&enc->resource);
  part_clear (&enc->scope);
  part_clear (&enc->open_resource);
  part_clear (&enc->open_scope);
  g_byte_array_unref (enc->record);
  g_byte_array_unref (enc->resource_logs);
  g_byte_array_unref (enc->scope_logs);
  g_byte_array_unref (enc->syslog_scope);
  g_string_free (enc->text, TRUE);
  otel_fields_free (enc->fields);
  g_free (enc);
}

static void
take_field (const SlMessage *msg, SlHandle h, GByteArray *to)
{
  gsize len = 0;
  const gchar *v = sl_message_get (msg, h, &len);
  g_byte_array_set_size (to, 0);
  if (v)
    g_byte_array_append (to, (const guint8 *) v, (guint) len);
}

static void
take_text (const SlMessage *msg, SlHandle h, GString *to)
{
  gsize len = 0;
  const gchar *v = sl_message_get (msg, h, &len);
  g_string_truncate (to, 0);
  if (v)
    g_string_append_len (to, v, (gssize) len);
}

/* NUL-terminated copies of a message's values, kept until the record is packed */
typedef struct
{
  GPtrArray *strings;
  KeyValue kv[MAX_ATTRIBUTES];
  AnyValue values[MAX_ATTRIBUTES];
  KeyValue *kvp[MAX_ATTRIBUTES];
  guint n;
} Attributes;

static gchar *
keep (Attributes *a, const gchar *v, gsize len)
{
  gchar *s = g_strndup (v, len);
  g_ptr_array_add (a->strings, s);
  return s;
}

static void
add_string (Attributes *a, const gchar *key, const gchar *v, gsize len)
{
  if (a->n == MAX_ATTRIBUTES || !v || !len)
    return;
  KeyValue *kv = &a->kv[a->n];
  AnyValue *val = &a->values[a->n];
  opentelemetry__proto__common__v1__key_value__init (kv);
  opentelemetry__proto__common__v1__any_value__init (val);
  kv->key = (gchar *) key;
  val->value_case = OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_STRING_VALUE;
  val->string_value = keep (a, v, len);
  kv->value = val;
  a->kvp[a->n++] = kv;
}

static void
add_field (Attributes *a, const gchar *key, const SlMessage *msg, SlHandle h)
{
  gsize len = 0;
  const gchar *v = sl_message_get (msg, h, &len);
  add_string (a, key, v, len);
}

/* .SDATA.ID.PARAM becomes the attribute ID.PARAM */
static gboolean
add_sdata (SlHandle h, const gchar *value, gsize len, gpointer data)
{
  Attributes *a = data;
  const gchar *name = sl_field_name (h);
  if (name && g_str_has_prefix (name, ".SDATA."))
    add_string (a, name + 7, value, len);
  return a->n < MAX_ATTRIBUTES;
}

/* syslog-ng's mapping of syslog's severities onto OTLP's */
static const Opentelemetry__Proto__Logs__V1__SeverityNumber severity_numbers[8] = {
  OPENTELEMETRY__PROTO__LOGS__V1__SEVERITY_NUMBER__SEVERITY_NUMBER_FATAL,
  OPENTELEMETRY__PROTO__LOGS__V1__SEVERITY_NUMBER__SEVERITY_NUMBER_FATAL2,
  OPENTELEMETRY__PROTO__LOGS__V1__SEVERITY_NUMBER__SEVERITY_NUMBER_FATAL3,
  OPENTELEMETRY__PROTO__LOGS__V1__SEVERITY_NUMBER__SEVERITY_NUMBER_ERROR,
  OPENTELEMETRY__PROTO__LOGS__V1__SEVERITY_NUMBER__SEVERITY_NUMBER_WARN,
  OPENTELEMETRY__PROTO__LOGS__V1__SEVERITY_NUMBER__SEVERITY_NUMBER_INFO2,
  OPENTELEMETRY__PROTO__LOGS__V1__SEVERITY_NUMBER__SEVERITY_NUMBER_INFO,
  OPENTELEMETRY__PROTO__LOGS__V1__SEVERITY_NUMBER__SEVERITY_NUMBER_DEBUG,
};

static void
pack_into (const ProtobufCMessage *m, GByteArray *out)
{
  g_byte_array_set_size (out, (guint) protobuf_c_message_get_packed_size (m));
  protobuf_c_message_pack (m, out->data);
}

/* A syslog message: its record, and its resource from HOST and PROGRAM */
static void
map_syslog (OtelEncoder *enc, const SlMessage *msg)
{
  Attributes a = { .strings = g_ptr_array_new_with_free_func (g_free) };
  add_field (&a, "host.name", msg, SL_F_HOST);
  add_field (&a, "service.name", msg, SL_F_PROGRAM);
  Opentelemetry__Proto__Resource__V1__Resource resource = OPENTELEMETRY__PROTO__RESOURCE__V1__RESOURCE__INIT;
  resource.n_attributes = a.n;
  resource.attributes = a.kvp;
  pack_into (&resource.base, enc->resource.bytes);
  g_string_truncate (enc->resource.schema, 0);
  g_byte_array_set_size (enc->scope.bytes, 0);
  g_byte_array_append (enc->scope.bytes, enc->syslog_scope->data, enc->syslog_scope->len);
  g_string_truncate (enc->scope.schema, 0);

  a.n = 0;
  add_field (&a, "process.pid", msg, SL_F_PID);
  add_field (&a, "syslog.msgid", msg, SL_F_MSGID);
  guint facility = SL_PRI_FACILITY (msg->pri);
  if (facility < SL_FACILITY_COUNT && sl_facility_names[facility])
    add_string (&a, "syslog.facility", sl_facility_names[facility], strlen (sl_facility_names[facility]));
  sl_message_foreach_dynamic (msg, add_sdata, &a);

  Opentelemetry__Proto__Logs__V1__LogRecord record = OPENTELEMETRY__PROTO__LOGS__V1__LOG_RECORD__INIT;
  record.time_unix_nano = (guint64) msg->stamp.usec * 1000;
  record.observed_time_unix_nano = (guint64) msg->recvd.usec * 1000;
  record.severity_number = severity_numbers[SL_PRI_SEVERITY (msg->pri)];
  record.severity_text = (gchar *) sl_level_names[SL_PRI_SEVERITY (msg->pri)];
  AnyValue body = OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__INIT;
  gsize len = 0;
  const gchar *text = sl_message_get (msg, SL_F_MESSAGE, &len);
  body.value_case = OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_STRING_VALUE;
  body.string_value = keep (&a, text ? text : "", text ? len : 0);
  record.body = &body;
  record.n_attributes = a.n;
  record.attributes = a.kvp;
  pack_into (&record.base, enc->record);
  g_ptr_array_unref (a.strings);
}

/* A log as syslog-ng 4.8 sends one (DestWorker::insert()): its record,
 * resource and scope each as received (.otel_raw.*) when the message has
 * it, else made from its .otel.* fields */
static void
take_log (OtelEncoder *enc, const SlMessage *msg)
{
  gboolean raw_log = sl_message_has (msg, enc->raw_log), raw_resource = sl_message_has (msg, enc->raw_resource),
           raw_scope = sl_message_has (msg, enc->raw_scope);
  otel_fields_build (enc->fields, msg, raw_log ? NULL : enc->record, raw_resource ? NULL : &enc->resource,
                     raw_scope ? NULL : &enc->scope);
  if (raw_log)
    take_field (msg, enc->raw_log, enc->record);
  if (raw_resource)
    {
      take_field (msg, enc->raw_resource, enc->resource.bytes);
      take_text (msg, enc->raw_resource_schema, enc->resource.schema);
    }
  if (raw_scope)
    {
      take_field (msg, enc->raw_scope, enc->scope.bytes);
      take_text (msg, enc->raw_scope_schema, enc->scope.schema);
    }
}

static void
close_scope (OtelEncoder *enc)
{
  if (enc->open_scope.schema->len)
    put_field (enc->scope_logs, SCOPE_LOGS_SCHEMA_URL, (const guint8 *) enc->open_scope.schema->str,
               enc->open_scope.schema->len);
  put_field (enc->resource_logs, RESOURCE_LOGS_SCOPE_LOGS, enc->scope_logs->data, enc->scope_logs->len);
  g_byte_array_set_size (enc->scope_logs, 0);
}

static void
close_resource (OtelEncoder *enc, GByteArray *out)
{
  close_scope (enc);
  if (enc->open_resource.schema->len)
    put_field (enc->resource_logs, RESOURCE_LOGS_SCHEMA_URL, (const guint8 *) enc->open_resource.schema->str,
               enc->open_resource.schema->len);
  put_field (out, REQUEST_RESOURCE_LOGS, enc->resource_logs->data, enc->resource_logs->len);
  g_byte_array_set_size (enc->resource_logs, 0);
}

guint
otel_encode (OtelEncoder *enc, SlMessage *const *msgs, guint n, guint max_lines, gsize max_bytes, GByteArray *out)
{
  g_byte_array_set_size (out, 0);
  g_byte_array_set_size (enc->resource_logs, 0);
  g_byte_array_set_size (enc->scope_logs, 0);
  gboolean open = FALSE;
  guint taken = 0;
  gsize bytes = 0;
  for (; taken < n && taken < max_lines; taken++)
    {
      const SlMessage *msg = msgs[taken];
      if (enc->syslog_ng)
        {
          otel_syslog_ng_record (msg, enc->record);
          g_byte_array_set_size (enc->resource.bytes, 0);
          g_string_truncate (enc->resource.schema, 0);
          g_byte_array_set_size (enc->scope.bytes, 0);
          g_byte_array_append (enc->scope.bytes, enc->syslog_scope->data, enc->syslog_scope->len);
          g_string_truncate (enc->scope.schema, 0);
        }
      else if (otel_fields_is_log (enc->fields, msg))
        take_log (enc, msg);
      else
        map_syslog (enc, msg);
      bytes += enc->record->len;
      if (taken && max_bytes && bytes > max_bytes)
        break;
      if (!open || !part_equal (&enc->resource, &enc->open_resource))
        {
          if (open)
            close_resource (enc, out);
          part_copy (&enc->open_resource, &enc->resource);
          put_field (enc->resource_logs, RESOURCE_LOGS_RESOURCE, enc->resource.bytes->data, enc->resource.bytes->len);
          part_copy (&enc->open_scope, &enc->scope);
          put_field (enc->scope_logs, SCOPE_LOGS_SCOPE, enc->scope.bytes->data, enc->scope.bytes->len);
          open = TRUE;
        }
      else if (!part_equal (&enc->scope, &enc->open_scope))
        {
          close_scope (enc);
          part_copy (&enc->open_scope, &enc->scope);
          put_field (enc->scope_logs, SCOPE_LOGS_SCOPE, enc->scope.bytes->data, enc->scope.bytes->len);
        }
      put_field (enc->scope_logs, SCOPE_LOGS_LOG_RECORDS, enc->record->data, enc->record->len);
    }
  if (open)
    close_resource (enc, out);
  return taken;
}
