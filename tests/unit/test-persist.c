/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "core/internal.h"
#include "core/store/persist-private.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct
{
  gchar *dir;
  gchar *path;
} Fixture;

/* what sl_log() said at warning level, one line each */
static GString *warnings;

static void
capture (SlLogLevel level, const gchar *text, gpointer data)
{
  if (level <= SL_LOG_WARNING)
    g_string_append_printf (warnings, "%s\n", text);
}

static guint
warning_count (void)
{
  guint n = 0;
  for (const gchar *p = warnings->str; (p = strchr (p, '\n')); p++)
    n++;
  return n;
}

static void
setup (Fixture *f, gconstpointer data)
{
  /* the damage tests reopen the file thousands of times, each time
   * writing and syncing it anew: on a tmpfs when there is one */
  if (data && g_file_test ("/dev/shm", G_FILE_TEST_IS_DIR))
    {
      f->dir = g_build_filename ("/dev/shm", "sluice-persist-XXXXXX", NULL);
      g_assert_nonnull (g_mkdtemp (f->dir));
    }
  else
    f->dir = g_dir_make_tmp ("sluice-persist-XXXXXX", NULL);
  g_assert_nonnull (f->dir);
  f->path = g_build_filename (f->dir, "sluice.persist", NULL);
  warnings = g_string_new (NULL);
  sl_internal_set_sink (capture, NULL);
}

static void
teardown (Fixture *f, gconstpointer data)
{
  sl_persist_close ();
  sl_internal_set_sink (NULL, NULL);
  g_string_free (warnings, TRUE);
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

static gboolean
starts_with_magic (const gchar *path)
{
  gchar *text = NULL;
  gsize len = 0;
  gboolean ok = g_file_get_contents (path, &text, &len, NULL) && len >= 8 && memcmp (text, "SLPRSIST", 8) == 0;
  g_free (text);
  return ok;
}

static void
test_missing_file_is_empty (Fixture *f, gconstpointer data)
{
  GError *error = NULL;
  g_assert_true (sl_persist_open (f->path, &error));
  g_assert_no_error (error);
  assert_value ("file(/var/log/app.log)", NULL);
  /* made at once, while the daemon may still be root */
  g_assert_true (starts_with_magic (f->path));
  g_assert_cmpuint (warning_count (), ==, 0);
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
  sl_persist_set ("empty", "");
  g_assert_true (sl_persist_sync (&error));
  g_assert_no_error (error);
  sl_persist_close ();
  assert_value ("file(/var/log/app.log)", NULL);

  g_assert_true (sl_persist_open (f->path, &error));
  assert_value ("file(/var/log/app.log)", "1234 5678");
  assert_value (odd_key, "line one\nline two\t\x01");
  assert_value ("kmsg(/dev/kmsg)", "second");
  assert_value ("empty", "");
  g_assert_cmpuint (warning_count (), ==, 0);
}

/* A value that outgrows its record moves to a new one, many times over;
 * then the file is tidied at the next start. */
static void
test_growing_values (Fixture *f, gconstpointer data)
{
  g_assert_true (sl_persist_open (f->path, NULL));
  GString *list = g_string_new (NULL);
  for (guint i = 0; i < 2000; i++)
    {
      g_string_append_printf (list, "key-%u\n", i);
      sl_persist_set ("python-persist:index", list->str);
      gchar *key = g_strdup_printf ("python-persist:x##%u", i);
      sl_persist_set (key, "l1");
      g_free (key);
    }
  assert_value ("python-persist:index", list->str);
  sl_persist_close ();
  g_assert_true (sl_persist_open (f->path, NULL));
  assert_value ("python-persist:index", list->str);
  assert_value ("python-persist:x##1999", "l1");
  g_assert_cmpuint (warning_count (), ==, 0);
  g_string_free (list, TRUE);
}

/* A set is in the file the moment it returns: a process killed with -9
 * right after it, with no close and no sync, lost nothing. */
static void
test_kill_loses_nothing (Fixture *f, gconstpointer data)
{
  pid_t pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      if (!sl_persist_open (f->path, NULL))
        _exit (1);
      for (guint i = 0; i <= 100000; i++)
        {
          gchar value[32];
          g_snprintf (value, sizeof value, "42 %u", i);
          sl_persist_set ("file(/var/log/app.log)", value);
        }
      sl_persist_set ("a key made last", "and its value");
      raise (SIGKILL);
      _exit (1);
    }
  gint status = 0;
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  g_assert_true (WIFSIGNALED (status) && WTERMSIG (status) == SIGKILL);
  g_assert_true (sl_persist_open (f->path, NULL));
  assert_value ("file(/var/log/app.log)", "42 100000");
  assert_value ("a key made last", "and its value");
  g_assert_cmpuint (warning_count (), ==, 0);
}

