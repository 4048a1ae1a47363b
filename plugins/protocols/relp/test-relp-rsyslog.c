/* SPDX-License-Identifier: GPL-2.0-or-later */
/* relp() against the real rsyslogd (tests/peers/rsyslog-root), started
 * once for the program: its omrelp sends to our relp() source (plain, and
 * over TLS with its client certificate), and our
 * relp() destination sends to its imrelp over TLS, each side checking the
 * other's certificate (made here with openssl). In each direction the receiver is killed with -9 in the
 * middle of the run and started again: every message arrives, duplicates
 * are allowed (RELP is at-least-once) and reported. Our relp() destination
 * keeps its window across batches: what a killed imrelp did not answer is
 * sent again in order, with or without a disk buffer, so the file never
 * skips a message ahead of one still to come. */
#include "tests/functional/harness.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#define COUNT 30000
/* the receiver is killed once this many arrived */
#define KILL_AT 2000
/* sent over TLS, without a kill */
#define TLS_COUNT 5000

static gchar *peer_dir;          /* rsyslogd's folder, for the program */
static gchar *rsyslog_root;
static GPid rsyslogd;
static guint16 imrelp_port, imtcp_port, sluice_relp_port, imtcp_tls_port, sluice_relps_port, imrelp_plain_port;

static gboolean
shell (const gchar *dir, const gchar *command)
{
  g_autofree gchar *line = g_strdup_printf ("cd '%s' && %s", dir, command);
  const gchar *argv[] = { "/bin/sh", "-c", line, NULL };
  g_autofree gchar *err = NULL;
  gint status = sl_test_run_argv (argv, NULL, &err);
  if (status != 0)
    g_test_fail_printf ("%s: %s", command, err ? err : "");
  return status == 0;
}

static gboolean
make_certificates (const gchar *dir)
{
  return shell (dir, "openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 -subj /CN=test-ca 2>/dev/null")
         && shell (dir, "openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj /CN=127.0.0.1 2>/dev/null")
         && shell (dir, "printf 'subjectAltName=IP:127.0.0.1\\n' > san.ext && openssl x509 -req -in server.csr -CA ca.pem"
                        " -CAkey ca.key -CAcreateserial -out server.pem -days 2 -extfile san.ext 2>/dev/null")
         && shell (dir, "openssl req -newkey rsa:2048 -nodes -keyout client.key -out client.csr -subj /CN=sluice-client 2>/dev/null")
         && shell (dir, "openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out client.pem -days 2 2>/dev/null");
}

/* Waits until rsyslogd accepts on port (a connection it drops at once). */
static gboolean
wait_port (guint16 port)
{
  gint64 end = g_get_monotonic_time () + SL_TEST_DEADLINE_MS * 1000;
  while (g_get_monotonic_time () < end && !sl_test_child_exited (rsyslogd, NULL))
    {
      gint fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
      struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons (port), .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
      gboolean up = connect (fd, (struct sockaddr *) &sa, sizeof sa) == 0;
      close (fd);
      if (up)
        return TRUE;
      g_usleep (20 * 1000);
    }
  g_test_fail_printf ("rsyslogd does not listen on port %u", port);
  return FALSE;
}

static gboolean
start_rsyslogd (void)
{
  g_autofree gchar *binary = g_build_filename (rsyslog_root, "usr/sbin/rsyslogd", NULL);
  g_autofree gchar *modules = g_build_filename (rsyslog_root, "usr/lib/x86_64-linux-gnu/rsyslog", NULL);
  g_autofree gchar *conf = g_build_filename (peer_dir, "rsyslog.conf", NULL);
  g_autofree gchar *pidfile = g_build_filename (peer_dir, "rsyslogd.pid", NULL);
  g_autofree gchar *err = g_build_filename (peer_dir, "rsyslogd.stderr", NULL);
  const gchar *argv[] = { binary, "-M", modules, "-n", "-f", conf, "-i", pidfile, NULL };
  rsyslogd = sl_test_spawn_argv (argv, err);
  return rsyslogd && wait_port (imtcp_port) && wait_port (imtcp_tls_port) && wait_port (imrelp_port)
         && wait_port (imrelp_plain_port);
}

