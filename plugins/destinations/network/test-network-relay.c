/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Relay chains: the test sends to a sluiced whose network destination
 * forwards to a second sluiced (or to syslog-ng) that writes a file. What
 * arrives must be every message, in order, with its fields intact. */
#include "plugins/destinations/network/relay-fixture.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define SYSLOG_NG "/usr/sbin/syslog-ng"

static const gchar *const facility_names[] = {
  "local0", "local1", "local2", "local3", "local4", "local5", "local6", "local7",
};

static const gchar *const level_names[] = {
  "emerg", "alert", "crit", "err", "warning", "notice", "info", "debug",
};

/* Message i (from 1) as RFC 3164 and as RFC 5424 input, varying facility,
 * level, host, program, pid and, in RFC 5424, msgid and structured data. */
static guint
pri_of (guint i)
{
  return (16 + i % 8) * 8 + (i / 8) % 8;
}

static gchar *
rfc3164_line (guint i)
{
  return g_strdup_printf ("<%u>Nov 29 20:25:57 host%u prog%u[%u]: message %u with  two spaces\n",
                          pri_of (i), i % 7, i % 5, 1000 + i, i);
}

static gchar *
rfc5424_line (guint i)
{
  return g_strdup_printf ("<%u>1 2026-02-03T12:34:56.%03u+01:00 host%u app%u %u ID%u "
                          "[exampleSDID@32473 iut=\"%u\" eventSource=\"App\"] message %u\n",
                          pri_of (i), i % 1000, i % 7, i % 5, 1000 + i, i % 9, i, i);
}

/* What a receiver writes with FIELDS_TEMPLATE for message i. */
#define FIELDS_TEMPLATE "${FACILITY}.${LEVEL}|${HOST}|${PROGRAM}|${PID}|${MESSAGE}\\n"
#define FIELDS_5424_TEMPLATE \
  "${FACILITY}.${LEVEL}|${ISODATE}|${HOST}|${PROGRAM}|${PID}|${MSGID}|${SDATA}|${MESSAGE}\\n"

static gchar *
rfc3164_fields (guint i)
{
  return g_strdup_printf ("%s.%s|host%u|prog%u|%u|message %u with  two spaces", facility_names[i % 8],
                          level_names[(i / 8) % 8], i % 7, i % 5, 1000 + i, i);
}

static gchar *
rfc5424_fields (guint i)
{
  return g_strdup_printf ("%s.%s|2026-02-03T12:34:56.%03u+01:00|host%u|app%u|%u|ID%u|"
                          "[exampleSDID@32473 iut=\"%u\" eventSource=\"App\"]|message %u",
                          facility_names[i % 8], level_names[(i / 8) % 8], i % 1000, i % 7, i % 5,
                          1000 + i, i % 9, i, i);
}

typedef gchar *(*LineFunc) (guint i);

static GString *
input_lines (LineFunc line, guint count)
{
  GString *out = g_string_new (NULL);
  for (guint i = 1; i <= count; i++)
    {
      gchar *text = line (i);
      g_string_append (out, text);
      g_free (text);
    }
  return out;
}

static gboolean
send_lines (guint16 port, LineFunc line, guint count)
{
  GString *text = input_lines (line, count);
  gint fd = sl_test_tcp_connect (port);
  gboolean ok = fd >= 0 && sl_test_send_all (fd, text->str, text->len);
  if (fd >= 0)
    close (fd);
  g_string_free (text, TRUE);
  return ok;
}

/* Waits for count lines in path and checks that line i is expected (i). */
static void
check_lines (SlTestEnv *env, const gchar *path, LineFunc expected, guint count)
{
  if (!sl_test_wait_lines (env, path, count))
    return;
  g_auto (GStrv) lines = sl_test_read_lines (path);
  g_assert_cmpuint (g_strv_length (lines), ==, count);
  for (guint i = 0; lines && lines[i] && i < count; i++)
    {
      g_autofree gchar *want = expected (i + 1);
      g_assert_cmpstr (lines[i], ==, want);
    }
}

