/* SPDX-License-Identifier: GPL-2.0-or-later */
/* unix-dgram() and unix-stream() with glibc's syslog(3) as the client.
 * glibc always writes to /dev/log, so the client runs in a private mount
 * namespace where /dev is a folder of the test's whose "log" leads to the
 * daemon's socket; the system's /dev/log is never touched. */
#include "tests/functional/harness.h"

#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const gchar unix_config[] =
  "@version: 4.0\n"
  "source s_dgram { unix-dgram(\"@DIR@/dgram.sock\"); };\n"
  "source s_stream { unix-stream(\"@DIR@/stream.sock\"); };\n"
  "template t_line { template(\"${PROGRAM}[${PID}] ${FACILITY}.${LEVEL} ${HOST} ${MESSAGE}\\n\"); };\n"
  "destination d_dgram { file(\"@DIR@/dgram.log\" template(t_line)); };\n"
  "destination d_stream { file(\"@DIR@/stream.log\" template(t_line)); };\n"
  "log { source(s_dgram); destination(d_dgram); };\n"
  "log { source(s_stream); destination(d_stream); };\n";

static gboolean
private_mounts_work (void)
{
  const gchar *argv[] = { "unshare", "-m", "true", NULL };
  g_autofree gchar *unshare = g_find_program_in_path ("unshare");
  if (unshare && sl_test_run_argv (argv, NULL, NULL) == 0)
    return TRUE;
  g_test_skip ("no private mount namespace here (unshare -m needs root and util-linux)");
  return FALSE;
}

/* Runs the syslog(3) client with /dev/log leading to socket_path. */
static gboolean
log_through_glibc (SlTestEnv *env, const gchar *socket_path, const gchar *message)
{
  const gchar *builddir = g_getenv ("SL_TOP_BUILDDIR");
  g_autofree gchar *client = g_build_filename (builddir ? builddir : ".", "plugins", "sources", "unix",
                                               "syslog-client", NULL);
  g_autofree gchar *dev = sl_test_path (env, "dev");
  g_autofree gchar *link = g_build_filename (dev, "log", NULL);
  unlink (link);
  if ((g_mkdir_with_parents (dev, 0755) < 0) || symlink (socket_path, link) < 0)
    {
      g_test_fail_printf ("cannot make %s", link);
      return FALSE;
    }
  g_autofree gchar *quoted_dev = g_shell_quote (dev);
  g_autofree gchar *quoted_client = g_shell_quote (client);
  g_autofree gchar *quoted_message = g_shell_quote (message);
  g_autofree gchar *script = g_strdup_printf ("mount --bind %s /dev && exec %s glibc-test %s", quoted_dev,
                                              quoted_client, quoted_message);
  const gchar *argv[] = { "unshare", "-m", "sh", "-c", script, NULL };
  g_autofree gchar *err = NULL;
  gint status = sl_test_run_argv (argv, NULL, &err);
  if (status != 0)
    g_test_fail_printf ("the syslog(3) client failed (%d): %s", status, err);
  return status == 0;
}

static void
check_line (SlTestEnv *env, const gchar *name, const gchar *message)
{
  g_autofree gchar *path = sl_test_path (env, name);
  if (!sl_test_wait_lines (env, path, 1))
    return;
  g_autofree gchar *text = sl_test_read_file (path);
  /* glibc sends no host name: HOST is this host's; PID is the client's */
  g_autofree gchar *pattern = g_strdup_printf ("^glibc-test\\[\\d+\\] local2\\.warning \\S+ %s\\n$", message);
  if (!g_regex_match_simple (pattern, text, 0, 0))
    g_test_fail_printf ("%s holds '%s'", name, text);
}

static void
test_glibc_syslog (SlTestEnv *env, gconstpointer data)
{
  if (!private_mounts_work ())
    return;
  struct stat before;
  gboolean existed = lstat ("/dev/log", &before) == 0;
  g_autofree gchar *dgram = sl_test_path (env, "dgram.sock");
  g_autofree gchar *stream = sl_test_path (env, "stream.sock");
  if (!sl_test_write_config (env, unix_config, NULL) || !sl_test_daemon_start (env)
      || !sl_test_wait_socket (env, dgram) || !sl_test_wait_socket (env, stream))
    return;
  /* a datagram socket at /dev/log, as syslog-ng and rsyslog make it */
  if (log_through_glibc (env, dgram, "hello over unix-dgram"))
    check_line (env, "dgram.log", "hello over unix-dgram");
  /* a stream socket: glibc falls back to it, each message ending in NUL */
  if (log_through_glibc (env, stream, "hello over unix-stream"))
    check_line (env, "stream.log", "hello over unix-stream");
  /* the system's /dev/log was left alone */
  struct stat after;
  gboolean exists = lstat ("/dev/log", &after) == 0;
  g_assert_cmpint (exists, ==, existed);
  if (exists && existed)
    g_assert_cmpuint (after.st_ino, ==, before.st_ino);
}