/* kill -9 at random moments of a process that keeps making keys (the
 * file grows and records are appended) and setting one (in place, and in
 * new records as its value grows): whatever the moment, the file opens
 * without damage and holds every value set before the last one. */
static void
test_kill_at_any_moment (Fixture *f, gconstpointer data)
{
  for (guint round = 0; round < 20; round++)
    {
      g_unlink (f->path);
      pid_t pid = fork ();
      g_assert_cmpint (pid, >=, 0);
      if (pid == 0)
        {
          if (!sl_persist_open (f->path, NULL))
            _exit (1);
          GString *last = g_string_new (NULL);
          for (guint i = 0;; i++)
            {
              gchar key[32];
              gchar value[16];
              g_snprintf (key, sizeof key, "key %u", i);
              g_snprintf (value, sizeof value, "%u", i);
              sl_persist_set (key, value);
              /* longer every tenth time: it moves to new records */
              g_string_truncate (last, 0);
              for (guint x = 0; x <= i / 10; x++)
                g_string_append_c (last, 'x');
              g_string_append_printf (last, " %u", i);
              sl_persist_set ("last", last->str);
            }
        }
      g_usleep (g_random_int_range (1000, 30000));
      g_assert_cmpint (kill (pid, SIGKILL), ==, 0);
      g_assert_cmpint (waitpid (pid, NULL, 0), ==, pid);
      g_string_truncate (warnings, 0);
      g_assert_true (sl_persist_open (f->path, NULL));
      g_assert_cmpuint (warning_count (), ==, 0);
      gchar *last = sl_persist_get ("last");
      if (last)
        {
          const gchar *space = strchr (last, ' ');
          g_assert_nonnull (space);
          guint n = atoi (space + 1);
          g_assert_cmpuint (space - last, ==, n / 10 + 1);
          g_test_message ("killed after %u keys", n + 1);
          for (guint i = 0; i <= n; i++)
            {
              gchar key[32];
              gchar value[16];
              g_snprintf (key, sizeof key, "key %u", i);
              g_snprintf (value, sizeof value, "%u", i);
              assert_value (key, value);
            }
        }
      g_free (last);
      sl_persist_close ();
    }
}

typedef struct
{
  guint id;
  guint rounds;
} Setter;

static gpointer
set_many (gpointer data)
{
  Setter *s = data;
  gchar key[32];
  gchar value[32];
  g_snprintf (key, sizeof key, "thread %u", s->id);
  for (guint i = 1; i <= s->rounds; i++)
    {
      g_snprintf (value, sizeof value, "%u", i);
      sl_persist_set (key, value);
      if (i % 1000 == 0)
        {
          /* new keys while the others set theirs: the file grows under them */
          g_snprintf (key, sizeof key, "thread %u at %u", s->id, i);
          sl_persist_set (key, value);
          g_snprintf (key, sizeof key, "thread %u", s->id);
        }
    }
  return NULL;
}

static void
test_threads (Fixture *f, gconstpointer data)
{
  g_assert_true (sl_persist_open (f->path, NULL));
  Setter setters[4];
  GThread *threads[4];
  for (guint i = 0; i < 4; i++)
    {
      setters[i] = (Setter) { i, 50000 };
      threads[i] = g_thread_new ("setter", set_many, &setters[i]);
    }
  for (guint i = 0; i < 4; i++)
    g_thread_join (threads[i]);
  sl_persist_close ();
  g_assert_true (sl_persist_open (f->path, NULL));
  for (guint i = 0; i < 4; i++)
    {
      gchar *key = g_strdup_printf ("thread %u", i);
      assert_value (key, "50000");
      g_free (key);
      key = g_strdup_printf ("thread %u at %u", i, 49000);
      assert_value (key, "49000");
      g_free (key);
    }
}

/* The text file of version 1 is read once and converted. */
static void
test_old_format_is_converted (Fixture *f, gconstpointer data)
{
  static const gchar text[] = "# sluice persist file, version 1: key<TAB>value in C escapes\n"
                              "file(/var/log/app.log)\t1234 5678\n"
                              "odd\\tkey\tline one\\nline two\n"
                              "no tab here\n"
                              "\tempty key\n";
  g_assert_true (g_file_set_contents (f->path, text, -1, NULL));
  g_assert_true (sl_persist_open (f->path, NULL));
  assert_value ("file(/var/log/app.log)", "1234 5678");
  assert_value ("odd\tkey", "line one\nline two");
  assert_value ("", "empty key");
  assert_value ("no tab here", NULL);
  g_assert_true (starts_with_magic (f->path));
  sl_persist_set ("file(/var/log/app.log)", "1234 9999");
  sl_persist_close ();
  g_assert_true (sl_persist_open (f->path, NULL));
  assert_value ("file(/var/log/app.log)", "1234 9999");
  assert_value ("odd\tkey", "line one\nline two");
  g_assert_cmpuint (warning_count (), ==, 0);
}

