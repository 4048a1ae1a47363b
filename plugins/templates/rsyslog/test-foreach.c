/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog-foreach(): what is not an array gives no copy and stops the
 * message, as rsyslogd skips the loop; the copies themselves go into a
 * path, which tests/functional/test-rsyslog-script compares with
 * rsyslogd's. */
#include "tests/unit/parser-harness.h"
#include "core/config/error.h"
#include "core/compile/loader.h"

#include <string.h>

extern const SlModule sl_module;

static void
test_not_an_array (void)
{
  static const gchar *const texts[] = { "", "not json", "{\"a\":1}", "\"text\"", "5", "[1,2" };
  SlTestParser p;
  sl_test_parser_init (&p, "rsyslog-foreach(template(\"${arr}\") variable(\".i\"))");
  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      SlMessage *msg = sl_test_message ("m");
      sl_message_set (msg, sl_field_handle ("arr"), texts[i], -1);
      g_assert_false (sl_test_parser_process (&p, &msg));
      sl_test_assert_field (msg, ".i", NULL);
      sl_message_unref (msg);
    }
  sl_test_parser_clear (&p);
}

static void
test_needs_variable (void)
{
  SlTestParser p;
  GError *error = NULL;
  g_assert_false (sl_test_parser_new (&p, "rsyslog-foreach(template(\"${arr}\"))", &error));
  g_assert_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE);
  g_assert_nonnull (strstr (error->message, "needs variable()"));
  g_error_free (error);
  sl_test_parser_clear (&p);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_assert_true (sl_plugins_register (&sl_module, __FILE__, NULL));
  g_test_add_func ("/rsyslog-foreach/not-an-array", test_not_an_array);
  g_test_add_func ("/rsyslog-foreach/needs-variable", test_needs_variable);
  return g_test_run ();
}