static gchar *
sequence_line (guint i)
{
  return g_strdup_printf ("seq %06u", i);
}

/* Both daemons from their configurations, with the @...@ keys of each;
 * the receiver first. */
static gboolean
start_relay (Relay *relay, const gchar *receiver_config, const gchar *sender_config,
             const gchar *const *keys)
{
  GString *receiver_text = g_string_new (receiver_config);
  GString *sender_text = g_string_new (sender_config);
  for (guint i = 0; keys && keys[i]; i += 2)
    {
      g_autofree gchar *placeholder = g_strdup_printf ("@%s@", keys[i]);
      g_string_replace (receiver_text, placeholder, keys[i + 1], 0);
      g_string_replace (sender_text, placeholder, keys[i + 1], 0);
    }
  g_string_replace (sender_text, "@RDIR@", relay->receiver.dir, 0);
  gboolean ok = sl_test_write_config (&relay->receiver, receiver_text->str, NULL)
                && sl_test_write_config (&relay->sender, sender_text->str, NULL)
                && sl_test_daemon_start (&relay->receiver)
                && sl_test_daemon_start (&relay->sender);
  g_string_free (receiver_text, TRUE);
  g_string_free (sender_text, TRUE);
  return ok;
}

#define RELAY_LINES 300

static const gchar tcp_receiver[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@RPORT@) keep-hostname(yes)); };\n"
  "destination d_file { file(\"@DIR@/out.log\" template(\"" FIELDS_TEMPLATE "\")); };\n"
  "log { source(s_net); destination(d_file); };\n";

static const gchar tcp_sender[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@SPORT@) keep-hostname(yes)); };\n"
  "destination d_relay { tcp(\"127.0.0.1\" port(@RPORT@) time-reopen(1)); };\n"
  "log { source(s_net); destination(d_relay); flags(flow-control); };\n";

static void
test_tcp (Relay *relay, gconstpointer data)
{
  g_autofree gchar *rport = relay_port_text (sl_test_free_port (SOCK_STREAM));
  guint16 sport = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *sport_text = relay_port_text (sport);
  const gchar *keys[] = { "RPORT", rport, "SPORT", sport_text, NULL };
  g_autofree gchar *out = sl_test_path (&relay->receiver, "out.log");
  if (!start_relay (relay, tcp_receiver, tcp_sender, keys) || !send_lines (sport, rfc3164_line, RELAY_LINES))
    return;
  check_lines (&relay->receiver, out, rfc3164_fields, RELAY_LINES);
  sl_test_wait_stat (&relay->sender, "destination", "d_relay", "written", RELAY_LINES);
}

static const gchar workers_receiver[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@RPORT@)); };\n"
  "destination d_file { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_net); destination(d_file); };\n";

static const gchar workers_sender[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@SPORT@)); };\n"
  "destination d_relay { tcp(\"127.0.0.1\" port(@RPORT@) workers(3) flush-lines(10) time-reopen(1)); };\n"
  "log { source(s_net); destination(d_relay); flags(flow-control); };\n";

/* workers(3): three writers, each with a connection of its own, share the
 * queue; every message arrives once, in whatever order. */
static void
test_tcp_workers (Relay *relay, gconstpointer data)
{
  g_autofree gchar *rport = relay_port_text (sl_test_free_port (SOCK_STREAM));
  guint16 sport = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *sport_text = relay_port_text (sport);
  const gchar *keys[] = { "RPORT", rport, "SPORT", sport_text, NULL };
  g_autofree gchar *out = sl_test_path (&relay->receiver, "out.log");
  if (!start_relay (relay, workers_receiver, workers_sender, keys))
    return;
  GString *lines = relay_numbered_lines (1, RELAY_LINES);
  gboolean sent = sl_test_tcp_send (sport, lines->str);
  g_string_free (lines, TRUE);
  if (!sent)
    return;
  guint duplicates = 0;
  g_assert_cmpuint (relay_wait_sequence (&relay->receiver, out, RELAY_LINES, &duplicates), ==, 0);
  g_assert_cmpuint (duplicates, ==, 0);
  g_assert_cmpint (sl_test_stat (&relay->receiver, "source", "s_net", "connections"), ==, 3);
  sl_test_wait_stat (&relay->sender, "destination", "d_relay", "written", RELAY_LINES);
}

