/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "tests/unit/plugin-fixture.h"
#include "core/compile/loader.h"

#include <glib/gstdio.h>
#include <string.h>

extern const SlModule sl_module;

static gchar *dir;

static gchar *
write_list (const gchar *name, const gchar *text, gssize len)
{
  gchar *path = g_build_filename (dir, name, NULL);
  g_assert_true (g_file_set_contents (path, text, len, NULL));
  return path;
}

static SlTestDriver
in_list (const gchar *path, const gchar *field)
{
  SlTestDriver t;
  GError *error = NULL;
  gchar *text = g_strdup_printf ("in-list(\"%s\" value(\"%s\"))", path, field);
  g_assert_true (sl_test_driver_new (&t, SL_DRIVER_FILTER, NULL, text, &error));
  g_assert_no_error (error);
  g_free (text);
  return t;
}

static gboolean
passes (SlTestDriver *t, const gchar *name, const gchar *value)
{
  SlMessage *msg = value ? sl_test_message_new (name, value, NULL) : sl_message_new ("", 0);
  gboolean pass = t->driver->klass->ops.filter->match (t->driver, msg);
  sl_message_unref (msg);
  return pass;
}

static void
test_values (void)
{
  g_autofree gchar *path = write_list ("apps.list", "sshd\nnginx\r\n\npostfix/smtpd\nlast-without-newline", -1);
  SlTestDriver t = in_list (path, "PROGRAM");
  g_assert_true (passes (&t, "PROGRAM", "sshd"));
  g_assert_true (passes (&t, "PROGRAM", "nginx"));
  g_assert_true (passes (&t, "PROGRAM", "postfix/smtpd"));
  g_assert_true (passes (&t, "PROGRAM", "last-without-newline"));
  /* exact and case-sensitive */
  g_assert_false (passes (&t, "PROGRAM", "SSHD"));
  g_assert_false (passes (&t, "PROGRAM", "ssh"));
  g_assert_false (passes (&t, "PROGRAM", "sshd "));
  g_assert_false (passes (&t, "PROGRAM", "nginx\r"));
  /* an empty line is no value, and an unset field is not found */
  g_assert_false (passes (&t, "PROGRAM", ""));
  g_assert_false (passes (&t, "PROGRAM", NULL));
  g_assert_false (passes (&t, "HOST", "sshd"));
  sl_test_driver_free (&t);
}

static void
test_macro_and_slices (void)
{
  g_autofree gchar *path = write_list ("levels.list", "err\ncrit\n", -1);
  SlTestDriver t = in_list (path, "LEVEL");
  SlMessage *msg = sl_message_new ("", 0);
  msg->pri = SL_PRI_MAKE (1, 3);
  g_assert_true (t.driver->klass->ops.filter->match (t.driver, msg));
  msg->pri = SL_PRI_MAKE (1, 6);
  g_assert_false (t.driver->klass->ops.filter->match (t.driver, msg));
  sl_message_unref (msg);
  sl_test_driver_free (&t);

  /* a field that is a slice of the received bytes is looked up as it is */
  g_autofree gchar *hosts = write_list ("hosts.list", "web1\n", -1);
  SlTestDriver h = in_list (hosts, "HOST");
  SlMessage *raw = sl_message_new ("web1web2", 8);
  sl_message_set_slice (raw, SL_F_HOST, raw->raw, 4);
  g_assert_true (h.driver->klass->ops.filter->match (h.driver, raw));
  sl_message_set_slice (raw, SL_F_HOST, raw->raw + 4, 4);
  g_assert_false (h.driver->klass->ops.filter->match (h.driver, raw));
  sl_message_unref (raw);
  sl_test_driver_free (&h);
}

static void
test_hostile_list_and_values (void)
{
  /* a NUL in the file ends it; bytes that are not UTF-8 are values too */
  g_autofree gchar *path = write_list ("odd.list", "a\xff" "b\nbefore\0after\n", 17);
  SlTestDriver t = in_list (path, "MESSAGE");
  g_assert_true (passes (&t, "MESSAGE", "a\xff" "b"));
  g_assert_true (passes (&t, "MESSAGE", "before"));
  g_assert_false (passes (&t, "MESSAGE", "after"));
  gchar *huge = g_strnfill (1 << 20, 'x');
  g_assert_false (passes (&t, "MESSAGE", huge));
  g_free (huge);
  sl_test_driver_free (&t);

  /* a big list is read once */
  GString *big = g_string_new (NULL);
  for (guint i = 0; i < 100000; i++)
    g_string_append_printf (big, "10.%u.%u.%u\n", i >> 16, (i >> 8) & 255, i & 255);
  g_autofree gchar *ips = write_list ("ips.list", big->str, big->len);
  g_string_free (big, TRUE);
  SlTestDriver ip = in_list (ips, "SOURCEIP");
  g_assert_true (passes (&ip, "SOURCEIP", "10.1.134.159"));
  g_assert_false (passes (&ip, "SOURCEIP", "10.2.0.0"));
  sl_test_driver_free (&ip);
}

static void
assert_refused (const gchar *filter, const gchar *expected)
{
  SlTestDriver t;
  GError *error = NULL;
  g_assert_false (sl_test_driver_new (&t, SL_DRIVER_FILTER, NULL, filter, &error));
  g_assert_nonnull (error);
  if (!strstr (error->message, expected))
    g_error ("'%s' not in: %s", expected, error->message);
  g_error_free (error);
  sl_test_driver_free (&t);
}

static void
test_config_errors (void)
{
  assert_refused ("in-list(\"/nonexistent/apps.list\" value(\"PROGRAM\"))",
                  "test.conf:1:20: cannot read the list of in-list(): ");
  assert_refused ("in-list(\"/etc/hostname\")", "in-list() needs a file and a field");
  assert_refused ("in-list(\"/etc/hostname\" value(\"$PROGRAM\"))",
                  "test.conf:1:36: '$PROGRAM' is not a field or macro name");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_assert_true (sl_plugins_register (&sl_module, __FILE__, NULL));
  dir = g_dir_make_tmp ("sluice-in-list-XXXXXX", NULL);
  g_assert_nonnull (dir);
  g_test_add_func ("/in-list-filter/values", test_values);
  g_test_add_func ("/in-list-filter/macro-and-slices", test_macro_and_slices);
  g_test_add_func ("/in-list-filter/hostile", test_hostile_list_and_values);
  g_test_add_func ("/in-list-filter/config-errors", test_config_errors);
  gint status = g_test_run ();
  const gchar *names[] = { "apps.list", "levels.list", "hosts.list", "odd.list", "ips.list" };
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      gchar *path = g_build_filename (dir, names[i], NULL);
      g_unlink (path);
      g_free (path);
    }
  g_rmdir (dir);
  g_free (dir);
  return status;
}
