/* SPDX-License-Identifier: GPL-2.0-or-later */
/* parallelize() in the real sluiced: numbered messages from sluice-gen
 * over several TCP connections through parsers on two partitions keyed by
 * $HOST, a reload and a stop under way, and sluice-gen verify counting
 * what arrived; the same configuration is one syslog-ng 4.8 accepts. */
#include "tests/functional/harness.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#define PER_CONNECTION 20000

static const gchar *const config =
  "@version: 4.8\n"
  "options { keep-hostname(yes); };\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@) log-iw-size(2000)); };\n"
  "parser p_heavy {\n"
  "  regexp-parser(patterns(\"seq=(?<conn>[0-9]+):(?<num>[0-9]+)\") prefix(\"p.\"));\n"
  "  regexp-parser(patterns(\"^(?<head>[a-z]+)=(?<tail>.*)$\") prefix(\"q.\"));\n"
  "};\n"
  "destination d_out { file(\"@DIR@/out.log\" template(\"${HOST} ${p.conn} ${q.head} ${MSG}\\n\")); };\n"
  "log { source(s_net); parallelize(partitions(2) partition-key(\"$HOST\")); parser(p_heavy);\n"
  "  destination(d_out); flags(flow-control); };\n";

/* syslog-ng 4.8 --syntax-only on the test's configuration, copied into
 * the Debian 13 root; its exit status, or -1 when the root is missing. */
static gint
syslog_ng_48_syntax (SlTestEnv *env, gchar **err)
{
  g_autofree gchar *root = sl_test_trixie_root ();
  if (!root)
    return -1;
  g_autofree gchar *dir = g_build_filename (root, env->dir, NULL);
  g_autofree gchar *copy = g_build_filename (dir, "sluice.conf", NULL);
  g_autofree gchar *text = NULL;
  gint status = 2;
  if (g_mkdir_with_parents (dir, 0755) == 0 && g_file_get_contents (env->config, &text, NULL, NULL)
      && g_file_set_contents (copy, text, -1, NULL))
    {
      const gchar *argv[] = { "chroot", root, "/usr/sbin/syslog-ng", "--syntax-only", "-f", env->config, NULL };
      status = sl_test_run_argv (argv, NULL, err);
    }
  if (!sl_test_peer_stop (0, dir))
    g_test_fail_printf ("%s could not be removed", dir);
  return status;
}

static GPid
start_gen (SlTestEnv *env, guint16 port, const gchar *host, const gchar *first)
{
  g_autofree gchar *port_text = g_strdup_printf ("%u", port);
  g_autofree gchar *number = g_strdup_printf ("%u", PER_CONNECTION);
  g_autofree gchar *err = g_strdup_printf ("%s/gen-%s.stderr", env->dir, host);
  const gchar *args[] = { "-Q", "-r", "0", "-n", number, "--active-connections", "2", "--first-connection", first,
                          "--host", host, "127.0.0.1", port_text, NULL };
  return sl_test_spawn_built ("tools/sluice-gen", err, args);
}

static gint64
number_after (const gchar *text, const gchar *key)
{
  const gchar *at = text ? strstr (text, key) : NULL;
  return at ? g_ascii_strtoll (at + strlen (key), NULL, 10) : -1;
}

static void
test_keyed_partitions_deliver_in_order (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_text = g_strdup_printf ("%u", port);
  g_autofree gchar *out = sl_test_path (env, "out.log");
  if (!port || !sl_test_write_config (env, config, "PORT", port_text, NULL))
    return;

  g_autofree gchar *ng_err = NULL;
  gint ng = syslog_ng_48_syntax (env, &ng_err);
  if (ng >= 0)
    g_assert_cmpint (ng, ==, 0);
  else
    g_test_message ("no Debian 13 root: syslog-ng 4.8 not asked");

  if (!sl_test_daemon_start (env) || !sl_test_wait_tcp (env, port))
    return;
  GPid gens[] = { start_gen (env, port, "h1", "1"), start_gen (env, port, "h2", "3") };
  g_assert_true (gens[0] && gens[1]);

  /* a reload while the partitions hold messages: the old ones drain */
  if (!sl_test_wait_lines (env, out, 1000))
    return;
  kill (env->pid, SIGHUP);
  if (!sl_test_wait_stderr (env, "configuration reloaded"))
    return;
  for (guint i = 0; i < G_N_ELEMENTS (gens); i++)
    g_assert_cmpint (sl_test_child_wait (gens[i], 60 * G_USEC_PER_SEC), ==, 0);
  /* the stop routes on what the partitions still hold: it comes as soon
   * as the source has read every message (what a stop leaves unread in
   * the sockets was never taken in) */
  if (!sl_test_wait_stat (env, "source", "s_net", "received", 4 * PER_CONNECTION))
    return;
  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);

  g_autofree gchar *report = NULL;
  gint status = sl_test_run_built ("tools/sluice-gen", &report, NULL, "verify", "--expect",
                                   G_STRINGIFY (PER_CONNECTION), "--connections", "4", out, NULL);
  g_test_message ("sluice-gen verify:\n%s", report ? report : "");
  g_assert_cmpint (status, ==, 0);
  const gchar *total = report ? strstr (report, "total: ") : NULL;
  g_assert_nonnull (total);
  g_assert_cmpint (number_after (total, " distinct="), ==, 4 * PER_CONNECTION);
  g_assert_cmpint (number_after (total, " missing="), ==, 0);
  g_assert_cmpint (number_after (total, " duplicated="), ==, 0);
  g_assert_cmpint (number_after (total, " reordered="), ==, 0);

  /* the parsers ran on the partitions: every line has what they found,
   * and the host its connections sent */
  g_auto (GStrv) lines = sl_test_read_lines (out);
  g_assert_nonnull (lines);
  guint checked = 0;
  for (guint i = 0; lines[i]; i++)
    {
      gchar host[8], head[8];
      guint conn;
      if (sscanf (lines[i], "%7s %u %7s ", host, &conn, head) == 3 && g_str_equal (head, "seq")
          && g_str_equal (host, conn <= 2 ? "h1" : "h2"))
        checked++;
      else
        g_test_fail_printf ("not what the parsers make of h1's or h2's message: %s", lines[i]);
    }
  g_assert_cmpuint (checked, ==, 4 * PER_CONNECTION);
}

/* What syslog-ng 4.8 refuses, Sluice refuses at its position. */
static void
test_wrong_values_refused (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *err = sl_test_refused_config (env,
    "@version: 4.8\n"
    "source s { stdin(); };\n"
    "log { source(s); parallelize(partitions(two)); };\n", NULL);
  g_assert_nonnull (err);
  g_assert_nonnull (strstr (err, "sluice.conf:3:"));
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/parallelize/keyed-partitions", test_keyed_partitions_deliver_in_order);
  SL_TEST_ADD ("/parallelize/wrong-values", test_wrong_values_refused);
  return g_test_run ();
}
