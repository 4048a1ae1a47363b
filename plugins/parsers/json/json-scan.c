/* SPDX-License-Identifier: GPL-2.0-or-later */
/* json-parser() in one pass over the text, without a tree: the scanner
 * checks the text against the grammar jansson's json_loadb() accepts
 * (json-tree.c is the reference) while it collects the fields to set, and
 * sets them only once the whole text has proved valid, so that a refused
 * text leaves the message as it was. Strings are unescaped in place in the
 * parser's input buffer; a value whose text needs no change is set as a
 * slice of the message's received bytes when the input is MESSAGE. */
#include "plugins/parsers/json/json-parser.h"

#include <errno.h>
#include <math.h>
#include <string.h>

/* jansson's JSON_PARSER_MAX_DEPTH: it counts every value, scalars too. */
#define JSON_MAX_DEPTH 2048
/* Repeated keys are looked for by comparing each key with the object's
 * earlier ones; past this many members the tree decides instead. */
#define JSON_WIDE 64
/* Scratch that once held a huge message is not kept at that size. */
#define JSON_SCRATCH_KEEP (256 * 1024)
#define JSON_NOT_ON_PATH G_MAXUINT

typedef enum
{
  JSON_SLICE,     /* at value in the input, as received */
  JSON_EDITED,    /* at value in the input, unescaped in place */
  JSON_MADE,      /* at value in scratch->text */
} JsonWhere;

/* A field to set once the text has proved valid. */
typedef struct
{
  gsize name;        /* in scratch->names, NUL-terminated */
  gsize value;
  gsize len;
  JsonWhere where;
} JsonSet;

typedef struct
{
  const gchar *ptr;
  gsize len;
} JsonKey;

/* Per thread, reused from message to message. */
typedef struct
{
  GArray *sets;      /* JsonSet */
  GString *names;
  GString *text;     /* reals and arrays, written as the tree path writes them */
  GArray *keys;      /* JsonKey: the members of the objects open */
} JsonScratch;

typedef enum
{
  JSON_SKIP,      /* checked only */
  JSON_ROOT,      /* the object whose members become fields */
  JSON_COLLECT,   /* a member's value: becomes the field named in scan->name */
  JSON_RENDER,    /* inside an array: written to scratch->text */
} JsonMode;

typedef struct
{
  const JsonParser *parser;
  gchar *p;
  const gchar *end;
  const gchar *input;
  JsonScratch *scratch;
  guint depth;
  guint path_len;
  gint skipped;
  gboolean ambiguous;
  gboolean target;   /* the value extract-prefix() names was an object */
  JsonName name;
} JsonScan;

static void
scratch_free (gpointer p)
{
  JsonScratch *scratch = p;
  g_array_unref (scratch->sets);
  g_string_free (scratch->names, TRUE);
  g_string_free (scratch->text, TRUE);
  g_array_unref (scratch->keys);
  g_free (scratch);
}

static GPrivate scratch_key = G_PRIVATE_INIT (scratch_free);

static JsonScratch *
scratch_get (void)
{
  JsonScratch *scratch = g_private_get (&scratch_key);
  if (scratch && (scratch->text->allocated_len > JSON_SCRATCH_KEEP
                  || scratch->names->allocated_len > JSON_SCRATCH_KEEP
                  || scratch->sets->len * sizeof (JsonSet) > JSON_SCRATCH_KEEP
                  || scratch->keys->len * sizeof (JsonKey) > JSON_SCRATCH_KEEP))
    {
      g_private_replace (&scratch_key, NULL);
      scratch = NULL;
    }
  if (!scratch)
    {
      scratch = g_new (JsonScratch, 1);
      scratch->sets = g_array_sized_new (FALSE, FALSE, sizeof (JsonSet), 64);
      scratch->names = g_string_sized_new (1024);
      scratch->text = g_string_sized_new (1024);
      scratch->keys = g_array_sized_new (FALSE, FALSE, sizeof (JsonKey), 64);
      g_private_set (&scratch_key, scratch);
    }
  g_array_set_size (scratch->sets, 0);
  g_string_truncate (scratch->names, 0);
  g_string_truncate (scratch->text, 0);
  g_array_set_size (scratch->keys, 0);
  return scratch;
}

static void
skip_space (JsonScan *s)
{
  while (s->p < s->end && (*s->p == ' ' || *s->p == '\n' || *s->p == '\r' || *s->p == '\t'))
    s->p++;
}

/* The length of the UTF-8 sequence at p, 0 when it is none (overlong,
 * surrogate, past U+10FFFF or cut short), as jansson's utf8_check_full. */
