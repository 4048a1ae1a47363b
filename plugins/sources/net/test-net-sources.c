/* SPDX-License-Identifier: GPL-2.0-or-later */
/* syslog() on the real daemon with real senders: util-linux logger in its
 * RFC 5424 forms, syslog-ng forwarding with its syslog() destination, and
 * syslog-ng's loggen; every field checked in the output file. And every
 * network source started and stopped with nothing to warn about. */
#include "tests/functional/harness.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static gchar *
port_text (guint16 port)
{
  return g_strdup_printf ("%u", port);
}

static gboolean
have_program (const gchar *name, const gchar *package)
{
  g_autofree gchar *path = g_find_program_in_path (name);
  if (!path)
    {
      g_autofree gchar *why = g_strdup_printf ("%s (%s) is not installed", name, package);
      g_test_skip (why);
    }
  return path != NULL;
}

static gboolean
run (const gchar *const *argv)
{
  g_autofree gchar *err = NULL;
  gint status = sl_test_run_argv (argv, NULL, &err);
  if (status != 0)
    g_test_fail_printf ("%s failed (%d): %s", argv[0], status, err);
  return status == 0;
}

static gchar **
wait_for_lines (SlTestEnv *env, const gchar *name, guint n)
{
  g_autofree gchar *path = sl_test_path (env, name);
  if (!sl_test_wait_lines (env, path, n))
    return NULL;
  gchar **lines = sl_test_read_lines (path);
  g_assert_cmpuint (g_strv_length (lines), ==, n);
  return lines;
}

static const gchar logger_config[] =
  "@version: 4.0\n"
  "source s_tcp { syslog(ip(\"127.0.0.1\") port(@TCP@) keep-hostname(yes)); };\n"
  "source s_udp { syslog(ip(\"127.0.0.1\") port(@UDP@) transport(\"udp\") keep-hostname(yes)); };\n"
  "template t_fields {\n"
  "  template(\"${HOST}|${PROGRAM}|${PID}|${MSGID}|${FACILITY}.${LEVEL}|${.SDATA.zoo@32473.tiger}|${.SDATA.zoo@32473.lion}|${MESSAGE}\\n\");\n"
  "};\n"
  "destination d_tcp { file(\"@DIR@/tcp.log\" template(t_fields)); };\n"
  "destination d_udp { file(\"@DIR@/udp.log\" template(t_fields)); };\n"
  "log { source(s_tcp); destination(d_tcp); };\n"
  "log { source(s_udp); destination(d_udp); };\n";

/* logger writes RFC 5424 with newlines (-T), octet-counted, and over UDP;
 * each field lands where it belongs. */
