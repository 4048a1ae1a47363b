/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Python plugins that misbehave (tests/hangs.py): a send() that never
 * returns, an init() that raises, a run() that ignores request_exit() and
 * a parser whose init() raises. sluiced starts, delivers to the
 * destination that works, logs each traceback once, and stops within its
 * deadline, giving up on the calls that do not return. */
#include "tests/functional/harness.h"
#include <signal.h>
#include <string.h>

static gchar *
source_path (const gchar *relative)
{
  return g_build_filename (g_getenv ("SL_TOP_SRCDIR"), "plugins/languages/python", relative, NULL);
}

static guint
count_in (const gchar *haystack, const gchar *needle)
{
  guint n = 0;
  for (const gchar *p = haystack; p && (p = strstr (p, needle)); p += strlen (needle))
    n++;
  return n;
}

static void
test_stop_despite_hangs (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *conf_path = source_path ("tests/hangs.conf");
  g_autofree gchar *conf = sl_test_read_file (conf_path);
  g_autofree gchar *written = sl_test_path (env, "write.txt");

  if (!conf || !sl_test_write_config (env, conf, NULL) || !sl_test_daemon_start (env)
      || !sl_test_wait_lines (env, written, 5))
    return;
  /* init() is tried again after time-reopen(); its traceback is logged once */
  if (!sl_test_wait_stderr (env, "RuntimeError: init refuses")
      || !sl_test_wait_stderr (env, "driver='d_init#0', reason='"))
    return;
  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
  g_autofree gchar *err = sl_test_daemon_stderr (env);
  g_assert_cmpuint (count_in (err, "RuntimeError: init refuses"), ==, 1);
  g_assert_nonnull (strstr (err, "python s_deaf#0: run() of class 'hangs.Deaf' did not return"));
  g_assert_nonnull (strstr (err, "python d_forever#0: a call of class 'hangs.Forever' did not return"));
}

static void
test_parser_init_error (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *err = sl_test_refused_config (env, "parser p { python(class(\"hangs.BadParser\")); };\n"
                                                      "source s { python-fetcher(class(\"sngtest.Numbers\") "
                                                      "options(\"count\" \"1\" \"prefix-word\" \"x\")); };\n"
                                                      "log { source(s); parser(p); };\n", NULL);
  g_assert_nonnull (strstr (err, "ValueError: parser init refuses"));
  g_assert_nonnull (strstr (err, "class 'hangs.BadParser' could not be made and init()ed"));
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  g_autofree gchar *tests = source_path ("tests");
  g_autofree gchar *pylib = source_path ("pylib");
  g_setenv ("PYTHONPATH", tests, TRUE);
  g_setenv ("SLUICE_PYTHON_DIR", pylib, TRUE);
  /* the ASan build: the calls given up on keep what they hold (messages,
   * windows) by design, until they return, which these never do */
  const gchar *lsan = g_getenv ("LSAN_OPTIONS");
  g_autofree gchar *options = g_strdup_printf ("%s%sdetect_leaks=0", lsan ? lsan : "", lsan && *lsan ? ":" : "");
  g_setenv ("LSAN_OPTIONS", options, TRUE);
  SL_TEST_ADD ("/python/stop-despite-hangs", test_stop_despite_hangs);
  SL_TEST_ADD ("/python/parser-init-error", test_parser_init_error);
  return g_test_run ();
}
