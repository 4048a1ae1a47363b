/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A plugin its folder's index lists is loaded only when a configuration
 * uses it: at start, or at the reload that first names it. The build's
 * plugin folders have their index (make writes it), as an installed
 * folder has. A plugin the index does not list, or lists with another
 * build id, is loaded at start. */
#include "tests/functional/harness.h"

#include <string.h>
#include <signal.h>
#include <sys/socket.h>

/* The built plugin file base, found in the module path; NULL (and the
 * test failed) when it is not there. */
static gchar *
built_plugin (const gchar *base)
{
  const gchar *module_path = sl_test_module_path ();
  g_auto (GStrv) dirs = module_path ? g_strsplit (module_path, G_SEARCHPATH_SEPARATOR_S, -1) : NULL;
  for (guint i = 0; dirs && dirs[i]; i++)
    {
      gchar *path = g_build_filename (dirs[i], base, NULL);
      if (g_file_test (path, G_FILE_TEST_EXISTS))
        return path;
      g_free (path);
    }
  g_test_fail_printf ("%s is not in the module path", base);
  return NULL;
}

/* The plugins of the daemon's memory map, their base names joined by
 * spaces around each. */
static gchar *
mapped_plugins (GPid pid)
{
  g_autofree gchar *maps_path = g_strdup_printf ("/proc/%d/maps", pid);
  g_auto (GStrv) lines = sl_test_read_lines (maps_path);
  GString *out = g_string_new (" ");
  for (guint i = 0; lines && lines[i]; i++)
    {
      const gchar *slash = strrchr (lines[i], '/');
      if (!slash || !strstr (lines[i], "/.libs/") || !g_str_has_suffix (slash, ".so"))
        continue;
      g_autofree gchar *word = g_strdup_printf (" %s ", slash + 1);
      if (!strstr (out->str, word))
        g_string_append_printf (out, "%s ", slash + 1);
    }
  return g_string_free (out, FALSE);
}

static void
assert_mapped (GPid pid, const gchar *const *yes, const gchar *const *no)
{
  g_autofree gchar *mapped = mapped_plugins (pid);
  for (guint i = 0; yes[i]; i++)
    {
      g_autofree gchar *word = g_strdup_printf (" %s ", yes[i]);
      if (!strstr (mapped, word))
        g_test_fail_printf ("%s is not loaded; loaded:%s", yes[i], mapped);
    }
  for (guint i = 0; no[i]; i++)
    {
      g_autofree gchar *word = g_strdup_printf (" %s ", no[i]);
      if (strstr (mapped, word))
        g_test_fail_printf ("%s is loaded, which the configuration does not use; loaded:%s", no[i], mapped);
    }
}

static void
test_loaded_when_used (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_text = g_strdup_printf ("%u", port);
  g_autofree gchar *out = sl_test_path (env, "out.log");
  if (!port || !sl_test_write_config (env,
                                      "@version: 4.8\n"
                                      "source s { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
                                      "destination d { file(\"@DIR@/out.log\"); };\n"
                                      "log { source(s); destination(d); };\n",
                                      "PORT", port_text, NULL))
    return;
  if (!sl_test_daemon_start (env) || !sl_test_wait_tcp (env, port))
    return;
  static const gchar *const at_start[] = { "source-net.so", "dest-file.so", NULL };
  static const gchar *const unused[] = { "python.so", "dest-kafka.so", "destination-snmp.so", "parser-json.so",
                                         "tf-json.so", NULL };
  assert_mapped (env->pid, at_start, unused);

  /* the reload that first names json-parser() and $(format-json) loads them */
  if (!sl_test_write_config (env,
                             "@version: 4.8\n"
                             "options { create-dirs(yes); };\n"
                             "source s { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
                             "parser p { json-parser(prefix(\"j.\")); };\n"
                             "destination d { file(\"@DIR@/out.log\" template(\"$(format-json j.*)\\n\")); };\n"
                             "log { source(s); parser(p); destination(d); };\n",
                             "PORT", port_text, NULL))
    return;
  kill (env->pid, SIGHUP);
  if (!sl_test_wait_stderr (env, "configuration reloaded"))
    return;
  g_assert_true (sl_test_tcp_send (port, "<13>Jan  1 00:00:00 h p: {\"n\":1,\"s\":\"x\"}\n"));
  if (!sl_test_wait_lines (env, out, 1))
    return;
  g_autofree gchar *text = sl_test_read_file (out);
  g_assert_cmpstr (text, ==, "{\"j\":{\"s\":\"x\",\"n\":1}}\n");
  static const gchar *const after_reload[] = { "source-net.so", "dest-file.so", "parser-json.so", "tf-json.so", NULL };
  static const gchar *const still_unused[] = { "python.so", "dest-kafka.so", "destination-snmp.so", NULL };
  assert_mapped (env->pid, after_reload, still_unused);
  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
}

