/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Each LogRecord becomes a message named as syslog-ng 4's opentelemetry()
 * source and parser name them: the body is MESSAGE and .otel.log.body,
 * the record's, the resource's and the scope's attributes are fields
 * under .otel.log.attributes., .otel.resource.attributes. and
 * .otel.scope.attributes., severity and times are fields and the
 * message's pri and stamps. Values are text: numbers in decimal, bools
 * as true/false, bytes in base64 and trace and span ids in hex (as
 * OTLP/JSON writes them), arrays and key-value lists as JSON, but an
 * array of strings alone as a list; an attribute is typed as syslog-ng 4
 * types it (an int, a double, a boolean, a list, null).
 *
 * The record, its resource and its scope are also kept as received (their
 * protobuf encoding, with the schema URLs) in .otel_raw.*, as syslog-ng
 * keeps them, so that opentelemetry() and syslog-ng-otlp() destinations
 * send them on intact. */
#include "otel-records.h"
#include "core/internal.h"
#include "core/message/list-text.h"

#include <arpa/inet.h>
#include <jansson.h>
#include <string.h>

typedef Opentelemetry__Proto__Common__V1__AnyValue OtelAnyValue;
typedef Opentelemetry__Proto__Common__V1__KeyValue OtelKeyValue;
typedef Opentelemetry__Proto__Logs__V1__LogRecord OtelLogRecord;
typedef Opentelemetry__Proto__Logs__V1__ResourceLogs OtelResourceLogs;
typedef Opentelemetry__Proto__Logs__V1__ScopeLogs OtelScopeLogs;

#define POST_BATCH 256
/* syslog's facility for what OTLP sends, as syslog-ng gives it */
#define OTEL_FACILITY 1

static json_t *any_to_json (const OtelAnyValue *v);

static json_t *
kvlist_to_json (OtelKeyValue **kvs, gsize n)
{
  json_t *obj = json_object ();
  for (gsize i = 0; i < n; i++)
    json_object_set_new (obj, kvs[i]->key, any_to_json (kvs[i]->value));
  return obj;
}

static json_t *
any_to_json (const OtelAnyValue *v)
{
  if (!v)
    return json_null ();
  switch (v->value_case)
    {
    case OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_STRING_VALUE:
      return json_string (v->string_value);
    case OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_BOOL_VALUE:
      return json_boolean (v->bool_value);
    case OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_INT_VALUE:
      return json_integer (v->int_value);
    case OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_DOUBLE_VALUE:
      return json_real (v->double_value);
    case OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_BYTES_VALUE:
      {
        g_autofree gchar *b64 = g_base64_encode (v->bytes_value.data, v->bytes_value.len);
        return json_string (b64);
      }
    case OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_ARRAY_VALUE:
      {
        json_t *a = json_array ();
        for (gsize i = 0; v->array_value && i < v->array_value->n_values; i++)
          json_array_append_new (a, any_to_json (v->array_value->values[i]));
        return a;
      }
    case OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_KVLIST_VALUE:
      return v->kvlist_value ? kvlist_to_json (v->kvlist_value->values, v->kvlist_value->n_values)
                             : json_object ();
    default:
      return json_null ();
    }
}

/* The value as text into out (emptied first). */
static void
render_any (const OtelAnyValue *v, GString *out)
{
  g_string_truncate (out, 0);
  if (!v)
    return;
  switch (v->value_case)
    {
    case OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_STRING_VALUE:
      g_string_append (out, v->string_value);
      return;
    case OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_BOOL_VALUE:
      g_string_append (out, v->bool_value ? "true" : "false");
      return;
    case OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_INT_VALUE:
      g_string_append_printf (out, "%" G_GINT64_FORMAT, (gint64) v->int_value);
      return;
    case OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_DOUBLE_VALUE:
      {
        /* the shortest text that reads back as the same double: 0.1, not 0.10000000000000001 */
        gchar buf[G_ASCII_DTOSTR_BUF_SIZE];
        for (gint digits = 15; digits <= 17; digits++)
          {
            gchar format[8];
            g_snprintf (format, sizeof format, "%%.%dg", digits);
            g_ascii_formatd (buf, sizeof buf, format, v->double_value);
            if (g_ascii_strtod (buf, NULL) == v->double_value)
              break;
          }
        g_string_append (out, buf);
        return;
      }
    case OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_BYTES_VALUE:
      {
        g_autofree gchar *b64 = g_base64_encode (v->bytes_value.data, v->bytes_value.len);
        g_string_append (out, b64);
        return;
      }
    case OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_ARRAY_VALUE:
    case OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_KVLIST_VALUE:
      {
        json_t *j = any_to_json (v);
        gchar *text = json_dumps (j, JSON_COMPACT | JSON_ENCODE_ANY);
        g_string_append (out, text);
        free (text);
        json_decref (j);
        return;
      }
    default:
      return;
    }
}

