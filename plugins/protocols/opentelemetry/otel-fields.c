/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The rules are those of syslog-ng 4.8's otel-protobuf-formatter.cpp,
 * function by function: a scalar field is read only when its value has
 * the type the field wants (an integer for numbers, a string for text)
 * and is otherwise left at its default; an attribute or the body takes
 * its AnyValue from its value's type, and a value that does not read as
 * its type is logged and sent as far as it reads. Sluice has no bytes or
 * protobuf type, which are the only types 4.8 reads trace_id and span_id
 * from, so a record made here never carries them. */
#include "otel-fields.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/message/list-text.h"
#include "opentelemetry/proto/logs/v1/logs.pb-c.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef Opentelemetry__Proto__Common__V1__AnyValue AnyValue;
typedef Opentelemetry__Proto__Common__V1__KeyValue KeyValue;
typedef Opentelemetry__Proto__Common__V1__ArrayValue ArrayValue;

/* the fields 4.8 reads (otel-logmsg-handles.cpp) */
enum
{
  F_RAW_TYPE,
  F_TYPE,
  F_RESOURCE_DROPPED,
  F_RESOURCE_SCHEMA,
  F_SCOPE_NAME,
  F_SCOPE_VERSION,
  F_SCOPE_DROPPED,
  F_SCOPE_SCHEMA,
  F_TIME,
  F_OBSERVED,
  F_SEVERITY_NUMBER,
  F_SEVERITY_TEXT,
  F_BODY,
  F_DROPPED,
  F_FLAGS,
  F_COUNT
};

static const gchar *const field_names[F_COUNT] = {
  [F_RAW_TYPE] = ".otel_raw.type",
  [F_TYPE] = ".otel.type",
  [F_RESOURCE_DROPPED] = ".otel.resource.dropped_attributes_count",
  [F_RESOURCE_SCHEMA] = ".otel.resource.schema_url",
  [F_SCOPE_NAME] = ".otel.scope.name",
  [F_SCOPE_VERSION] = ".otel.scope.version",
  [F_SCOPE_DROPPED] = ".otel.scope.dropped_attributes_count",
  [F_SCOPE_SCHEMA] = ".otel.scope.schema_url",
  [F_TIME] = ".otel.log.time_unix_nano",
  [F_OBSERVED] = ".otel.log.observed_time_unix_nano",
  [F_SEVERITY_NUMBER] = ".otel.log.severity_number",
  [F_SEVERITY_TEXT] = ".otel.log.severity_text",
  [F_BODY] = ".otel.log.body",
  [F_DROPPED] = ".otel.log.dropped_attributes_count",
  [F_FLAGS] = ".otel.log.flags",
};

#define PREFIX_RESOURCE ".otel.resource.attributes."
#define PREFIX_SCOPE ".otel.scope.attributes."
#define PREFIX_LOG ".otel.log.attributes."

struct _OtelFields
{
  gchar *id;
  SlHandle h[F_COUNT];
  GPtrArray *owned;          /* what the parts being packed point to */
  GString *text;             /* a value NUL-terminated, to read a number from */
  GPtrArray *resource_attributes, *scope_attributes, *log_attributes;  /* KeyValue * */
};

OtelFields *
otel_fields_new (const gchar *id)
{
  OtelFields *f = g_new0 (OtelFields, 1);
  f->id = g_strdup (id);
  for (guint i = 0; i < F_COUNT; i++)
    f->h[i] = sl_field_handle (field_names[i]);
  f->owned = g_ptr_array_new_with_free_func (g_free);
  f->text = g_string_new (NULL);
  f->resource_attributes = g_ptr_array_new ();
  f->scope_attributes = g_ptr_array_new ();
  f->log_attributes = g_ptr_array_new ();
  return f;
}

void
otel_fields_free (OtelFields *f)
{
  g_free (f->id);
  g_ptr_array_unref (f->owned);
  g_string_free (f->text, TRUE);
  g_ptr_array_unref (f->resource_attributes);
  g_ptr_array_unref (f->scope_attributes);
  g_ptr_array_unref (f->log_attributes);
  g_free (f);
}

/* get_message_type(): .otel_raw.type, or .otel.type when that is unset or
 * null, a string with strncmp (value, "log", len) == 0, so "", "l" and
 * "lo" are logs too. Both fields are found with one search: a message
 * that is no log pays one lookup. */