/* How many times needle is in text. */
static guint
count_occurrences (const gchar *text, const gchar *needle)
{
  guint n = 0;
  for (const gchar *p = text; (p = strstr (p, needle)); p += strlen (needle))
    n++;
  return n;
}

static const gchar heal_sender[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@SPORT@)); };\n"
  "destination d_relay { tcp(\"127.0.0.1\" port(@RPORT@)); };\n"
  "log { source(s_net); destination(d_relay); flags(flow-control); };\n";

/* A receiver that is not there yet, with the default time-reopen() (a
 * minute): the sender connects within the first few retries of its
 * back-off once it listens, and logs the fault and its end once each. */
static void
test_peer_back_soon (Relay *relay, gconstpointer data)
{
  guint16 rport = sl_test_free_port (SOCK_STREAM);
  guint16 sport = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *rport_text = relay_port_text (rport);
  g_autofree gchar *sport_text = relay_port_text (sport);
  g_autofree gchar *out = sl_test_path (&relay->receiver, "out.log");
  if (!sl_test_write_config (&relay->sender, heal_sender, "RPORT", rport_text, "SPORT", sport_text, NULL)
      || !sl_test_write_config (&relay->receiver, workers_receiver, "RPORT", rport_text, NULL)
      || !sl_test_daemon_start (&relay->sender))
    return;
  GString *lines = relay_numbered_lines (1, RELAY_LINES);
  gboolean sent = sl_test_tcp_send (sport, lines->str);
  g_string_free (lines, TRUE);
  if (!sent || !sl_test_wait_stderr (&relay->sender, "destination cannot write now")
      || !sl_test_daemon_start (&relay->receiver))
    return;
  guint duplicates = 0;
  g_assert_cmpuint (relay_wait_sequence (&relay->receiver, out, RELAY_LINES, &duplicates), ==, 0);
  g_assert_cmpuint (duplicates, ==, 0);
  if (!sl_test_wait_stderr (&relay->sender, "destination writes again"))
    return;
  g_autofree gchar *log = sl_test_daemon_stderr (&relay->sender);
  g_autofree gchar *healed = g_strndup (strstr (log, "destination writes again"), 400);
  g_test_message ("%.*s", (gint) strcspn (healed, "\n"), healed);
  g_assert_cmpuint (count_occurrences (log, "cannot connect"), ==, 1);
  g_assert_cmpuint (count_occurrences (log, "destination cannot write now"), ==, 1);
}

/* syslog() over TCP, octet-counted (to a syslog() source, which expects
 * that framing), and over UDP; ISODATE with the fraction kept by
 * frac-digits(). */
static const gchar syslog_receiver[] =
  "@version: 4.0\n"
  "source s_tcp { syslog(ip(\"127.0.0.1\") port(@RPORT@) keep-hostname(yes)); };\n"
  "source s_udp { syslog(ip(\"127.0.0.1\") port(@RUDP@) transport(\"udp\") keep-hostname(yes) so-rcvbuf(4194304)); };\n"
  "destination d_tcp { file(\"@DIR@/tcp.log\" template(\"" FIELDS_5424_TEMPLATE "\") frac-digits(3)); };\n"
  "destination d_udp { file(\"@DIR@/udp.log\" template(\"" FIELDS_5424_TEMPLATE "\") frac-digits(3)); };\n"
  "log { source(s_tcp); destination(d_tcp); };\n"
  "log { source(s_udp); destination(d_udp); };\n";

