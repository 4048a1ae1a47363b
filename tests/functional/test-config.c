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
  g_assert_nonnull (strstr (out, "port(string) = 514"));
  g_assert_nonnull (strstr (out, "max-connections(number) = 10"));
  g_assert_cmpint (sl_test_run_built ("daemon/sluiced", NULL, &err, "--module-path", module_path,
                                      "--help-driver", "no-such-driver", NULL), ==, 1);
  g_assert_nonnull (strstr (err, "no-such-driver"));
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
  SL_TEST_ADD ("/config/unclosed-block", test_unclosed_block);
  SL_TEST_ADD ("/config/valid", test_valid);
  SL_TEST_ADD ("/config/start-failure", test_start_failure);
  SL_TEST_ADD ("/config/help-driver", test_help_driver);
  return g_test_run ();
}
