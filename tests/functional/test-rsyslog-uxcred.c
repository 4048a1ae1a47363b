/* SPDX-License-Identifier: GPL-2.0-or-later */
/* imuxsock's parameters that read the sender's credentials, run by
 * rsyslogd 8.2302 and by sluiced --config-format rsyslog on one
 * configuration: child processes write tags of every shape to sockets
 * with usePIDFromSystem (the system socket's SysSock.UsePIDFromSystem, an
 * input()'s, and $AddUnixListenSocket's after
 * $InputUnixListenSocketUsePIDFromSystem), whose tags must get the
 * child's PID as rsyslogd writes it; and each daemon forwards what comes
 * to a socket with ignoreOwnMessages back to it (:omuxsock:) and to one
 * without, so that only the second copy is written; and a socket with
 * annotate gets the children's trusted properties after each message,
 * and one with parseTrusted too as the $! fields (the children live
 * until both daemons wrote them). */
#include "tests/functional/harness.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHILDREN 3

static const gchar config[] =
  "module(load=\"imuxsock\" SysSock.Name=\"@DIR@/dev-log\" SysSock.UsePIDFromSystem=\"on\")\n"
  "$ModLoad omuxsock\n"
  "input(type=\"imuxsock\" Socket=\"@DIR@/pid\" UsePIDFromSystem=\"on\")\n"
  "$InputUnixListenSocketUsePIDFromSystem on\n"
  "$AddUnixListenSocket @DIR@/legacy\n"
  "input(type=\"imuxsock\" Socket=\"@DIR@/own\" IgnoreOwnMessages=\"on\")\n"
  "input(type=\"imuxsock\" Socket=\"@DIR@/open\")\n"
  "input(type=\"imuxsock\" Socket=\"@DIR@/annotate\" Annotate=\"on\")\n"
  "template(name=\"fields\" type=\"string\" string=\"%syslogtag%|%msg%|%$!%|%$!pid%\\n\")\n"
  "ruleset(name=\"trusted\") { action(type=\"omfile\" file=\"@DIR@/trusted.out\" template=\"fields\") }\n"
  "input(type=\"imuxsock\" Socket=\"@DIR@/trusted\" Annotate=\"on\" ParseTrusted=\"on\" Ruleset=\"trusted\")\n"
  "template(name=\"t\" type=\"string\" string=\"%syslogtag%|%programname%|%procid%|%msg%\\n\")\n"
  "template(name=\"fwd\" type=\"string\" string=\"<13>fwd: copied\")\n"
  "*.* action(type=\"omfile\" file=\"@DIR@/out\" template=\"t\")\n"
  "$OMUxSockSocket @DIR@/own\n"
  ":msg, contains, \"loop\" :omuxsock:;fwd\n"
  "$OMUxSockSocket @DIR@/open\n"
  ":msg, contains, \"loop\" :omuxsock:;fwd\n";

/* what the children write to the sockets with usePIDFromSystem: a PID
 * that is not theirs, none, none and no colon, brackets inside the tag */
static const gchar *const tagged[] = {
  "<13>a[1]: one", "<13>b: two", "<13>c three", "<13>d[7]x: four", "<13>e[]: five",
};
static const gchar *const pid_sockets[] = { "dev-log", "pid", "legacy" };

static void
send_to (gint fd, const gchar *dir, const gchar *socket, const gchar *text)
{
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  g_snprintf (addr.sun_path, sizeof addr.sun_path, "%s/%s", dir, socket);
  if (sendto (fd, text, strlen (text), 0, (struct sockaddr *) &addr, sizeof addr) < 0)
    _exit (1);
}

/* the children's writes, then a wait until the parent closes hold: /proc
 * must still have them when the daemons read it */
static void
child (const gchar *rs_dir, const gchar *sl_dir, guint n, gint hold)
{
  gint fd = socket (AF_UNIX, SOCK_DGRAM, 0);
  gchar byte;
  for (guint s = 0; s < G_N_ELEMENTS (pid_sockets); s++)
    for (guint i = 0; i < G_N_ELEMENTS (tagged); i++)
      {
        send_to (fd, rs_dir, pid_sockets[s], tagged[i]);
        send_to (fd, sl_dir, pid_sockets[s], tagged[i]);
      }
  g_autofree gchar *loop = g_strdup_printf ("<13>l: loop %u", n);
  send_to (fd, rs_dir, "own", loop);
  send_to (fd, sl_dir, "own", loop);
  send_to (fd, rs_dir, "annotate", "<13>an: annotated");
  send_to (fd, sl_dir, "annotate", "<13>an: annotated");
  send_to (fd, rs_dir, "trusted", "<13>tr: trusted");
  send_to (fd, sl_dir, "trusted", "<13>tr: trusted");
  _exit (read (hold, &byte, 1) == 0 ? 0 : 1);
}

