/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Messages in, files out: the real daemon receives syslog over TCP, UDP
 * and unix sockets, from the test and from util-linux logger, and writes
 * them where its configuration says. */
#include "tests/functional/harness.h"

#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static const gchar *const month_names[] = {
  "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
};

/* The RFC 3164 form of t, "Nov  9 20:25:57", whatever the locale. */
static gchar *
bsd_stamp (GDateTime *t)
{
  return g_strdup_printf ("%s %2d %02d:%02d:%02d", month_names[g_date_time_get_month (t) - 1],
                          g_date_time_get_day_of_month (t), g_date_time_get_hour (t),
                          g_date_time_get_minute (t), g_date_time_get_second (t));
}

/* Now, to the second, in the local zone the daemon also uses. */
static GDateTime *
now_to_the_second (void)
{
  GDateTime *now = g_date_time_new_now_local ();
  GDateTime *t = g_date_time_add (now, -(g_date_time_get_microsecond (now)));
  g_date_time_unref (now);
  return t;
}

static gchar *
port_text (guint16 port)
{
  return g_strdup_printf ("%u", port);
}

/* The host name local messages carry: the short one. */
static gchar *
local_host (void)
{
  const gchar *full = g_get_host_name ();
  return g_strndup (full, strcspn (full, "."));
}

/* Checks that path holds exactly expected; waits for its line count first. */
static gboolean
check_file (SlTestEnv *env, const gchar *name, const gchar *expected)
{
  g_autofree gchar *path = sl_test_path (env, name);
  guint lines = 0;
  for (const gchar *p = expected; (p = strchr (p, '\n')); p++)
    lines++;
  if (lines && !sl_test_wait_lines (env, path, lines))
    return FALSE;
  g_autofree gchar *text = sl_test_read_file (path);
  if (!lines && !text)
    return TRUE;
  g_assert_cmpstr (text, ==, expected);
  return g_strcmp0 (text, expected) == 0;
}

static const gchar macro_path_config[] =
  "@version: 4.0\n"
  "options { create-dirs(yes); };\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@) keep-hostname(yes)); };\n"
  "destination d_hosts {\n"
  "  file(\"@DIR@/logs/${HOST}/${PROGRAM}.log\"\n"
  "       template(\"${ISODATE} ${HOST} ${PROGRAM}[${PID}]: ${MESSAGE} ${FACILITY}.${LEVEL}\\n\"));\n"
  "};\n"
  "log { source(s_net); destination(d_hosts); };\n";

static void
test_macro_paths (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = port_text (port);
  if (!port || !sl_test_write_config (env, macro_path_config, "PORT", port_str, NULL)
      || !sl_test_daemon_start (env))
    return;

  g_autoptr (GDateTime) when = now_to_the_second ();
  g_autofree gchar *stamp = bsd_stamp (when);
  g_autofree gchar *iso = g_date_time_format (when, "%Y-%m-%dT%H:%M:%S%:z");
  g_autofree gchar *input = g_strdup_printf (
    "<13>%1$s web1 nginx[42]: hello 1\n"
    "<13>%1$s web1 nginx[42]: hello 2\n"
    "<86>%1$s db2 postgres[7]: checkpoint complete\n"
    "<38>%1$s web1 sshd[1000]: Accepted publickey for root\n", stamp);
  if (!sl_test_tcp_send (port, input))
    return;

  g_autofree gchar *nginx = g_strdup_printf ("%1$s web1 nginx[42]: hello 1 user.notice\n"
                                             "%1$s web1 nginx[42]: hello 2 user.notice\n", iso);
  g_autofree gchar *postgres = g_strdup_printf ("%s db2 postgres[7]: checkpoint complete authpriv.info\n", iso);
  g_autofree gchar *sshd = g_strdup_printf ("%s web1 sshd[1000]: Accepted publickey for root auth.info\n", iso);
  check_file (env, "logs/web1/nginx.log", nginx);
  check_file (env, "logs/db2/postgres.log", postgres);
  check_file (env, "logs/web1/sshd.log", sshd);

  /* the date is right in its own form too, whatever the zone */
  g_autofree gchar *path = sl_test_path (env, "logs/db2/postgres.log");
  g_autofree gchar *text = sl_test_read_file (path);
  g_assert_true (text && g_regex_match_simple ("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d[+-]\\d\\d:\\d\\d db2 ",
                                               text, 0, 0));

  /* nothing else was made */
  g_autofree gchar *logs = sl_test_path (env, "logs");
  GDir *dir = g_dir_open (logs, 0, NULL);
  guint hosts = 0;
  while (dir && g_dir_read_name (dir))
    hosts++;
  if (dir)
    g_dir_close (dir);
  g_assert_cmpuint (hosts, ==, 2);
}

