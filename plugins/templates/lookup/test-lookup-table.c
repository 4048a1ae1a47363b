/* SPDX-License-Identifier: GPL-2.0-or-later */
/* $(lookup-table) on tables of each type, with the answers rsyslogd
 * 8.2302's lookup() gave for the same tables and keys. */
#include "core/plugin/plugin.h"
#include "core/compile/loader.h"
#include "core/message/template.h"

#include <glib/gstdio.h>
#include <string.h>

extern const SlModule sl_module;

static gchar *dir;

static gchar *
table (const gchar *name, const gchar *text)
{
  gchar *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  return path;
}

static void
assert_lookup (const gchar *path, const gchar *keep, const gchar *key, const gchar *expected)
{
  GError *error = NULL;
  g_autofree gchar *source = g_strdup_printf ("$(lookup-table %s %s ${key})", keep, path);
  SlTemplate *t = sl_template_compile (source, &error);
  SlMessage *message = sl_message_new ("", 0);
  g_autoptr (GString) out = g_string_new (NULL);

  g_assert_no_error (error);
  sl_message_set (message, sl_field_handle ("key"), key, -1);
  sl_template_append (t, message, NULL, out);
  g_assert_cmpstr (out->str, ==, expected);
  sl_template_unref (t);
  sl_message_unref (message);
}

static void
test_types (void)
{
  g_autofree gchar *strings = table ("str.json", "{ \"version\": 1, \"nomatch\": \"none\", \"type\": \"string\", "
                                                 "\"table\": [ {\"index\": \"host2\", \"value\": \"two\"}, "
                                                 "{\"index\": \"host3\", \"value\": \"three\"} ] }");
  g_autofree gchar *array = table ("arr.json", "{ \"version\": 1, \"nomatch\": \"out\", \"type\": \"array\", "
                                               "\"table\": [ {\"index\": 3, \"value\": \"c\"}, {\"index\": 2, "
                                               "\"value\": \"b\"}, {\"index\": 4, \"value\": \"d\"} ] }");
  g_autofree gchar *sparse = table ("sp.json", "{ \"version\": 1, \"type\": \"sparseArray\", \"table\": [ "
                                               "{\"index\": 10, \"value\": \"ten\"}, {\"index\": 100, "
                                               "\"value\": \"hundred\"} ] }");

  assert_lookup (strings, "", "host2", "two");
  assert_lookup (strings, "", "host4", "none");
  assert_lookup (array, "", "3", "c");
  assert_lookup (array, "", "5", "out");
  assert_lookup (array, "", "abc", "out");
  assert_lookup (sparse, "", "50", "ten");
  assert_lookup (sparse, "", "200", "hundred");
  assert_lookup (sparse, "", "12x", "ten");
  assert_lookup (sparse, "", "9", "");
}

/* a file that cannot be read, or an array with a gap, finds nothing */
static void
test_broken (void)
{
  g_autofree gchar *missing = g_build_filename (dir, "missing.json", NULL);
  g_autofree gchar *gap = table ("gap.json", "{ \"version\": 1, \"nomatch\": \"x\", \"type\": \"array\", \"table\": "
                                             "[ {\"index\": 1, \"value\": \"a\"}, {\"index\": 3, \"value\": \"c\"} ] }");
  g_autofree gchar *bad = table ("bad.json", "{ \"version\": 1, ");

  assert_lookup (missing, "", "1", "");
  assert_lookup (gap, "", "1", "");
  assert_lookup (bad, "", "1", "");
}

/* --keep reads a file once: a changed file is not seen */
static void
test_keep (void)
{
  g_autofree gchar *path = table ("keep.json", "{ \"version\": 1, \"table\": [ {\"index\": \"k\", \"value\": \"old\"} ] }");

  assert_lookup (path, "--keep", "k", "old");
  g_free (table ("keep.json", "{ \"version\": 1, \"table\": [ {\"index\": \"k\", \"value\": \"new\"} ] }"));
  assert_lookup (path, "--keep", "k", "old");
  assert_lookup (path, "", "k", "new");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_assert_true (sl_plugins_register (&sl_module, __FILE__, NULL));
  dir = g_dir_make_tmp ("lookup-XXXXXX", NULL);
  g_test_add_func ("/lookup-table/types", test_types);
  g_test_add_func ("/lookup-table/broken", test_broken);
  g_test_add_func ("/lookup-table/keep", test_keep);
  gint status = g_test_run ();
  const gchar *names[] = { "str.json", "arr.json", "sp.json", "gap.json", "bad.json", "keep.json" };
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree gchar *path = g_build_filename (dir, names[i], NULL);
      g_unlink (path);
    }
  g_rmdir (dir);
  g_free (dir);
  return status;
}
