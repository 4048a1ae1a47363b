/* SPDX-License-Identifier: GPL-2.0-or-later */
/* relp() as a source, spoken to over a raw socket by the test: a frame is
 * answered only once the path's flow-controlled destination wrote it;
 * broken frames, idle sessions and sessions over max-connections-per-ip()
 * are closed and counted. */
#include "tests/functional/harness.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static const gchar offers[] = "relp_version=0\nrelp_software=test\ncommands=syslog";

/* Reads until text holds needle or the deadline passes. */
static gboolean
read_until (gint fd, GString *text, const gchar *needle)
{
  gint64 end = g_get_monotonic_time () + SL_TEST_DEADLINE_MS * 1000;
  while (!strstr (text->str, needle))
    {
      gint left = (gint) ((end - g_get_monotonic_time ()) / 1000);
      struct pollfd p = { .fd = fd, .events = POLLIN };
      if (left <= 0 || poll (&p, 1, left) <= 0)
        {
          g_test_fail_printf ("no '%s' in what the source sent: '%s'", needle, text->str);
          return FALSE;
        }
      gchar buf[4096];
      gssize n = read (fd, buf, sizeof buf);
      if (n <= 0)
        {
          g_test_fail_printf ("the source closed before '%s': '%s'", needle, text->str);
          return FALSE;
        }
      g_string_append_len (text, buf, n);
    }
  return TRUE;
}

/* A session opened on the source. */
static gint
open_session (guint16 port)
{
  gint fd = sl_test_tcp_connect (port);
  g_autoptr (GString) answer = g_string_new (NULL);
  g_autofree gchar *open_frame = g_strdup_printf ("1 open %zu %s\n", strlen (offers), offers);
  if (fd < 0 || !sl_test_send_all (fd, open_frame, strlen (open_frame)) || !read_until (fd, answer, "commands=syslog"))
    {
      if (fd >= 0)
        close (fd);
      return -1;
    }
  g_assert_true (g_str_has_prefix (answer->str, "1 rsp "));
  return fd;
}

/* Whether the source closed fd (a read that ends), waiting for it. */
static gboolean
closed_by_peer (gint fd)
{
  struct pollfd p = { .fd = fd, .events = POLLIN };
  gchar buf[256];
  while (poll (&p, 1, SL_TEST_DEADLINE_MS) == 1)
    if (read (fd, buf, sizeof buf) <= 0)
      return TRUE;
  return FALSE;
}

/* Under flow control a frame is answered once tcp() delivered it: not
 * while its remote does not even listen, at once when it does. */
static void
test_answer_waits_for_delivery (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_STREAM), remote = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *p = g_strdup_printf ("%u", port), *r = g_strdup_printf ("%u", remote);
  if (!sl_test_write_config (env,
                             "source s_relp { relp(ip(\"127.0.0.1\") port(@P@)); };\n"
                             "destination d_tcp { tcp(\"127.0.0.1\" port(@R@) time-reopen(1)); };\n"
                             "log { source(s_relp); destination(d_tcp); flags(flow-control); };\n",
                             "P", p, "R", r, NULL)
      || !sl_test_daemon_start (env))
    return;
  gint fd = open_session (port);
  const gchar *msg = "<13>Dec  1 h t: safe?";
  g_autofree gchar *frame = g_strdup_printf ("2 syslog %zu %s\n", strlen (msg), msg);
  if (fd < 0 || !sl_test_send_all (fd, frame, strlen (frame))
      || !sl_test_wait_stat (env, "source", "s_relp", "received", 1))
    return;
  /* the message is in the paths, the remote is not there: no answer */
  gchar byte;
  g_assert_cmpint (recv (fd, &byte, 1, MSG_DONTWAIT), ==, -1);
  g_assert_cmpint (errno, ==, EAGAIN);
  gint listener = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons (remote), .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  setsockopt (listener, SOL_SOCKET, SO_REUSEADDR, &(gint) { 1 }, sizeof (gint));
  g_assert_cmpint (bind (listener, (struct sockaddr *) &sa, sizeof sa), ==, 0);
  g_assert_cmpint (listen (listener, 4), ==, 0);
  g_autoptr (GString) answer = g_string_new (NULL);
  g_assert_true (read_until (fd, answer, "2 rsp 6 200 OK\n"));
  /* counted once the answer went out: it may be read first */
  g_assert_true (sl_test_wait_stat (env, "source", "s_relp", "acknowledged", 1));
  close (fd);
  close (listener);
}

/* A frame that is not RELP ends the session: counted, and nothing of it
 * becomes a message. */
static void
test_malformed_frame (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *p = g_strdup_printf ("%u", port);
  if (!sl_test_write_config (env,
                             "source s_relp { relp(ip(\"127.0.0.1\") port(@P@)); };\n"
                             "destination d_file { file(\"@DIR@/out.log\"); };\n"
                             "log { source(s_relp); destination(d_file); };\n",
                             "P", p, NULL)
      || !sl_test_daemon_start (env))
    return;
  gint fd = open_session (port);
  const gchar garbage[] = "<13>Dec  1 h t: a plain syslog line\n";
  if (fd < 0 || !sl_test_send_all (fd, garbage, strlen (garbage)))
    return;
  g_assert_true (closed_by_peer (fd));
  close (fd);
  g_assert_true (sl_test_wait_stat (env, "source", "s_relp", "errors", 1));
  g_assert_cmpint (sl_test_stat (env, "source", "s_relp", "received"), ==, 0);
}

/* Under systemd's socket activation relp() takes the socket passed for
 * its address (its own bind would fail: the port is taken), and the
 * session that woke sluiced is served. */