static gsize
utf8_length (const guchar *p, const guchar *end)
{
  guchar c = p[0];
  gsize n;
  gunichar value;
  if (c < 0xC2)
    return 0;
  else if (c < 0xE0)
    n = 2, value = c & 0x1F;
  else if (c < 0xF0)
    n = 3, value = c & 0x0F;
  else if (c < 0xF5)
    n = 4, value = c & 0x07;
  else
    return 0;
  if ((gsize) (end - p) < n)
    return 0;
  for (gsize i = 1; i < n; i++)
    {
      if ((p[i] & 0xC0) != 0x80)
        return 0;
      value = (value << 6) | (p[i] & 0x3F);
    }
  if ((n == 3 && (value < 0x800 || (value >= 0xD800 && value <= 0xDFFF)))
      || (n == 4 && (value < 0x10000 || value > 0x10FFFF)))
    return 0;
  return n;
}

gint
json_hex4 (const gchar *p)
{
  gint value = 0;
  for (gint i = 0; i < 4; i++)
    {
      gint digit = g_ascii_xdigit_value (p[i]);
      if (digit < 0)
        return -1;
      value = (value << 4) | digit;
    }
  return value;
}

/* A \u escape at r (r[0] is the backslash), two for a surrogate pair,
 * decoded to UTF-8 at w; the bytes of the escape read, 0 when refused. */
static gsize
unescape_unicode (const gchar *r, const gchar *end, gchar **w)
{
  if (end - r < 6)
    return 0;
  gint value = json_hex4 (r + 2);
  gsize used = 6;
  if (value <= 0 || (value >= 0xDC00 && value <= 0xDFFF))
    return 0;
  if (value >= 0xD800 && value <= 0xDBFF)
    {
      if (end - r < 12 || r[6] != '\\' || r[7] != 'u')
        return 0;
      gint low = json_hex4 (r + 8);
      if (low < 0xDC00 || low > 0xDFFF)
        return 0;
      value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00);
      used = 12;
    }
  *w += g_unichar_to_utf8 (value, *w);
  return used;
}

/* The string at s->p (its opening quote), unescaped in place: *start and
 * *len its text, *edited whether that differs from the bytes received. */
static gboolean
scan_string (JsonScan *s, gchar **start, gsize *len, gboolean *edited)
{
  gchar *r = s->p + 1;
  const gchar *end = s->end;
  gchar *w = NULL;
  *start = r;

  for (;;)
    {
      if (r >= end)
        return FALSE;
      guchar c = (guchar) *r;
      if (c == '"')
        break;
      if (c < 0x20)
        return FALSE;
      if (c == '\\')
        {
          if (!w)
            w = r;
          if (end - r < 2)
            return FALSE;
          gchar plain;
          switch (r[1])
            {
            case '"': plain = '"'; break;
            case '\\': plain = '\\'; break;
            case '/': plain = '/'; break;
            case 'b': plain = '\b'; break;
            case 'f': plain = '\f'; break;
            case 'n': plain = '\n'; break;
            case 'r': plain = '\r'; break;
            case 't': plain = '\t'; break;
            case 'u':
              {
                gsize used = unescape_unicode (r, end, &w);
                if (!used)
                  return FALSE;
                r += used;
                continue;
              }
            default:
              return FALSE;
            }
          *w++ = plain;
          r += 2;
          continue;
        }
      gsize n = 1;
      if (c >= 0x80 && !(n = utf8_length ((const guchar *) r, (const guchar *) end)))
        return FALSE;
      if (w)
        {
          memmove (w, r, n);
          w += n;
        }
      r += n;
    }
  *len = (w ? w : r) - *start;
  *edited = w != NULL;
  s->p = r + 1;
  return TRUE;
}

