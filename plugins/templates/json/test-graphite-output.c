/* SPDX-License-Identifier: GPL-2.0-or-later */
/* $(graphite-output) and the SCL's graphite() destination as syslog-ng
 * 3.38 (Debian's syslog-ng-mod-graphite) writes them: the same lines from
 * both daemons on one configuration, and the block delivering to a
 * Graphite-style TCP listener. */
#include "tests/functional/harness.h"

#include <string.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

static const gchar config[] =
  "@version: 3.38\n"
  "options { keep-hostname(yes); };\n"
  "source s { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "log { source(s); parser { kv-parser(prefix(\"metrics.\")); };\n"
  "  destination { file(\"@OUT@/stamped.log\" template(\"$(graphite-output --key metrics.* --timestamp ${S_UNIXTIME})\")); };\n"
  "  destination { file(\"@OUT@/pairs.log\"\n"
  "    template(\"$(graphite-output -t 1700000000 --pair host.${HOST}.up=1 --key .meta.* --key metrics.c*)\")); };\n"
  "  destination { file(\"@OUT@/now.log\" template(\"$(graphite-output --key metrics.mem)\")); }; };\n";

static const gchar *const outputs[] = { "stamped.log", "pairs.log", "now.log", NULL };

static gchar *
read_output (const gchar *out, const gchar *name)
{
  g_autofree gchar *path = g_build_filename (out, name, NULL);
  return sl_test_read_file (path);
}

static void
test_same_as_syslog_ng (SlTestEnv *env, gconstpointer data)
{
  const gchar *text = "<13>Dec  1 10:00:00 web1 app: cpu=0.5 mem=1024 cache=77\n"
                      "<13>Dec  1 10:00:01 web2 app: cpu=1.5 mem=2048\n";
  g_autofree gchar *sl_out = NULL, *ng_out = NULL;
  if (!sl_test_side_by_side (env, config, text, outputs, 2, &sl_out, &ng_out, NULL))
    return;
  for (guint i = 0; i < 2; i++)
    {
      g_autofree gchar *ng_text = read_output (ng_out, outputs[i]);
      g_autofree gchar *sl_text = read_output (sl_out, outputs[i]);
      g_test_message ("%s:\n%s", outputs[i], sl_text);
      g_assert_cmpstr (sl_text, ==, ng_text);
    }
  /* a pair's name is taken as written, not rendered, as in syslog-ng */
  g_autofree gchar *pairs = read_output (sl_out, "pairs.log");
  g_assert_true (g_str_has_prefix (pairs, "host.${HOST}.up 1 1700000000\nmetrics.cache 77 1700000000\n"
                                          "metrics.cpu 0.5 1700000000\n"));
  /* the received time by default: shaped as a UNIX time */
  g_autofree gchar *now = read_output (sl_out, "now.log");
  gchar **lines = g_strsplit (now, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 3);
  g_assert_true (g_str_has_prefix (lines[0], "metrics.mem 1024 "));
  gint64 stamp = g_ascii_strtoll (lines[0] + strlen ("metrics.mem 1024 "), NULL, 10);
  g_assert_cmpint (ABS (stamp - g_get_real_time () / G_USEC_PER_SEC), <, 3600);
  g_strfreev (lines);
}

/* The SCL block, unchanged, sends the lines to a Graphite listener: a
 * socket of the test's own. */
static void
test_scl_block (SlTestEnv *env, gconstpointer data)
{
  if (!g_file_test ("/usr/share/syslog-ng/include/scl/graphite/plugin.conf", G_FILE_TEST_EXISTS))
    {
      g_test_skip ("syslog-ng-scl is not installed");
      return;
    }
  guint16 graphite = sl_test_free_port (SOCK_STREAM);
  gint listener = socket (AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons (graphite),
                              .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  g_assert_cmpint (bind (listener, (struct sockaddr *) &addr, sizeof addr), ==, 0);
  g_assert_cmpint (listen (listener, 4), ==, 0);
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_text = g_strdup_printf ("%u", port), *graphite_text = g_strdup_printf ("%u", graphite);
  g_autofree gchar *include = sl_test_scl_include_path ();
  g_assert_true (sl_test_write_config (env,
                                       "@version: 3.38\n"
                                       "@include \"scl.conf\"\n"
                                       "source s { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
                                       "destination d { graphite(host(\"127.0.0.1\") port(@GRAPHITE@)\n"
                                       "  payload(\"--key metrics.* --timestamp 1700000000\")); };\n"
                                       "log { source(s); parser { kv-parser(prefix(\"metrics.\")); }; destination(d); };\n",
                                       "PORT", port_text, "GRAPHITE", graphite_text, NULL));
  if (!sl_test_daemon_start_with_args (env, "--include-path", include, NULL) || !sl_test_wait_tcp (env, port)
      || !sl_test_tcp_send (port, "<13>Dec  1 10:00:00 web1 app: cpu=0.5 mem=1024\n"))
    {
      close (listener);
      return;
    }
  gint conn = accept (listener, NULL, NULL);
  GString *got = g_string_new (NULL);
  gchar buf[256];
  gssize n;
  while (!strstr (got->str, "metrics.mem") && (n = read (conn, buf, sizeof buf)) > 0)
    g_string_append_len (got, buf, n);
  g_assert_cmpstr (got->str, ==, "metrics.cpu 0.5 1700000000\nmetrics.mem 1024 1700000000\n");
  g_string_free (got, TRUE);
  close (conn);
  close (listener);
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  g_setenv ("TZ", "UTC", TRUE);
  SL_TEST_ADD ("/graphite-output/same-as-syslog-ng", test_same_as_syslog_ng);
  SL_TEST_ADD ("/graphite-output/scl-block", test_scl_block);
  return g_test_run ();
}