/* logger sends RFC 5424 over the network unless told --rfc3164: the
 * network sources take both with detect-syslog-protocol */
static const gchar logger_config[] =
  "@version: 4.0\n"
  "source s_tcp { tcp(ip(\"127.0.0.1\") port(@TCP@) flags(detect-syslog-protocol)); };\n"
  "source s_framed { network(ip(\"127.0.0.1\") port(@FRAMED@) transport(\"framed\") flags(detect-syslog-protocol)); };\n"
  "source s_udp { udp(ip(\"127.0.0.1\") port(@UDP@) flags(detect-syslog-protocol)); };\n"
  "source s_stream { unix-stream(\"@DIR@/stream.sock\"); };\n"
  "source s_dgram { unix-dgram(\"@DIR@/dgram.sock\"); };\n"
  "template t_line { template(\"${HOST} ${PROGRAM}[${PID}] ${FACILITY}.${LEVEL} ${MESSAGE}\\n\"); };\n"
  "destination d_tcp { file(\"@DIR@/tcp.log\" template(t_line)); };\n"
  "destination d_udp { file(\"@DIR@/udp.log\" template(t_line)); };\n"
  "destination d_stream { file(\"@DIR@/stream.log\" template(t_line)); };\n"
  "destination d_dgram { file(\"@DIR@/dgram.log\" template(t_line)); };\n"
  "log { source(s_tcp); source(s_framed); destination(d_tcp); };\n"
  "log { source(s_udp); destination(d_udp); };\n"
  "log { source(s_stream); destination(d_stream); };\n"
  "log { source(s_dgram); destination(d_dgram); };\n";

/* Runs logger with the options given and the message last. */
static gboolean
run_logger (const gchar *const *options, const gchar *message)
{
  GPtrArray *argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (gpointer) "logger");
  for (guint i = 0; options[i]; i++)
    g_ptr_array_add (argv, (gpointer) options[i]);
  const gchar *common[] = { "-t", "myprog", "--id=4242", "-p", "local3.err", message, NULL };
  for (guint i = 0; common[i]; i++)
    g_ptr_array_add (argv, (gpointer) common[i]);
  g_ptr_array_add (argv, NULL);
  g_autofree gchar *err = NULL;
  gint status = sl_test_run_argv ((const gchar *const *) argv->pdata, NULL, &err);
  g_ptr_array_unref (argv);
  if (status != 0)
    {
      g_test_message ("logger's stderr:\n%s", err);
      g_test_fail_printf ("logger failed (%d) for '%s'", status, message);
    }
  return status == 0;
}

