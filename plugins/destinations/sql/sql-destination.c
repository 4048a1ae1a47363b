/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sql(): each message a row, as syslog-ng's sql() writes it: an INSERT of
 * values() (templates, quoted by the database's own quoting) into
 * columns() of table() (a template, made a safe identifier), the table
 * created or given its missing columns first. On libdbi with the drivers
 * Debian ships (pgsql, mysql, sqlite3, freetds): one client API over every
 * database syslog-ng's users point it at, and the one syslog-ng uses.
 * flags(explicit-commits) puts batch-lines() rows in one transaction, sent
 * as INSERTs of many rows each (syslog-ng sends one per row: a round trip
 * per row is what bounds its rate); the messages are done when it
 * commits; a row the database refuses (the connection still answering) is
 * found row by row, and is the one retried, then dropped and counted, the
 * rows before it committed without it. */
#include "plugins/destinations/sql/sql-rsyslog.h"
#include "plugins/destinations/sql/sql-table.h"
#include "core/config/error.h"
#include "core/route/driver.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/plugin/plugin.h"
#include "core/stats.h"

#include <string.h>

enum
{
  SQL_EXPLICIT_COMMITS = 1 << 0,
  SQL_DONT_CREATE_TABLES = 1 << 1,
};

static const SlOptionWord sql_flag_words[] = {
  { "explicit-commits", SQL_EXPLICIT_COMMITS },
  { "dont-create-tables", SQL_DONT_CREATE_TABLES },
  { NULL }
};

/* One dbd-option(): libdbi tells a numeric option from a string one. */
typedef struct
{
  gchar *name;
  gchar *text;
  gboolean numeric;
  gint number;
} SqlDbdOption;

static void
dbd_option_free (gpointer p)
{
  SqlDbdOption *o = p;
  g_free (o->name);
  g_free (o->text);
  g_free (o);
}

typedef struct
{
  SlDriver base;
  const gchar *type;
  const gchar *host;
  const gchar *port;
  const gchar *username;
  const gchar *password;
  const gchar *database;
  SlTemplate *table;
  GPtrArray *column_specs;
  const SlCfgNode *values_node;
  GPtrArray *index_list;
  const gchar *null_value;
  GPtrArray *session_statements;
  GPtrArray *dbd_options;  /* SqlDbdOption *, in the order written */
  guint32 flags;
  const gchar *create_append;
  gint batch_lines;

  SqlSchema schema;
  const SlTemplateEnv *env;
  dbi_inst dbi;
  dbi_conn conn;
  GString *query;
  GString *value;
  GString *table_name;
  SlCounter *errors;
} SqlDestination;

static const SlOptionSpec sql_options[] = {
  { "type", SL_STRING (SqlDestination, type), "mysql",
    "the libdbi driver: pgsql, mysql, sqlite3, freetds, ..." },
  { "host", SL_STRING (SqlDestination, host), "", "the server's name, address, or (pgsql) socket folder" },
  { "port", SL_STRING (SqlDestination, port), "", "the server's port; empty: the driver's default" },
  { "username", SL_STRING (SqlDestination, username), "syslog-ng", "who connects" },
  { "password", SL_STRING (SqlDestination, password), "", "the user's password" },
  { "database", SL_STRING (SqlDestination, database), "logs",
    "the database; for sqlite3 its file (relative to the working folder)" },
  { "table", SL_TEMPLATE (SqlDestination, table), "messages",
    "the table a message goes to, a template (messages_${R_YEAR}${R_MONTH})" },
  { "columns", SL_LIST (SqlDestination, column_specs), NULL,
    "the columns, each \"name\" or \"name type\" (text when no type is given)" },
  { "values", SL_BLOCK (SqlDestination, values_node), NULL,
    "a template for each column, or the word default to leave it to the database" },
  { "indexes", SL_LIST (SqlDestination, index_list), NULL, "the columns indexed when a table is made" },
  { "null", SL_STRING (SqlDestination, null_value), NULL, "a value rendered as this text is stored as NULL" },
  { "session-statements", SL_LIST (SqlDestination, session_statements), NULL,
    "statements run after connecting" },
  { "flags", SL_FLAGS (SqlDestination, flags), "", "explicit-commits: rows in transactions of batch-lines(); "
    "dont-create-tables: tables are taken as they are", .words = sql_flag_words },
  { "create-statement-append", SL_STRING (SqlDestination, create_append), NULL,
    "text put after CREATE TABLE's column list (an engine, a tablespace)" },
  { "dbd-option", SL_UNBOUND (SL_OPT_LIST), NULL,
    "dbd-option(\"name\" value): an option of the libdbi driver, set on connecting, as "
    "dbd-option(\"sqlite3_timeout\" 5000); a number is set as one; repeated for more" },
  { "batch-lines", SL_INT (SqlDestination, batch_lines), "100",
    "rows in one transaction with flags(explicit-commits)" },
  { NULL }
};

static gboolean
read_columns (SqlDestination *self, GError **error)
{
  const SlCfgNode *values = self->values_node;
  guint n_columns = self->column_specs ? self->column_specs->len : 0;
  guint n_values = values ? values->args->len : 0;
  if (!n_columns || !values)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, self->base.pos, _("sql() needs columns() and values()"));
      return FALSE;
    }
  if (n_columns != n_values)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, values->pos,
                        _("sql() has %u columns() but %u values(): they go in pairs"), n_columns, n_values);
      return FALSE;
    }
  self->schema.columns = g_new0 (SqlColumn, n_columns);
  self->schema.n_columns = n_columns;
  for (guint i = 0; i < n_columns; i++)
    {
      SqlColumn *c = &self->schema.columns[i];
      const gchar *spec = g_ptr_array_index (self->column_specs, i);
      const gchar *space = strchr (spec, ' ');
      c->name = space ? g_strndup (spec, space - spec) : g_strdup (spec);
      while (space && *space == ' ')
        space++;
      c->type = g_strdup (space && *space ? space : "text");
      if (!sql_identifier_is_safe (c->name))
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (self->base.options, "columns"),
                            _("sql() column '%s' is not an SQL name (letters, digits, _ and . only)"), c->name);
          return FALSE;
        }
      const SlCfgArg *v = g_ptr_array_index (values->args, i);
      if (v->kind == SL_CFG_ARG_WORD && sl_cfg_name_equal (v->value, "default"))
        continue;
      GError *template_error = NULL;
      c->value = sl_template_compile (v->value, &template_error);
      if (!c->value)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, v->pos, "sql(): %s", template_error->message);
          g_error_free (template_error);
          return FALSE;
        }
    }
  for (guint i = 0; self->index_list && i < self->index_list->len; i++)
    if (!sql_identifier_is_safe (g_ptr_array_index (self->index_list, i)))
      {
        sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (self->base.options, "indexes"),
                          _("sql() index '%s' is not an SQL name"), (const gchar *) g_ptr_array_index (self->index_list, i));
        return FALSE;
      }
  return TRUE;
}

