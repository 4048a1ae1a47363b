/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "core/route/queue.h"
#include "core/message/window.h"

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

/* A message bound to w and held by a queue under the default, lapsing
 * hold, as routing makes it. */
static SlQueueItem
lapsing_item (SlWindow *w, guint seq)
{
  SlMessage *msg = sl_message_new ("m", 1);
  msg->seqnum = seq;
  sl_message_bind_window (msg, w);
  g_assert_true (sl_message_ack_hold (msg));
  /* the reader's own hold ends once routing is done */
  sl_message_ack (msg);
  return (SlQueueItem) { msg, TRUE, TRUE };
}

static void
test_lapsing_holds_until_stalled (void)
{
  SlWindow *w = sl_window_new (100);
  SlQueue *q = sl_queue_new (3);
  SlQueueItem items[5];
  for (guint i = 0; i < 5; i++)
    items[i] = lapsing_item (w, i);
  /* past log-fifo-size(), held and kept: the window bounds them */
  g_assert_cmpuint (sl_queue_push (q, items, 5), ==, 0);
  g_assert_cmpuint (sl_queue_length (q), ==, 5);
  g_assert_cmpuint (sl_window_in_flight (w), ==, 5);

  /* the stall lets go of every hold and drops the newest past the capacity */
  g_assert_cmpuint (sl_queue_stall (q), ==, 2);
  g_assert_cmpuint (sl_window_in_flight (w), ==, 0);
  g_assert_cmpuint (sl_queue_length (q), ==, 3);

  /* while stalled, what comes holds nothing and is dropped at the capacity */
  SlQueueItem late = lapsing_item (w, 5);
  g_assert_cmpuint (sl_window_in_flight (w), ==, 1);
  g_assert_cmpuint (sl_queue_push (q, &late, 1), ==, 1);
  g_assert_cmpuint (sl_window_in_flight (w), ==, 0);

  SlQueueItem out[8];
  guint n = sl_queue_pop (q, out, 8, 0);
  g_assert_cmpuint (n, ==, 3);
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpuint (out[i].msg->seqnum, ==, i);
      g_assert_false (out[i].flow_controlled);
      sl_message_unref (out[i].msg);
    }

  /* once it writes again, holds are kept past the capacity again */
  sl_queue_unstall (q);
  for (guint i = 0; i < 5; i++)
    items[i] = lapsing_item (w, 10 + i);
  g_assert_cmpuint (sl_queue_push (q, items, 5), ==, 0);
  g_assert_cmpuint (sl_window_in_flight (w), ==, 5);
  n = sl_queue_pop (q, out, 8, 0);
  sl_queue_items_lapse (out, n);
  g_assert_cmpuint (sl_window_in_flight (w), ==, 0);
  for (guint i = 0; i < n; i++)
    sl_message_unref (out[i].msg);
  sl_queue_free (q);
  sl_window_unref (w);
}

/* A stall keeps what flags(flow-control) holds, whatever the capacity. */
static void
test_stall_keeps_flow_controlled (void)
{
  SlQueue *q = sl_queue_new (1);
  SlQueueItem items[3] = { item (TRUE), item (TRUE), item (FALSE) };
  g_assert_cmpuint (sl_queue_push (q, items, 3), ==, 1);
  g_assert_cmpuint (sl_queue_stall (q), ==, 0);
  g_assert_cmpuint (sl_queue_length (q), ==, 2);
  SlQueueItem out[4];
  guint n = sl_queue_pop (q, out, 4, 0);
  for (guint i = 0; i < n; i++)
    {
      g_assert_true (out[i].flow_controlled);
      sl_message_unref (out[i].msg);
    }
  sl_queue_free (q);
}

/* Past discard-mark(), what is of discard-level() or below goes, held or
 * not, its hold let go of; what is more important stays. */
static void
test_discard_mark (void)
{
  SlWindow *w = sl_window_new (100);
  SlQueue *q = sl_queue_new (100);
  sl_queue_set_discard (q, 2, 6);
  const guint8 levels[] = { 7, 6, 7, 3, 6, 2, 7 };
  SlQueueItem items[G_N_ELEMENTS (levels)];
  for (guint i = 0; i < G_N_ELEMENTS (levels); i++)
    {
      items[i] = lapsing_item (w, i);
      items[i].lapsing = i % 2;
      items[i].msg->pri = SL_PRI_MAKE (1, levels[i]);
    }
  g_assert_cmpuint (sl_queue_push (q, items, G_N_ELEMENTS (levels)), ==, 3);
  g_assert_cmpuint (sl_window_in_flight (w), ==, 4);
  SlQueueItem out[8];
  guint n = sl_queue_pop (q, out, 8, 0);
  const guint64 kept[] = { 0, 1, 3, 5 };
  g_assert_cmpuint (n, ==, G_N_ELEMENTS (kept));
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpuint (out[i].msg->seqnum, ==, kept[i]);
      sl_message_ack (out[i].msg);
      sl_message_unref (out[i].msg);
    }
  g_assert_cmpuint (sl_window_in_flight (w), ==, 0);
  sl_queue_free (q);
  sl_window_unref (w);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/queue/drops-only-without-flow-control", test_drops_only_without_flow_control);
  g_test_add_func ("/queue/order", test_order_survives_wrap_growth_and_unpop);
  g_test_add_func ("/queue/close-wakes-consumer", test_close_wakes_consumer);
  g_test_add_func ("/queue/deadline", test_deadline_returns_empty);
  g_test_add_func ("/queue/lapsing-holds-until-stalled", test_lapsing_holds_until_stalled);
  g_test_add_func ("/queue/stall-keeps-flow-controlled", test_stall_keeps_flow_controlled);
  g_test_add_func ("/queue/discard-mark", test_discard_mark);
  return g_test_run ();
}
