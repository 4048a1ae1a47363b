/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Hostile peers against the default settings: connections that trickle
 * or say nothing cannot keep a sender out, a connection that brings no
 * message is closed in bounded time, one that went quiet makes room for
 * a newcomer, and thousands of unfinished long lines take no more memory
 * than the partial budget. */
#include "tests/functional/harness.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#define HEADER "<13>Dec  1 20:00:00 hostilehost app: "
#define ATTACKERS 1000
#define LEGIT_LINES 2000

static gchar *
port_text (guint16 port)
{
  return g_strdup_printf ("%u", port);
}

static gboolean
send_line (gint fd, const gchar *message)
{
  g_autofree gchar *line = g_strconcat (HEADER, message, "\n", NULL);
  return sl_test_send_all (fd, line, strlen (line));
}

/* Whether the daemon closed fd (end of stream or a reset) within the
 * deadline; what it sent before is read past. */
static gboolean
wait_closed_by_peer (gint fd)
{
  gint64 limit = g_get_monotonic_time () + SL_TEST_DEADLINE_MS * 1000;
  for (;;)
    {
      gint left_ms = (gint) ((limit - g_get_monotonic_time ()) / 1000);
      struct pollfd p = { fd, POLLIN, 0 };
      if (left_ms <= 0 || poll (&p, 1, left_ms) <= 0)
        return FALSE;
      gchar buf[256];
      gssize n = recv (fd, buf, sizeof buf, MSG_DONTWAIT);
      if (n == 0 || (n < 0 && errno == ECONNRESET))
        return TRUE;
    }
}

/* Waits until a source counter is at least value. */
/* A connection begun without waiting for the daemon to accept it: most
 * of the attackers wait in the backlog, or for their SYN to be taken. */
static gint
connect_nowait (guint16 port)
{
  gint fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons (port),
                              .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  if (fd >= 0 && (connect (fd, (struct sockaddr *) &addr, sizeof addr) == 0 || errno == EINPROGRESS))
    return fd;
  g_test_fail_printf ("cannot connect to 127.0.0.1:%u: %s", port, g_strerror (errno));
  if (fd >= 0)
    close (fd);
  return -1;
}

/* Every other attacker writes one byte of a line it never ends each
 * second; the rest say nothing. */
typedef struct
{
  gint *fds;
  guint n;
  GMutex lock;
  GCond stop_cond;
  gboolean stop;
  GThread *thread;
} Trickle;

static gpointer
trickle_thread (gpointer data)
{
  Trickle *t = data;
  static const gchar text[] = HEADER "never ends";
  gint64 next = g_get_monotonic_time ();
  for (guint tick = 0;; tick++)
    {
      for (guint i = 0; i < t->n; i += 2)
        if (t->fds[i] >= 0)
          send (t->fds[i], &text[tick % (sizeof text - 1)], 1, MSG_NOSIGNAL | MSG_DONTWAIT);
      next += G_USEC_PER_SEC;
      g_mutex_lock (&t->lock);
      while (!t->stop && g_cond_wait_until (&t->stop_cond, &t->lock, next))
        ;
      gboolean stop = t->stop;
      g_mutex_unlock (&t->lock);
      if (stop)
        return NULL;
    }
}

static void
trickle_start (Trickle *t, gint *fds, guint n)
{
  t->fds = fds;
  t->n = n;
  g_mutex_init (&t->lock);
  g_cond_init (&t->stop_cond);
  t->thread = g_thread_new ("trickle", trickle_thread, t);
}

static void
trickle_stop (Trickle *t)
{
  g_mutex_lock (&t->lock);
  t->stop = TRUE;
  g_cond_signal (&t->stop_cond);
  g_mutex_unlock (&t->lock);
  g_thread_join (t->thread);
  g_mutex_clear (&t->lock);
  g_cond_clear (&t->stop_cond);
}

static GString *
legit_lines (void)
{
  GString *out = g_string_new (NULL);
  for (guint i = 1; i <= LEGIT_LINES; i++)
    g_string_append_printf (out, HEADER "legit %05u\n", i);
  return out;
}

static const gchar default_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_file { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_net); destination(d_file); flags(flow-control); };\n";

/* The attackers hold every place of max-connections() (10 by default)
 * before the sender starts; the oldest that never completed a message
 * makes room for each newcomer, until the sender is in. */