/* dbd-option("name" value), as many as written: syslog-ng sets a bare
 * number as a numeric option, anything else as a string. */
static gboolean
read_dbd_options (SqlDestination *self, GError **error)
{
  const SlCfgNode *node = sl_options_node (self->base.options);
  self->dbd_options = g_ptr_array_new_with_free_func (dbd_option_free);
  for (guint i = 0; node->children && i < node->children->len; i++)
    {
      const SlCfgNode *option = g_ptr_array_index (node->children, i);
      if (!sl_cfg_name_equal (option->name, "dbd-option"))
        continue;
      if (!option->args || option->args->len != 2)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, option->pos,
                            _("dbd-option() takes a name and a value, as dbd-option(\"sqlite3_timeout\" 5000)"));
          return FALSE;
        }
      const SlCfgArg *name = g_ptr_array_index (option->args, 0);
      const SlCfgArg *value = g_ptr_array_index (option->args, 1);
      SqlDbdOption *o = g_new0 (SqlDbdOption, 1);
      o->name = g_strdup (name->value);
      o->text = g_strdup (value->value);
      gint64 number = 0;
      o->numeric = value->kind == SL_CFG_ARG_WORD
                   && g_ascii_string_to_signed (value->value, 10, G_MININT, G_MAXINT, &number, NULL);
      o->number = (gint) number;
      g_ptr_array_add (self->dbd_options, o);
    }
  return TRUE;
}

