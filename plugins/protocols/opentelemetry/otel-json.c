/* SPDX-License-Identifier: GPL-2.0-or-later */
/* OTLP/JSON walks the message descriptors protoc-c generated, so every
 * message of the committed .proto files reads without code of its own.
 * Memory comes from malloc, as protobuf_c_message_free_unpacked() with
 * the default allocator frees it. */
#include "otel-json.h"
#include "core/i18n.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#define OTEL_JSON_ERROR (g_quark_from_static_string ("otel-json-error"))

static gboolean read_message (const ProtobufCMessageDescriptor *desc, json_t *obj, ProtobufCMessage *msg,
                              GError **error);

/* "timeUnixNano" for time_unix_nano, as OTLP/JSON and proto3's JSON name it */
static gboolean
key_names_field (const gchar *key, const gchar *name)
{
  if (strcmp (key, name) == 0)
    return TRUE;
  for (; *name; name++, key++)
    {
      if (*name == '_' && name[1])
        {
          name++;
          if (*key != g_ascii_toupper (*name))
            return FALSE;
        }
      else if (*key != *name)
        return FALSE;
    }
  return *key == '\0';
}

static const ProtobufCFieldDescriptor *
find_field (const ProtobufCMessageDescriptor *desc, const gchar *key)
{
  for (guint i = 0; i < desc->n_fields; i++)
    if (key_names_field (key, desc->fields[i].name))
      return &desc->fields[i];
  return NULL;
}

static gboolean
fail (GError **error, const ProtobufCFieldDescriptor *f, const gchar *what)
{
  g_set_error (error, OTEL_JSON_ERROR, 1, _("OTLP/JSON field '%s': %s"), f->name, what);
  return FALSE;
}

static gboolean
read_integer (json_t *v, gboolean is_signed, gint64 *out)
{
  if (json_is_integer (v))
    {
      *out = json_integer_value (v);
      return TRUE;
    }
  if (!json_is_string (v))
    return FALSE;
  const gchar *s = json_string_value (v);
  gchar *end = NULL;
  errno = 0;
  if (is_signed)
    *out = g_ascii_strtoll (s, &end, 10);
  else
    *out = (gint64) g_ascii_strtoull (s, &end, 10);
  return *s && end && *end == '\0' && errno == 0;
}

/* trace and span ids are hex in OTLP/JSON, unlike proto3's base64 */
static gboolean
field_is_hex (const ProtobufCFieldDescriptor *f)
{
  return g_str_has_suffix (f->name, "trace_id") || g_str_has_suffix (f->name, "span_id");
}

static gboolean
read_bytes (const ProtobufCFieldDescriptor *f, json_t *v, ProtobufCBinaryData *out)
{
  if (!json_is_string (v))
    return FALSE;
  const gchar *s = json_string_value (v);
  gsize len = json_string_length (v);
  if (field_is_hex (f))
    {
      if (len % 2)
        return FALSE;
      out->len = len / 2;
      out->data = malloc (out->len + 1);
      for (gsize i = 0; i < out->len; i++)
        {
          gint hi = g_ascii_xdigit_value (s[2 * i]), lo = g_ascii_xdigit_value (s[2 * i + 1]);
          if (hi < 0 || lo < 0)
            {
              free (out->data);
              out->data = NULL;
              out->len = 0;
              return FALSE;
            }
          out->data[i] = (guint8) (hi << 4 | lo);
        }
      return TRUE;
    }
  gsize n = 0;
  g_autofree guchar *decoded = g_base64_decode (s, &n);
  out->data = malloc (n + 1);
  if (n)
    memcpy (out->data, decoded, n);
  out->len = n;
  return TRUE;
}

/* One value of field f into where (a member, or an element of its array). */
static gboolean
read_value (const ProtobufCFieldDescriptor *f, json_t *v, void *where, GError **error)
{
  gint64 i = 0;
  switch (f->type)
    {
    case PROTOBUF_C_TYPE_INT32:
    case PROTOBUF_C_TYPE_SINT32:
    case PROTOBUF_C_TYPE_SFIXED32:
      if (!read_integer (v, TRUE, &i) || i < G_MININT32 || i > G_MAXINT32)
        return fail (error, f, _("not a 32-bit integer"));
      *(gint32 *) where = (gint32) i;
      return TRUE;
    case PROTOBUF_C_TYPE_UINT32:
    case PROTOBUF_C_TYPE_FIXED32:
      if (!read_integer (v, FALSE, &i) || i < 0 || i > G_MAXUINT32)
        return fail (error, f, _("not an unsigned 32-bit integer"));
      *(guint32 *) where = (guint32) i;
      return TRUE;
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64:
      if (!read_integer (v, f->type != PROTOBUF_C_TYPE_UINT64 && f->type != PROTOBUF_C_TYPE_FIXED64, &i))
        return fail (error, f, _("not a 64-bit integer"));
      *(gint64 *) where = i;
      return TRUE;
    case PROTOBUF_C_TYPE_FLOAT:
    case PROTOBUF_C_TYPE_DOUBLE:
      {
        gdouble d;
        if (json_is_number (v))
          d = json_number_value (v);
        else if (json_is_string (v))
          d = g_ascii_strtod (json_string_value (v), NULL);
        else
          return fail (error, f, _("not a number"));
        if (f->type == PROTOBUF_C_TYPE_FLOAT)
          *(gfloat *) where = (gfloat) d;
        else
          *(gdouble *) where = d;
        return TRUE;
      }
    case PROTOBUF_C_TYPE_BOOL:
      if (!json_is_boolean (v))
        return fail (error, f, _("not true or false"));
      *(protobuf_c_boolean *) where = json_is_true (v);
      return TRUE;
    case PROTOBUF_C_TYPE_ENUM:
      if (json_is_string (v) && !g_ascii_isdigit (*json_string_value (v)))
        {
          const ProtobufCEnumValue *ev
            = protobuf_c_enum_descriptor_get_value_by_name (f->descriptor, json_string_value (v));
          if (!ev)
            return fail (error, f, _("not a value of its enum"));
          *(gint *) where = ev->value;
          return TRUE;
        }
      if (!read_integer (v, TRUE, &i) || i < G_MININT32 || i > G_MAXINT32)
        return fail (error, f, _("not an enum value"));
      *(gint *) where = (gint) i;
      return TRUE;
    case PROTOBUF_C_TYPE_STRING:
      if (!json_is_string (v))
        return fail (error, f, _("not a string"));
      *(gchar **) where = strndup (json_string_value (v), json_string_length (v));
      return TRUE;
    case PROTOBUF_C_TYPE_BYTES:
      if (!read_bytes (f, v, where))
        return fail (error, f, field_is_hex (f) ? _("not hex digits") : _("not base64"));
      return TRUE;
    case PROTOBUF_C_TYPE_MESSAGE:
      {
        if (!json_is_object (v))
          return fail (error, f, _("not an object"));
        const ProtobufCMessageDescriptor *sub = f->descriptor;
        ProtobufCMessage *m = malloc (sub->sizeof_message);
        protobuf_c_message_init (sub, m);
        *(ProtobufCMessage **) where = m;
        return read_message (sub, v, m, error);
      }
    }
  return fail (error, f, _("has a type this reader does not know"));
}

