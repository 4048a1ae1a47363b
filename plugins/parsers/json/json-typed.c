/* SPDX-License-Identifier: GPL-2.0-or-later */
/* json-parser() of a syslog-ng 4 configuration: values keep their types,
 * as syslog-ng 4.8 keeps them. It reads JSON with json-c, whose rules
 * differ from jansson's (json-tree.c), so the text is read here into a
 * tree of its own with json-c's: an integer past 64 bits saturates (a
 * positive one up to 2^64-1 is kept unsigned), a real keeps the text it
 * was written with, a repeated key keeps its first place and its last
 * value, true/false/null are read in any case, nesting stops at 32
 * levels, and text after the value is ignored. The tree is then stored
 * as 4.8 stores it: integers as int64 text, reals as printf's %f, null as
 * an empty value, an array of strings alone as a list, any other array
 * as json-c's compact JSON text; a top-level array sets $1, $2, ...
 * types(rsyslog) stores them as rsyslogd's mmjsonparse (libfastjson)
 * keeps them instead: a real as it was written, an array or an empty
 * object as libfastjson's spaced JSON text, an object alone taken, and
 * a key with a dot one member of rsyslog's tree (its dot escaped in the
 * field's name, core/message/member-name.h). */
#include "plugins/parsers/json/json-parser.h"
#include "core/message/member-name.h"
#include "core/message/str-repr.h"
#include "core/message/text-append.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* json-c's JSON_TOKENER_DEFAULT_DEPTH: an object or array this deep is refused. */
#define JSON_TYPED_MAX_DEPTH 32
/* syslog-ng's LOGMSG_MAX_MATCHES: a top-level array sets $1 up to this. */
#define JSON_TYPED_MAX_MATCHES 256

typedef enum
{
  JT_NULL,
  JT_BOOLEAN,
  JT_INT,
  JT_UINT,      /* above G_MAXINT64 */
  JT_DOUBLE,
  JT_STRING,
  JT_ARRAY,
  JT_OBJECT,
} JtKind;

typedef struct _JtValue JtValue;
struct _JtValue
{
  JtKind kind;
  gboolean boolean;
  gint64 i;
  guint64 u;
  GString *text;      /* a string unescaped; a real as written */
  GPtrArray *items;   /* JtValue of an array; JtValue of an object, each with its key */
  GString *key;       /* a member's name */
  const gchar *plain; /* the input's bytes where they are the stored text: a string
                       * without escapes, an integer as 4.8 writes it again, a
                       * real (kept as written for rsyslog); or NULL */
  gsize plain_len;
};

/* What a thread parses with, kept from message to message so that a
 * message costs no allocation once the thread has seen its like: the
 * values (with their strings and arrays), the key being read at each
 * depth and the text being stored. */
typedef struct
{
  GPtrArray *values;  /* JtValue */
  GString *keys[JSON_TYPED_MAX_DEPTH + 1];
  GString *value;
} JtScratch;

/* Past these a thread's scratch is let go after the message. */
#define JSON_TYPED_KEEP_VALUES 4096
#define JSON_TYPED_KEEP_BYTES (64 * 1024)

typedef struct
{
  const gchar *p;
  const gchar *end;
  guint depth;
  JtScratch *scratch;
  guint used;         /* of scratch->values, this message's */
} JtReader;

static void
value_free (gpointer p)
{
  JtValue *v = p;
  if (v->text)
    g_string_free (v->text, TRUE);
  if (v->key)
    g_string_free (v->key, TRUE);
  if (v->items)
    g_ptr_array_unref (v->items);
  g_free (v);
}

static void
scratch_free (gpointer p)
{
  JtScratch *scratch = p;
  g_ptr_array_unref (scratch->values);
  for (guint i = 0; i <= JSON_TYPED_MAX_DEPTH; i++)
    if (scratch->keys[i])
      g_string_free (scratch->keys[i], TRUE);
  g_string_free (scratch->value, TRUE);
  g_free (scratch);
}

static GPrivate scratch_key = G_PRIVATE_INIT (scratch_free);