/* What a record's message is made of, for fill() */
typedef struct
{
  const OtelResourceLogs *resource;
  const OtelScopeLogs *scope;
  const OtelLogRecord *record;
  const gchar *peer;
  GString *name;
  GString *value;
  GByteArray *raw_resource;  /* packed once per resource, once per scope */
  GByteArray *raw_scope;
  GByteArray *raw_record;
} RecordContext;

typedef enum
{
  F_OTEL_TYPE,
  F_OTEL_RESOURCE_DROPPED_ATTRIBUTES_COUNT,
  F_OTEL_RESOURCE_SCHEMA_URL,
  F_OTEL_SCOPE_NAME,
  F_OTEL_SCOPE_VERSION,
  F_OTEL_SCOPE_DROPPED_ATTRIBUTES_COUNT,
  F_OTEL_SCOPE_SCHEMA_URL,
  F_OTEL_LOG_TIME_UNIX_NANO,
  F_OTEL_LOG_OBSERVED_TIME_UNIX_NANO,
  F_OTEL_LOG_SEVERITY_NUMBER,
  F_OTEL_LOG_SEVERITY_TEXT,
  F_OTEL_LOG_DROPPED_ATTRIBUTES_COUNT,
  F_OTEL_LOG_FLAGS,
  F_OTEL_LOG_TRACE_ID,
  F_OTEL_LOG_SPAN_ID,
  F_OTEL_LOG_EVENT_NAME,
  F_OTEL_RAW_TYPE,
  F_OTEL_RAW_LOG,
  F_OTEL_RAW_RESOURCE,
  F_OTEL_RAW_SCOPE,
  F_OTEL_RAW_RESOURCE_SCHEMA_URL,
  F_OTEL_RAW_SCOPE_SCHEMA_URL,
  F_OTEL_LOG_BODY,
  F_COUNT
} Field;

static const gchar *const field_names[F_COUNT] = {
  [F_OTEL_TYPE] = ".otel.type",
  [F_OTEL_RESOURCE_DROPPED_ATTRIBUTES_COUNT] = ".otel.resource.dropped_attributes_count",
  [F_OTEL_RESOURCE_SCHEMA_URL] = ".otel.resource.schema_url",
  [F_OTEL_SCOPE_NAME] = ".otel.scope.name",
  [F_OTEL_SCOPE_VERSION] = ".otel.scope.version",
  [F_OTEL_SCOPE_DROPPED_ATTRIBUTES_COUNT] = ".otel.scope.dropped_attributes_count",
  [F_OTEL_SCOPE_SCHEMA_URL] = ".otel.scope.schema_url",
  [F_OTEL_LOG_TIME_UNIX_NANO] = ".otel.log.time_unix_nano",
  [F_OTEL_LOG_OBSERVED_TIME_UNIX_NANO] = ".otel.log.observed_time_unix_nano",
  [F_OTEL_LOG_SEVERITY_NUMBER] = ".otel.log.severity_number",
  [F_OTEL_LOG_SEVERITY_TEXT] = ".otel.log.severity_text",
  [F_OTEL_LOG_DROPPED_ATTRIBUTES_COUNT] = ".otel.log.dropped_attributes_count",
  [F_OTEL_LOG_FLAGS] = ".otel.log.flags",
  [F_OTEL_LOG_TRACE_ID] = ".otel.log.trace_id",
  [F_OTEL_LOG_SPAN_ID] = ".otel.log.span_id",
  [F_OTEL_LOG_EVENT_NAME] = ".otel.log.event_name",
  [F_OTEL_RAW_TYPE] = ".otel_raw.type",
  [F_OTEL_RAW_LOG] = ".otel_raw.log",
  [F_OTEL_RAW_RESOURCE] = ".otel_raw.resource",
  [F_OTEL_RAW_SCOPE] = ".otel_raw.scope",
  [F_OTEL_RAW_RESOURCE_SCHEMA_URL] = ".otel_raw.resource_schema_url",
  [F_OTEL_RAW_SCOPE_SCHEMA_URL] = ".otel_raw.scope_schema_url",
  [F_OTEL_LOG_BODY] = ".otel.log.body",
};