/* `sluiced -d -s` on the configuration with the folder dir first in the
 * module path: its stderr, which names each plugin loaded. */
static gchar *
check_with (SlTestEnv *env, const gchar *dir)
{
  g_autofree gchar *path = g_strconcat (dir, G_SEARCHPATH_SEPARATOR_S, sl_test_module_path (), NULL);
  gchar *err = NULL;
  g_assert_cmpint (sl_test_run_built ("daemon/sluiced", NULL, &err, "-d", "-s", "-f", env->config,
                                      "--module-path", path, NULL), ==, 0);
  return err;
}

static void
test_index_written_and_checked (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *built = built_plugin ("dest-stdout.so");
  g_autofree gchar *dir = sl_test_path (env, "plugins");
  g_autofree gchar *copy = g_build_filename (dir, "dest-stdout.so", NULL);
  g_autofree gchar *index = g_build_filename (dir, "sluice-plugins.index", NULL);
  g_autofree gchar *bytes = NULL;
  gsize len = 0;
  if (!built || g_mkdir_with_parents (dir, 0755) != 0 || !g_file_get_contents (built, &bytes, &len, NULL)
      || !g_file_set_contents (copy, bytes, len, NULL))
    return;
  if (!sl_test_write_config (env,
                             "source s { internal(); };\n"
                             "destination d { file(\"@DIR@/out.log\"); };\n"
                             "log { source(s); destination(d); };\n", NULL))
    return;
  g_autofree gchar *loaded = g_strdup_printf ("(%s)", copy);

  /* no index: loaded at start */
  g_autofree gchar *unindexed = check_with (env, dir);
  g_assert_nonnull (strstr (unindexed, loaded));

  g_autofree gchar *err = NULL;
  g_assert_cmpint (sl_test_run_built ("daemon/sluiced", NULL, &err, "--write-plugin-index", "--module-path", dir,
                                      NULL), ==, 0);
  g_autofree gchar *written = sl_test_read_file (index);
  g_assert_nonnull (written);
  g_assert_nonnull (strstr (written, "[dest-stdout.so]\nbuild-id="));
  g_assert_nonnull (strstr (written, "\ndestination=stdout;\n"));

  /* listed: not loaded by a configuration that does not use stdout() */
  g_autofree gchar *indexed = check_with (env, dir);
  g_assert_null (strstr (indexed, loaded));

  /* an entry of another build: loaded at start again */
  const gchar *id = strstr (written, "build-id=") + strlen ("build-id=");
  g_autofree gchar *stale = g_strdup (written);
  for (gchar *p = stale + (id - written); g_ascii_isxdigit (*p); p++)
    *p = *p == '0' ? '1' : '0';
  g_assert_true (g_file_set_contents (index, stale, -1, NULL));
  g_autofree gchar *rebuilt = check_with (env, dir);
  g_assert_nonnull (strstr (rebuilt, loaded));
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/plugin-index/loaded-when-used", test_loaded_when_used);
  SL_TEST_ADD ("/plugin-index/written-and-checked", test_index_written_and_checked);
  return g_test_run ();
}