#define KEYS 6

static const gchar *
key_name (guint i)
{
  static const gchar *const names[KEYS] = { "file(/var/log/a.log)", "file(/var/log/b.log)", "systemd-journal()",
                                            "python-persist:p", "kmsg(/dev/kmsg)", "file(/var/log/c.log)" };
  return names[i];
}

/* A file of a few keys, one of whose values outgrew its first record
 * (so the file holds a dead record) and another set many times. */
static void
make_sample (Fixture *f, gchar **contents, gsize *len)
{
  g_assert_true (sl_persist_open (f->path, NULL));
  for (guint i = 0; i < KEYS; i++)
    sl_persist_set (key_name (i), "short");
  sl_persist_set ("python-persist:p", "a value that is much longer than the first one and needs a new record");
  for (guint i = 0; i < 100; i++)
    {
      gchar value[32];
      g_snprintf (value, sizeof value, "7 %u", i);
      sl_persist_set ("file(/var/log/b.log)", value);
    }
  sl_persist_close ();
  g_assert_true (g_file_get_contents (f->path, contents, len, NULL));
}

static const gchar *
sample_value (guint i)
{
  return i == 1 ? "7 99" : i == 3 ? "a value that is much longer than the first one and needs a new record" : "short";
}

/* Opens what is at the path and counts the keys that came back; none may
 * come back with another value than it had. */
static guint
reopen_count (Fixture *f)
{
  g_assert_true (sl_persist_open (f->path, NULL));
  guint found = 0;
  for (guint i = 0; i < KEYS; i++)
    {
      gchar *value = sl_persist_get (key_name (i));
      if (value)
        {
          g_assert_cmpstr (value, ==, sample_value (i));
          found++;
        }
      g_free (value);
    }
  /* and the store goes on working */
  sl_persist_set ("after", "damage");
  assert_value ("after", "damage");
  sl_persist_close ();
  return found;
}

/* Cut at every byte: what is whole before the cut is kept, and a loss is
 * reported once. */
static void
test_torn_at_every_byte (Fixture *f, gconstpointer data)
{
  gchar *contents = NULL;
  gsize len = 0;
  make_sample (f, &contents, &len);
  guint last = 0;
  for (gsize cut = 0; cut <= len; cut++)
    {
      g_string_truncate (warnings, 0);
      g_assert_true (g_file_set_contents (f->path, contents, cut, NULL));
      guint found = reopen_count (f);
      /* a longer file never keeps fewer */
      g_assert_cmpuint (found, >=, last);
      last = found;
      if (found < KEYS && cut > 0)
        {
          g_assert_cmpuint (warning_count (), ==, 1);
          g_assert_true (strstr (warnings->str, "cut short") != NULL);
        }
      else
        g_assert_cmpuint (warning_count (), ==, 0);
    }
  g_assert_cmpuint (last, ==, KEYS);
  g_free (contents);
}

/* Garbage from any byte on: the whole records before it are kept. */
static void
test_garbage_tail (Fixture *f, gconstpointer data)
{
  gchar *contents = NULL;
  gsize len = 0;
  make_sample (f, &contents, &len);
  guint last = 0;
  /* past the records the file is free space, where garbage loses nothing */
  for (gsize from = 0; from < MIN (len, 2048); from++)
    {
      gchar *damaged = g_memdup2 (contents, len);
      for (gsize i = from; i < len; i++)
        damaged[i] = (gchar) (0xa5 ^ (i * 31));
      g_string_truncate (warnings, 0);
      g_assert_true (g_file_set_contents (f->path, damaged, len, NULL));
      guint found = reopen_count (f);
      g_assert_cmpuint (found, >=, last);
      last = found;
      g_assert_cmpuint (warning_count (), <=, 1);
      if (found < KEYS)
        g_assert_cmpuint (warning_count (), ==, 1);
      g_free (damaged);
    }
  g_assert_cmpuint (last, ==, KEYS);
  g_free (contents);
}

/* A file that cannot grow (RLIMIT_FSIZE stands in for a full disk): the
 * new values are kept in memory, the failure is reported once, what the
 * file held stays whole, and the values are written once it can grow. */
