/* SPDX-License-Identifier: GPL-2.0-or-later */
/* file(), wildcard-file(), pipe() and stdin() on the real daemon: a
 * followed file through appends, restarts, rotation and truncation; the
 * files of a folder, new ones too; a named pipe through its writers coming
 * and going; the daemon's stdin to its end. */
#include "tests/functional/harness.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static gboolean
append (SlTestEnv *env, const gchar *name, const gchar *text)
{
  g_autofree gchar *path = sl_test_path (env, name);
  gint fd = open (path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  gboolean ok = fd >= 0 && write (fd, text, strlen (text)) == (gssize) strlen (text);
  if (!ok)
    g_test_fail_printf ("cannot append to %s: %s", path, g_strerror (errno));
  if (fd >= 0)
    close (fd);
  return ok;
}

static gint
compare_strings (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const gchar *const *) a, *(const gchar *const *) b);
}

/* Waits for out.log to hold as many lines as expected and compares them,
 * sorted when sorted is TRUE: the files of wildcard-file() are read side
 * by side, so only each file's own lines keep their order. */
static gboolean
check_lines (SlTestEnv *env, const gchar *expected, gboolean sorted)
{
  g_autofree gchar *path = sl_test_path (env, "out.log");
  guint lines = 0;
  for (const gchar *p = expected; (p = strchr (p, '\n')); p++)
    lines++;
  if (!sl_test_wait_lines (env, path, lines))
    return FALSE;
  g_autofree gchar *text = sl_test_read_file (path);
  if (sorted && text)
    {
      g_auto (GStrv) got = g_strsplit (text, "\n", -1);
      guint n = g_strv_length (got) - 1;   /* after the last newline: "" */
      qsort (got, n, sizeof (gchar *), compare_strings);
      g_free (got[n]);
      got[n] = NULL;
      g_autofree gchar *joined = g_strjoinv ("\n", got);
      g_free (text);
      text = g_strconcat (joined, "\n", NULL);
    }
  g_assert_cmpstr (text, ==, expected);
  return g_strcmp0 (text, expected) == 0;
}

static gboolean
check_output (SlTestEnv *env, const gchar *expected)
{
  return check_lines (env, expected, FALSE);
}

static const gchar file_config[] =
  "@version: 4.0\n"
  "source s_file { file(\"@DIR@/in.log\" follow-freq(0.1) flags(no-parse)); };\n"
  "destination d_out { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_file); destination(d_out); flags(flow-control); };\n";

/* Lines that were there and lines appended later arrive; a line is taken
 * only once its newline is written. */
static void
test_follow (SlTestEnv *env, gconstpointer data)
{
  if (!append (env, "in.log", "one\ntwo\n") || !sl_test_write_config (env, file_config, NULL)
      || !sl_test_daemon_start (env) || !check_output (env, "one\ntwo\n"))
    return;
  if (!append (env, "in.log", "thr"))
    return;
  /* time for the reader to see the half line; it must wait for the rest */
  g_usleep (300 * 1000);
  if (!append (env, "in.log", "ee\r\n\nfour\n"))
    return;
  check_output (env, "one\ntwo\nthree\nfour\n");
}

/* The position is kept across a restart: what was appended while the
 * daemon was down arrives once, and nothing arrives twice. */
static void
test_resume_after_restart (SlTestEnv *env, gconstpointer data)
{
  if (!append (env, "in.log", "one\ntwo\nthree\n") || !sl_test_write_config (env, file_config, NULL)
      || !sl_test_daemon_start (env) || !check_output (env, "one\ntwo\nthree\n"))
    return;
  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);

  g_autofree gchar *in = sl_test_path (env, "in.log");
  g_autofree gchar *key = g_strdup_printf ("file(%s)", in);
  g_autofree gchar *saved = sl_test_persist_value (env->persist, key);
  struct stat st;
  g_assert_cmpint (stat (in, &st), ==, 0);
  g_autofree gchar *entry = g_strdup_printf ("%" G_GUINT64_FORMAT " 14", (guint64) st.st_ino);
  g_assert_cmpstr (saved, ==, entry);

  if (!append (env, "in.log", "four\nfive\n") || !sl_test_daemon_start (env)
      || !check_output (env, "one\ntwo\nthree\nfour\nfive\n"))
    return;
  /* and a reload resumes as well */
  g_autofree gchar *answer = sl_test_control (env, "RELOAD");
  g_assert_true (answer && g_str_has_prefix (answer, "OK"));
  if (append (env, "in.log", "six\n"))
    check_output (env, "one\ntwo\nthree\nfour\nfive\nsix\n");
}

