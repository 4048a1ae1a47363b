/* SPDX-License-Identifier: GPL-2.0-or-later */
/* grouping-by() on the real daemon: aggregates injected into the path on a
 * trigger and, with no message coming, on a timeout; scope(), sort-key(),
 * having(), where(), inherit-mode() and pass-through; and Debian's
 * kubernetes-file-parser() SCL block joining a container's partial lines,
 * used as a user would (@include "scl.conf"). The expected lines are what
 * syslog-ng 3.38 writes for the same configuration and input. */
#include "tests/functional/harness.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/socket.h>

static const gchar input[] =
  "<13>Nov 29 20:25:57 web1 app[1]: one\n"
  "<13>Nov 29 20:25:57 web1 app[1]: b-zero\n"
  "<13>Nov 29 20:25:58 web1 app[2]: two\n"
  "<13>Nov 29 20:25:58 web1 other[3]: x\n"
  "<13>Nov 29 20:25:59 web1 app[2]: end\n";

static gboolean
run (SlTestEnv *env, const gchar *config, guint lines, const gchar *const *expected)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = g_strdup_printf ("%u", port);
  if (!port || !sl_test_write_config (env, config, "PORT", port_str, NULL) || !sl_test_daemon_start (env)
      || !sl_test_wait_tcp (env, port) || !sl_test_tcp_send (port, input))
    return FALSE;
  g_autofree gchar *out = sl_test_path (env, "out");
  if (!sl_test_wait_lines (env, out, lines))
    return FALSE;
  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
  g_auto (GStrv) got = sl_test_read_lines (out);
  g_assert_cmpstrv (got, expected);
  return TRUE;
}

/* "end" closes app's context at once; other's has no trigger and no
 * message after it, so only the timer closes it. @0 is the aggregate
 * itself, which inherit-mode(none) starts empty but for the host of
 * scope(host). */
static void
test_trigger_and_timeout (SlTestEnv *env, gconstpointer data)
{
  static const gchar config[] =
    "@version: 3.38\n"
    "options { keep-hostname(yes); };\n"
    "source s { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
    "parser p { grouping-by(key(\"$PROGRAM\") scope(host) timeout(2) inject-mode(aggregate-only)\n"
    "  trigger(\"$MSG\" eq \"end\")\n"
    "  aggregate(value(\"MESSAGE\" \"n=$(context-length) first=${MSG}@2 prev=${MSG}@1 self=${MSG}@0\")\n"
    "            inherit-mode(none) tags(\"agg\"))); };\n"
    "log { source(s); parser(p); destination { file(\"@DIR@/out\"\n"
    "  template(\"[$HOST] [$PROGRAM] [$PID] pri=$PRI tags=$TAGS ctx=${.classifier.context_id} $MSG\\n\")); }; };\n";
  static const gchar *const expected[] = {
    "[web1] [] [] pri=13 tags=agg ctx= n=5 first=two prev=end self=",
    "[web1] [] [] pri=13 tags=agg ctx= n=2 first= prev=x self=",
    NULL
  };
  run (env, config, 2, expected);
}

/* Contexts per host, program and pid; sorted before aggregating, so that
 * the newest message having() sees is the last in that order; every
 * message goes on too (pass-through); the aggregate is the newest message
 * with the values set. app[1]'s context expires when "end" moves the
 * clock past it, before "end" itself is grouped. */
static void
test_scope_sort_having_pass_through (SlTestEnv *env, gconstpointer data)
{
  static const gchar config[] =
    "@version: 3.38\n"
    "options { keep-hostname(yes); };\n"
    "source s { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
    "log { source(s);\n"
    "  parser { grouping-by(key(\"k\") scope(process) timeout(1) inject-mode(pass-through) where(program(\"app\"))\n"
    "    having(\"${MSG}\" ne \"end\") sort-key(\"$MSG\")\n"
    "    aggregate(value(\"MESSAGE\" \"ctx of $(context-length): ${MSG}@2 ${MSG}@1\") inherit-mode(last-message))); };\n"
    "  destination { file(\"@DIR@/out\" template(\"[$HOST] [$PROGRAM] [$PID] $MSG ctx=${.classifier.context_id}\\n\")); };\n"
    "};\n";
  static const gchar *const expected[] = {
    "[web1] [app] [1] one ctx=k",
    "[web1] [app] [1] b-zero ctx=k",
    "[web1] [app] [2] two ctx=k",
    "[web1] [other] [3] x ctx=",
    "[web1] [app] [1] ctx of 3: b-zero one ctx=k",
    "[web1] [app] [2] end ctx=k",
    "[web1] [app] [2] ctx of 3: end two ctx=k",
    NULL
  };
  run (env, config, 7, expected);
}

/* What the kubernetes() source does, with file(): a container's log file
 * whose name carries the pod's metadata; P lines are joined up to the
 * F line that ends them. Sluice's file() does not set $FILE_NAME (the
 * kubernetes() source's wildcard-file() is to), so a rewrite does. */