static SlHandle field_handles[F_COUNT];

/* The fixed fields' handles, interned once rather than per record */
static void
fields_init (void)
{
  static gsize done;
  if (g_once_init_enter (&done))
    {
      for (guint i = 0; i < F_COUNT; i++)
        field_handles[i] = sl_field_handle (field_names[i]);
      g_once_init_leave (&done, 1);
    }
}

static SlHandle
field (Field f)
{
  return field_handles[f];
}

/* m packed into out (emptied first); an absent m packs as nothing */
static void
pack (const ProtobufCMessage *m, GByteArray *out)
{
  g_byte_array_set_size (out, m ? (guint) protobuf_c_message_get_packed_size (m) : 0);
  if (m)
    protobuf_c_message_pack (m, out->data);
}

/* An absent resource or scope, and one with nothing in it, is not set */
static void
set_raw (SlMessage *msg, SlHandle name, const GByteArray *b)
{
  if (b->len)
    sl_message_set (msg, name, (const gchar *) b->data, b->len);
}

static void
set_text (SlMessage *msg, SlHandle name, const gchar *value, gssize len)
{
  if (len < 0)
    len = (gssize) strlen (value);
  if (len)
    sl_message_set (msg, name, value, len);
}

/* an integer, as 4.8's parser sets its numbers (LM_VT_INTEGER), so that a
 * destination that makes the record from the fields reads them back */
static void
set_number (SlMessage *msg, SlHandle name, guint64 n)
{
  gchar buf[24];
  gchar *p = buf + sizeof buf;
  do
    *--p = (gchar) ('0' + n % 10);
  while ((n /= 10));
  sl_message_set_typed (msg, name, p, buf + sizeof buf - p, SL_VALUE_INT64);
}

static void
set_hex (SlMessage *msg, SlHandle name, const ProtobufCBinaryData *b)
{
  if (!b->len)
    return;
  static const gchar digits[] = "0123456789abcdef";
  g_autofree gchar *hex = g_malloc (b->len * 2 + 1);
  for (gsize i = 0; i < b->len; i++)
    {
      hex[2 * i] = digits[b->data[i] >> 4];
      hex[2 * i + 1] = digits[b->data[i] & 15];
    }
  sl_message_set (msg, name, hex, (gssize) b->len * 2);
}

static gboolean
all_strings (const Opentelemetry__Proto__Common__V1__ArrayValue *a)
{
  for (gsize i = 0; a && i < a->n_values; i++)
    if (a->values[i]->value_case != OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_STRING_VALUE)
      return FALSE;
  return TRUE;
}

/* The value as text into out and its type, as syslog-ng 4's otel parser
 * types an attribute (otel-protobuf-parser.cpp): an int, a double, a
 * boolean, a string, null when unset; an array of strings alone a list;
 * bytes (base64), other arrays and key-value lists (JSON) strings. */
static SlValueType
render_typed (const OtelAnyValue *v, GString *out)
{
  if (v && v->value_case == OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_ARRAY_VALUE
      && all_strings (v->array_value))
    {
      g_string_truncate (out, 0);
      for (gsize i = 0; v->array_value && i < v->array_value->n_values; i++)
        {
          const gchar *item = v->array_value->values[i]->string_value;
          sl_list_text_append (out, 0, item, strlen (item));
        }
      return SL_VALUE_LIST;
    }
  render_any (v, out);
  switch (v ? v->value_case : OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE__NOT_SET)
    {
    case OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_INT_VALUE:
      return SL_VALUE_INT64;
    case OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_DOUBLE_VALUE:
      return SL_VALUE_DOUBLE;
    case OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_BOOL_VALUE:
      return SL_VALUE_BOOLEAN;
    case OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE__NOT_SET:
      return SL_VALUE_NULL;
    default:
      return SL_VALUE_STRING;
    }
}

static void
set_attributes (SlMessage *msg, RecordContext *c, const gchar *prefix, OtelKeyValue **kvs, gsize n)
{
  for (gsize i = 0; i < n; i++)
    {
      g_string_assign (c->name, prefix);
      g_string_append (c->name, kvs[i]->key);
      SlValueType type = render_typed (kvs[i]->value, c->value);
      sl_message_set_typed (msg, sl_field_handle (c->name->str), c->value->str, (gssize) c->value->len, type);
    }
}

