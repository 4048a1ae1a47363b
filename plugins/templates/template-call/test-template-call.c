/* SPDX-License-Identifier: GPL-2.0-or-later */
/* $(template) in syslog-ng 3.38 and in sluiced, one configuration, the
 * same messages: a name bound when compiled (also inside another template
 * object, and with the destination's template-escape()), a name made from
 * the message with and without a fallback; and an unknown name refused. */
#include "tests/functional/harness.h"

#include <signal.h>
#include <string.h>
#include <sys/socket.h>

static const gchar config[] =
  "@version: 3.38\n"
  "options { keep-hostname(yes); };\n"
  "source s { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "template t_base { template(\"$HOST $PROGRAM\"); };\n"
  "template t_inner { template(\"[$(template t_base)] $MSG\"); };\n"
  "template t_app { template(\"app said: $MSG\"); };\n"
  "template t_other { template(\"other said: ${MSG} $(template t_base)\"); };\n"
  "log { source(s);\n"
  "  destination { file(\"@OUT@/static.log\" template(\"$(template t_inner)\\n\")); };\n"
  "  destination { file(\"@OUT@/dynamic.log\" template(\"$(template t_${PROGRAM} none for ${PROGRAM})|"
  "$(template '${PROGRAM}')|$(template t_base unused fallback)\\n\")); };\n"
  "  destination { file(\"@OUT@/escaped.log\" template(\"$(template t_${PROGRAM})\\n\") template-escape(yes)); };\n"
  "};\n";

static const gchar *const messages[] = {
  "<13>Dec  1 10:00:00 web1 app: plain 'quoted' \"double\"",
  "<13>Dec  1 10:00:01 web2 other: from other",
  "<13>Dec  1 10:00:02 web3 nobody: no template of mine",
};

static const gchar *const outputs[] = { "static.log", "dynamic.log", "escaped.log", NULL };

static gchar *
read_output (const gchar *out, const gchar *name)
{
  g_autofree gchar *path = g_build_filename (out, name, NULL);
  return sl_test_read_file (path);
}

static void
test_same_as_syslog_ng (SlTestEnv *env, gconstpointer data)
{
  GString *text = g_string_new (NULL);
  for (guint i = 0; i < G_N_ELEMENTS (messages); i++)
    g_string_append_printf (text, "%s\n", messages[i]);
  g_autofree gchar *sl_out = NULL, *ng_out = NULL;
  gboolean ran = sl_test_side_by_side (env, config, text->str, outputs, G_N_ELEMENTS (messages), &sl_out, &ng_out,
                                       NULL);
  g_string_free (text, TRUE);
  if (!ran)
    return;
  for (guint i = 0; outputs[i]; i++)
    {
      g_autofree gchar *ng_text = read_output (ng_out, outputs[i]);
      g_autofree gchar *sl_text = read_output (sl_out, outputs[i]);
      g_test_message ("%s:\n%s", outputs[i], sl_text);
      g_assert_cmpstr (sl_text, ==, ng_text);
    }
  g_autofree gchar *dynamic = read_output (sl_out, "dynamic.log");
  g_assert_nonnull (strstr (dynamic, "none for nobody||web3 nobody\n"));
}

static void
test_unknown_name_refused (SlTestEnv *env, gconstpointer data)
{
  const gchar *module_path = sl_test_module_path ();
  if (!module_path
      || !sl_test_write_config (env,
                                "@version: 4.0\n"
                                "source s { tcp(ip(\"127.0.0.1\") port(1)); };\n"
                                "log { source(s); destination { file(\"@DIR@/x.log\" "
                                "template(\"$(template t_missing)\\n\")); }; };\n",
                                NULL))
    return;
  g_autofree gchar *err = NULL;
  gint status = sl_test_run_built ("daemon/sluiced", NULL, &err, "-s", "-f", env->config, "--module-path",
                                   module_path, NULL);
  g_test_message ("%s", err);
  g_assert_cmpint (status, !=, 0);
  g_assert_nonnull (strstr (err, ":3:"));
  g_assert_nonnull (strstr (err, "no template function or template is called 't_missing'"));
}

/* A reload that keeps the destination (the same text) keeps the
 * templates its $(template ${NAME}) finds. */
static void
test_reload_keeps_named (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_text = g_strdup_printf ("%u", port);
  g_autofree gchar *out = sl_test_path (env, "out.log");
  if (!port
      || !sl_test_write_config (env,
                                "@version: 4.0\n"
                                "template t_app { template(\"app: $MSG\"); };\n"
                                "source s { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
                                "log { source(s); destination { file(\"@DIR@/out.log\" "
                                "template(\"$(template t_${PROGRAM} none)\\n\")); }; };\n",
                                "PORT", port_text, NULL)
      || !sl_test_daemon_start (env) || !sl_test_tcp_send (port, "<13>Dec  1 10:00:00 h app: before\n")
      || !sl_test_wait_lines (env, out, 1))
    return;
  kill (env->pid, SIGHUP);
  if (!sl_test_wait_stderr (env, "configuration reloaded") || !sl_test_wait_tcp (env, port)
      || !sl_test_tcp_send (port, "<13>Dec  1 10:00:01 h app: after\n") || !sl_test_wait_lines (env, out, 2))
    return;
  g_autofree gchar *text = sl_test_read_file (out);
  g_assert_cmpstr (text, ==, "app: before\napp: after\n");
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  g_setenv ("TZ", "UTC", TRUE);
  SL_TEST_ADD ("/template-call/same-as-syslog-ng", test_same_as_syslog_ng);
  SL_TEST_ADD ("/template-call/unknown-name-refused", test_unknown_name_refused);
  SL_TEST_ADD ("/template-call/reload-keeps-named", test_reload_keeps_named);
  return g_test_run ();
}