static void
test_logger (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *logger = g_find_program_in_path ("logger");
  if (!logger)
    {
      g_test_skip ("logger from util-linux is not installed");
      return;
    }
  guint16 tcp = sl_test_free_port (SOCK_STREAM);
  guint16 framed = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *framed_str = port_text (framed);
  guint16 udp = sl_test_free_port (SOCK_DGRAM);
  g_autofree gchar *tcp_str = port_text (tcp);
  g_autofree gchar *udp_str = port_text (udp);
  g_autofree gchar *stream = sl_test_path (env, "stream.sock");
  g_autofree gchar *dgram = sl_test_path (env, "dgram.sock");
  if (!tcp || !udp || !framed
      || !sl_test_write_config (env, logger_config, "TCP", tcp_str, "UDP", udp_str, "FRAMED", framed_str, NULL)
      || !sl_test_daemon_start (env) || !sl_test_wait_socket (env, stream) || !sl_test_wait_socket (env, dgram))
    return;
  g_autofree gchar *tcp_log = sl_test_path (env, "tcp.log");
  g_autofree gchar *here = local_host ();

  /* one at a time: each connection is read on its own thread, so two
   * senders have no order between them */
  const gchar *rfc3164[] = { "-n", "127.0.0.1", "-P", tcp_str, "-T", "--rfc3164", NULL };
  const gchar *rfc5424[] = { "-n", "127.0.0.1", "-P", tcp_str, "-T", "--rfc5424", NULL };
  /* octet counting goes to a source that declares it */
  const gchar *octets[] = { "-n", "127.0.0.1", "-P", framed_str, "-T", "--octet-count", NULL };
  if (!run_logger (rfc3164, "hello over tcp in rfc3164")
      || !sl_test_wait_lines (env, tcp_log, 1)
      || !run_logger (rfc5424, "hello over tcp in rfc5424")
      || !sl_test_wait_lines (env, tcp_log, 2)
      || !run_logger (octets, "hello over tcp, octet-counted"))
    return;
  /* keep-hostname(no): HOST is the sender's address, not its name */
  check_file (env, "tcp.log",
              "127.0.0.1 myprog[4242] local3.err hello over tcp in rfc3164\n"
              "127.0.0.1 myprog[4242] local3.err hello over tcp in rfc5424\n"
              "127.0.0.1 myprog[4242] local3.err hello over tcp, octet-counted\n");

  const gchar *over_udp[] = { "-d", "-n", "127.0.0.1", "-P", udp_str, NULL };
  if (run_logger (over_udp, "hello over udp"))
    check_file (env, "udp.log", "127.0.0.1 myprog[4242] local3.err hello over udp\n");

  /* local sockets: no sender address, so HOST is this host's name */
  const gchar *over_stream[] = { "-u", stream, NULL };
  if (run_logger (over_stream, "hello over unix-stream"))
    {
      g_autofree gchar *expected = g_strdup_printf ("%s myprog[4242] local3.err hello over unix-stream\n", here);
      check_file (env, "stream.log", expected);
    }
  const gchar *over_dgram[] = { "-d", "-u", dgram, NULL };
  if (run_logger (over_dgram, "hello over unix-dgram"))
    {
      g_autofree gchar *expected = g_strdup_printf ("%s myprog[4242] local3.err hello over unix-dgram\n", here);
      check_file (env, "dgram.log", expected);
    }
}

static const gchar local_sockets_config[] =
  "@version: 4.0\n"
  "source s_local { unix-stream(\"@DIR@/stream.sock\"); unix-dgram(\"@DIR@/dgram.sock\"); };\n"
  "destination d_all { file(\"@DIR@/all.log\" template(\"${PROGRAM}: ${MESSAGE}\\n\")); };\n"
  "log { source(s_local); destination(d_all); };\n";

/* What glibc's syslog(3) writes: no host name, and on a stream socket
 * each message ends with a NUL instead of a newline. */