static void
kill_rsyslogd (void)
{
  if (!rsyslogd)
    return;
  kill (rsyslogd, SIGKILL);
  sl_test_child_wait (rsyslogd, 10 * G_TIME_SPAN_SECOND);
  rsyslogd = 0;
}

/* rsyslogd answers RELP only once omfile wrote the message: a direct main
 * queue runs the action on imrelp's thread before its "200 OK". */
static gboolean
write_rsyslog_conf (void)
{
  g_autofree gchar *conf = g_strdup_printf (
    "global(workDirectory=\"%1$s\")\n"
    "module(load=\"imrelp\")\nmodule(load=\"imtcp\")\nmodule(load=\"omrelp\")\n"
    "main_queue(queue.type=\"Direct\")\n"
    "template(name=\"msgonly\" type=\"string\" string=\"%%msg%%\\n\")\n"
    "input(type=\"imrelp\" port=\"%2$u\" ruleset=\"from_sluice\" tls=\"on\" tls.cacert=\"%1$s/ca.pem\""
    " tls.mycert=\"%1$s/server.pem\" tls.myprivkey=\"%1$s/server.key\" tls.authmode=\"certvalid\")\n"
    "input(type=\"imtcp\" port=\"%3$u\" address=\"127.0.0.1\" ruleset=\"to_sluice\")\n"
    "input(type=\"imtcp\" port=\"%5$u\" address=\"127.0.0.1\" ruleset=\"to_sluice_tls\")\n"
    "input(type=\"imrelp\" port=\"%7$u\" ruleset=\"from_sluice_plain\")\n"
    "ruleset(name=\"from_sluice\") { action(type=\"omfile\" file=\"%1$s/from-sluice.log\" template=\"msgonly\") }\n"
    "ruleset(name=\"from_sluice_plain\") { action(type=\"omfile\" file=\"%1$s/from-sluice-plain.log\""
    " template=\"msgonly\") }\n"
    "ruleset(name=\"to_sluice\") { action(type=\"omrelp\" target=\"127.0.0.1\" port=\"%4$u\""
    " action.resumeRetryCount=\"-1\" action.resumeInterval=\"1\") }\n"
    "ruleset(name=\"to_sluice_tls\") { action(type=\"omrelp\" target=\"127.0.0.1\" port=\"%6$u\" tls=\"on\""
    " tls.cacert=\"%1$s/ca.pem\" tls.mycert=\"%1$s/client.pem\" tls.myprivkey=\"%1$s/client.key\""
    " tls.authmode=\"certvalid\" action.resumeRetryCount=\"-1\" action.resumeInterval=\"1\") }\n",
    peer_dir, imrelp_port, imtcp_port, sluice_relp_port, imtcp_tls_port, sluice_relps_port, imrelp_plain_port);
  g_autofree gchar *path = g_build_filename (peer_dir, "rsyslog.conf", NULL);
  return g_file_set_contents (path, conf, -1, NULL);
}

static GString *
numbered_lines (guint count)
{
  GString *data = g_string_new (NULL);
  for (guint i = 1; i <= count; i++)
    g_string_append_printf (data, "<13>Dec  1 10:00:00 testhost relptest: seq=%06u\n", i);
  return data;
}

/* How many of seq=1..count the file holds; *dups those it holds twice or more. */
static guint
distinct_seqs (const gchar *path, guint count, guint *dups)
{
  g_auto (GStrv) lines = sl_test_read_lines (path);
  g_autofree guint8 *seen = g_new0 (guint8, count + 1);
  guint distinct = 0;
  *dups = 0;
  for (guint i = 0; lines && lines[i]; i++)
    {
      const gchar *s = strstr (lines[i], "seq=");
      guint n = s ? (guint) g_ascii_strtoull (s + 4, NULL, 10) : 0;
      if (n < 1 || n > count)
        continue;
      if (seen[n]++)
        (*dups)++;
      else
        distinct++;
    }
  return distinct;
}

/* Waits until the file holds every seq, failing once it stopped growing
 * for the deadline. */