static gchar *
filled (const gchar *dir)
{
  g_autoptr (GString) text = g_string_new (config);
  g_string_replace (text, "@DIR@", dir, 0);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
test_credentials (SlTestEnv *env, gconstpointer data)
{
  (void) data;
  g_autofree gchar *root = sl_test_rsyslog_root_or_skip ();
  if (!root)
    return;
  g_autofree gchar *rs_dir = sl_test_path (env, "rsyslogd");
  g_assert_cmpint (g_mkdir_with_parents (rs_dir, 0700), ==, 0);
  g_autofree gchar *rs_text = filled (rs_dir);
  g_autofree gchar *rs_conf = g_build_filename (rs_dir, "rsyslog.conf", NULL);
  g_assert_true (g_file_set_contents (rs_conf, rs_text, -1, NULL));
  g_autofree gchar *sl_text = filled (env->dir);
  g_assert_true (sl_test_write_config (env, sl_text, NULL));

  GPid rs = sl_test_rsyslogd_start (root, rs_conf, rs_dir);
  g_assert_cmpint (rs, >, 0);
  g_assert_true (sl_test_daemon_start_with_args (env, "--config-format", "rsyslog", "-e", NULL));
  static const gchar *const all[] = { "dev-log", "pid", "legacy", "own", "open", "annotate", "trusted" };
  for (guint s = 0; s < G_N_ELEMENTS (all); s++)
    {
      g_autofree gchar *rs_sock = g_build_filename (rs_dir, all[s], NULL);
      g_autofree gchar *sl_sock = g_build_filename (env->dir, all[s], NULL);
      g_assert_true (sl_test_wait_socket (env, rs_sock));
      g_assert_true (sl_test_wait_socket (env, sl_sock));
    }

  gint hold[2];
  g_assert_cmpint (pipe (hold), ==, 0);
  pid_t pids[CHILDREN];
  for (guint n = 0; n < CHILDREN; n++)
    {
      pids[n] = fork ();
      g_assert_cmpint (pids[n], >=, 0);
      if (pids[n] == 0)
        {
          close (hold[1]);
          child (rs_dir, env->dir, n, hold[0]);
        }
    }
  close (hold[0]);

  /* each child's tagged lines, its loop line, the copy the open socket
   * took (the own socket's is dropped) and its annotated line */
  guint expected = CHILDREN * (G_N_ELEMENTS (pid_sockets) * G_N_ELEMENTS (tagged) + 3);
  g_autofree gchar *rs_out = g_build_filename (rs_dir, "out", NULL);
  g_autofree gchar *sl_out = g_build_filename (env->dir, "out", NULL);
  g_autofree gchar *rs_trusted = g_build_filename (rs_dir, "trusted.out", NULL);
  g_autofree gchar *sl_trusted = g_build_filename (env->dir, "trusted.out", NULL);
  gboolean rs_done = sl_test_wait_lines (env, rs_out, expected) && sl_test_wait_lines (env, rs_trusted, CHILDREN);
  gboolean sl_done = sl_test_wait_lines (env, sl_out, expected) && sl_test_wait_lines (env, sl_trusted, CHILDREN);
  close (hold[1]);
  for (guint n = 0; n < CHILDREN; n++)
    {
      gint status;
      g_assert_cmpint (waitpid (pids[n], &status, 0), ==, pids[n]);
      g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
    }
  /* a copy the own socket took would come as soon as the open one's */
  g_usleep (G_USEC_PER_SEC / 2);
  sl_test_daemon_stop (env, SIGTERM);
  kill (rs, SIGTERM);
  g_assert_cmpint (sl_test_child_wait (rs, 10 * G_USEC_PER_SEC), ==, 0);
  g_autofree gchar *rs_err = g_build_filename (rs_dir, "rsyslogd.stderr", NULL);
  g_autofree gchar *rs_stderr = sl_test_read_file (rs_err);
  g_test_message ("rsyslogd: %s", rs_stderr ? rs_stderr : "");
  g_assert_true (rs_done);
  g_assert_true (sl_done);

  g_autofree gchar *rs_lines = sl_test_read_sorted_lines (rs_out);
  g_autofree gchar *sl_lines = sl_test_read_sorted_lines (sl_out);
  g_test_message ("rsyslogd:\n%s\nsluiced:\n%s", rs_lines, sl_lines);
  g_assert_cmpstr (sl_lines, ==, rs_lines);
  g_assert_cmpuint (sl_test_count_lines (sl_out), ==, expected);
  for (guint n = 0; n < CHILDREN; n++)
    {
      g_autofree gchar *tag = g_strdup_printf ("b[%d]:|b|%d| two", (gint) pids[n], (gint) pids[n]);
      g_autofree gchar *trusted = g_strdup_printf ("an:|an|-| annotated @[_PID=%d _UID=%u _GID=%u _COMM=",
                                                   (gint) pids[n], (guint) getuid (), (guint) getgid ());
      g_assert_nonnull (strstr (sl_lines, tag));
      g_assert_nonnull (strstr (sl_lines, trusted));
    }

  g_autofree gchar *rs_fields = sl_test_read_sorted_lines (rs_trusted);
  g_autofree gchar *sl_fields = sl_test_read_sorted_lines (sl_trusted);
  g_test_message ("parseTrusted, rsyslogd:\n%s\nsluiced:\n%s", rs_fields, sl_fields);
  g_assert_cmpstr (sl_fields, ==, rs_fields);
  for (guint n = 0; n < CHILDREN; n++)
    {
      g_autofree gchar *pid = g_strdup_printf ("tr:| trusted|{ \"pid\": %d, \"uid\": %u, \"gid\": %u, \"appname\": ",
                                               (gint) pids[n], (guint) getuid (), (guint) getgid ());
      g_assert_nonnull (strstr (sl_fields, pid));
    }
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/rsyslog-uxcred/credentials", test_credentials);
  return g_test_run ();
}