static void
test_local_sockets_nul_framing (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *stream = sl_test_path (env, "stream.sock");
  g_autofree gchar *dgram = sl_test_path (env, "dgram.sock");
  if (!sl_test_write_config (env, local_sockets_config, NULL) || !sl_test_daemon_start (env)
      || !sl_test_wait_socket (env, stream) || !sl_test_wait_socket (env, dgram))
    return;
  g_autofree gchar *log = sl_test_path (env, "all.log");
  gint fd = sl_test_unix_connect (stream, SOCK_STREAM);
  if (fd < 0)
    return;
  static const gchar two[] = "<14>Nov 29 20:25:57 app[1]: first\0<14>Nov 29 20:25:57 app[1]: second";
  gboolean sent = sl_test_send_all (fd, two, sizeof two);
  close (fd);
  if (!sent || !sl_test_wait_lines (env, log, 2))
    return;
  if (!sl_test_unix_send (dgram, SOCK_DGRAM, "<14>Nov 29 20:25:57 other: third")
      || !check_file (env, "all.log", "app: first\napp: second\nother: third\n"))
    return;
  /* the daemon cleans up the socket files it made */
  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
  g_assert_false (g_file_test (stream, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (dgram, G_FILE_TEST_EXISTS));
}

static const gchar rfc5424_config[] =
  "@version: 4.0\n"
  "source s_net { network(ip(\"127.0.0.1\") port(@PORT@) transport(\"udp\") flags(syslog-protocol) keep-hostname(yes)); };\n"
  "destination d_file {\n"
  "  file(\"@DIR@/out.log\" frac-digits(3)\n"
  "       template(\"${ISODATE}|${HOST}|${PROGRAM}|${PID}|${MSGID}|${SDATA}|${.SDATA.origin@32473.ip}|${MESSAGE}\\n\"));\n"
  "};\n"
  "log { source(s_net); destination(d_file); };\n";

/* RFC 5424 end to end, over network(transport("udp") flags(syslog-protocol)): the timestamp keeps
 * its zone and fraction, structured data is kept and addressable. */
static void
test_rfc5424 (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_DGRAM);
  g_autofree gchar *port_str = port_text (port);
  if (!port || !sl_test_write_config (env, rfc5424_config, "PORT", port_str, NULL) || !sl_test_daemon_start (env))
    return;
  if (!sl_test_udp_send (port, "<165>1 2026-11-29T20:25:57.123+01:00 mymachine.example.com evntslog 99 ID47 "
                               "[origin@32473 ip=\"192.0.2.1\" software=\"x\"] BOMless message"))
    return;
  check_file (env, "out.log",
              "2026-11-29T20:25:57.123+01:00|mymachine.example.com|evntslog|99|ID47|"
              "[origin@32473 ip=\"192.0.2.1\" software=\"x\"]|192.0.2.1|BOMless message\n");
}

static const gchar global_time_zone_config[] =
  "@version: 4.0\n"
  "options { time-zone(\"+05:00\"); };\n"
  "source s_net { syslog(ip(\"127.0.0.1\") port(@PORT@) transport(\"udp\")); };\n"
  "destination d_file { file(\"@DIR@/out.log\" template(\"${ISODATE} ${MESSAGE}\\n\")); };\n"
  "log { source(s_net); destination(d_file); };\n";

/* options { time-zone(); } loads, and is send-time-zone() as in syslog-ng
 * 3.38: stamps are written in that zone. */
static void
test_global_time_zone (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_DGRAM);
  g_autofree gchar *port_str = port_text (port);
  if (!port || !sl_test_write_config (env, global_time_zone_config, "PORT", port_str, NULL)
      || !sl_test_daemon_start (env)
      || !sl_test_udp_send (port, "<13>1 2026-11-29T20:25:57+01:00 host app - - - zoned"))
    return;
  check_file (env, "out.log", "2026-11-30T00:25:57+05:00 zoned\n");
}

/* $(if)'s filter is compiled as a configuration of its own: what is
 * compiled after it still finds the template objects and functions. */
static const gchar template_functions_config[] =
  "@version: 4.0\n"
  "template t_named { template(\"named ${PROGRAM}\"); };\n"
  "template-function \"tf\" \"<${HOST}>\";\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@) keep-hostname(yes)); };\n"
  "destination d_file {\n"
  "  file(\"@DIR@/$(lowercase ${HOST}).log\" template(\"$(uppercase ${PROGRAM}) $(echo ${MESSAGE} done)\\n\"));\n"
  "};\n"
  "destination d_after_if {\n"
  "  file(\"@DIR@/after-if.log\" template(\"$(if ('${PROGRAM}' eq 'Nginx') yes no) $(template t_named) $(tf)\\n\"));\n"
  "};\n"
  "log { source(s_net); destination(d_file); destination(d_after_if); };\n";

