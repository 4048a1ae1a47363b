/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* syslog-ng's str-repr (lib/str-repr/{encode,decode}.c), state for state. */
#include "core/str-repr.h"

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

/* syslog-ng's append_unsafe_utf8_as_escaped_binary() */
static void
append_escaped (GString *out, const gchar *word, gsize len, const gchar *unsafe)
{
  const gchar *end = word + len;

  while (word < end)
    {
      gunichar c = g_utf8_get_char_validated (word, end - word);
      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          g_string_append_printf (out, "\\x%02x", (guchar) *word++);
          continue;
        }
      switch (c)
        {
        case '\b': g_string_append (out, "\\b"); break;
        case '\f': g_string_append (out, "\\f"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        case '\\': g_string_append (out, "\\\\"); break;
        default:
          if (c < 32)
            g_string_append_printf (out, "\\x%02x", c);
          else if (unsafe && c < 256 && strchr (unsafe, (gchar) c))
            g_string_append_printf (out, "\\%c", (gchar) c);
          else
            g_string_append_len (out, word, g_utf8_next_char (word) - word);
          break;
        }
      word = g_utf8_next_char (word);
    }
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