/* A string as jansson's json_dumps() writes it without flags. */
static void
render_string (GString *out, const gchar *text, gsize len)
{
  g_string_append_c (out, '"');
  for (gsize i = 0; i < len; i++)
    {
      guchar c = (guchar) text[i];
      switch (c)
        {
        case '"': g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\b': g_string_append (out, "\\b"); break;
        case '\f': g_string_append (out, "\\f"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        default:
          if (c < 0x20)
            g_string_append_printf (out, "\\u%04X", c);
          else
            g_string_append_c (out, c);
        }
    }
  g_string_append_c (out, '"');
}

/* A real as jansson's json_dumps() writes it: %.17g, with ".0" when that
 * looks like an integer, and the exponent without '+' or leading zeros. */
static void
render_real (GString *out, gdouble value)
{
  gchar buffer[G_ASCII_DTOSTR_BUF_SIZE + 2];
  g_ascii_formatd (buffer, sizeof buffer - 2, "%.17g", value);
  gchar *e = strchr (buffer, 'e');
  if (!e && !strchr (buffer, '.'))
    strcat (buffer, ".0");
  if (e)
    {
      gchar *digits = e + 1;
      if (*digits == '-')
        digits++;
      gchar *first = e + 1;
      if (*first == '+' || *first == '-')
        first++;
      while (*first == '0' && first[1])
        first++;
      if (first != digits)
        memmove (digits, first, strlen (first) + 1);
    }
  g_string_append (out, buffer);
}

static void
add_set (JsonScan *s, JsonWhere where, gsize value, gsize len)
{
  JsonScratch *scratch = s->scratch;
  JsonSet set = { scratch->names->len, value, len, where };
  g_string_append_len (scratch->names, s->name.text, s->name.len + 1);
  g_array_append_val (scratch->sets, set);
}

/* -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? as jansson reads it: an
 * integer out of 64 bits, or a real out of a double's range, is refused. */
static gboolean
scan_number (JsonScan *s, JsonMode mode)
{
  gchar *start = s->p, *p = s->p;
  const gchar *end = s->end;
  gboolean real = FALSE;

  if (*p == '-')
    p++;
  if (p < end && *p == '0')
    {
      p++;
      if (p < end && g_ascii_isdigit (*p))
        return FALSE;
    }
  else if (p < end && g_ascii_isdigit (*p))
    while (p < end && g_ascii_isdigit (*p))
      p++;
  else
    return FALSE;
  gsize int_len = p - start;
  if (p < end && *p == '.')
    {
      p++;
      if (p >= end || !g_ascii_isdigit (*p))
        return FALSE;
      while (p < end && g_ascii_isdigit (*p))
        p++;
      real = TRUE;
    }
  if (p < end && (*p == 'e' || *p == 'E'))
    {
      p++;
      if (p < end && (*p == '+' || *p == '-'))
        p++;
      if (p >= end || !g_ascii_isdigit (*p))
        return FALSE;
      while (p < end && g_ascii_isdigit (*p))
        p++;
      real = TRUE;
    }
  s->p = p;

  /* the text ends at p: the next byte (NUL past the end) ends strtod too */
  gchar saved = *p;
  gsize len = p - start;
  GString *text = s->scratch->text;
  if (real)
    {
      *p = '\0';
      errno = 0;
      gdouble value = g_ascii_strtod (start, NULL);
      *p = saved;
      if (errno == ERANGE && isinf (value))
        return FALSE;
      if (mode == JSON_RENDER)
        render_real (text, value);
      else if (mode == JSON_COLLECT)
        {
          gchar buffer[JSON_REAL_SIZE];
          json_format_real (buffer, value);
          gsize at = text->len;
          g_string_append (text, buffer);
          add_set (s, JSON_MADE, at, text->len - at);
        }
      return TRUE;
    }

  /* 19 digits may be out of 64 bits, fewer may not */
  if (int_len - (*start == '-') >= 19)
    {
      *p = '\0';
      errno = 0;
      g_ascii_strtoll (start, NULL, 10);
      *p = saved;
      if (errno == ERANGE)
        return FALSE;
    }
  gboolean minus_zero = len == 2 && start[0] == '-' && start[1] == '0';
  if (mode == JSON_RENDER)
    {
      if (minus_zero)
        g_string_append_c (text, '0');
      else
        g_string_append_len (text, start, len);
    }
  else if (mode == JSON_COLLECT)
    {
      if (minus_zero)
        {
          gsize at = text->len;
          g_string_append_c (text, '0');
          add_set (s, JSON_MADE, at, 1);
        }
      else
        add_set (s, JSON_SLICE, start - s->input, len);
    }
  return TRUE;
}

static gboolean
scan_literal (JsonScan *s, JsonMode mode, const gchar *word, gsize len)
{
  if ((gsize) (s->end - s->p) < len || memcmp (s->p, word, len) != 0)
    return FALSE;
  if (mode == JSON_RENDER)
    g_string_append_len (s->scratch->text, word, len);
  else if (mode == JSON_COLLECT && word[0] == 'n')
    add_set (s, JSON_MADE, s->scratch->text->len, 0);
  else if (mode == JSON_COLLECT)
    add_set (s, JSON_SLICE, s->p - s->input, len);
  s->p += len;
  return TRUE;
}

static gboolean scan_value (JsonScan *s, JsonMode mode, guint path);

/* Whether key repeats one of the members of the object open since base,
 * or the object is too wide to tell cheaply: then the tree decides. */
static gboolean
key_is_ambiguous (JsonScan *s, guint base, const gchar *key, gsize len)
{
  GArray *keys = s->scratch->keys;
  if (keys->len - base >= JSON_WIDE)
    return TRUE;
  for (guint i = base; i < keys->len; i++)
    {
      const JsonKey *k = &g_array_index (keys, JsonKey, i);
      if (k->len == len && memcmp (k->ptr, key, len) == 0)
        return TRUE;
    }
  JsonKey k = { key, len };
  g_array_append_val (keys, k);
  return FALSE;
}

/* What the member key becomes: its mode, and the extract-prefix() steps
 * matched once it is entered. */
static JsonMode
member_mode (JsonScan *s, JsonMode mode, guint path, const gchar *key, gsize key_len, guint *child_path)
{
  *child_path = JSON_NOT_ON_PATH;
  if (mode == JSON_RENDER)
    return mode;
  if (mode == JSON_ROOT || mode == JSON_COLLECT)
    {
      gsize base = s->name.len;
      gsize len = base + (mode == JSON_COLLECT ? 1 : 0) + key_len;
      if (!len || len > JSON_MAX_NAME)
        {
          s->skipped++;
          return JSON_SKIP;
        }
      if (mode == JSON_COLLECT)
        s->name.text[s->name.len++] = s->parser->delimiter;
      memcpy (s->name.text + s->name.len, key, key_len);
      s->name.len = len;
      s->name.text[len] = '\0';
      return JSON_COLLECT;
    }
  if (path < s->path_len)
    {
      const JsonStep *step = &g_array_index (s->parser->extract, JsonStep, path);
      if (step->key && step->key_len == key_len && memcmp (step->key, key, key_len) == 0)
        *child_path = path + 1;
    }
  return JSON_SKIP;
}

static gboolean
scan_object (JsonScan *s, JsonMode mode, guint path)
{
  GString *text = s->scratch->text;
  guint keys_base = s->scratch->keys->len;
  gsize name_base = s->name.len;

  s->p++;
  skip_space (s);
  if (s->p < s->end && *s->p == '}')
    {
      s->p++;
      if (mode == JSON_RENDER)
        g_string_append (text, "{}");
      return TRUE;
    }
  if (mode == JSON_RENDER)
    g_string_append_c (text, '{');
  for (;;)
    {
      if (s->p >= s->end || *s->p != '"')
        return FALSE;
      gchar *key;
      gsize key_len;
      gboolean edited;
      if (!scan_string (s, &key, &key_len, &edited))
        return FALSE;
      if (key_is_ambiguous (s, keys_base, key, key_len))
        {
          s->ambiguous = TRUE;
          return FALSE;
        }
      if (mode == JSON_RENDER)
        {
          render_string (text, key, key_len);
          g_string_append_c (text, ':');
        }
      skip_space (s);
      if (s->p >= s->end || *s->p != ':')
        return FALSE;
      s->p++;
      skip_space (s);
      guint child_path;
      JsonMode child = member_mode (s, mode, path, key, key_len, &child_path);
      if (!scan_value (s, child, child_path))
        return FALSE;
      s->name.len = name_base;
      skip_space (s);
      if (s->p < s->end && *s->p == ',')
        {
          s->p++;
          skip_space (s);
          if (mode == JSON_RENDER)
            g_string_append_c (text, ',');
          continue;
        }
      if (s->p < s->end && *s->p == '}')
        break;
      return FALSE;
    }
  s->p++;
  if (mode == JSON_RENDER)
    g_string_append_c (text, '}');
  g_array_set_size (s->scratch->keys, keys_base);
  return TRUE;
}

static gboolean
scan_array (JsonScan *s, JsonMode mode, guint path)
{
  GString *text = s->scratch->text;
  const JsonStep *step = path < s->path_len ? &g_array_index (s->parser->extract, JsonStep, path) : NULL;

  s->p++;
  skip_space (s);
  if (mode == JSON_RENDER)
    g_string_append_c (text, '[');
  if (s->p < s->end && *s->p == ']')
    {
      s->p++;
      if (mode == JSON_RENDER)
        g_string_append_c (text, ']');
      return TRUE;
    }
  for (gsize index = 0;; index++)
    {
      guint child_path = step && !step->key && step->index == index ? path + 1 : JSON_NOT_ON_PATH;
      if (!scan_value (s, mode, child_path))
        return FALSE;
      skip_space (s);
      if (s->p < s->end && *s->p == ',')
        {
          s->p++;
          skip_space (s);
          if (mode == JSON_RENDER)
            g_string_append_c (text, ',');
          continue;
        }
      if (s->p < s->end && *s->p == ']')
        break;
      return FALSE;
    }
  s->p++;
  if (mode == JSON_RENDER)
    g_string_append_c (text, ']');
  return TRUE;
}

static gboolean
scan_value (JsonScan *s, JsonMode mode, guint path)
{
  if (s->p >= s->end || ++s->depth > JSON_MAX_DEPTH)
    return FALSE;

  if (path == s->path_len)
    {
      if (*s->p == '{')
        {
          s->target = TRUE;
          mode = JSON_ROOT;
        }
      path = JSON_NOT_ON_PATH;
    }

  const gchar *start = s->p;
  gboolean ok;
  switch (*start)
    {
    case '{':
      ok = scan_object (s, mode, path);
      break;
    case '[':
      if (mode == JSON_COLLECT)
        {
          gsize at = s->scratch->text->len;
          ok = scan_array (s, JSON_RENDER, path);
          if (ok)
            add_set (s, JSON_MADE, at, s->scratch->text->len - at);
        }
      else
        ok = scan_array (s, mode, path);
      break;
    case '"':
      {
        gchar *text;
        gsize len;
        gboolean edited;
        ok = scan_string (s, &text, &len, &edited);
        if (ok && mode == JSON_RENDER)
          render_string (s->scratch->text, text, len);
        else if (ok && mode == JSON_COLLECT)
          add_set (s, edited ? JSON_EDITED : JSON_SLICE, text - s->input, len);
        break;
      }
    case 't':
      ok = scan_literal (s, mode, "true", 4);
      break;
    case 'f':
      ok = scan_literal (s, mode, "false", 5);
      break;
    case 'n':
      ok = scan_literal (s, mode, "null", 4);
      break;
    default:
      ok = scan_number (s, mode);
      break;
    }
  /* jansson reads one byte past a number or a word and puts it back; a NUL
   * put back is lost, so one NUL right after them passes unseen */
  if (ok && *start != '"' && *start != '{' && *start != '[' && s->p < s->end && *s->p == '\0')
    s->p++;
  s->depth--;
  return ok;
}

/* Sets the fields collected. A value as received is a slice of the
 * message's bytes when the input is its MESSAGE and that lies in them. */
static void
commit (JsonScan *s, gsize len, SlMessage **msgp)
{
  const JsonParser *parser = s->parser;
  JsonScratch *scratch = s->scratch;

  sl_message_make_writable (msgp);
  SlMessage *msg = *msgp;
  const gchar *received = NULL;
  if (!parser->template)
    {
      gsize message_len;
      const gchar *message = sl_message_get (msg, SL_F_MESSAGE, &message_len);
      const gchar *raw_end = msg->raw + msg->raw_len + msg->extra_len;
      if (message && message >= msg->raw && message <= raw_end && message_len <= (gsize) (raw_end - message)
          && message_len == parser->marker_len + len)
        received = message + parser->marker_len;
    }

  for (guint i = 0; i < scratch->sets->len; i++)
    {
      const JsonSet *set = &g_array_index (scratch->sets, JsonSet, i);
      SlHandle field = sl_field_handle (scratch->names->str + set->name);
      if (set->where == JSON_SLICE && received)
        sl_message_set_slice (msg, field, received + set->value, set->len);
      else if (set->where == JSON_MADE)
        sl_message_set (msg, field, scratch->text->str + set->value, set->len);
      else
        sl_message_set (msg, field, s->input + set->value, set->len);
    }
  if (s->skipped)
    sl_counter_add (parser->skipped_keys, s->skipped);
}

JsonScanResult
json_scan_flatten (const JsonParser *parser, gchar *input, gsize len, SlMessage **msg)
{
  JsonScan s = {
    .parser = parser,
    .p = input,
    .end = input + len,
    .input = input,
    .scratch = scratch_get (),
    .path_len = parser->extract ? parser->extract->len : 0,
  };
  s.name.len = g_strlcpy (s.name.text, parser->prefix, sizeof s.name.text);

  skip_space (&s);
  gboolean ok = s.p < s.end && (*s.p == '{' || *s.p == '[') && scan_value (&s, JSON_SKIP, 0);
  if (s.ambiguous)
    return JSON_SCAN_AMBIGUOUS;
  skip_space (&s);
  if (!ok || s.p != s.end || !s.target)
    return JSON_SCAN_REFUSED;
  commit (&s, len, msg);
  return JSON_SCAN_SET;
}