static JtScratch *
scratch_get (void)
{
  JtScratch *scratch = g_private_get (&scratch_key);
  if (!scratch)
    {
      scratch = g_new0 (JtScratch, 1);
      scratch->values = g_ptr_array_new_with_free_func (value_free);
      scratch->value = g_string_new (NULL);
      g_private_set (&scratch_key, scratch);
    }
  return scratch;
}

/* A scratch that one huge message made huge is not kept. */
static void
scratch_trim (JtScratch *scratch)
{
  if (scratch->values->len > JSON_TYPED_KEEP_VALUES || scratch->value->allocated_len > JSON_TYPED_KEEP_BYTES)
    g_private_replace (&scratch_key, NULL);
}

static GString *
text_reset (GString **text)
{
  if (*text && (*text)->allocated_len > JSON_TYPED_KEEP_BYTES)
    {
      g_string_free (*text, TRUE);
      *text = NULL;
    }
  if (!*text)
    *text = g_string_new (NULL);
  (*text)->len = 0;
  (*text)->str[0] = '\0';
  return *text;
}

static JtValue *
value_new (JtReader *r, JtKind kind)
{
  GPtrArray *values = r->scratch->values;
  if (r->used == values->len)
    g_ptr_array_add (values, g_new0 (JtValue, 1));
  JtValue *v = g_ptr_array_index (values, r->used++);
  v->kind = kind;
  v->plain = NULL;
  if (v->items)
    g_ptr_array_set_size (v->items, 0);
  else if (kind == JT_ARRAY || kind == JT_OBJECT)
    v->items = g_ptr_array_new ();
  if (kind == JT_STRING || kind == JT_DOUBLE)
    text_reset (&v->text);
  return v;
}

static void
skip_space (JtReader *r)
{
  while (r->p < r->end && g_ascii_isspace (*r->p))
    r->p++;
}

/* A \u escape at r->p (past the backslash and 'u'); a surrogate that is
 * not one of a pair becomes U+FFFD, as json-c makes it. */
static gboolean
read_unicode (JtReader *r, GString *out)
{
  if (r->end - r->p < 4)
    return FALSE;
  gint value = json_hex4 (r->p);
  if (value < 0)
    return FALSE;
  r->p += 4;
  if (value >= 0xD800 && value <= 0xDBFF)
    {
      gint low = r->end - r->p >= 6 && r->p[0] == '\\' && r->p[1] == 'u' ? json_hex4 (r->p + 2) : -1;
      if (low >= 0xDC00 && low <= 0xDFFF)
        {
          value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00);
          r->p += 6;
        }
      else
        value = 0xFFFD;
    }
  else if (value >= 0xDC00 && value <= 0xDFFF)
    value = 0xFFFD;
  g_string_append_unichar (out, value);
  return TRUE;
}

/* The string at r->p (its opening quote), unescaped into out. */
static gboolean
read_string (JtReader *r, GString *out)
{
  r->p++;
  while (r->p < r->end)
    {
      /* the bytes up to the next quote or escape, in one copy */
      const gchar *run = r->p;
      while (r->p < r->end && *r->p != '"' && *r->p != '\\')
        r->p++;
      sl_text_append (out, run, r->p - run);
      if (r->p >= r->end)
        return FALSE;
      if (*r->p++ == '"')
        return TRUE;
      if (r->p >= r->end)
        return FALSE;
      gchar c = *r->p++;
      switch (c)
        {
        case '"': case '\\': case '/': g_string_append_c (out, c); break;
        case 'b': g_string_append_c (out, '\b'); break;
        case 'f': g_string_append_c (out, '\f'); break;
        case 'n': g_string_append_c (out, '\n'); break;
        case 'r': g_string_append_c (out, '\r'); break;
        case 't': g_string_append_c (out, '\t'); break;
        case 'u':
          if (!read_unicode (r, out))
            return FALSE;
          break;
        default:
          return FALSE;
        }
    }
  return FALSE;
}

/* An integer past 64 bits saturates as json-c's does: at G_MININT64
 * below, at G_MAXUINT64 above. */