static void
run_slow_and_silent (SlTestEnv *env, guint16 port, gint *fds)
{
  g_autofree gchar *path = sl_test_path (env, "out.log");
  for (guint i = 0; i < ATTACKERS; i++)
    if ((fds[i] = connect_nowait (port)) < 0)
      return;
  Trickle trickle = { 0 };
  trickle_start (&trickle, fds, ATTACKERS);
  gint legit = -1;
  if (sl_test_wait_stat_at_least (env, "source", "s_net", "connections", 10) && (legit = sl_test_tcp_connect (port)) >= 0)
    {
      gint64 start = g_get_monotonic_time ();
      SlTestSender *sender = sl_test_sender_start (legit, legit_lines ());
      gboolean all = sl_test_wait_lines (env, path, LEGIT_LINES);
      g_test_message ("the sender's %u lines arrived in %.1f s behind %u slow or silent connections; "
                      "evicted: %" G_GINT64_FORMAT, LEGIT_LINES, (g_get_monotonic_time () - start) / 1e6, ATTACKERS,
                      sl_test_stat (env, "source", "s_net", "evicted_no_message"));
      sl_test_sender_finish (sender);
      if (all)
        {
          g_assert_cmpuint (sl_test_count_lines (path), ==, LEGIT_LINES);
          g_autofree gchar *text = sl_test_read_file (path);
          g_assert_null (strstr (text, "never ends"));
          g_assert_cmpint (sl_test_stat (env, "source", "s_net", "evicted_no_message"), >=, 1);
        }
    }
  trickle_stop (&trickle);
}

static void
test_slow_and_silent (SlTestEnv *env, gconstpointer data)
{
  struct rlimit limit;
  if (getrlimit (RLIMIT_NOFILE, &limit) < 0)
    return;
  if (limit.rlim_cur < ATTACKERS + 200 && limit.rlim_max >= ATTACKERS + 200)
    {
      limit.rlim_cur = limit.rlim_max;
      setrlimit (RLIMIT_NOFILE, &limit);
    }
  if (limit.rlim_cur < ATTACKERS + 200)
    {
      g_test_skip ("the open-file limit is below what the attackers need");
      return;
    }
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = port_text (port);
  if (!port || !sl_test_write_config (env, default_config, "PORT", port_str, NULL) || !sl_test_daemon_start (env))
    return;
  gint *fds = g_new (gint, ATTACKERS);
  for (guint i = 0; i < ATTACKERS; i++)
    fds[i] = -1;
  run_slow_and_silent (env, port, fds);
  for (guint i = 0; i < ATTACKERS; i++)
    if (fds[i] >= 0)
      close (fds[i]);
  g_free (fds);
}

static const gchar first_message_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@) first-message-timeout(1)); };\n"
  "destination d_file { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_net); destination(d_file); };\n";

/* A silent connection and one that never ends its line are closed; one
 * that brought a message is left open, however quiet it is then. */
static void
run_first_message_timeout (SlTestEnv *env, guint16 port, gint *fds)
{
  g_autofree gchar *path = sl_test_path (env, "out.log");
  for (guint i = 0; i < 3; i++)
    if ((fds[i] = sl_test_tcp_connect (port)) < 0)
      return;
  if (!sl_test_send_all (fds[1], HEADER "never ended", strlen (HEADER "never ended")) || !send_line (fds[2], "first")
      || !sl_test_wait_lines (env, path, 1))
    return;
  g_assert_true (wait_closed_by_peer (fds[0]));
  g_assert_true (wait_closed_by_peer (fds[1]));
  if (!sl_test_wait_stat (env, "source", "s_net", "no_message_closed", 2) || !send_line (fds[2], "second")
      || !sl_test_wait_contains (env, path, "second\n"))
    return;
  g_autofree gchar *text = sl_test_read_file (path);
  g_assert_null (strstr (text, "never ended"));
  g_assert_cmpint (sl_test_stat (env, "source", "s_net", "idle_closed"), ==, 0);
}

static void
test_first_message_timeout (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = port_text (port);
  if (!port || !sl_test_write_config (env, first_message_config, "PORT", port_str, NULL)
      || !sl_test_daemon_start (env))
    return;
  gint fds[3] = { -1, -1, -1 };
  run_first_message_timeout (env, port, fds);
  for (guint i = 0; i < G_N_ELEMENTS (fds); i++)
    if (fds[i] >= 0)
      close (fds[i]);
}

static const gchar quiet_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@) max-connections(2)); };\n"
  "destination d_file { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_net); destination(d_file); };\n";

/* Two senders that delivered and went quiet hold both places: the one
 * quiet longest makes room for a third once it has been quiet for a few
 * seconds, and the other keeps its place. */
static void
run_idle_eviction (SlTestEnv *env, guint16 port, gint *fds)
{
  g_autofree gchar *path = sl_test_path (env, "out.log");
  if ((fds[0] = sl_test_tcp_connect (port)) < 0 || !send_line (fds[0], "older") || !sl_test_wait_lines (env, path, 1)
      || (fds[1] = sl_test_tcp_connect (port)) < 0 || !send_line (fds[1], "newer") || !sl_test_wait_lines (env, path, 2))
    return;
  if ((fds[2] = sl_test_tcp_connect (port)) < 0 || !send_line (fds[2], "third"))
    return;
  g_assert_true (wait_closed_by_peer (fds[0]));
  if (!sl_test_wait_contains (env, path, "third\n") || !send_line (fds[1], "newer again")
      || !sl_test_wait_contains (env, path, "newer again\n"))
    return;
  g_assert_cmpint (sl_test_stat (env, "source", "s_net", "evicted_idle"), ==, 1);
  g_assert_cmpint (sl_test_stat (env, "source", "s_net", "evicted_no_message"), ==, 0);
}

