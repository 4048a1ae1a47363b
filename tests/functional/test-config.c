/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What sluiced says about configurations, as a user runs it: `-s` checks,
 * errors with file:line:column, the line and a caret, and suggestions. */
#include <config.h>
#include "tests/functional/harness.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* Runs `sluiced -s` on env->config; its exit status, with stderr in *err. */
static gint
syntax_check (SlTestEnv *env, gchar **err)
{
  const gchar *module_path = sl_test_module_path ();
  if (!module_path)
    return -1;
  return sl_test_run_built ("daemon/sluiced", NULL, err, "-s", "-f", env->config,
                            "--module-path", module_path, NULL);
}

/* The message sluiced prints for a configuration error at line:column,
 * with the line quoted and a caret under the column. */
static gchar *
located_error (SlTestEnv *env, gint line, gint column, const gchar *message, const gchar *quoted)
{
  GString *caret = g_string_new (NULL);
  for (gint i = 1; i < column; i++)
    g_string_append_c (caret, ' ');
  g_string_append_c (caret, '^');
  gchar *text = g_strdup_printf ("%s:%d:%d: %s\n  %s\n  %s\n", env->config, line, column, message,
                                 quoted, caret->str);
  g_string_free (caret, TRUE);
  return text;
}

static void
test_unknown_option (SlTestEnv *env, gconstpointer data)
{
  if (!sl_test_write_config (env,
                             "source s_net { tcp(prot(514)); };\n"
                             "destination d_file { file(\"@DIR@/out.log\"); };\n"
                             "log { source(s_net); destination(d_file); };\n", NULL))
    return;
  g_autofree gchar *err = NULL;
  g_assert_cmpint (syntax_check (env, &err), ==, 1);
  g_autofree gchar *expected = located_error (env, 1, 20, "unknown option 'prot' in tcp(); did you mean 'port'?",
                                              "source s_net { tcp(prot(514)); };");
  g_assert_nonnull (strstr (err, expected));
}

/* A typo is a typo even in a source no log path uses yet. */
static void
test_unknown_option_in_unused_source (SlTestEnv *env, gconstpointer data)
{
  if (!sl_test_write_config (env,
                             "source s_spare { tcp(prot(514)); };\n"
                             "source s_net { udp(port(514)); };\n"
                             "destination d_file { file(\"@DIR@/out.log\"); };\n"
                             "log { source(s_net); destination(d_file); };\n", NULL))
    return;
  g_autofree gchar *err = NULL;
  g_assert_cmpint (syntax_check (env, &err), ==, 1);
  g_autofree gchar *expected = located_error (env, 1, 22, "unknown option 'prot' in tcp(); did you mean 'port'?",
                                              "source s_spare { tcp(prot(514)); };");
  g_assert_nonnull (strstr (err, expected));
}

static const gchar *const source_drivers[] = { "internal", "network", "tcp", "udp", "unix-dgram", "unix-stream" };

static void
check_lists_source_drivers (const gchar *err)
{
  for (guint i = 0; i < G_N_ELEMENTS (source_drivers); i++)
    {
      g_autofree gchar *listed = g_strdup_printf (" %s", source_drivers[i]);
      if (!strstr (err, listed))
        {
          g_test_message ("stderr:\n%s", err);
          g_test_fail_printf ("source driver %s is not listed", source_drivers[i]);
        }
    }
}

static void
test_unknown_driver (SlTestEnv *env, gconstpointer data)
{
  if (!sl_test_write_config (env,
                             "source s_net {\n"
                             "  tcpp(port(514));\n"
                             "};\n"
                             "destination d_file { file(\"@DIR@/out.log\"); };\n"
                             "log { source(s_net); destination(d_file); };\n", NULL))
    return;
  g_autofree gchar *err = NULL;
  g_assert_cmpint (syntax_check (env, &err), ==, 1);
  g_autofree gchar *where = g_strdup_printf ("%s:2:3: unknown source driver 'tcpp'; did you mean 'tcp'?", env->config);
  g_assert_nonnull (strstr (err, where));
  g_assert_nonnull (strstr (err, "\n    tcpp(port(514));\n    ^\n"));
  check_lists_source_drivers (err);

  /* nothing close: the whole list, and no suggestion */
  if (!sl_test_write_config (env,
                             "source s_net { kafka-consumer(); };\n"
                             "destination d_file { file(\"@DIR@/out.log\"); };\n"
                             "log { source(s_net); destination(d_file); };\n", NULL))
    return;
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (syntax_check (env, &err), ==, 1);
  g_autofree gchar *listed = g_strdup_printf ("%s:1:16: unknown source driver 'kafka-consumer'; the source drivers are: ",
                                              env->config);
  g_assert_nonnull (strstr (err, listed));
  g_assert_null (strstr (err, "did you mean"));
  check_lists_source_drivers (err);
}