gboolean
otel_fields_is_log (const OtelFields *f, const SlMessage *msg)
{
  SlHandle raw = f->h[F_RAW_TYPE], typed = f->h[F_TYPE];
  guint32 n;
  const SlValue *fields = sl_message_fields_between (msg, MIN (raw, typed), MAX (raw, typed), &n);
  const SlValue *v = NULL;
  for (guint32 i = 0; i < n; i++)
    if (fields[i].ptr && fields[i].type != SL_VALUE_NULL
        && (fields[i].handle == raw || (fields[i].handle == typed && !v)))
      v = &fields[i];
  if (!v || v->type != SL_VALUE_STRING)
    return FALSE;
  for (guint32 i = 0; i < v->len; i++)
    {
      if (v->ptr[i] != "log"[i])
        return FALSE;
      if (!v->ptr[i])
        break;
    }
  return TRUE;
}

static const gchar *
terminated (OtelFields *f, const gchar *v, gsize len)
{
  g_string_truncate (f->text, 0);
  g_string_append_len (f->text, v, (gssize) len);
  return f->text->str;
}

static gchar *
keep (OtelFields *f, const gchar *v, gsize len)
{
  gchar *s = g_strndup (v, len);
  g_ptr_array_add (f->owned, s);
  return s;
}

/* _get_uint64(), _get_int32(), _get_uint32(): an integer's text, else NULL */
static const gchar *
integer_text (OtelFields *f, const SlMessage *msg, guint field)
{
  gsize len = 0;
  SlValueType type;
  const gchar *v = sl_message_get_typed (msg, f->h[field], &len, &type);
  if (!v || (type != SL_VALUE_INT32 && type != SL_VALUE_INT64))
    return NULL;
  return terminated (f, v, len);
}

static guint64
get_uint64 (OtelFields *f, const SlMessage *msg, guint field)
{
  const gchar *t = integer_text (f, msg, field);
  return t ? strtoull (t, NULL, 10) : 0;
}

static gint32
get_int32 (OtelFields *f, const SlMessage *msg, guint field)
{
  const gchar *t = integer_text (f, msg, field);
  return t ? (gint32) strtol (t, NULL, 10) : 0;
}

static guint32
get_uint32 (OtelFields *f, const SlMessage *msg, guint field)
{
  const gchar *t = integer_text (f, msg, field);
  return t ? (guint32) strtoul (t, NULL, 10) : 0;
}

/* _get_string(): a string's text, else "" */
static void
get_string (const OtelFields *f, const SlMessage *msg, guint field, GString *out)
{
  gsize len = 0;
  SlValueType type;
  const gchar *v = sl_message_get_typed (msg, f->h[field], &len, &type);
  g_string_truncate (out, 0);
  if (v && type == SL_VALUE_STRING)
    g_string_append_len (out, v, (gssize) len);
}

static gchar *
string_field (OtelFields *f, const SlMessage *msg, guint field)
{
  get_string (f, msg, field, f->text);
  return keep (f, f->text->str, f->text->len);
}

static AnyValue *
new_any (OtelFields *f)
{
  AnyValue *v = g_new (AnyValue, 1);
  opentelemetry__proto__common__v1__any_value__init (v);
  g_ptr_array_add (f->owned, v);
  return v;
}

typedef struct
{
  OtelFields *f;
  GPtrArray *items;          /* AnyValue * */
} ListItems;

static void
add_list_item (const gchar *item, gsize len, gpointer data)
{
  ListItems *l = data;
  AnyValue *v = new_any (l->f);
  v->value_case = OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_STRING_VALUE;
  v->string_value = keep (l->f, item, len);
  g_ptr_array_add (l->items, v);
}