static gboolean
wait_all (const gchar *path, guint count, guint *dups)
{
  guint last = 0;
  gint64 stalled_since = g_get_monotonic_time ();
  for (;;)
    {
      guint got = distinct_seqs (path, count, dups);
      if (got == count)
        return TRUE;
      if (got != last)
        {
          last = got;
          stalled_since = g_get_monotonic_time ();
        }
      else if (g_get_monotonic_time () - stalled_since > 3 * SL_TEST_DEADLINE_MS * 1000)
        {
          g_test_fail_printf ("%s holds %u of %u messages", path, got, count);
          return FALSE;
        }
      g_usleep (50 * 1000);
    }
}

/* Order kept across a kill: a line is the next after the highest before
 * it, or a message sent again (at or below it); never one ahead of a
 * message still to come. How many times it went back, or -1. */
static gint
resend_runs (const gchar *path, guint count)
{
  g_auto (GStrv) lines = sl_test_read_lines (path);
  guint highest = 0, prev = 0;
  gint runs = 0;
  for (guint i = 0; lines && lines[i]; i++)
    {
      const gchar *s = strstr (lines[i], "seq=");
      guint n = s ? (guint) g_ascii_strtoull (s + 4, NULL, 10) : 0;
      if (n < 1 || n > count)
        continue;
      if (n > highest + 1)
        {
          g_test_fail_printf ("%s: line %u has seq=%u, but seq=%u has not come yet", path, i + 1, n, highest + 1);
          return -1;
        }
      if (prev && n != prev + 1)
        runs++;
      prev = n;
      highest = MAX (highest, n);
    }
  return runs;
}

static gboolean
wait_lines_from (const gchar *path, guint n)
{
  gint64 end = g_get_monotonic_time () + 3 * SL_TEST_DEADLINE_MS * 1000;
  while (sl_test_count_lines (path) < n)
    {
      if (g_get_monotonic_time () > end)
        {
          g_test_fail_printf ("%s never had %u lines", path, n);
          return FALSE;
        }
      g_usleep (10 * 1000);
    }
  return TRUE;
}

/* rsyslogd's omrelp → relp() → file under flow control; sluiced is
 * killed with -9 once messages arrive and started again. */
static void
test_omrelp_to_sluice (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *port = g_strdup_printf ("%u", sluice_relp_port);
  if (!sl_test_write_config (env,
                             "source s_relp { relp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
                             "destination d_file { file(\"@DIR@/out.log\" template(\"$MSG\\n\")); };\n"
                             "log { source(s_relp); destination(d_file); flags(flow-control); };\n",
                             "PORT", port, NULL)
      || !sl_test_daemon_start (env))
    return;
  gint fd = sl_test_tcp_connect (imtcp_port);
  if (fd < 0)
    return;
  SlTestSender *sender = sl_test_sender_start (fd, numbered_lines (COUNT));
  g_autofree gchar *out = sl_test_path (env, "out.log");
  gboolean ok = wait_lines_from (out, KILL_AT);
  if (ok)
    {
      sl_test_daemon_stop (env, SIGKILL);
      ok = sl_test_daemon_start (env);
    }
  guint dups = 0;
  if (ok)
    ok = wait_all (out, COUNT, &dups);
  sl_test_sender_join (sender);
  if (!ok)
    return;
  g_test_message ("omrelp -> relp(): %u messages, 0 lost, %u duplicated across the kill", COUNT, dups);
  g_assert_cmpint (sl_test_stat (env, "source", "s_relp", "acknowledged"), >, 0);
}

/* rsyslogd's omrelp over TLS → relp(tls(peer-verify(required-trusted)))
 * → file under flow control: the listener's handshake checks omrelp's
 * client certificate, and every message carries its CN. */