static const gchar syslog_sender[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@SPORT@) keep-hostname(yes) flags(syslog-protocol)); };\n"
  "destination d_relay {\n"
  "  syslog(\"127.0.0.1\" port(@RPORT@) frac-digits(3) time-reopen(1));\n"
  "  syslog(\"127.0.0.1\" transport(\"udp\") port(@RUDP@) frac-digits(3));\n"
  "};\n"
  "log { source(s_net); destination(d_relay); flags(flow-control); };\n";

static void
test_syslog (Relay *relay, gconstpointer data)
{
  g_autofree gchar *rport = relay_port_text (sl_test_free_port (SOCK_STREAM));
  g_autofree gchar *rudp = relay_port_text (sl_test_free_port (SOCK_DGRAM));
  guint16 sport = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *sport_text = relay_port_text (sport);
  const gchar *keys[] = { "RPORT", rport, "RUDP", rudp, "SPORT", sport_text, NULL };
  g_autofree gchar *tcp_out = sl_test_path (&relay->receiver, "tcp.log");
  g_autofree gchar *udp_out = sl_test_path (&relay->receiver, "udp.log");
  if (!start_relay (relay, syslog_receiver, syslog_sender, keys) || !send_lines (sport, rfc5424_line, RELAY_LINES))
    return;
  check_lines (&relay->receiver, tcp_out, rfc5424_fields, RELAY_LINES);
  check_lines (&relay->receiver, udp_out, rfc5424_fields, RELAY_LINES);
}

static const gchar udp_receiver[] =
  "@version: 4.0\n"
  "source s_udp { udp(ip(\"127.0.0.1\") port(@RUDP@) so-rcvbuf(4194304)); };\n"
  "destination d_file { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_udp); destination(d_file); };\n";

static const gchar udp_sender[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@SPORT@)); };\n"
  "destination d_relay { @DRIVER@; };\n"
  "log { source(s_net); destination(d_relay); flags(flow-control); };\n";

#define UDP_LINES 2000

static void
run_udp (Relay *relay, const gchar *driver)
{
  g_autofree gchar *rudp = relay_port_text (sl_test_free_port (SOCK_DGRAM));
  guint16 sport = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *sport_text = relay_port_text (sport);
  /* the driver's text names @RUDP@: it goes in first */
  const gchar *keys[] = { "DRIVER", driver, "RUDP", rudp, "SPORT", sport_text, NULL };
  g_autofree gchar *out = sl_test_path (&relay->receiver, "out.log");
  GString *lines = relay_numbered_lines (1, UDP_LINES);
  gboolean ok = start_relay (relay, udp_receiver, udp_sender, keys) && sl_test_tcp_send (sport, lines->str);
  g_string_free (lines, TRUE);
  if (!ok)
    return;
  guint duplicates = 0;
  g_assert_cmpuint (relay_wait_sequence (&relay->receiver, out, UDP_LINES, &duplicates), ==, 0);
  g_assert_cmpuint (duplicates, ==, 0);
  g_assert_cmpint (sl_test_stat (&relay->receiver, "source", "s_udp", "received"), ==, UDP_LINES);
}

static void
test_udp (Relay *relay, gconstpointer data)
{
  run_udp (relay, "udp(\"127.0.0.1\" port(@RUDP@))");
}

static void
test_network_udp (Relay *relay, gconstpointer data)
{
  run_udp (relay, "network(\"127.0.0.1\" transport(udp) port(@RUDP@))");
}

#define LARGE_LEN 30000

