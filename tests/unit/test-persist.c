/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "core/persist-private.h"

#include <glib/gstdio.h>
#include <string.h>

typedef struct
{
  gchar *dir;
  gchar *path;
} Fixture;

static void
setup (Fixture *f, gconstpointer data)
{
  f->dir = g_dir_make_tmp ("sluice-persist-XXXXXX", NULL);
  g_assert_nonnull (f->dir);
  f->path = g_build_filename (f->dir, "sluice.persist", NULL);
}

static void
teardown (Fixture *f, gconstpointer data)
{
  sl_persist_close ();
  g_unlink (f->path);
  g_rmdir (f->dir);
  g_free (f->path);
  g_free (f->dir);
}

static void
assert_value (const gchar *key, const gchar *expected)
{
  gchar *value = sl_persist_get (key);
  g_assert_cmpstr (value, ==, expected);
  g_free (value);
}

static void
test_missing_file_is_empty (Fixture *f, gconstpointer data)
{
  GError *error = NULL;
  g_assert_true (sl_persist_open (f->path, &error));
  g_assert_no_error (error);
  assert_value ("file(/var/log/app.log)", NULL);
  /* nothing changed, nothing written */
  g_assert_true (sl_persist_save (&error));
  g_assert_false (g_file_test (f->path, G_FILE_TEST_EXISTS));
}

static void
test_values_survive_a_restart (Fixture *f, gconstpointer data)
{
  /* keys and values may hold any bytes but NUL */
  static const gchar odd_key[] = "file(/tmp/a\tb\nc \\ \"q\" \xc3\xa9 \xff)";
  GError *error = NULL;
  g_assert_true (sl_persist_open (f->path, &error));
  sl_persist_set ("file(/var/log/app.log)", "1234 5678");
  sl_persist_set (odd_key, "line one\nline two\t\x01");
  sl_persist_set ("kmsg(/dev/kmsg)", "first");
  sl_persist_set ("kmsg(/dev/kmsg)", "second");
  g_assert_true (sl_persist_save (&error));
  g_assert_no_error (error);
  sl_persist_close ();
  assert_value ("file(/var/log/app.log)", NULL);

  g_assert_true (sl_persist_open (f->path, &error));
  assert_value ("file(/var/log/app.log)", "1234 5678");
  assert_value (odd_key, "line one\nline two\t\x01");
  assert_value ("kmsg(/dev/kmsg)", "second");

  /* one line per key: a value cannot break the file's shape */
  gchar *text = NULL;
  g_assert_true (g_file_get_contents (f->path, &text, NULL, NULL));
  guint lines = 0;
  for (const gchar *p = text; (p = strchr (p, '\n')); p++)
    lines++;
  g_assert_cmpuint (lines, ==, 4);
  g_free (text);
}

static void
test_close_saves (Fixture *f, gconstpointer data)
{
  g_assert_true (sl_persist_open (f->path, NULL));
  sl_persist_set ("k", "v");
  sl_persist_close ();
  g_assert_true (sl_persist_open (f->path, NULL));
  assert_value ("k", "v");
}

/* A file edited by hand or cut short by a full disk: lines that make no
 * sense are skipped, the others kept. */
static void
test_damaged_lines_are_skipped (Fixture *f, gconstpointer data)
{
  static const gchar text[] = "# comment\nno tab here\nkey\tvalue\n\tempty key\ncut\\";
  g_assert_true (g_file_set_contents (f->path, text, -1, NULL));
  g_assert_true (sl_persist_open (f->path, NULL));
  assert_value ("key", "value");
  assert_value ("", "empty key");
  assert_value ("no tab here", NULL);
}

static void
test_not_a_file_is_an_error (Fixture *f, gconstpointer data)
{
  /* a folder where the file should be is not the daemon's to replace */
  g_assert_cmpint (g_mkdir (f->path, 0700), ==, 0);
  GError *error = NULL;
  g_assert_false (sl_persist_open (f->path, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "is a folder"));
  g_clear_error (&error);
  /* the store still works in memory; nothing is written over the folder */
  sl_persist_set ("k", "v");
  assert_value ("k", "v");
  g_assert_true (sl_persist_save (&error));
  sl_persist_close ();
  g_assert_true (g_file_test (f->path, G_FILE_TEST_IS_DIR));
  g_rmdir (f->path);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/persist/missing-file", Fixture, NULL, setup, test_missing_file_is_empty, teardown);
  g_test_add ("/persist/restart", Fixture, NULL, setup, test_values_survive_a_restart, teardown);
  g_test_add ("/persist/close-saves", Fixture, NULL, setup, test_close_saves, teardown);
  g_test_add ("/persist/damaged-lines", Fixture, NULL, setup, test_damaged_lines_are_skipped, teardown);
  g_test_add ("/persist/not-a-file", Fixture, NULL, setup, test_not_a_file_is_an_error, teardown);
  return g_test_run ();
}
