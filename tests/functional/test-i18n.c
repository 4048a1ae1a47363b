/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sluiced and sluicectl speak German from the installed catalogue.
 *
 * LC_ALL=C.UTF-8 with LANGUAGE=de picks the catalogue without a generated
 * de_DE locale: gettext ignores LANGUAGE only in the plain C locale, and
 * C.UTF-8 comes with the C library. The programs look in the install's
 * localedir, which `make install` (./quickstart build) fills. */
#include <config.h>
#include "tests/functional/harness.h"

#include <string.h>

/* Whether the German catalogue is where the programs look for it; skips
 * the test when it is not. */
static gboolean
catalogue_installed (void)
{
  g_autofree gchar *mo = g_build_filename (LOCALEDIR, "de", "LC_MESSAGES", GETTEXT_PACKAGE ".mo", NULL);
  if (g_file_test (mo, G_FILE_TEST_IS_REGULAR))
    return TRUE;
  g_test_skip_printf ("%s is not installed (./quickstart build installs it)", mo);
  return FALSE;
}

/* Runs a program of the build tree in German, through env(1) since the
 * harness gives every child LC_ALL=C; its exit status, stderr in *err. */
static gint
run_in_german (const gchar *program, gchar **err, const gchar *const *args)
{
  g_autofree gchar *path = g_build_filename (g_getenv ("SL_TOP_BUILDDIR"), program, NULL);
  GPtrArray *argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (gpointer) "env");
  g_ptr_array_add (argv, (gpointer) "LC_ALL=C.UTF-8");
  g_ptr_array_add (argv, (gpointer) "LANGUAGE=de");
  g_ptr_array_add (argv, path);
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  gint status = sl_test_run_argv ((const gchar *const *) argv->pdata, NULL, err);
  g_ptr_array_unref (argv);
  return status;
}

static void
test_daemon_config_error (SlTestEnv *env, gconstpointer data)
{
  if (!catalogue_installed ())
    return;
  const gchar *module_path = sl_test_module_path ();
  if (!module_path || !sl_test_write_config (env,
                                             "source s_net { tcpx(port(514)); };\n"
                                             "destination d_file { file(\"@DIR@/out.log\"); };\n"
                                             "log { source(s_net); destination(d_file); };\n", NULL))
    return;
  const gchar *args[] = { "-F", "-f", env->config, "-p", env->pidfile, "-c", env->control,
                          "-R", env->persist, "--module-path", module_path, NULL };
  g_autofree gchar *err = NULL;
  g_assert_cmpint (run_in_german ("daemon/sluiced", &err, args), ==, 1);
  g_autofree gchar *expected = g_strdup_printf ("%s:1:16: unbekannter source-Treiber 'tcpx'; meinten Sie 'tcp'?",
                                                env->config);
  g_assert_nonnull (strstr (err, expected));
  g_assert_false (g_file_test (env->pidfile, G_FILE_TEST_EXISTS));
}

static void
test_sluicectl_no_daemon (SlTestEnv *env, gconstpointer data)
{
  if (!catalogue_installed ())
    return;
  const gchar *args[] = { "-c", env->control, "stats", NULL };
  g_autofree gchar *err = NULL;
  g_assert_cmpint (run_in_german ("tools/sluicectl", &err, args), ==, 2);
  /* the system's reason that follows may or may not be German: the C
   * library's own catalogues are a package of their own */
  g_autofree gchar *expected = g_strdup_printf ("sluicectl: sluiced unter %s nicht erreichbar: ", env->control);
  g_assert_true (g_str_has_prefix (err, expected));
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/i18n/sluiced-config-error", test_daemon_config_error);
  SL_TEST_ADD ("/i18n/sluicectl-no-daemon", test_sluicectl_no_daemon);
  return g_test_run ();
}
