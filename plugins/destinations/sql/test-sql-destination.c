/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sql() against real databases: an SQLite file, and a PostgreSQL cluster
 * of the test's own (initdb into a temporary folder, the server on a unix
 * socket there, run as Debian's postgres user, started once for the
 * program). syslog-ng 3.38's sql module and sluiced write the same tables
 * (schema, indexes and rows) from one configuration, and a kill -9 of the
 * server under flow control loses no row. */
#include "tests/functional/harness.h"

#include <pwd.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static gchar *pg_dir;
static gchar *pg_bin;
static guint16 pg_port;
static GPid pg_pid;

static gchar *
pg_program (const gchar *name)
{
  return g_build_filename (pg_bin, name, NULL);
}

/* as postgres: the server refuses to run as root */
static gint
run_as_postgres (const gchar *const *argv, gchar **out, gchar **err)
{
  GPtrArray *full = g_ptr_array_new ();
  g_ptr_array_add (full, (gpointer) "runuser");
  g_ptr_array_add (full, (gpointer) "-u");
  g_ptr_array_add (full, (gpointer) "postgres");
  g_ptr_array_add (full, (gpointer) "--");
  for (guint i = 0; argv[i]; i++)
    g_ptr_array_add (full, (gpointer) argv[i]);
  g_ptr_array_add (full, NULL);
  gint status = sl_test_run_argv ((const gchar *const *) full->pdata, out, err);
  g_ptr_array_free (full, TRUE);
  return status;
}

static gboolean
pg_start (void)
{
  g_autofree gchar *postgres = pg_program ("postgres");
  g_autofree gchar *data = g_build_filename (pg_dir, "data", NULL);
  g_autofree gchar *port = g_strdup_printf ("%u", pg_port);
  g_autofree gchar *err = g_build_filename (pg_dir, "postgres.stderr", NULL);
  const gchar *argv[] = { "runuser", "-u", "postgres", "--", postgres, "-D", data, "-k", pg_dir, "-p", port,
                          "-c", "listen_addresses=", "-c", "fsync=off", NULL };
  pg_pid = sl_test_spawn_argv (argv, err);
  return pg_pid != 0;
}

static gchar *
psql (const gchar *database, const gchar *command)
{
  g_autofree gchar *program = pg_program ("psql");
  if (!g_file_test (program, G_FILE_TEST_EXISTS))
    {
      g_free (program);
      program = g_strdup ("psql");
    }
  g_autofree gchar *port = g_strdup_printf ("%u", pg_port);
  const gchar *argv[] = { program, "-h", pg_dir, "-p", port, "-U", "postgres", "-d", database, "-At", "-c", command, NULL };
  gchar *out = NULL;
  if (run_as_postgres (argv, &out, NULL) != 0)
    g_clear_pointer (&out, g_free);
  return out;
}

static gboolean
pg_wait_ready (void)
{
  for (guint i = 0; i < SL_TEST_DEADLINE_MS / 100; i++)
    {
      g_autofree gchar *one = psql ("postgres", "SELECT 1");
      if (one && g_str_has_prefix (one, "1"))
        return TRUE;
      g_usleep (100 * 1000);
    }
  return FALSE;
}

static gboolean
pg_setup (void)
{
  gchar *initdb = NULL;
  const gchar *versions[] = { "17", "16", "15", "14", "13", NULL };
  for (guint i = 0; versions[i] && !initdb; i++)
    {
      g_autofree gchar *bin = g_build_filename ("/usr/lib/postgresql", versions[i], "bin", NULL);
      g_autofree gchar *candidate = g_build_filename (bin, "initdb", NULL);
      if (g_file_test (candidate, G_FILE_TEST_IS_EXECUTABLE))
        {
          pg_bin = g_strdup (bin);
          initdb = g_strdup (candidate);
        }
    }
  struct passwd *pw = getpwnam ("postgres");
  if (!initdb || !pw)
    return FALSE;
  pg_dir = sl_test_peer_dir ("pg");
  if (!pg_dir || chown (pg_dir, pw->pw_uid, pw->pw_gid) != 0)
    return FALSE;
  g_autofree gchar *data = g_build_filename (pg_dir, "data", NULL);
  const gchar *argv[] = { initdb, "-D", data, "-A", "trust", "-U", "postgres", "--no-sync", NULL };
  g_autofree gchar *err = NULL;
  gint status = run_as_postgres (argv, NULL, &err);
  g_free (initdb);
  if (status != 0)
    {
      g_printerr ("initdb failed: %s\n", err);
      return FALSE;
    }
  pg_port = sl_test_free_port (SOCK_STREAM);
  return pg_start () && pg_wait_ready ();
}