static void
test_idle_eviction (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = port_text (port);
  if (!port || !sl_test_write_config (env, quiet_config, "PORT", port_str, NULL) || !sl_test_daemon_start (env))
    return;
  gint fds[3] = { -1, -1, -1 };
  run_idle_eviction (env, port, fds);
  for (guint i = 0; i < G_N_ELEMENTS (fds); i++)
    if (fds[i] >= 0)
      close (fds[i]);
}

#define UNFINISHED_PEERS 5000
#define UNFINISHED_BYTES (60 * 1024)
/* core/io/partial-budget.h */
#define PARTIAL_BUDGET (64 * 1024 * 1024)

static const gchar many_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@) max-connections(6000) listen-backlog(4096)); };\n"
  "destination d_file { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_net); destination(d_file); };\n";

/* The value of a "Name:" line of /proc/PID/status, or -1. */
static gint64
proc_status (GPid pid, const gchar *name)
{
  g_autofree gchar *path = g_strdup_printf ("/proc/%d/status", (gint) pid);
  g_autofree gchar *text = sl_test_read_file (path);
  g_autofree gchar *key = g_strconcat ("\n", name, ":", NULL);
  const gchar *line = text ? strstr (text, key) : NULL;
  return line ? g_ascii_strtoll (line + strlen (key), NULL, 10) : -1;
}

/* Five thousand connections that each send 60 KiB of a line they never
 * end (300 MB): the daemon holds no more of them than its partial budget,
 * closes those over it, and a sender's complete line still arrives. */
static void
run_unfinished_lines (SlTestEnv *env, guint16 port, gint *fds)
{
  g_autofree gchar *path = sl_test_path (env, "out.log");
  g_autofree gchar *line = g_malloc (UNFINISHED_BYTES);
  memset (line, 'x', UNFINISHED_BYTES);
  memcpy (line, HEADER, strlen (HEADER));
  for (guint i = 0; i < UNFINISHED_PEERS; i++)
    {
      if ((fds[i] = sl_test_tcp_connect (port)) < 0)
        return;
      send (fds[i], line, UNFINISHED_BYTES, MSG_NOSIGNAL | MSG_DONTWAIT);
    }
  if (!sl_test_wait_stat_at_least (env, "source", "s_net", "partial_limit_closed", 1))
    return;
  gint64 held = sl_test_stat (env, "global", "partial", "partial_bytes");
  g_test_message ("%" G_GINT64_FORMAT " bytes of unfinished lines held, %" G_GINT64_FORMAT
                  " connections closed for the budget; sluiced VmRSS %" G_GINT64_FORMAT " kB, VmHWM %"
                  G_GINT64_FORMAT " kB", held, sl_test_stat (env, "source", "s_net", "partial_limit_closed"),
                  proc_status (env->pid, "VmRSS"), proc_status (env->pid, "VmHWM"));
  g_assert_cmpint (held, >, 0);
  g_assert_cmpint (held, <=, PARTIAL_BUDGET);
  if (!sl_test_tcp_send (port, HEADER "complete\n") || !sl_test_wait_contains (env, path, "complete\n"))
    return;
  g_autofree gchar *text = sl_test_read_file (path);
  g_assert_null (strstr (text, "xxxx"));
}

static void
test_unfinished_lines (SlTestEnv *env, gconstpointer data)
{
  struct rlimit limit;
  if (getrlimit (RLIMIT_NOFILE, &limit) < 0 || limit.rlim_cur < 2 * UNFINISHED_PEERS + 200)
    {
      g_test_skip ("the open-file limit is below what the connections need");
      return;
    }
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = port_text (port);
  if (!port || !sl_test_write_config (env, many_config, "PORT", port_str, NULL) || !sl_test_daemon_start (env))
    return;
  gint *fds = g_new (gint, UNFINISHED_PEERS);
  for (guint i = 0; i < UNFINISHED_PEERS; i++)
    fds[i] = -1;
  run_unfinished_lines (env, port, fds);
  for (guint i = 0; i < UNFINISHED_PEERS; i++)
    if (fds[i] >= 0)
      close (fds[i]);
  g_free (fds);
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/hostile/slow-and-silent", test_slow_and_silent);
  SL_TEST_ADD ("/hostile/first-message-timeout", test_first_message_timeout);
  SL_TEST_ADD ("/hostile/idle-eviction", test_idle_eviction);
  SL_TEST_ADD ("/hostile/unfinished-lines", test_unfinished_lines);
  return g_test_run ();
}
