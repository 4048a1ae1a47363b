/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog's split of a tag and text into syslogtag and msg, as rsyslogd
 * 8.2302's imuxsock made it for the same lines (tests/functional/
 * test-rsyslog-conf compares whole files with it). */
#include "core/plugin.h"
#include "core/template.h"

#include <string.h>

extern const SlModule sl_module;

static void
assert_split (const gchar *text, const gchar *tag, const gchar *msg, const gchar *space)
{
  static const gchar *const functions[] = { "rsyslog-tag", "rsyslog-msg", "rsyslog-msg-space" };
  const gchar *expected[] = { tag, msg, space };
  SlMessage *message = sl_message_new ("", 0);

  sl_message_set (message, sl_field_handle ("text"), text, -1);
  for (guint i = 0; i < G_N_ELEMENTS (functions); i++)
    {
      GError *error = NULL;
      g_autofree gchar *source = g_strdup_printf ("$(%s ${text})", functions[i]);
      SlTemplate *t = sl_template_compile (source, &error);
      g_autoptr (GString) out = g_string_new (NULL);

      g_assert_no_error (error);
      sl_template_append (t, message, NULL, out);
      g_assert_cmpstr (out->str, ==, expected[i]);
      sl_template_unref (t);
    }
  sl_message_unref (message);
}

static void
test_split (void)
{
  assert_split ("app[1]: hello world", "app[1]:", " hello world", "");
  assert_split ("tag:  two spaces", "tag:", "  two spaces", "");
  /* the tag is the first word, colon or not */
  assert_split ("fmt:tight", "fmt:tight", "", " ");
  assert_split ("tag:", "tag:", "", " ");
  assert_split ("", "", "", " ");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_assert_true (sl_plugins_register (&sl_module, __FILE__, NULL));
  g_test_add_func ("/rsyslog-functions/split", test_split);
  return g_test_run ();
}
