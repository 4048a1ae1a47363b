/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "core/message/mark.h"
#include "core/route/mark-timer.h"

#define SEC ((gint64) G_USEC_PER_SEC)

static SlQueueItem
plain (guint8 flags)
{
  SlMessage *msg = sl_message_new ("m", 1);
  msg->flags |= flags;
  return (SlQueueItem) { msg, FALSE, FALSE };
}

static SlQueueItem
internal_mark (void)
{
  SlMessage *msg = sl_mark_message_new (SL_MARK_TEXT);
  msg->flags |= SL_MSG_MARK;
  return (SlQueueItem) { msg, FALSE, FALSE };
}

static void
release (const SlQueueItem *items, guint n)
{
  for (guint i = 0; i < n; i++)
    sl_message_unref (items[i].msg);
}

static void
test_message_is_syslog_ngs_mark (void)
{
  SlMessage *msg = sl_mark_message_new (SL_MARK_TEXT);
  gsize len;
  g_assert_cmpstr (sl_message_get (msg, SL_F_MESSAGE, &len), ==, "-- MARK --");
  g_assert_cmpint (msg->pri, ==, 46);
  g_assert_true (msg->flags & SL_MSG_LOCAL);
  g_assert_false (msg->flags & SL_MSG_MARK);
  const gchar *program = sl_message_get (msg, SL_F_PROGRAM, &len);
  g_assert_true (!program || !len);
  const gchar *host = sl_message_get (msg, SL_F_HOST, &len);
  g_assert_true (host && len);
  g_assert_cmpint (msg->stamp.usec, >, 0);
  sl_message_unref (msg);
}

/* Only mark-mode(internal) keeps internal()'s MARKs; the rest stay in order. */
static void
test_internal_marks_dropped_unless_internal (void)
{
  static const SlMarkMode modes[] = { SL_MARK_NONE, SL_MARK_DST_IDLE, SL_MARK_HOST_IDLE, SL_MARK_PERIODICAL,
                                      SL_MARK_INTERNAL };
  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    {
      SlMarkTimer t;
      sl_mark_timer_init (&t, modes[m], 2, g_get_monotonic_time ());
      SlQueueItem items[4] = { plain (0), internal_mark (), plain (SL_MSG_LOCAL), internal_mark () };
      SlMessage *first = items[0].msg, *third = items[2].msg, *mark = items[1].msg;
      sl_message_ref (mark);
      guint n = 4;
      g_autofree SlQueueItem *copy = NULL;
      const SlQueueItem *kept = sl_mark_timer_pass (&t, items, &n, &copy);
      if (modes[m] == SL_MARK_INTERNAL)
        {
          g_assert_true (kept == items);
          g_assert_cmpuint (n, ==, 4);
          g_assert_cmpint (mark->ref_count, ==, 2);
        }
      else
        {
          g_assert_cmpuint (n, ==, 2);
          g_assert_true (kept[0].msg == first);
          g_assert_true (kept[1].msg == third);
          /* the dropped ones were let go */
          g_assert_cmpint (mark->ref_count, ==, 1);
        }
      release (kept, n);
      sl_message_unref (mark);
    }
}

/* dst-idle: any message puts the MARK off; host-idle: only one the daemon
 * did not make; the others never. */
static void
test_idle_modes_postpone (void)
{
  struct { SlMarkMode mode; guint8 flags; gboolean armed; } cases[] = {
    { SL_MARK_DST_IDLE, 0, TRUE },
    { SL_MARK_DST_IDLE, SL_MSG_LOCAL, TRUE },
    { SL_MARK_HOST_IDLE, 0, TRUE },
    { SL_MARK_HOST_IDLE, SL_MSG_LOCAL, FALSE },
    { SL_MARK_INTERNAL, 0, FALSE },
    { SL_MARK_NONE, 0, FALSE },
  };
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      SlMarkTimer t;
      gint64 before = g_get_monotonic_time ();
      sl_mark_timer_init (&t, cases[c].mode, 2, before);
      g_assert_cmpint (t.due, ==, 0);
      SlQueueItem items[1] = { plain (cases[c].flags) };
      guint n = 1;
      g_autofree SlQueueItem *copy = NULL;
      sl_mark_timer_pass (&t, items, &n, &copy);
      release (items, 1);
      if (!cases[c].armed)
        {
          g_assert_cmpint (t.due, ==, 0);
          g_assert_false (sl_mark_timer_due (&t, before + 100 * SEC));
          continue;
        }
      g_assert_cmpint (t.due, >=, before + 2 * SEC);
      g_assert_false (sl_mark_timer_due (&t, t.due - 1));
      gint64 due = t.due;
      g_assert_true (sl_mark_timer_due (&t, due));
      /* once per period: the next one mark-freq() later */
      g_assert_false (sl_mark_timer_due (&t, due));
      g_assert_cmpint (t.due, ==, due + 2 * SEC);
    }
}

/* periodical: armed from the start, one per period however late the
 * check, and a check far behind starts again from then. */
static void
test_periodical (void)
{
  SlMarkTimer t;
  sl_mark_timer_init (&t, SL_MARK_PERIODICAL, 3, 1000 * SEC);
  g_assert_false (sl_mark_timer_due (&t, 1002 * SEC));
  g_assert_true (sl_mark_timer_due (&t, 1003 * SEC + SEC / 2));
  g_assert_false (sl_mark_timer_due (&t, 1005 * SEC));
  g_assert_true (sl_mark_timer_due (&t, 1006 * SEC));
  g_assert_true (sl_mark_timer_due (&t, 1100 * SEC));
  g_assert_false (sl_mark_timer_due (&t, 1102 * SEC));
  g_assert_true (sl_mark_timer_due (&t, 1103 * SEC));
}

/* mark-freq(0): no MARK of its own in any mode */
static void
test_freq_zero (void)
{
  SlMarkTimer t;
  sl_mark_timer_init (&t, SL_MARK_PERIODICAL, 0, 1000 * SEC);
  g_assert_false (sl_mark_timer_due (&t, 5000 * SEC));
  sl_mark_timer_init (&t, SL_MARK_DST_IDLE, 0, 1000 * SEC);
  SlQueueItem items[1] = { plain (0) };
  guint n = 1;
  g_autofree SlQueueItem *copy = NULL;
  sl_mark_timer_pass (&t, items, &n, &copy);
  release (items, 1);
  g_assert_false (sl_mark_timer_due (&t, g_get_monotonic_time () + 5000 * SEC));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/mark/message", test_message_is_syslog_ngs_mark);
  g_test_add_func ("/mark/internal-marks-dropped", test_internal_marks_dropped_unless_internal);
  g_test_add_func ("/mark/idle-modes-postpone", test_idle_modes_postpone);
  g_test_add_func ("/mark/periodical", test_periodical);
  g_test_add_func ("/mark/freq-zero", test_freq_zero);
  return g_test_run ();
}
