/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Running the daemon: signals, reload, reopen, the control socket and
 * sluicectl. */
#include "tests/functional/harness.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define HEADER "<13>Nov 29 20:25:57 ctlhost app: "

static const gchar one_file_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_file { file(\"@DIR@/@FILE@\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_net); destination(d_file); };\n";

static gboolean
start_one_file (SlTestEnv *env, guint16 *port, const gchar *file)
{
  *port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = g_strdup_printf ("%u", *port);
  return *port && sl_test_write_config (env, one_file_config, "PORT", port_str, "FILE", file, NULL)
         && sl_test_daemon_start (env);
}

static gboolean
send_message (guint16 port, const gchar *message)
{
  g_autofree gchar *line = g_strconcat (HEADER, message, "\n", NULL);
  return sl_test_tcp_send (port, line);
}

static gchar *
run_sluicectl (SlTestEnv *env, const gchar *command, gint *status, gchar **err)
{
  gchar *out = NULL;
  *status = sl_test_run_built ("tools/sluicectl", &out, err, "-c", env->control, command, NULL);
  return out;
}

static void
assert_file_is (SlTestEnv *env, const gchar *name, const gchar *expected)
{
  g_autofree gchar *path = sl_test_path (env, name);
  g_autofree gchar *text = sl_test_read_file (path);
  g_assert_cmpstr (text, ==, expected);
}

static void
test_sighup_reload (SlTestEnv *env, gconstpointer data)
{
  guint16 port;
  g_autofree gchar *first = sl_test_path (env, "first.log");
  g_autofree gchar *second = sl_test_path (env, "second.log");
  if (!start_one_file (env, &port, "first.log") || !send_message (port, "before reload")
      || !sl_test_wait_lines (env, first, 1))
    return;

  g_autofree gchar *port_str = g_strdup_printf ("%u", port);
  if (!sl_test_write_config (env, one_file_config, "PORT", port_str, "FILE", "second.log", NULL))
    return;
  kill (env->pid, SIGHUP);
  if (!sl_test_wait_stderr (env, "configuration reloaded") || !sl_test_wait_tcp (env, port)
      || !send_message (port, "after reload") || !sl_test_wait_lines (env, second, 1))
    return;
  assert_file_is (env, "first.log", "before reload\n");
  assert_file_is (env, "second.log", "after reload\n");

  /* a broken configuration is refused with its position, and the running
   * one stays in charge */
  if (!sl_test_write_config (env,
                             "@version: 4.0\n"
                             "source s_net { tcp(ip(\"127.0.0.1\") prot(@PORT@)); };\n"
                             "destination d_file { file(\"@DIR@/third.log\"); };\n"
                             "log { source(s_net); destination(d_file); };\n",
                             "PORT", port_str, NULL))
    return;
  kill (env->pid, SIGHUP);
  g_autofree gchar *refusal = g_strdup_printf ("reload failed, keeping the running configuration: %s:2:36: "
                                               "unknown option 'prot' in tcp(); did you mean 'port'?",
                                               env->config);
  if (!sl_test_wait_stderr (env, refusal))
    return;
  g_assert_true (sl_test_daemon_alive (env));
  if (!sl_test_wait_tcp (env, port) || !send_message (port, "after bad reload")
      || !sl_test_wait_lines (env, second, 2))
    return;
  assert_file_is (env, "second.log", "after reload\nafter bad reload\n");
  g_autofree gchar *third = sl_test_path (env, "third.log");
  g_assert_false (g_file_test (third, G_FILE_TEST_EXISTS));

  /* the same through sluicectl: an ERROR and a failing exit status */
  gint status;
  g_autofree gchar *err = NULL;
  g_autofree gchar *out = run_sluicectl (env, "reload", &status, &err);
  g_assert_cmpint (status, !=, 0);
  g_assert_true (g_str_has_prefix (err, "ERROR "));
  g_assert_nonnull (strstr (err, "unknown option 'prot' in tcp()"));
  g_assert_true (sl_test_daemon_alive (env));
  if (send_message (port, "after bad sluicectl reload"))
    sl_test_wait_lines (env, second, 3);
}

static void
test_sluicectl_reload (SlTestEnv *env, gconstpointer data)
{
  guint16 port;
  g_autofree gchar *second = sl_test_path (env, "second.log");
  if (!start_one_file (env, &port, "first.log"))
    return;
  g_autofree gchar *port_str = g_strdup_printf ("%u", port);
  if (!sl_test_write_config (env, one_file_config, "PORT", port_str, "FILE", "second.log", NULL))
    return;
  gint status;
  g_autofree gchar *err = NULL;
  g_autofree gchar *out = run_sluicectl (env, "reload", &status, &err);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpstr (out, ==, "OK configuration reloaded\n");
  /* the answer comes once the new configuration runs */
  if (send_message (port, "after reload") && sl_test_wait_lines (env, second, 1))
    assert_file_is (env, "second.log", "after reload\n");
}

static const gchar flow_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_file { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_net); destination(d_file); flags(flow-control); };\n";

#define STREAM_LINES 500000

/* Checks that path holds "seq 1" .. "seq n" in order; returns n. */
static guint
check_gapless (const gchar *path)
{
  g_auto (GStrv) lines = sl_test_read_lines (path);
  guint n = 0;
  for (; lines && lines[n]; n++)
    {
      g_autofree gchar *expected = g_strdup_printf ("seq %u", n + 1);
      if (strcmp (lines[n], expected) != 0)
        {
          g_test_fail_printf ("line %u of %s is '%s', expected '%s'", n + 1, path, lines[n], expected);
          break;
        }
    }
  return n;
}

/* A reload in the middle of a stream closes the connection; what the old
 * configuration received is all written, in order. */
static void
test_reload_under_load (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = g_strdup_printf ("%u", port);
  g_autofree gchar *path = sl_test_path (env, "out.log");
  if (!port || !sl_test_write_config (env, flow_config, "PORT", port_str, NULL) || !sl_test_daemon_start (env))
    return;
  GString *input = g_string_new (NULL);
  for (guint i = 1; i <= STREAM_LINES; i++)
    g_string_append_printf (input, HEADER "seq %u\n", i);
  gint fd = sl_test_tcp_connect (port);
  if (fd < 0)
    {
      g_string_free (input, TRUE);
      return;
    }
  SlTestSender *sender = sl_test_sender_start (fd, input);
  if (!sl_test_wait_lines (env, path, 1))
    {
      sl_test_sender_finish (sender);
      return;
    }
  kill (env->pid, SIGHUP);
  gboolean reloaded = sl_test_wait_stderr (env, "configuration reloaded");
  /* the reload keeps the source, its connection and its window: the
   * sender is never hung up on and every line arrives, once, in order */
  sl_test_sender_join (sender);
  if (!reloaded || !sl_test_wait_stat (env, "destination", "d_file", "written", STREAM_LINES)
      || !sl_test_wait_lines (env, path, STREAM_LINES))
    return;
  g_assert_cmpuint (check_gapless (path), ==, STREAM_LINES);
  g_assert_cmpint (sl_test_stat (env, "source", "s_net", "connections"), ==, 1);
  g_assert_cmpint (sl_test_stat (env, "destination", "d_file", "dropped"), ==, 0);
  /* and the new configuration takes connections again */
  if (sl_test_wait_tcp (env, port) && sl_test_tcp_send (port, HEADER "after\n"))
    sl_test_wait_contains (env, path, "\nafter\n");
}

#define SENT_BEFORE_TERM 5000

static void
test_sigterm (SlTestEnv *env, gconstpointer data)
{
  guint16 port;
  g_autofree gchar *out_log = sl_test_path (env, "out.log");
  if (!start_one_file (env, &port, "out.log"))
    return;
  g_autofree gchar *pid_text = sl_test_read_file (env->pidfile);
  g_autofree gchar *expected_pid = g_strdup_printf ("%d\n", (int) env->pid);
  g_assert_cmpstr (pid_text, ==, expected_pid);

  GString *input = g_string_new (NULL);
  for (guint i = 1; i <= SENT_BEFORE_TERM; i++)
    g_string_append_printf (input, HEADER "line %u\n", i);
  gboolean sent = sl_test_tcp_send (port, input->str);
  g_string_free (input, TRUE);
  if (!sent || !sl_test_wait_stat (env, "source", "s_net", "received", SENT_BEFORE_TERM))
    return;

  gint status = sl_test_daemon_stop (env, SIGTERM);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  g_assert_false (g_file_test (env->pidfile, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (env->control, G_FILE_TEST_EXISTS));
  /* what was received before the signal is all written */
  g_assert_cmpuint (sl_test_count_lines (out_log), ==, SENT_BEFORE_TERM);
  g_auto (GStrv) lines = sl_test_read_lines (out_log);
  if (lines && g_strv_length (lines) == SENT_BEFORE_TERM)
    {
      g_assert_cmpstr (lines[0], ==, "line 1");
      g_assert_cmpstr (lines[SENT_BEFORE_TERM - 1], ==, "line " G_STRINGIFY (SENT_BEFORE_TERM));
    }
}

static void
test_reopen (SlTestEnv *env, gconstpointer data)
{
  guint16 port;
  g_autofree gchar *path = sl_test_path (env, "out.log");
  g_autofree gchar *rotated = sl_test_path (env, "out.log.1");
  if (!start_one_file (env, &port, "out.log") || !send_message (port, "one") || !sl_test_wait_lines (env, path, 1))
    return;
  /* logrotate moves the file; the daemon keeps writing to it until told */
  if (rename (path, rotated) < 0)
    {
      g_test_fail_printf ("cannot rename %s: %s", path, g_strerror (errno));
      return;
    }
  if (!send_message (port, "two") || !sl_test_wait_lines (env, rotated, 2))
    return;
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));

  gint status;
  g_autofree gchar *err = NULL;
  g_autofree gchar *out = run_sluicectl (env, "reopen", &status, &err);
  g_assert_cmpint (status, ==, 0);
  g_assert_true (g_str_has_prefix (out, "OK"));
  if (!send_message (port, "three") || !sl_test_wait_lines (env, path, 1))
    return;
  assert_file_is (env, "out.log.1", "one\ntwo\n");
  assert_file_is (env, "out.log", "three\n");
}