static void
test_bad_number (SlTestEnv *env, gconstpointer data)
{
  if (!sl_test_write_config (env,
                             "source s_net {\n"
                             "\ttcp(port(514) log-iw-size(abc));\n"
                             "};\n"
                             "destination d_file { file(\"@DIR@/out.log\"); };\n"
                             "log { source(s_net); destination(d_file); };\n", NULL))
    return;
  g_autofree gchar *err = NULL;
  g_assert_cmpint (syntax_check (env, &err), ==, 1);
  g_autofree gchar *where = g_strdup_printf ("%s:2:28: option 'log-iw-size' of tcp() expects a number, got 'abc'",
                                             env->config);
  g_assert_nonnull (strstr (err, where));
  /* the caret lines up under a tab as a terminal shows it */
  g_assert_nonnull (strstr (err, "\n  \ttcp(port(514) log-iw-size(abc));\n  \t                          ^\n"));
}

static void
test_unclosed_block (SlTestEnv *env, gconstpointer data)
{
  if (!sl_test_write_config (env,
                             "source s_net { tcp(port(514));\n"
                             "log { source(s_net); };\n", NULL))
    return;
  g_autofree gchar *err = NULL;
  g_assert_cmpint (syntax_check (env, &err), ==, 1);
  g_autofree gchar *where = g_strdup_printf ("%s:", env->config);
  g_assert_nonnull (strstr (err, where));
  g_assert_nonnull (strstr (err, "end of file"));
}

