/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "tests/unit/plugin-fixture.h"
#include "core/compile/loader.h"

#include <string.h>

extern const SlModule sl_module;

typedef SlTestDriver Filter;

/* Makes the filter function written as text ("level(info..warn)"). */
static gboolean
filter_new (const gchar *text, Filter *f, GError **error)
{
  return sl_test_driver_new (f, SL_DRIVER_FILTER, NULL, text, error);
}

static void
filter_free (Filter *f)
{
  sl_test_driver_free (f);
}

static gboolean
matches (Filter *f, guint facility, guint level)
{
  SlMessage *msg = sl_message_new ("", 0);
  msg->pri = SL_PRI_MAKE (facility, level);
  gboolean m = f->driver->klass->ops.filter->match (f->driver, msg);
  sl_message_unref (msg);
  return m;
}

/* The levels 0..7 a level filter passes, as a string of 0 and 1. */
static gchar *
level_pattern (const gchar *text)
{
  Filter f;
  GError *error = NULL;
  g_assert_true (filter_new (text, &f, &error));
  g_assert_no_error (error);
  gchar *out = g_malloc0 (9);
  for (guint l = 0; l < 8; l++)
    out[l] = matches (&f, 1, l) ? '1' : '0';
  filter_free (&f);
  return out;
}

static void
test_levels (void)
{
  static const struct { const gchar *text; const gchar *pattern; } cases[] = {
    { "level(err)", "00010000" },
    { "level(err..emerg)", "11110000" },
    { "level(emerg..err)", "11110000" },
    { "level(info..warn)", "00001110" },
    { "level(info, notice)", "00000110" },
    { "level(debug info)", "00000011" },
    { "level(panic)", "10000000" },
    { "level(error)", "00010000" },
    { "level(3)", "00010000" },
    { "level(0..2)", "11100000" },
    { "level(crit .. emerg)", "11100000" },
    { "level(debug, err .. alert)", "01110001" },
    { "priority(warning..debug)", "00001111" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gchar *p = level_pattern (cases[i].text);
      g_assert_cmpstr (p, ==, cases[i].pattern);
      g_free (p);
    }
}

static void
test_facilities (void)
{
  Filter f;
  g_assert_true (filter_new ("facility(auth, authpriv, local0..local2)", &f, NULL));
  g_assert_true (matches (&f, 4, 6));
  g_assert_true (matches (&f, 10, 0));
  g_assert_true (matches (&f, 16, 7));
  g_assert_true (matches (&f, 18, 7));
  g_assert_false (matches (&f, 19, 7));
  g_assert_false (matches (&f, 1, 3));
  filter_free (&f);

  g_assert_true (filter_new ("facility(mail)", &f, NULL));
  g_assert_true (matches (&f, 2, 3));
  g_assert_false (matches (&f, 3, 3));
  filter_free (&f);
}

static void
test_bad_values (void)
{
  Filter f;
  GError *error = NULL;
  g_assert_false (filter_new ("level(loud)", &f, &error));
  g_assert_nonnull (strstr (error->message, "unknown level 'loud' in level(); known: emerg, alert"));
  g_clear_error (&error);
  filter_free (&f);

  g_assert_false (filter_new ("facility(kern..nowhere)", &f, &error));
  g_assert_nonnull (strstr (error->message, "unknown facility 'nowhere'"));
  g_clear_error (&error);
  filter_free (&f);

  g_assert_false (filter_new ("level(8)", &f, &error));
  g_assert_nonnull (strstr (error->message, "unknown level '8'"));
  g_clear_error (&error);
  filter_free (&f);

  g_assert_false (filter_new ("level()", &f, &error));
  g_assert_nonnull (strstr (error->message, "level() needs at least one value"));
  g_clear_error (&error);
  filter_free (&f);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_assert_true (sl_plugins_register (&sl_module, __FILE__, NULL));
  g_test_add_func ("/priority-filters/levels", test_levels);
  g_test_add_func ("/priority-filters/facilities", test_facilities);
  g_test_add_func ("/priority-filters/bad-values", test_bad_values);
  return g_test_run ();
}
