/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sluiced under systemd: sockets passed by socket activation, run through
 * systemd's own systemd-socket-activate, and the sd_notify messages read
 * from a NOTIFY_SOCKET of the test's own. */
#include "tests/functional/harness.h"

#include <arpa/inet.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <netinet/in.h>
#include <sys/un.h>
#include <unistd.h>

static gboolean
have_socket_activate (void)
{
  g_autofree gchar *tool = g_find_program_in_path ("systemd-socket-activate");
  if (!tool)
    g_test_skip ("systemd-socket-activate (Debian's systemd package) is not installed");
  return tool != NULL;
}

static const gchar tcp_config[] =
  "@version: 4.0\n"
  "source s_tcp { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_out { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_tcp); destination(d_out); };\n";

/* systemd-socket-activate listens, starts sluiced when the first
 * connection comes, and passes the listening sockets: the one the
 * configuration names is used (a bind of its own would fail, the port is
 * taken), the other one is closed. A reload gets the same socket again. */
static void
test_tcp (SlTestEnv *env, gconstpointer data)
{
  if (!have_socket_activate ())
    return;
  guint16 port = sl_test_free_port (SOCK_STREAM);
  guint16 unused = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_text = g_strdup_printf ("%u", port);
  g_autofree gchar *listen = g_strdup_printf ("--listen=127.0.0.1:%u", port);
  g_autofree gchar *listen_unused = g_strdup_printf ("--listen=127.0.0.1:%u", unused);
  g_autofree gchar *out = sl_test_path (env, "out.log");
  const gchar *wrapper[] = { SL_TEST_SOCKET_ACTIVATE, listen, listen_unused, "--fdname=syslog-tcp:unused", NULL };
  if (!sl_test_write_config (env, tcp_config, "PORT", port_text, NULL) || !sl_test_daemon_spawn_wrapped (env, wrapper)
      || !sl_test_wait_tcp (env, port) || !sl_test_tcp_send (port, "<13>Jan  2 03:04:05 h app: first\n")
      || !sl_test_daemon_wait_ready (env) || !sl_test_wait_lines (env, out, 1))
    return;
  g_autofree gchar *listening = g_strdup_printf ("tcp() listening on 127.0.0.1 port %u (tcp), on the socket systemd passed",
                                                 port);
  g_autofree gchar *closed = g_strdup_printf ("no source of the configuration listens on 127.0.0.1 port %u (unused, passed by systemd); closing it",
                                              unused);
  if (!sl_test_wait_stderr (env, listening) || !sl_test_wait_stderr (env, closed))
    return;
  gint fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons (unused), .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  g_assert_cmpint (connect (fd, (struct sockaddr *) &addr, sizeof addr), ==, -1);
  g_assert_cmpint (errno, ==, ECONNREFUSED);
  close (fd);

  g_autofree gchar *answer = sl_test_control (env, "RELOAD");
  g_assert_nonnull (answer);
  g_assert_true (g_str_has_prefix (answer, "OK"));
  if (!sl_test_tcp_send (port, "<13>Jan  2 03:04:05 h app: after the reload\n") || !sl_test_wait_lines (env, out, 2))
    return;
  g_autofree gchar *text = sl_test_read_file (out);
  g_assert_cmpstr (text, ==, "first\nafter the reload\n");
  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
}

static const gchar udp_config[] =
  "@version: 4.0\n"
  "source s_udp { udp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_out { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_udp); destination(d_out); };\n";

/* The datagram that made systemd start sluiced waits in the passed socket
 * and is read. */
static void
test_udp (SlTestEnv *env, gconstpointer data)
{
  if (!have_socket_activate ())
    return;
  guint16 port = sl_test_free_port (SOCK_DGRAM);
  g_autofree gchar *port_text = g_strdup_printf ("%u", port);
  g_autofree gchar *listen = g_strdup_printf ("--listen=127.0.0.1:%u", port);
  g_autofree gchar *out = sl_test_path (env, "out.log");
  const gchar *wrapper[] = { SL_TEST_SOCKET_ACTIVATE, "--datagram", listen, "--fdname=syslog-udp", NULL };
  if (!sl_test_write_config (env, udp_config, "PORT", port_text, NULL) || !sl_test_daemon_spawn_wrapped (env, wrapper)
      || !sl_test_wait_stderr (env, "Listening on"))
    return;
  if (!sl_test_udp_send (port, "<13>Jan  2 03:04:05 h app: woke it up") || !sl_test_daemon_wait_ready (env)
      || !sl_test_udp_send (port, "<13>Jan  2 03:04:05 h app: second") || !sl_test_wait_lines (env, out, 2))
    return;
  g_autofree gchar *listening = g_strdup_printf ("udp() listening on 127.0.0.1 port %u (udp), on the socket systemd passed",
                                                 port);
  sl_test_wait_stderr (env, listening);
  g_autofree gchar *text = sl_test_read_file (out);
  g_assert_cmpstr (text, ==, "woke it up\nsecond\n");
}

static const gchar unix_config[] =
  "@version: 4.0\n"
  "source s_local { unix-dgram(\"@DIR@/syslog\"); };\n"
  "destination d_out { file(\"@DIR@/out.log\" template(\"${PROGRAM} ${MESSAGE}\\n\")); };\n"
  "log { source(s_local); destination(d_out); };\n";