static void
test_valid (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = g_strdup_printf ("%u", port);
  if (!sl_test_write_config (env,
                             "@version: 4.0\n"
                             "options { create-dirs(yes); keep-hostname(yes); };\n"
                             "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
                             "destination d_file { file(\"@DIR@/logs/${HOST}.log\"); };\n"
                             "filter f_err { level(err..emerg) and not facility(mail); };\n"
                             "log { source(s_net); filter(f_err); destination(d_file); flags(flow-control); };\n",
                             "PORT", port_str, NULL))
    return;
  g_autofree gchar *err = NULL;
  g_assert_cmpint (syntax_check (env, &err), ==, 0);
  g_assert_cmpstr (err, ==, "");
  /* a check starts nothing */
  gint fd = socket (AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons (port), .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  g_assert_cmpint (connect (fd, (struct sockaddr *) &addr, sizeof addr), <, 0);
  close (fd);
  g_autofree gchar *logs = sl_test_path (env, "logs");
  g_assert_false (g_file_test (logs, G_FILE_TEST_EXISTS));
}

/* An owner or group the system lacks is a warning with its place, at -s
 * and at start, and the daemon runs and writes, as syslog-ng logs "Error
 * resolving user" and goes on (Ubuntu's "syslog" user on a host without
 * it). */
static void
test_unknown_account (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = g_strdup_printf ("%u", port);
  g_autofree gchar *out = sl_test_path (env, "out.log");
  if (!sl_test_write_config (env,
                             "@version: 4.8\n"
                             "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
                             "destination d_file { file(\"@DIR@/out.log\" owner(\"sluice-no-such-user\")\n"
                             "  group(\"sluice-no-such-group\")); };\n"
                             "log { source(s_net); destination(d_file); };\n",
                             "PORT", port_str, NULL))
    return;
  g_autofree gchar *err = NULL;
  g_assert_cmpint (syntax_check (env, &err), ==, 0);
  g_assert_true (strstr (err, "warning: ") && strstr (err, "unknown user 'sluice-no-such-user' in owner()"));
  g_assert_nonnull (strstr (err, "sluice.conf:4:3: unknown group 'sluice-no-such-group' in group()"));
  g_assert_true (sl_test_daemon_start (env));
  g_assert_true (sl_test_wait_tcp (env, port));
  g_assert_true (sl_test_tcp_send (port, "<13>Dec  6 09:00:00 host app: written all the same\n"));
  g_assert_true (sl_test_wait_lines (env, out, 1));
  g_autofree gchar *daemon_err = sl_test_read_file (env->stderr_path);
  g_assert_nonnull (strstr (daemon_err, "unknown user 'sluice-no-such-user'"));
}

/* A configuration that is valid but cannot start makes the daemon exit 1
 * and say why, instead of running without its source. */
static void
test_start_failure (SlTestEnv *env, gconstpointer data)
{
  gint busy = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_in addr = { .sin_family = AF_INET, .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  socklen_t len = sizeof addr;
  if (bind (busy, (struct sockaddr *) &addr, sizeof addr) < 0 || listen (busy, 1) < 0
      || getsockname (busy, (struct sockaddr *) &addr, &len) < 0)
    {
      g_test_fail_printf ("cannot hold a port: %s", g_strerror (errno));
      close (busy);
      return;
    }
  g_autofree gchar *port_str = g_strdup_printf ("%u", ntohs (addr.sin_port));
  const gchar *module_path = sl_test_module_path ();
  if (module_path && sl_test_write_config (env,
                                           "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
                                           "destination d_file { file(\"@DIR@/out.log\"); };\n"
                                           "log { source(s_net); destination(d_file); };\n",
                                           "PORT", port_str, NULL))
    {
      g_autofree gchar *err = NULL;
      gint status = sl_test_run_built ("daemon/sluiced", NULL, &err, "-F", "-f", env->config,
                                       "--module-path", module_path, "-p", env->pidfile,
                                       "-c", env->control, NULL);
      g_assert_cmpint (status, ==, 1);
      g_autofree gchar *why = g_strdup_printf ("cannot listen on 127.0.0.1 port %s", port_str);
      g_assert_nonnull (strstr (err, why));
      g_assert_false (g_file_test (env->pidfile, G_FILE_TEST_EXISTS));
    }
  close (busy);
}

static void
test_help_driver (SlTestEnv *env, gconstpointer data)
{
  const gchar *module_path = sl_test_module_path ();
  if (!module_path)
    return;
  g_autofree gchar *out = NULL;
  g_autofree gchar *err = NULL;
  g_assert_cmpint (sl_test_run_built ("daemon/sluiced", &out, NULL, "--module-path", module_path,
                                      "--help-driver", "tcp", NULL), ==, 0);
  g_assert_nonnull (strstr (out, "port(port, 1 to 65535) = 514"));
  g_assert_nonnull (strstr (out, "max-connections(number, at least 1) = 10"));
  /* a default is shown as it would be written, and a duration with the
   * unit of a bare number */
  g_assert_nonnull (strstr (out, "template(template) = \"<${PRI}>${DATE} ${HOST} ${MSGHDR}${MESSAGE}\\n\"\n"));
  g_assert_nonnull (strstr (out, "flush-timeout(duration (a bare number: milliseconds)) = 1000\n"));
  g_assert_nonnull (strstr (out, "time-reopen(duration (a bare number: seconds), at least 1ms) = 60\n"));
  g_assert_cmpint (sl_test_run_built ("daemon/sluiced", NULL, &err, "--module-path", module_path,
                                      "--help-driver", "no-such-driver", NULL), ==, 1);
  g_assert_nonnull (strstr (err, "no-such-driver"));
}

/* Numbers outside their option's range, ports, words and durations are
 * refused by -s where they are written, naming the option, the driver and
 * what it takes; 99999 would otherwise listen on 34463. */
static void
test_option_ranges (SlTestEnv *env, gconstpointer data)
{
  static const struct
  {
    const gchar *source;
    gint column;
    const gchar *message;
  } refused[] = {
    { "tcp(port(99999))", 12, "option 'port' of tcp() must be 1 to 65535, got '99999'" },
    { "udp(port(70000))", 12, "option 'port' of udp() must be 1 to 65535, got '70000'" },
    { "tcp(port(0))", 12, "option 'port' of tcp() must be 1 to 65535, got '0'" },
    { "network(port(\"abc\"))", 16, "option 'port' of network() expects a port number (1 to 65535) or a "
                                     "service name of /etc/services, got 'abc'" },
    { "tcp(port(514) log-msg-size(2G))", 30, "option 'log-msg-size' of tcp() must be 64 to 1G bytes, got '2G'" },
    { "tcp(port(514) so-rcvbuf(3G))", 27, "option 'so-rcvbuf' of tcp() must be 0 to 2147483647 bytes, got '3G'" },
    { "tcp(port(514) max-connections(0))", 33, "option 'max-connections' of tcp() must be at least 1, got '0'" },
    { "tcp(port(514) listen-backlog(100000))", 32,
      "option 'listen-backlog' of tcp() must be 1 to 65535, got '100000'" },
    { "network(transport(\"quic\"))", 21,
      "'quic' is not a value of transport(); expected one of: tcp, udp, framed, tls, proxied-tcp, proxied-tls, "
      "proxied-tls-passthrough" },
    { "tcp(port(514) idle-timeout(5min))", 30, "option 'idle-timeout' of tcp() expects a duration such as "
                                              "60 (seconds), 500ms, 30s or 5m, got '5min'" },
    { "wildcard-file(base-dir(\"/tmp\") filename-pattern(\"*.log\") max-files(0))", 70,
      "option 'max-files' of wildcard-file() must be at least 1, got '0'" },
    { "wildcard-file(base-dir(\"/tmp\"))", 3,
      "wildcard-file() needs option filename-pattern(): which files to follow: a glob (* and ?) matched against "
      "their names" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      if (!sl_test_write_config (env,
                                 "source s_net {\n"
                                 "  @SOURCE@;\n"
                                 "};\n"
                                 "destination d_file { file(\"@DIR@/out.log\"); };\n"
                                 "log { source(s_net); destination(d_file); };\n",
                                 "SOURCE", refused[i].source, NULL))
        return;
      g_autofree gchar *err = NULL;
      g_assert_cmpint (syntax_check (env, &err), ==, 1);
      g_autofree gchar *quoted = g_strdup_printf ("  %s;", refused[i].source);
      g_autofree gchar *expected = located_error (env, 2, refused[i].column, refused[i].message, quoted);
      if (!strstr (err, expected))
        g_error ("%s: expected\n%s\ngot\n%s", refused[i].source, expected, err);
    }
  /* a destination's port, and a duration and a size of the core's */
  if (!sl_test_write_config (env,
                             "destination d_net { network(\"127.0.0.1\" port(65537) time-reopen(2s)); };\n"
                             "log { destination(d_net); };\n", NULL))
    return;
  g_autofree gchar *err = NULL;
  g_assert_cmpint (syntax_check (env, &err), ==, 1);
  g_autofree gchar *expected = located_error (env, 1, 46, "option 'port' of network() must be 1 to 65535, got '65537'",
                                              "destination d_net { network(\"127.0.0.1\" port(65537) time-reopen(2s)); };");
  g_assert_nonnull (strstr (err, expected));

  /* the edges of each range, service names, units and words are taken */
  if (!sl_test_write_config (env,
                             "source s_net {\n"
                             "  tcp(ip(\"127.0.0.1\") port(65535) log-msg-size(64) max-connections(1) idle-timeout(1500ms));\n"
                             "  network(ip(\"127.0.0.1\") port(\"syslog\") transport(\"framed\") so-rcvbuf(64k));\n"
                             "  udp(ip(\"127.0.0.1\") port(1) log-msg-size(1G));\n"
                             "};\n"
                             "destination d_net { tcp(\"127.0.0.1\" port(9) localport(0) flush-timeout(250) time-reopen(2m)); };\n"
                             "log { source(s_net); destination(d_net); };\n", NULL))
    return;
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (syntax_check (env, &err), ==, 0);
  g_assert_cmpstr (err, ==, "");
}

/* A misspelt name gets the nearest one; an unknown template function one
 * suggestion, with the caret on its name rather than on template(. */
static void
test_suggestions (SlTestEnv *env, gconstpointer data)
{
  if (!sl_test_write_config (env,
                             "source s_net { tcp(port(514)); };\n"
                             "destination d_file { file(\"@DIR@/out.log\"); };\n"
                             "log { source(s_nett); destination(d_file); };\n", NULL))
    return;
  g_autofree gchar *err = NULL;
  g_assert_cmpint (syntax_check (env, &err), ==, 1);
  g_autofree gchar *object = located_error (env, 3, 7, "there is no source named 's_nett'; did you mean 's_net'?",
                                            "log { source(s_nett); destination(d_file); };");
  g_assert_nonnull (strstr (err, object));

  if (!sl_test_write_config (env,
                             "destination d_file { file(\"@DIR@/out.log\" template(\"${ISODATE} $(uppercse $MSG)\\n\")); };\n"
                             "log { destination(d_file); };\n", NULL))
    return;
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (syntax_check (env, &err), ==, 1);
  g_autofree gchar *line = g_strdup_printf ("destination d_file { file(\"%s/out.log\" template(\"${ISODATE} $(uppercse $MSG)\\n\")); };",
                                            env->dir);
  gint column = (gint) (strstr (line, "uppercse") - line) + 1;
  g_autofree gchar *function = located_error (env, 1, column,
                                              "unknown template function 'uppercse'; did you mean 'uppercase'?", line);
  if (!strstr (err, function))
    g_error ("expected\n%s\ngot\n%s", function, err);
}

/* A configuration that is not text is refused at its first byte that text
 * does not have, and none of its bytes reach the terminal. */
static void
test_not_text (SlTestEnv *env, gconstpointer data)
{
  static const gchar utf16[] = "\xff\xfe" "d\0e\0s\0t\0";
  static const gchar binary[] = "# ok\nlog { \x1b" "[2J\x7f\x01 };\n";
  g_autofree gchar *err = NULL;
  g_assert_true (g_file_set_contents (env->config, utf16, sizeof utf16 - 1, NULL));
  g_assert_cmpint (syntax_check (env, &err), ==, 1);
  g_autofree gchar *bom = g_strdup_printf ("%s:1:1: the configuration is UTF-16 text", env->config);
  g_assert_nonnull (strstr (err, bom));
  g_assert_null (strchr (err, '\xff'));

  g_clear_pointer (&err, g_free);
  g_assert_true (g_file_set_contents (env->config, binary, sizeof binary - 1, NULL));
  g_assert_cmpint (syntax_check (env, &err), ==, 1);
  g_autofree gchar *control = g_strdup_printf ("%s:2:7: the configuration is not text: it has a control byte 0x1b here",
                                               env->config);
  g_assert_nonnull (strstr (err, control));
  g_assert_null (strchr (err, '\x1b'));
}

/* As syslog-ng warns: an @include glob that matches nothing is most often
 * a folder's name mistyped. */
static void
test_include_matches_nothing (SlTestEnv *env, gconstpointer data)
{
  if (!sl_test_write_config (env,
                             "@include \"nothere/*.conf\"\n"
                             "destination d_file { file(\"@DIR@/out.log\"); };\n"
                             "log { destination(d_file); };\n", NULL))
    return;
  g_autofree gchar *err = NULL;
  g_assert_cmpint (syntax_check (env, &err), ==, 0);
  g_autofree gchar *warning = g_strdup_printf ("%s:1:1: @include 'nothere/*.conf' matches no file; nothing is included",
                                               env->config);
  g_assert_nonnull (strstr (err, warning));
}

/* What a mistyped command line gets: a sentence that points to --help. */
static void
test_command_lines (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *err1 = NULL, *err2 = NULL, *err3 = NULL, *err4 = NULL, *out = NULL;
  g_assert_cmpint (sl_test_run_built ("daemon/sluiced", NULL, &err1, "-s", "stray", NULL), ==, 2);
  g_assert_nonnull (strstr (err1, "sluiced: unexpected argument 'stray'; see --help"));
  g_assert_cmpint (sl_test_run_built ("daemon/sluiced", NULL, &err2, "--no-such-flag", NULL), ==, 2);
  g_assert_nonnull (strstr (err2, "--no-such-flag; see --help"));
  g_assert_cmpint (sl_test_run_built ("tools/sluicectl", &out, NULL, "--version", NULL), ==, 0);
  g_assert_true (g_str_has_prefix (out, "sluicectl " PACKAGE_VERSION));
  g_assert_cmpint (sl_test_run_built ("tools/sluicectl", NULL, &err3, "--no-such-flag", "stats", NULL), ==, 2);
  g_assert_nonnull (strstr (err3, "--no-such-flag; see --help"));
  g_assert_cmpint (sl_test_run_built ("tools/sluicectl", NULL, &err4, "stats", "reload", NULL), ==, 2);
  g_assert_nonnull (strstr (err4, "give one command, not several; see --help"));
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/config/command-lines", test_command_lines);
  SL_TEST_ADD ("/config/unknown-option", test_unknown_option);
  SL_TEST_ADD ("/config/unknown-option-in-unused-source", test_unknown_option_in_unused_source);
  SL_TEST_ADD ("/config/unknown-driver", test_unknown_driver);
  SL_TEST_ADD ("/config/bad-number", test_bad_number);
  SL_TEST_ADD ("/config/option-ranges", test_option_ranges);
  SL_TEST_ADD ("/config/suggestions", test_suggestions);
  SL_TEST_ADD ("/config/not-text", test_not_text);
  SL_TEST_ADD ("/config/include-matches-nothing", test_include_matches_nothing);
  SL_TEST_ADD ("/config/unclosed-block", test_unclosed_block);
  SL_TEST_ADD ("/config/valid", test_valid);
  SL_TEST_ADD ("/config/unknown-account", test_unknown_account);
  SL_TEST_ADD ("/config/start-failure", test_start_failure);
  SL_TEST_ADD ("/config/help-driver", test_help_driver);
  return g_test_run ();
}
