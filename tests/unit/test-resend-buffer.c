/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SlResendBuffer: only messages the peer has whole are forgotten; a new
 * peer starts with the rest, compaction keeps the offsets right, and a
 * write that stopped short takes back what was not written. */
#include "core/io/resend-buffer.h"

static void
add_message (SlResendBuffer *b, const gchar *text)
{
  g_string_append (b->bytes, text);
  sl_resend_buffer_end_message (b);
}

static const gchar *
pending (const SlResendBuffer *b)
{
  return b->bytes->str + b->start;
}

static void
test_partly_acknowledged_message_is_kept (void)
{
  SlResendBuffer b;
  sl_resend_buffer_init (&b);
  add_message (&b, "one\n");
  add_message (&b, "two\n");
  add_message (&b, "three\n");
  b.sent = b.bytes->len;

  /* the peer has all but the last 8 bytes: "one" whole, "two" in part */
  sl_resend_buffer_delivered (&b, 8);
  g_assert_cmpuint (sl_resend_buffer_messages (&b), ==, 2);
  g_assert_cmpstr (pending (&b), ==, "two\nthree\n");

  /* the connection breaks: the next one sends "two" and "three" again */
  sl_resend_buffer_rewind (&b);
  g_assert_cmpuint (b.sent, ==, b.start);
  g_assert_cmpuint (sl_resend_buffer_messages (&b), ==, 2);
  sl_resend_buffer_clear (&b);
}

/* A count above what was given to the connection (a unix socket counts
 * memory, not bytes) takes nothing as delivered. */
static void
test_count_above_sent_delivers_nothing (void)
{
  SlResendBuffer b;
  sl_resend_buffer_init (&b);
  add_message (&b, "one\n");
  b.sent = b.bytes->len;
  sl_resend_buffer_delivered (&b, 640);
  g_assert_cmpuint (sl_resend_buffer_messages (&b), ==, 1);
  sl_resend_buffer_delivered (&b, 0);
  g_assert_cmpuint (sl_resend_buffer_messages (&b), ==, 0);
  sl_resend_buffer_compact (&b);
  g_assert_cmpuint (b.bytes->len, ==, 0);
  g_assert_cmpuint (b.sent, ==, 0);
  sl_resend_buffer_clear (&b);
}

/* Bytes not yet given to the connection are never taken as delivered. */
static void
test_unsent_bytes_are_not_delivered (void)
{
  SlResendBuffer b;
  sl_resend_buffer_init (&b);
  add_message (&b, "one\n");
  add_message (&b, "two\n");
  b.sent = 6;
  sl_resend_buffer_delivered (&b, 0);
  g_assert_cmpuint (sl_resend_buffer_messages (&b), ==, 1);
  g_assert_cmpstr (pending (&b), ==, "two\n");
  sl_resend_buffer_clear (&b);
}

static void
test_compaction_keeps_offsets (void)
{
  SlResendBuffer b;
  sl_resend_buffer_init (&b);
  gchar *line = g_strnfill (999, 'x');
  for (guint i = 0; i < 200; i++)
    {
      gchar *message = g_strdup_printf ("%s%c", line, i < 150 ? '\n' : '!');
      add_message (&b, message);
      g_free (message);
    }
  b.sent = b.bytes->len;
  /* the first 150 messages arrived: 150,000 bytes, over half of 200,000 */
  sl_resend_buffer_delivered (&b, 50 * 1000);
  sl_resend_buffer_compact (&b);
  g_assert_cmpuint (b.start, ==, 0);
  g_assert_cmpuint (b.first, ==, 0);
  g_assert_cmpuint (b.bytes->len, ==, 50 * 1000);
  g_assert_cmpuint (b.sent, ==, 50 * 1000);
  g_assert_cmpuint (sl_resend_buffer_messages (&b), ==, 50);
  g_assert_cmpuint (g_array_index (b.ends, gsize, 0), ==, 1000);
  g_assert_cmpint (b.bytes->str[999], ==, '!');

  sl_resend_buffer_delivered (&b, 10 * 1000);
  g_assert_cmpuint (sl_resend_buffer_messages (&b), ==, 10);
  g_free (line);
  sl_resend_buffer_clear (&b);
}

/* A write stopped inside the second message of a batch: without keep_cut
 * only the first stays (the next peer starts from a rewind); with it the
 * cut one stays too, to be finished. Messages before the batch stay
 * either way, written or not. */
static void
test_take_back (void)
{
  for (gint keep_cut = 0; keep_cut < 2; keep_cut++)
    {
      SlResendBuffer b;
      sl_resend_buffer_init (&b);
      add_message (&b, "old\n");
      guint mark = sl_resend_buffer_mark (&b);
      add_message (&b, "one\n");
      add_message (&b, "two\n");
      add_message (&b, "three\n");
      b.sent = 10;
      guint kept = sl_resend_buffer_take_back (&b, mark, keep_cut);
      g_assert_cmpuint (kept, ==, keep_cut ? 2 : 1);
      g_assert_cmpuint (sl_resend_buffer_messages (&b), ==, kept + 1);
      g_assert_cmpstr (b.bytes->str, ==, keep_cut ? "old\none\ntwo\n" : "old\none\n");
      g_assert_cmpuint (b.sent, <=, b.bytes->len);
      g_assert_cmpint (sl_resend_buffer_unsent (&b), ==, keep_cut);

      /* nothing of the batch written: the message before it stays */
      mark = sl_resend_buffer_mark (&b);
      add_message (&b, "four\n");
      sl_resend_buffer_rewind (&b);
      g_assert_cmpuint (sl_resend_buffer_take_back (&b, mark, keep_cut), ==, 0);
      g_assert_cmpuint (sl_resend_buffer_messages (&b), ==, kept + 1);
      sl_resend_buffer_clear (&b);
    }
}

gint
main (gint argc, gchar **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/resend-buffer/partly-acknowledged-message-is-kept", test_partly_acknowledged_message_is_kept);
  g_test_add_func ("/resend-buffer/count-above-sent-delivers-nothing", test_count_above_sent_delivers_nothing);
  g_test_add_func ("/resend-buffer/unsent-bytes-are-not-delivered", test_unsent_bytes_are_not_delivered);
  g_test_add_func ("/resend-buffer/compaction-keeps-offsets", test_compaction_keeps_offsets);
  g_test_add_func ("/resend-buffer/take-back", test_take_back);
  return g_test_run ();
}