/* As syslog.socket passes /run/systemd/journal/syslog: the socket file is
 * systemd's, so sluiced neither replaces it nor removes it at exit. */
static void
test_unix (SlTestEnv *env, gconstpointer data)
{
  if (!have_socket_activate ())
    return;
  g_autofree gchar *path = sl_test_path (env, "syslog");
  g_autofree gchar *listen = g_strdup_printf ("--listen=%s", path);
  g_autofree gchar *out = sl_test_path (env, "out.log");
  const gchar *wrapper[] = { SL_TEST_SOCKET_ACTIVATE, "--datagram", listen, "--fdname=syslog.socket", NULL };
  if (!sl_test_write_config (env, unix_config, NULL) || !sl_test_daemon_spawn_wrapped (env, wrapper)
      || !sl_test_wait_socket (env, path))
    return;
  struct stat before;
  g_assert_cmpint (stat (path, &before), ==, 0);
  if (!sl_test_unix_send (path, SOCK_DGRAM, "<13>Jan  2 03:04:05 h app: local") || !sl_test_daemon_wait_ready (env)
      || !sl_test_wait_lines (env, out, 1))
    return;
  g_autofree gchar *listening = g_strdup_printf ("unix-dgram() listening on %s, the socket systemd passed", path);
  sl_test_wait_stderr (env, listening);
  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
  struct stat after;
  g_assert_cmpint (stat (path, &after), ==, 0);
  g_assert_cmpuint (after.st_ino, ==, before.st_ino);
  g_autofree gchar *text = sl_test_read_file (out);
  g_assert_cmpstr (text, ==, "app local\n");
}

/* The next notification that contains needle, skipping the others
 * (watchdog pings come in between); NULL (and the test failed) when none
 * came within the deadline. */
static gchar *
wait_notification (gint fd, const gchar *needle)
{
  gint64 deadline = g_get_monotonic_time () + SL_TEST_DEADLINE_MS * 1000;
  while (g_get_monotonic_time () < deadline)
    {
      gchar buf[4096];
      gssize n = recv (fd, buf, sizeof buf - 1, 0);
      if (n < 0 && errno != EAGAIN && errno != EINTR)
        break;
      if (n < 0)
        continue;
      buf[n] = '\0';
      if (strstr (buf, needle))
        return g_strdup (buf);
    }
  g_test_fail_printf ("no notification with '%s' came", needle);
  return NULL;
}

static gint
notify_socket (const gchar *path)
{
  gint fd = socket (AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  g_strlcpy (addr.sun_path, path, sizeof addr.sun_path);
  g_assert_cmpint (bind (fd, (struct sockaddr *) &addr, sizeof addr), ==, 0);
  struct timeval tv = { .tv_sec = 0, .tv_usec = 200000 };
  setsockopt (fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  return fd;
}

/* Type=notify: READY=1 with a status line of counters once the sources
 * run, RELOADING=1 and READY=1 around a reload (the status line then
 * counts what passed), watchdog pings when WATCHDOG_USEC asks for them,
 * STOPPING=1 at the end. */
static void
test_notify (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_text = g_strdup_printf ("%u", port);
  g_autofree gchar *path = sl_test_path (env, "notify.sock");
  g_autofree gchar *out = sl_test_path (env, "out.log");
  gint fd = notify_socket (path);
  g_setenv ("NOTIFY_SOCKET", path, TRUE);
  g_setenv ("WATCHDOG_USEC", "200000", TRUE);
  gboolean started = sl_test_write_config (env, tcp_config, "PORT", port_text, NULL) && sl_test_daemon_start (env);
  g_unsetenv ("NOTIFY_SOCKET");
  g_unsetenv ("WATCHDOG_USEC");
  g_autofree gchar *ready = started ? wait_notification (fd, "READY=1") : NULL;
  if (!ready)
    {
      close (fd);
      return;
    }
  g_assert_cmpstr (ready, ==, "READY=1\nSTATUS=received 0, written 0, dropped 0");
  g_autofree gchar *ping = wait_notification (fd, "WATCHDOG=1");
  g_assert_cmpstr (ping, ==, "WATCHDOG=1");
  if (sl_test_tcp_send (port, "<13>Jan  2 03:04:05 h app: counted\n") && sl_test_wait_lines (env, out, 1))
    {
      g_autofree gchar *answer = sl_test_control (env, "RELOAD");
      g_autofree gchar *reloading = wait_notification (fd, "RELOADING=1");
      g_assert_true (g_str_has_prefix (reloading, "RELOADING=1\nMONOTONIC_USEC="));
      g_autofree gchar *again = wait_notification (fd, "READY=1");
      g_assert_cmpstr (again, ==, "READY=1\nSTATUS=received 1, written 1, dropped 0");
      g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
      g_autofree gchar *stopping = wait_notification (fd, "STOPPING=1");
      g_assert_cmpstr (stopping, ==, "STOPPING=1");
    }
  close (fd);
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/systemd/activation/tcp", test_tcp);
  SL_TEST_ADD ("/systemd/activation/udp", test_udp);
  SL_TEST_ADD ("/systemd/activation/unix", test_unix);
  SL_TEST_ADD ("/systemd/notify", test_notify);
  return g_test_run ();
}
