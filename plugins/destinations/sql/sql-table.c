/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "plugins/destinations/sql/sql-table.h"
#include "core/i18n.h"

#include <string.h>

gboolean
sql_identifier_is_safe (const gchar *name)
{
  for (const gchar *p = name; *p; p++)
    if (!g_ascii_isalnum (*p) && *p != '_' && *p != '.')
      return FALSE;
  return *name != '\0';
}

void
sql_identifier_sanitize (gchar *name)
{
  for (gchar *p = name; *p; p++)
    if (!g_ascii_isalnum (*p) && *p != '_' && *p != '.')
      *p = '_';
}

static void
set_error (GError **error, dbi_conn conn, const gchar *query)
{
  const gchar *why = NULL;
  dbi_conn_error (conn, &why);
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, _("%s (query: %s)"), why ? why : _("unknown error"), query);
}

gboolean
sql_run (dbi_conn conn, const gchar *query, GError **error)
{
  dbi_result result = dbi_conn_query (conn, query);
  if (!result)
    {
      set_error (error, conn, query);
      return FALSE;
    }
  dbi_result_free (result);
  return TRUE;
}

static gboolean
is_indexed (const SqlSchema *schema, const gchar *column)
{
  for (guint i = 0; schema->indexes && i < schema->indexes->len; i++)
    if (strcmp (g_ptr_array_index (schema->indexes, i), column) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
create_index (dbi_conn conn, const gchar *table, const gchar *column, GError **error)
{
  g_autofree gchar *query = g_strdup_printf ("CREATE INDEX %s_%s_idx ON %s (%s)", table, column, table, column);
  return sql_run (conn, query, error);
}

/* Each step in a transaction of its own, as syslog-ng runs them, so that a
 * failed ALTER leaves the table as it was. */
static gboolean
in_transaction (dbi_conn conn, gboolean ok, GError **error)
{
  if (ok && sql_run (conn, "COMMIT", error))
    return TRUE;
  dbi_result r = dbi_conn_query (conn, "ROLLBACK");
  if (r)
    dbi_result_free (r);
  return FALSE;
}

static gboolean
create_indexes (SqlSchema *schema, dbi_conn conn, const gchar *table, GError **error)
{
  gboolean ok = sql_run (conn, "BEGIN", error);
  for (guint i = 0; ok && i < schema->indexes->len; i++)
    ok = create_index (conn, table, g_ptr_array_index (schema->indexes, i), error);
  if (in_transaction (conn, ok, error))
    {
      g_hash_table_remove (schema->unindexed, table);
      return TRUE;
    }
  /* the table stands without them: the next fit, finding it, makes them */
  g_hash_table_add (schema->unindexed, g_strdup (table));
  return FALSE;
}

static gboolean
create_table (SqlSchema *schema, dbi_conn conn, const gchar *table, GError **error)
{
  GString *query = g_string_new (NULL);
  g_string_printf (query, "CREATE TABLE %s (", table);
  for (guint i = 0; i < schema->n_columns; i++)
    g_string_append_printf (query, "%s%s %s", i ? ", " : "", schema->columns[i].name, schema->columns[i].type);
  g_string_append_c (query, ')');
  if (schema->create_append)
    g_string_append (query, schema->create_append);
  gboolean ok = sql_run (conn, "BEGIN", error);
  ok = in_transaction (conn, ok && sql_run (conn, query->str, error), error);
  g_string_free (query, TRUE);
  if (!ok || !schema->indexes || !schema->indexes->len)
    return ok;
  return create_indexes (schema, conn, table, error);
}

static gboolean
add_missing_columns (SqlSchema *schema, dbi_conn conn, const gchar *table, dbi_result present, GError **error)
{
  gboolean begun = FALSE, ok = TRUE;
  for (guint i = 0; ok && i < schema->n_columns; i++)
    {
      const SqlColumn *c = &schema->columns[i];
      if (dbi_result_get_field_idx (present, c->name) != 0)
        continue;
      if (!begun)
        ok = begun = sql_run (conn, "BEGIN", error);
      g_autofree gchar *query = g_strdup_printf ("ALTER TABLE %s ADD %s %s", table, c->name, c->type);
      ok = ok && sql_run (conn, query, error);
      if (ok && is_indexed (schema, c->name))
        ok = create_index (conn, table, c->name, error);
    }
  return begun ? in_transaction (conn, ok, error) : ok;
}

gboolean
sql_table_fit (SqlSchema *schema, dbi_conn conn, const gchar *table, GError **error)
{
  if (g_hash_table_contains (schema->fitting, table))
    return TRUE;
  g_autofree gchar *probe = g_strdup_printf ("SELECT * FROM %s WHERE 0=1", table);
  gboolean ok;
  dbi_result present = NULL;
  if (sql_run (conn, "BEGIN", NULL))
    {
      present = dbi_conn_query (conn, probe);
      dbi_result r = dbi_conn_query (conn, present ? "COMMIT" : "ROLLBACK");
      if (r)
        dbi_result_free (r);
    }
  if (present)
    {
      ok = add_missing_columns (schema, conn, table, present, error);
      dbi_result_free (present);
      if (ok && g_hash_table_contains (schema->unindexed, table))
        ok = create_indexes (schema, conn, table, error);
    }
  else
    ok = create_table (schema, conn, table, error);
  if (ok)
    g_hash_table_add (schema->fitting, g_strdup (table));
  return ok;
}
