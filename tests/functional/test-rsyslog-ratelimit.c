/* SPDX-License-Identifier: GPL-2.0-or-later */
/* imuxsock's rate limits, run by rsyslogd 8.2302 and by sluiced
 * --config-format rsyslog on one configuration: child processes each send
 * a burst to every socket of both daemons (the system socket with
 * SysSock.RateLimit.*, one of $AddUnixListenSocket after
 * $IMUXSockRateLimit*, one input() with RateLimit.* and a severity), and
 * both must write the same lines: so many per PID, the rest dropped.
 * rsyslogd hands its own messages about it to syslog(3)
 * (processInternalMessages is off), so neither file holds one; sluiced
 * logs its own and counts the drops. And imudp's RateLimit.*: one window
 * for the socket, whoever sends, whatever the severity; imtcp's and
 * imptcp's: one window for the listening port, which its connections
 * share. */
#include "tests/functional/harness.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHILDREN 4
#define INFO_MESSAGES 10
#define CRIT_MESSAGES 2

static const gchar config[] =
  "module(load=\"imuxsock\" SysSock.Name=\"@DIR@/dev-log\" SysSock.RateLimit.Interval=\"60\"\n"
  "       SysSock.RateLimit.Burst=\"5\")\n"
  "$IMUXSockRateLimitInterval 60\n"
  "$IMUXSockRateLimitBurst 3\n"
  "$AddUnixListenSocket @DIR@/legacy\n"
  "input(type=\"imuxsock\" Socket=\"@DIR@/in\" RateLimit.Interval=\"60\" RateLimit.Burst=\"4\"\n"
  "      RateLimit.Severity=\"3\")\n"
  "input(type=\"imuxsock\" Socket=\"@DIR@/open\")\n"
  "template(name=\"t\" type=\"string\" string=\"%programname%|%procid%|%syslogseverity%|%msg%\\n\")\n"
  "*.* action(type=\"omfile\" file=\"@DIR@/out\" template=\"t\")\n";

static const struct
{
  const gchar *socket;
  guint per_child;   /* what each child gets written: the burst, and crit messages the severity lets by */
} sockets[] = {
  { "dev-log", 5 }, { "legacy", 3 }, { "in", 4 + CRIT_MESSAGES }, { "open", INFO_MESSAGES + CRIT_MESSAGES },
};

static void
send_to (gint fd, const gchar *dir, const gchar *socket, const gchar *text)
{
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  g_snprintf (addr.sun_path, sizeof addr.sun_path, "%s/%s", dir, socket);
  if (sendto (fd, text, strlen (text), 0, (struct sockaddr *) &addr, sizeof addr) < 0)
    _exit (1);
}

/* A child's burst to each socket of both daemons, the same PID in all:
 * info messages, then crit ones */
static void
child (const gchar *rs_dir, const gchar *sl_dir, guint n)
{
  gint fd = socket (AF_UNIX, SOCK_DGRAM, 0);
  for (guint s = 0; s < G_N_ELEMENTS (sockets); s++)
    for (guint i = 0; i < INFO_MESSAGES + CRIT_MESSAGES; i++)
      {
        gchar text[200];
        g_snprintf (text, sizeof text, "<%d>ratetest[%d]: child %u to %s, message %u",
                    i < INFO_MESSAGES ? 14 : 10, (gint) getpid (), n, sockets[s].socket, i);
        send_to (fd, rs_dir, sockets[s].socket, text);
        send_to (fd, sl_dir, sockets[s].socket, text);
      }
  _exit (0);
}