static void
test_udp_large_datagram (Relay *relay, gconstpointer data)
{
  g_autofree gchar *rudp = relay_port_text (sl_test_free_port (SOCK_DGRAM));
  guint16 sport = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *sport_text = relay_port_text (sport);
  g_autofree gchar *driver = g_strdup_printf ("udp(\"127.0.0.1\" port(%s))", rudp);
  const gchar *keys[] = { "RUDP", rudp, "SPORT", sport_text, "DRIVER", driver, NULL };
  g_autofree gchar *out = sl_test_path (&relay->receiver, "out.log");
  g_autofree gchar *body = g_strnfill (LARGE_LEN, 'x');
  for (guint i = 0; i < LARGE_LEN; i += 1000)
    body[i] = 'a' + (i / 1000) % 26;
  g_autofree gchar *line = g_strdup_printf ("<13>Nov 29 20:25:57 bighost app: %s\n", body);
  if (!start_relay (relay, udp_receiver, udp_sender, keys) || !sl_test_tcp_send (sport, line)
      || !sl_test_wait_lines (&relay->receiver, out, 1))
    return;
  g_auto (GStrv) lines = sl_test_read_lines (out);
  g_assert_cmpuint (g_strv_length (lines), ==, 1);
  g_assert_cmpstr (lines[0], ==, body);
  g_assert_cmpint (sl_test_stat (&relay->receiver, "source", "s_udp", "received"), ==, 1);
}

static const gchar unix_receiver[] =
  "@version: 4.0\n"
  "source s_stream { unix-stream(\"@DIR@/stream.sock\"); };\n"
  "source s_dgram { unix-dgram(\"@DIR@/dgram.sock\"); };\n"
  "destination d_stream { file(\"@DIR@/stream.log\" template(\"${MESSAGE}\\n\")); };\n"
  "destination d_dgram { file(\"@DIR@/dgram.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_stream); destination(d_stream); };\n"
  "log { source(s_dgram); destination(d_dgram); };\n";

static const gchar unix_sender[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@SPORT@)); };\n"
  "destination d_relay {\n"
  "  unix-stream(\"@RDIR@/stream.sock\" time-reopen(1));\n"
  "  unix-dgram(\"@RDIR@/dgram.sock\" time-reopen(1));\n"
  "};\n"
  "log { source(s_net); destination(d_relay); flags(flow-control); };\n";

#define UNIX_LINES 2000

static void
test_unix (Relay *relay, gconstpointer data)
{
  guint16 sport = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *sport_text = relay_port_text (sport);
  const gchar *keys[] = { "SPORT", sport_text, NULL };
  g_autofree gchar *stream_out = sl_test_path (&relay->receiver, "stream.log");
  g_autofree gchar *dgram_out = sl_test_path (&relay->receiver, "dgram.log");
  GString *lines = relay_numbered_lines (1, UNIX_LINES);
  gboolean ok = start_relay (relay, unix_receiver, unix_sender, keys) && sl_test_tcp_send (sport, lines->str);
  g_string_free (lines, TRUE);
  if (!ok)
    return;
  check_lines (&relay->receiver, stream_out, sequence_line, UNIX_LINES);
  check_lines (&relay->receiver, dgram_out, sequence_line, UNIX_LINES);
}

/* The primary is on ::1, where nothing listens; the failover server is
 * 127.0.0.1 on the same port. */
static const gchar failover_receiver[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"@ADDR@\") port(@RPORT@)); };\n"
  "destination d_file { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_net); destination(d_file); };\n";

static const gchar failover_sender[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@SPORT@)); };\n"
  "destination d_relay { tcp(\"::1\" port(@RPORT@) time-reopen(1)\n"
  "                          failover(servers(\"127.0.0.1\") @FAILBACK@)); };\n"
  "log { source(s_net); destination(d_relay); flags(flow-control); };\n";

#define FAILOVER_LINES 500

static void
test_failover (Relay *relay, gconstpointer data)
{
  g_autofree gchar *rport = relay_port_text (sl_test_free_port (SOCK_STREAM));
  guint16 sport = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *sport_text = relay_port_text (sport);
  const gchar *keys[] = { "RPORT", rport, "SPORT", sport_text, "ADDR", "127.0.0.1", "FAILBACK", "", NULL };
  g_autofree gchar *out = sl_test_path (&relay->receiver, "out.log");
  GString *lines = relay_numbered_lines (1, FAILOVER_LINES);
  gboolean ok = start_relay (relay, failover_receiver, failover_sender, keys) && sl_test_tcp_send (sport, lines->str);
  g_string_free (lines, TRUE);
  if (!ok)
    return;
  check_lines (&relay->receiver, out, sequence_line, FAILOVER_LINES);
  g_autofree gchar *stderr_text = sl_test_daemon_stderr (&relay->sender);
  g_assert_nonnull (strstr (stderr_text, "after='cannot connect to ::1 port"));
}

