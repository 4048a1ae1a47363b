/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The CSV dialect is syslog-ng's for this file: columns split at ',',
 * quoted with "..." or '...' (a doubled quote inside stands for itself),
 * blanks around a column dropped, empty lines skipped; exactly three
 * columns a line, or the whole file is refused. The value column is a
 * template, as in syslog-ng since 3.21. */
#include "plugins/parsers/add-contextual-data/context-db.h"
#include "core/i18n.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

struct _ContextDb
{
  GHashTable *records;    /* selector -> GPtrArray of ContextRecord */
  GPtrArray *selectors;   /* gchar *, in the order of the file */
};

/* ignore-case(yes): the table itself compares without case, so that a
 * lookup needs no folded copy of each message's selector */
static guint
ascii_case_hash (gconstpointer key)
{
  guint h = 5381;
  for (const gchar *p = key; *p; p++)
    h = h * 33 + (guchar) g_ascii_tolower (*p);
  return h;
}

static gboolean
ascii_case_equal (gconstpointer a, gconstpointer b)
{
  return g_ascii_strcasecmp (a, b) == 0;
}

static void
record_free (gpointer p)
{
  ContextRecord *r = p;
  sl_template_unref (r->value);
  g_free (r);
}

static void
records_free (gpointer p)
{
  g_ptr_array_free (p, TRUE);
}

static gboolean
is_blank (gchar c)
{
  return c == ' ' || c == '\t';
}

/* One column from *cur into column; *cur ends past its delimiter, or at
 * the end of the line. FALSE when the line has no column left. */
static gboolean
scan_column (const gchar **cur, GString *column)
{
  const gchar *p = *cur;
  if (!p)
    return FALSE;
  g_string_truncate (column, 0);
  while (is_blank (*p))
    p++;
  if (*p == '"' || *p == '\'')
    {
      gchar quote = *p++;
      for (; *p; p++)
        {
          if (*p == quote && p[1] == quote)
            g_string_append_c (column, *p++);
          else if (*p == quote)
            {
              p++;
              break;
            }
          else
            g_string_append_c (column, *p);
        }
      while (*p && *p != ',')
        p++;
    }
  else
    {
      const gchar *end = strchr (p, ',');
      gsize len = end ? (gsize) (end - p) : strlen (p);
      while (len && is_blank (p[len - 1]))
        len--;
      g_string_append_len (column, p, len);
      p = end ? end : p + strlen (p);
    }
  *cur = *p == ',' ? p + 1 : NULL;
  return TRUE;
}

static gboolean
add_line (ContextDb *db, const gchar *line, const gchar *prefix, GError **error)
{
  GString *columns[3];
  const gchar *cur = line;
  gboolean ok = TRUE;
  for (guint i = 0; i < 3; i++)
    {
      columns[i] = g_string_new (NULL);
      if (ok && !scan_column (&cur, columns[i]))
        {
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                       _("a line needs three columns (selector, name, value), it has %u"), i);
          ok = FALSE;
        }
    }
  if (ok && cur)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   _("a line needs three columns (selector, name, value), it has more"));
      ok = FALSE;
    }
  SlTemplate *value = ok ? sl_template_compile (columns[2]->str, error) : NULL;
  if (value)
    {
      ContextRecord *r = g_new0 (ContextRecord, 1);
      g_autofree gchar *name = g_strconcat (prefix ? prefix : "", columns[1]->str, NULL);
      r->field = sl_field_handle (name);
      r->value = value;
      GPtrArray *records = g_hash_table_lookup (db->records, columns[0]->str);
      if (!records)
        {
          records = g_ptr_array_new_with_free_func (record_free);
          g_hash_table_insert (db->records, g_strdup (columns[0]->str), records);
          g_ptr_array_add (db->selectors, g_strdup (columns[0]->str));
        }
      g_ptr_array_add (records, r);
    }
  for (guint i = 0; i < 3; i++)
    g_string_free (columns[i], TRUE);
  return value != NULL;
}

ContextDb *
context_db_load (const gchar *path, const gchar *prefix, gboolean ignore_case, GError **error)
{
  FILE *f = fopen (path, "r");
  if (!f)
    {
      int err = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (err), _("cannot read %s: %s"), path,
                   g_strerror (err));
      return NULL;
    }
  ContextDb *db = g_new0 (ContextDb, 1);
  db->records = ignore_case
    ? g_hash_table_new_full (ascii_case_hash, ascii_case_equal, g_free, records_free)
    : g_hash_table_new_full (g_str_hash, g_str_equal, g_free, records_free);
  db->selectors = g_ptr_array_new_with_free_func (g_free);
  gchar *line = NULL;
  gsize size = 0;
  gssize n;
  guint lineno = 0;
  GError *line_error = NULL;
  while ((n = getline (&line, &size, f)) >= 0)
    {
      lineno++;
      if (n > 0 && line[n - 1] == '\n')
        line[--n] = '\0';
      if (n > 0 && line[n - 1] == '\r')
        line[--n] = '\0';
      if (n == 0)
        continue;
      if (!add_line (db, line, prefix, &line_error))
        {
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s:%u: %s", path, lineno, line_error->message);
          g_clear_error (&line_error);
          context_db_free (db);
          db = NULL;
          break;
        }
    }
  free (line);
  fclose (f);
  return db;
}

void
context_db_free (ContextDb *db)
{
  if (!db)
    return;
  g_hash_table_destroy (db->records);
  g_ptr_array_free (db->selectors, TRUE);
  g_free (db);
}

const GPtrArray *
context_db_lookup (const ContextDb *db, const gchar *selector)
{
  return g_hash_table_lookup (db->records, selector);
}

const GPtrArray *
context_db_selectors (const ContextDb *db)
{
  return db->selectors;
}
