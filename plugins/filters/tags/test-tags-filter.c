/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "tests/unit/plugin-fixture.h"
#include "core/compile/loader.h"

#include <string.h>

extern const SlModule sl_module;

static gboolean
passes (const gchar *filter, const gchar *const *tags)
{
  SlTestDriver t;
  GError *error = NULL;
  g_assert_true (sl_test_driver_new (&t, SL_DRIVER_FILTER, NULL, filter, &error));
  g_assert_no_error (error);
  SlMessage *msg = sl_message_new ("", 0);
  for (guint i = 0; tags && tags[i]; i++)
    sl_message_set_tag (msg, tags[i]);
  gboolean pass = t.driver->klass->ops.filter->match (t.driver, msg);
  sl_message_unref (msg);
  sl_test_driver_free (&t);
  return pass;
}

static void
test_any_of (void)
{
  const gchar *audit[] = { "audit", NULL };
  const gchar *both[] = { "net", "security", NULL };
  const gchar *none[] = { NULL };
  g_assert_true (passes ("tags(\"audit\")", audit));
  g_assert_true (passes ("tags(\"audit\" \"security\")", both));
  g_assert_true (passes ("tags(audit, security)", audit));
  g_assert_false (passes ("tags(\"audit\")", both));
  g_assert_false (passes ("tags(\"audit\")", none));
  g_assert_false (passes ("tags(\"audit\")", NULL));
  /* exact names: no prefixes, no case folding */
  const gchar *longer[] = { "auditd", "AUDIT", NULL };
  g_assert_false (passes ("tags(\"audit\")", longer));
}

static void
test_config_errors (void)
{
  SlTestDriver t;
  GError *error = NULL;
  g_assert_false (sl_test_driver_new (&t, SL_DRIVER_FILTER, NULL, "tags()", &error));
  g_assert_nonnull (strstr (error->message, "test.conf:1:12: tags() needs at least one tag"));
  g_error_free (error);
  sl_test_driver_free (&t);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_assert_true (sl_plugins_register (&sl_module, __FILE__, NULL));
  g_test_add_func ("/tags-filter/any-of", test_any_of);
  g_test_add_func ("/tags-filter/config-errors", test_config_errors);
  return g_test_run ();
}