/* An upgrade keeps positions: the text persist file of version 1 is read
 * (and converted), so the source resumes where it says. */
static void
test_resume_from_version_1 (SlTestEnv *env, gconstpointer data)
{
  if (!append (env, "in.log", "one\ntwo\nthree\n"))
    return;
  g_autofree gchar *in = sl_test_path (env, "in.log");
  struct stat st;
  g_assert_cmpint (stat (in, &st), ==, 0);
  g_autofree gchar *escaped = g_strescape (in, NULL);
  /* "one\ntwo\n" was delivered */
  g_autofree gchar *text = g_strdup_printf ("# sluice persist file, version 1: key<TAB>value in C escapes\n"
                                            "file(%s)\t%" G_GUINT64_FORMAT " 8\n", escaped, (guint64) st.st_ino);
  g_assert_true (g_file_set_contents (env->persist, text, -1, NULL));
  if (!sl_test_write_config (env, file_config, NULL) || !sl_test_daemon_start (env) || !check_output (env, "three\n"))
    return;
  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
  g_autofree gchar *key = g_strdup_printf ("file(%s)", in);
  g_autofree gchar *saved = sl_test_persist_value (env->persist, key);
  g_autofree gchar *expected = g_strdup_printf ("%" G_GUINT64_FORMAT " 14", (guint64) st.st_ino);
  g_assert_cmpstr (saved, ==, expected);
}

#define FIRST_BATCH_LINES 1000
/* How soon a delivered position must reach the persist file: what a
 * kill -9 may repeat. */
#define SAVED_WITHIN_USEC G_USEC_PER_SEC

/* Waits up to limit_usec for the persist file to hold value for key. */
static gboolean
wait_persisted (SlTestEnv *env, const gchar *key, const gchar *value, gint64 limit_usec)
{
  gint64 limit = g_get_monotonic_time () + limit_usec;
  for (;;)
    {
      g_autofree gchar *saved = sl_test_persist_value (env->persist, key);
      if (g_strcmp0 (saved, value) == 0)
        return TRUE;
      if (g_get_monotonic_time () > limit)
        return FALSE;
      g_usleep (10 * 1000);
    }
}

/* The position of the first batch reaches the disk within a second of
 * its delivery, so a kill -9 right after it repeats nothing. */
static void
test_kill_after_first_batch (SlTestEnv *env, gconstpointer data)
{
  GString *lines = g_string_new (NULL);
  for (guint i = 1; i <= FIRST_BATCH_LINES; i++)
    g_string_append_printf (lines, "line %05u\n", i);
  gboolean written = append (env, "in.log", lines->str);
  gsize size = lines->len;
  g_string_free (lines, TRUE);
  g_autofree gchar *out = sl_test_path (env, "out.log");
  if (!written || !sl_test_write_config (env, file_config, NULL) || !sl_test_daemon_start (env)
      || !sl_test_wait_lines (env, out, FIRST_BATCH_LINES))
    return;
  g_autofree gchar *in = sl_test_path (env, "in.log");
  struct stat st;
  g_assert_cmpint (stat (in, &st), ==, 0);
  g_autofree gchar *key = g_strdup_printf ("file(%s)", in);
  g_autofree gchar *entry = g_strdup_printf ("%" G_GUINT64_FORMAT " %zu", (guint64) st.st_ino, size);
  if (!wait_persisted (env, key, entry, SAVED_WITHIN_USEC))
    {
      g_test_fail_printf ("the position of the lines delivered was not saved within a second");
      return;
    }
  sl_test_daemon_stop (env, SIGKILL);
  if (!append (env, "in.log", "after the kill\n") || !sl_test_daemon_start (env)
      || !sl_test_wait_contains (env, out, "after the kill\n"))
    return;
  g_assert_cmpuint (sl_test_count_lines (out), ==, FIRST_BATCH_LINES + 1);
}

