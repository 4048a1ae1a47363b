/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stdout() on the real daemon: started here with its stdout in a file of
 * its own (the harness sends stdout and stderr to one file), it writes
 * each message there with the template, and nothing of it to stderr. */
#include "tests/functional/harness.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static const gchar config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@) keep-hostname(yes)); };\n"
  "destination d_out { stdout(template(\"${HOST} ${PROGRAM}: ${MESSAGE} [${LEVEL}]\\n\")); };\n"
  "log { source(s_net); destination(d_out); };\n";

/* Starts sluiced in the foreground like the harness does, but with stdout
 * going to out_path; env->pid is set so teardown stops it. */
static gboolean
start_with_stdout (SlTestEnv *env, const gchar *out_path)
{
  const gchar *builddir = g_getenv ("SL_TOP_BUILDDIR");
  const gchar *module_path = sl_test_module_path ();
  if (!builddir || !module_path)
    {
      g_test_fail_printf ("SL_TOP_BUILDDIR is not set; run the test through make check");
      return FALSE;
    }
  g_autofree gchar *program = g_build_filename (builddir, "daemon", "sluiced", NULL);
  const gchar *argv[] = {
    program, "-F", "-f", env->config, "--module-path", module_path,
    "-p", env->pidfile, "-c", env->control, NULL
  };
  gint out = open (out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  gint err = open (env->stderr_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  g_auto (GStrv) envp = g_environ_setenv (g_get_environ (), "LC_ALL", "C", TRUE);
  GError *error = NULL;
  gboolean spawned = out >= 0 && err >= 0
                     && g_spawn_async_with_pipes_and_fds (env->dir, argv, (const gchar *const *) envp,
                                                          G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, -1, out, err,
                                                          NULL, NULL, 0, &env->pid, NULL, NULL, NULL, &error);
  if (out >= 0)
    close (out);
  if (err >= 0)
    close (err);
  if (!spawned)
    {
      g_test_fail_printf ("cannot start sluiced: %s", error ? error->message : g_strerror (errno));
      g_clear_error (&error);
      env->pid = 0;
      return FALSE;
    }
  /* the control socket opens once every source started */
  return sl_test_wait_socket (env, env->control);
}

static void
test_stdout (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = g_strdup_printf ("%u", port);
  g_autofree gchar *out = sl_test_path (env, "stdout.txt");
  if (!port || !sl_test_write_config (env, config, "PORT", port_str, NULL) || !start_with_stdout (env, out)
      || !sl_test_tcp_send (port, "<11>Oct 11 22:14:15 web1 nginx[42]: upstream timed out\n"
                                  "<14>Oct 11 22:14:16 web1 nginx[42]: recovered\n")
      || !sl_test_wait_lines (env, out, 2))
    return;
  g_autofree gchar *text = sl_test_read_file (out);
  g_assert_cmpstr (text, ==, "web1 nginx: upstream timed out [err]\nweb1 nginx: recovered [info]\n");
  g_autofree gchar *log = sl_test_daemon_stderr (env);
  g_assert_null (strstr (log, "upstream timed out"));
  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/stdout/template", test_stdout);
  return g_test_run ();
}