static gsize
element_size (const ProtobufCFieldDescriptor *f)
{
  switch (f->type)
    {
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64:
    case PROTOBUF_C_TYPE_DOUBLE:
      return 8;
    case PROTOBUF_C_TYPE_STRING:
    case PROTOBUF_C_TYPE_MESSAGE:
      return sizeof (void *);
    case PROTOBUF_C_TYPE_BYTES:
      return sizeof (ProtobufCBinaryData);
    case PROTOBUF_C_TYPE_BOOL:
      return sizeof (protobuf_c_boolean);
    default:
      return 4;
    }
}

static gboolean
read_repeated (const ProtobufCFieldDescriptor *f, json_t *v, ProtobufCMessage *msg, GError **error)
{
  if (!json_is_array (v))
    return fail (error, f, _("not an array"));
  gsize n = json_array_size (v);
  if (!n)
    return TRUE;
  gsize size = element_size (f);
  guint8 *array = calloc (n, size);
  *(void **) ((guint8 *) msg + f->offset) = array;
  size_t *count = (size_t *) ((guint8 *) msg + f->quantifier_offset);
  for (gsize i = 0; i < n; i++)
    {
      /* counted before it is read, so a failure frees what it began */
      *count = i + 1;
      if (!read_value (f, json_array_get (v, i), array + i * size, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
read_message (const ProtobufCMessageDescriptor *desc, json_t *obj, ProtobufCMessage *msg, GError **error)
{
  const gchar *key;
  json_t *v;
  json_object_foreach (obj, key, v)
    {
      const ProtobufCFieldDescriptor *f = find_field (desc, key);
      if (!f || json_is_null (v))
        continue;
      guint8 *member = (guint8 *) msg + f->offset;
      if (f->label == PROTOBUF_C_LABEL_REPEATED)
        {
          if (*(void **) member)
            return fail (error, f, _("given twice"));
          if (!read_repeated (f, v, msg, error))
            return FALSE;
          continue;
        }
      /* a value given twice (as timeUnixNano and time_unix_nano, or two
       * members of a oneof) is refused rather than leaked or mixed */
      if ((f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) && *(uint32_t *) ((guint8 *) msg + f->quantifier_offset))
        return fail (error, f, _("a second member of its oneof"));
      if ((f->type == PROTOBUF_C_TYPE_MESSAGE && *(void **) member)
          || (f->type == PROTOBUF_C_TYPE_STRING && *(gchar **) member
              && *(gchar **) member != protobuf_c_empty_string)
          || (f->type == PROTOBUF_C_TYPE_BYTES && ((ProtobufCBinaryData *) member)->data))
        return fail (error, f, _("given twice"));
      /* the member is named before it is read, so that a failure frees what it began */
      if (f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF)
        *(uint32_t *) ((guint8 *) msg + f->quantifier_offset) = f->id;
      if (!read_value (f, v, member, error))
        return FALSE;
      if (!(f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) && f->label == PROTOBUF_C_LABEL_OPTIONAL && f->quantifier_offset)
        *(protobuf_c_boolean *) ((guint8 *) msg + f->quantifier_offset) = TRUE;
    }
  return TRUE;
}

ProtobufCMessage *
otel_json_unpack (const ProtobufCMessageDescriptor *desc, const gchar *data, gsize len, GError **error)
{
  json_error_t jerr;
  json_t *root = json_loadb (data, len, JSON_DECODE_ANY, &jerr);
  if (!root)
    {
      g_set_error (error, OTEL_JSON_ERROR, 1, _("not JSON: %s at offset %d"), jerr.text, jerr.position);
      return NULL;
    }
  if (!json_is_object (root))
    {
      json_decref (root);
      g_set_error (error, OTEL_JSON_ERROR, 1, _("OTLP/JSON request is not an object"));
      return NULL;
    }
  ProtobufCMessage *msg = malloc (desc->sizeof_message);
  protobuf_c_message_init (desc, msg);
  gboolean ok = read_message (desc, root, msg, error);
  json_decref (root);
  if (!ok)
    {
      protobuf_c_message_free_unpacked (msg, NULL);
      return NULL;
    }
  return msg;
}
