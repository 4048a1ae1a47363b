/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The default settings, as a new user runs them (no flags(flow-control)):
 * a burst faster than the writer is written whole, because a stream
 * source waits for a destination that is writing; a destination that
 * writes nothing holds its sources back only for stall-timeout(), then
 * drops what its queue cannot take, so the file beside it gets
 * everything; stall-timeout(0) drops at once, as syslog-ng does; and a
 * datagram source, which cannot wait, drops at a full queue. */
#include "tests/functional/harness.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#define BURST_LINES 2000000
#define LINE_SIZE 150
#define STALL_LINES 300000

/* LINE_SIZE-byte RFC 3164 lines, "seq=N" numbered from 1, in DIR/name. */
static gchar *
write_lines (SlTestEnv *env, const gchar *name, guint n)
{
  gchar *path = sl_test_path (env, name);
  FILE *f = fopen (path, "w");
  g_assert_nonnull (f);
  for (guint i = 1; i <= n; i++)
    {
      gchar line[LINE_SIZE + 1];
      gint len = g_snprintf (line, sizeof line, "<13>Dec  6 02:00:00 bursthost app[1]: seq=%u ", i);
      memset (line + len, 'x', LINE_SIZE - 1 - len);
      line[LINE_SIZE - 1] = '\n';
      fwrite (line, 1, LINE_SIZE, f);
    }
  g_assert_cmpint (fclose (f), ==, 0);
  return path;
}

/* The whole file over one connection with sendfile(), as fast as the
 * daemon reads, then a clean close. */
static gboolean
send_file (guint16 port, const gchar *path)
{
  gint fd = sl_test_tcp_connect (port);
  gint in = open (path, O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || in < 0 || fstat (in, &st) < 0)
    {
      g_test_fail_printf ("cannot send %s", path);
      return FALSE;
    }
  off_t off = 0;
  while (off < st.st_size)
    if (sendfile (fd, in, &off, st.st_size - off) < 0 && errno != EINTR)
      {
        g_test_fail_printf ("sendfile: %s", g_strerror (errno));
        break;
      }
  close (in);
  close (fd);
  return off == st.st_size;
}

/* Each of seq=1..n exactly once in the file of "seq=N ..." lines. */
static void
assert_whole (const gchar *path, guint n)
{
  g_autofree gchar *text = sl_test_read_file (path);
  g_assert_nonnull (text);
  g_autofree guint8 *seen = g_new0 (guint8, n + 1);
  guint lines = 0, missing = 0, repeated = 0, foreign = 0;
  const gchar *end = text + strlen (text);
  /* bounded by the line: the sanitizers' strstr() and strchr() measure
   * the whole rest of the text first */
  for (const gchar *p = text; p < end; lines++)
    {
      const gchar *nl = memchr (p, '\n', end - p);
      gsize len = nl ? (gsize) (nl - p) : (gsize) (end - p);
      const gchar *at = g_strstr_len (p, len, "seq=");
      guint64 seq = at ? g_ascii_strtoull (at + 4, NULL, 10) : 0;
      if (seq < 1 || seq > n)
        foreign++;
      else if (seen[seq]++)
        repeated++;
      p += len + 1;
    }
  for (guint i = 1; i <= n; i++)
    missing += !seen[i];
  if (missing || repeated || foreign)
    g_test_fail_printf ("%s: %u lines; %u missing, %u repeated, %u not ours", path, lines, missing, repeated,
                        foreign);
}

static guint
count_in (const gchar *text, const gchar *needle)
{
  guint n = 0;
  for (const gchar *p = text; (p = strstr (p, needle)); p += strlen (needle))
    n++;
  return n;
}

static void
test_burst_written_whole (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_s = g_strdup_printf ("%u", port);
  g_assert_true (sl_test_write_config (env,
    "@version: 4.0\n"
    "source s { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
    "destination d { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
    "log { source(s); destination(d); };\n", "PORT", port_s, NULL));
  g_autofree gchar *lines = write_lines (env, "burst.txt", BURST_LINES);
  g_autofree gchar *out = sl_test_path (env, "out.log");
  for (guint run = 0; run < 3; run++)
    {
      unlink (out);
      if (!sl_test_daemon_start (env) || !send_file (port, lines) || !sl_test_wait_lines (env, out, BURST_LINES))
        return;
      g_assert_cmpint (sl_test_stat (env, "destination", "d", "dropped"), ==, 0);
      g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
      assert_whole (out, BURST_LINES);
      g_autofree gchar *err = sl_test_daemon_stderr (env);
      g_assert_null (strstr (err, "dropping"));
    }
  unlink (lines);
}