static void
test_omrelp_tls_to_sluice (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *port = g_strdup_printf ("%u", sluice_relps_port);
  if (!sl_test_write_config (env,
                             "source s_relps { relp(ip(\"127.0.0.1\") port(@PORT@) tls(key-file(\"@PEER@/server.key\")"
                             " cert-file(\"@PEER@/server.pem\") ca-file(\"@PEER@/ca.pem\")"
                             " peer-verify(required-trusted))); };\n"
                             "destination d_file { file(\"@DIR@/out.log\" template(\"${.tls.x509_cn} $MSG\\n\")); };\n"
                             "log { source(s_relps); destination(d_file); flags(flow-control); };\n",
                             "PORT", port, "PEER", peer_dir, NULL)
      || !sl_test_daemon_start (env))
    return;
  gint fd = sl_test_tcp_connect (imtcp_tls_port);
  if (fd < 0)
    return;
  SlTestSender *sender = sl_test_sender_start (fd, numbered_lines (TLS_COUNT));
  g_autofree gchar *out = sl_test_path (env, "out.log");
  guint dups = 0;
  gboolean ok = wait_all (out, TLS_COUNT, &dups);
  sl_test_sender_join (sender);
  if (!ok)
    return;
  g_auto (GStrv) lines = sl_test_read_lines (out);
  g_assert_true (g_str_has_prefix (lines[0], "sluice-client "));
  g_assert_cmpint (sl_test_stat (env, "source", "s_relps", "acknowledged"), >=, TLS_COUNT);
  g_assert_cmpint (sl_test_stat (env, "source", "s_relps", "connections"), ==, 1);
}

/* tcp() → relp(tls) with a reliable disk buffer → rsyslogd's imrelp;
 * rsyslogd is killed with -9 once messages arrive and started again. */
static void
test_sluice_to_imrelp (SlTestEnv *env, gconstpointer data)
{
  guint16 tcp_port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *in_port = g_strdup_printf ("%u", tcp_port);
  g_autofree gchar *relp_port = g_strdup_printf ("%u", imrelp_port);
  if (!sl_test_write_config (env,
                             "source s_tcp { tcp(ip(\"127.0.0.1\") port(@IN@)); };\n"
                             "destination d_relp { relp(\"127.0.0.1\" port(@RELP@) timeout(10) time-reopen(1)\n"
                             "  tls(ca-file(\"@PEER@/ca.pem\") cert-file(\"@PEER@/client.pem\") key-file(\"@PEER@/client.key\"))\n"
                             "  disk-buffer(reliable(yes) disk-buf-size(100M) dir(\"@DIR@\"))); };\n"
                             "log { source(s_tcp); destination(d_relp); flags(flow-control); };\n",
                             "IN", in_port, "RELP", relp_port, "PEER", peer_dir, NULL)
      || !sl_test_daemon_start (env))
    return;
  g_autofree gchar *out = g_build_filename (peer_dir, "from-sluice.log", NULL);
  gint fd = sl_test_tcp_connect (tcp_port);
  if (fd < 0)
    return;
  SlTestSender *sender = sl_test_sender_start (fd, numbered_lines (COUNT));
  gboolean ok = wait_lines_from (out, KILL_AT);
  if (ok)
    {
      kill_rsyslogd ();
      ok = start_rsyslogd ();
    }
  guint dups = 0;
  if (ok)
    ok = wait_all (out, COUNT, &dups);
  sl_test_sender_join (sender);
  if (!ok)
    return;
  g_test_message ("relp(tls) -> imrelp: %u messages, 0 lost, %u duplicated across the kill", COUNT, dups);
  g_assert_cmpint (resend_runs (out, COUNT), >=, 0);
  /* each message is done once, on its one answer, however often it was sent */
  g_assert_true (sl_test_wait_stat (env, "destination", "d_relp", "acknowledged", COUNT));
  g_assert_cmpint (sl_test_stat (env, "destination", "d_relp", "sessions"), >=, 2);
}

/* tcp() → relp() with its memory queue alone → imrelp, killed with -9
 * once messages arrive and started again: the messages the session had in
 * flight go back to the queue and are sent again, in order, on the next
 * session. */