/* persist-name() names the position, as in syslog-ng: the file read under
 * another spelling of its path resumes where the first one stopped. */
static const gchar persist_name_config[] =
  "@version: 4.0\n"
  "source s_file { file(\"@DIR@/@IN@\" follow-freq(0.1) flags(no-parse) persist-name(\"app_log\")); };\n"
  "destination d_out { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_file); destination(d_out); flags(flow-control); };\n";

static void
test_persist_name (SlTestEnv *env, gconstpointer data)
{
  if (!append (env, "in.log", "one\ntwo\n")
      || !sl_test_write_config (env, persist_name_config, "IN", "in.log", NULL)
      || !sl_test_daemon_start (env) || !check_output (env, "one\ntwo\n"))
    return;
  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
  g_autofree gchar *saved = sl_test_persist_value (env->persist, "app_log");
  g_assert_nonnull (saved);

  if (!append (env, "in.log", "three\n")
      || !sl_test_write_config (env, persist_name_config, "IN", "./in.log", NULL)
      || !sl_test_daemon_start (env))
    return;
  check_output (env, "one\ntwo\nthree\n");
}

/* Rotation: the old file is renamed and a new one made at the path; the
 * old one is read to its end, then the new one from its start. */
static void
test_rotation (SlTestEnv *env, gconstpointer data)
{
  if (!append (env, "in.log", "1\n2\n") || !sl_test_write_config (env, file_config, NULL)
      || !sl_test_daemon_start (env) || !check_output (env, "1\n2\n"))
    return;
  g_autofree gchar *in = sl_test_path (env, "in.log");
  g_autofree gchar *old = sl_test_path (env, "in.log.1");
  if (!append (env, "in.log", "3\n") || rename (in, old) < 0 || !append (env, "in.log", "4\n5\n"))
    return;
  if (!check_output (env, "1\n2\n3\n4\n5\n"))
    return;
  sl_test_wait_stat (env, "source", "s_file", "rotations", 1);
  /* the new file is the one followed now */
  if (append (env, "in.log", "6\n") && append (env, "in.log.1", "not followed any more\n"))
    check_output (env, "1\n2\n3\n4\n5\n6\n");
}

/* A new, shorter file renamed over the path (as editors do) is another
 * file: it is read from its start. */
static void
test_replaced_by_shorter (SlTestEnv *env, gconstpointer data)
{
  if (!append (env, "in.log", "line 1\nline 2\nline 3\n") || !sl_test_write_config (env, file_config, NULL)
      || !sl_test_daemon_start (env) || !check_output (env, "line 1\nline 2\nline 3\n"))
    return;
  g_autofree gchar *in = sl_test_path (env, "in.log");
  if (g_file_set_contents (in, "x\n", -1, NULL))
    check_output (env, "line 1\nline 2\nline 3\nx\n");
}

/* in.log truncated in place to "x\n", as logrotate's copytruncate leaves it */
static gboolean
truncate_to_x (SlTestEnv *env)
{
  g_autofree gchar *in = sl_test_path (env, "in.log");
  gint fd = open (in, O_WRONLY | O_TRUNC | O_CLOEXEC);
  g_assert_cmpint (fd, >=, 0);
  if (fd < 0)
    return FALSE;
  g_assert_cmpint (write (fd, "x\n", 2), ==, 2);
  close (fd);
  return TRUE;
}

/* Truncation: the file gets shorter than what was read, as logrotate's
 * copytruncate makes it; it is read again from its start. */
static void
test_truncation_in_place (SlTestEnv *env, gconstpointer data)
{
  if (!append (env, "in.log", "line 1\nline 2\nline 3\n") || !sl_test_write_config (env, file_config, NULL)
      || !sl_test_daemon_start (env) || !check_output (env, "line 1\nline 2\nline 3\n"))
    return;
  if (!truncate_to_x (env))
    return;
  if (check_output (env, "line 1\nline 2\nline 3\nx\n"))
    sl_test_wait_stat (env, "source", "s_file", "truncations", 1);
}

/* rsyslog-reopen-on-truncate(no), rsyslog's imfile by default: a file
 * truncated is not read again from its start; once it grows past where
 * reading was, it is read on from there, in the middle of a line. */