/* A peer that accepts one connection and never reads it. */
typedef struct
{
  gint listener;
  gint conn;
  GThread *thread;
} SilentPeer;

static gpointer
silent_accept (gpointer data)
{
  SilentPeer *peer = data;
  peer->conn = accept (peer->listener, NULL, NULL);
  return NULL;
}

static guint16
silent_peer_start (SilentPeer *peer)
{
  peer->listener = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  peer->conn = -1;
  /* a small receive buffer, so that the daemon's writes block soon */
  gint small = 4096;
  setsockopt (peer->listener, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
  struct sockaddr_in addr = { .sin_family = AF_INET, .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  socklen_t len = sizeof addr;
  g_assert_cmpint (bind (peer->listener, (struct sockaddr *) &addr, sizeof addr), ==, 0);
  g_assert_cmpint (listen (peer->listener, 4), ==, 0);
  g_assert_cmpint (getsockname (peer->listener, (struct sockaddr *) &addr, &len), ==, 0);
  peer->thread = g_thread_new ("silent-peer", silent_accept, peer);
  return ntohs (addr.sin_port);
}

static void
silent_peer_stop (SilentPeer *peer)
{
  shutdown (peer->listener, SHUT_RDWR);
  g_thread_join (peer->thread);
  close (peer->listener);
  if (peer->conn >= 0)
    close (peer->conn);
}

static const gchar beside_dead_config[] =
  "@version: 4.0\n"
  "source s { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_file { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
  "destination d_dead { tcp(\"127.0.0.1\" port(@DEAD@) @EXTRA@); };\n"
  "log { source(s); destination(d_file); destination(d_dead); };\n";

/* Runs the configuration above with extra as d_dead's options, sends
 * STALL_LINES, and checks that the file has each of them; the time it
 * took in *took_us. */
static gboolean
run_beside_dead (SlTestEnv *env, const gchar *extra, gint64 *took_us)
{
  SilentPeer peer;
  guint16 dead = silent_peer_start (&peer);
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_s = g_strdup_printf ("%u", port);
  g_autofree gchar *dead_s = g_strdup_printf ("%u", dead);
  g_autofree gchar *lines = write_lines (env, "lines.txt", STALL_LINES);
  g_autofree gchar *out = sl_test_path (env, "out.log");
  gboolean ok = sl_test_write_config (env, beside_dead_config, "PORT", port_s, "DEAD", dead_s, "EXTRA", extra, NULL)
                && sl_test_daemon_start (env);
  gint64 start = g_get_monotonic_time ();
  ok = ok && send_file (port, lines) && sl_test_wait_lines (env, out, STALL_LINES);
  *took_us = g_get_monotonic_time () - start;
  if (ok)
    {
      assert_whole (out, STALL_LINES);
      g_assert_cmpint (sl_test_stat (env, "destination", "d_file", "dropped"), ==, 0);
      g_assert_cmpint (sl_test_stat (env, "destination", "d_dead", "dropped"), >, 0);
    }
  sl_test_daemon_stop (env, SIGTERM);
  silent_peer_stop (&peer);
  return ok;
}

static void
test_dead_destination_lets_go (SlTestEnv *env, gconstpointer data)
{
  gint64 took;
  if (!run_beside_dead (env, "stall-timeout(2)", &took))
    return;
  /* held back for the two seconds, not for the deadline */
  g_assert_cmpint (took, >=, 2 * G_USEC_PER_SEC);
  g_autofree gchar *err = sl_test_daemon_stderr (env);
  g_assert_cmpuint (count_in (err, "has written nothing for"), ==, 1);
  g_assert_null (strstr (err, "destination queue full"));
}

static void
test_stall_timeout_zero_drops_at_once (SlTestEnv *env, gconstpointer data)
{
  gint64 took;
  if (!run_beside_dead (env, "stall-timeout(0) log-fifo-size(1000)", &took))
    return;
  g_autofree gchar *err = sl_test_daemon_stderr (env);
  g_assert_null (strstr (err, "has written nothing for"));
  g_assert_nonnull (strstr (err, "destination queue full"));
}

/* The stall ends with the first write: the peer comes back (a listener
 * that reads), and the destination holds its sources again. */
static void
test_stall_ends_when_written (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  guint16 remote = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_s = g_strdup_printf ("%u", port);
  g_autofree gchar *remote_s = g_strdup_printf ("%u", remote);
  g_assert_true (sl_test_write_config (env,
    "@version: 4.0\n"
    "source s { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
    "destination d_file { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
    "destination d_remote { tcp(\"127.0.0.1\" port(@REMOTE@) time-reopen(1) stall-timeout(1)); };\n"
    "log { source(s); destination(d_file); destination(d_remote); };\n", "PORT", port_s, "REMOTE", remote_s, NULL));
  if (!sl_test_daemon_start (env))
    return;
  /* nobody listens: connecting fails, and the destination stalls */
  g_autofree gchar *out = sl_test_path (env, "out.log");
  g_assert_true (sl_test_tcp_send (port, "<13>Dec  6 02:00:00 h app: seq=1 first\n"));
  if (!sl_test_wait_lines (env, out, 1) || !sl_test_wait_stderr (env, "has written nothing for"))
    return;

  SlTestEnv remote_env = { 0 };
  sl_test_env_setup (&remote_env, NULL);
  g_autofree gchar *remote_out = sl_test_path (&remote_env, "remote.log");
  if (sl_test_write_config (&remote_env,
        "@version: 4.0\n"
        "source s { tcp(ip(\"127.0.0.1\") port(@REMOTE@)); };\n"
        "destination d { file(\"@DIR@/remote.log\" template(\"${MESSAGE}\\n\")); };\n"
        "log { source(s); destination(d); };\n", "REMOTE", remote_s, NULL)
      && sl_test_daemon_start (&remote_env))
    {
      g_assert_true (sl_test_wait_lines (env, remote_out, 1));
      g_assert_true (sl_test_wait_stderr (env, "its sources wait for it again"));
      g_assert_true (sl_test_wait_stderr (env, "dropped_while_stalled='0'"));
    }
  sl_test_env_teardown (&remote_env, NULL);
}

/* udp() cannot make its senders wait: past a full queue it drops, and
 * counts what it dropped. */
static void
test_datagrams_drop_at_full_queue (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_DGRAM);
  g_autofree gchar *port_s = g_strdup_printf ("%u", port);
  g_assert_true (sl_test_write_config (env,
    "@version: 4.0\n"
    "source s { udp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
    "destination d { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\") throttle(100) log-fifo-size(10)); };\n"
    "log { source(s); destination(d); };\n", "PORT", port_s, NULL));
  if (!sl_test_daemon_start (env))
    return;
  for (guint i = 1; i <= 200; i++)
    {
      g_autofree gchar *dgram = g_strdup_printf ("<13>Dec  6 02:00:00 h app: seq=%u", i);
      g_assert_true (sl_test_udp_send (port, dgram));
    }
  gint64 limit = g_get_monotonic_time () + SL_TEST_DEADLINE_MS * 1000;
  while (sl_test_stat (env, "source", "s", "received") < 200 && g_get_monotonic_time () < limit)
    g_usleep (20000);
  g_assert_cmpint (sl_test_stat (env, "destination", "d", "dropped"), >, 0);
  g_autofree gchar *err = sl_test_daemon_stderr (env);
  g_assert_null (strstr (err, "has written nothing for"));
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/bursts/default/written-whole", test_burst_written_whole);
  SL_TEST_ADD ("/bursts/default/dead-destination-lets-go", test_dead_destination_lets_go);
  SL_TEST_ADD ("/bursts/default/stall-ends-when-written", test_stall_ends_when_written);
  SL_TEST_ADD ("/bursts/stall-timeout-zero/drops-at-once", test_stall_timeout_zero_drops_at_once);
  SL_TEST_ADD ("/bursts/udp/drops-at-full-queue", test_datagrams_drop_at_full_queue);
  return g_test_run ();
}
