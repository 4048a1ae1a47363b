/* SPDX-License-Identifier: GPL-2.0-or-later */
/* syslog-ng 4's operations verbs through sluicectl against a running
 * sluiced: healthcheck, query, log-level and the configuration's id; and
 * its one-shot flags: --config-id, --preprocess-into, --check-startup. */
#include "tests/functional/harness.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define HEADER "<13>Nov 29 20:25:57 opshost app: "

static const gchar config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_file { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_net); destination(d_file); };\n";

static gboolean
start (SlTestEnv *env, guint16 *port)
{
  *port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = g_strdup_printf ("%u", *port);
  return *port && sl_test_write_config (env, config, "PORT", port_str, NULL) && sl_test_daemon_start (env);
}

/* sluicectl with up to three arguments; what *out and *err held before
 * is freed. */
static gint
ctl (SlTestEnv *env, gchar **out, gchar **err, const gchar *a, const gchar *b, const gchar *c)
{
  g_clear_pointer (out, g_free);
  g_clear_pointer (err, g_free);
  return sl_test_run_built ("tools/sluicectl", out, err, "-c", env->control, a, b, c, NULL);
}

static void
test_healthcheck (SlTestEnv *env, gconstpointer data)
{
  guint16 port;
  if (!start (env, &port))
    return;
  g_autofree gchar *out = NULL, *err = NULL;
  g_assert_cmpint (ctl (env, &out, &err, "healthcheck", NULL, NULL), ==, 0);
  g_autofree gchar *pid_line = g_strdup_printf ("sluiced_pid %d\n", (int) env->pid);
  g_assert_true (g_str_has_prefix (out, pid_line));
  g_assert_nonnull (strstr (out, "\nsluiced_mainloop_roundtrip_latency_seconds 0."));

  /* a stopped main loop is unhealthy once the timeout passes */
  kill (env->pid, SIGSTOP);
  gint status = ctl (env, &out, &err, "healthcheck", "--timeout", "1");
  kill (env->pid, SIGCONT);
  g_assert_cmpint (status, ==, 1);
  g_assert_cmpstr (err, ==, "unhealthy: sluiced did not answer within 1 seconds\n");

  /* and so is one that is not there */
  sl_test_daemon_stop (env, SIGTERM);
  g_assert_cmpint (ctl (env, &out, &err, "healthcheck", NULL, NULL), ==, 1);
  g_assert_true (g_str_has_prefix (err, "unhealthy: cannot reach sluiced at "));
}