static gchar *
filled (const gchar *dir)
{
  g_autoptr (GString) text = g_string_new (config);
  g_string_replace (text, "@DIR@", dir, 0);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
test_per_pid (SlTestEnv *env, gconstpointer data)
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
  g_assert_true (sl_test_daemon_start_with_args (env, "--config-format", "rsyslog", "-e", "-v", NULL));
  for (guint s = 0; s < G_N_ELEMENTS (sockets); s++)
    {
      g_autofree gchar *rs_sock = g_build_filename (rs_dir, sockets[s].socket, NULL);
      g_autofree gchar *sl_sock = g_build_filename (env->dir, sockets[s].socket, NULL);
      g_assert_true (sl_test_wait_socket (env, rs_sock));
      g_assert_true (sl_test_wait_socket (env, sl_sock));
    }

  pid_t pids[CHILDREN];
  for (guint n = 0; n < CHILDREN; n++)
    {
      pids[n] = fork ();
      g_assert_cmpint (pids[n], >=, 0);
      if (pids[n] == 0)
        child (rs_dir, env->dir, n);
    }
  for (guint n = 0; n < CHILDREN; n++)
    {
      gint status;
      g_assert_cmpint (waitpid (pids[n], &status, 0), ==, pids[n]);
      g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
    }

  guint expected = 0;
  for (guint s = 0; s < G_N_ELEMENTS (sockets); s++)
    expected += CHILDREN * sockets[s].per_child;
  g_autofree gchar *rs_out = g_build_filename (rs_dir, "out", NULL);
  g_autofree gchar *sl_out = g_build_filename (env->dir, "out", NULL);
  gboolean rs_done = sl_test_wait_lines (env, rs_out, expected);
  gboolean sl_done = sl_test_wait_lines (env, sl_out, expected);
  /* what was dropped stays dropped: nothing comes after the wait */
  gint64 dropped = (gint64) CHILDREN * G_N_ELEMENTS (sockets) * (INFO_MESSAGES + CRIT_MESSAGES) - expected;
  g_assert_true (sl_test_wait_stat (env, "source", NULL, "rate_limited", dropped));
  for (guint n = 0; n < CHILDREN; n++)
    {
      g_autofree gchar *told = g_strdup_printf ("begin to drop messages from pid %d due to rate-limiting",
                                                (gint) pids[n]);
      g_assert_true (sl_test_wait_stderr (env, told));
    }
  sl_test_daemon_stop (env, SIGTERM);
  kill (rs, SIGTERM);
  g_assert_cmpint (sl_test_child_wait (rs, 10 * G_USEC_PER_SEC), ==, 0);
  g_autofree gchar *rs_err = g_build_filename (rs_dir, "rsyslogd.stderr", NULL);
  g_autofree gchar *rs_stderr = sl_test_read_file (rs_err);
  g_test_message ("rsyslogd: %s", rs_stderr ? rs_stderr : "");
  g_assert_true (rs_done);
  g_assert_true (sl_done);
  g_assert_cmpuint (sl_test_count_lines (rs_out), ==, expected);
  g_assert_cmpuint (sl_test_count_lines (sl_out), ==, expected);

  g_autofree gchar *rs_lines = sl_test_read_sorted_lines (rs_out);
  g_autofree gchar *sl_lines = sl_test_read_sorted_lines (sl_out);
  g_assert_cmpstr (sl_lines, ==, rs_lines);
  for (guint n = 0; n < CHILDREN; n++)
    {
      g_autofree gchar *pid = g_strdup_printf ("|%d|", (gint) pids[n]);
      guint count = 0;
      for (const gchar *p = sl_lines; (p = strstr (p, pid)); p++)
        count++;
      g_assert_cmpuint (count, ==, expected / CHILDREN);
    }
}

#define UDP_MESSAGES 12
#define UDP_BURST 5

static const gchar udp_config[] =
  "module(load=\"imudp\")\n"
  "input(type=\"imudp\" address=\"127.0.0.1\" port=\"@PORT@\" RateLimit.Interval=\"60\"\n"
  "      RateLimit.Burst=\"5\")\n"
  "template(name=\"t\" type=\"string\" string=\"%syslogseverity%|%msg%\\n\")\n"
  "*.* action(type=\"omfile\" file=\"@DIR@/out\" template=\"t\")\n";

