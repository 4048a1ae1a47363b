/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SL_CAP_ANSWERS through the real writer thread: a driver whose peer
 * answers a few messages per call, later than it sent them, and whose
 * session breaks once in the middle. What the core settles must be every
 * message once, in the order it was queued, and only once answered; what
 * the break left unanswered must be sent again, from the oldest on. */
#include "core/route/destination-private.h"
#include "core/plugin/plugin.h"
#include "core/stats.h"

#include <string.h>

#define COUNT 500
#define BREAK_AT 120      /* the session breaks once this many were sent */
#define ANSWERS_PER_CALL 7

typedef struct
{
  SlDriver super;
  GMutex lock;
  GArray *sent;           /* every message's number, as sent (again) */
  GArray *flying;         /* the numbers sent and not answered, oldest first */
  GArray *answered;       /* the numbers reported answered, in order */
  gboolean broke;
  guint sent_at_break;
  guint oldest_at_break;  /* the oldest number not answered then */
  guint max_flying;
} Answerer;

static guint
number_of (const SlMessage *msg)
{
  return (guint) g_ascii_strtoull (msg->raw, NULL, 10);
}

static SlWriteResult
answerer_write (SlDriver *d, SlWriteBatch *batch)
{
  Answerer *self = (Answerer *) d;
  g_mutex_lock (&self->lock);
  for (; batch->done < batch->n; batch->done++)
    {
      guint k = number_of (batch->msgs[batch->done]);
      g_array_append_val (self->sent, k);
      g_array_append_val (self->flying, k);
    }
  self->max_flying = MAX (self->max_flying, self->flying->len);
  if (!self->broke && self->sent->len >= BREAK_AT)
    {
      self->broke = TRUE;
      self->sent_at_break = self->sent->len;
      self->oldest_at_break = g_array_index (self->flying, guint, 0);
      g_array_set_size (self->flying, 0);
      g_mutex_unlock (&self->lock);
      return sl_write_batch_fail (batch, SL_WRITE_NOT_CONNECTED, 0, "the test's peer went away");
    }
  guint answer = MIN (self->flying->len, ANSWERS_PER_CALL);
  g_array_append_vals (self->answered, self->flying->data, answer);
  g_array_remove_range (self->flying, 0, answer);
  batch->answered = answer;
  g_mutex_unlock (&self->lock);
  return SL_WRITE_OK;
}

static const SlDestinationOps answerer_ops = {
  .write = answerer_write,
};

static const SlDriverClass answerer_class = {
  .kind = SL_DRIVER_DESTINATION,
  .name = "test-answerer",
  .capabilities = SL_CAP_ANSWERS,
  .instance_size = sizeof (Answerer),
  .ops.destination = &answerer_ops,
};

static gboolean
all_written (SlCounter *written)
{
  gint64 end = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  while (sl_counter_get (written) < COUNT && g_get_monotonic_time () < end)
    g_usleep (1000);
  return sl_counter_get (written) == COUNT;
}

static void
test_answers_settle_in_order_and_resend_after_a_break (void)
{
  Answerer *a = g_new0 (Answerer, 1);
  a->super.klass = &answerer_class;
  a->super.id = (gchar *) "d_answers#0";
  g_mutex_init (&a->lock);
  a->sent = g_array_new (FALSE, FALSE, sizeof (guint));
  a->flying = g_array_new (FALSE, FALSE, sizeof (guint));
  a->answered = g_array_new (FALSE, FALSE, sizeof (guint));
  GPtrArray *drivers = g_ptr_array_new ();
  g_ptr_array_add (drivers, a);
  SlDestinationOptions options = {
    .fifo_size = COUNT, .flush_lines = 50, .time_reopen_ms = 1, .mark_mode = SL_MARK_NONE, .max_in_flight = 64,
  };
  SlDestination *d = sl_destination_new (drivers, &options);
  for (guint i = 1; i <= COUNT; i++)
    {
      gchar text[16];
      gint len = g_snprintf (text, sizeof text, "%u", i);
      SlQueueItem item = { sl_message_new (text, (gsize) len), FALSE, FALSE };
      sl_destination_push (d, &item, 1);
    }
  SlCounter *written = sl_stats_counter ("destination", "d_answers#0", "test-answerer", "written");
  GError *error = NULL;
  g_assert_true (sl_destination_start (d, &error));
  g_assert_no_error (error);
  g_assert_true (all_written (written));
  sl_destination_free (d);

  /* each message answered once, in the order it was queued */
  g_assert_cmpuint (a->answered->len, ==, COUNT);
  for (guint i = 0; i < COUNT; i++)
    g_assert_cmpuint (g_array_index (a->answered, guint, i), ==, i + 1);
  /* what the break left unanswered is sent again from its oldest on, and
   * otherwise every number follows the one before */
  g_assert_true (a->broke);
  g_assert_cmpuint (a->sent->len, >, COUNT);
  g_assert_cmpuint (g_array_index (a->sent, guint, a->sent_at_break), ==, a->oldest_at_break);
  for (guint i = 1; i < a->sent->len; i++)
    if (i != a->sent_at_break)
      g_assert_cmpuint (g_array_index (a->sent, guint, i), ==, g_array_index (a->sent, guint, i - 1) + 1);
  g_assert_cmpuint (a->max_flying, <=, 64);
  g_assert_cmpint (sl_counter_get (written), ==, COUNT);
  g_array_unref (a->sent);
  g_array_unref (a->flying);
  g_array_unref (a->answered);
  g_mutex_clear (&a->lock);
  g_free (a);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/destination/answers/in-order-and-resent-after-a-break",
                   test_answers_settle_in_order_and_resend_after_a_break);
  return g_test_run ();
}
