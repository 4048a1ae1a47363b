/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* syslog-ng's str-repr (lib/str-repr/{encode,decode}.c), state for state. */
#include "core/message/str-repr.h"

#include <string.h>

static gboolean
skip_delimiter (const SlStrReprDecode *options, const gchar **cur)
{
  const gchar *next;

  if (!**cur || !strchr (options->delimiter_chars, **cur))
    return FALSE;
  if (!options->match)
    {
      *cur += 1;
      return TRUE;
    }
  if (!options->match (*cur, &next, options->user_data))
    return FALSE;
  *cur = next;
  return TRUE;
}

static void
append_escape (GString *value, gchar quote, gchar c)
{
  switch (c)
    {
    case 'b': g_string_append_c (value, '\b'); break;
    case 'f': g_string_append_c (value, '\f'); break;
    case 'n': g_string_append_c (value, '\n'); break;
    case 'r': g_string_append_c (value, '\r'); break;
    case 't': g_string_append_c (value, '\t'); break;
    case '\\': g_string_append_c (value, '\\'); break;
    default:
      if (c != quote)
        g_string_append_c (value, '\\');
      g_string_append_c (value, c);
      break;
    }
}

typedef enum
{
  VALUE_INITIAL,
  VALUE_QUOTED,
  VALUE_BACKSLASH,
  VALUE_AFTER_QUOTE,
  VALUE_JUNK_AFTER_QUOTE,
  VALUE_UNQUOTED,
  VALUE_DONE,
  VALUE_BROKEN,
} SlStrReprState;

gboolean
sl_str_repr_decode (GString *value, const gchar *input, const gchar **end, const SlStrReprDecode *options)
{
  SlStrReprState state = VALUE_INITIAL;
  const gchar *cur = input;
  gchar quote = 0;

  g_string_truncate (value, 0);
  for (; *cur && state != VALUE_DONE && state != VALUE_BROKEN; )
    {
      switch (state)
        {
        case VALUE_INITIAL:
          if (skip_delimiter (options, &cur))
            {
              state = VALUE_DONE;
              continue;
            }
          if (*cur == '"' || *cur == '\'')
            {
              quote = *cur;
              state = VALUE_QUOTED;
            }
          else
            {
              g_string_append_c (value, *cur);
              state = VALUE_UNQUOTED;
            }
          break;
        case VALUE_QUOTED:
          if (*cur == quote)
            state = VALUE_AFTER_QUOTE;
          else if (*cur == '\\')
            state = VALUE_BACKSLASH;
          else
            g_string_append_c (value, *cur);
          break;
        case VALUE_BACKSLASH:
          append_escape (value, quote, *cur);
          state = VALUE_QUOTED;
          break;
        case VALUE_AFTER_QUOTE:
        case VALUE_JUNK_AFTER_QUOTE:
          if (skip_delimiter (options, &cur))
            {
              state = state == VALUE_AFTER_QUOTE ? VALUE_DONE : VALUE_BROKEN;
              continue;
            }
          state = VALUE_JUNK_AFTER_QUOTE;
          break;
        case VALUE_UNQUOTED:
          if (skip_delimiter (options, &cur))
            {
              state = VALUE_DONE;
              continue;
            }
          g_string_append_c (value, *cur);
          break;
        default:
          break;
        }
      cur++;
    }
  *end = cur;
  if (state == VALUE_INITIAL || state == VALUE_AFTER_QUOTE || state == VALUE_UNQUOTED || state == VALUE_DONE)
    return TRUE;
  g_string_assign (value, "");
  g_string_append_len (value, input, cur - input);
  return FALSE;
}

static gchar
escape_name (gchar c)
{
  switch (c)
    {
    case '\b': return 'b';
    case '\f': return 'f';
    case '\n': return 'n';
    case '\r': return 'r';
    case '\t': return 't';
    default: return 0;
    }
}