/* With failback(), the primary is probed while the failover server is in
 * use; once it answers, messages go to it again. */
static void
test_failback (Relay *relay, gconstpointer data)
{
  g_autofree gchar *rport = relay_port_text (sl_test_free_port (SOCK_STREAM));
  guint16 sport = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *sport_text = relay_port_text (sport);
  const gchar *keys[] = {
    "RPORT", rport, "SPORT", sport_text, "ADDR", "127.0.0.1",
    "FAILBACK", "failback(tcp-probe-interval(1) successful-probes-required(1))", NULL
  };
  g_autofree gchar *secondary_out = sl_test_path (&relay->receiver, "out.log");
  g_autofree gchar *primary_out = sl_test_path (&relay->peer, "out.log");
  GString *config = g_string_new (failover_receiver);
  g_string_replace (config, "@ADDR@", "::1", 0);
  g_string_replace (config, "@RPORT@", rport, 0);
  gboolean ok = start_relay (relay, failover_receiver, failover_sender, keys)
                && sl_test_write_config (&relay->peer, config->str, NULL);
  g_string_free (config, TRUE);
  gint fd = ok ? sl_test_tcp_connect (sport) : -1;
  if (fd < 0)
    return;

  /* one message at a time, so each batch goes where the sender stands */
  guint seq = 0;
  GString *line = g_string_new (NULL);
  ok = TRUE;
  for (; ok && seq < 10; seq++)
    {
      g_string_printf (line, "<13>Nov 29 20:25:57 h app: seq %06u\n", seq + 1);
      ok = sl_test_send_all (fd, line->str, line->len) && sl_test_wait_lines (&relay->receiver, secondary_out, seq + 1);
    }
  ok = ok && sl_test_daemon_start (&relay->peer);
  gint64 deadline = g_get_monotonic_time () + SL_TEST_DEADLINE_MS * 1000;
  while (ok && sl_test_count_lines (primary_out) == 0 && g_get_monotonic_time () < deadline)
    {
      seq++;
      g_string_printf (line, "<13>Nov 29 20:25:57 h app: seq %06u\n", seq);
      ok = sl_test_send_all (fd, line->str, line->len);
      g_usleep (100 * 1000);
    }
  g_string_free (line, TRUE);
  close (fd);
  if (!ok)
    return;
  g_assert_cmpuint (sl_test_count_lines (primary_out), >, 0);

  /* nothing was lost on the way back: every number is in one file or the other */
  guint in_primary = sl_test_count_lines (primary_out);
  if (!sl_test_wait_lines (&relay->receiver, secondary_out, seq - in_primary))
    return;
  g_autofree gchar *secondary = sl_test_read_file (secondary_out);
  g_autofree gchar *primary = sl_test_read_file (primary_out);
  for (guint i = 1; i <= seq; i++)
    {
      g_autofree gchar *needle = g_strdup_printf ("seq %06u\n", i);
      if (!strstr (secondary, needle) && !strstr (primary, needle))
        g_test_fail_printf ("seq %u reached neither the primary nor the failover server", i);
    }
  g_autofree gchar *stderr_text = sl_test_daemon_stderr (&relay->sender);
  g_assert_nonnull (strstr (stderr_text, "failing back"));
}

/* syslog-ng from Debian receives from network() (the legacy form) and
 * from syslog() (RFC 5424, octet-counted). */