static gboolean
sql_init (SlDriver *d, GError **error)
{
  SqlDestination *self = (SqlDestination *) d;
  if (!read_columns (self, error) || !read_dbd_options (self, error))
    return FALSE;
  if (self->batch_lines < 1)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "batch-lines"),
                        _("batch-lines() must be at least 1, not %d"), self->batch_lines);
      return FALSE;
    }
  if (dbi_initialize_r (NULL, &self->dbi) < 1)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos,
                        _("sql(): libdbi finds no database drivers (Debian: libdbd-pgsql, libdbd-mysql, libdbd-sqlite3)"));
      return FALSE;
    }
  if (!dbi_driver_open_r (self->type, self->dbi))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "type"),
                        _("sql(): libdbi has no driver '%s' installed"), self->type);
      return FALSE;
    }
  self->schema.indexes = self->index_list;
  self->schema.create_append = self->create_append;
  self->schema.fitting = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->schema.unindexed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->env = sl_driver_template_env (d);
  self->query = g_string_sized_new (512);
  self->value = g_string_sized_new (256);
  self->table_name = g_string_sized_new (64);
  self->errors = sl_stats_counter ("destination", d->id, d->klass->name, "refused_rows");
  return TRUE;
}

static void
sql_close (SlDriver *d)
{
  SqlDestination *self = (SqlDestination *) d;
  if (self->conn)
    dbi_conn_close (self->conn);
  self->conn = NULL;
  /* another connection may see other tables: fitted again */
  if (self->schema.fitting)
    g_hash_table_remove_all (self->schema.fitting);
}

static void
conn_error (SqlDestination *self, GError **error, const gchar *what)
{
  const gchar *why = NULL;
  dbi_conn_error (self->conn, &why);
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "%s: %s", what, why ? why : _("unknown error"));
}

static gboolean
sql_open (SlDriver *d, GError **error)
{
  SqlDestination *self = (SqlDestination *) d;
  self->conn = dbi_conn_new_r (self->type, self->dbi);
  dbi_conn_set_option (self->conn, "host", self->host);
  if (strcmp (self->type, "mysql") == 0)
    dbi_conn_set_option_numeric (self->conn, "port", atoi (self->port));
  else
    dbi_conn_set_option (self->conn, "port", self->port);
  dbi_conn_set_option (self->conn, "username", self->username);
  dbi_conn_set_option (self->conn, "password", self->password);
  dbi_conn_set_option (self->conn, "dbname", self->database);
  dbi_conn_set_option (self->conn, "encoding", "UTF-8");
  dbi_conn_set_option (self->conn, "auto-commit", self->flags & SQL_EXPLICIT_COMMITS ? "false" : "true");
  /* sqlite keeps its files in a folder of its own: an absolute name is
   * one from /, a relative one from the working folder, as syslog-ng reads it */
  g_autofree gchar *cwd = g_get_current_dir ();
  const gchar *dir = g_path_is_absolute (self->database) ? "/" : cwd;
  if (strcmp (self->type, "sqlite3") == 0)
    dbi_conn_set_option (self->conn, "sqlite3_dbdir", dir);
  else if (strcmp (self->type, "sqlite") == 0)
    dbi_conn_set_option (self->conn, "sqlite_dbdir", dir);
  for (guint i = 0; i < self->dbd_options->len; i++)
    {
      const SqlDbdOption *o = g_ptr_array_index (self->dbd_options, i);
      if (o->numeric)
        dbi_conn_set_option_numeric (self->conn, o->name, o->number);
      else
        dbi_conn_set_option (self->conn, o->name, o->text);
    }
  if (dbi_conn_connect (self->conn) < 0)
    {
      conn_error (self, error, _("cannot connect to the database"));
      sql_close (d);
      return FALSE;
    }
  for (guint i = 0; self->session_statements && i < self->session_statements->len; i++)
    if (!sql_run (self->conn, g_ptr_array_index (self->session_statements, i), error))
      {
        sql_close (d);
        return FALSE;
      }
  return TRUE;
}

static void
append_head (SqlDestination *self, const gchar *table, GString *q)
{
  g_string_append_printf (q, "INSERT INTO %s (", table);
  gboolean first = TRUE;
  for (guint i = 0; i < self->schema.n_columns; i++)
    if (self->schema.columns[i].value)
      {
        g_string_append_printf (q, "%s%s", first ? "" : ", ", self->schema.columns[i].name);
        first = FALSE;
      }
  g_string_append (q, ") VALUES ");
}