static void
test_truncation_read_on (SlTestEnv *env, gconstpointer data)
{
  GString *config = g_string_new (file_config);
  g_string_replace (config, "flags(no-parse)", "flags(no-parse) rsyslog-reopen-on-truncate(no)", 1);
  gboolean started = append (env, "in.log", "line 1\nline 2\nline 3\n") && sl_test_write_config (env, config->str, NULL)
                     && sl_test_daemon_start (env) && check_output (env, "line 1\nline 2\nline 3\n");
  g_string_free (config, TRUE);
  if (!started)
    return;
  if (!truncate_to_x (env))
    return;
  /* from the 22nd byte: the 21 read end there */
  if (append (env, "in.log", "skipped by reading read on\n"))
    check_output (env, "line 1\nline 2\nline 3\nread on\n");
}

/* A file that is not there yet is waited for. */
static void
test_file_appears_later (SlTestEnv *env, gconstpointer data)
{
  if (!sl_test_write_config (env, file_config, NULL) || !sl_test_daemon_start (env)
      || !sl_test_wait_stderr (env, "cannot read"))
    return;
  if (append (env, "in.log", "late\n"))
    check_output (env, "late\n");
}

static const gchar held_config[] =
  "@version: 4.0\n"
  "source s_file { file(\"@DIR@/in.log\" follow-freq(0.1) flags(no-parse)); };\n"
  "destination d_pipe { file(\"@DIR@/out.pipe\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_file); destination(d_pipe); flags(flow-control); };\n";

#define HELD_LINES 2000

/* The offset the persist file holds for in.log, or -1. */
static gint64
saved_offset (SlTestEnv *env)
{
  g_autofree gchar *in = sl_test_path (env, "in.log");
  g_autofree gchar *key = g_strdup_printf ("file(%s)", in);
  g_autofree gchar *entry = sl_test_persist_value (env->persist, key);
  guint64 ino;
  gint64 offset;
  if (!entry || sscanf (entry, "%" G_GUINT64_FORMAT " %" G_GINT64_FORMAT, &ino, &offset) != 2)
    return -1;
  return offset;
}

static gboolean
wait_saved_offset (SlTestEnv *env, gint64 expected)
{
  gint64 deadline = g_get_monotonic_time () + SL_TEST_DEADLINE_MS * 1000;
  while (saved_offset (env) != expected && g_get_monotonic_time () < deadline)
    g_usleep (50 * 1000);
  gint64 offset = saved_offset (env);
  g_assert_cmpint (offset, ==, expected);
  return offset == expected;
}

typedef struct
{
  gint fd;
  GString *data;
} Drain;

