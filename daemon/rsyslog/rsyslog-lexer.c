/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "daemon/rsyslog/rsyslog-lexer.h"

#include "core/config/error.h"
#include "core/i18n.h"

#include <string.h>

void
sl_rs_lexer_init (SlRsLexer *lx, const gchar *file, const gchar *text)
{
  lx->file = sl_cfg_intern_file (file);
  lx->text = text;
  lx->at = 0;
  lx->line = 1;
  lx->column = 1;
  lx->marks = NULL;
  lx->next_mark = 0;
}

void
sl_rs_lexer_init_joined (SlRsLexer *lx, const gchar *file, const gchar *text, const GArray *marks)
{
  sl_rs_lexer_init (lx, file, text);
  lx->marks = marks;
}

static gboolean
is_space (gchar c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

gchar *
sl_rs_join_lines (const gchar *text, GArray **marks)
{
  GString *out = g_string_sized_new (strlen (text) + 1);
  gboolean continued = FALSE, mark_next = FALSE;
  gint line = 0;

  *marks = g_array_new (FALSE, FALSE, sizeof (SlRsMark));
  for (const gchar *p = text; *p;)
    {
      const gchar *nl = strchr (p, '\n');
      const gchar *end = nl ? nl : p + strlen (p);
      const gchar *start = p;

      line++;
      if (continued)
        while (start < end && is_space (*start))
          start++;
      if (continued || mark_next)
        g_array_append_val (*marks, ((SlRsMark) { out->len, line, (gint) (start - p) + 1 }));
      /* rsyslog drops the blanks at the end of every line */
      const gchar *last = end;
      while (last > start && is_space (last[-1]))
        last--;
      mark_next = continued;
      continued = last > start && last[-1] == '\\';
      if (continued)
        last--;
      g_string_append_len (out, start, last - start);
      if (!continued)
        g_string_append_c (out, '\n');
      p = nl ? nl + 1 : end;
    }
  return g_string_free (out, FALSE);
}

SlCfgPos
sl_rs_lexer_pos (const SlRsLexer *lx)
{
  return (SlCfgPos) { lx->file, lx->line, lx->column, NULL };
}

gchar
sl_rs_lexer_peek (const SlRsLexer *lx, guint n)
{
  for (guint i = 0; i < n; i++)
    if (!lx->text[lx->at + i])
      return '\0';
  return lx->text[lx->at + n];
}

void
sl_rs_lexer_advance (SlRsLexer *lx, guint n)
{
  for (guint i = 0; i < n && lx->text[lx->at]; i++)
    {
      if (lx->text[lx->at] == '\n')
        {
          lx->line++;
          lx->column = 1;
        }
      else
        lx->column++;
      lx->at++;
      if (lx->marks && lx->next_mark < lx->marks->len
          && g_array_index (lx->marks, SlRsMark, lx->next_mark).at == lx->at)
        {
          const SlRsMark *mark = &g_array_index (lx->marks, SlRsMark, lx->next_mark++);
          lx->line = mark->line;
          lx->column = mark->column;
        }
    }
}

static gboolean
is_blank (gchar c)
{
  return c == ' ' || c == '\t' || c == '\r';
}

void
sl_rs_lexer_skip_blanks (SlRsLexer *lx, gboolean newlines)
{
  for (;;)
    {
      gchar c = sl_rs_lexer_peek (lx, 0);

      if (is_blank (c) || (newlines && c == '\n'))
        sl_rs_lexer_advance (lx, 1);
      else if (c == '#')
        while (sl_rs_lexer_peek (lx, 0) && sl_rs_lexer_peek (lx, 0) != '\n')
          sl_rs_lexer_advance (lx, 1);
      else if (c == '/' && sl_rs_lexer_peek (lx, 1) == '*')
        {
          sl_rs_lexer_advance (lx, 2);
          while (sl_rs_lexer_peek (lx, 0) && !(sl_rs_lexer_peek (lx, 0) == '*' && sl_rs_lexer_peek (lx, 1) == '/'))
            sl_rs_lexer_advance (lx, 1);
          sl_rs_lexer_advance (lx, 2);
        }
      else
        return;
    }
}

gboolean
sl_rs_lexer_at_line_end (SlRsLexer *lx)
{
  sl_rs_lexer_skip_blanks (lx, FALSE);
  gchar c = sl_rs_lexer_peek (lx, 0);
  return c == '\n' || c == '\0';
}

gchar *
sl_rs_lexer_read_line (SlRsLexer *lx)
{
  gsize start = lx->at;

  while (sl_rs_lexer_peek (lx, 0) && sl_rs_lexer_peek (lx, 0) != '\n')
    sl_rs_lexer_advance (lx, 1);
  gchar *line = g_strstrip (g_strndup (lx->text + start, lx->at - start));
  sl_rs_lexer_advance (lx, 1);
  return line;
}

gchar *
sl_rs_lexer_read_word (SlRsLexer *lx, const gchar *also)
{
  gsize start = lx->at;

  for (gchar c; (c = sl_rs_lexer_peek (lx, 0)) && (g_ascii_isalnum (c) || c == '_' || strchr (also, c));)
    sl_rs_lexer_advance (lx, 1);
  return lx->at > start ? g_strndup (lx->text + start, lx->at - start) : NULL;
}

gchar *
sl_rs_lexer_read_until_blank (SlRsLexer *lx, const gchar *stop)
{
  gsize start = lx->at;

  for (gchar c; (c = sl_rs_lexer_peek (lx, 0)) && !is_blank (c) && c != '\n' && !strchr (stop, c);)
    sl_rs_lexer_advance (lx, 1);
  return lx->at > start ? g_strndup (lx->text + start, lx->at - start) : NULL;
}

gboolean
sl_rs_lexer_read_string (SlRsLexer *lx, gchar **value, GError **error)
{
  SlCfgPos start = sl_rs_lexer_pos (lx);
  gchar quote = sl_rs_lexer_peek (lx, 0);
  GString *out = g_string_new (NULL);

  sl_rs_lexer_advance (lx, 1);
  for (gchar c; (c = sl_rs_lexer_peek (lx, 0)) != quote; sl_rs_lexer_advance (lx, 1))
    {
      if (!c)
        {
          g_string_free (out, TRUE);
          sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, start, _("this string is not closed"));
          return FALSE;
        }
      if (c == '\\' && sl_rs_lexer_peek (lx, 1))
        {
          sl_rs_lexer_advance (lx, 1);
          c = sl_rs_lexer_peek (lx, 0);
          switch (c)
            {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case 'a': c = '\a'; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case '\\': case '\'': case '"': case '?': case '$': break;
            default: g_string_append_c (out, '\\'); break;
            }
        }
      g_string_append_c (out, c);
    }
  sl_rs_lexer_advance (lx, 1);
  *value = g_string_free (out, FALSE);
  return TRUE;
}

gboolean
sl_rs_lexer_take_word (SlRsLexer *lx, const gchar *word)
{
  gsize n = strlen (word);

  if (g_ascii_strncasecmp (lx->text + lx->at, word, n) != 0)
    return FALSE;
  gchar after = lx->text[lx->at + n];
  if (g_ascii_isalnum (after) || after == '_' || after == '-')
    return FALSE;
  sl_rs_lexer_advance (lx, (guint) n);
  return TRUE;
}
