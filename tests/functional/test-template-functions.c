/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Template functions on the real daemon: two RFC 5424 messages over TCP
 * into three file() destinations whose templates use $(format-json),
 * $(format-welf), $(format-cef-extension), byte-counting text functions,
 * $(dns-resolve-ip) and the correlation-context functions outside a
 * context. Every expected line is what Debian's syslog-ng 3.38 wrote for
 * the same configuration and bytes; under @version: 4.8 the lines are
 * compared with what syslog-ng 4.8 writes, run beside it. */
#include "tests/functional/harness.h"

#include <sys/socket.h>

static const gchar config[] =
  "@version: 3.38\n"
  "template t_json { template(\"$(format-json --scope rfc5424 --exclude MESSAGE --pair n=int(${PID}))\\n\"); };\n"
  "template t_kv { template(\"$(format-welf --key PROGRAM --key MSGID id=${PID})|"
  "$(format-cef-extension --key PROGRAM --key MSG)\\n\"); };\n"
  "template t_text { template(\"$(length \\\"${MSG}\\\") $(substr \\\"${MSG}\\\" 0 6) $(uppercase \\\"${MSG}\\\") "
  "$(dns-resolve-ip --use-dns=no ${SOURCEIP}) $(context-length) $(grep (\\\"${PROGRAM}\\\" eq \\\"app\\\") ${PID}) "
  "[$(context-values ${HOST} ${PROGRAM})] ${HOST}@1\\n\"); };\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@) flags(syslog-protocol) keep-hostname(yes)); };\n"
  "log { source(s_net); destination { file(\"@DIR@/json.log\" template(t_json)); };\n"
  "  destination { file(\"@DIR@/kv.log\" template(t_kv)); };\n"
  "  destination { file(\"@DIR@/text.log\" template(t_text)); }; };\n";

static const gchar input[] =
  "<13>1 2024-03-05T10:11:12.345+01:00 web1 app 42 ID47 [origin ip=\"10.0.0.9\"][ex@32473 k=\"v w\"] "
  "h\xc3\xa9llo w\xc3\xb6rld=1\n"
  "<30>1 2024-03-05T10:11:13Z web2 other 7 - - stra\xc3\x9f" "e\n";

static const struct
{
  const gchar *file;
  const gchar *lines[2];
} expected[] = {
  { "json.log", {
      "{\"n\":42,\"_SDATA\":{\"origin\":{\"ip\":\"10.0.0.9\"},\"ex@32473\":{\"k\":\"v w\"}},\"PROGRAM\":\"app\","
      "\"PRIORITY\":\"notice\",\"PID\":\"42\",\"MSGID\":\"ID47\",\"HOST\":\"web1\",\"FACILITY\":\"user\","
      "\"DATE\":\"Mar  5 10:11:12\"}",
      "{\"n\":7,\"PROGRAM\":\"other\",\"PRIORITY\":\"info\",\"PID\":\"7\",\"HOST\":\"web2\",\"FACILITY\":\"daemon\","
      "\"DATE\":\"Mar  5 10:11:13\"}" } },
  { "kv.log", {
      "id=42 MSGID=ID47 PROGRAM=app|MSG=h\xc3\xa9llo w\xc3\xb6rld\\=1 PROGRAM=app",
      "id=7 PROGRAM=other|MSG=stra\xc3\x9f" "e PROGRAM=other" } },
  { "text.log", {
      "15 h\xc3\xa9llo H\xc3\x89LLO W\xc3\x96RLD=1 127.0.0.1 1 42 [web1,app] ",
      "7 stra\xc3\x9f STRASSE 127.0.0.1 1  [web2,other] " } },
};

static void
test_syslog_ng_output (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_text = g_strdup_printf ("%u", port);
  if (!port || !sl_test_write_config (env, config, "PORT", port_text, NULL) || !sl_test_daemon_start (env)
      || !sl_test_tcp_send (port, input))
    return;

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_autofree gchar *path = sl_test_path (env, expected[i].file);
      if (!sl_test_wait_lines (env, path, 2))
        return;
      g_auto (GStrv) lines = sl_test_read_lines (path);
      g_assert_cmpuint (g_strv_length (lines), ==, 2);
      g_assert_cmpstr (lines[0], ==, expected[i].lines[0]);
      g_assert_cmpstr (lines[1], ==, expected[i].lines[1]);
    }
}

/* The same configuration under @version: 4.8, side by side with syslog-ng
 * 4.8 (Debian 13's, in the root of tests/peers/trixie-root) on the same
 * bytes: every file the same, line by line */
static void
test_syslog_ng_48 (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *root = sl_test_trixie_root ();
  if (!root)
    {
      g_test_skip ("the Debian 13 root of syslog-ng 4.8 could not be made (tests/peers/trixie-root)");
      return;
    }
  GString *v4 = g_string_new (config);
  g_string_replace (v4, "@version: 3.38", "@version: 4.8", 1);
  guint16 ng_port = sl_test_free_port (SOCK_STREAM);
  guint16 sl_port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *ng_port_text = g_strdup_printf ("%u", ng_port);
  g_autofree gchar *sl_port_text = g_strdup_printf ("%u", sl_port);
  GString *ng_text = g_string_new (v4->str);
  g_string_replace (ng_text, "@PORT@", ng_port_text, 0);
  gchar *ng_dir = NULL;
  GPid ng = 0;

  /* sluiced first: sl_test_wait_tcp() waits only while it runs */
  if (sl_test_write_config (env, v4->str, "PORT", sl_port_text, NULL) && sl_test_daemon_start (env)
      && (ng = sl_test_syslog_ng_48_start (env, root, ng_text->str, NULL, &ng_dir))
      && sl_test_wait_tcp (env, ng_port) && sl_test_tcp_send (ng_port, input) && sl_test_tcp_send (sl_port, input))
    for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
      {
        g_autofree gchar *ng_path = g_build_filename (ng_dir, expected[i].file, NULL);
        g_autofree gchar *sl_path = sl_test_path (env, expected[i].file);
        if (!sl_test_wait_lines (env, ng_path, 2) || !sl_test_wait_lines (env, sl_path, 2))
          break;
        g_autofree gchar *want = sl_test_read_file (ng_path);
        g_autofree gchar *got = sl_test_read_file (sl_path);
        g_test_message ("%s as syslog-ng 4.8 wrote it:\n%s", expected[i].file, want);
        g_assert_cmpstr (got, ==, want);
      }
  sl_test_syslog_ng_48_stop (ng, ng_dir);
  g_string_free (ng_text, TRUE);
  g_string_free (v4, TRUE);
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/template-functions/syslog-ng-output", test_syslog_ng_output);
  SL_TEST_ADD ("/template-functions/syslog-ng-4.8", test_syslog_ng_48);
  return g_test_run ();
}