static const gchar limit_config[] =
  "@version: 4.0\n"
  "source s { unix-dgram(\"@DIR@/limited.sock\" rate-limit-interval(60) rate-limit-burst(3)\n"
  "                      rate-limit-severity(3)); };\n"
  "destination d { file(\"@DIR@/limited.log\" template(\"${PID} ${LEVEL} ${MESSAGE}\\n\")); };\n"
  "log { source(s); destination(d); };\n";

/* Each sending process has its burst; a severity above the limit's
 * passes uncounted; the rest are dropped and counted. */
static void
test_rate_limit (SlTestEnv *env, gconstpointer data)
{
  (void) data;
  g_autofree gchar *sock = sl_test_path (env, "limited.sock");
  g_autofree gchar *log = sl_test_path (env, "limited.log");
  g_assert_true (sl_test_write_config (env, limit_config, NULL));
  g_assert_true (sl_test_daemon_start (env));
  g_assert_true (sl_test_wait_socket (env, sock));
  /* each says its PID, which unix-dgram() keeps */
  g_autofree gchar *info = g_strdup_printf ("<14>prog[%d]: parent info", (gint) getpid ());
  g_autofree gchar *crit = g_strdup_printf ("<10>prog[%d]: parent crit", (gint) getpid ());
  for (guint i = 0; i < 6; i++)
    g_assert_true (sl_test_unix_send (sock, SOCK_DGRAM, info));
  g_assert_true (sl_test_unix_send (sock, SOCK_DGRAM, crit));
  pid_t child = fork ();
  g_assert_cmpint (child, >=, 0);
  if (child == 0)
    {
      gboolean sent = TRUE;
      gchar text[64];
      g_snprintf (text, sizeof text, "<14>prog[%d]: child info", (gint) getpid ());
      for (guint i = 0; i < 2; i++)
        sent = sent && sl_test_unix_send (sock, SOCK_DGRAM, text);
      _exit (sent ? 0 : 1);
    }
  gint status;
  g_assert_cmpint (waitpid (child, &status, 0), ==, child);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  g_assert_true (sl_test_wait_lines (env, log, 6));
  g_assert_true (sl_test_wait_stat (env, "source", "s", "rate_limited", 3));
  g_autofree gchar *text = sl_test_read_file (log);
  g_autofree gchar *parent_info = g_strdup_printf ("%d info parent info\n", (gint) getpid ());
  g_autofree gchar *child_info = g_strdup_printf ("%d info child info\n", (gint) child);
  guint parents = 0, children = 0;
  for (const gchar *p = text; (p = strstr (p, parent_info)); p++)
    parents++;
  for (const gchar *p = text; (p = strstr (p, child_info)); p++)
    children++;
  g_assert_cmpuint (parents, ==, 3);
  g_assert_cmpuint (children, ==, 2);
  g_assert_nonnull (strstr (text, "crit parent crit\n"));
}

static void
test_rate_limit_needs_credentials (SlTestEnv *env, gconstpointer data)
{
  (void) data;
  g_autofree gchar *err = sl_test_refused_config (env, "@version: 4.0\n"
                                                  "source s { unix-dgram(\"@DIR@/x.sock\" rate-limit-interval(5)\n"
                                                  "  pass-unix-credentials(no)); };\n"
                                                  "log { source(s); };\n", NULL);
  g_assert_nonnull (err);
  g_assert_nonnull (strstr (err, ":3:3: rate-limit-interval(), tag-pid(), ignore-own-messages() and annotate() need"));
  g_free (err);
  err = sl_test_refused_config (env, "@version: 4.0\n"
                                "source s { unix-dgram(\"@DIR@/x.sock\" tag-pid(yes)\n"
                                "  pass-unix-credentials(no)); };\n"
                                "log { source(s); };\n", NULL);
  g_assert_nonnull (err);
  g_assert_nonnull (strstr (err, ":3:3: rate-limit-interval(), tag-pid(), ignore-own-messages() and annotate() need"));
  g_free (err);
  err = sl_test_refused_config (env, "@version: 4.0\n"
                                "source s { unix-dgram(\"@DIR@/x.sock\"\n"
                                "  parse-trusted(yes)); };\n"
                                "log { source(s); };\n", NULL);
  g_assert_nonnull (err);
  g_assert_nonnull (strstr (err, ":3:3: parse-trusted() sets the fields annotate() reads, and needs annotate(yes)"));
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/unix/glibc-syslog", test_glibc_syslog);
  SL_TEST_ADD ("/unix/rate-limit", test_rate_limit);
  SL_TEST_ADD ("/unix/rate-limit-needs-credentials", test_rate_limit_needs_credentials);
  return g_test_run ();
}
