/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Configuration errors that show where they are: position, line, caret. */
#include "core/config/error.h"

#include <string.h>

#include "core/i18n.h"

G_DEFINE_QUARK (sl-cfg-error-quark, sl_cfg_error)

/* The text of every file read so far, so an error found after the lexer
 * has moved on (or in a later stage) can still quote its line. */
static GMutex sources_lock;
static GHashTable *sources;

void
sl_cfg_source_remember (const gchar *file, const gchar *text)
{
  g_return_if_fail (file != NULL && text != NULL);

  g_mutex_lock (&sources_lock);
  if (!sources)
    sources = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_hash_table_replace (sources, g_strdup (file), g_strdup (text));
  g_mutex_unlock (&sources_lock);
}

/* A copy of line number `line` of the remembered file, or NULL. */
static gchar *
source_line (const gchar *file, gint line)
{
  gchar *copy = NULL;

  if (line < 1)
    return NULL;

  g_mutex_lock (&sources_lock);
  const gchar *text = sources ? g_hash_table_lookup (sources, file) : NULL;
  for (gint n = 1; text && n < line; n++)
    {
      text = strchr (text, '\n');
      if (text)
        text++;
    }
  if (text)
    {
      gsize len = strcspn (text, "\n");

      if (len > 0 && text[len - 1] == '\r')
        len--;
      copy = g_strndup (text, len);
    }
  g_mutex_unlock (&sources_lock);
  return copy;
}

/* The caret line lines up with the quoted one when shown in a terminal:
 * tabs are repeated and UTF-8 continuation bytes take no column. */
static void
append_caret (GString *out, const gchar *line, gint column)
{
  gsize len = strlen (line);

  for (gint i = 0; i < column - 1; i++)
    {
      guchar c = (gsize) i < len ? (guchar) line[i] : ' ';

      if (c == '\t')
        g_string_append_c (out, '\t');
      else if ((c & 0xc0) != 0x80)
        g_string_append_c (out, ' ');
    }
  g_string_append_c (out, '^');
}

/* How many bytes of the line the escape at p takes, as the lexer reads
 * escapes of double-quoted strings. */
static gsize
escape_length (const gchar *p)
{
  if (p[1] == 'x' && g_ascii_isxdigit (p[2]))
    return g_ascii_isxdigit (p[3]) ? 4 : 3;
  return p[1] && strchr ("ntrav\\\"'", p[1]) ? 2 : 1;
}

SlCfgPos
sl_cfg_pos_in_string (SlCfgPos literal, gsize offset)
{
  g_autofree gchar *line = literal.file ? source_line (literal.file, literal.line) : NULL;
  if (!line || literal.column < 1 || (gsize) literal.column > strlen (line))
    return literal;
  const gchar *p = line + literal.column - 1;
  gchar quote = *p == '"' || *p == '\'' ? *p : 0;
  if (quote)
    p++;
  for (gsize i = 0; i < offset; i++)
    {
      if (!*p || *p == quote)
        return literal;
      p += quote == '"' && *p == '\\' ? escape_length (p) : 1;
    }
  SlCfgPos at = literal;
  at.column = (gint) (p - line) + 1;
  return at;
}

static void
append_quoted_line (GString *out, SlCfgPos pos)
{
  g_autofree gchar *line = pos.file ? source_line (pos.file, pos.line) : NULL;

  if (line)
    {
      /* a control byte would act on the terminal; one '?' keeps the caret in place */
      for (gchar *c = line; *c; c++)
        if (((guchar) *c < 0x20 && *c != '\t') || *c == 0x7f)
          *c = '?';
      g_string_append_printf (out, "\n  %s\n  ", line);
      append_caret (out, line, pos.column);
    }
}

void
sl_cfg_error_set (GError **error, SlCfgErrorCode code, SlCfgPos pos,
                  const gchar *format, ...)
{
  va_list args;

  if (!error)
    return;

  va_start (args, format);
  g_autofree gchar *message = g_strdup_vprintf (format, args);
  va_end (args);

  GString *out = g_string_new (NULL);
  if (pos.file)
    g_string_append_printf (out, "%s:%d:%d: ", pos.file, pos.line, pos.column);
  g_string_append (out, message);

  append_quoted_line (out, pos);
  for (const SlCfgExpansion *e = pos.expansion; e; e = e->used_at.expansion)
    {
      g_string_append_c (out, '\n');
      g_string_append_printf (out, _("%s:%d:%d: in '%s' used here"), e->used_at.file, e->used_at.line,
                              e->used_at.column, e->block);
      append_quoted_line (out, e->used_at);
    }
  g_set_error_literal (error, SL_CFG_ERROR, code, out->str);
  g_string_free (out, TRUE);
}

static gchar
fold (gchar c)
{
  return c == '_' ? '-' : g_ascii_tolower (c);
}

/* Levenshtein distance that also counts swapping two neighbours as one
 * edit (optimal string alignment): 'prot' is one typo away from 'port'.
 * '-' and '_' and letter case do not count. */
static guint
edit_distance (const gchar *a, const gchar *b)
{
  gsize la = strlen (a), lb = strlen (b);
  guint *before = g_new0 (guint, lb + 1);
  guint *prev = g_new (guint, lb + 1);
  guint *cur = g_new (guint, lb + 1);

  for (gsize j = 0; j <= lb; j++)
    prev[j] = j;
  for (gsize i = 1; i <= la; i++)
    {
      cur[0] = i;
      for (gsize j = 1; j <= lb; j++)
        {
          guint substitute = prev[j - 1] + (fold (a[i - 1]) != fold (b[j - 1]));
          guint delete = prev[j] + 1;
          guint insert = cur[j - 1] + 1;

          cur[j] = MIN (substitute, MIN (delete, insert));
          if (i > 1 && j > 1 && fold (a[i - 1]) == fold (b[j - 2]) && fold (a[i - 2]) == fold (b[j - 1]))
            cur[j] = MIN (cur[j], before[j - 2] + 1);
        }
      guint *reuse = before;
      before = prev;
      prev = cur;
      cur = reuse;
    }

  guint distance = prev[lb];
  g_free (before);
  g_free (prev);
  g_free (cur);
  return distance;
}

const gchar *
sl_cfg_suggest (const gchar *word, const gchar *const *candidates, guint n)
{
  guint limit = MAX (1, strlen (word) / 3);
  const gchar *best = NULL;
  guint best_distance = limit + 1;

  for (guint i = 0; i < n; i++)
    {
      guint distance = edit_distance (word, candidates[i]);

      if (distance < best_distance)
        {
          best = candidates[i];
          best_distance = distance;
        }
    }
  return best;
}
