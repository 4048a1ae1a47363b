/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/message/list-text.h"

#include "core/message/scratch.h"
#include "core/message/str-repr.h"

#include <string.h>

static GPrivate item_key = SL_SCRATCH_INIT;

/* A backslash escape inside quotes, as syslog-ng's str-repr reads it:
 * one it does not know keeps its backslash, but before the quote itself. */
static void
append_unescaped (GString *item, gchar quote, gchar c)
{
  switch (c)
    {
    case 'b': g_string_append_c (item, '\b'); break;
    case 'f': g_string_append_c (item, '\f'); break;
    case 'n': g_string_append_c (item, '\n'); break;
    case 'r': g_string_append_c (item, '\r'); break;
    case 't': g_string_append_c (item, '\t'); break;
    case '\\': g_string_append_c (item, '\\'); break;
    default:
      if (c != quote)
        g_string_append_c (item, '\\');
      g_string_append_c (item, c);
    }
}

void
sl_list_text_foreach (const gchar *text, gsize len,
                      void (*each) (const gchar *item, gsize len, gpointer user_data), gpointer user_data)
{
  GString *item = sl_scratch_push (&item_key);
  gsize i = 0;
  while (i < len)
    {
      g_string_truncate (item, 0);
      gboolean quoted = text[i] == '"' || text[i] == '\'';
      if (quoted)
        {
          gchar quote = text[i++];
          while (i < len && text[i] != quote)
            {
              if (text[i] == '\\' && i + 1 < len)
                i++, append_unescaped (item, quote, text[i]);
              else
                g_string_append_c (item, text[i]);
              i++;
            }
          const gchar *comma = memchr (text + i, ',', len - i);
          i = comma ? (gsize) (comma - text) + 1 : len;
        }
      else
        {
          const gchar *comma = memchr (text + i, ',', len - i);
          gsize end = comma ? (gsize) (comma - text) : len;
          g_string_append_len (item, text + i, end - i);
          i = comma ? end + 1 : len;
        }
      if (quoted || item->len)
        each (item->str, item->len, user_data);
    }
  sl_scratch_pop (&item_key);
}

void
sl_list_text_append (GString *out, gsize start, const gchar *item, gsize len)
{
  if (out->len > start)
    g_string_append_c (out, ',');
  sl_str_repr_encode_append (out, item, len, ",");
}
