/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Every option of every plugin of the build, and every option the core
 * adds or keeps for itself, says what it does: the reference and
 * --help-driver are made from these lines. */
#include "core/route/driver-private.h"
#include "core/compile/loader-private.h"
#include "core/plugin/registry.h"

static void
check_table (const gchar *owner, const SlOptionSpec *table, GString *missing)
{
  for (const SlOptionSpec *o = table; o->name; o++)
    if (!o->help || !*o->help)
      g_string_append_printf (missing, " %s:%s()", owner, o->name);
}

static void
check_class (const SlDriverClass *klass, gpointer data)
{
  GString *missing = data;
  gchar *owner = g_strdup_printf ("%s %s()", sl_driver_kind_name (klass->kind), klass->name);
  if (!klass->summary || !*klass->summary)
    g_string_append_printf (missing, " %s:summary", owner);
  if (klass->options)
    check_table (owner, klass->options, missing);
  g_free (owner);
}

static void
count_one (const SlDriverClass *klass, gpointer data)
{
  ++*(guint *) data;
}

static void
test_every_option_has_help (void)
{
  const gchar *module_path = g_getenv ("SL_MODULE_PATH");
  if (!module_path)
    {
      g_test_skip ("SL_MODULE_PATH is not set (run through make check)");
      return;
    }
  g_assert_true (sl_plugins_load (module_path, SL_PLUGINS_ALL, NULL));
  guint classes = 0;
  sl_plugins_foreach (count_one, &classes);
  /* the build has dozens: a path that loaded nothing would pass vacuously */
  g_assert_cmpuint (classes, >, 20);

  GString *missing = g_string_new (NULL);
  sl_plugins_foreach (check_class, missing);
  for (const SlOptionGroup *g = sl_driver_option_groups (); g->options; g++)
    check_table (g->title, g->options, missing);
  g_assert_cmpstr (missing->str, ==, "");
  g_string_free (missing, TRUE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/options/every-option-has-help", test_every_option_has_help);
  return g_test_run ();
}