/* one row's "(v1, v2, ...)" */
static void
append_row (SqlDestination *self, const SlMessage *msg, GString *q)
{
  g_string_append_c (q, '(');
  gboolean first = TRUE;
  for (guint i = 0; i < self->schema.n_columns; i++)
    {
      const SqlColumn *c = &self->schema.columns[i];
      if (!c->value)
        continue;
      if (!first)
        g_string_append (q, ", ");
      first = FALSE;
      g_string_truncate (self->value, 0);
      sl_template_append (c->value, msg, self->env, self->value);
      if (self->null_value && strcmp (self->null_value, self->value->str) == 0)
        {
          g_string_append (q, "NULL");
          continue;
        }
      gchar *quoted = NULL;
      dbi_conn_quote_string_copy (self->conn, self->value->str, &quoted);
      g_string_append (q, quoted ? quoted : "''");
      free (quoted);
    }
  g_string_append_c (q, ')');
}

static void
build_insert (SqlDestination *self, const SlMessage *msg, const gchar *table)
{
  g_string_truncate (self->query, 0);
  append_head (self, table, self->query);
  append_row (self, msg, self->query);
}

/* The table msg goes to, fitted to the columns; NULL (logged) when that failed. */
static const gchar *
fitted_table (SqlDestination *self, const SlMessage *msg, GError **error)
{
  g_string_truncate (self->table_name, 0);
  sl_template_append (self->table, msg, self->env, self->table_name);
  sql_identifier_sanitize (self->table_name->str);
  if (self->flags & SQL_DONT_CREATE_TABLES)
    return self->table_name->str;
  if (sql_table_fit (&self->schema, self->conn, self->table_name->str, error))
    return self->table_name->str;
  g_prefix_error (error, _("cannot make table %s fit its columns: "), self->table_name->str);
  return NULL;
}

/* Inserts msgs[from, to); how many went in before a failure (to - from: all). */
static guint
insert_rows (SqlDestination *self, SlMessage *const *msgs, guint from, guint to, GError **error)
{
  for (guint i = from; i < to; i++)
    {
      const gchar *table = fitted_table (self, msgs[i], error);
      if (!table)
        return i - from;
      build_insert (self, msgs[i], table);
      if (!sql_run (self->conn, self->query->str, error))
        return i - from;
    }
  return to - from;
}

/* Rows in one INSERT of many: a round trip per statement instead of per
 * row. A statement ends where the table changes, and stays within what
 * every driver's server takes (SQL Server: 1000 rows; MySQL: its packet). */
#define GROUP_ROWS 1000
#define GROUP_BYTES (1024 * 1024)

static void
statement_free (gpointer statement)
{
  g_string_free (statement, TRUE);
}

/* Inserts msgs[from, to) in statements of many rows, all tables fitted
 * before the first: fitting runs transactions of its own, which must not
 * end the caller's. FALSE (error set) when a table or a statement failed;
 * the caller finds the row with insert_rows(). */
static gboolean
insert_grouped (SqlDestination *self, SlMessage *const *msgs, guint from, guint to, GError **error)
{
  g_autoptr (GPtrArray) statements = g_ptr_array_new_with_free_func (statement_free);
  g_autofree gchar *table = NULL;
  GString *q = NULL;
  guint rows = 0;
  for (guint i = from; i < to; i++)
    {
      const gchar *fitted = fitted_table (self, msgs[i], error);
      if (!fitted)
        return FALSE;
      if (q && rows < GROUP_ROWS && q->len < GROUP_BYTES && strcmp (fitted, table) == 0)
        g_string_append (q, ", ");
      else
        {
          g_free (table);
          table = g_strdup (fitted);
          q = g_string_sized_new (GROUP_BYTES / 8);
          g_ptr_array_add (statements, q);
          append_head (self, table, q);
          rows = 0;
        }
      append_row (self, msgs[i], q);
      rows++;
    }
  if (!sql_run (self->conn, "BEGIN", error))
    return FALSE;
  for (guint i = 0; i < statements->len; i++)
    if (!sql_run (self->conn, ((GString *) g_ptr_array_index (statements, i))->str, error))
      return FALSE;
  return sql_run (self->conn, "COMMIT", error);
}

