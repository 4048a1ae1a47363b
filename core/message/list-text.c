/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/message/list-text.h"

#include "core/message/scratch.h"

#include <string.h>

static GPrivate item_key = SL_SCRATCH_INIT;

static gchar
unescape (gchar c)
{
  switch (c)
    {
    case 'n': return '\n';
    case 't': return '\t';
    case 'r': return '\r';
    default: return c;
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
              if (quote == '"' && text[i] == '\\' && i + 1 < len)
                i++, g_string_append_c (item, unescape (text[i]));
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
  gboolean plain = len > 0;
  gboolean double_quote = FALSE, single_quote = FALSE;
  for (gsize i = 0; i < len; i++)
    {
      if (strchr (" \t\n\r,\\", item[i]) && item[i])
        plain = FALSE;
      if (item[i] == '"')
        double_quote = TRUE, plain = FALSE;
      if (item[i] == '\'')
        single_quote = TRUE, plain = FALSE;
    }
  if (plain)
    {
      g_string_append_len (out, item, len);
      return;
    }
  if (double_quote && !single_quote)
    {
      g_string_append_c (out, '\'');
      g_string_append_len (out, item, len);
      g_string_append_c (out, '\'');
      return;
    }
  g_string_append_c (out, '"');
  for (gsize i = 0; i < len; i++)
    switch (item[i])
      {
      case '\n': g_string_append (out, "\\n"); break;
      case '\t': g_string_append (out, "\\t"); break;
      case '\r': g_string_append (out, "\\r"); break;
      case '"': g_string_append (out, "\\\""); break;
      case '\\': g_string_append (out, "\\\\"); break;
      default: g_string_append_c (out, item[i]);
      }
  g_string_append_c (out, '"');
}