static void
test_full_disk (Fixture *f, gconstpointer data)
{
  struct rlimit old;
  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &old), ==, 0);
  void (*old_handler) (int) = signal (SIGXFSZ, SIG_IGN);
  g_assert_true (sl_persist_open (f->path, NULL));
  sl_persist_set ("file(/var/log/a.log)", "1 100");
  GStatBuf st;
  g_assert_cmpint (g_stat (f->path, &st), ==, 0);
  struct rlimit tight = { st.st_size, old.rlim_max };
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &tight), ==, 0);

  gchar *big = g_strnfill (3000, 'x');
  for (guint i = 0; i < 20; i++)
    {
      gchar *key = g_strdup_printf ("big %u", i);
      sl_persist_set (key, big);
      g_free (key);
    }
  /* the key already there is still set in place */
  sl_persist_set ("file(/var/log/a.log)", "1 200");
  assert_value ("big 19", big);
  assert_value ("file(/var/log/a.log)", "1 200");
  g_assert_cmpuint (warning_count (), ==, 1);
  g_assert_true (strstr (warnings->str, "cannot write the persist file") != NULL);
  GError *error = NULL;
  g_assert_false (sl_persist_sync (&error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOSPC);
  g_clear_error (&error);
  g_assert_cmpuint (warning_count (), ==, 1);

  /* what is on disk now is whole */
  gchar *snapshot = NULL;
  gsize snapshot_len = 0;
  g_assert_true (g_file_get_contents (f->path, &snapshot, &snapshot_len, NULL));
  g_assert_cmpuint (snapshot_len, ==, st.st_size);

  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &old), ==, 0);
  g_assert_true (sl_persist_sync (&error));
  g_assert_no_error (error);
  sl_persist_close ();
  g_assert_true (sl_persist_open (f->path, NULL));
  assert_value ("big 0", big);
  assert_value ("big 19", big);
  assert_value ("file(/var/log/a.log)", "1 200");
  sl_persist_close ();

  g_assert_true (g_file_set_contents (f->path, snapshot, snapshot_len, NULL));
  g_string_truncate (warnings, 0);
  g_assert_true (sl_persist_open (f->path, NULL));
  assert_value ("file(/var/log/a.log)", "1 200");
  assert_value ("big 0", NULL);
  g_assert_cmpuint (warning_count (), ==, 0);
  signal (SIGXFSZ, old_handler);
  g_free (snapshot);
  g_free (big);
}

/* The folder is missing at the start: the values are kept in memory,
 * the failure reported once, and the file made once the folder is there. */
static void
test_folder_appears_later (Fixture *f, gconstpointer data)
{
  gchar *sub = g_build_filename (f->dir, "later", NULL);
  gchar *path = g_build_filename (sub, "sluice.persist", NULL);
  g_assert_true (sl_persist_open (path, NULL));
  sl_persist_set ("k", "v1");
  sl_persist_set ("k", "v2");
  assert_value ("k", "v2");
  g_assert_cmpuint (warning_count (), ==, 1);
  GError *error = NULL;
  g_assert_false (sl_persist_sync (&error));
  g_clear_error (&error);
  g_assert_cmpint (g_mkdir (sub, 0700), ==, 0);
  g_assert_true (sl_persist_sync (&error));
  g_assert_no_error (error);
  sl_persist_set ("k", "v3");
  sl_persist_close ();
  g_assert_true (sl_persist_open (path, NULL));
  assert_value ("k", "v3");
  sl_persist_close ();
  g_unlink (path);
  g_rmdir (sub);
  g_free (path);
  g_free (sub);
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
  g_assert_true (sl_persist_sync (&error));
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
  g_test_add ("/persist/growing-values", Fixture, NULL, setup, test_growing_values, teardown);
  g_test_add ("/persist/kill-loses-nothing", Fixture, NULL, setup, test_kill_loses_nothing, teardown);
  g_test_add ("/persist/kill-at-any-moment", Fixture, NULL, setup, test_kill_at_any_moment, teardown);
  g_test_add ("/persist/threads", Fixture, NULL, setup, test_threads, teardown);
  g_test_add ("/persist/old-format", Fixture, NULL, setup, test_old_format_is_converted, teardown);
  g_test_add ("/persist/torn-at-every-byte", Fixture, "shm", setup, test_torn_at_every_byte, teardown);
  g_test_add ("/persist/garbage-tail", Fixture, "shm", setup, test_garbage_tail, teardown);
  g_test_add ("/persist/full-disk", Fixture, NULL, setup, test_full_disk, teardown);
  g_test_add ("/persist/folder-appears-later", Fixture, NULL, setup, test_folder_appears_later, teardown);
  g_test_add ("/persist/not-a-file", Fixture, NULL, setup, test_not_a_file_is_an_error, teardown);
  return g_test_run ();
}
