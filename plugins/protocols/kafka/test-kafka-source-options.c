/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kafka() source: the errors its options give, and that config() cannot
 * undo what its commits after delivery rest on. */
#include "tests/unit/plugin-fixture.h"
#include "core/compile/loader.h"

#include <string.h>

extern const SlModule sl_module;

static void
assert_refused (const gchar *text, const gchar *expected)
{
  SlTestDriver t;
  GError *error = NULL;
  g_assert_false (sl_test_driver_new (&t, SL_DRIVER_SOURCE, NULL, text, &error));
  g_assert_nonnull (error);
  if (!strstr (error->message, expected))
    g_error ("'%s' not in: %s", expected, error->message);
  g_error_free (error);
  sl_test_driver_free (&t);
}

static void
test_errors (void)
{
  assert_refused ("kafka(bootstrap-servers(\"b:1\"))", "kafka() source needs topics(\"name\" ...)");
  assert_refused ("kafka(topics(\"in\"))", "kafka() needs bootstrap-servers(");
  assert_refused ("kafka(bootstrap-servers(\"b:1\") topics(\"in\") group-id(\"\"))",
                  "needs a group-id() that is not empty");
  assert_refused ("kafka(bootstrap-servers(\"b:1\") topics(\"in\") config(\"enable.auto.commit\" => \"true\"))",
                  "config() may not set 'enable.auto.commit'");
  assert_refused ("kafka(bootstrap-servers(\"b:1\") topics(\"in\") config(\"enable.auto.offset.store\" => \"true\"))",
                  "config() may not set 'enable.auto.offset.store'");
  assert_refused ("kafka(bootstrap-servers(\"b:1\") topics(\"in\") config(\"group.id\" => \"other\"))",
                  "config() may not set 'group.id'");
}

static void
test_accepted (void)
{
  SlTestDriver t;
  GError *error = NULL;
  g_assert_true (sl_test_driver_new (&t, SL_DRIVER_SOURCE, NULL,
                                     "kafka(bootstrap-servers(\"b:1\") topics(\"in\" \"^logs-.*\") "
                                     "config(\"auto.offset.reset\" => \"latest\") format(\"syslog\"))", &error));
  g_assert_no_error (error);
  sl_test_driver_free (&t);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_assert_true (sl_plugins_register (&sl_module, __FILE__, NULL));
  g_test_add_func ("/kafka-source/errors", test_errors);
  g_test_add_func ("/kafka-source/accepted", test_accepted);
  return g_test_run ();
}
