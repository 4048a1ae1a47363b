/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The documentation made from the code: doc/reference.md as committed is
 * what the build makes from the option tables, and every man page
 * formats without a warning. */
#include "tests/functional/harness.h"

#include <string.h>

static gchar *
read_or_fail (const gchar *dir, const gchar *name)
{
  g_autofree gchar *path = g_build_filename (dir, name, NULL);
  gchar *text = sl_test_read_file (path);
  if (!text)
    g_test_fail_printf ("cannot read %s", path);
  return text;
}

/* Says where two texts part, so that a failure shows what changed. */
static void
assert_same_text (const gchar *what, const gchar *expected, const gchar *actual)
{
  if (strcmp (expected, actual) == 0)
    return;
  guint line = 1;
  const gchar *e = expected, *a = actual;
  while (*e && *e == *a)
    if (*e++ == '\n' && *a++ == '\n')
      line++;
    else
      a++;
  const gchar *e_end = strchrnul (e, '\n');
  const gchar *a_end = strchrnul (a, '\n');
  g_test_fail_printf ("%s differs from line %u: committed '%.*s', generated '%.*s'; run `make reference` in the "
                      "build folder and commit doc/reference.md", what, line,
                      (int) (e_end - e), e, (int) (a_end - a), a);
}

static void
test_committed_reference_is_generated (SlTestEnv *env, gconstpointer data)
{
  const gchar *srcdir = g_getenv ("SL_TOP_SRCDIR");
  const gchar *builddir = g_getenv ("SL_TOP_BUILDDIR");
  const gchar *module_path = sl_test_module_path ();
  g_assert_nonnull (srcdir);
  g_assert_nonnull (builddir);
  if (!module_path)
    return;
  g_autofree gchar *committed = read_or_fail (srcdir, "doc/reference.md");
  g_autofree gchar *built = read_or_fail (builddir, "doc/generated/reference.md");
  g_autofree gchar *fresh = NULL;
  g_autofree gchar *err = NULL;
  gint status = sl_test_run_built ("daemon/sluiced", &fresh, &err, "--module-path", module_path,
                                   "--dump-reference", "markdown", NULL);
  g_assert_cmpint (status, ==, 0);
  if (!committed || !built)
    return;
  assert_same_text ("the build's doc/generated/reference.md", built, fresh);
  assert_same_text ("doc/reference.md", committed, fresh);
}

static void
test_reference_lists_drivers_and_core_options (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *man = NULL;
  g_autofree gchar *err = NULL;
  gint status = sl_test_run_built ("daemon/sluiced", &man, &err, "--module-path", sl_test_module_path (),
                                   "--dump-reference", "man", NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (man, ".SS \"tcp()\"\n"));
  g_assert_nonnull (strstr (man, ".SS \"$(format\\-json)\"\n"));
  /* a class's default of an option the core adds: syslog() expects RFC 5424 */
  g_assert_nonnull (strstr (man, "\\fBflags(syslog\\-protocol)\\fR"));
  g_assert_nonnull (strstr (man, "\\fBlisten\\fR(\\fIstring\\fR)"));

  g_clear_pointer (&err, g_free);
  status = sl_test_run_built ("daemon/sluiced", NULL, &err, "--module-path", sl_test_module_path (),
                              "--dump-reference", "html", NULL);
  g_assert_cmpint (status, ==, 2);
  g_assert_nonnull (strstr (err, "unknown reference format 'html'; formats: markdown, man"));
}

static void
test_man_pages_format_cleanly (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *man = g_find_program_in_path ("man");
  if (!man)
    {
      g_test_skip ("man is not installed (Debian: man-db)");
      return;
    }
  static const gchar *const pages[] = {
    "doc/man/sluiced.8", "doc/man/sluicectl.8", "doc/man/sluice-gen.1", "doc/man/sluice-dq.1",
    "doc/man/sluice.conf.5",
  };
  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    {
      g_autofree gchar *path = g_build_filename (g_getenv ("SL_TOP_BUILDDIR"), pages[i], NULL);
      const gchar *argv[] = { "env", "MANWIDTH=80", "man", "--warnings", "-l", path, NULL };
      g_autofree gchar *out = NULL;
      g_autofree gchar *err = NULL;
      gint status = sl_test_run_argv (argv, &out, &err);
      g_assert_cmpint (status, ==, 0);
      g_assert_cmpstr (err, ==, "");
      g_assert_true (strlen (out) > 1000);
    }
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/reference/committed-is-generated", test_committed_reference_is_generated);
  SL_TEST_ADD ("/reference/drivers-and-core-options", test_reference_lists_drivers_and_core_options);
  SL_TEST_ADD ("/reference/man-pages", test_man_pages_format_cleanly);
  return g_test_run ();
}
