/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sluiced --test: test cases kept beside a configuration, run against it
 * with its sources and destinations replaced by in-memory ends. A file of
 * passing cases exits 0; a failing case exits 1 and shows its input and
 * a diff of what was expected and what came out; a wrong test file is
 * refused with its place. Nothing the configuration names is touched:
 * neither its files nor its port. */
#include "tests/functional/harness.h"

#include <string.h>
#include <sys/socket.h>

static const gchar config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "filter f_auth { program(\"sshd\"); };\n"
  "parser p_kv { kv-parser(prefix(\".kv.\")); };\n"
  "rewrite r_mask { subst(\"[0-9]+\\\\.[0-9]+\\\\.[0-9]+\\\\.[0-9]+\", \"IP\" value(\"MESSAGE\") flags(global)); };\n"
  "destination d_auth { file(\"@DIR@/auth.log\" template(\"${DATE} ${HOST} ${MSGHDR}${MESSAGE}\\n\")); };\n"
  "destination d_fields { file(\"@DIR@/fields.log\" template(\"$(format-json --key .kv.*)\\n\")); };\n"
  "destination d_rest { file(\"@DIR@/rest.log\"); };\n"
  "log { source(s_net); filter(f_auth); parser(p_kv); rewrite(r_mask); destination(d_auth); destination(d_fields);"
  " flags(final); };\n"
  "log { source(s_net); destination(d_rest); };\n";

static const gchar passing[] =
  "# what the configuration promises\n"
  "test \"sshd's logins go to auth.log, addresses masked\" {\n"
  "  input(s_net \"<38>Dec  6 10:00:00 web1 sshd[211]: Accepted user=ana from=10.0.0.1\");\n"
  "  output(d_auth \"Dec  6 10:00:00 web1 sshd[211]: Accepted user=ana from=IP\\n\");\n"
  "  output(d_fields field(\"${.kv.user}\" \"ana\") field(\"${PROGRAM}\" \"sshd\"));\n"
  "  none(d_rest);\n"
  "};\n"
  "test \"the rest goes to the rest\" {\n"
  "  input(s_net \"<78>Dec  6 10:00:01 web1 CRON[5]: job ran\\n<78>Dec  6 10:00:02 web1 CRON[6]: job 2\");\n"
  "  output(d_rest \"Dec  6 10:00:01 web1 CRON[5]: job ran\\nDec  6 10:00:02 web1 CRON[6]: job 2\\n\");\n"
  "  none(d_auth);\n"
  "};\n";

static const gchar failing[] =
  "test \"cron reaches auth.log\" {\n"
  "  input(s_net \"<78>Dec  6 10:00:01 web1 CRON[5]: job ran\");\n"
  "  output(d_auth \"Dec  6 10:00:01 web1 CRON[5]: job ran\\n\");\n"
  "};\n"
  "test \"the user is bob\" {\n"
  "  input(s_net \"<38>Dec  6 10:00:00 web1 sshd[211]: Accepted user=ana\");\n"
  "  output(d_fields field(\"${.kv.user}\" \"bob\"));\n"
  "};\n"
  "test \"the address is kept\" {\n"
  "  input(s_net \"<38>Dec  6 10:00:00 web1 sshd[211]: Accepted user=ana from=10.0.0.1\");\n"
  "  output(d_auth \"Dec  6 10:00:00 web1 sshd[211]: Accepted user=ana from=10.0.0.1\\n\");\n"
  "};\n";

/* sluiced --test on the test folder's configuration and tests; exit status */
static gint
run_tests (SlTestEnv *env, const gchar *tests, gchar **out, gchar **err)
{
  g_autofree gchar *path = sl_test_path (env, "sluice.test");
  g_assert_true (g_file_set_contents (path, tests, -1, NULL));
  const gchar *format = env->config_format;
  return sl_test_run_built ("daemon/sluiced", out, err, "-f", env->config, "--module-path", sl_test_module_path (),
                            "--test", path, format ? "--config-format" : NULL, format, NULL);
}

static gboolean
write_config (SlTestEnv *env)
{
  g_autofree gchar *port = g_strdup_printf ("%u", sl_test_free_port (SOCK_STREAM));
  return sl_test_write_config (env, config, "PORT", port, NULL);
}

static void
test_passing (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *out = NULL, *err = NULL;
  (void) data;
  g_assert_true (write_config (env));
  gint status = run_tests (env, passing, &out, &err);
  g_test_message ("stdout:\n%s\nstderr:\n%s", out, err);
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (out, "ok 1 - sshd's logins go to auth.log, addresses masked\n"));
  g_assert_nonnull (strstr (out, "ok 2 - the rest goes to the rest\n"));
  g_assert_nonnull (strstr (out, "2 of 2 tests passed\n"));
  /* in-memory ends: none of the files was made */
  const gchar *files[] = { "auth.log", "fields.log", "rest.log" };
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree gchar *path = sl_test_path (env, files[i]);
      g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
    }
}

