/* SPDX-License-Identifier: GPL-2.0-or-later */
/* $(stardate) against what syslog-ng 4.8.1 (Debian 13's
 * syslog-ng-mod-stardate) wrote for the same templates, run in the zone
 * CET as it was there: the year is UTC's all the same. */
#include "core/plugin/plugin.h"
#include "core/compile/loader.h"
#include "core/message/template.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

extern const SlModule sl_module;

static gchar *
render (const gchar *text)
{
  GError *error = NULL;
  SlTemplate *t = sl_template_compile (text, &error);
  g_assert_no_error (error);
  SlMessage *msg = sl_message_new ("", 0);
  GString *out = g_string_new (NULL);
  sl_template_append (t, msg, NULL, out);
  sl_template_unref (t);
  sl_message_unref (msg);
  return g_string_free (out, FALSE);
}

static void
test_values (void)
{
  static const gchar *const cases[][2] = {
    { "$(stardate 0)", "1970.00" },
    { "$(stardate --digits 6 1700000000)", "2023.871029" },
    { "$(stardate --digits 9 1735689599)", "2024.999999968" },
    { "$(stardate --digits 0 1709251200)", "2024" },
    { "$(stardate --digits 1 1709251200)", "2024.1" },
    { "$(stardate --digits 2 1704067199)", "2023.99" },
    { "$(stardate --digits 9 1704067200)", "2024.000000000" },
    { "$(stardate 1704067200)", "2024.00" },
    /* an hour before 2024 in UTC, 2024 already in CET */
    { "$(stardate --digits 9 1704063600)", "2023.999885844" },
    { "$(stardate --digits=3 1704067200)", "2024.000" },
    { "$(stardate --digits 4 ' 5')", "1970.0000" },
    { "$(stardate --digits 4 '')", "1970.0000" },
    { "$(stardate 1709251200.5)", "" },
    { "$(stardate abc)", "" },
    { "$(stardate --digits 4 5x)", "" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree gchar *got = render (cases[i][0]);
      g_assert_cmpstr (got, ==, cases[i][1]);
    }
}

static void
test_refused (void)
{
  static const gchar *const templates[] = { "$(stardate)", "$(stardate 1 2)", "$(stardate --digits 10 1)",
                                            "$(stardate --digits x 1)", "$(stardate -5)" };
  for (guint i = 0; i < G_N_ELEMENTS (templates); i++)
    {
      GError *error = NULL;
      g_assert_null (sl_template_compile (templates[i], &error));
      g_assert_nonnull (error);
      g_test_message ("%s: %s", templates[i], error->message);
      g_error_free (error);
    }
}

int
main (int argc, char **argv)
{
  setenv ("TZ", "CET", TRUE);
  tzset ();
  g_test_init (&argc, &argv, NULL);
  g_assert_true (sl_plugins_register (&sl_module, __FILE__, NULL));
  g_test_add_func ("/stardate/values", test_values);
  g_test_add_func ("/stardate/refused", test_refused);
  return g_test_run ();
}
