/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Filters and rewrite rules on the real daemon: syslog lines sent over TCP
 * by the test and by util-linux logger are routed by program(), host(),
 * message(), match(), netmask(), netmask6(), in-list(), tags() and
 * rate-limit(), changed by set(), subst(), unset(), groupunset(),
 * set-tag(), clear-tag(), set-facility() and set-severity(), and land in
 * the files the configuration names. Every destination also gets a last
 * "marker" line, so a file is complete when the marker is in it. */
#include "tests/functional/harness.h"

#include <string.h>
#include <sys/socket.h>

static const gchar rules_config[] =
  "@version: 4.0\n"
  "options { keep-hostname(yes); create-dirs(yes); };\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@) tags(\"from-net\") flags(detect-syslog-protocol)); };\n"
  "template t_line { template(\"${PROGRAM} ${MESSAGE}\\n\"); };\n"
  "template t_pri { template(\"${FACILITY}.${LEVEL} ${PID:-none} ${MESSAGE}\\n\"); };\n"
  "template t_sdata { template(\"${.SDATA.meta.seq:-gone} ${.SDATA.meta.kind:-gone} ${MESSAGE}\\n\"); };\n"
  "destination d_sshd { file(\"@DIR@/sshd.log\" template(t_line)); };\n"
  "destination d_disk { file(\"@DIR@/disk.log\" template(t_line)); };\n"
  "destination d_listed { file(\"@DIR@/listed.log\" template(t_line)); };\n"
  "destination d_local_err { file(\"@DIR@/local-err.log\" template(t_line)); };\n"
  "destination d_v6 { file(\"@DIR@/v6.log\" template(t_line)); };\n"
  "destination d_users { file(\"@DIR@/users/${1}.log\" template(t_line)); };\n"
  "destination d_audit { file(\"@DIR@/audit.log\" template(t_line)); };\n"
  "destination d_cleared { file(\"@DIR@/cleared.log\" template(t_line)); };\n"
  "destination d_rate { file(\"@DIR@/rate.log\" template(t_line)); };\n"
  "destination d_orig { file(\"@DIR@/orig.log\" template(t_pri)); };\n"
  "destination d_rewritten { file(\"@DIR@/rewritten.log\" template(\"${.src} ${FACILITY}.${LEVEL} ${PID:-none} ${MESSAGE}\\n\")); };\n"
  "destination d_orig_after { file(\"@DIR@/orig-after.log\" template(t_pri)); };\n"
  "destination d_sdata { file(\"@DIR@/sdata.log\" template(t_sdata)); };\n"
  "destination d_sdata_unset { file(\"@DIR@/sdata-unset.log\" template(t_sdata)); };\n"
  "filter f_sshd { program(\"^sshd$\"); };\n"
  "filter f_app { program(\"app\" type(string)); };\n"
  "filter f_svc { program(\"svc\" type(string)); };\n"
  "filter f_marker { program(\"marker\" type(string)); };\n"
  "log { source(s_net); filter(f_sshd); destination(d_sshd); };\n"
  "log { source(s_net); filter { host(\"^db[0-9]+$\") and message(\"disk.*full\" flags(ignore-case)); };\n"
  "      destination(d_disk); };\n"
  "log { source(s_net); filter { in-list(\"@DIR@/programs.list\" value(\"PROGRAM\")); }; destination(d_listed); };\n"
  "log { source(s_net); filter { netmask(\"127.0.0.0/8\") and not netmask(\"10.0.0.0/8\") and level(err..emerg); };\n"
  "      destination(d_local_err); };\n"
  "log { source(s_net); filter { netmask6(\"::1/128\") or netmask6(\"2001:db8::/32\"); }; destination(d_v6); };\n"
  "log { source(s_net); filter { match(\"user=(\\\\w+)\" value(\"MESSAGE\") flags(store-matches)); };\n"
  "      destination(d_users); };\n"
  "log { source(s_net);\n"
  "      rewrite { set-tag(\"audit\" condition(program(\"sudo\") or message(\"^Failed\") or tags(\"never\"))); };\n"
  "      filter { tags(\"audit\") and tags(\"from-net\"); };\n"
  "      destination(d_audit);\n"
  "      rewrite { clear-tag(\"audit\"); };\n"
  "      if (tags(\"audit\")) { destination(d_v6); } else { destination(d_cleared); };\n"
  "};\n"
  "log { source(s_net); filter { program(\"^flooder$\") and rate-limit(template(\"$HOST\") rate(1)); };\n"
  "      destination(d_rate); };\n"
  "log { source(s_net); filter(f_app); destination(d_orig); };\n"
  "log { source(s_net); filter(f_app);\n"
  "      rewrite { subst(\"(secret|token)=\\\\S+\" \"$1=***\" flags(global)); set(\"$HOST:$PROGRAM\" value(\".src\"));\n"
  "                unset(value(\"PID\")); set-facility(\"local3\"); set-severity(\"warning\"); };\n"
  "      destination(d_rewritten); };\n"
  "log { source(s_net); filter(f_app); destination(d_orig_after); };\n"
  "log { source(s_net); filter(f_svc); destination(d_sdata); };\n"
  "log { source(s_net); filter(f_svc); rewrite { groupunset(values(\".SDATA.meta.*\")); }; destination(d_sdata_unset); };\n"
  "log { source(s_net); filter(f_marker);\n"
  "      destination(d_sshd); destination(d_disk); destination(d_listed); destination(d_local_err);\n"
  "      destination(d_v6); destination(d_audit); destination(d_cleared); destination(d_rate);\n"
  "      destination(d_orig); destination(d_rewritten); destination(d_orig_after);\n"
  "      destination(d_sdata); destination(d_sdata_unset); };\n";