static void
test_logger (SlTestEnv *env, gconstpointer data)
{
  if (!have_program ("logger", "util-linux"))
    return;
  guint16 tcp = sl_test_free_port (SOCK_STREAM);
  guint16 udp = sl_test_free_port (SOCK_DGRAM);
  g_autofree gchar *tcp_str = port_text (tcp);
  g_autofree gchar *udp_str = port_text (udp);
  if (!tcp || !udp || !sl_test_write_config (env, logger_config, "TCP", tcp_str, "UDP", udp_str, NULL)
      || !sl_test_daemon_start (env))
    return;
  g_autofree gchar *host = g_strndup (g_get_host_name (), strcspn (g_get_host_name (), "."));

  const gchar *newline[] = { "logger", "-n", "127.0.0.1", "-P", tcp_str, "-T", "--rfc5424", "-t", "zoo-keeper",
                             "--id=4242", "-p", "local4.info", "--msgid", "FEED", "--sd-id", "zoo@32473",
                             "--sd-param", "tiger=\"hungry\"", "--sd-param", "lion=\"a \\\"quoted\\\" [b\\]\"",
                             "feeding time", NULL };
  g_auto (GStrv) first = NULL;
  if (!run (newline) || !(first = wait_for_lines (env, "tcp.log", 1)))
    return;
  const gchar *octets[] = { "logger", "-n", "127.0.0.1", "-P", tcp_str, "-T", "--octet-count", "-t", "keeper",
                            "--id=7", "-p", "daemon.err", "counted frame", NULL };
  g_auto (GStrv) lines = NULL;
  if (!run (octets) || !(lines = wait_for_lines (env, "tcp.log", 2)))
    return;
  g_auto (GStrv) f = g_strsplit (lines[0], "|", -1);
  g_assert_cmpuint (g_strv_length (f), ==, 8);
  g_assert_true (g_str_has_prefix (f[0], host));
  g_assert_cmpstr (f[1], ==, "zoo-keeper");
  g_assert_cmpstr (f[2], ==, "4242");
  g_assert_cmpstr (f[3], ==, "FEED");
  g_assert_cmpstr (f[4], ==, "local4.info");
  g_assert_cmpstr (f[5], ==, "hungry");
  g_assert_cmpstr (f[6], ==, "a \"quoted\" [b]");
  g_assert_cmpstr (f[7], ==, "feeding time");
  g_auto (GStrv) g = g_strsplit (lines[1], "|", -1);
  g_assert_cmpstr (g[1], ==, "keeper");
  g_assert_cmpstr (g[2], ==, "7");
  g_assert_cmpstr (g[4], ==, "daemon.err");
  g_assert_cmpstr (g[7], ==, "counted frame");

  const gchar *datagram[] = { "logger", "-d", "-n", "127.0.0.1", "-P", udp_str, "--rfc5424", "-t", "udp-sender",
                              "--id=99", "-p", "user.warning", "--sd-id", "zoo@32473", "--sd-param",
                              "tiger=\"fed\"", "over udp", NULL };
  g_auto (GStrv) udp_lines = NULL;
  if (!run (datagram) || !(udp_lines = wait_for_lines (env, "udp.log", 1)))
    return;
  g_auto (GStrv) u = g_strsplit (udp_lines[0], "|", -1);
  g_assert_cmpstr (u[1], ==, "udp-sender");
  g_assert_cmpstr (u[2], ==, "99");
  g_assert_cmpstr (u[4], ==, "user.warning");
  g_assert_cmpstr (u[5], ==, "fed");
  g_assert_cmpstr (u[7], ==, "over udp");
  g_assert_cmpint (sl_test_stat (env, "source", "s_tcp", "parse_errors"), ==, 0);
}

static const gchar strict_config[] =
  "@version: 4.0\n"
  "source s_net { syslog(ip(\"127.0.0.1\") port(@PORT@) flags(syslog-protocol, no-rfc3164-fallback)); };\n"
  "source s_lax { syslog(ip(\"127.0.0.1\") port(@LAX@)); };\n"
  "destination d_out { file(\"@DIR@/out.log\" template(\"${PROGRAM}|${MESSAGE}\\n\")); };\n"
  "log { source(s_net); source(s_lax); destination(d_out); };\n";

/* syslog() expects RFC 5424 and reads an RFC 3164 line as such, as
 * syslog-ng 3.38 does; with no-rfc3164-fallback that line is a parse
 * error, counted, and becomes syslog-ng's error record. */
static void
test_expects_rfc5424 (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  guint16 lax = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = port_text (port);
  g_autofree gchar *lax_str = port_text (lax);
  if (!port || !lax || !sl_test_write_config (env, strict_config, "PORT", port_str, "LAX", lax_str, NULL)
      || !sl_test_daemon_start (env))
    return;
  if (!sl_test_tcp_send (port, "<13>Nov 29 20:25:57 host app: old style\n"))
    return;
  g_auto (GStrv) lines = wait_for_lines (env, "out.log", 1);
  if (!lines)
    return;
  g_assert_cmpstr (lines[0], ==, "syslog-ng|Error processing log message: <13>@<>Nov 29 20:25:57 host app: old style");
  g_assert_cmpint (sl_test_stat (env, "source", "s_net", "parse_errors"), ==, 1);
  if (!sl_test_tcp_send (lax, "<13>Nov 29 20:25:57 host app: old style\n"))
    return;
  g_auto (GStrv) more = wait_for_lines (env, "out.log", 2);
  if (more)
    g_assert_cmpstr (more[1], ==, "app|old style");
}