static gchar *
sqlite (const gchar *file, const gchar *command)
{
  const gchar *argv[] = { "sqlite3", file, command, NULL };
  gchar *out = NULL;
  if (sl_test_run_argv (argv, &out, NULL) != 0)
    g_clear_pointer (&out, g_free);
  return out;
}

typedef gchar *(*Query) (const gchar *where, const gchar *command);

static gboolean
wait_rows (Query query, const gchar *where, const gchar *table, gint64 n)
{
  g_autofree gchar *count = g_strdup_printf ("SELECT count(*) FROM %s", table);
  gint64 have = -1;
  for (guint i = 0; i < SL_TEST_DEADLINE_MS / 100; i++)
    {
      g_autofree gchar *out = query (where, count);
      have = out ? g_ascii_strtoll (out, NULL, 10) : -1;
      if (have >= n)
        return TRUE;
      g_usleep (100 * 1000);
    }
  g_test_fail_printf ("%s holds %" G_GINT64_FORMAT " rows of %s, not %" G_GINT64_FORMAT, where, have, table, n);
  return FALSE;
}

static const gchar *const programs[] = { "app", "db", "web" };

static gchar *
messages (guint n)
{
  GString *text = g_string_new (NULL);
  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "<13>Dec  1 10:00:00 host%u %s: message %u with 'quotes', \"double\" and \\ backslash\n",
                            i % 2, programs[i % 3], i);
  return g_string_free (text, FALSE);
}

static const gchar sqlite_config[] =
  "@version: 3.38\n"
  "options { keep-hostname(yes); };\n"
  "source s { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d { sql(type(sqlite3) database(\"@OUT@/logs.db\") table(\"msgs_${PROGRAM}\")\n"
  "  columns(\"host varchar(32)\", \"program\", \"msg text\", \"note\") values(\"${HOST}\", \"${PROGRAM}\", \"${MSG}\", default)\n"
  "  indexes(\"host\", \"program\")\n"
  /* the test's sqlite3 reads the files while both daemons write them:
   * a writer waits for its lock instead of failing */
  "  dbd-option(\"sqlite3_timeout\" 10000)); };\n"
  "log { source(s); destination(d); flags(flow-control); };\n";

static void
compare_tables (Query query, const gchar *sl_where, const gchar *ng_where, const gchar *schema)
{
  g_autofree gchar *sl_schema = query (sl_where, schema);
  g_autofree gchar *ng_schema = query (ng_where, schema);
  g_assert_nonnull (sl_schema);
  g_assert_cmpstr (sl_schema, ==, ng_schema);
  for (guint i = 0; i < G_N_ELEMENTS (programs); i++)
    {
      g_autofree gchar *select = g_strdup_printf ("SELECT host, program, msg, note FROM msgs_%s ORDER BY msg", programs[i]);
      g_autofree gchar *sl_rows = query (sl_where, select);
      g_autofree gchar *ng_rows = query (ng_where, select);
      g_assert_nonnull (sl_rows);
      g_assert_cmpstr (sl_rows, ==, ng_rows);
    }
}

static void
test_sqlite_same_as_syslog_ng (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *text = messages (30);
  g_autofree gchar *sl_out = NULL, *ng_out = NULL;
  GPid ng = 0;
  if (!sl_test_side_by_side (env, sqlite_config, text, NULL, 0, &sl_out, &ng_out, &ng))
    return;
  g_autofree gchar *sl_db = g_build_filename (sl_out, "logs.db", NULL);
  g_autofree gchar *ng_db = g_build_filename (ng_out, "logs.db", NULL);
  gboolean written = TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (programs); i++)
    {
      g_autofree gchar *table = g_strdup_printf ("msgs_%s", programs[i]);
      written = written && wait_rows (sqlite, sl_db, table, 10) && wait_rows (sqlite, ng_db, table, 10);
    }
  sl_test_syslog_ng_stop (env, ng);
  if (!written)
    return;
  compare_tables (sqlite, sl_db, ng_db, "SELECT sql FROM sqlite_master ORDER BY name");
  g_autofree gchar *row = sqlite (sl_db, "SELECT msg FROM msgs_db WHERE msg LIKE 'message 1 %'");
  g_assert_cmpstr (row, ==, "message 1 with 'quotes', \"double\" and \\ backslash\n");
}