static void
test_failing (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *out = NULL, *err = NULL;
  (void) data;
  g_assert_true (write_config (env));
  gint status = run_tests (env, failing, &out, &err);
  g_test_message ("stdout:\n%s\nstderr:\n%s", out, err);
  g_assert_cmpint (status, ==, 1);
  static const gchar *const wanted[] = {
    "not ok 1 - cron reaches auth.log\n"
    "  input at s_net:\n"
    "    <78>Dec  6 10:00:01 web1 CRON[5]: job ran\n"
    "  d_auth: expected (-), came out (+):\n"
    "  - Dec  6 10:00:01 web1 CRON[5]: job ran\n",
    "not ok 2 - the user is bob\n"
    "  input at s_net:\n"
    "    <38>Dec  6 10:00:00 web1 sshd[211]: Accepted user=ana\n"
    "  d_fields: no message with ${.kv.user}=\"bob\"; 1 came out:\n"
    "  + ${.kv.user}=\"ana\"\n",
    "  d_auth: expected (-), came out (+):\n"
    "  - Dec  6 10:00:00 web1 sshd[211]: Accepted user=ana from=10.0.0.1\n"
    "  + Dec  6 10:00:00 web1 sshd[211]: Accepted user=ana from=IP\n",
    "0 of 3 tests passed\n",
  };
  for (guint i = 0; i < G_N_ELEMENTS (wanted); i++)
    g_assert_nonnull (strstr (out, wanted[i]));
}

/* A wrong test file is refused with its place, before any case runs. */
static void
test_refused (SlTestEnv *env, gconstpointer data)
{
  static const gchar *const files[][2] = {
    { "test \"x\" {\n  input(s_net \"a\");\n  output(d_nowhere \"a\\n\");\n};\n",
      "sluice.test:3:3: the configuration has no destination 'd_nowhere'" },
    { "test \"x\" {\n  input(s_none \"a\");\n  none(d_auth);\n};\n",
      "sluice.test:2:3: the configuration has no source 's_none'" },
    { "test \"x\" {\n  inptu(s_net \"a\");\n};\n", "sluice.test:2:3: unknown item 'inptu' of a test" },
    { "test \"x\" {\n  input(s_net \"a\");\n};\n", "sluice.test:1:1: a test wants at least one output() or none()" },
    { "test \"x\" {\n  none(d_auth \"a\");\n};\n", "sluice.test:2:3: none() takes a destination" },
    { "source s { };\n", "sluice.test:1:1: unknown statement 'source'" },
  };
  (void) data;
  g_assert_true (write_config (env));
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree gchar *out = NULL, *err = NULL;
      g_assert_cmpint (run_tests (env, files[i][0], &out, &err), ==, 1);
      g_test_message ("%s", err);
      g_assert_nonnull (strstr (err, files[i][1]));
    }
}

/* An rsyslog configuration: inputs and actions are named by their name=,
 * rulesets and RainerScript run as configured */
static const gchar rsyslog_config[] =
  "module(load=\"imtcp\")\n"
  "input(type=\"imtcp\" port=\"@PORT@\" address=\"127.0.0.1\" name=\"net\" ruleset=\"remote\")\n"
  "template(name=\"short\" type=\"string\" string=\"%programname%|%msg:::sp-if-no-1st-sp%%msg%|%$.level%\\n\")\n"
  "ruleset(name=\"remote\") {\n"
  "  if $syslogseverity <= 3 then set $.level = \"high\"; else set $.level = \"low\";\n"
  "  if $programname == \"sshd\" then {\n"
  "    action(type=\"omfile\" file=\"@DIR@/auth.log\" template=\"short\" name=\"auth\")\n"
  "    stop\n"
  "  }\n"
  "  action(type=\"omfile\" file=\"@DIR@/rest.log\" name=\"rest\")\n"
  "}\n";

static const gchar rsyslog_tests[] =
  "test \"sshd's errors go to auth only, marked high\" {\n"
  "  input(net \"<35>Dec  6 10:00:00 web1 sshd[211]: Failed password\");\n"
  "  output(auth \"sshd| Failed password|high\\n\");\n"
  "  none(rest);\n"
  "};\n"
  /* an RFC 5424 message's syslogtag is APP-NAME[PROCID], no colon */
  "test \"the rest goes on in rsyslog's file format\" {\n"
  "  input(net \"<14>1 2026-12-06T10:00:00.5+01:00 web1 app 7 - - started\");\n"
  "  output(rest \"2026-12-06T10:00:00.5+01:00 web1 app[7] started\\n\");\n"
  "  output(rest field(\"${.level}\" \"low\"));\n"
  "  none(auth);\n"
  "};\n";

static void
test_rsyslog (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *out = NULL, *err = NULL;
  g_autofree gchar *port = g_strdup_printf ("%u", sl_test_free_port (SOCK_STREAM));
  (void) data;
  g_assert_true (sl_test_write_config (env, rsyslog_config, "PORT", port, NULL));
  env->config_format = "rsyslog";
  gint status = run_tests (env, rsyslog_tests, &out, &err);
  g_test_message ("stdout:\n%s\nstderr:\n%s", out, err);
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (out, "2 of 2 tests passed\n"));
}

/* config/sluice.test, the example shipped beside sluice.conf, passes on
 * the configuration as built */
static void
test_shipped (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *out = NULL, *err = NULL;
  g_autofree gchar *conf = g_build_filename (g_getenv ("SL_TOP_BUILDDIR"), "config", "sluice.conf", NULL);
  g_autofree gchar *tests = g_build_filename (g_getenv ("SL_TOP_SRCDIR"), "config", "sluice.test", NULL);
  (void) env;
  (void) data;
  gint status = sl_test_run_built ("daemon/sluiced", &out, &err, "-f", conf, "--module-path", sl_test_module_path (),
                                   "--test", tests, NULL);
  g_test_message ("stdout:\n%s\nstderr:\n%s", out, err);
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (out, "4 of 4 tests passed\n"));
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/config-tests/passing", test_passing);
  SL_TEST_ADD ("/config-tests/failing", test_failing);
  SL_TEST_ADD ("/config-tests/refused", test_refused);
  SL_TEST_ADD ("/config-tests/shipped", test_shipped);
  SL_TEST_ADD ("/config-tests/rsyslog", test_rsyslog);
  return g_test_run ();
}