static void
test_template_functions (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = port_text (port);
  if (!port || !sl_test_write_config (env, template_functions_config, "PORT", port_str, NULL)
      || !sl_test_daemon_start (env))
    return;
  if (!sl_test_tcp_send (port, "<13>Nov 29 20:25:57 WebServer Nginx: Hello World\n"))
    return;
  check_file (env, "webserver.log", "NGINX Hello World done\n");
  check_file (env, "after-if.log", "yes named Nginx <WebServer>\n");
}

static const gchar one_file_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_file { file(\"@DIR@/out.log\" template(\"${PROGRAM}: ${MESSAGE}\\n\")); };\n"
  "log { source(s_net); destination(d_file); };\n";

/* A sender that closes without a final newline still has its last
 * message delivered. */
static void
test_last_line_without_newline (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = port_text (port);
  if (!port || !sl_test_write_config (env, one_file_config, "PORT", port_str, NULL) || !sl_test_daemon_start (env))
    return;
  if (sl_test_tcp_send (port, "<13>Nov 29 20:25:57 h app: complete\r\n<13>Nov 29 20:25:57 h app: cut short"))
    check_file (env, "out.log", "app: complete\napp: cut short\n");
}

static const gchar escape_config[] =
  "@version: 4.0\n"
  "options { create-dirs(yes); };\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@) keep-hostname(yes)); };\n"
  "destination d_hosts { file(\"@DIR@/logs/${HOST}/${PROGRAM}.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_net); destination(d_hosts); };\n";

/* Whoever sends a message chooses its HOST and PROGRAM: a file path made
 * of them must not lead out of the folder the configuration names. */
static void
test_file_path_stays_inside (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = port_text (port);
  if (!port || !sl_test_write_config (env, escape_config, "PORT", port_str, NULL) || !sl_test_daemon_start (env))
    return;
  if (!sl_test_tcp_send (port,
                         "<13>Nov 29 20:25:57 web1 ../../outside/escaped: by program\n"
                         "<13>Nov 29 20:25:57 .. escaped: by host\n"
                         "<13>Nov 29 20:25:57 web1 app: harmless\n"))
    return;
  if (!check_file (env, "logs/web1/app.log", "harmless\n"))
    return;
  g_assert_true (sl_test_daemon_alive (env));
  g_autofree gchar *outside = sl_test_path (env, "outside");
  g_autofree gchar *by_host = sl_test_path (env, "escaped.log");
  g_assert_false (g_file_test (outside, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (by_host, G_FILE_TEST_EXISTS));
}

static const gchar routing_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "template t_msg { template(\"${MESSAGE}\\n\"); };\n"
  "destination d_err { file(\"@DIR@/err.log\" template(t_msg)); };\n"
  "destination d_mail { file(\"@DIR@/mail.log\" template(t_msg)); };\n"
  "destination d_info { file(\"@DIR@/info-not-mail.log\" template(t_msg)); };\n"
  "destination d_local0 { file(\"@DIR@/local0.log\" template(t_msg)); };\n"
  "destination d_local { file(\"@DIR@/local01.log\" template(t_msg)); };\n"
  "destination d_rest { file(\"@DIR@/fallback.log\" template(t_msg)); };\n"
  "filter f_err { level(err..emerg); };\n"
  "filter f_mail { facility(mail); };\n"
  "filter f_info_not_mail { level(info) and not filter(f_mail); };\n"
  "log { source(s_net); filter(f_err); destination(d_err); };\n"
  "log { source(s_net); filter(f_mail); destination(d_mail); };\n"
  "log { source(s_net); filter(f_info_not_mail); destination(d_info); };\n"
  "log { source(s_net); filter { facility(local0); }; destination(d_local0); flags(final); };\n"
  "log { source(s_net); filter { facility(local0, local1); }; destination(d_local); };\n"
  "log { source(s_net); destination(d_rest); flags(fallback); };\n";

static void
test_routing (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = port_text (port);
  if (!port || !sl_test_write_config (env, routing_config, "PORT", port_str, NULL)
      || !sl_test_daemon_start (env))
    return;
  static const gchar input[] =
    "<19>Nov 29 20:25:57 h app: mail-err\n"       /* mail.err */
    "<22>Nov 29 20:25:57 h app: mail-info\n"      /* mail.info */
    "<11>Nov 29 20:25:57 h app: user-err\n"       /* user.err */
    "<14>Nov 29 20:25:57 h app: user-info\n"      /* user.info */
    "<134>Nov 29 20:25:57 h app: local0-info\n"   /* local0.info */
    "<142>Nov 29 20:25:57 h app: local1-info\n"   /* local1.info */
    "<15>Nov 29 20:25:57 h app: user-debug\n"     /* user.debug */
    "<135>Nov 29 20:25:57 h app: local0-debug\n"  /* local0.debug */
    "<0>Nov 29 20:25:57 h app: kern-emerg\n";     /* kern.emerg */
  if (!sl_test_tcp_send (port, input))
    return;
  gboolean ok = check_file (env, "err.log", "mail-err\nuser-err\nkern-emerg\n")
                && check_file (env, "mail.log", "mail-err\nmail-info\n")
                && check_file (env, "info-not-mail.log", "user-info\nlocal0-info\nlocal1-info\n")
                && check_file (env, "local0.log", "local0-info\nlocal0-debug\n")
                && check_file (env, "local01.log", "local1-info\n")
                && check_file (env, "fallback.log", "user-debug\n");
  if (!ok)
    return;
  /* stopping writes out whatever was still queued: nothing more may come */
  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
  check_file (env, "err.log", "mail-err\nuser-err\nkern-emerg\n");
  check_file (env, "mail.log", "mail-err\nmail-info\n");
  check_file (env, "info-not-mail.log", "user-info\nlocal0-info\nlocal1-info\n");
  check_file (env, "local0.log", "local0-info\nlocal0-debug\n");
  check_file (env, "local01.log", "local1-info\n");
  check_file (env, "fallback.log", "user-debug\n");
}

static const gchar internal_config[] =
  "@version: 4.0\n"
  "log {\n"
  "  source { internal(); };\n"
  "  destination { file(\"@DIR@/internal.log\" template(\"${HOST} ${PROGRAM}[${PID}] ${FACILITY}.${LEVEL} ${MESSAGE}\\n\")); };\n"
  "};\n";

static void
test_internal (SlTestEnv *env, gconstpointer data)
{
  if (!sl_test_write_config (env, internal_config, NULL) || !sl_test_daemon_start (env))
    return;
  g_autofree gchar *path = sl_test_path (env, "internal.log");
  g_autofree gchar *here = local_host ();
  gint pid = env->pid;
  g_autofree gchar *start = g_strdup_printf ("%s sluiced[%d] syslog.notice sluiced starting up; version='",
                                             here, pid);
  if (!sl_test_wait_contains (env, path, start))
    return;
  /* the last words still make it out */
  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
  g_autofree gchar *text = sl_test_read_file (path);
  g_autofree gchar *stop = g_strdup_printf ("%s sluiced[%d] syslog.notice sluiced shutting down; version='",
                                            here, pid);
  g_assert_nonnull (strstr (text, stop));
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/daemon/tcp/macro-paths", test_macro_paths);
  SL_TEST_ADD ("/daemon/logger", test_logger);
  SL_TEST_ADD ("/daemon/unix/nul-framing", test_local_sockets_nul_framing);
  SL_TEST_ADD ("/daemon/tcp/last-line-without-newline", test_last_line_without_newline);
  SL_TEST_ADD ("/daemon/rfc5424", test_rfc5424);
  SL_TEST_ADD ("/daemon/global-time-zone", test_global_time_zone);
  SL_TEST_ADD ("/daemon/template-functions", test_template_functions);
  SL_TEST_ADD ("/daemon/file/path-stays-inside", test_file_path_stays_inside);
  SL_TEST_ADD ("/daemon/routing", test_routing);
  SL_TEST_ADD ("/daemon/internal", test_internal);
  return g_test_run ();
}