/* syslog-ng's mapping of OTLP's 24 severities onto syslog's 8 */
static guint8
syslog_severity (gint number)
{
  if (number > 24)
    return 6;
  if (number >= 21)
    return number == 22 ? 1 : number == 23 ? 2 : 0;
  if (number >= 17)
    return 3;
  if (number >= 13)
    return 4;
  if (number >= 9)
    return 6;
  if (number >= 5)
    return 7;
  if (number >= 1)
    return 5;
  return 6;
}

static const OtelKeyValue *
find_attribute (OtelKeyValue **kvs, gsize n, const gchar *key)
{
  for (gsize i = 0; i < n; i++)
    if (strcmp (kvs[i]->key, key) == 0)
      return kvs[i];
  return NULL;
}

static void
fill (SlMessage *msg, gpointer data)
{
  RecordContext *c = data;
  const OtelLogRecord *r = c->record;
  sl_message_set_slice (msg, SL_F_MESSAGE, msg->raw, msg->raw_len);
  if (c->peer)
    {
      sl_message_set (msg, SL_F_HOST_FROM, c->peer, -1);
      sl_message_set (msg, SL_F_SOURCEIP, c->peer, -1);
      sl_message_set (msg, SL_F_HOST, c->peer, -1);
    }
  set_text (msg, field (F_OTEL_TYPE), "log", 3);
  const Opentelemetry__Proto__Resource__V1__Resource *res = c->resource->resource;
  if (res)
    {
      set_attributes (msg, c, ".otel.resource.attributes.", res->attributes, res->n_attributes);
      set_number (msg, field (F_OTEL_RESOURCE_DROPPED_ATTRIBUTES_COUNT), res->dropped_attributes_count);
      const OtelKeyValue *host = find_attribute (res->attributes, res->n_attributes, "host.name");
      if (host && host->value && host->value->value_case == OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_STRING_VALUE
          && *host->value->string_value)
        sl_message_set (msg, SL_F_HOST, host->value->string_value, -1);
    }
  set_text (msg, field (F_OTEL_RESOURCE_SCHEMA_URL), c->resource->schema_url, -1);
  const Opentelemetry__Proto__Common__V1__InstrumentationScope *scope = c->scope->scope;
  if (scope)
    {
      set_text (msg, field (F_OTEL_SCOPE_NAME), scope->name, -1);
      set_text (msg, field (F_OTEL_SCOPE_VERSION), scope->version, -1);
      set_attributes (msg, c, ".otel.scope.attributes.", scope->attributes, scope->n_attributes);
      set_number (msg, field (F_OTEL_SCOPE_DROPPED_ATTRIBUTES_COUNT), scope->dropped_attributes_count);
    }
  set_text (msg, field (F_OTEL_SCOPE_SCHEMA_URL), c->scope->schema_url, -1);
  set_number (msg, field (F_OTEL_LOG_TIME_UNIX_NANO), r->time_unix_nano);
  set_number (msg, field (F_OTEL_LOG_OBSERVED_TIME_UNIX_NANO), r->observed_time_unix_nano);
  set_number (msg, field (F_OTEL_LOG_SEVERITY_NUMBER), (guint64) MAX (r->severity_number, 0));
  set_text (msg, field (F_OTEL_LOG_SEVERITY_TEXT), r->severity_text, -1);
  if (r->body)
    sl_message_set_slice (msg, field (F_OTEL_LOG_BODY), msg->raw, msg->raw_len);
  set_attributes (msg, c, ".otel.log.attributes.", r->attributes, r->n_attributes);
  set_number (msg, field (F_OTEL_LOG_DROPPED_ATTRIBUTES_COUNT), r->dropped_attributes_count);
  set_number (msg, field (F_OTEL_LOG_FLAGS), r->flags);
  set_hex (msg, field (F_OTEL_LOG_TRACE_ID), &r->trace_id);
  set_hex (msg, field (F_OTEL_LOG_SPAN_ID), &r->span_id);
  set_text (msg, field (F_OTEL_LOG_EVENT_NAME), r->event_name, -1);
  set_text (msg, field (F_OTEL_RAW_TYPE), "log", 3);
  set_raw (msg, field (F_OTEL_RAW_LOG), c->raw_record);
  set_raw (msg, field (F_OTEL_RAW_RESOURCE), c->raw_resource);
  set_raw (msg, field (F_OTEL_RAW_SCOPE), c->raw_scope);
  set_text (msg, field (F_OTEL_RAW_RESOURCE_SCHEMA_URL), c->resource->schema_url, -1);
  set_text (msg, field (F_OTEL_RAW_SCOPE_SCHEMA_URL), c->scope->schema_url, -1);

  msg->pri = SL_PRI_MAKE (OTEL_FACILITY, syslog_severity (r->severity_number));
  guint64 stamp = r->time_unix_nano ? r->time_unix_nano : r->observed_time_unix_nano;
  if (stamp)
    msg->stamp = (SlTime) { .usec = (gint64) (stamp / 1000), .gmtoff = 0 };
  if (r->observed_time_unix_nano)
    msg->recvd = (SlTime) { .usec = (gint64) (r->observed_time_unix_nano / 1000), .gmtoff = 0 };
}