/* The file's whole content once its last line, the marker, is there. */
static gboolean
check_file (SlTestEnv *env, const gchar *name, const gchar *marker_line, const gchar *expected)
{
  g_autofree gchar *path = sl_test_path (env, name);
  if (!sl_test_wait_contains (env, path, marker_line))
    return FALSE;
  g_autofree gchar *text = sl_test_read_file (path);
  g_assert_cmpstr (text, ==, expected);
  return g_strcmp0 (text, expected) == 0;
}

static void
test_rules (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *logger = g_find_program_in_path ("logger");
  if (!logger)
    {
      g_test_fail_printf ("logger (util-linux, Debian package bsdutils) is needed");
      return;
    }
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = g_strdup_printf ("%u", port);
  g_autofree gchar *list = sl_test_path (env, "programs.list");
  if (!port || !g_file_set_contents (list, "nginx\ncron\n", -1, NULL)
      || !sl_test_write_config (env, rules_config, "PORT", port_str, NULL) || !sl_test_daemon_start (env))
    return;

  /* util-linux logger first, on a connection of its own */
  const gchar *argv[] = { "logger", "-n", "127.0.0.1", "-P", port_str, "-T", "-t", "sshd",
                          "Accepted via logger", NULL };
  g_autofree gchar *err = NULL;
  gint status = sl_test_run_argv (argv, NULL, &err);
  g_assert_cmpint (status, ==, 0);
  g_autofree gchar *sshd_log = sl_test_path (env, "sshd.log");
  if (status != 0 || !sl_test_wait_lines (env, sshd_log, 1))
    return;

  GString *input = g_string_new (
    "<38>Jan  2 03:04:05 web1 sshd[100]: Accepted publickey for alice\n"
    "<38>Jan  2 03:04:05 web1 sshd[101]: Failed password for bob\n"
    "<11>Jan  2 03:04:05 db1 postgres[7]: DISK IS FULL on /var\n"
    "<13>Jan  2 03:04:05 web2 nginx[8]: GET / user=carol\n"
    "<13>Jan  2 03:04:05 web2 cron[9]: job done\n"
    "<85>Jan  2 03:04:05 web1 sudo[10]: alice : COMMAND=/bin/ls\n");
  for (guint i = 1; i <= 10; i++)
    g_string_append_printf (input, "<13>Jan  2 03:04:05 flood flooder[1]: flood %u\n", i);
  g_string_append (input,
    "<13>Jan  2 03:04:05 web1 app[5]: login secret=abc123 token=xyz ok\n"
    "<13>1 2024-01-02T03:04:05Z web3 svc 55 ID1 [meta seq=\"5\" kind=\"x\"][other a=\"b\"] sdata message\n"
    "<13>Jan  2 03:04:05 web1 marker[1]: end\n");
  gboolean sent = sl_test_tcp_send (port, input->str);
  g_string_free (input, TRUE);
  if (!sent)
    return;

  check_file (env, "sshd.log", "marker end\n",
              "sshd Accepted via logger\n"
              "sshd Accepted publickey for alice\n"
              "sshd Failed password for bob\n"
              "marker end\n");
  check_file (env, "disk.log", "marker end\n", "postgres DISK IS FULL on /var\nmarker end\n");
  check_file (env, "listed.log", "marker end\n", "nginx GET / user=carol\ncron job done\nmarker end\n");
  check_file (env, "local-err.log", "marker end\n", "postgres DISK IS FULL on /var\nmarker end\n");
  /* every sender is 127.0.0.1, seen by netmask6() as ::ffff:127.0.0.1 */
  check_file (env, "v6.log", "marker end\n", "marker end\n");
  /* $1 stored by match() names the file */
  g_autofree gchar *carol = sl_test_path (env, "users/carol.log");
  if (sl_test_wait_lines (env, carol, 1))
    {
      g_autofree gchar *text = sl_test_read_file (carol);
      g_assert_cmpstr (text, ==, "nginx GET / user=carol\n");
    }
  /* set-tag() under a condition of filter functions, then clear-tag() */
  check_file (env, "audit.log", "marker end\n",
              "sshd Failed password for bob\nsudo alice : COMMAND=/bin/ls\nmarker end\n");
  check_file (env, "cleared.log", "marker end\n",
              "sshd Failed password for bob\nsudo alice : COMMAND=/bin/ls\nmarker end\n");
  /* one path's rewrites are never seen by the paths before or after it */
  check_file (env, "orig.log", "user.notice 1 end\n",
              "user.notice 5 login secret=abc123 token=xyz ok\nuser.notice 1 end\n");
  check_file (env, "rewritten.log", " user.notice 1 end\n",
              "web1:app local3.warning none login secret=*** token=*** ok\n user.notice 1 end\n");
  check_file (env, "orig-after.log", "user.notice 1 end\n",
              "user.notice 5 login secret=abc123 token=xyz ok\nuser.notice 1 end\n");
  check_file (env, "sdata.log", "gone gone end\n", "5 x sdata message\ngone gone end\n");
  check_file (env, "sdata-unset.log", "gone gone end\n", "gone gone sdata message\ngone gone end\n");

  /* rate(1) for host flood: the first passes; more only if the daemon
   * took seconds over ten lines that arrived together */
  g_autofree gchar *rate_log = sl_test_path (env, "rate.log");
  if (!sl_test_wait_contains (env, rate_log, "marker end\n"))
    return;
  g_auto (GStrv) lines = sl_test_read_lines (rate_log);
  guint n = g_strv_length (lines);
  g_assert_cmpuint (n, >=, 2);
  g_assert_cmpuint (n, <, 11);
  g_assert_cmpstr (lines[0], ==, "flooder flood 1");
  g_assert_cmpstr (lines[n - 1], ==, "marker end");
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/rules/filters-and-rewrites", test_rules);
  return g_test_run ();
}