static void
test_query (SlTestEnv *env, gconstpointer data)
{
  guint16 port;
  if (!start (env, &port) || !sl_test_tcp_send (port, HEADER "one\n" HEADER "two\n")
      || !sl_test_wait_stat (env, "destination", "d_file", "written", 2))
    return;
  g_autofree gchar *out = NULL, *err = NULL;
  g_assert_cmpint (ctl (env, &out, &err, "query", "get", "*.written"), ==, 0);
  g_assert_cmpstr (out, ==, "destination.d_file#0.file.written=2\n");

  g_assert_cmpint (ctl (env, &out, &err, "query", "list", "source.s_net#0.tcp.rec*"), ==, 0);
  g_assert_cmpstr (out, ==, "source.s_net#0.tcp.received\n");

  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  gint status = sl_test_run_built ("tools/sluicectl", &out, &err, "-c", env->control, "query", "get", "--sum",
                                   "*.tcp.received", NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpstr (out, ==, "2\n");

  /* nothing matches: nothing printed, as syslog-ng-ctl does */
  g_assert_cmpint (ctl (env, &out, &err, "query", "get", "nothing.*"), ==, 0);
  g_assert_cmpstr (out, ==, "");

  g_assert_cmpint (ctl (env, &out, &err, "query", "drop", "*"), ==, 2);
  g_assert_nonnull (strstr (err, "query list or query get"));

  /* an option of another verb is refused, not ignored */
  g_assert_cmpint (ctl (env, &out, &err, "query", "list", "--sum"), ==, 2);
  g_assert_cmpstr (err, ==, "sluicectl: --sum goes with query get\n");
  g_assert_cmpint (ctl (env, &out, &err, "stats", "--limit", "3"), ==, 2);
  g_assert_cmpstr (err, ==, "sluicectl: --limit, --filter do not go with stats; see --help\n");
}

static void
test_log_level (SlTestEnv *env, gconstpointer data)
{
  guint16 port;
  if (!start (env, &port))
    return;
  g_autofree gchar *out = NULL, *err = NULL;
  g_assert_cmpint (ctl (env, &out, &err, "log-level", NULL, NULL), ==, 0);
  g_assert_cmpstr (out, ==, "OK log-level=default\n");
  g_assert_cmpint (ctl (env, &out, &err, "log-level", "verbose", NULL), ==, 0);
  g_assert_cmpstr (out, ==, "OK log-level=verbose\n");
  if (!sl_test_wait_stderr (env, "log level changed; level='verbose'"))
    return;
  /* informational messages now come out: a connection accepted is one */
  g_autofree gchar *before = sl_test_daemon_stderr (env);
  gsize before_len = strlen (before);
  if (!sl_test_tcp_send (port, HEADER "one\n"))
    return;
  g_autofree gchar *path = sl_test_path (env, "out.log");
  if (!sl_test_wait_lines (env, path, 1))
    return;
  g_autofree gchar *after = sl_test_daemon_stderr (env);
  g_assert_nonnull (strstr (after + before_len, ": info: connection accepted; "));

  g_assert_cmpint (ctl (env, &out, &err, "log-level", "loud", NULL), ==, 1);
  g_assert_cmpstr (err, ==, "ERROR unknown log level 'loud'; levels: default, verbose, debug, trace\n");
  g_assert_cmpint (ctl (env, &out, &err, "log-level", "default", NULL), ==, 0);
  g_assert_cmpstr (out, ==, "OK log-level=default\n");
}

static gchar *
config_id (SlTestEnv *env)
{
  g_autofree gchar *err = NULL;
  gchar *out = NULL;
  g_assert_cmpint (ctl (env, &out, &err, "config-id", NULL, NULL), ==, 0);
  return out ? g_strchomp (out) : NULL;
}

static void
test_config_id (SlTestEnv *env, gconstpointer data)
{
  guint16 port;
  if (!start (env, &port))
    return;
  g_autofree gchar *first = config_id (env);
  g_assert_cmpuint (strlen (first), ==, 64);
  g_autofree gchar *started = g_strdup_printf ("', config-id='%s'", first);
  g_assert_true (sl_test_wait_stderr (env, started));
  g_autofree gchar *running = g_strdup_printf ("config.%s.running", first);
  g_autofree gchar *out = NULL, *err = NULL;
  g_assert_cmpint (ctl (env, &out, &err, "query", "get", "config.*"), ==, 0);
  g_autofree gchar *expected = g_strdup_printf ("%s=1\n", running);
  g_assert_cmpstr (out, ==, expected);

  /* the same text reloaded keeps its id; another one gets a new id, and
   * the old one is no longer running */
  g_assert_cmpint (ctl (env, &out, &err, "reload", NULL, NULL), ==, 0);
  g_autofree gchar *same = config_id (env);
  g_assert_cmpstr (same, ==, first);
  g_autofree gchar *port_str = g_strdup_printf ("%u", port);
  g_autofree gchar *changed = g_strconcat (config, "log { source(s_net); };\n", NULL);
  if (!sl_test_write_config (env, changed, "PORT", port_str, NULL))
    return;
  g_assert_cmpint (ctl (env, &out, &err, "reload", NULL, NULL), ==, 0);
  g_autofree gchar *second = config_id (env);
  g_assert_cmpstr (second, !=, first);
  g_autofree gchar *reloaded = g_strdup_printf ("', config-id='%s'", second);
  g_assert_true (sl_test_wait_stderr (env, reloaded));
  g_assert_cmpint (ctl (env, &out, &err, "query", "get", "config.*"), ==, 0);
  g_autofree gchar *both = g_strdup_printf ("config.%s.running=0\nconfig.%s.running=1\n", first, second);
  g_assert_cmpstr (out, ==, both);
}

/* sluiced with syslog-ng 4's one-shot flags on env's configuration */
static gint
sluiced (SlTestEnv *env, gchar **out, gchar **err, const gchar *flag, const gchar *value)
{
  g_clear_pointer (out, g_free);
  g_clear_pointer (err, g_free);
  return sl_test_run_built ("daemon/sluiced", out, err, "-f", env->config, "--module-path", sl_test_module_path (),
                            "-p", env->pidfile, "-c", env->control, flag, value, NULL);
}

/* --config-id: the id the running daemon names, without running it */
static void
test_config_id_flag (SlTestEnv *env, gconstpointer data)
{
  guint16 port;
  if (!start (env, &port))
    return;
  g_autofree gchar *running = config_id (env);
  sl_test_daemon_stop (env, SIGTERM);
  g_autofree gchar *out = NULL, *err = NULL;
  g_assert_cmpint (sluiced (env, &out, &err, "--config-id", NULL), ==, 0);
  g_autofree gchar *expected = g_strdup_printf ("%s\n", running);
  g_assert_cmpstr (out, ==, expected);
}

/* --preprocess-into FILE: what --print-config prints, in FILE */
static void
test_preprocess_into (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *port_str = g_strdup_printf ("%u", sl_test_free_port (SOCK_STREAM));
  if (!sl_test_write_config (env, config, "PORT", port_str, NULL))
    return;
  g_autofree gchar *printed = NULL, *err = NULL, *none = NULL;
  g_assert_cmpint (sluiced (env, &printed, &err, "--print-config", NULL), ==, 0);
  g_autofree gchar *path = sl_test_path (env, "preprocessed.conf");
  g_assert_cmpint (sluiced (env, &none, &err, "--preprocess-into", path), ==, 0);
  g_autofree gchar *written = sl_test_read_file (path);
  g_assert_nonnull (strstr (printed, "tcp("));
  g_assert_cmpstr (written, ==, printed);
}

/* --check-startup starts the configuration (its listener, its file),
 * stops it and exits 0, leaving no pid file and the port free; a port
 * another program holds makes it exit 1, saying why. */
static void
test_check_startup (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = g_strdup_printf ("%u", port);
  if (!sl_test_write_config (env, config, "PORT", port_str, NULL))
    return;
  g_autofree gchar *out = NULL, *err = NULL;
  g_assert_cmpint (sluiced (env, &out, &err, "--check-startup", NULL), ==, 0);
  g_assert_nonnull (strstr (err, "sluiced would start"));
  g_assert_false (g_file_test (env->pidfile, G_FILE_TEST_EXISTS));

  gint busy = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons (port),
                              .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  gint one = 1;
  setsockopt (busy, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  g_assert_cmpint (bind (busy, (struct sockaddr *) &addr, sizeof addr), ==, 0);
  g_assert_cmpint (listen (busy, 1), ==, 0);
  g_assert_cmpint (sluiced (env, &out, &err, "--check-startup", NULL), ==, 1);
  g_autofree gchar *why = g_strdup_printf ("cannot listen on 127.0.0.1 port %u", port);
  g_assert_nonnull (strstr (err, why));
  close (busy);
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/ops/healthcheck", test_healthcheck);
  SL_TEST_ADD ("/ops/query", test_query);
  SL_TEST_ADD ("/ops/log-level", test_log_level);
  SL_TEST_ADD ("/ops/config-id", test_config_id);
  SL_TEST_ADD ("/ops/config-id-flag", test_config_id_flag);
  SL_TEST_ADD ("/ops/preprocess-into", test_preprocess_into);
  SL_TEST_ADD ("/ops/check-startup", test_check_startup);
  return g_test_run ();
}