static void
test_control_commands (SlTestEnv *env, gconstpointer data)
{
  guint16 port;
  if (!start_one_file (env, &port, "out.log"))
    return;
  g_autofree gchar *health = sl_test_control (env, "HEALTH");
  g_autofree gchar *expected = g_strdup_printf ("OK pid=%d\n", (int) env->pid);
  g_assert_cmpstr (health, ==, expected);
  /* commands are case-insensitive on the wire */
  g_autofree gchar *lower = sl_test_control (env, "health");
  g_assert_cmpstr (lower, ==, expected);
  g_autofree gchar *unknown = sl_test_control (env, "FROBNICATE");
  g_assert_true (unknown && g_str_has_prefix (unknown, "ERROR unknown command 'FROBNICATE'"));

  gint status;
  g_autofree gchar *err = NULL;
  g_autofree gchar *stats = run_sluicectl (env, "stats", &status, &err);
  g_assert_cmpint (status, ==, 0);
  g_assert_true (g_str_has_prefix (stats, "kind;id;instance;counter;value\n"));
  g_assert_nonnull (strstr (stats, "\nsource;s_net"));
  g_assert_nonnull (strstr (stats, "\ndestination;d_file"));

  /* sluicectl refuses what it does not know without asking the daemon */
  g_clear_pointer (&err, g_free);
  g_autofree gchar *none = run_sluicectl (env, "frobnicate", &status, &err);
  g_assert_cmpint (status, ==, 2);

  /* stop: the daemon exits cleanly */
  g_clear_pointer (&err, g_free);
  g_autofree gchar *stopping = run_sluicectl (env, "stop", &status, &err);
  g_assert_cmpint (status, ==, 0);
  g_assert_true (g_str_has_prefix (stopping, "OK"));
  gint wait_status = sl_test_daemon_stop (env, 0);
  g_assert_true (WIFEXITED (wait_status) && WEXITSTATUS (wait_status) == 0);

  /* nobody there: sluicectl says so and fails */
  g_clear_pointer (&err, g_free);
  g_autofree gchar *gone = run_sluicectl (env, "health", &status, &err);
  g_assert_cmpint (status, ==, 2);
  g_assert_nonnull (strstr (err, "cannot reach sluiced"));
}

