/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What sql() knows of its tables: the columns of columns() and values(),
 * and making a table fit them as syslog-ng does (CREATE TABLE with the
 * indexes(), or ALTER TABLE ADD for each column a table lacks). */
#ifndef SQL_TABLE_H
#define SQL_TABLE_H

#include "core/message/template.h"

#include <dbi/dbi.h>

typedef struct
{
  gchar *name;
  gchar *type;             /* "text" when the column gives none */
  SlTemplate *value;       /* NULL: default, the database fills it in */
} SqlColumn;

typedef struct
{
  SqlColumn *columns;
  guint n_columns;
  GPtrArray *indexes;      /* gchar * column names, or NULL */
  const gchar *create_append;
  GHashTable *fitting;     /* names of tables known to fit */
  GHashTable *unindexed;   /* tables made whose indexes() failed, made at the next fit */
} SqlSchema;

/* Whether name is made only of letters, digits, '_' and '.', as a table
 * or column name must be. */
gboolean sql_identifier_is_safe  (const gchar *name);
/* What is not replaced by '_', in place. */
void     sql_identifier_sanitize (gchar *name);
/* One query; its result freed. FALSE with the database's error in *error. */
gboolean sql_run                 (dbi_conn conn, const gchar *query, GError **error);
/* Creates table or adds its missing columns, once per table and
 * connection; FALSE with the reason in *error. */
gboolean sql_table_fit           (SqlSchema *schema, dbi_conn conn, const gchar *table, GError **error);

#endif
