/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The plugin kit as a third party uses it: examples/plugin built with
 * nothing but `pkg-config sluice` against the installed kit, loaded with
 * --module-path beside the installed plugins, and run by sluiced. */
#include "tests/functional/harness.h"

#include <string.h>
#include <sys/socket.h>

static const gchar kit_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_kit { line-file(\"@DIR@/sampled.log\" template(\"${PROGRAM} ${MESSAGE}\\n\")); };\n"
  "log { source(s_net); filter { sample(rate(5)); }; destination(d_kit); };\n";

static void
test_out_of_tree_plugin (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *pkgconfig = g_build_filename (SL_LIBDIR, "pkgconfig", "sluice.pc", NULL);
  if (!g_file_test (pkgconfig, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("the kit is not installed (./quickstart build installs it)");
      return;
    }
  const gchar *srcdir = g_getenv ("SL_TOP_SRCDIR");
  g_autofree gchar *example = g_build_filename (srcdir, "examples", "plugin", NULL);
  g_autofree gchar *pc_path = g_build_filename (SL_LIBDIR, "pkgconfig", NULL);
  g_autofree gchar *out_dir = g_strdup_printf ("O=%s", env->dir);
  g_autofree gchar *pc_env = g_strdup_printf ("PKG_CONFIG_PATH=%s", pc_path);
  const gchar *build[] = { "env", pc_env, "make", "-s", "-C", example, out_dir, NULL };
  g_autofree gchar *err = NULL;
  g_assert_cmpint (sl_test_run_argv (build, NULL, &err), ==, 0);

  /* the folder of one's own is searched before the installed plugins */
  g_autofree gchar *module_path = g_strconcat (sl_test_module_path (), ":", env->dir, NULL);
  g_setenv ("SL_MODULE_PATH", module_path, TRUE);
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = g_strdup_printf ("%u", port);
  if (!port || !sl_test_write_config (env, kit_config, "PORT", port_str, NULL) || !sl_test_daemon_start (env))
    return;
  GString *lines = g_string_new (NULL);
  for (guint i = 0; i < 20; i++)
    g_string_append_printf (lines, "<13>Dec  1 10:00:00 host kit: message %u\n", i);
  gboolean sent = sl_test_tcp_send (port, lines->str);
  g_string_free (lines, TRUE);
  g_autofree gchar *out = sl_test_path (env, "sampled.log");
  if (!sent || !sl_test_wait_lines (env, out, 4))
    return;
  g_autofree gchar *text = sl_test_read_file (out);
  g_assert_cmpstr (text, ==, "kit message 0\nkit message 5\nkit message 10\nkit message 15\n");
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/plugin-kit/out-of-tree", test_out_of_tree_plugin);
  return g_test_run ();
}