static JtValue *
read_number (JtReader *r)
{
  const gchar *start = r->p;
  const gchar *p = start;
  if (p < r->end && *p == '-')
    p++;
  const gchar *digits = p;
  while (p < r->end && g_ascii_isdigit (*p))
    p++;
  if (p == digits)
    return NULL;
  gboolean real = FALSE;
  if (p < r->end && *p == '.')
    {
      real = TRUE;
      const gchar *fraction = ++p;
      while (p < r->end && g_ascii_isdigit (*p))
        p++;
      if (p == fraction)
        return NULL;
    }
  if (p < r->end && (*p == 'e' || *p == 'E'))
    {
      real = TRUE;
      p++;
      if (p < r->end && (*p == '+' || *p == '-'))
        p++;
      const gchar *exponent = p;
      while (p < r->end && g_ascii_isdigit (*p))
        p++;
      if (p == exponent)
        return NULL;
    }
  r->p = p;
  /* the text NUL-terminated for strtod and strtoll */
  GString *text = text_reset (&r->scratch->value);
  g_string_append_len (text, start, p - start);
  if (real)
    {
      JtValue *v = value_new (r, JT_DOUBLE);
      g_string_append_len (v->text, text->str, text->len);
      v->plain = start;
      v->plain_len = p - start;
      return v;
    }
  JtValue *v = value_new (r, JT_INT);
  errno = 0;
  v->i = g_ascii_strtoll (text->str, NULL, 10);
  if (errno == ERANGE && *start != '-')
    {
      v->u = g_ascii_strtoull (text->str, NULL, 10);
      v->kind = JT_UINT;
    }
  /* written again it is the same text unless it saturated, had leading
   * zeros or was -0 */
  else if (errno == 0 && (*digits != '0' || p - digits == 1) && !(*start == '-' && v->i == 0))
    {
      v->plain = start;
      v->plain_len = p - start;
    }
  return v;
}

/* true, false and null, as json-c reads them: in any case */
static JtValue *
read_word (JtReader *r)
{
  static const struct
  {
    const gchar *word;
    JtKind kind;
    gboolean boolean;
  } words[] = { { "true", JT_BOOLEAN, TRUE }, { "false", JT_BOOLEAN, FALSE }, { "null", JT_NULL, FALSE } };
  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    {
      gsize len = strlen (words[i].word);
      if ((gsize) (r->end - r->p) >= len && g_ascii_strncasecmp (r->p, words[i].word, len) == 0)
        {
          r->p += len;
          JtValue *v = value_new (r, words[i].kind);
          v->boolean = words[i].boolean;
          return v;
        }
    }
  return NULL;
}

static JtValue *read_value (JtReader *r);

/* Past this many members an object's keys are looked up in a hash table:
 * the sender decides how wide an object is. */
#define JSON_TYPED_WIDE 32

/* The place of the member called key in object, or -1; *index, made once
 * the object is wide, maps keys to places. */
static gint
member_index (const JtValue *object, const GString *key, GHashTable **index)
{
  if (!*index && object->items->len >= JSON_TYPED_WIDE)
    {
      *index = g_hash_table_new ((GHashFunc) g_string_hash, (GEqualFunc) g_string_equal);
      for (guint i = 0; i < object->items->len; i++)
        g_hash_table_insert (*index, ((JtValue *) g_ptr_array_index (object->items, i))->key, GUINT_TO_POINTER (i + 1));
    }
  if (*index)
    return GPOINTER_TO_INT (g_hash_table_lookup (*index, key)) - 1;
  for (guint i = 0; i < object->items->len; i++)
    {
      const JtValue *m = g_ptr_array_index (object->items, i);
      if (g_string_equal (m->key, key))
        return i;
    }
  return -1;
}