static void
test_kubernetes_file_parser (SlTestEnv *env, gconstpointer data)
{
  static const gchar config[] =
    "@version: 3.38\n"
    "@include \"scl.conf\"\n"
    "source s { file(\"@FILE@\" flags(no-parse) follow-freq(1)); };\n"
    "log { source(s); rewrite { set(\"@FILE@\" value(\"FILE_NAME\")); }; parser { kubernetes-file-parser(); };\n"
    "  destination { file(\"@DIR@/out\" template(\"$ISODATE $HOST $PROGRAM[$PID] $MSG tags=$TAGS"
    " ns=${.k8s.namespace_name} pod=${.k8s.pod_name} c=${.k8s.container_name} id=${.k8s.container_id}"
    " s=${.k8s.stream}\\n\")); }; };\n";
  static const gchar *const expected[] = {
    "2022-02-04T18:14:43+01:00 k8s/default/web-1 nginx[0123456789ab/stdout] Starting up on port 80 tags=.tmp.k8s"
    " ns=default pod=web-1 c=nginx id=0123456789ab s=stdout",
    "2022-02-04T18:14:44+01:00 k8s/default/web-1 nginx[0123456789ab/stdout] partial one and two and done"
    " tags=.tmp.k8s ns=default pod=web-1 c=nginx id=0123456789ab s=stdout",
    NULL
  };
  const gchar *srcdir = g_getenv ("SL_TOP_SRCDIR");
  if (!g_file_test ("/usr/share/syslog-ng/include/scl/kubernetes/kubernetes.conf", G_FILE_TEST_EXISTS))
    {
      g_test_skip ("Debian's syslog-ng-scl is not installed");
      return;
    }
  g_assert_nonnull (srcdir);
  g_autofree gchar *folder = sl_test_path (env, "var/log/containers");
  g_autofree gchar *file = g_strdup_printf ("%s/web-1_default_nginx-0123456789abcdef0123456789abcdef"
                                            "0123456789abcdef0123456789abcdef.log", folder);
  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_assert_true (g_file_set_contents (file,
                                      "2022-02-04T18:14:43.219493781+01:00 stdout F Starting up on port 80\n"
                                      "2022-02-04T18:14:44.000000001+01:00 stdout P partial one \n"
                                      "2022-02-04T18:14:44.000000002+01:00 stdout P and two \n"
                                      "2022-02-04T18:14:44.000000003+01:00 stdout F and done\n", -1, NULL));
  g_autofree gchar *include = g_strdup_printf ("%s/config/include:/usr/share/syslog-ng/include", srcdir);
  if (!sl_test_write_config (env, config, "FILE", file, NULL)
      || !sl_test_daemon_start_with_args (env, "--include-path", include, NULL))
    return;
  g_autofree gchar *out = sl_test_path (env, "out");
  if (!sl_test_wait_lines (env, out, 2))
    return;
  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
  g_auto (GStrv) got = sl_test_read_lines (out);
  g_assert_cmpstrv (got, expected);
}

static void
expect_error (SlTestEnv *env, const gchar *options, const gchar *fragment)
{
  g_autofree gchar *config = g_strdup_printf ("source s { internal(); };\n"
                                              "log { source(s); parser { grouping-by(%s); };"
                                              " destination { file(\"/dev/null\"); }; };\n", options);
  g_autofree gchar *err = NULL;
  if (!sl_test_write_config (env, config, NULL))
    return;
  g_assert_cmpint (sl_test_run_built ("daemon/sluiced", NULL, &err, "-s", "-f", env->config, "--module-path",
                                      sl_test_module_path (), NULL), ==, 1);
  if (!strstr (err, fragment))
    g_test_fail_printf ("'%s' does not say '%s'", err, fragment);
}

static void
test_errors (SlTestEnv *env, gconstpointer data)
{
  expect_error (env, "timeout(5) aggregate(value(\"A\" \"b\"))", "grouping-by() needs key()");
  expect_error (env, "key(\"k\") aggregate(value(\"A\" \"b\"))", "grouping-by() needs option timeout()");
  expect_error (env, "key(\"k\") timeout(5)", "grouping-by() needs aggregate()");
  expect_error (env, "key(\"k\") timeout(5) aggregate(value(\"A\"))", "value() takes a name and a template");
  expect_error (env, "key(\"k\") timeout(5) aggregate(inherit-mode(all))", "inherit-mode() takes context");
  expect_error (env, "key(\"k\") timeout(5) aggregate(value(\"A\" \"b\")) inject-mode(internal)",
                "cannot send aggregates to internal()");
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/grouping-by/trigger-and-timeout", test_trigger_and_timeout);
  SL_TEST_ADD ("/grouping-by/scope-sort-having-pass-through", test_scope_sort_having_pass_through);
  SL_TEST_ADD ("/grouping-by/kubernetes-file-parser", test_kubernetes_file_parser);
  SL_TEST_ADD ("/grouping-by/errors", test_errors);
  return g_test_run ();
}