/* The indexes of a table made when they could not be: made at the next
 * try, not left out because the table stands by then. */
static void
test_sqlite_indexes_made_later (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *db = sl_test_path (env, "logs.db");
  /* another table's index holds the name the new table's index takes */
  g_autofree gchar *made = sqlite (db, "CREATE TABLE other (x); CREATE INDEX rows_host_idx ON other (x)");
  g_assert_nonnull (made);
  guint16 tcp = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *tcp_text = g_strdup_printf ("%u", tcp);
  g_assert_true (sl_test_write_config (env,
                                       "@version: 4.0\n"
                                       "source s { tcp(ip(\"127.0.0.1\") port(@TCP@)); };\n"
                                       "destination d { sql(type(sqlite3) database(\"@DB@\") table(\"rows\")\n"
                                       "  columns(\"host\", \"msg\") values(\"${HOST}\", \"${MSG}\") indexes(\"host\") time-reopen(1)); };\n"
                                       "log { source(s); destination(d); };\n",
                                       "TCP", tcp_text, "DB", db, NULL));
  if (!sl_test_daemon_start (env) || !sl_test_wait_tcp (env, tcp))
    return;
  g_assert_true (sl_test_tcp_send (tcp, "<13>Dec  1 10:00:00 h app: first\n"));
  if (!sl_test_wait_stderr (env, "index rows_host_idx already exists"))
    return;
  g_autofree gchar *dropped = sqlite (db, "DROP INDEX rows_host_idx");
  g_assert_nonnull (dropped);
  if (!wait_rows (sqlite, db, "rows", 1))
    return;
  g_autofree gchar *indexes = sqlite (db, "SELECT name || ' ' || tbl_name FROM sqlite_master WHERE type = 'index'");
  g_assert_cmpstr (indexes, ==, "rows_host_idx rows\n");
}

static const gchar pg_config[] =
  "@version: 3.38\n"
  "options { keep-hostname(yes); };\n"
  "source s { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d { sql(type(pgsql) host(\"@PGHOST@\") port(\"@PGPORT@\") username(\"postgres\") database(\"logs_@NAME@\")\n"
  "  table(\"msgs_${PROGRAM}\") flags(explicit-commits) batch-lines(7) null(\"\")\n"
  "  columns(\"host varchar(32)\", \"program\", \"msg text\", \"note\") values(\"${HOST}\", \"${PROGRAM}\", \"${MSG}\", \"${.nothing}\")\n"
  "  indexes(\"host\")); };\n"
  "log { source(s); destination(d); flags(flow-control); };\n";

static const gchar pg_schema[] =
  "SELECT table_name || ' ' || column_name || ' ' || data_type || ' ' || coalesce(character_maximum_length, 0)"
  " FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position";

static gboolean
wait_pg_rows (const gchar *database, guint each)
{
  for (guint i = 0; i < G_N_ELEMENTS (programs); i++)
    {
      g_autofree gchar *table = g_strdup_printf ("msgs_%s", programs[i]);
      if (!wait_rows (psql, database, table, each))
        return FALSE;
    }
  return TRUE;
}