static const gchar syslog_ng_config[] =
  "@version: current\n"
  "options { keep-hostname(yes); stats-freq(0); };\n"
  "source s_legacy { network(ip(\"127.0.0.1\") port(@LPORT@) transport(\"tcp\")); };\n"
  "source s_5424 { syslog(ip(\"127.0.0.1\") port(@SPORT5424@) transport(\"tcp\")); };\n"
  "destination d_legacy { file(\"@DIR@/legacy.log\" template(\"" FIELDS_TEMPLATE "\")); };\n"
  "destination d_5424 { file(\"@DIR@/rfc5424.log\" template(\"" FIELDS_5424_TEMPLATE "\")\n"
  "                          frac-digits(3) time-zone(\"+01:00\")); };\n"
  "log { source(s_legacy); destination(d_legacy); };\n"
  "log { source(s_5424); destination(d_5424); };\n";

static const gchar syslog_ng_sender[] =
  "@version: 4.0\n"
  "source s_legacy { tcp(ip(\"127.0.0.1\") port(@IN_LEGACY@) keep-hostname(yes)); };\n"
  "source s_5424 { tcp(ip(\"127.0.0.1\") port(@IN_5424@) keep-hostname(yes) flags(syslog-protocol)); };\n"
  "destination d_legacy { network(\"127.0.0.1\" port(@LPORT@) time-reopen(1)); };\n"
  "destination d_5424 { syslog(\"127.0.0.1\" port(@SPORT5424@) frac-digits(3) time-reopen(1)); };\n"
  "log { source(s_legacy); destination(d_legacy); flags(flow-control); };\n"
  "log { source(s_5424); destination(d_5424); flags(flow-control); };\n";