static void
test_socket_activation (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *tool = g_find_program_in_path ("systemd-socket-activate");
  if (!tool)
    {
      g_test_skip ("systemd-socket-activate (Debian's systemd package) is not installed");
      return;
    }
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *p = g_strdup_printf ("%u", port);
  g_autofree gchar *listen = g_strdup_printf ("--listen=127.0.0.1:%u", port);
  g_autofree gchar *out = sl_test_path (env, "out.log");
  const gchar *wrapper[] = { SL_TEST_SOCKET_ACTIVATE, listen, "--fdname=relp", NULL };
  if (!sl_test_write_config (env,
                             "source s_relp { relp(ip(\"127.0.0.1\") port(@P@)); };\n"
                             "destination d_file { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
                             "log { source(s_relp); destination(d_file); };\n",
                             "P", p, NULL)
      || !sl_test_daemon_spawn_wrapped (env, wrapper) || !sl_test_wait_tcp (env, port))
    return;
  gint fd = open_session (port);
  const gchar *msg = "<13>Dec  1 03:04:05 h t: woke it up";
  g_autofree gchar *frame = g_strdup_printf ("2 syslog %zu %s\n", strlen (msg), msg);
  g_autoptr (GString) answer = g_string_new (NULL);
  if (fd < 0 || !sl_test_daemon_wait_ready (env) || !sl_test_send_all (fd, frame, strlen (frame))
      || !read_until (fd, answer, "2 rsp 6 200 OK\n") || !sl_test_wait_lines (env, out, 1))
    return;
  close (fd);
  g_autofree gchar *text = sl_test_read_file (out);
  g_assert_cmpstr (text, ==, "woke it up\n");
}

static gboolean
start_limited (SlTestEnv *env, const gchar *limit, guint16 *port)
{
  *port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *p = g_strdup_printf ("%u", *port);
  return sl_test_write_config (env,
                               "source s_relp { relp(ip(\"127.0.0.1\") port(@P@) @LIMIT@); };\n"
                               "destination d_file { file(\"@DIR@/out.log\"); };\n"
                               "log { source(s_relp); destination(d_file); };\n",
                               "P", p, "LIMIT", limit, NULL)
         && sl_test_daemon_start (env);
}

/* max-connections-per-ip(1) refuses a second session from 127.0.0.1. */
static void
test_per_ip_limit (SlTestEnv *env, gconstpointer data)
{
  guint16 port;
  gint first, second;
  if (!start_limited (env, "max-connections-per-ip(1)", &port) || (first = open_session (port)) < 0
      || (second = sl_test_tcp_connect (port)) < 0)
    return;
  g_assert_true (closed_by_peer (second));
  close (second);
  g_assert_true (sl_test_wait_stat (env, "source", "s_relp", "rejected", 1));
  close (first);
}

/* idle-timeout() closes a session that sends no frame. */
static void
test_idle_timeout (SlTestEnv *env, gconstpointer data)
{
  guint16 port;
  gint fd;
  if (!start_limited (env, "idle-timeout(1)", &port) || (fd = open_session (port)) < 0)
    return;
  g_assert_true (closed_by_peer (fd));
  close (fd);
  g_assert_true (sl_test_wait_stat (env, "source", "s_relp", "idle_closed", 1));
}

/* Sessions that fill max-connections() and never say a word keep no one
 * out: the next client's session takes the oldest silent one's place and
 * is served; a silent one alone is closed at first-message-timeout(). */
static void
test_silent_sessions_make_room (SlTestEnv *env, gconstpointer data)
{
  guint16 port;
  gint silent[4];
  if (!start_limited (env, "max-connections(4) first-message-timeout(2)", &port))
    return;
  for (guint i = 0; i < G_N_ELEMENTS (silent); i++)
    g_assert_cmpint ((silent[i] = sl_test_tcp_connect (port)), >=, 0);
  gint fd = open_session (port);
  const gchar *msg = "<13>Dec  1 03:04:05 h t: let in";
  g_autofree gchar *frame = g_strdup_printf ("2 syslog %zu %s\n", strlen (msg), msg);
  g_autoptr (GString) answer = g_string_new (NULL);
  g_assert_cmpint (fd, >=, 0);
  g_assert_true (sl_test_send_all (fd, frame, strlen (frame)) && read_until (fd, answer, "2 rsp 6 200 OK\n"));
  for (guint i = 0; i < G_N_ELEMENTS (silent); i++)
    {
      g_assert_true (closed_by_peer (silent[i]));
      close (silent[i]);
    }
  /* on a machine slow enough for first-message-timeout() to close the
   * oldest before the newcomer came, there was nothing to evict */
  gint64 evicted = 0;
  for (guint i = 0; i < SL_TEST_DEADLINE_MS / 50; i++)
    {
      evicted = sl_test_stat (env, "source", "s_relp", "evicted_no_message");
      if (evicted + sl_test_stat (env, "source", "s_relp", "no_message_closed") >= (gint64) G_N_ELEMENTS (silent))
        break;
      g_usleep (50 * 1000);
    }
  g_assert_cmpint (evicted, <=, 1);
  g_assert_cmpint (evicted + sl_test_stat (env, "source", "s_relp", "no_message_closed"), ==, G_N_ELEMENTS (silent));
  close (fd);
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/relp/source/answer-waits-for-delivery", test_answer_waits_for_delivery);
  SL_TEST_ADD ("/relp/source/malformed-frame", test_malformed_frame);
  SL_TEST_ADD ("/relp/source/per-ip-limit", test_per_ip_limit);
  SL_TEST_ADD ("/relp/source/idle-timeout", test_idle_timeout);
  SL_TEST_ADD ("/relp/source/socket-activation", test_socket_activation);
  SL_TEST_ADD ("/relp/source/silent-sessions-make-room", test_silent_sessions_make_room);
  return g_test_run ();
}
