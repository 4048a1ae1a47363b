/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/persist-private.h"
#include "core/i18n.h"
#include "core/owned-path.h"

#include <string.h>
#include <sys/stat.h>

/* One line per key: the key, a tab, the value, both written with C escapes
 * (g_strescape), so any bytes survive and a line never breaks. */
#define HEADER "# sluice persist file, version 1: key<TAB>value in C escapes\n"

static GMutex lock;
static GMutex save_lock;         /* one writer of the file at a time */
static GHashTable *values;       /* key -> value */
static gchar *file_path;
static gboolean dirty;

static void
ensure_table_locked (void)
{
  if (!values)
    values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

static void
load_lines (const gchar *text)
{
  gchar **lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      const gchar *line = lines[i];
      const gchar *tab = strchr (line, '\t');
      if (line[0] == '#' || !tab)
        continue;
      gchar *escaped_key = g_strndup (line, tab - line);
      g_hash_table_replace (values, g_strcompress (escaped_key), g_strcompress (tab + 1));
      g_free (escaped_key);
    }
  g_strfreev (lines);
}

gboolean
sl_persist_open (const gchar *path, GError **error)
{
  /* what is not the daemon's own is neither read nor replaced */
  if (!sl_owned_path_check (path, S_IFREG, _("the persist file"), error))
    {
      g_mutex_lock (&lock);
      ensure_table_locked ();
      g_hash_table_remove_all (values);
      g_clear_pointer (&file_path, g_free);
      g_mutex_unlock (&lock);
      return FALSE;
    }
  gchar *text = NULL;
  GError *inner = NULL;
  gboolean ok = g_file_get_contents (path, &text, NULL, &inner)
                || g_error_matches (inner, G_FILE_ERROR, G_FILE_ERROR_NOENT);

  g_mutex_lock (&lock);
  ensure_table_locked ();
  g_hash_table_remove_all (values);
  g_free (file_path);
  file_path = g_strdup (path);
  dirty = FALSE;
  if (text)
    load_lines (text);
  g_mutex_unlock (&lock);

  g_free (text);
  if (!ok)
    g_propagate_prefixed_error (error, inner, _("cannot read the persist file: "));
  else
    g_clear_error (&inner);
  return ok;
}

void
sl_persist_close (void)
{
  sl_persist_save (NULL);
  g_mutex_lock (&lock);
  g_clear_pointer (&values, g_hash_table_unref);
  g_clear_pointer (&file_path, g_free);
  dirty = FALSE;
  g_mutex_unlock (&lock);
}

gchar *
sl_persist_dir (void)
{
  g_mutex_lock (&lock);
  gchar *dir = file_path ? g_path_get_dirname (file_path) : NULL;
  g_mutex_unlock (&lock);
  return dir;
}

gchar *
sl_persist_get (const gchar *key)
{
  g_mutex_lock (&lock);
  gchar *value = values ? g_strdup (g_hash_table_lookup (values, key)) : NULL;
  g_mutex_unlock (&lock);
  return value;
}

void
sl_persist_set (const gchar *key, const gchar *value)
{
  g_mutex_lock (&lock);
  ensure_table_locked ();
  const gchar *old = g_hash_table_lookup (values, key);
  if (g_strcmp0 (old, value) != 0)
    {
      g_hash_table_replace (values, g_strdup (key), g_strdup (value));
      dirty = TRUE;
    }
  g_mutex_unlock (&lock);
}

/* The file's contents, keys sorted so that equal stores give equal files. */
static GString *
render_locked (void)
{
  GString *out = g_string_new (HEADER);
  GList *keys = g_list_sort (g_hash_table_get_keys (values), (GCompareFunc) strcmp);
  for (GList *l = keys; l; l = l->next)
    {
      gchar *k = g_strescape (l->data, NULL);
      gchar *v = g_strescape (g_hash_table_lookup (values, l->data), NULL);
      g_string_append_printf (out, "%s\t%s\n", k, v);
      g_free (k);
      g_free (v);
    }
  g_list_free (keys);
  return out;
}

gboolean
sl_persist_save (GError **error)
{
  g_mutex_lock (&save_lock);
  g_mutex_lock (&lock);
  if (!dirty || !file_path || !values)
    {
      g_mutex_unlock (&lock);
      g_mutex_unlock (&save_lock);
      return TRUE;
    }
  GString *text = render_locked ();
  gchar *path = g_strdup (file_path);
  dirty = FALSE;
  g_mutex_unlock (&lock);

  gboolean ok = g_file_set_contents_full (path, text->str, text->len, G_FILE_SET_CONTENTS_CONSISTENT,
                                          0600, error);
  if (!ok)
    {
      /* try again at the next save */
      g_mutex_lock (&lock);
      dirty = TRUE;
      g_mutex_unlock (&lock);
    }
  g_string_free (text, TRUE);
  g_free (path);
  g_mutex_unlock (&save_lock);
  return ok;
}