static JtValue *
read_members (JtReader *r, JtValue *object, GHashTable **index)
{
  r->p++;
  skip_space (r);
  if (r->p < r->end && *r->p == '}')
    {
      r->p++;
      return object;
    }
  for (;;)
    {
      if (r->p >= r->end || *r->p != '"')
        return NULL;
      /* objects inside the value read their keys one depth further */
      GString *key = text_reset (&r->scratch->keys[r->depth]);
      if (!read_string (r, key))
        return NULL;
      skip_space (r);
      JtValue *value = r->p < r->end && *r->p == ':' ? (r->p++, read_value (r)) : NULL;
      if (!value)
        return NULL;
      g_string_append_len (text_reset (&value->key), key->str, key->len);
      key = value->key;
      /* a repeated key keeps its place and takes the new value */
      gint at = member_index (object, key, index);
      if (at >= 0)
        g_ptr_array_index (object->items, at) = value;
      else
        {
          g_ptr_array_add (object->items, value);
          if (*index)
            g_hash_table_insert (*index, key, GUINT_TO_POINTER (object->items->len));
        }
      skip_space (r);
      if (r->p < r->end && *r->p == ',')
        {
          r->p++;
          skip_space (r);
          continue;
        }
      if (r->p < r->end && *r->p == '}')
        {
          r->p++;
          return object;
        }
      return NULL;
    }
}

static JtValue *
read_object (JtReader *r)
{
  JtValue *object = value_new (r, JT_OBJECT);
  GHashTable *index = NULL;
  JtValue *done = read_members (r, object, &index);
  if (index)
    g_hash_table_unref (index);
  return done;
}

static JtValue *
read_array (JtReader *r)
{
  JtValue *array = value_new (r, JT_ARRAY);
  r->p++;
  skip_space (r);
  if (r->p < r->end && *r->p == ']')
    {
      r->p++;
      return array;
    }
  for (;;)
    {
      JtValue *item = read_value (r);
      if (!item)
        return NULL;
      g_ptr_array_add (array->items, item);
      skip_space (r);
      if (r->p < r->end && *r->p == ',')
        {
          r->p++;
          continue;
        }
      if (r->p < r->end && *r->p == ']')
        {
          r->p++;
          return array;
        }
      return NULL;
    }
}

static JtValue *
read_value (JtReader *r)
{
  skip_space (r);
  if (r->p >= r->end)
    return NULL;
  JtValue *v = NULL;
  switch (*r->p)
    {
    case '{':
    case '[':
      if (++r->depth >= JSON_TYPED_MAX_DEPTH)
        return NULL;
      v = *r->p == '{' ? read_object (r) : read_array (r);
      r->depth--;
      break;
    case '"':
      {
        const gchar *start = r->p + 1;
        v = value_new (r, JT_STRING);
        if (!read_string (r, v->text))
          return NULL;
        /* an escape always makes the text shorter than its bytes; a NUL
         * would end the text where json-c's string ends */
        gboolean plain = v->text->len == (gsize) (r->p - 1 - start) && !memchr (start, '\0', v->text->len);
        v->plain = plain ? start : NULL;
        v->plain_len = v->text->len;
        break;
      }
    case '-':
    case '0' ... '9':
      v = read_number (r);
      break;
    default:
      v = read_word (r);
      break;
    }
  return v;
}

/* json-c's json_object_get_int64(): an unsigned integer past it saturates */
static gint64
int64_of (const JtValue *v)
{
  return v->kind == JT_UINT ? (v->u > G_MAXINT64 ? G_MAXINT64 : (gint64) v->u) : v->i;
}

/* A string as json-c writes it: '/' escaped too, other control characters
 * as \u00xx; the rest, UTF-8 or not, as it is. */