static gpointer
drain_thread (gpointer p)
{
  Drain *d = p;
  gchar buf[16 * 1024];
  gssize n;
  while ((n = read (d->fd, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
    if (n > 0)
      g_string_append_len (d->data, buf, n);
  return NULL;
}

static void
check_held_lines (SlTestEnv *env, gint pipe_fd, gsize size)
{
  gint64 deadline = g_get_monotonic_time () + SL_TEST_DEADLINE_MS * 1000;
  while (sl_test_stat (env, "source", "s_file", "received") <= 0 && g_get_monotonic_time () < deadline)
    g_usleep (50 * 1000);
  /* long enough for the daemon to save (once a second) a position that
   * ran ahead of what was delivered, were it to */
  g_usleep (1500 * 1000);
  if (!wait_saved_offset (env, 0))
    return;
  /* and reading waits for the lines read to be delivered */
  gint64 received = sl_test_stat (env, "source", "s_file", "received");
  g_assert_cmpint (received, >, 0);
  g_assert_cmpint (received, <, HELD_LINES);

  Drain drain = { pipe_fd, g_string_new (NULL) };
  GThread *thread = g_thread_new ("drain", drain_thread, &drain);
  /* once all of it is delivered the position reaches the end */
  wait_saved_offset (env, size);
  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
  g_thread_join (thread);
  g_autofree gchar *in = sl_test_path (env, "in.log");
  g_autofree gchar *expected = sl_test_read_file (in);
  g_assert_cmpstr (drain.data->str, ==, expected);
  g_string_free (drain.data, TRUE);
}

/* Under flow control the saved position moves only over lines that were
 * written: while the destination is held back (a pipe nobody reads) it
 * stays, and once the pipe is read it reaches the end. */
static void
test_position_follows_delivery (SlTestEnv *env, gconstpointer data)
{
  GString *lines = g_string_new (NULL);
  for (guint i = 1; i <= HELD_LINES; i++)
    g_string_append_printf (lines, "held back line %06u with some padding to make it longer\n", i);
  gsize size = lines->len;
  gboolean written = append (env, "in.log", lines->str);
  g_string_free (lines, TRUE);
  g_autofree gchar *pipe_path = sl_test_path (env, "out.pipe");
  if (!written || mkfifo (pipe_path, 0600) < 0)
    return;
  gint pipe_fd = open (pipe_path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  /* a small pipe: the first lines read already fill it */
  if (pipe_fd < 0 || fcntl (pipe_fd, F_SETFL, 0) < 0 || fcntl (pipe_fd, F_SETPIPE_SZ, 4096) < 0)
    {
      g_test_fail_printf ("cannot set up %s: %s", pipe_path, g_strerror (errno));
      if (pipe_fd >= 0)
        close (pipe_fd);
      return;
    }
  if (sl_test_write_config (env, held_config, NULL) && sl_test_daemon_start (env))
    check_held_lines (env, pipe_fd, size);
  close (pipe_fd);
}

static const gchar pipe_config[] =
  "@version: 4.0\n"
  "source s_pipe { pipe(\"@DIR@/in.pipe\" flags(no-parse)); };\n"
  "destination d_out { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_pipe); destination(d_out); };\n";

static gboolean
write_to_pipe (const gchar *path, const gchar *text)
{
  gint fd = open (path, O_WRONLY | O_CLOEXEC);
  gboolean ok = fd >= 0 && write (fd, text, strlen (text)) == (gssize) strlen (text);
  if (!ok)
    g_test_fail_printf ("cannot write to %s: %s", path, g_strerror (errno));
  if (fd >= 0)
    close (fd);
  return ok;
}

/* Writers come and go; each one's lines arrive. A line that starts with
 * digits and a space is a line, not an octet-counted frame. */
static const gchar wildcard_config[] =
  "@version: 3.38\n"
  "source s_logs { wildcard-file(base-dir(\"@DIR@/logs\") filename-pattern(\"*.log\") recursive(yes)\n"
  "  follow-freq(0.1) flags(no-parse)); };\n"
  "destination d_out { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_logs); destination(d_out); flags(flow-control); };\n";

/* The files whose names match, in folders under base-dir() too; a file
 * and a folder made while it runs; each file's position kept across a
 * restart as file() keeps its one. */
static void
test_wildcard (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *deeper = sl_test_path (env, "logs/sub/deeper");
  g_assert_cmpint (g_mkdir_with_parents (deeper, 0755), ==, 0);
  if (!append (env, "logs/a.log", "a1\n") || !append (env, "logs/sub/deeper/b.log", "b1\n")
      || !append (env, "logs/c.txt", "not this\n") || !sl_test_write_config (env, wildcard_config, NULL)
      || !sl_test_daemon_start (env) || !check_lines (env, "a1\nb1\n", TRUE))
    return;

  g_autofree gchar *later = sl_test_path (env, "logs/later");
  g_assert_cmpint (mkdir (later, 0755), ==, 0);
  if (!append (env, "logs/new.log", "new1\n") || !append (env, "logs/later/l.log", "l1\n")
      || !append (env, "logs/a.log", "a2\n") || !check_lines (env, "a1\na2\nb1\nl1\nnew1\n", TRUE))
    return;
  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);

  g_autofree gchar *new_log = sl_test_path (env, "logs/new.log");
  g_autofree gchar *key = g_strdup_printf ("file(%s)", new_log);
  g_autofree gchar *saved = sl_test_persist_value (env->persist, key);
  g_assert_nonnull (saved);

  if (!append (env, "logs/new.log", "new2\n") || !append (env, "logs/sub/deeper/b.log", "b2\n")
      || !sl_test_daemon_start (env))
    return;
  check_lines (env, "a1\na2\nb1\nb2\nl1\nnew1\nnew2\n", TRUE);
}

static const gchar file_name_config[] =
  "@version: 3.38\n"
  "source s_file { file(\"@DIR@/in.log\" follow-freq(0.1) flags(no-parse)); };\n"
  "source s_wild { wildcard-file(base-dir(\"@DIR@/logs\") filename-pattern(\"*.log\") follow-freq(0.1)\n"
  "  flags(no-parse)); };\n"
  "destination d_out { file(\"@DIR@/out.log\" template(\"${FILE_NAME}|${MESSAGE}\\n\")); };\n"
  "log { source(s_file); source(s_wild); destination(d_out); };\n";

/* $FILE_NAME: the path of the file a line was read from, as syslog-ng's
 * file() and wildcard-file() set it. */
static void
test_file_name (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *logs = sl_test_path (env, "logs");
  g_autofree gchar *in = sl_test_path (env, "in.log");
  g_autofree gchar *a = sl_test_path (env, "logs/a.log");
  g_assert_cmpint (g_mkdir_with_parents (logs, 0755), ==, 0);
  g_autofree gchar *expected = g_strdup_printf ("%s|from in\n%s|from a\n", in, a);
  if (!append (env, "in.log", "from in\n") || !append (env, "logs/a.log", "from a\n")
      || !sl_test_write_config (env, file_name_config, NULL) || !sl_test_daemon_start (env))
    return;
  check_lines (env, expected, TRUE);
}

static void
test_pipe (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *path = sl_test_path (env, "in.pipe");
  if (!sl_test_write_config (env, pipe_config, NULL) || !sl_test_daemon_start (env))
    return;
  struct stat st;
  g_assert_cmpint (stat (path, &st), ==, 0);
  g_assert_true (S_ISFIFO (st.st_mode));
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  if (!write_to_pipe (path, "first writer\n") || !check_output (env, "first writer\n"))
    return;
  if (!write_to_pipe (path, "42 apples and\n7 pears\n") || !check_output (env, "first writer\n42 apples and\n7 pears\n"))
    return;
  /* stopping ends a read that waits on the pipe */
  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
}

/* Something else at the path is not replaced. */
static void
test_pipe_path_taken (SlTestEnv *env, gconstpointer data)
{
  if (!append (env, "in.pipe", "a regular file\n") || !sl_test_write_config (env, pipe_config, NULL))
    return;
  g_autofree gchar *err = NULL;
  gint status = sl_test_run_built ("daemon/sluiced", NULL, &err, "-F", "-f", env->config, "--module-path",
                                   sl_test_module_path (), "-p", env->pidfile, "-c", env->control,
                                   "-R", env->persist, NULL);
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (err, "exists and is not a named pipe"));
  g_autofree gchar *path = sl_test_path (env, "in.pipe");
  g_autofree gchar *text = sl_test_read_file (path);
  g_assert_cmpstr (text, ==, "a regular file\n");
}

static const gchar stdin_config[] =
  "@version: 4.0\n"
  "source s_stdin { stdin(); };\n"
  "destination d_out { file(\"@DIR@/out.log\" template(\"${PROGRAM}: ${MESSAGE}\\n\")); };\n"
  "log { source(s_stdin); destination(d_out); };\n";

/* As syslog-ng does, the daemon stops at the end of its stdin, once what
 * it read is written. */
static void
test_stdin (SlTestEnv *env, gconstpointer data)
{
  gint fds[2];
  g_assert_cmpint (pipe2 (fds, O_CLOEXEC), ==, 0);
  if (!sl_test_write_config (env, stdin_config, NULL) || !sl_test_daemon_start_with_stdin (env, fds[0]))
    {
      close (fds[0]);
      close (fds[1]);
      return;
    }
  close (fds[0]);
  static const gchar lines[] = "<13>Nov 29 20:25:57 host app: from stdin\n<14>Nov 29 20:25:58 host app: last, no newline";
  gboolean sent = write (fds[1], lines, strlen (lines)) == (gssize) strlen (lines);
  g_assert_true (sent);
  if (sent)
    check_output (env, "app: from stdin\n");
  close (fds[1]);
  g_assert_cmpint (sl_test_daemon_stop (env, 0), ==, 0);
  check_output (env, "app: from stdin\napp: last, no newline\n");
  g_autofree gchar *err = sl_test_daemon_stderr (env);
  g_assert_nonnull (strstr (err, "stdin() reached the end of its input"));
}

static const gchar indented_config[] =
  "@version: 4.0\n"
  "source s_file { file(\"@DIR@/in.log\" follow-freq(0.1) flags(no-parse) multi-line-mode(indented)); };\n"
  "destination d_out { file(\"@DIR@/out.log\" template(\"[${MESSAGE}]\\n\")); };\n"
  "log { source(s_file); destination(d_out); flags(flow-control); };\n";

/* multi-line-mode(indented), as syslog-ng 3.38 makes the messages of the
 * same file: an indented or empty line continues the message, the next
 * unindented one sends it. The message held waiting for that is not
 * passed by the position saved, so a restart reads it again whole. */
static void
test_multi_line_indented (SlTestEnv *env, gconstpointer data)
{
  if (!append (env, "in.log", "a\n  b\n\tc\n\nd\n") || !sl_test_write_config (env, indented_config, NULL)
      || !sl_test_daemon_start (env) || !check_output (env, "[a\n  b\n\tc]\n"))
    return;
  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
  g_autofree gchar *in = sl_test_path (env, "in.log");
  g_autofree gchar *key = g_strdup_printf ("file(%s)", in);
  g_autofree gchar *saved = sl_test_persist_value (env->persist, key);
  /* "d" starts at byte 10 */
  g_assert_true (saved && g_str_has_suffix (saved, " 10"));

  if (append (env, "in.log", " e\nf\n") && sl_test_daemon_start (env))
    check_output (env, "[a\n  b\n\tc]\n[d\n e]\n");
}

/* multi-line-mode(prefix-suffix): the prefix starts a message (the first
 * line starts one whatever it is), the suffix ends it there, the rest of
 * its line dropped; multi-line-timeout() sends the last one, which no
 * line follows. The messages are syslog-ng 3.38's of the same file. */
static void
test_multi_line_prefix_suffix (SlTestEnv *env, gconstpointer data)
{
  if (!append (env, "in.log", "junk\nBEGIN 1\nx\nEND tail\nBEGIN 2\n  y\n")
      || !sl_test_write_config (env,
                                "@version: 4.0\n"
                                "source s_file { file(\"@DIR@/in.log\" follow-freq(0.1) flags(no-parse)\n"
                                "  multi-line-mode(prefix-suffix) multi-line-prefix('^BEGIN') multi-line-suffix('END')\n"
                                "  multi-line-timeout(0.5)); };\n"
                                "destination d_out { file(\"@DIR@/out.log\" template(\"[${MESSAGE}]\\n\")); };\n"
                                "log { source(s_file); destination(d_out); };\n", NULL)
      || !sl_test_daemon_start (env))
    return;
  check_output (env, "[junk]\n[BEGIN 1\nx\nEND]\n[BEGIN 2\n  y]\n");
}

/* multi-line-mode(smart): stack traces of Java (two in a row), Python,
 * PHP, Ruby, Dart and Go among plain lines, a blank one and a tab */
static const gchar smart_input[] =
  "starting\n"
  "java.lang.RuntimeException: first\n"
  "\tat a.B.c(B.java:1)\n"
  "java.lang.IllegalArgumentException: second\n"
  "\tat a.B.d(B.java:2)\n"
  "Caused by: java.lang.NullPointerException: null\n"
  "\tat a.B.e(B.java:3)\n"
  "\t... 2 more\n"
  "Traceback (most recent call last):\n"
  "  File \"x.py\", line 1, in <module>\n"
  "KeyError: 'k'\n"
  "Traceback (most recent call last):\n"
  "  File \"y.py\", line 9, in f\n"
  "    g()\n"
  "ZeroDivisionError: division by zero\n"
  "PHP Fatal error:  Uncaught Exception: oops in /var/www/a.php:3\n"
  "Stack trace:\n"
  "#0 {main}\n"
  "  thrown in /var/www/a.php on line 3\n"
  "NoMethodError (undefined method `x' for nil:NilClass):\n"
  "  app/models/a.rb:4:in `b'\n"
  "Unhandled exception:\n"
  "Bad state: no element\n"
  "#0      main (file:///a.dart:3:5)\n"
  "\n"
  "middle\twith tab\n"
  "panic: runtime error: index out of range\n"
  "\n"
  "goroutine 1 [running]:\n"
  "main.main()\n"
  "\t/tmp/main.go:5 +0x1d\n"
  "exit status 2\n"
  "ending\n";

static const gchar smart_config[] =
  "@version: 4.8\n"
  "source s_file { file(\"@DIR@/in.log\" follow-freq(0.1) flags(no-parse) multi-line-mode(smart)); };\n"
  "destination d_out { file(\"@DIR@/out.log\" template(\"<${MSG}>\\n\")); };\n"
  "log { source(s_file); destination(d_out); };\n";

/* multi-line-mode(smart) makes the same messages as syslog-ng 4.8 of the
 * same file. */
static void
test_multi_line_smart (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *trixie = sl_test_trixie_root ();
  if (!trixie)
    {
      g_test_skip ("the Debian 13 root could not be made (tests/peers/trixie-root)");
      return;
    }
  g_autofree gchar *expected = sl_test_syslog_ng_48_output (env, trixie, smart_config, smart_input, "<ending>\n");
  if (!expected || !append (env, "in.log", smart_input) || !sl_test_write_config (env, smart_config, NULL)
      || !sl_test_daemon_start (env))
    return;
  g_test_message ("syslog-ng 4.8 wrote:\n%s", expected);
  check_output (env, expected);
}

/* sluiced -s on config; its exit status, its stderr in err. */
static gint
syntax_only (SlTestEnv *env, const gchar *config, gchar **err)
{
  if (!sl_test_write_config (env, config, NULL))
    return -1;
  return sl_test_run_built ("daemon/sluiced", NULL, err, "-s", "-f", env->config,
                            "--module-path", sl_test_module_path (), NULL);
}

/* A pattern that is not one, and a prefix without a mode that uses it,
 * are configuration errors. */
static void
test_multi_line_errors (SlTestEnv *env, gconstpointer data)
{
  const gchar *bad = "source s { file(\"@DIR@/in.log\" multi-line-mode(regexp) multi-line-prefix('(')); };\n"
                    "log { source(s); };\n";
  const gchar *unused = "source s { file(\"@DIR@/in.log\" multi-line-prefix('^x')); };\n"
                        "log { source(s); };\n";
  g_autofree gchar *err = NULL;
  g_assert_cmpint (syntax_only (env, bad, &err), !=, 0);
  g_assert_nonnull (strstr (err, "multi-line-prefix(): invalid pattern"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (syntax_only (env, unused, &err), !=, 0);
  g_assert_nonnull (strstr (err, "need multi-line-mode(regexp)"));
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/file/follow", test_follow);
  SL_TEST_ADD ("/file/resume-after-restart", test_resume_after_restart);
  SL_TEST_ADD ("/file/resume-from-version-1", test_resume_from_version_1);
  SL_TEST_ADD ("/file/kill-after-first-batch", test_kill_after_first_batch);
  SL_TEST_ADD ("/file/persist-name", test_persist_name);
  SL_TEST_ADD ("/file/rotation", test_rotation);
  SL_TEST_ADD ("/file/replaced-by-shorter", test_replaced_by_shorter);
  SL_TEST_ADD ("/file/truncation", test_truncation_in_place);
  SL_TEST_ADD ("/file/truncation-read-on", test_truncation_read_on);
  SL_TEST_ADD ("/file/appears-later", test_file_appears_later);
  SL_TEST_ADD ("/file/position-follows-delivery", test_position_follows_delivery);
  SL_TEST_ADD ("/wildcard-file/folder", test_wildcard);
  SL_TEST_ADD ("/file/file-name", test_file_name);
  SL_TEST_ADD ("/file/multi-line-indented", test_multi_line_indented);
  SL_TEST_ADD ("/file/multi-line-prefix-suffix", test_multi_line_prefix_suffix);
  SL_TEST_ADD ("/file/multi-line-smart", test_multi_line_smart);
  SL_TEST_ADD ("/file/multi-line-errors", test_multi_line_errors);
  SL_TEST_ADD ("/pipe/writers", test_pipe);
  SL_TEST_ADD ("/pipe/path-taken", test_pipe_path_taken);
  SL_TEST_ADD ("/stdin/until-eof", test_stdin);
  return g_test_run ();
}