static void
test_pgsql_same_as_syslog_ng (SlTestEnv *env, gconstpointer data)
{
  if (!pg_pid)
    {
      g_test_skip ("no PostgreSQL server (quickstart installs postgresql)");
      return;
    }
  g_autofree gchar *made_sl = psql ("postgres", "CREATE DATABASE logs_sl");
  g_autofree gchar *made_ng = psql ("postgres", "CREATE DATABASE logs_ng");
  g_assert_nonnull (made_sl);
  g_assert_nonnull (made_ng);
  g_autofree gchar *port = g_strdup_printf ("%u", pg_port);
  GString *conf = g_string_new (pg_config);
  g_string_replace (conf, "@PGHOST@", pg_dir, 0);
  g_string_replace (conf, "@PGPORT@", port, 0);
  g_autofree gchar *text = messages (30);
  g_autofree gchar *sl_out = NULL, *ng_out = NULL;
  GPid ng = 0;
  gboolean ran = sl_test_side_by_side (env, conf->str, text, NULL, 0, &sl_out, &ng_out, &ng);
  g_string_free (conf, TRUE);
  if (!ran)
    return;
  gboolean written = wait_pg_rows ("logs_sl", 10) && wait_pg_rows ("logs_ng", 10);
  sl_test_syslog_ng_stop (env, ng);
  if (!written)
    return;
  compare_tables (psql, "logs_sl", "logs_ng", pg_schema);
  g_autofree gchar *indexes = psql ("logs_sl", "SELECT indexname FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1");
  g_assert_cmpstr (indexes, ==, "msgs_app_host_idx\nmsgs_db_host_idx\nmsgs_web_host_idx\n");
  g_autofree gchar *nulls = psql ("logs_sl", "SELECT count(*) FROM msgs_app WHERE note IS NULL");
  g_assert_cmpstr (nulls, ==, "10\n");
}

/* kill -9 of the server while 20,000 messages flow under flow control,
 * in transactions: every one is a row once the server is back. */
static void
test_pgsql_server_killed (SlTestEnv *env, gconstpointer data)
{
  if (!pg_pid)
    {
      g_test_skip ("no PostgreSQL server (quickstart installs postgresql)");
      return;
    }
  g_autofree gchar *made = psql ("postgres", "CREATE DATABASE flow");
  g_assert_nonnull (made);
  g_autofree gchar *port = g_strdup_printf ("%u", pg_port);
  guint16 tcp = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *tcp_text = g_strdup_printf ("%u", tcp);
  g_assert_true (sl_test_write_config (env,
                                       "@version: 4.0\n"
                                       "source s { tcp(ip(\"127.0.0.1\") port(@TCP@) log-iw-size(1000)); };\n"
                                       "destination d { sql(type(pgsql) host(\"@PGHOST@\") port(\"@PGPORT@\") username(\"postgres\")\n"
                                       "  database(\"flow\") table(\"rows\") flags(explicit-commits) batch-lines(100)\n"
                                       "  columns(\"seq integer\") values(\"${MSG}\") time-reopen(1) log-fifo-size(1000)); };\n"
                                       "log { source(s); destination(d); flags(flow-control); };\n",
                                       "TCP", tcp_text, "PGHOST", pg_dir, "PGPORT", port, NULL));
  if (!sl_test_daemon_start (env) || !sl_test_wait_tcp (env, tcp))
    return;
  const guint n = 20000;
  GString *text = g_string_new (NULL);
  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "<13>Dec  1 10:00:00 h app: %u\n", i);
  SlTestSender *sender = sl_test_sender_start (sl_test_tcp_connect (tcp), text);
  if (!wait_rows (psql, "flow", "rows", n / 10))
    {
      sl_test_sender_finish (sender);
      return;
    }
  kill (pg_pid, SIGKILL);
  sl_test_child_wait (pg_pid, SL_TEST_DEADLINE_MS * 1000);
  g_usleep (1000 * 1000);
  /* the killed postmaster's children go on until they notice */
  g_assert_true (pg_start () && pg_wait_ready ());
  sl_test_sender_join (sender);
  if (!wait_rows (psql, "flow", "rows", n))
    return;
  g_autofree gchar *distinct = psql ("flow", "SELECT count(DISTINCT seq) || ' ' || min(seq) || ' ' || max(seq) FROM rows");
  g_autofree gchar *all = psql ("flow", "SELECT count(*) FROM rows");
  g_test_message ("%s rows for %u messages", all, n);
  g_assert_cmpstr (distinct, ==, "20000 0 19999\n");
}

/* A row the server refuses inside a batch sent as one INSERT of many rows:
 * found row by row, the rows around it stored, itself dropped. */