/* Without -F the daemon goes into the background, and its exit status
 * says whether the configuration started. */
static void
test_background (SlTestEnv *env, gconstpointer data)
{
  const gchar *module_path = sl_test_module_path ();
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = g_strdup_printf ("%u", port);
  g_autofree gchar *path = sl_test_path (env, "out.log");
  if (!module_path || !port
      || !sl_test_write_config (env, one_file_config, "PORT", port_str, "FILE", "out.log", NULL))
    return;
  g_autofree gchar *err = NULL;
  gint status = sl_test_run_built ("daemon/sluiced", NULL, &err, "-f", env->config, "--module-path", module_path,
                                   "-p", env->pidfile, "-c", env->control, "-R", env->persist, NULL);
  g_assert_cmpint (status, ==, 0);
  g_autofree gchar *pid_text = sl_test_read_file (env->pidfile);
  gint pid = pid_text ? atoi (pid_text) : 0;
  g_assert_cmpint (pid, >, 0);
  if (pid <= 0)
    return;
  g_autofree gchar *health = sl_test_control (env, "HEALTH");
  g_autofree gchar *expected = g_strdup_printf ("OK pid=%d\n", pid);
  g_assert_cmpstr (health, ==, expected);
  if (send_message (port, "in the background") && sl_test_wait_lines (env, path, 1))
    assert_file_is (env, "out.log", "in the background\n");
  kill (pid, SIGTERM);
  if (!sl_test_wait_gone (pid))
    return;
  g_assert_false (g_file_test (env->pidfile, G_FILE_TEST_EXISTS));

  /* the same configuration again while a port it needs is taken */
  gint busy = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons (port), .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  if (bind (busy, (struct sockaddr *) &addr, sizeof addr) < 0 || listen (busy, 1) < 0)
    {
      g_test_fail_printf ("cannot take port %u: %s", port, g_strerror (errno));
      close (busy);
      return;
    }
  g_clear_pointer (&err, g_free);
  status = sl_test_run_built ("daemon/sluiced", NULL, &err, "-f", env->config, "--module-path", module_path,
                              "-p", env->pidfile, "-c", env->control, "-R", env->persist, NULL);
  close (busy);
  g_assert_cmpint (status, ==, 1);
  g_assert_false (g_file_test (env->pidfile, G_FILE_TEST_EXISTS));
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/control/sighup-reload", test_sighup_reload);
  SL_TEST_ADD ("/control/sluicectl-reload", test_sluicectl_reload);
  SL_TEST_ADD ("/control/reload-under-load", test_reload_under_load);
  SL_TEST_ADD ("/control/sigterm", test_sigterm);
  SL_TEST_ADD ("/control/reopen", test_reopen);
  SL_TEST_ADD ("/control/commands", test_control_commands);
  SL_TEST_ADD ("/control/background", test_background);
  return g_test_run ();
}
