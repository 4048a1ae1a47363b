/* SPDX-License-Identifier: GPL-2.0-or-later */
/* system() on the real daemon, pointed at a socket and a kernel log of the
 * test's own (never the system's /dev/log): both parts, and each part
 * missing in turn. */
#include "tests/functional/harness.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

static const gchar system_config[] =
  "@version: 4.0\n"
  "source s_sys { system(socket(\"@DIR@/log.sock\") kmsg(\"@KMSG@\")); };\n"
  "destination d_out { file(\"@DIR@/out.log\" template(\"${PROGRAM} ${FACILITY}.${LEVEL} ${MESSAGE}\\n\")); };\n"
  "log { source(s_sys); destination(d_out); };\n";

static gboolean
run_logger (const gchar *socket_path, const gchar *message)
{
  const gchar *argv[] = { "logger", "-d", "-u", socket_path, "-t", "app", "-p", "mail.warning", message, NULL };
  g_autofree gchar *err = NULL;
  gint status = sl_test_run_argv (argv, NULL, &err);
  if (status != 0)
    g_test_fail_printf ("logger failed (%d): %s", status, err);
  return status == 0;
}

static gboolean
have_logger (void)
{
  g_autofree gchar *logger = g_find_program_in_path ("logger");
  if (!logger)
    g_test_skip ("logger from util-linux is not installed");
  return logger != NULL;
}

static void
test_both_parts (SlTestEnv *env, gconstpointer data)
{
  if (!have_logger ())
    return;
  g_autofree gchar *kmsg = sl_test_path (env, "kmsg");
  g_autofree gchar *sock = sl_test_path (env, "log.sock");
  g_autofree gchar *out = sl_test_path (env, "out.log");
  g_assert_cmpint (mkfifo (kmsg, 0600), ==, 0);
  if (!sl_test_write_config (env, system_config, "KMSG", kmsg, NULL) || !sl_test_daemon_start (env))
    return;
  struct stat st;
  g_assert_cmpint (stat (sock, &st), ==, 0);
  g_assert_true (S_ISSOCK (st.st_mode));
  g_assert_cmpint (st.st_mode & 0777, ==, 0666);
  if (!run_logger (sock, "from a program") || !sl_test_wait_lines (env, out, 1))
    return;
  gint fd = open (kmsg, O_WRONLY | O_CLOEXEC);
  static const gchar record[] = "5,7,1000,-;from the kernel\n";
  g_assert_cmpint (write (fd, record, strlen (record)), ==, (gssize) strlen (record));
  close (fd);
  if (!sl_test_wait_lines (env, out, 2))
    return;
  g_autofree gchar *text = sl_test_read_file (out);
  g_assert_cmpstr (text, ==, "app mail.warning from a program\nkernel kern.notice from the kernel\n");
  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
  g_assert_false (g_file_test (sock, G_FILE_TEST_EXISTS));
}

/* In a container the kernel's log is often out of reach: the socket
 * still works, and the daemon says what is missing. */
static void
test_without_kernel_log (SlTestEnv *env, gconstpointer data)
{
  if (!have_logger ())
    return;
  g_autofree gchar *kmsg = sl_test_path (env, "no-such-kmsg");
  g_autofree gchar *sock = sl_test_path (env, "log.sock");
  g_autofree gchar *out = sl_test_path (env, "out.log");
  if (!sl_test_write_config (env, system_config, "KMSG", kmsg, NULL) || !sl_test_daemon_start (env)
      || !sl_test_wait_stderr (env, "the kernel's log is not read"))
    return;
  if (run_logger (sock, "still received") && sl_test_wait_lines (env, out, 1))
    {
      g_autofree gchar *text = sl_test_read_file (out);
      g_assert_cmpstr (text, ==, "app mail.warning still received\n");
    }
}

static const gchar no_socket_config[] =
  "@version: 4.0\n"
  "source s_sys { system(socket(\"@DIR@/no-such-folder/log.sock\") kmsg(\"@DIR@/kmsg\")); };\n"
  "destination d_out { file(\"@DIR@/out.log\" template(\"${PROGRAM} ${MESSAGE}\\n\")); };\n"
  "log { source(s_sys); destination(d_out); };\n";

static void
test_without_socket (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *kmsg = sl_test_path (env, "kmsg");
  g_autofree gchar *out = sl_test_path (env, "out.log");
  g_assert_cmpint (mkfifo (kmsg, 0600), ==, 0);
  if (!sl_test_write_config (env, no_socket_config, NULL) || !sl_test_daemon_start (env)
      || !sl_test_wait_stderr (env, "local programs' messages are not received"))
    return;
  gint fd = open (kmsg, O_WRONLY | O_CLOEXEC);
  static const gchar record[] = "6,1,1,-;kernel only\n";
  g_assert_cmpint (write (fd, record, strlen (record)), ==, (gssize) strlen (record));
  close (fd);
  if (sl_test_wait_lines (env, out, 1))
    {
      g_autofree gchar *text = sl_test_read_file (out);
      g_assert_cmpstr (text, ==, "kernel kernel only\n");
    }
}

static const gchar nothing_config[] =
  "@version: 4.0\n"
  "source s_sys { system(socket(\"@DIR@/no-such-folder/log.sock\") kmsg(\"@DIR@/no-such-kmsg\")); };\n"
  "destination d_out { file(\"@DIR@/out.log\"); };\n"
  "log { source(s_sys); destination(d_out); };\n";

/* With neither part there is nothing to run. */
static void
test_neither_part (SlTestEnv *env, gconstpointer data)
{
  if (!sl_test_write_config (env, nothing_config, NULL))
    return;
  g_autofree gchar *err = NULL;
  gint status = sl_test_run_built ("daemon/sluiced", NULL, &err, "-F", "-f", env->config, "--module-path",
                                   sl_test_module_path (), "-p", env->pidfile, "-c", env->control,
                                   "-R", env->persist, NULL);
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (err, "system(): neither local log can be read"));
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/system/both-parts", test_both_parts);
  SL_TEST_ADD ("/system/without-kernel-log", test_without_kernel_log);
  SL_TEST_ADD ("/system/without-socket", test_without_socket);
  SL_TEST_ADD ("/system/neither-part", test_neither_part);
  return g_test_run ();
}