/* Records of scope "@syslog-ng" are messages syslog-ng 4's syslog-ng-otlp()
 * (or Sluice's) sent with every name-value pair: attribute "n" holds the
 * values by type, "m" PRI, TAGS and the zones, "sa" the sender's address
 * (syslog-ng's layout, modules/grpc/otel). They become those messages
 * again. */
#define SYSLOG_NG_SCOPE "@syslog-ng"

static gboolean
is_syslog_ng (const OtelScopeLogs *scope)
{
  return scope->scope && scope->scope->name && strcmp (scope->scope->name, SYSLOG_NG_SCOPE) == 0;
}

static const Opentelemetry__Proto__Common__V1__KeyValueList *
kvlist_of (const OtelKeyValue *kv)
{
  return kv && kv->value && kv->value->value_case == OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_KVLIST_VALUE
           ? kv->value->kvlist_value
           : NULL;
}

static gboolean
bytes_of (const OtelKeyValue *kv, const ProtobufCBinaryData **b)
{
  if (!kv->value || kv->value->value_case != OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_BYTES_VALUE)
    return FALSE;
  *b = &kv->value->bytes_value;
  return TRUE;
}

static gint64
int_of (const OtelKeyValue *kv)
{
  return kv->value && kv->value->value_case == OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_INT_VALUE
           ? kv->value->int_value
           : 0;
}

/* The MESSAGE value among "n"'s, the message's raw text */
static void
syslog_ng_message (const OtelLogRecord *r, GString *out)
{
  g_string_truncate (out, 0);
  const Opentelemetry__Proto__Common__V1__KeyValueList *types
    = kvlist_of (find_attribute (r->attributes, r->n_attributes, "n"));
  for (gsize t = 0; types && t < types->n_values; t++)
    {
      const Opentelemetry__Proto__Common__V1__KeyValueList *values = kvlist_of (types->values[t]);
      const OtelKeyValue *m = values ? find_attribute (values->values, values->n_values, "MESSAGE") : NULL;
      const ProtobufCBinaryData *b;
      if (m && bytes_of (m, &b))
        g_string_append_len (out, (const gchar *) b->data, (gssize) b->len);
    }
}