static void
append_hex (GString *out, const gchar *prefix, guint value, guint digits)
{
  static const gchar hex[] = "0123456789abcdef";
  gchar text[8];
  for (guint i = 0; i < digits; i++)
    text[i] = hex[(value >> (4 * (digits - 1 - i))) & 15];
  g_string_append (out, prefix);
  g_string_append_len (out, text, digits);
}

/* An ASCII character that may not stand as is. */
static void
append_escaped_ascii (GString *out, guchar c, const SlStrReprEscape *escape)
{
  gchar name = escape_name ((gchar) c);
  if (c == '\\')
    g_string_append (out, "\\\\");
  else if (name && strchr (escape->named, c))
    {
      gchar pair[] = { '\\', name };
      g_string_append_len (out, pair, sizeof pair);
    }
  else if (c < 0x20)
    append_hex (out, escape->control_prefix, c, escape->control_digits);
  else
    {
      gchar pair[] = { '\\', (gchar) c };
      g_string_append_len (out, pair, sizeof pair);
    }
}

void
sl_str_repr_escape_append (GString *out, const gchar *text, gsize len, const SlStrReprEscape *escape)
{
  const gchar *end = text + len;
  const gchar *plain = text;   /* the start of what is copied as is */
  /* the ASCII characters that may not stand as is, one bit each */
  guint64 special[2] = { 0xffffffffu, G_GUINT64_CONSTANT (1) << ('\\' - 64) };
  for (const gchar *u = escape->unsafe; u && *u; u++)
    if ((guchar) *u < 0x80)
      special[(guchar) *u >> 6] |= G_GUINT64_CONSTANT (1) << (*u & 63);

  while (text < end)
    {
      guchar c = (guchar) *text;
      if (c < 0x80)
        {
          if (!((special[c >> 6] >> (c & 63)) & 1))
            {
              text++;
              continue;
            }
          g_string_append_len (out, plain, text - plain);
          append_escaped_ascii (out, c, escape);
          plain = ++text;
          continue;
        }
      gunichar u = g_utf8_get_char_validated (text, end - text);
      if (u == (gunichar) -1 || u == (gunichar) -2)
        {
          g_string_append_len (out, plain, text - plain);
          append_hex (out, escape->invalid_prefix, c, 2);
          plain = ++text;
          continue;
        }
      text = g_utf8_next_char (text);
    }
  g_string_append_len (out, plain, text - plain);
}

/* syslog-ng's append_unsafe_utf8_as_escaped_binary(), with the quote that
 * encloses the item as unsafe */
static void
append_escaped (GString *out, const gchar *word, gsize len, const gchar *unsafe)
{
  const SlStrReprEscape binary = { "\b\f\n\r\t", unsafe, "\\x", 2, "\\x" };
  sl_str_repr_escape_append (out, word, len, &binary);
}

static gboolean
holds_any (const gchar *word, gsize len, const gchar *chars)
{
  for (gsize i = 0; i < len; i++)
    if (word[i] && strchr (chars, word[i]))
      return TRUE;
  return FALSE;
}

void
sl_str_repr_encode_append (GString *out, const gchar *word, gsize len, const gchar *forbidden)
{
  gboolean apostrophe = memchr (word, '\'', len) != NULL;
  gboolean quote = memchr (word, '"', len) != NULL;

  if (!len)
    {
      g_string_append (out, "\"\"");
      return;
    }
  if (!apostrophe && !quote && !holds_any (word, len, "\b\f\n\r\t\\ ")
      && !(forbidden && holds_any (word, len, forbidden)))
    g_string_append_len (out, word, len);
  else if (!apostrophe && quote)
    {
      g_string_append_c (out, '\'');
      append_escaped (out, word, len, NULL);
      g_string_append_c (out, '\'');
    }
  else if (apostrophe && !quote)
    {
      g_string_append_c (out, '"');
      append_escaped (out, word, len, NULL);
      g_string_append_c (out, '"');
    }
  else
    {
      g_string_append_c (out, '"');
      append_escaped (out, word, len, "\"");
      g_string_append_c (out, '"');
    }
}

