/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "core/queue.h"

static SlQueueItem
item (gboolean flow)
{
  return (SlQueueItem) { sl_message_new ("m", 1), flow };
}

static void
test_drops_only_without_flow_control (void)
{
  SlQueue *q = sl_queue_new (3);
  SlQueueItem items[6] = { item (FALSE), item (FALSE), item (FALSE), item (FALSE), item (TRUE), item (TRUE) };
  guint dropped = sl_queue_push (q, items, 6);
  g_assert_cmpuint (dropped, ==, 1);
  g_assert_cmpuint (sl_queue_length (q), ==, 5);
  SlQueueItem out[8];
  guint n = sl_queue_pop (q, out, 8, 0);
  g_assert_cmpuint (n, ==, 5);
  g_assert_false (out[0].flow_controlled);
  g_assert_true (out[3].flow_controlled);
  g_assert_true (out[4].flow_controlled);
  for (guint i = 0; i < n; i++)
    sl_message_unref (out[i].msg);
  sl_queue_free (q);
}

static void
test_order_survives_wrap_growth_and_unpop (void)
{
  SlQueue *q = sl_queue_new (1000000);
  SlQueueItem out[700];
  guint next_in = 0, next_out = 0;
  for (guint round = 0; round < 20; round++)
    {
      SlQueueItem in[600];
      for (guint i = 0; i < 600; i++)
        {
          in[i] = item (FALSE);
          in[i].msg->seqnum = next_in++;
        }
      sl_queue_push (q, in, 600);
      guint n = sl_queue_pop (q, out, 500, 0);
      /* put the last 100 back, as a destination does after a failed write */
      sl_queue_unpop (q, out + 400, 100);
      for (guint i = 0; i < n - 100; i++)
        {
          g_assert_cmpuint (out[i].msg->seqnum, ==, next_out++);
          sl_message_unref (out[i].msg);
        }
    }
  guint n;
  while ((n = sl_queue_pop (q, out, 700, 0)))
    for (guint i = 0; i < n; i++)
      {
        g_assert_cmpuint (out[i].msg->seqnum, ==, next_out++);
        sl_message_unref (out[i].msg);
      }
  g_assert_cmpuint (next_out, ==, next_in);
  sl_queue_free (q);
}

static gpointer
close_later (gpointer q)
{
  g_usleep (20000);
  sl_queue_close (q);
  return NULL;
}

static void
test_close_wakes_consumer (void)
{
  SlQueue *q = sl_queue_new (10);
  GThread *t = g_thread_new ("close", close_later, q);
  SlQueueItem out[1];
  g_assert_cmpuint (sl_queue_pop (q, out, 1, -1), ==, 0);
  g_assert_true (sl_queue_is_closed (q));
  g_thread_join (t);
  sl_queue_free (q);
}

static void
test_deadline_returns_empty (void)
{
  SlQueue *q = sl_queue_new (10);
  SlQueueItem out[1];
  g_assert_cmpuint (sl_queue_pop (q, out, 1, g_get_monotonic_time () + 1000), ==, 0);
  g_assert_false (sl_queue_is_closed (q));
  sl_queue_free (q);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/queue/drops-only-without-flow-control", test_drops_only_without_flow_control);
  g_test_add_func ("/queue/order", test_order_survives_wrap_growth_and_unpop);
  g_test_add_func ("/queue/close-wakes-consumer", test_close_wakes_consumer);
  g_test_add_func ("/queue/deadline", test_deadline_returns_empty);
  return g_test_run ();
}
