/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "otel-test-node.h"
#include "tests/functional/harness.h"

#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

gchar *
otel_test_source_path (const gchar *relative)
{
  return g_build_filename (g_getenv ("SL_TOP_SRCDIR"), relative, NULL);
}

gboolean
otel_test_node_ready (void)
{
  const gchar *build = g_getenv ("SL_TOP_BUILDDIR");
  g_assert_nonnull (build);
  g_autofree gchar *ours = otel_test_source_path ("plugins/protocols/opentelemetry/package.json");
  g_autofree gchar *dir = g_build_filename (build, "plugins/protocols/opentelemetry/node", NULL);
  g_autofree gchar *theirs = g_build_filename (dir, "package.json", NULL);
  g_autofree gchar *modules = g_build_filename (dir, "node_modules", NULL);
  g_autofree gchar *stamp = g_build_filename (modules, ".sluice-installed", NULL);
  g_autofree gchar *lock_path = g_build_filename (build, "plugins/protocols/opentelemetry/node.lock", NULL);
  g_autofree gchar *want = sl_test_read_file (ours);
  g_assert_nonnull (want);
  g_setenv ("NODE_PATH", modules, TRUE);
  /* the source's and the destination's tests run at once under make -j:
   * one installs while the other waits, then finds it done */
  g_mkdir_with_parents (dir, 0755);
  gint lock = open (lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  g_assert_cmpint (lock, >=, 0);
  g_assert_cmpint (flock (lock, LOCK_EX), ==, 0);
  g_autofree gchar *have = sl_test_read_file (theirs);
  gboolean ready = have && strcmp (want, have) == 0 && g_file_test (stamp, G_FILE_TEST_EXISTS);
  if (!ready)
    {
      g_assert_true (g_file_set_contents (theirs, want, -1, NULL));
      const gchar *argv[] = { "npm", "install", "--prefix", dir, "--no-audit", "--no-fund", "--loglevel=error", NULL };
      g_autofree gchar *out = NULL, *err = NULL;
      gint status = sl_test_run_argv (argv, &out, &err);
      if (status != 0)
        g_test_fail_printf ("npm install failed:\n%s%s", out ? out : "", err ? err : "");
      else
        ready = g_file_set_contents (stamp, "", 0, NULL);
    }
  close (lock);
  return ready;
}
