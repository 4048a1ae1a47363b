/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Paths the daemon makes (the control socket, the pid file, the persist
 * file, a unix socket of a source) hold something else: another user's
 * file, a symbolic link, another user's socket. The daemon refuses, names
 * the path and its owner, and leaves what is there as it was. Run as root
 * (files are given to nobody); skipped otherwise. */
#include "tests/functional/harness.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOBODY 65534
#define PRECIOUS "someone else's data\n"

static const gchar plain_config[] =
  "@version: 4.0\n"
  "source s_in { internal(); };\n"
  "destination d_out { file(\"@DIR@/out.log\"); };\n"
  "log { source(s_in); destination(d_out); };\n";

static const gchar socket_config[] =
  "@version: 4.0\n"
  "source s_unix { unix-stream(\"@DIR@/log.sock\"); };\n"
  "destination d_out { file(\"@DIR@/out.log\"); };\n"
  "log { source(s_unix); destination(d_out); };\n";

static gboolean
skip_unless_root (void)
{
  if (getuid () == 0)
    return FALSE;
  g_test_skip ("giving files to another user needs root");
  return TRUE;
}

/* A regular file of nobody's at path. */
static gboolean
nobodys_file (const gchar *path)
{
  if (g_file_set_contents (path, PRECIOUS, -1, NULL) && chown (path, NOBODY, NOBODY) == 0)
    return TRUE;
  g_test_fail_printf ("cannot make %s nobody's", path);
  return FALSE;
}

static void
assert_untouched (const gchar *path)
{
  g_autofree gchar *text = sl_test_read_file (path);
  g_assert_cmpstr (text, ==, PRECIOUS);
  struct stat st;
  g_assert_cmpint (lstat (path, &st), ==, 0);
  g_assert_cmpuint (st.st_uid, ==, NOBODY);
}

/* Starts sluiced on env's paths and expects it to refuse to start, saying
 * needle. */
static void
expect_refusal (SlTestEnv *env, const gchar *needle)
{
  const gchar *module_path = sl_test_module_path ();
  if (!module_path)
    return;
  const gchar *args[] = { "-F", "-f", env->config, "--module-path", module_path, "-p", env->pidfile,
                          "-c", env->control, "-R", env->persist, NULL };
  GPid pid = sl_test_spawn_built ("daemon/sluiced", env->stderr_path, args);
  if (!pid)
    return;
  gint status = sl_test_child_wait (pid, SL_TEST_DEADLINE_MS * 1000);
  g_assert_true (status >= 0 && WIFEXITED (status) && WEXITSTATUS (status) == 1);
  g_autofree gchar *err = sl_test_daemon_stderr (env);
  if (!err || !strstr (err, needle))
    g_test_fail_printf ("expected '%s' in:\n%s", needle, err ? err : "");
}

/* sluiced -c PATH with another user's regular file at PATH. */
static void
test_control_path_taken (SlTestEnv *env, gconstpointer data)
{
  if (skip_unless_root () || !nobodys_file (env->control) || !sl_test_write_config (env, plain_config, NULL))
    return;
  g_autofree gchar *needle = g_strdup_printf ("the control socket %s is a regular file of nobody (uid %u)",
                                              env->control, NOBODY);
  expect_refusal (env, needle);
  assert_untouched (env->control);
}

/* A symbolic link at the pid file's path, to another user's file. */
static void
test_pid_file_link (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *target = sl_test_path (env, "target");
  if (skip_unless_root () || !nobodys_file (target) || symlink (target, env->pidfile) < 0
      || !sl_test_write_config (env, plain_config, NULL))
    return;
  g_autofree gchar *needle = g_strdup_printf ("the pid file %s is a symbolic link of root", env->pidfile);
  expect_refusal (env, needle);
  assert_untouched (target);
}

/* The persist file is a link to another user's file: the daemon runs
 * without saved positions and never writes through it or replaces it. */
static void
test_persist_file_link (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *target = sl_test_path (env, "target");
  if (skip_unless_root () || !nobodys_file (target) || symlink (target, env->persist) < 0
      || !sl_test_write_config (env, plain_config, NULL) || !sl_test_daemon_start (env))
    return;
  g_autofree gchar *needle = g_strdup_printf ("the persist file %s is a symbolic link", env->persist);
  g_assert_true (sl_test_wait_stderr (env, needle));
  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
  struct stat st;
  g_assert_cmpint (lstat (env->persist, &st), ==, 0);
  g_assert_true (S_ISLNK (st.st_mode));
  assert_untouched (target);
}

/* Another user's socket at the path of a unix-stream() source. */
static void
test_unix_socket_taken (SlTestEnv *env, gconstpointer data)
{
  if (skip_unless_root ())
    return;
  g_autofree gchar *path = sl_test_path (env, "log.sock");
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  g_strlcpy (addr.sun_path, path, sizeof addr.sun_path);
  gint fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  gboolean made = fd >= 0 && bind (fd, (struct sockaddr *) &addr, sizeof addr) == 0
                  && chown (path, NOBODY, NOBODY) == 0;
  if (fd >= 0)
    close (fd);
  if (!made)
    {
      g_test_fail_printf ("cannot make nobody's socket %s: %s", path, g_strerror (errno));
      return;
    }
  if (!sl_test_write_config (env, socket_config, NULL))
    return;
  g_autofree gchar *needle = g_strdup_printf ("%s is the socket of another user", path);
  expect_refusal (env, needle);
  struct stat st;
  g_assert_cmpint (lstat (path, &st), ==, 0);
  g_assert_true (S_ISSOCK (st.st_mode));
  g_assert_cmpuint (st.st_uid, ==, NOBODY);
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/paths/control-path-taken", test_control_path_taken);
  SL_TEST_ADD ("/paths/pid-file-link", test_pid_file_link);
  SL_TEST_ADD ("/paths/persist-file-link", test_persist_file_link);
  SL_TEST_ADD ("/paths/unix-socket-taken", test_unix_socket_taken);
  return g_test_run ();
}
