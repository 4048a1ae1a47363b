/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One daemon per pid file and control socket: a second sluiced started by
 * mistake with the same ones is refused before it touches the first one's
 * sockets, and the first goes on receiving. What a dead daemon left (a pid
 * file, socket files) never blocks a start. */
#include "tests/functional/harness.h"

#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

static const gchar two_sources_config[] =
  "@version: 4.0\n"
  "source s_local { unix-dgram(\"@DIR@/log.sock\"); };\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_file { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_local); source(s_net); destination(d_file); };\n";

static gboolean
write_two_sources (SlTestEnv *env, guint16 *port)
{
  *port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = g_strdup_printf ("%u", *port);
  return *port && sl_test_write_config (env, two_sources_config, "PORT", port_str, NULL);
}

/* Runs a second sluiced on env's configuration in the foreground with the
 * pid file and control socket given; its exit status, stderr in *err. */
static gint
run_second (SlTestEnv *env, const gchar *pidfile, const gchar *control, gchar **err)
{
  const gchar *module_path = sl_test_module_path ();
  g_autofree gchar *persist = sl_test_path (env, "second.persist");
  if (!module_path)
    return -1;
  return sl_test_run_built ("daemon/sluiced", NULL, err, "-F", "-f", env->config, "--module-path", module_path,
                            "-p", pidfile, "-c", control, "-R", persist, NULL);
}

/* The first daemon receives on its unix socket and TCP port and answers
 * sluicectl: what a refused second one must leave working. */
static void
check_first_works (SlTestEnv *env, guint16 port, const gchar *mark)
{
  g_autofree gchar *sock = sl_test_path (env, "log.sock");
  g_autofree gchar *out = sl_test_path (env, "out.log");
  g_autofree gchar *local = g_strdup_printf ("<13>Dec  1 10:00:00 host prog: %s over the unix socket", mark);
  g_autofree gchar *net = g_strdup_printf ("<13>Dec  1 10:00:00 host prog: %s over tcp\n", mark);
  if (!sl_test_unix_send (sock, SOCK_DGRAM, local) || !sl_test_tcp_send (port, net))
    return;
  g_autofree gchar *local_line = g_strdup_printf ("%s over the unix socket\n", mark);
  g_autofree gchar *net_line = g_strdup_printf ("%s over tcp\n", mark);
  if (!sl_test_wait_contains (env, out, local_line) || !sl_test_wait_contains (env, out, net_line))
    return;
  g_autofree gchar *stats = NULL;
  gint status = sl_test_run_built ("tools/sluicectl", &stats, NULL, "-c", env->control, "stats", NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (stats, "s_local"));
}

static void
test_same_pidfile (SlTestEnv *env, gconstpointer data)
{
  guint16 port;
  if (!write_two_sources (env, &port) || !sl_test_daemon_start (env))
    return;
  check_first_works (env, port, "before");

  g_autofree gchar *err = NULL;
  gint status = run_second (env, env->pidfile, env->control, &err);
  g_assert_cmpint (status, ==, 1);
  g_autofree gchar *expected = g_strdup_printf ("another sluiced (pid %d) holds the pid file %s; not starting",
                                                (int) env->pid, env->pidfile);
  g_assert_nonnull (err ? strstr (err, expected) : NULL);
  g_autofree gchar *pid_text = sl_test_read_file (env->pidfile);
  g_autofree gchar *pid_line = g_strdup_printf ("%d\n", (int) env->pid);
  g_assert_cmpstr (pid_text, ==, pid_line);

  g_assert_true (sl_test_daemon_alive (env));
  check_first_works (env, port, "after");
}

/* Another pid file but the same control socket: the control socket is
 * what names the running daemon, and the second leaves no pid file. */
static void
test_same_control_socket (SlTestEnv *env, gconstpointer data)
{
  guint16 port;
  if (!write_two_sources (env, &port) || !sl_test_daemon_start (env))
    return;
  g_autofree gchar *other_pidfile = sl_test_path (env, "other.pid");
  g_autofree gchar *err = NULL;
  gint status = run_second (env, other_pidfile, env->control, &err);
  g_assert_cmpint (status, ==, 1);
  g_autofree gchar *expected = g_strdup_printf (
    "another sluiced (pid %d) answers on the control socket %s; not starting", (int) env->pid, env->control);
  g_assert_nonnull (err ? strstr (err, expected) : NULL);
  g_assert_false (g_file_test (other_pidfile, G_FILE_TEST_EXISTS));
  check_first_works (env, port, "after");
}

