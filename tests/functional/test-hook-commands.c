/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hook-commands() of sources and destinations on a running sluiced: each
 * command runs when syslog-ng 3.38 runs it (startup() at the daemon's
 * start, setup() before each start of the driver, teardown() after each
 * stop, shutdown() at exit; for the source, the order below is what
 * syslog-ng writes for the same configuration), and a failing
 * setup() keeps the daemon from starting. */
#include "tests/functional/harness.h"

#include <signal.h>
#include <string.h>
#include <sys/socket.h>

static const gchar hooks_config[] =
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@) hook-commands(\n"
  "  startup(\"echo startup >> @DIR@/source.log\") setup(\"echo setup >> @DIR@/source.log\")\n"
  "  teardown(\"echo teardown >> @DIR@/source.log\") shutdown(\"echo shutdown >> @DIR@/source.log\"))); };\n"
  "destination d_out { file(\"@DIR@/out.log\" hook-commands(setup(\"echo setup >> @DIR@/dest.log\")\n"
  "  teardown(\"echo teardown >> @DIR@/dest.log\"))); };\n"
  "log { source(s_net); destination(d_out); };\n";

static void
test_lifecycle (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = g_strdup_printf ("%u", port);
  g_autofree gchar *source_log = sl_test_path (env, "source.log");
  g_autofree gchar *dest_log = sl_test_path (env, "dest.log");
  g_autofree gchar *out = sl_test_path (env, "out.log");

  if (!port || !sl_test_write_config (env, hooks_config, "PORT", port_str, NULL) || !sl_test_daemon_start (env)
      || !sl_test_wait_tcp (env, port))
    return;
  g_autofree gchar *started = sl_test_read_file (source_log);
  g_assert_cmpstr (started, ==, "startup\nsetup\n");

  /* a reload restarts a driver with hooks, without startup() or shutdown() */
  g_autofree gchar *answer = sl_test_control (env, "RELOAD");
  g_assert_nonnull (answer);
  g_assert_nonnull (strstr (answer, "OK"));
  if (!sl_test_wait_lines (env, source_log, 4) || !sl_test_wait_tcp (env, port)
      || !sl_test_tcp_send (port, "<13>Dec  1 13:40:00 host app: after reload\n") || !sl_test_wait_lines (env, out, 1))
    return;
  g_autofree gchar *reloaded = sl_test_read_file (source_log);
  g_assert_cmpstr (reloaded, ==, "startup\nsetup\nteardown\nsetup\n");

  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
  g_autofree gchar *stopped = sl_test_read_file (source_log);
  g_assert_cmpstr (stopped, ==, "startup\nsetup\nteardown\nsetup\nteardown\nshutdown\n");
  /* at a reload the new destination starts before the old one hands its
   * queue over and stops (doc/compatibility.md) */
  g_autofree gchar *dest = sl_test_read_file (dest_log);
  g_assert_cmpstr (dest, ==, "setup\nsetup\nteardown\nteardown\n");
}

static void
test_failing_setup (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *err = NULL;
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = g_strdup_printf ("%u", port);
  g_autofree gchar *ran = sl_test_path (env, "ran");

  if (!port || !sl_test_write_config (env,
                                      "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)\n"
                                      "  hook-commands(setup(\"exit 3\") teardown(\"touch @DIR@/ran\"))); };\n"
                                      "destination d_out { file(\"@DIR@/out.log\"); };\n"
                                      "log { source(s_net); destination(d_out); };\n", "PORT", port_str, NULL))
    return;
  const gchar *module_path = sl_test_module_path ();
  if (!module_path)
    return;
  gint status = sl_test_run_built ("daemon/sluiced", NULL, &err, "-F", "-f", env->config, "--module-path",
                                   module_path, "-p", env->pidfile, "-c", env->control, "-R", env->persist, NULL);
  g_assert_cmpint (status, !=, 0);
  g_assert_nonnull (strstr (err, ":2:17: the setup() hook command of s_net#0 failed: Child process exited with code 3"));
  /* what was not set up is not torn down */
  g_assert_false (g_file_test (ran, G_FILE_TEST_EXISTS));
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/hook-commands/lifecycle", test_lifecycle);
  SL_TEST_ADD ("/hook-commands/failing-setup", test_failing_setup);
  return g_test_run ();
}
