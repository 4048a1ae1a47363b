/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A destination's failure and recovery are logged by the core alone, once
 * each, the failure with the reason its driver gave: sluiced forwards to
 * a real syslog-ng (Debian's syslog-ng-core) over TCP, which goes away
 * while messages come and then comes back on the same port. */
#include "tests/functional/harness.h"

#include <string.h>
#include <sys/socket.h>

/* stall-timeout(0): a slow machine's outage longer than the default 5 s
 * would add the stall's lines; the path holds its sender by flow control.
 * flush-lines(10): with workers(), each writer takes batches of the
 * outage's messages and fails on its own. */
static const gchar sender_config[] =
  "@version: 4.0\n"
  "source s_in { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_peer { network(\"127.0.0.1\" port(@PEER@) transport(\"tcp\") template(\"${MSG}\\n\")\n"
  "  time-reopen(1) stall-timeout(0) flush-lines(10) workers(@WORKERS@)); };\n"
  "log { source(s_in); destination(d_peer); flags(flow-control); };\n";

static const gchar peer_config[] =
  "@version: 3.38\n"
  "options { stats-freq(0); };\n"
  "source s_net { network(ip(\"127.0.0.1\") port(%u) transport(\"tcp\") flags(no-parse)); };\n"
  "destination d_out { file(\"%s\" template(\"$MSG\\n\")); };\n"
  "log { source(s_net); destination(d_out); };\n";

static gchar *
numbered (guint first, guint last)
{
  GString *text = g_string_new (NULL);
  for (guint i = first; i <= last; i++)
    g_string_append_printf (text, "<13>Dec  6 10:00:00 h app: line %u\n", i);
  return g_string_free (text, FALSE);
}

static guint
count_in (const gchar *haystack, const gchar *needle)
{
  guint n = 0;
  for (const gchar *p = haystack; p && (p = strstr (p, needle)); p += strlen (needle))
    n++;
  return n;
}

/* The lines of text that contain needle, one after the other. */
static gchar *
lines_with (const gchar *text, const gchar *needle)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  GString *found = g_string_new (NULL);
  for (guint i = 0; lines[i]; i++)
    if (strstr (lines[i], needle))
      g_string_append_printf (found, "%s\n", lines[i]);
  return g_string_free (found, FALSE);
}

/* syslog-ng (re)started on port: whether it listens, failing when not. */
static GPid
peer_start (SlTestEnv *env, const gchar *config, guint16 port)
{
  GPid pid = sl_test_syslog_ng_start (env, config);
  if (pid && !sl_test_wait_port (port))
    g_test_fail_printf ("syslog-ng does not listen on port %u", port);
  return pid;
}

/* sluiced's log of d_peer#0: the failure, once, with the driver's
 * reason; the recovery, once; and no line of the driver's own. */
static void
assert_logged_once (SlTestEnv *env, guint16 peer)
{
  g_autofree gchar *err = sl_test_daemon_stderr (env);
  g_autofree gchar *about = lines_with (err, "d_peer#0");
  g_test_message ("what sluiced logged of d_peer#0:\n%s", about);
  g_autofree gchar *reason = g_strdup_printf ("driver='d_peer#0', reason='cannot connect to 127.0.0.1 port %u: ", peer);
  g_autofree gchar *failures = lines_with (about, "destination cannot write now");
  g_assert_cmpuint (count_in (about, "destination cannot write now"), ==, 1);
  g_assert_nonnull (strstr (failures, reason));
  g_assert_cmpuint (count_in (about, "destination writes again; driver='d_peer#0'"), ==, 1);
  g_assert_cmpuint (count_in (about, "\n"), ==, 2);
  g_assert_cmpint (sl_test_stat (env, "destination", "d_peer", "dropped"), ==, 0);
}

/* The peer goes away while messages come, and comes back; with workers
 * writers, each of which fails and writes again on its own. */
static void
peer_down_and_back (SlTestEnv *env, guint workers)
{
  g_autofree gchar *syslog_ng = sl_test_syslog_ng_path ();
  if (!syslog_ng)
    {
      g_test_skip ("syslog-ng is not installed (quickstart installs Debian's syslog-ng-core)");
      return;
    }
  guint16 port = sl_test_free_port (SOCK_STREAM);
  guint16 peer = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_text = g_strdup_printf ("%u", port);
  g_autofree gchar *peer_text = g_strdup_printf ("%u", peer);
  g_autofree gchar *workers_text = g_strdup_printf ("%u", workers);
  g_autofree gchar *received = sl_test_path (env, "peer.log");
  g_autofree gchar *peer_conf = sl_test_path (env, "syslog-ng.conf");
  g_autofree gchar *peer_text_conf = g_strdup_printf (peer_config, peer, received);
  g_autofree gchar *first = numbered (1, 20);
  g_autofree gchar *second = numbered (21, 400);
  if (!g_file_set_contents (peer_conf, peer_text_conf, -1, NULL)
      || !sl_test_write_config (env, sender_config, "PORT", port_text, "PEER", peer_text, "WORKERS",
                                workers_text, NULL))
    return;
  GPid ng = peer_start (env, peer_conf, peer);
  gboolean ok = ng && !g_test_failed () && sl_test_daemon_start (env) && sl_test_wait_tcp (env, port)
                && sl_test_tcp_send (port, first) && sl_test_wait_lines (env, received, 20);
  sl_test_syslog_ng_stop (env, ng);
  ng = 0;
  /* the peer is away while messages come: they wait in the queue */
  ok = ok && sl_test_tcp_send (port, second) && sl_test_wait_stderr (env, "destination cannot write now");
  if (ok)
    g_usleep (2500 * 1000);
  /* it comes back on the same port: the messages arrive (what a broken
   * connection had not acknowledged, perhaps twice) */
  ng = ok ? peer_start (env, peer_conf, peer) : 0;
  ok = ng && !g_test_failed () && sl_test_wait_lines (env, received, 400)
       && sl_test_wait_stderr (env, "destination writes again");
  if (ok)
    assert_logged_once (env, peer);
  sl_test_syslog_ng_stop (env, ng);
}

static void
test_peer_down_and_back (SlTestEnv *env, gconstpointer data)
{
  peer_down_and_back (env, 1);
}

/* The outage is still one failure line and one recovery line. */
static void
test_workers_log_once (SlTestEnv *env, gconstpointer data)
{
  peer_down_and_back (env, 3);
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/write-failure/peer-down-and-back", test_peer_down_and_back);
  SL_TEST_ADD ("/write-failure/workers-log-once", test_workers_log_once);
  return g_test_run ();
}