/* Checking a configuration is never refused, whatever runs. */
static void
test_syntax_only (SlTestEnv *env, gconstpointer data)
{
  guint16 port;
  const gchar *module_path = sl_test_module_path ();
  if (!module_path || !write_two_sources (env, &port) || !sl_test_daemon_start (env))
    return;
  g_autofree gchar *err = NULL;
  gint status = sl_test_run_built ("daemon/sluiced", NULL, &err, "-s", "-f", env->config, "--module-path",
                                   module_path, "-p", env->pidfile, "-c", env->control, NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpstr (err, ==, "");
  check_first_works (env, port, "after");
}

/* A socket file nobody is bound to any more, as a killed daemon leaves. */
static gboolean
leave_dead_socket (const gchar *path, gint type)
{
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  g_strlcpy (addr.sun_path, path, sizeof addr.sun_path);
  gint fd = socket (AF_UNIX, type | SOCK_CLOEXEC, 0);
  gboolean ok = fd >= 0 && bind (fd, (struct sockaddr *) &addr, sizeof addr) == 0;
  if (fd >= 0)
    close (fd);
  if (!ok)
    g_test_fail_printf ("cannot make a socket at %s", path);
  return ok;
}

/* The id of a process that has exited and been reaped. */
static pid_t
dead_pid (void)
{
  pid_t pid = fork ();
  if (pid == 0)
    _exit (0);
  if (pid > 0)
    waitpid (pid, NULL, 0);
  return pid;
}

static void
test_leftovers_of_a_dead_daemon (SlTestEnv *env, gconstpointer data)
{
  guint16 port;
  g_autofree gchar *sock = sl_test_path (env, "log.sock");
  pid_t dead = dead_pid ();
  g_assert_cmpint (dead, >, 0);
  g_autofree gchar *stale = g_strdup_printf ("%d\n", (int) dead);
  if (!write_two_sources (env, &port) || !g_file_set_contents (env->pidfile, stale, -1, NULL)
      || !leave_dead_socket (env->control, SOCK_STREAM) || !leave_dead_socket (sock, SOCK_DGRAM)
      || !sl_test_daemon_start (env))
    return;
  g_autofree gchar *pid_text = sl_test_read_file (env->pidfile);
  g_autofree gchar *pid_line = g_strdup_printf ("%d\n", (int) env->pid);
  g_assert_cmpstr (pid_text, ==, pid_line);
  check_first_works (env, port, "started");
}

/* A loopback TCP port the test holds, or -1 (and the test failed). */
static gint
take_port (guint16 port)
{
  struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons (port),
                              .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  gint fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd >= 0 && bind (fd, (struct sockaddr *) &addr, sizeof addr) == 0 && listen (fd, 1) == 0)
    return fd;
  g_test_fail_printf ("cannot take port %u", port);
  if (fd >= 0)
    close (fd);
  return -1;
}

/* A unix socket another process is bound to is not taken from it: the
 * daemon fails to start and the socket still reaches its owner. The test
 * also holds the TCP port, so that a daemon that did take the socket
 * fails too instead of running on. */
static void
test_live_socket_kept (SlTestEnv *env, gconstpointer data)
{
  guint16 port;
  g_autofree gchar *sock = sl_test_path (env, "log.sock");
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  g_strlcpy (addr.sun_path, sock, sizeof addr.sun_path);
  gint owner = socket (AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (owner < 0 || bind (owner, (struct sockaddr *) &addr, sizeof addr) < 0)
    {
      g_test_fail_printf ("cannot bind %s", sock);
      if (owner >= 0)
        close (owner);
      return;
    }
  gint busy = -1;
  g_autofree gchar *err = NULL;
  gint status = -1;
  if (write_two_sources (env, &port) && (busy = take_port (port)) >= 0)
    status = run_second (env, env->pidfile, env->control, &err);
  if (busy >= 0)
    close (busy);
  g_assert_cmpint (status, ==, 1);
  g_autofree gchar *expected = g_strdup_printf ("%s is the socket of a running process; not replacing it", sock);
  g_assert_nonnull (err ? strstr (err, expected) : NULL);
  g_assert_false (g_file_test (env->pidfile, G_FILE_TEST_EXISTS));

  gchar got[16] = "";
  if (sl_test_unix_send (sock, SOCK_DGRAM, "still mine"))
    g_assert_cmpint (recv (owner, got, sizeof got - 1, MSG_DONTWAIT), ==, strlen ("still mine"));
  g_assert_cmpstr (got, ==, "still mine");
  close (owner);
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/instance/same-pidfile", test_same_pidfile);
  SL_TEST_ADD ("/instance/same-control-socket", test_same_control_socket);
  SL_TEST_ADD ("/instance/syntax-only", test_syntax_only);
  SL_TEST_ADD ("/instance/leftovers-of-a-dead-daemon", test_leftovers_of_a_dead_daemon);
  SL_TEST_ADD ("/instance/live-socket-kept", test_live_socket_kept);
  return g_test_run ();
}