static void
rollback (SqlDestination *self)
{
  dbi_result r = dbi_conn_query (self->conn, "ROLLBACK");
  if (r)
    dbi_result_free (r);
}

/* A failed row: the database refused it (it still answers), or the
 * connection is gone. */
static SlWriteResult
failed (SqlDestination *self, SlWriteBatch *batch, GError *error)
{
  gboolean answers = dbi_conn_ping (self->conn) == 1;
  SlWriteResult result = sl_write_batch_fail (batch, answers ? SL_WRITE_ERROR : SL_WRITE_NOT_CONNECTED, 0, "%s: %s",
                                              answers ? _("the database refused a row") : _("the connection to the database failed"),
                                              error->message);
  g_error_free (error);
  if (answers)
    sl_counter_add (self->errors, 1);
  return result;
}

static SlWriteResult
sql_write (SlDriver *d, SlWriteBatch *batch)
{
  SqlDestination *self = (SqlDestination *) d;
  gboolean transactions = (self->flags & SQL_EXPLICIT_COMMITS) != 0;
  while (batch->done < batch->n)
    {
      guint from = batch->done;
      guint to = transactions ? MIN (batch->n, from + (guint) self->batch_lines) : batch->n;
      GError *error = NULL;
      if (!transactions)
        {
          batch->done += insert_rows (self, batch->msgs, from, to, &error);
          if (error)
            return failed (self, batch, error);
          continue;
        }
      if (insert_grouped (self, batch->msgs, from, to, &error))
        {
          batch->done = to;
          continue;
        }
      rollback (self);
      /* which row was refused: the same transaction row by row */
      g_clear_error (&error);
      guint k = sql_run (self->conn, "BEGIN", &error) ? insert_rows (self, batch->msgs, from, to, &error) : 0;
      if (!error && sql_run (self->conn, "COMMIT", &error))
        {
          batch->done = to;
          continue;
        }
      rollback (self);
      /* the rows before a refused one go in without it; a failed COMMIT
       * (k is all of them) leaves the whole transaction to the retry */
      GError *again = NULL;
      if (k > 0 && k < to - from && sql_run (self->conn, "BEGIN", &again) && insert_rows (self, batch->msgs, from, from + k, &again) == k
          && sql_run (self->conn, "COMMIT", &again))
        batch->done = from + k;
      else if (again)
        rollback (self);
      g_clear_error (&again);
      return failed (self, batch, error);
    }
  return SL_WRITE_OK;
}

static void
sql_free (SlDriver *d)
{
  SqlDestination *self = (SqlDestination *) d;
  sql_close (d);
  for (guint i = 0; i < self->schema.n_columns; i++)
    {
      g_free (self->schema.columns[i].name);
      g_free (self->schema.columns[i].type);
      if (self->schema.columns[i].value)
        sl_template_unref (self->schema.columns[i].value);
    }
  g_free (self->schema.columns);
  if (self->dbd_options)
    g_ptr_array_unref (self->dbd_options);
  if (self->schema.fitting)
    {
      g_hash_table_destroy (self->schema.fitting);
      g_hash_table_destroy (self->schema.unindexed);
    }
  if (self->dbi)
    dbi_shutdown_r (self->dbi);
  if (self->query)
    {
      g_string_free (self->query, TRUE);
      g_string_free (self->value, TRUE);
      g_string_free (self->table_name, TRUE);
    }
}

static const SlDestinationOps sql_ops = {
  .open = sql_open,
  .write = sql_write,
  .close = sql_close,
};

static const SlDriverClass sql_class = {
  .kind = SL_DRIVER_DESTINATION,
  .name = "sql",
  .summary = "each message a row of an SQL table (PostgreSQL, MySQL, SQLite, ...) through libdbi",
  .options = sql_options,
  .capabilities = SL_CAP_TEMPLATES | SL_CAP_WORKERS | SL_CAP_DISK_BUFFER,
  .instance_size = sizeof (SqlDestination),
  .init = sql_init,
  .free = sql_free,
  .ops.destination = &sql_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "sql",
  .drivers = (const SlDriverClass *const[]) { &sql_class, NULL },
  .rsyslog_modules = (const SlRsModule *const[]) { &sql_ommysql, &sql_ompgsql, NULL },
};