static void
test_pgsql_refused_row (SlTestEnv *env, gconstpointer data)
{
  if (!pg_pid)
    {
      g_test_skip ("no PostgreSQL server (quickstart installs postgresql)");
      return;
    }
  g_autofree gchar *made = psql ("postgres", "CREATE DATABASE refused");
  g_assert_nonnull (made);
  g_autofree gchar *port = g_strdup_printf ("%u", pg_port);
  guint16 tcp = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *tcp_text = g_strdup_printf ("%u", tcp);
  g_assert_true (sl_test_write_config (env,
                                       "@version: 4.0\n"
                                       "source s { tcp(ip(\"127.0.0.1\") port(@TCP@)); };\n"
                                       "destination d { sql(type(pgsql) host(\"@PGHOST@\") port(\"@PGPORT@\") username(\"postgres\")\n"
                                       "  database(\"refused\") table(\"rows\") flags(explicit-commits) batch-lines(100)\n"
                                       "  columns(\"seq integer\") values(\"${MSG}\") time-reopen(1)); };\n"
                                       "log { source(s); destination(d); };\n",
                                       "TCP", tcp_text, "PGHOST", pg_dir, "PGPORT", port, NULL));
  if (!sl_test_daemon_start (env) || !sl_test_wait_tcp (env, tcp))
    return;
  g_assert_true (sl_test_tcp_send (tcp, "<13>Dec  1 10:00:00 h app: 1\n<13>Dec  1 10:00:00 h app: 2\n"
                                        "<13>Dec  1 10:00:00 h app: x\n<13>Dec  1 10:00:00 h app: 4\n"
                                        "<13>Dec  1 10:00:00 h app: 5\n"));
  if (!wait_rows (psql, "refused", "rows", 4))
    return;
  g_autofree gchar *rows = psql ("refused", "SELECT string_agg(seq::text, ' ' ORDER BY seq) FROM rows");
  g_assert_cmpstr (rows, ==, "1 2 4 5\n");
}

static void
expect_refused (SlTestEnv *env, const gchar *driver, const gchar *needle)
{
  g_autofree gchar *text = g_strdup_printf ("@version: 4.0\nsource s { stdin(); };\n"
                                            "destination d { %s };\nlog { source(s); destination(d); };\n", driver);
  g_assert_true (sl_test_write_config (env, text, NULL));
  g_autofree gchar *err = NULL;
  g_assert_cmpint (sl_test_run_built ("daemon/sluiced", NULL, &err, "-s", "-f", env->config, NULL), ==, 1);
  if (!strstr (err, needle))
    g_test_fail_printf ("expected '%s' in:\n%s", needle, err);
}

static void
test_config_errors (SlTestEnv *env, gconstpointer data)
{
  expect_refused (env, "sql(type(sqlite3) columns(\"a\", \"b\") values(\"$HOST\"));",
                  "3:53: sql() has 2 columns() but 1 values(): they go in pairs");
  expect_refused (env, "sql(type(sqlite3) columns(\"a-b\") values(\"$HOST\"));", "column 'a-b' is not an SQL name");
  expect_refused (env, "sql(type(nosuchdb) columns(\"a\") values(\"$HOST\"));", "libdbi has no driver 'nosuchdb'");
  expect_refused (env, "sql(type(sqlite3) columns(\"a\"));", "sql() needs columns() and values()");
  expect_refused (env, "sql(type(sqlite3) columns(\"a\") values(\"$HOST\") dbd-option(\"sqlite3_timeout\"));",
                  "3:64: dbd-option() takes a name and a value");
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  g_setenv ("TZ", "UTC", TRUE);
  gboolean have_pg = pg_setup ();
  if (!have_pg)
    g_printerr ("# no PostgreSQL cluster could be made: its cases are skipped\n");
  SL_TEST_ADD ("/sql/sqlite/same-as-syslog-ng", test_sqlite_same_as_syslog_ng);
  SL_TEST_ADD ("/sql/sqlite/indexes-made-later", test_sqlite_indexes_made_later);
  SL_TEST_ADD ("/sql/pgsql/same-as-syslog-ng", test_pgsql_same_as_syslog_ng);
  SL_TEST_ADD ("/sql/pgsql/server-killed", test_pgsql_server_killed);
  SL_TEST_ADD ("/sql/pgsql/refused-row", test_pgsql_refused_row);
  SL_TEST_ADD ("/sql/config-errors", test_config_errors);
  gint status = g_test_run ();
  if (!sl_test_peer_stop (pg_pid, pg_dir))
    status = 1;
  return status;
}