static gchar *
udp_filled (const gchar *dir, guint16 port)
{
  g_autoptr (GString) text = g_string_new (udp_config);
  g_autofree gchar *port_text = g_strdup_printf ("%u", port);
  g_string_replace (text, "@DIR@", dir, 0);
  g_string_replace (text, "@PORT@", port_text, 0);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* Whether a UDP socket is bound to port (/proc/net/udp): a datagram sent
 * before is lost */
static gboolean
udp_bound (guint16 port)
{
  g_autofree gchar *table = sl_test_read_file ("/proc/net/udp");
  g_autofree gchar *needle = g_strdup_printf (":%04X ", port);
  return table && strstr (table, needle);
}

static gboolean
wait_udp (guint16 port)
{
  for (guint i = 0; i < 200 && !udp_bound (port); i++)
    g_usleep (G_USEC_PER_SEC / 20);
  return udp_bound (port);
}

static void
test_udp (SlTestEnv *env, gconstpointer data)
{
  (void) data;
  g_autofree gchar *root = sl_test_rsyslog_root_or_skip ();
  if (!root)
    return;
  guint16 rs_port = sl_test_free_port (SOCK_DGRAM);
  guint16 sl_port = sl_test_free_port (SOCK_DGRAM);
  g_assert_cmpuint (rs_port, !=, sl_port);
  g_autofree gchar *rs_dir = sl_test_path (env, "rsyslogd");
  g_assert_cmpint (g_mkdir_with_parents (rs_dir, 0700), ==, 0);
  g_autofree gchar *rs_text = udp_filled (rs_dir, rs_port);
  g_autofree gchar *rs_conf = g_build_filename (rs_dir, "rsyslog.conf", NULL);
  g_assert_true (g_file_set_contents (rs_conf, rs_text, -1, NULL));
  g_autofree gchar *sl_text = udp_filled (env->dir, sl_port);
  g_assert_true (sl_test_write_config (env, sl_text, NULL));

  GPid rs = sl_test_rsyslogd_start (root, rs_conf, rs_dir);
  g_assert_cmpint (rs, >, 0);
  g_assert_true (sl_test_daemon_start_with_args (env, "--config-format", "rsyslog", "-e", "-v", NULL));
  g_assert_true (wait_udp (rs_port));
  g_assert_true (wait_udp (sl_port));
  for (guint i = 0; i < UDP_MESSAGES; i++)
    {
      /* the crit ones last: imudp limits every severity */
      g_autofree gchar *text = g_strdup_printf ("<%d>udptest: message %u", i < UDP_MESSAGES / 2 ? 14 : 10, i);
      g_assert_true (sl_test_udp_send (rs_port, text));
      g_assert_true (sl_test_udp_send (sl_port, text));
    }
  g_autofree gchar *rs_out = g_build_filename (rs_dir, "out", NULL);
  g_autofree gchar *sl_out = g_build_filename (env->dir, "out", NULL);
  gboolean rs_done = sl_test_wait_lines (env, rs_out, UDP_BURST);
  gboolean sl_done = sl_test_wait_lines (env, sl_out, UDP_BURST);
  g_assert_true (sl_test_wait_stat (env, "source", NULL, "rate_limited", UDP_MESSAGES - UDP_BURST));
  g_assert_true (sl_test_wait_stderr (env, "begin to drop messages due to rate-limiting"));
  sl_test_daemon_stop (env, SIGTERM);
  kill (rs, SIGTERM);
  g_assert_cmpint (sl_test_child_wait (rs, 10 * G_USEC_PER_SEC), ==, 0);
  g_assert_true (rs_done);
  g_assert_true (sl_done);
  g_autofree gchar *rs_lines = sl_test_read_file (rs_out);
  g_autofree gchar *sl_lines = sl_test_read_file (sl_out);
  g_assert_cmpuint (sl_test_count_lines (rs_out), ==, UDP_BURST);
  g_assert_cmpstr (sl_lines, ==, rs_lines);
}

static const gchar tcp_config[] =
  "module(load=\"imtcp\")\n"
  "module(load=\"imptcp\")\n"
  "input(type=\"imtcp\" address=\"127.0.0.1\" port=\"@TCP@\" RateLimit.Interval=\"60\" RateLimit.Burst=\"5\")\n"
  "input(type=\"imptcp\" address=\"127.0.0.1\" port=\"@PTCP@\" RateLimit.Interval=\"60\"\n"
  "      RateLimit.Burst=\"2\")\n"
  "template(name=\"t\" type=\"string\" string=\"%syslogseverity%|%msg%\\n\")\n"
  "*.* action(type=\"omfile\" file=\"@DIR@/out\" template=\"t\")\n";

typedef struct
{
  const gchar *dir;
  guint16 tcp, ptcp;
  gchar *out;
} TcpPeer;

static void
tcp_peer_init (TcpPeer *p, const gchar *dir)
{
  p->dir = dir;
  p->tcp = sl_test_free_port (SOCK_STREAM);
  p->ptcp = sl_test_free_port (SOCK_STREAM);
  p->out = g_build_filename (dir, "out", NULL);
}

static gchar *
tcp_filled (const TcpPeer *p)
{
  g_autoptr (GString) text = g_string_new (tcp_config);
  g_autofree gchar *tcp = g_strdup_printf ("%u", p->tcp), *ptcp = g_strdup_printf ("%u", p->ptcp);
  g_string_replace (text, "@DIR@", p->dir, 0);
  g_string_replace (text, "@TCP@", tcp, 0);
  g_string_replace (text, "@PTCP@", ptcp, 0);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* Each connection's lines to both daemons, then until both wrote lines
 * in all: what a later connection sends is then limited in the window
 * the earlier ones filled, in the same order in both. */
static gboolean
tcp_send_both (SlTestEnv *env, TcpPeer *peers, gboolean imptcp, const gchar *text, guint lines)
{
  for (guint i = 0; i < 2; i++)
    if (!sl_test_tcp_send (imptcp ? peers[i].ptcp : peers[i].tcp, text))
      return FALSE;
  return sl_test_wait_lines (env, peers[0].out, lines) && sl_test_wait_lines (env, peers[1].out, lines);
}

static void
test_tcp (SlTestEnv *env, gconstpointer data)
{
  (void) data;
  g_autofree gchar *root = sl_test_rsyslog_root_or_skip ();
  if (!root)
    return;
  g_autofree gchar *rs_dir = sl_test_path (env, "rsyslogd");
  g_assert_cmpint (g_mkdir_with_parents (rs_dir, 0700), ==, 0);
  TcpPeer peers[2];
  tcp_peer_init (&peers[0], rs_dir);
  tcp_peer_init (&peers[1], env->dir);
  g_autofree gchar *rs_text = tcp_filled (&peers[0]);
  g_autofree gchar *rs_conf = g_build_filename (rs_dir, "rsyslog.conf", NULL);
  g_assert_true (g_file_set_contents (rs_conf, rs_text, -1, NULL));
  g_autofree gchar *sl_text = tcp_filled (&peers[1]);
  g_assert_true (sl_test_write_config (env, sl_text, NULL));

  GPid rs = sl_test_rsyslogd_start (root, rs_conf, rs_dir);
  g_assert_cmpint (rs, >, 0);
  g_assert_true (sl_test_daemon_start_with_args (env, "--config-format", "rsyslog", "-e", "-v", NULL));
  for (guint i = 0; i < 2; i++)
    g_assert_true (sl_test_wait_tcp (env, peers[i].tcp) && sl_test_wait_tcp (env, peers[i].ptcp));
  /* imtcp: 3 lines, then 6 more on another connection, 2 of them in
   * the burst of 5; crit ones too, as every severity is limited */
  gboolean sent = tcp_send_both (env, peers, FALSE, "<14>tcptest: a1\n<14>tcptest: a2\n<10>tcptest: a3\n", 3)
                  && tcp_send_both (env, peers, FALSE, "<14>tcptest: b1\n<10>tcptest: b2\n<10>tcptest: b3\n"
                                    "<14>tcptest: b4\n<14>tcptest: b5\n<10>tcptest: b6\n", 5)
                  /* imptcp: its own window of 2 */
                  && tcp_send_both (env, peers, TRUE, "<14>tcptest: c1\n", 6)
                  && tcp_send_both (env, peers, TRUE, "<14>tcptest: d1\n<14>tcptest: d2\n<14>tcptest: d3\n", 7);
  g_assert_true (sent);
  g_assert_true (sl_test_wait_stat (env, "source", NULL, "rate_limited", 4 + 2));
  g_assert_true (sl_test_wait_stderr (env, "begin to drop messages due to rate-limiting"));
  sl_test_daemon_stop (env, SIGTERM);
  kill (rs, SIGTERM);
  g_assert_cmpint (sl_test_child_wait (rs, 10 * G_USEC_PER_SEC), ==, 0);
  g_autofree gchar *rs_lines = sl_test_read_file (peers[0].out);
  g_autofree gchar *sl_lines = sl_test_read_file (peers[1].out);
  g_assert_cmpstr (rs_lines, ==, "6| a1\n6| a2\n2| a3\n6| b1\n2| b2\n6| c1\n6| d1\n");
  g_assert_cmpstr (sl_lines, ==, rs_lines);
  for (guint i = 0; i < 2; i++)
    g_free (peers[i].out);
}

/* Where the limit cannot be had or rsyslogd takes no such value */
static void
test_refused (SlTestEnv *env, gconstpointer data)
{
  static const struct
  {
    const gchar *config, *needle;
  } cases[] = {
    { "module(load=\"imtcp\")\ninput(type=\"imtcp\" port=\"5140\" RateLimit.Interval=\"5\" RateLimit.Burst=\"0\")\n",
      "sluice.conf:2:55: rsyslog's imtcp needs a burst from 1" },
    { "module(load=\"imrelp\")\ninput(type=\"imrelp\" port=\"5140\" RateLimit.Interval=\"5\")\n",
      "sluice.conf:2:33: the parameter 'ratelimit.interval' of rsyslog's input imrelp is not supported" },
    { "module(load=\"imudp\")\ninput(type=\"imudp\" port=\"5140\" RateLimit.Interval=\"5\" RateLimit.Burst=\"0\")\n",
      "sluice.conf:2:55: rsyslog's imudp needs a burst from 1" },
    { "input(type=\"imuxsock\" Socket=\"/tmp/x\" RateLimit.Interval=\"5\" RateLimit.Burst=\"0\")\n",
      "sluice.conf:1:62: rsyslog's imuxsock needs a burst from 1" },
    { "input(type=\"imuxsock\" Socket=\"/tmp/x\" RateLimit.Interval=\"five\")\n",
      "sluice.conf:1:39: rsyslog's imuxsock takes a number for ratelimit.interval, not 'five'" },
    { "module(load=\"imklog\" RateLimitInterval=\"5\")\n",
      "sluice.conf:1:22: the parameter 'RateLimitInterval' of rsyslog's module imklog is not supported" },
    { "module(load=\"imklog\" ratelimit.interval=\"0\")\n",
      "sluice.conf:1:22: the parameter 'ratelimit.interval' of rsyslog's module imklog is not supported" },
    { "module(load=\"imuxsock\" SysSock.Use=\"on\")\n$SystemLogRateLimitInterval 5\n",
      "sluice.conf:2:1: $SystemLogRateLimitInterval after module(load=\"imuxsock\") is refused by rsyslogd" },
  };
  (void) data;
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree gchar *err = NULL;
      g_assert_true (sl_test_write_config (env, cases[i].config, NULL));
      g_assert_cmpint (sl_test_run_built ("daemon/sluiced", NULL, &err, "-s", "--config-format", "rsyslog", "-f",
                                          env->config, NULL), !=, 0);
      g_test_message ("%s", err);
      g_assert_nonnull (strstr (err, cases[i].needle));
    }
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/rsyslog-ratelimit/per-pid", test_per_pid);
  SL_TEST_ADD ("/rsyslog-ratelimit/udp", test_udp);
  SL_TEST_ADD ("/rsyslog-ratelimit/tcp", test_tcp);
  SL_TEST_ADD ("/rsyslog-ratelimit/refused", test_refused);
  return g_test_run ();
}
