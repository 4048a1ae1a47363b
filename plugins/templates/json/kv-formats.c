/* SPDX-License-Identifier: GPL-2.0-or-later */
/* WELF and CEF extension text, escaped byte for byte as syslog-ng 3.38's
 * format-welf (append_unsafe_utf8_as_escaped_binary) and
 * format-cef-extension escape it. */
#include "plugins/templates/json/kv-formats.h"

#include <string.h>

static const gchar hex[] = "0123456789abcdef";

static void
append_hex_escape (GString *out, guchar c)
{
  gchar escaped[] = { '\\', 'x', hex[c >> 4], hex[c & 15] };
  g_string_append_len (out, escaped, sizeof escaped);
}

/* The UTF-8 character text starts with (its first byte is not ASCII), or
 * \xHH of that byte when it starts none; the bytes taken. */
static gsize
append_non_ascii (GString *out, const gchar *text, gsize len)
{
  gunichar u = g_utf8_get_char_validated (text, len);
  if (u == (gunichar) -1 || u == (gunichar) -2)
    {
      append_hex_escape (out, (guchar) text[0]);
      return 1;
    }
  gsize n = g_utf8_next_char (text) - text;
  g_string_append_len (out, text, n);
  return n;
}

/* Control characters by name or as \xHH, a byte that is not UTF-8 as
 * \xHH, and with quote, '"' as \". */
static void
append_welf_value (GString *out, const gchar *text, gsize len, gboolean quote)
{
  for (gsize i = 0; i < len;)
    {
      guchar c = (guchar) text[i];
      if (c >= 0x80)
        {
          i += append_non_ascii (out, text + i, len - i);
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
          if (c < 0x20)
            append_hex_escape (out, c);
          else if (c == '"' && quote)
            g_string_append (out, "\\\"");
          else
            g_string_append_c (out, (gchar) c);
        }
      i++;
    }
}

void
kv_append_welf (GString *out, const KvPair *pairs, guint n, gboolean *first)
{
  for (guint i = 0; i < n; i++)
    {
      if (!*first)
        g_string_append_c (out, ' ');
      *first = FALSE;
      g_string_append (out, pairs[i].key);
      g_string_append_c (out, '=');
      gboolean quote = memchr (pairs[i].value, ' ', pairs[i].len) != NULL;
      if (quote)
        g_string_append_c (out, '"');
      append_welf_value (out, pairs[i].value, pairs[i].len, quote);
      if (quote)
        g_string_append_c (out, '"');
    }
}

static void
append_cef_value (GString *out, const gchar *text, gsize len)
{
  for (gsize i = 0; i < len;)
    {
      guchar c = (guchar) text[i];
      if (c >= 0x80)
        {
          i += append_non_ascii (out, text + i, len - i);
          continue;
        }
      switch (c)
        {
        case '=': g_string_append (out, "\\="); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\\': g_string_append (out, "\\\\"); break;
        default:
          if (c < 0x20)
            g_string_append_printf (out, "\\u%04x", c);
          else
            g_string_append_c (out, (gchar) c);
        }
      i++;
    }
}

gboolean
kv_append_cef (GString *out, const KvPair *pairs, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      const gchar *key = pairs[i].key;
      if (key[strspn (key, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")])
        return FALSE;
      if (i)
        g_string_append_c (out, ' ');
      g_string_append (out, key);
      g_string_append_c (out, '=');
      append_cef_value (out, pairs[i].value, pairs[i].len);
    }
  return TRUE;
}