static void
test_sluice_to_imrelp_memory (SlTestEnv *env, gconstpointer data)
{
  guint16 tcp_port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *in_port = g_strdup_printf ("%u", tcp_port);
  g_autofree gchar *relp_port = g_strdup_printf ("%u", imrelp_plain_port);
  if (!sl_test_write_config (env,
                             "source s_tcp { tcp(ip(\"127.0.0.1\") port(@IN@)); };\n"
                             "destination d_relp { relp(\"127.0.0.1\" port(@RELP@) timeout(10) time-reopen(1)"
                             " window-size(64) max-in-flight(300)); };\n"
                             "log { source(s_tcp); destination(d_relp); flags(flow-control); };\n",
                             "IN", in_port, "RELP", relp_port, NULL)
      || !sl_test_daemon_start (env))
    return;
  g_autofree gchar *out = g_build_filename (peer_dir, "from-sluice-plain.log", NULL);
  gint fd = sl_test_tcp_connect (tcp_port);
  if (fd < 0)
    return;
  SlTestSender *sender = sl_test_sender_start (fd, numbered_lines (COUNT));
  gboolean ok = wait_lines_from (out, KILL_AT);
  if (ok)
    {
      kill_rsyslogd ();
      ok = start_rsyslogd ();
    }
  guint dups = 0;
  if (ok)
    ok = wait_all (out, COUNT, &dups);
  sl_test_sender_join (sender);
  if (!ok)
    return;
  gint runs = resend_runs (out, COUNT);
  g_test_message ("relp() -> imrelp, memory queue: %u messages, 0 lost, %u duplicated in %d runs sent again; "
                  "%" G_GINT64_FORMAT " resent", COUNT, dups, runs,
                  sl_test_stat (env, "destination", "d_relp", "resent"));
  g_assert_cmpint (runs, >=, 0);
  g_assert_true (sl_test_wait_stat (env, "destination", "d_relp", "acknowledged", COUNT));
  g_assert_cmpint (sl_test_stat (env, "destination", "d_relp", "written"), ==, COUNT);
  g_assert_cmpint (sl_test_stat (env, "destination", "d_relp", "dropped"), ==, 0);
  g_assert_cmpint (sl_test_stat (env, "destination", "d_relp", "sessions"), >=, 2);
}

static gboolean
setup_peer (void)
{
  const gchar *build = g_getenv ("SL_TOP_BUILDDIR");
  const gchar *src = g_getenv ("SL_TOP_SRCDIR");
  if (!build || !src)
    return FALSE;
  g_autofree gchar *script = g_build_filename (src, "tests/peers/rsyslog-root", NULL);
  g_autofree gchar *root_dir = g_build_filename (build, "peers/rsyslog", NULL);
  const gchar *argv[] = { script, root_dir, NULL };
  g_autofree gchar *out = NULL;
  if (sl_test_run_argv (argv, &out, NULL) != 0 || !out)
    return FALSE;
  rsyslog_root = g_strstrip (g_steal_pointer (&out));
  peer_dir = g_dir_make_tmp ("sluice-rsyslog-XXXXXX", NULL);
  imrelp_port = sl_test_free_port (SOCK_STREAM);
  imtcp_port = sl_test_free_port (SOCK_STREAM);
  sluice_relp_port = sl_test_free_port (SOCK_STREAM);
  imtcp_tls_port = sl_test_free_port (SOCK_STREAM);
  sluice_relps_port = sl_test_free_port (SOCK_STREAM);
  imrelp_plain_port = sl_test_free_port (SOCK_STREAM);
  return peer_dir && make_certificates (peer_dir) && write_rsyslog_conf () && start_rsyslogd ();
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  if (!setup_peer ())
    {
      g_printerr ("rsyslogd could not be started\n");
      kill_rsyslogd ();
      return 1;
    }
  SL_TEST_ADD ("/relp/rsyslog/omrelp-to-relp-source", test_omrelp_to_sluice);
  SL_TEST_ADD ("/relp/rsyslog/relp-tls-destination-to-imrelp", test_sluice_to_imrelp);
  SL_TEST_ADD ("/relp/rsyslog/relp-destination-memory-queue-to-imrelp", test_sluice_to_imrelp_memory);
  SL_TEST_ADD ("/relp/rsyslog/omrelp-tls-to-relp-source", test_omrelp_tls_to_sluice);
  gint rc = g_test_run ();
  kill_rsyslogd ();
  const gchar *rm[] = { "rm", "-rf", peer_dir, NULL };
  sl_test_run_argv (rm, NULL, NULL);
  return rc;
}