static void
fill_syslog_ng (SlMessage *msg, gpointer data)
{
  RecordContext *c = data;
  const OtelLogRecord *r = c->record;
  if (c->peer)
    {
      sl_message_set (msg, SL_F_HOST_FROM, c->peer, -1);
      sl_message_set (msg, SL_F_SOURCEIP, c->peer, -1);
    }
  const ProtobufCBinaryData *b;
  const Opentelemetry__Proto__Common__V1__KeyValueList *types
    = kvlist_of (find_attribute (r->attributes, r->n_attributes, "n"));
  for (gsize t = 0; types && t < types->n_values; t++)
    {
      const Opentelemetry__Proto__Common__V1__KeyValueList *values = kvlist_of (types->values[t]);
      /* the group's name is the values' type; one Sluice has not (bytes,
       * protobuf) is a string */
      const gchar *type_name = types->values[t]->key;
      SlValueType type;
      if (!sl_value_type_from_name (type_name, strlen (type_name), TRUE, &type))
        type = SL_VALUE_STRING;
      for (gsize i = 0; values && i < values->n_values; i++)
        if (bytes_of (values->values[i], &b) && strcmp (values->values[i]->key, "MESSAGE") != 0)
          sl_message_set_typed (msg, sl_field_handle (values->values[i]->key), (const gchar *) b->data, (gssize) b->len,
                                type);
    }
  sl_message_set_slice (msg, SL_F_MESSAGE, msg->raw, msg->raw_len);
  msg->stamp.usec = (gint64) (r->time_unix_nano / 1000);
  msg->recvd.usec = (gint64) (r->observed_time_unix_nano / 1000);
  const Opentelemetry__Proto__Common__V1__KeyValueList *macros
    = kvlist_of (find_attribute (r->attributes, r->n_attributes, "m"));
  for (gsize i = 0; macros && i < macros->n_values; i++)
    {
      const OtelKeyValue *kv = macros->values[i];
      if (strcmp (kv->key, "PRI") == 0)
        msg->pri = (guint8) CLAMP (int_of (kv), 0, 191);
      else if (strcmp (kv->key, "STAMP_GMTOFF") == 0)
        msg->stamp.gmtoff = (gint32) int_of (kv);
      else if (strcmp (kv->key, "RECVD_GMTOFF") == 0)
        msg->recvd.gmtoff = (gint32) int_of (kv);
      else if (strcmp (kv->key, "TAGS") == 0 && bytes_of (kv, &b) && b->len)
        {
          g_autofree gchar *list = g_strndup ((const gchar *) b->data, b->len);
          g_auto (GStrv) tags = g_strsplit (list, ",", -1);
          for (guint k = 0; tags[k]; k++)
            if (*tags[k])
              sl_message_set_tag (msg, tags[k]);
        }
    }
  const Opentelemetry__Proto__Common__V1__KeyValueList *sa
    = kvlist_of (find_attribute (r->attributes, r->n_attributes, "sa"));
  const OtelKeyValue *addr = sa ? find_attribute (sa->values, sa->n_values, "addr") : NULL;
  gchar text[INET6_ADDRSTRLEN];
  if (addr && bytes_of (addr, &b) && (b->len == 4 || b->len == 16)
      && inet_ntop (b->len == 4 ? AF_INET : AF_INET6, b->data, text, sizeof text))
    sl_message_set (msg, SL_F_SOURCEIP, text, -1);
}

gboolean
otel_records_deliver (SlSource *src, SlWindow *window, const gchar *peer, const OtelLogsRequest *req,
                      gsize *records)
{
  SlMessage *batch[POST_BATCH];
  guint batched = 0;
  gboolean open = TRUE;
  g_autoptr (GString) body = g_string_new (NULL);
  RecordContext c = { .peer = peer, .name = g_string_new (NULL), .value = g_string_new (NULL),
                      .raw_resource = g_byte_array_new (), .raw_scope = g_byte_array_new (),
                      .raw_record = g_byte_array_new () };
  *records = 0;
  fields_init ();
  sl_source_mark_read_time ();
  for (gsize i = 0; open && i < req->n_resource_logs; i++)
    {
      c.resource = req->resource_logs[i];
      pack ((const ProtobufCMessage *) c.resource->resource, c.raw_resource);
      for (gsize j = 0; open && j < c.resource->n_scope_logs; j++)
        {
          c.scope = c.resource->scope_logs[j];
          gboolean syslog_ng = is_syslog_ng (c.scope);
          pack ((const ProtobufCMessage *) c.scope->scope, c.raw_scope);
          for (gsize k = 0; open && k < c.scope->n_log_records; k++)
            {
              c.record = c.scope->log_records[k];
              SlMessage *msg;
              if (syslog_ng)
                {
                  syslog_ng_message (c.record, body);
                  msg = sl_source_parse_fields (src, body->str, body->len, fill_syslog_ng, &c);
                }
              else
                {
                  pack ((const ProtobufCMessage *) c.record, c.raw_record);
                  render_any (c.record->body, body);
                  msg = sl_source_parse_fields (src, body->str, body->len, fill, &c);
                }
              sl_message_bind_window (msg, window);
              batch[batched++] = msg;
              (*records)++;
              if (batched == POST_BATCH)
                {
                  sl_source_post (src, batch, batched);
                  batched = 0;
                  /* a request larger than the window waits for room, as a TCP sender does */
                  open = sl_window_wait (window);
                }
            }
        }
    }
  if (batched)
    sl_source_post (src, batch, batched);
  g_string_free (c.name, TRUE);
  g_string_free (c.value, TRUE);
  g_byte_array_unref (c.raw_resource);
  g_byte_array_unref (c.raw_scope);
  g_byte_array_unref (c.raw_record);
  return open && sl_window_wait_empty (window, -1);
}