/* Its options as --help-driver prints them, a transport it lacks, and
 * TLS without its certificate. */
static void
test_help_and_transport (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *out = NULL;
  gint status = sl_test_run_built ("daemon/sluiced", &out, NULL, "--module-path", sl_test_module_path (),
                                   "--help-driver", "syslog", NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (out, "source syslog():"));
  g_assert_nonnull (strstr (out, "port(port, 1 to 65535) = 601"));
  g_assert_nonnull (strstr (out, ") = syslog-protocol\n"));
  /* the flags() it overrides is listed once */
  g_assert_null (strstr (strstr (out, "flags(") + 1, "\n  flags("));

  static const struct
  {
    const gchar *transport;
    const gchar *message;
  } cases[] = {
    { "tlsv1", ":2:45: 'tlsv1' is not a value of transport(); expected one of: tcp, udp, framed, tls" },
    { "tls", ":2:35: syslog(): transport(\"tls\") needs tls(key-file(...) cert-file(...))" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree gchar *err = sl_test_refused_config (env, "@version: 4.0\n"
                                                      "log { source { syslog(port(16514) transport(\"@T@\")); };\n"
                                                      "      destination { file(\"@DIR@/x\"); }; };\n",
                                                      "T", cases[i].transport, NULL);
      if (err && !strstr (err, cases[i].message))
        g_test_fail_printf ("expected '%s' in:\n%s", cases[i].message, err);
    }
}

static const gchar peer_sluice_config[] =
  "@version: 4.0\n"
  "source s_peer { syslog(ip(\"127.0.0.1\") port(@PORT@) keep-hostname(yes)); };\n"
  "destination d_out { file(\"@DIR@/out.log\" frac-digits(3)\n"
  "  template(\"${HOST}|${PROGRAM}|${PID}|${MSGID}|${FACILITY}.${LEVEL}|${ISODATE}|${.SDATA.zoo@32473.tiger}|${MESSAGE}\\n\")); };\n"
  "log { source(s_peer); destination(d_out); };\n";

static const gchar peer_syslog_ng_config[] =
  "@version: 3.38\n"
  "options { keep-hostname(yes); keep-timestamp(yes); time-reopen(1); stats-freq(0); };\n"
  "source s_in { network(ip(\"127.0.0.1\") port(@IN@) transport(\"tcp\") flags(syslog-protocol)); };\n"
  "destination d_sluice { syslog(\"127.0.0.1\" port(@OUT@) transport(\"tcp\")); };\n"
  "log { source(s_in); destination(d_sluice); };\n";

static GPid
start_syslog_ng (SlTestEnv *env, guint16 in, guint16 out)
{
  g_autofree gchar *in_str = port_text (in);
  g_autofree gchar *out_str = port_text (out);
  g_autofree gchar *conf = sl_test_path (env, "syslog-ng.conf");
  GString *text = g_string_new (peer_syslog_ng_config);
  g_string_replace (text, "@IN@", in_str, 0);
  g_string_replace (text, "@OUT@", out_str, 0);
  gboolean written = g_file_set_contents (conf, text->str, -1, NULL);
  g_string_free (text, TRUE);
  if (!written)
    return 0;
  g_autofree gchar *persist = sl_test_path (env, "syslog-ng.persist");
  g_autofree gchar *pidfile = sl_test_path (env, "syslog-ng.pid");
  g_autofree gchar *ctl = sl_test_path (env, "syslog-ng.ctl");
  const gchar *argv[] = { "syslog-ng", "-F", "-f", conf, "-R", persist, "-p", pidfile, "-c", ctl, NULL };
  GPid pid = 0;
  GError *error = NULL;
  if (!g_spawn_async (env->dir, (gchar **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD
                      | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &pid, &error))
    {
      g_test_fail_printf ("cannot start syslog-ng: %s", error->message);
      g_error_free (error);
      return 0;
    }
  return pid;
}

static void
stop_syslog_ng (GPid pid)
{
  kill (pid, SIGTERM);
  waitpid (pid, NULL, 0);
  g_spawn_close_pid (pid);
}

static void
check_forwarded (SlTestEnv *env, guint16 in)
{
  if (!sl_test_wait_tcp (env, in))
    return;
  g_autofree gchar *in_str = port_text (in);
  const gchar *argv[] = { "logger", "-n", "127.0.0.1", "-P", in_str, "-T", "--rfc5424", "-t", "zoo-keeper",
                          "--id=4242", "-p", "local4.notice", "--msgid", "FEED", "--sd-id", "zoo@32473",
                          "--sd-param", "tiger=\"hungry\"", "through syslog-ng", NULL };
  if (!run (argv))
    return;
  g_auto (GStrv) lines = wait_for_lines (env, "out.log", 1);
  if (!lines)
    return;
  g_autofree gchar *host = g_strndup (g_get_host_name (), strcspn (g_get_host_name (), "."));
  g_auto (GStrv) f = g_strsplit (lines[0], "|", -1);
  g_assert_cmpuint (g_strv_length (f), ==, 8);
  g_assert_true (g_str_has_prefix (f[0], host));
  g_assert_cmpstr (f[1], ==, "zoo-keeper");
  g_assert_cmpstr (f[2], ==, "4242");
  g_assert_cmpstr (f[3], ==, "FEED");
  g_assert_cmpstr (f[4], ==, "local4.notice");
  /* logger's stamp has microseconds and a zone; syslog-ng keeps it */
  g_assert_true (g_regex_match_simple ("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}[+-]\\d\\d:\\d\\d$",
                                       f[5], 0, 0));
  g_assert_cmpstr (f[6], ==, "hungry");
  g_assert_cmpstr (f[7], ==, "through syslog-ng");
  g_assert_cmpint (sl_test_stat (env, "source", "s_peer", "parse_errors"), ==, 0);
}

/* syslog-ng forwards what logger gives it with its syslog() destination:
 * RFC 5424, octet-counted over TCP. */
static void
test_syslog_ng_peer (SlTestEnv *env, gconstpointer data)
{
  if (!have_program ("syslog-ng", "syslog-ng-core") || !have_program ("logger", "util-linux"))
    return;
  guint16 in = sl_test_free_port (SOCK_STREAM);
  guint16 out = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *out_str = port_text (out);
  if (!in || !out || !sl_test_write_config (env, peer_sluice_config, "PORT", out_str, NULL)
      || !sl_test_daemon_start (env))
    return;
  GPid peer = start_syslog_ng (env, in, out);
  if (!peer)
    return;
  check_forwarded (env, in);
  stop_syslog_ng (peer);
}

static const gchar loggen_config[] =
  "@version: 4.0\n"
  "source s_gen { syslog(ip(\"127.0.0.1\") port(@PORT@) keep-hostname(yes)); };\n"
  "destination d_out { file(\"@DIR@/out.log\" template(\"${HOST}|${PROGRAM}|${PID}|${FACILITY}.${LEVEL}|${.SDATA.test.name}|${MESSAGE}\\n\")); };\n"
  "log { source(s_gen); destination(d_out); flags(flow-control); };\n";

#define LOGGEN_COUNT 500

/* loggen sends RFC 5424, octet-counted (-P) and then newline-framed
 * (-P -F), with structured data: each message once, in order, parsed. */
static void
test_loggen (SlTestEnv *env, gconstpointer data)
{
  if (!have_program ("loggen", "syslog-ng-core"))
    return;
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = port_text (port);
  if (!port || !sl_test_write_config (env, loggen_config, "PORT", port_str, NULL) || !sl_test_daemon_start (env))
    return;
  g_autofree gchar *count = g_strdup_printf ("%d", LOGGEN_COUNT);
  const gchar *framed[] = { "loggen", "-i", "-S", "-P", "-p", "[test name=\"value\"]", "-n", count, "-r", "100000",
                            "-s", "300", "-Q", "127.0.0.1", port_str, NULL };
  const gchar *lines_only[] = { "loggen", "-i", "-S", "-P", "-F", "-n", count, "-r", "100000", "-Q", "127.0.0.1",
                                port_str, NULL };
  if (!run (framed) || !run (lines_only))
    return;
  g_auto (GStrv) lines = wait_for_lines (env, "out.log", 2 * LOGGEN_COUNT);
  if (!lines)
    return;
  for (guint i = 0; i < 2 * LOGGEN_COUNT; i++)
    {
      g_autofree gchar *prefix = g_strdup_printf ("localhost|prg00000|1234|auth.info|%s|seq: %010u, ",
                                                  i < LOGGEN_COUNT ? "value" : "", i % LOGGEN_COUNT);
      if (!g_str_has_prefix (lines[i], prefix))
        {
          g_test_fail_printf ("line %u is '%s', expected it to start with '%s'", i + 1, lines[i], prefix);
          return;
        }
    }
  g_assert_cmpint (sl_test_stat (env, "source", "s_gen", "parse_errors"), ==, 0);
}

static const gchar quiet_config[] =
  "@version: 4.0\n"
  "source s_udp { udp(ip(\"127.0.0.1\") port(@UDP@)); };\n"
  "source s_others {\n"
  "  tcp(ip(\"127.0.0.1\") port(@TCP@));\n"
  "  network(ip(\"127.0.0.1\") port(@NET@) transport(\"udp\"));\n"
  "  syslog(ip(\"127.0.0.1\") port(@SYSLOG@) transport(\"udp\"));\n"
  "};\n"
  "destination d_out { file(\"@DIR@/out.log\" template(\"${PROGRAM}|${MESSAGE}\\n\")); };\n"
  "log { source(s_udp); source(s_others); destination(d_out); };\n";

/* A configuration of every network source, none with a mistake in it,
 * starts, runs and stops without a warning or a critical in the log
 * (udp() has no transport() to ask about). */
static void
test_quiet (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *udp = port_text (sl_test_free_port (SOCK_DGRAM));
  g_autofree gchar *tcp = port_text (sl_test_free_port (SOCK_STREAM));
  g_autofree gchar *net = port_text (sl_test_free_port (SOCK_DGRAM));
  g_autofree gchar *syslog = port_text (sl_test_free_port (SOCK_DGRAM));
  if (!sl_test_write_config (env, quiet_config, "UDP", udp, "TCP", tcp, "NET", net, "SYSLOG", syslog, NULL)
      || !sl_test_daemon_start (env)
      || !sl_test_udp_send ((guint16) atoi (udp), "<13>Feb  3 12:34:56 host prog: over udp()"))
    return;
  g_auto (GStrv) lines = wait_for_lines (env, "out.log", 1);
  if (!lines)
    return;
  g_assert_cmpstr (lines[0], ==, "prog|over udp()");
  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
  g_autofree gchar *err = sl_test_daemon_stderr (env);
  g_autofree gchar *lower = g_ascii_strdown (err ? err : "", -1);
  if (strstr (lower, "critical") || strstr (lower, "warning"))
    g_test_fail_printf ("the daemon's log has a critical or a warning:\n%s", err);
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/syslog/logger", test_logger);
  SL_TEST_ADD ("/syslog/expects-rfc5424", test_expects_rfc5424);
  SL_TEST_ADD ("/syslog/help-and-transport", test_help_and_transport);
  SL_TEST_ADD ("/syslog/syslog-ng-peer", test_syslog_ng_peer);
  SL_TEST_ADD ("/syslog/loggen", test_loggen);
  SL_TEST_ADD ("/net/quiet", test_quiet);
  return g_test_run ();
}
