/* The backlog of a stream destination: only messages the peer
 * acknowledged whole are forgotten; a new connection starts with the
 * rest, and compaction keeps the offsets right. */
#include "plugins/destinations/network/network-destination.h"

static void
add_message (NetBacklog *b, const gchar *text)
{
  g_string_append (b->bytes, text);
  g_array_append_val (b->ends, b->bytes->len);
}

static const gchar *
pending (const NetBacklog *b)
{
  return b->bytes->str + b->start;
}

static void
test_partly_acknowledged_message_is_kept (void)
{
  NetBacklog b;
  net_backlog_init (&b);
  add_message (&b, "one\n");
  add_message (&b, "two\n");
  add_message (&b, "three\n");
  b.sent = b.bytes->len;

  /* the peer has all but the last 8 bytes: "one" whole, "two" in part */
  net_backlog_delivered (&b, 8);
  g_assert_cmpuint (net_backlog_messages (&b), ==, 2);
  g_assert_cmpstr (pending (&b), ==, "two\nthree\n");

  /* the connection breaks: the next one sends "two" and "three" again */
  net_backlog_rewind (&b);
  g_assert_cmpuint (b.sent, ==, b.start);
  g_assert_cmpuint (net_backlog_messages (&b), ==, 2);
  net_backlog_clear (&b);
}

/* A count above what was given to the connection (a unix socket counts
 * memory, not bytes) takes nothing as delivered. */
static void
test_count_above_sent_delivers_nothing (void)
{
  NetBacklog b;
  net_backlog_init (&b);
  add_message (&b, "one\n");
  b.sent = b.bytes->len;
  net_backlog_delivered (&b, 640);
  g_assert_cmpuint (net_backlog_messages (&b), ==, 1);
  net_backlog_delivered (&b, 0);
  g_assert_cmpuint (net_backlog_messages (&b), ==, 0);
  net_backlog_compact (&b);
  g_assert_cmpuint (b.bytes->len, ==, 0);
  g_assert_cmpuint (b.sent, ==, 0);
  net_backlog_clear (&b);
}

/* Bytes not yet given to the connection are never taken as delivered. */
static void
test_unsent_bytes_are_not_delivered (void)
{
  NetBacklog b;
  net_backlog_init (&b);
  add_message (&b, "one\n");
  add_message (&b, "two\n");
  b.sent = 6;
  net_backlog_delivered (&b, 0);
  g_assert_cmpuint (net_backlog_messages (&b), ==, 1);
  g_assert_cmpstr (pending (&b), ==, "two\n");
  net_backlog_clear (&b);
}

static void
test_compaction_keeps_offsets (void)
{
  NetBacklog b;
  net_backlog_init (&b);
  gchar *line = g_strnfill (999, 'x');
  for (guint i = 0; i < 200; i++)
    {
      gchar *message = g_strdup_printf ("%s%c", line, i < 150 ? '\n' : '!');
      add_message (&b, message);
      g_free (message);
    }
  b.sent = b.bytes->len;
  /* the first 150 messages arrived: 150,000 bytes, over half of 200,000 */
  net_backlog_delivered (&b, 50 * 1000);
  net_backlog_compact (&b);
  g_assert_cmpuint (b.start, ==, 0);
  g_assert_cmpuint (b.first, ==, 0);
  g_assert_cmpuint (b.bytes->len, ==, 50 * 1000);
  g_assert_cmpuint (b.sent, ==, 50 * 1000);
  g_assert_cmpuint (net_backlog_messages (&b), ==, 50);
  g_assert_cmpuint (g_array_index (b.ends, gsize, 0), ==, 1000);
  g_assert_cmpint (b.bytes->str[999], ==, '!');

  net_backlog_delivered (&b, 10 * 1000);
  g_assert_cmpuint (net_backlog_messages (&b), ==, 10);
  g_free (line);
  net_backlog_clear (&b);
}

gint
main (gint argc, gchar **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/network/backlog/partly-acknowledged-message-is-kept", test_partly_acknowledged_message_is_kept);
  g_test_add_func ("/network/backlog/count-above-sent-delivers-nothing", test_count_above_sent_delivers_nothing);
  g_test_add_func ("/network/backlog/unsent-bytes-are-not-delivered", test_unsent_bytes_are_not_delivered);
  g_test_add_func ("/network/backlog/compaction-keeps-offsets", test_compaction_keeps_offsets);
  return g_test_run ();
}
