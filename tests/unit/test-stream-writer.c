/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SlStreamWriter on real pipes: whole batches, a full pipe that cuts a
 * message, and a reader that dies with messages unread. */
#include "core/message/message.h"
#include "core/io/stream-writer.h"
#include "core/message/template.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#define COUNT 8

static SlMessage *msgs[COUNT];
static SlTemplate *line_template;

static void
make_messages (guint size)
{
  for (guint i = 0; i < COUNT; i++)
    {
      g_autofree gchar *padding = g_strnfill (size, 'x');
      gchar *text = g_strdup_printf ("message %u %s", i, padding);
      msgs[i] = sl_message_new (text, strlen (text));
      sl_message_set (msgs[i], SL_F_MESSAGE, text, -1);
      g_free (text);
    }
}

static void
free_messages (void)
{
  for (guint i = 0; i < COUNT; i++)
    sl_message_unref (msgs[i]);
}

static void
make_pipe (gint fds[2])
{
  g_assert_cmpint (pipe2 (fds, O_CLOEXEC | O_NONBLOCK), ==, 0);
}

/* Everything the pipe holds now. */
static gchar *
drain (gint fd)
{
  GString *got = g_string_new (NULL);
  gchar buf[65536];
  gssize n;
  while ((n = read (fd, buf, sizeof buf)) > 0)
    g_string_append_len (got, buf, n);
  return g_string_free (got, FALSE);
}

/* "message i" lines, first..last-1, without padding. */
static gchar *
expected_lines (guint first, guint last)
{
  GString *s = g_string_new (NULL);
  for (guint i = first; i < last; i++)
    g_string_append_printf (s, "message %u \n", i);
  return g_string_free (s, FALSE);
}

static void
test_whole_batch (void)
{
  make_messages (0);
  gint fds[2];
  make_pipe (fds);
  SlStreamWriter *w = sl_stream_writer_new (FALSE);
  gint err = 0;
  g_assert_cmpuint (sl_stream_writer_write (w, fds[1], line_template, &sl_template_env_default, msgs, COUNT, 100, &err),
                    ==, COUNT);
  g_assert_false (sl_stream_writer_pending (w));
  g_autofree gchar *got = drain (fds[0]);
  g_autofree gchar *want = expected_lines (0, COUNT);
  g_assert_cmpstr (got, ==, want);
  sl_stream_writer_free (w);
  close (fds[0]);
  close (fds[1]);
  free_messages ();
}

/* A pipe of one page takes a message and a half of 3000 bytes: the second
 * counts as written, its end waits, and the next call finishes it before
 * the messages it was given. */
static void
test_full_pipe_cuts_and_finishes (void)
{
  make_messages (3000);
  gint fds[2];
  make_pipe (fds);
  g_assert_cmpint (fcntl (fds[1], F_SETPIPE_SZ, 4096), >=, 4096);
  gint size = fcntl (fds[1], F_GETPIPE_SZ);
  SlStreamWriter *w = sl_stream_writer_new (FALSE);
  gint err = 0;
  guint done = sl_stream_writer_write (w, fds[1], line_template, &sl_template_env_default, msgs, COUNT, 50, &err);
  g_assert_cmpint (err, ==, EAGAIN);
  gsize line = strlen ("message 0 ") + 3000 + 1;
  g_assert_cmpuint (done, ==, (size + line - 1) / line);
  g_assert_true (sl_stream_writer_pending (w));

  GString *got = g_string_new (NULL);
  g_autofree gchar *first = drain (fds[0]);
  g_string_append (got, first);
  /* the rest of the batch, handed in again as the core would */
  guint total = done;
  while (total < COUNT)
    {
      err = 0;
      total += sl_stream_writer_write (w, fds[1], line_template, &sl_template_env_default, msgs + total,
                                       COUNT - total, 50, &err);
      g_autofree gchar *more = drain (fds[0]);
      g_string_append (got, more);
    }
  while (sl_stream_writer_pending (w))
    {
      sl_stream_writer_flush (w, fds[1], 50, &err);
      g_autofree gchar *more = drain (fds[0]);
      g_string_append (got, more);
    }
  g_auto (GStrv) lines = g_strsplit (got->str, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, COUNT + 1);
  for (guint i = 0; i < COUNT; i++)
    {
      g_autofree gchar *want = g_strdup_printf ("message %u ", i);
      g_assert_true (g_str_has_prefix (lines[i], want));
      g_assert_cmpuint (strlen (lines[i]), ==, line - 1);
    }
  g_string_free (got, TRUE);
  sl_stream_writer_free (w);
  close (fds[0]);
  close (fds[1]);
  free_messages ();
}

/* A reader reads three lines and dies: with keep_unread, the messages it
 * left in the pipe go to the next reader, whole. */
static void
test_reader_gone_resends_unread (void)
{
  make_messages (0);
  gint fds[2];
  make_pipe (fds);
  SlStreamWriter *w = sl_stream_writer_new (TRUE);
  gint err = 0;
  g_assert_cmpuint (sl_stream_writer_write (w, fds[1], line_template, &sl_template_env_default, msgs, COUNT, 100, &err),
                    ==, COUNT);
  g_autofree gchar *three = expected_lines (0, 3);
  gchar buf[256] = { 0 };
  /* and two bytes of the fourth: it is written again whole */
  g_assert_cmpint (read (fds[0], buf, strlen (three) + 2), ==, (gssize) strlen (three) + 2);
  close (fds[0]);
  sl_stream_writer_reader_gone (w, fds[1]);
  close (fds[1]);
  g_assert_true (sl_stream_writer_pending (w));

  make_pipe (fds);
  g_assert_true (sl_stream_writer_flush (w, fds[1], 100, &err));
  g_assert_false (sl_stream_writer_pending (w));
  g_autofree gchar *got = drain (fds[0]);
  g_autofree gchar *want = expected_lines (3, COUNT);
  g_assert_cmpstr (got, ==, want);

  /* once read, nothing is written again */
  sl_stream_writer_reader_gone (w, fds[1]);
  g_assert_false (sl_stream_writer_pending (w));
  sl_stream_writer_free (w);
  close (fds[0]);
  close (fds[1]);
  free_messages ();
}

static void
test_reader_closed (void)
{
  make_messages (0);
  gint fds[2];
  make_pipe (fds);
  close (fds[0]);
  SlStreamWriter *w = sl_stream_writer_new (FALSE);
  gint err = 0;
  g_assert_cmpuint (sl_stream_writer_write (w, fds[1], line_template, &sl_template_env_default, msgs, COUNT, 100, &err),
                    ==, 0);
  g_assert_cmpint (err, ==, EPIPE);
  g_assert_false (sl_stream_writer_pending (w));
  sl_stream_writer_free (w);
  close (fds[1]);
  free_messages ();
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  signal (SIGPIPE, SIG_IGN);
  GError *error = NULL;
  line_template = sl_template_compile ("${MESSAGE}\n", &error);
  g_assert_no_error (error);
  g_test_add_func ("/stream-writer/whole-batch", test_whole_batch);
  g_test_add_func ("/stream-writer/full-pipe", test_full_pipe_cuts_and_finishes);
  g_test_add_func ("/stream-writer/reader-gone", test_reader_gone_resends_unread);
  g_test_add_func ("/stream-writer/reader-closed", test_reader_closed);
  gint rc = g_test_run ();
  sl_template_unref (line_template);
  return rc;
}