/* type_cast_to_int64()'s reading: hex after 0x (past a sign), else decimal */
static gboolean
read_int64 (const gchar *text, gint64 *out)
{
  const gchar *digits = text[0] == '+' || text[0] == '-' ? text + 1 : text;
  gchar *end;
  *out = strtoll (text, &end, digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X') ? 16 : 10);
  return text[0] && !*end;
}

/* type_cast_to_double() */
static gboolean
read_double (const gchar *text, gdouble *out)
{
  gchar *end;
  errno = 0;
  *out = g_ascii_strtod (text, &end);
  return !(errno == ERANGE && (*out >= HUGE_VAL || *out <= -HUGE_VAL)) && end != text && !*end;
}

/* _set_AnyValue(): the value by its type. A value that does not read as
 * its type goes as far as it reads (a boolean as false), and is logged
 * as 4.8 logs it. */
static void
set_any (OtelFields *f, AnyValue *any, const gchar *name, const gchar *v, gsize len, SlValueType type)
{
  switch (type)
    {
    case SL_VALUE_STRING:
      any->value_case = OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_STRING_VALUE;
      any->string_value = keep (f, v, len);
      break;
    case SL_VALUE_BOOLEAN:
      any->value_case = OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_BOOL_VALUE;
      /* type_cast_to_boolean() reads the first character only */
      any->bool_value = len && (v[0] == 'T' || v[0] == 't' || v[0] == '1');
      if (!len || !(any->bool_value || v[0] == 'F' || v[0] == 'f' || v[0] == '0'))
        sl_log (SL_LOG_ERROR, _("%s: %s is not a boolean ('%s'): false is sent"), f->id, name,
                terminated (f, v, len));
      break;
    case SL_VALUE_INT32:
    case SL_VALUE_INT64:
      {
        const gchar *text = terminated (f, v, len);
        any->value_case = OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_INT_VALUE;
        if (!read_int64 (text, &any->int_value))
          sl_log (SL_LOG_ERROR, _("%s: %s is not an integer ('%s'): %" G_GINT64_FORMAT " is sent"), f->id, name, text,
                  any->int_value);
      }
      break;
    case SL_VALUE_DOUBLE:
      {
        const gchar *text = terminated (f, v, len);
        any->value_case = OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_DOUBLE_VALUE;
        if (!read_double (text, &any->double_value))
          sl_log (SL_LOG_ERROR, _("%s: %s is not a number ('%s'): %g is sent"), f->id, name, text, any->double_value);
      }
      break;
    case SL_VALUE_LIST:
      {
        ListItems l = { f, g_ptr_array_new () };
        sl_list_text_foreach (v, len, add_list_item, &l);
        ArrayValue *array = g_new (ArrayValue, 1);
        g_ptr_array_add (f->owned, array);
        opentelemetry__proto__common__v1__array_value__init (array);
        array->n_values = l.items->len;
        array->values = g_memdup2 (l.items->pdata, l.items->len * sizeof (AnyValue *));
        g_ptr_array_add (f->owned, array->values);
        g_ptr_array_unref (l.items);
        any->value_case = OPENTELEMETRY__PROTO__COMMON__V1__ANY_VALUE__VALUE_ARRAY_VALUE;
        any->array_value = array;
      }
      break;
    case SL_VALUE_NULL:
      break;
    default:
      /* 4.8 has no AnyValue for json() or datetime(): its default case */
      if (type == SL_VALUE_DATETIME)
        sl_log (SL_LOG_ERROR, _("%s: %s is a datetime, which goes into OTLP as an empty value ('%s')"), f->id, name,
                terminated (f, v, len));
      else
        sl_log (SL_LOG_ERROR, _("%s: %s is JSON, which goes into OTLP as an empty value ('%s')"), f->id, name,
                terminated (f, v, len));
      break;
    }
}

typedef struct
{
  OtelFields *f;
  const SlMessage *msg;
  gboolean resource, scope, log;
} Collect;

static void
add_attribute (Collect *c, GPtrArray *to, const gchar *name, gsize prefix_len, SlHandle h)
{
  gsize len = 0;
  SlValueType type;
  const gchar *v = sl_message_get_typed (c->msg, h, &len, &type);
  KeyValue *kv = g_new (KeyValue, 1);
  g_ptr_array_add (c->f->owned, kv);
  opentelemetry__proto__common__v1__key_value__init (kv);
  kv->key = (gchar *) name + prefix_len;
  kv->value = new_any (c->f);
  set_any (c->f, kv->value, name, v, len, type);
  g_ptr_array_add (to, kv);
}

/* get_and_set_repeated_KeyValues(): every field under the prefix, the
 * rest of its name the key; the three prefixes in one pass */
static gboolean
collect (SlHandle h, const gchar *value, gsize len, gpointer data)
{
  Collect *c = data;
  const gchar *name = value ? sl_field_name (h) : NULL;
  if (!name || !g_str_has_prefix (name, ".otel."))
    return TRUE;
  if (c->log && g_str_has_prefix (name, PREFIX_LOG))
    add_attribute (c, c->f->log_attributes, name, strlen (PREFIX_LOG), h);
  else if (c->resource && g_str_has_prefix (name, PREFIX_RESOURCE))
    add_attribute (c, c->f->resource_attributes, name, strlen (PREFIX_RESOURCE), h);
  else if (c->scope && g_str_has_prefix (name, PREFIX_SCOPE))
    add_attribute (c, c->f->scope_attributes, name, strlen (PREFIX_SCOPE), h);
  return TRUE;
}

static void
pack_into (const ProtobufCMessage *m, GByteArray *out)
{
  g_byte_array_set_size (out, (guint) protobuf_c_message_get_packed_size (m));
  protobuf_c_message_pack (m, out->data);
}

/* get_resource_and_schema_url() without a raw resource */
static void
build_resource (OtelFields *f, const SlMessage *msg, OtelPart *out)
{
  Opentelemetry__Proto__Resource__V1__Resource resource = OPENTELEMETRY__PROTO__RESOURCE__V1__RESOURCE__INIT;
  resource.dropped_attributes_count = get_uint32 (f, msg, F_RESOURCE_DROPPED);
  resource.n_attributes = f->resource_attributes->len;
  resource.attributes = (KeyValue **) f->resource_attributes->pdata;
  pack_into (&resource.base, out->bytes);
  get_string (f, msg, F_RESOURCE_SCHEMA, out->schema);
}

/* get_scope_and_schema_url() without a raw scope */
static void
build_scope (OtelFields *f, const SlMessage *msg, OtelPart *out)
{
  Opentelemetry__Proto__Common__V1__InstrumentationScope scope = OPENTELEMETRY__PROTO__COMMON__V1__INSTRUMENTATION_SCOPE__INIT;
  scope.name = string_field (f, msg, F_SCOPE_NAME);
  scope.version = string_field (f, msg, F_SCOPE_VERSION);
  scope.dropped_attributes_count = get_uint32 (f, msg, F_SCOPE_DROPPED);
  scope.n_attributes = f->scope_attributes->len;
  scope.attributes = (KeyValue **) f->scope_attributes->pdata;
  pack_into (&scope.base, out->bytes);
  get_string (f, msg, F_SCOPE_SCHEMA, out->schema);
}

/* format(LogMessage *, LogRecord &) without a raw record: the body is
 * there even when .otel.log.body is not (an empty AnyValue) */
static void
build_record (OtelFields *f, const SlMessage *msg, GByteArray *out)
{
  Opentelemetry__Proto__Logs__V1__LogRecord record = OPENTELEMETRY__PROTO__LOGS__V1__LOG_RECORD__INIT;
  record.time_unix_nano = get_uint64 (f, msg, F_TIME);
  record.observed_time_unix_nano = get_uint64 (f, msg, F_OBSERVED);
  gint32 severity = get_int32 (f, msg, F_SEVERITY_NUMBER);
  /* SeverityNumber_IsValid(): the enum's 0 to 24 */
  record.severity_number = (Opentelemetry__Proto__Logs__V1__SeverityNumber) (severity >= 0 && severity <= 24 ? severity : 0);
  record.severity_text = string_field (f, msg, F_SEVERITY_TEXT);
  AnyValue *body = new_any (f);
  gsize len = 0;
  SlValueType type;
  const gchar *v = sl_message_get_typed (msg, f->h[F_BODY], &len, &type);
  if (v)
    set_any (f, body, field_names[F_BODY], v, len, type);
  record.body = body;
  record.n_attributes = f->log_attributes->len;
  record.attributes = (KeyValue **) f->log_attributes->pdata;
  record.dropped_attributes_count = get_uint32 (f, msg, F_DROPPED);
  record.flags = get_uint32 (f, msg, F_FLAGS);
  pack_into (&record.base, out);
}

void
otel_fields_build (OtelFields *f, const SlMessage *msg, GByteArray *record, OtelPart *resource, OtelPart *scope)
{
  if (!record && !resource && !scope)
    return;
  g_ptr_array_set_size (f->resource_attributes, 0);
  g_ptr_array_set_size (f->scope_attributes, 0);
  g_ptr_array_set_size (f->log_attributes, 0);
  Collect c = { f, msg, resource != NULL, scope != NULL, record != NULL };
  sl_message_foreach_dynamic (msg, collect, &c);
  if (resource)
    build_resource (f, msg, resource);
  if (scope)
    build_scope (f, msg, scope);
  if (record)
    build_record (f, msg, record);
  g_ptr_array_set_size (f->owned, 0);
}