static void
write_string (GString *out, const gchar *text, gsize len)
{
  g_string_append_c (out, '"');
  for (gsize i = 0; i < len; i++)
    {
      guchar c = text[i];
      switch (c)
        {
        case '\b': g_string_append (out, "\\b"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        case '\f': g_string_append (out, "\\f"); break;
        case '"': g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '/': g_string_append (out, "\\/"); break;
        default:
          if (c < ' ')
            g_string_append_printf (out, "\\u%04x", c);
          else
            g_string_append_c (out, c);
        }
    }
  g_string_append_c (out, '"');
}

/* v as json-c's json_object_to_json_string_ext() writes it: PLAIN, or
 * SPACED as libfastjson writes rsyslog's variables ([ 1, "a" ], { }) */
static void
write_json (GString *out, const JtValue *v, gboolean spaced)
{
  switch (v->kind)
    {
    case JT_NULL:
      g_string_append (out, "null");
      break;
    case JT_BOOLEAN:
      g_string_append (out, v->boolean ? "true" : "false");
      break;
    case JT_INT:
      g_string_append_printf (out, "%" G_GINT64_FORMAT, v->i);
      break;
    case JT_UINT:
      g_string_append_printf (out, "%" G_GUINT64_FORMAT, v->u);
      break;
    case JT_DOUBLE:
      g_string_append_len (out, v->text->str, v->text->len);
      break;
    case JT_STRING:
      write_string (out, v->text->str, v->text->len);
      break;
    case JT_ARRAY:
    case JT_OBJECT:
      g_string_append_c (out, v->kind == JT_ARRAY ? '[' : '{');
      for (guint i = 0; i < v->items->len; i++)
        {
          const JtValue *item = g_ptr_array_index (v->items, i);
          if (i)
            g_string_append_c (out, ',');
          if (spaced)
            g_string_append_c (out, ' ');
          if (v->kind == JT_OBJECT)
            {
              write_string (out, item->key->str, item->key->len);
              g_string_append (out, spaced ? ": " : ":");
            }
          write_json (out, item, spaced);
        }
      if (spaced)
        g_string_append_c (out, ' ');
      g_string_append_c (out, v->kind == JT_ARRAY ? ']' : '}');
      break;
    }
}

/* printf's %f of a real written with at most 9 digits before the point,
 * 6 after it and no exponent, without reading it into a double: its
 * digits, the fraction padded with zeros to 6 places. The double nearest
 * such a number is within 2^-24 of it, well inside the half millionth
 * that %f's rounding to 6 places would need to give other digits.
 * FALSE for any other text. */
static gboolean
append_fixed (GString *out, const gchar *text, gsize len)
{
  const gchar *p = text, *end = text + len;
  gchar fixed[1 + 9 + 1 + 6];
  gsize n = 0;
  if (p < end && *p == '-')
    fixed[n++] = *p++;
  while (p + 1 < end && *p == '0' && g_ascii_isdigit (p[1]))
    p++;
  const gchar *digits = p;
  while (p < end && g_ascii_isdigit (*p))
    p++;
  gsize int_len = p - digits;
  if (!int_len || int_len > 9)
    return FALSE;
  memcpy (fixed + n, digits, int_len);
  n += int_len;
  fixed[n++] = '.';
  gsize frac_len = 0;
  if (p < end && *p == '.')
    {
      const gchar *fraction = ++p;
      while (p < end && g_ascii_isdigit (*p))
        p++;
      frac_len = p - fraction;
      if (frac_len > 6)
        return FALSE;
      memcpy (fixed + n, fraction, frac_len);
      n += frac_len;
    }
  if (p != end)
    return FALSE;
  for (; frac_len < 6; frac_len++)
    fixed[n++] = '0';
  sl_text_append (out, fixed, n);
  return TRUE;
}

/* A scalar's text and type as 4.8 stores it, or as rsyslogd does (a real
 * as it was written, as libfastjson keeps it); FALSE for an array or
 * object. A string ends at its first NUL, as json-c hands it over. */
static gboolean
scalar_text (const JtValue *v, gboolean rsyslog, GString *out, SlValueType *type)
{
  gchar buffer[G_ASCII_DTOSTR_BUF_SIZE + 320];
  switch (v->kind)
    {
    case JT_NULL:
      *type = SL_VALUE_NULL;
      return TRUE;
    case JT_BOOLEAN:
      g_string_append (out, v->boolean ? "true" : "false");
      *type = SL_VALUE_BOOLEAN;
      return TRUE;
    case JT_INT:
    case JT_UINT:
      sl_text_append_int64 (out, int64_of (v));
      *type = SL_VALUE_INT64;
      return TRUE;
    case JT_DOUBLE:
      if (rsyslog)
        g_string_append_len (out, v->text->str, v->text->len);
      else if (!append_fixed (out, v->text->str, v->text->len))
        {
          g_ascii_formatd (buffer, sizeof buffer, "%f", g_ascii_strtod (v->text->str, NULL));
          g_string_append (out, buffer);
        }
      *type = SL_VALUE_DOUBLE;
      return TRUE;
    case JT_STRING:
      g_string_append (out, v->text->str);
      *type = SL_VALUE_STRING;
      return TRUE;
    case JT_ARRAY:
    case JT_OBJECT:
      break;
    }
  return FALSE;
}

/* An array of strings alone (or of nothing) is a list; any other, JSON. */
static void
array_text (const JtValue *array, GString *out, SlValueType *type)
{
  for (guint i = 0; i < array->items->len; i++)
    {
      const JtValue *item = g_ptr_array_index (array->items, i);
      if (item->kind != JT_STRING)
        {
          g_string_truncate (out, 0);
          write_json (out, array, FALSE);
          *type = SL_VALUE_JSON;
          return;
        }
      if (i)
        g_string_append_c (out, ',');
      sl_str_repr_encode_append (out, item->text->str, strlen (item->text->str), NULL);
    }
  *type = SL_VALUE_LIST;
}

typedef struct
{
  const JsonParser *parser;
  SlMessage *msg;
  GString *value;
  gint skipped;
  const gchar *input;
  const gchar *received;  /* the input as the message's own bytes, or NULL */
  gboolean rsyslog;       /* values as rsyslogd's mmjsonparse keeps them */
} JtStore;

static void
store (JtStore *s, const gchar *name, SlValueType type)
{
  sl_message_set_typed (s->msg, sl_field_handle (name), s->value->str, s->value->len, type);
}

/* A scalar whose stored text is its text as received is a slice of the
 * message's bytes, not a copy. */
static gboolean
store_plain (JtStore *s, const gchar *name, const JtValue *v)
{
  SlValueType type;
  if (!v->plain || !s->received)
    return FALSE;
  switch (v->kind)
    {
    case JT_STRING:
      type = SL_VALUE_STRING;
      break;
    case JT_INT:
      type = SL_VALUE_INT64;
      break;
    case JT_DOUBLE:
      /* 4.8 writes a real again with %f */
      if (!s->rsyslog)
        return FALSE;
      type = SL_VALUE_DOUBLE;
      break;
    default:
      return FALSE;
    }
  sl_message_set_slice_typed (s->msg, sl_field_handle (name), s->received + (v->plain - s->input), v->plain_len,
                              type);
  return TRUE;
}

/* The input's bytes in msg when the input is its MESSAGE (no template())
 * after the marker, as json-scan.c finds them. */
static const gchar *
received_input (const JsonParser *parser, const SlMessage *msg, gsize len)
{
  if (parser->template)
    return NULL;
  gsize message_len;
  const gchar *message = sl_message_get (msg, SL_F_MESSAGE, &message_len);
  const gchar *raw_end = msg->raw + msg->raw_len + msg->extra_len;
  if (message && message >= msg->raw && message <= raw_end && message_len <= (gsize) (raw_end - message)
      && message_len == parser->marker_len + len)
    return message + parser->marker_len;
  return NULL;
}

static void
store_object (JtStore *s, const JtValue *object, JsonName *name, gboolean nested)
{
  gsize base = name->len;
  for (guint i = 0; i < object->items->len; i++)
    {
      const JtValue *member = g_ptr_array_index (object->items, i);
      const gchar *key = member->key->str;
      gsize key_len = strlen (key);
      /* rsyslogd's member "a.b" is one: the field name escapes its dot */
      g_autoptr (GString) escaped = NULL;
      if (s->rsyslog && strpbrk (key, ".\\"))
        {
          escaped = g_string_new (NULL);
          sl_member_name_append (escaped, key, key_len);
          key = escaped->str;
          key_len = escaped->len;
        }
      gsize len = base + (nested ? 1 : 0) + key_len;
      if (!len || len > JSON_MAX_NAME)
        {
          s->skipped++;
          continue;
        }
      name->len = base;
      if (nested)
        name->text[name->len++] = s->parser->delimiter;
      memcpy (name->text + name->len, key, key_len + 1);
      name->len = len;
      SlValueType type;
      g_string_truncate (s->value, 0);
      if (member->kind == JT_OBJECT && !(s->rsyslog && !member->items->len))
        store_object (s, member, name, TRUE);
      else if (member->kind == JT_OBJECT || (member->kind == JT_ARRAY && s->rsyslog))
        {
          /* rsyslogd writes an empty object and an array as they came */
          write_json (s->value, member, TRUE);
          store (s, name->text, SL_VALUE_JSON);
        }
      else if (member->kind == JT_ARRAY)
        {
          array_text (member, s->value, &type);
          store (s, name->text, type);
        }
      else if (!store_plain (s, name->text, member) && scalar_text (member, s->rsyslog, s->value, &type))
        store (s, name->text, type);
    }
  name->len = base;
  name->text[base] = '\0';
}

/* A top-level array: its items are $1, $2, ...; $0 and the matches past
 * them are unset, as after a regular expression. */
static void
store_matches (JtStore *s, const JtValue *array)
{
  guint n = MIN (array->items->len, JSON_TYPED_MAX_MATCHES - 1);
  gchar name[8];
  SlHandle h = sl_field_lookup ("0");
  if (h != SL_F_NONE)
    sl_message_unset (s->msg, h);
  for (guint i = 0; i < n; i++)
    {
      const JtValue *item = g_ptr_array_index (array->items, i);
      SlValueType type;
      g_string_truncate (s->value, 0);
      if (!scalar_text (item, FALSE, s->value, &type))
        {
          write_json (s->value, item, FALSE);
          type = SL_VALUE_JSON;
        }
      g_snprintf (name, sizeof name, "%u", i + 1);
      store (s, name, type);
    }
  for (guint i = n + 1; i < JSON_TYPED_MAX_MATCHES; i++)
    {
      g_snprintf (name, sizeof name, "%u", i);
      h = sl_field_lookup (name);
      if (h != SL_F_NONE)
        sl_message_unset (s->msg, h);
    }
}

/* extract-prefix(): a member's value (the last of a repeated key), an item */
static const JtValue *
extract (const JsonParser *parser, const JtValue *v)
{
  for (guint i = 0; v && parser->extract && i < parser->extract->len; i++)
    {
      const JsonStep *step = &g_array_index (parser->extract, JsonStep, i);
      const JtValue *next = NULL;
      if (step->key && v->kind == JT_OBJECT)
        for (guint k = 0; k < v->items->len && !next; k++)
          {
            const JtValue *m = g_ptr_array_index (v->items, k);
            if (m->key->len == step->key_len && memcmp (m->key->str, step->key, step->key_len) == 0)
              next = m;
          }
      else if (!step->key && v->kind == JT_ARRAY && step->index < v->items->len)
        next = g_ptr_array_index (v->items, step->index);
      v = next;
    }
  return v;
}

gboolean
json_typed_flatten (const JsonParser *parser, const gchar *input, gsize len, SlMessage **msg)
{
  JtReader r = { input, input + len, 0, scratch_get (), 0 };
  const JtValue *root = read_value (&r);
  const JtValue *v = root ? extract (parser, root) : NULL;
  gboolean rsyslog = parser->types == JSON_TYPES_RSYSLOG;
  /* rsyslogd's mmjsonparse takes an object alone, with nothing but blanks after it */
  if (rsyslog)
    skip_space (&r);
  gboolean ok = v && (v->kind == JT_OBJECT || (v->kind == JT_ARRAY && !rsyslog)) && (!rsyslog || r.p == r.end);
  if (ok)
    {
      sl_message_make_writable (msg);
      JtStore s = { parser, *msg, text_reset (&r.scratch->value), 0, input, received_input (parser, *msg, len), rsyslog };
      if (v->kind == JT_OBJECT)
        {
          JsonName name;
          name.len = g_strlcpy (name.text, parser->prefix, sizeof name.text);
          store_object (&s, v, &name, FALSE);
        }
      else
        store_matches (&s, v);
      if (s.skipped)
        sl_counter_add (parser->skipped_keys, s.skipped);
    }
  scratch_trim (r.scratch);
  return ok;
}