static gboolean
start_syslog_ng (SlTestEnv *env)
{
  g_autofree gchar *persist = sl_test_path (env, "syslog-ng.persist");
  const gchar *argv[] = {
    SYSLOG_NG, "-F", "-f", env->config, "-R", persist, "-p", env->pidfile, "-c", env->control, "--no-caps", NULL
  };
  gint out = open (env->stderr_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  GError *error = NULL;
  gboolean spawned = out >= 0
                     && g_spawn_async_with_pipes_and_fds (env->dir, argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL,
                                                          NULL, -1, out, out, NULL, NULL, 0, &env->pid, NULL,
                                                          NULL, NULL, &error);
  if (out >= 0)
    close (out);
  if (!spawned)
    {
      g_test_fail_printf ("cannot start syslog-ng: %s", error ? error->message : "no stderr file");
      g_clear_error (&error);
      env->pid = 0;
    }
  return spawned;
}

#define PEER_LINES 200

static void
test_syslog_ng_peer (Relay *relay, gconstpointer data)
{
  if (!g_file_test (SYSLOG_NG, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip (SYSLOG_NG " is not installed (Debian package syslog-ng-core; quickstart installs it)");
      return;
    }
  SlTestEnv *peer = &relay->receiver;
  guint16 lport = sl_test_free_port (SOCK_STREAM);
  guint16 sport5424 = sl_test_free_port (SOCK_STREAM);
  guint16 in_legacy = sl_test_free_port (SOCK_STREAM);
  guint16 in_5424 = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *lport_text = relay_port_text (lport);
  g_autofree gchar *sport_text = relay_port_text (sport5424);
  g_autofree gchar *in_legacy_text = relay_port_text (in_legacy);
  g_autofree gchar *in_5424_text = relay_port_text (in_5424);
  g_autofree gchar *legacy_out = sl_test_path (peer, "legacy.log");
  g_autofree gchar *rfc5424_out = sl_test_path (peer, "rfc5424.log");
  if (!sl_test_write_config (peer, syslog_ng_config, "LPORT", lport_text, "SPORT5424", sport_text, NULL)
      || !start_syslog_ng (peer) || !sl_test_wait_tcp (peer, lport) || !sl_test_wait_tcp (peer, sport5424)
      || !sl_test_write_config (&relay->sender, syslog_ng_sender, "LPORT", lport_text, "SPORT5424", sport_text,
                                "IN_LEGACY", in_legacy_text, "IN_5424", in_5424_text, NULL)
      || !sl_test_daemon_start (&relay->sender)
      || !send_lines (in_legacy, rfc3164_line, PEER_LINES) || !send_lines (in_5424, rfc5424_line, PEER_LINES))
    return;
  check_lines (peer, legacy_out, rfc3164_fields, PEER_LINES);
  check_lines (peer, rfc5424_out, rfc5424_fields, PEER_LINES);
  g_assert_cmpint (sl_test_daemon_stop (&relay->sender, SIGTERM), ==, 0);
  g_assert_cmpint (sl_test_daemon_stop (peer, SIGTERM), ==, 0);
}

/* Mistakes in a destination are refused with their position. */
static void
test_config_errors (Relay *relay, gconstpointer data)
{
  static const struct
  {
    const gchar *driver;
    const gchar *message;
  } cases[] = {
    { "udp(\"127.0.0.1\" failover(servers(\"::1\")))", "failover() needs transport(tcp)" },
    { "tcp(\"127.0.0.1\" failover(failback()))", "failover() needs servers(" },
    { "tcp(\"127.0.0.1\" failover(servers(\"::1\") failback(probe(1))))", "unknown option 'probe'" },
    { "network(\"127.0.0.1\" transport(tlsv1))", "'tlsv1' is not a value of transport(); expected one of: tcp, udp, tls" },
    { "tcp(\"127.0.0.1\" so-sndbuf(lots))", "expects a size such as" },
    { "tcp(\"127.0.0.1\" failover(servers(\"::1\") failback(tcp-probe-interval(soon))))", "expects a duration" },
    { "unix-stream(\"/tmp/x\" workers(2))", "unknown option 'workers' in unix-stream()" },
    { "syslog(port(601))", "syslog() needs the host to send to" },
    { "tcp(\"127.0.0.1\" ip-protocol(5))", "'5' is not a value of ip-protocol(); expected one of: 0, 4, 6" },
    { "unix-stream(template(\"$MSG\"))", "unix-stream() needs the path of the socket" },
  };
  const gchar *module_path = sl_test_module_path ();
  if (!module_path)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree gchar *config = g_strdup_printf ("@version: 4.0\n"
                                                  "source s { internal(); };\n"
                                                  "destination d { %s; };\n"
                                                  "log { source(s); destination(d); };\n", cases[i].driver);
      g_autofree gchar *err = NULL;
      if (!sl_test_write_config (&relay->sender, config, NULL))
        return;
      gint status = sl_test_run_built ("daemon/sluiced", NULL, &err, "-s", "-f", relay->sender.config,
                                       "--module-path", module_path, NULL);
      g_assert_cmpint (status, ==, 1);
      g_assert_nonnull (strstr (err, "sluice.conf:3:"));
      if (!strstr (err, cases[i].message))
        g_test_fail_printf ("%s: expected '%s' in:\n%s", cases[i].driver, cases[i].message, err);
    }
}

gint
main (gint argc, gchar **argv)
{
  sl_test_init (&argc, &argv);
  RELAY_TEST_ADD ("/network/relay/tcp", test_tcp);
  RELAY_TEST_ADD ("/network/relay/tcp-workers", test_tcp_workers);
  RELAY_TEST_ADD ("/network/relay/peer-back-soon", test_peer_back_soon);
  RELAY_TEST_ADD ("/network/relay/syslog", test_syslog);
  RELAY_TEST_ADD ("/network/relay/udp", test_udp);
  RELAY_TEST_ADD ("/network/relay/network-udp", test_network_udp);
  RELAY_TEST_ADD ("/network/relay/udp-large-datagram", test_udp_large_datagram);
  RELAY_TEST_ADD ("/network/relay/unix", test_unix);
  RELAY_TEST_ADD ("/network/relay/failover", test_failover);
  RELAY_TEST_ADD ("/network/relay/failback", test_failback);
  RELAY_TEST_ADD ("/network/peer/syslog-ng", test_syslog_ng_peer);
  RELAY_TEST_ADD ("/network/config-errors", test_config_errors);
  return g_test_run ();
}
