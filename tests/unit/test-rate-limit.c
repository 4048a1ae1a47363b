/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "core/route/rate-limit.h"

static const SlRateLimitSpec five_per_ten = { 10, 5, 1 };

/* n messages of sender at now, severity info: how many passed */
static guint
send_n (SlRateLimit *limit, gint64 sender, guint n, gint64 now, guint64 *lost)
{
  guint passed = 0;
  *lost = 0;
  for (guint i = 0; i < n; i++)
    {
      guint64 told;
      passed += sl_rate_limit_check (limit, sender, 6, now, &told) == SL_RATE_LIMIT_PASSED;
      *lost += told;
    }
  return passed;
}

static void
test_off (void)
{
  SlRateLimitSpec off = { 0, 5, 1 };
  g_assert_null (sl_rate_limit_new (&off));
}

static void
test_burst_then_drop (void)
{
  SlRateLimit *limit = sl_rate_limit_new (&five_per_ten);
  guint64 lost;
  g_assert_cmpuint (send_n (limit, 100, 5, 1000, &lost), ==, 5);
  g_assert_cmpint (sl_rate_limit_check (limit, 100, 6, 1000, &lost), ==, SL_RATE_LIMIT_BEGIN_DROPPING);
  g_assert_cmpint (sl_rate_limit_check (limit, 100, 6, 1001, &lost), ==, SL_RATE_LIMIT_DROPPED);
  /* each sender has a window of its own */
  g_assert_cmpuint (send_n (limit, 200, 7, 1001, &lost), ==, 5);
  sl_rate_limit_free (limit);
}

/* interval seconds after the window opened is still in it; the message
 * after that ends it, tells what it lost, and counts in the next one */
static void
test_window_ends (void)
{
  SlRateLimit *limit = sl_rate_limit_new (&five_per_ten);
  guint64 lost;
  g_assert_cmpuint (send_n (limit, 1, 8, 1000, &lost), ==, 5);
  g_assert_cmpuint (send_n (limit, 1, 1, 1010, &lost), ==, 0);
  g_assert_cmpuint (lost, ==, 0);
  g_assert_cmpuint (send_n (limit, 1, 1, 1011, &lost), ==, 1);
  g_assert_cmpuint (lost, ==, 4);
  g_assert_cmpuint (send_n (limit, 1, 6, 1011, &lost), ==, 4);
  g_assert_cmpuint (lost, ==, 0);
  sl_rate_limit_free (limit);
}

/* rsyslogd opens the next window at the message after the one that ended
 * the last, so that window runs from its second message's time */
static void
test_next_window_opens_late (void)
{
  SlRateLimit *limit = sl_rate_limit_new (&five_per_ten);
  guint64 lost;
  g_assert_cmpuint (send_n (limit, 1, 1, 1000, &lost), ==, 1);
  g_assert_cmpuint (send_n (limit, 1, 1, 1011, &lost), ==, 1);
  g_assert_cmpuint (send_n (limit, 1, 1, 1015, &lost), ==, 1);
  /* 1015 + 10 is still the window 1015 opened */
  g_assert_cmpuint (send_n (limit, 1, 5, 1025, &lost), ==, 3);
  sl_rate_limit_free (limit);
}

static void
test_clock_back (void)
{
  SlRateLimit *limit = sl_rate_limit_new (&five_per_ten);
  guint64 lost;
  g_assert_cmpuint (send_n (limit, 1, 6, 1000, &lost), ==, 5);
  g_assert_cmpuint (send_n (limit, 1, 1, 990, &lost), ==, 1);
  g_assert_cmpuint (lost, ==, 1);
  sl_rate_limit_free (limit);
}

/* severities below the limit's pass and are not counted */
static void
test_severity (void)
{
  SlRateLimitSpec spec = { 10, 2, 3 };
  SlRateLimit *limit = sl_rate_limit_new (&spec);
  guint64 lost;
  for (guint i = 0; i < 10; i++)
    g_assert_cmpint (sl_rate_limit_check (limit, 1, 2, 1000, &lost), ==, SL_RATE_LIMIT_PASSED);
  g_assert_cmpint (sl_rate_limit_check (limit, 1, 3, 1000, &lost), ==, SL_RATE_LIMIT_PASSED);
  g_assert_cmpint (sl_rate_limit_check (limit, 1, 7, 1000, &lost), ==, SL_RATE_LIMIT_PASSED);
  g_assert_cmpint (sl_rate_limit_check (limit, 1, 4, 1000, &lost), ==, SL_RATE_LIMIT_BEGIN_DROPPING);
  g_assert_cmpint (sl_rate_limit_check (limit, 1, 0, 1000, &lost), ==, SL_RATE_LIMIT_PASSED);
  sl_rate_limit_free (limit);
}

/* many senders that come and go do not keep every window, but one with
 * drops to tell keeps its count */
static void
test_many_senders (void)
{
  SlRateLimit *limit = sl_rate_limit_new (&five_per_ten);
  guint64 lost;
  g_assert_cmpuint (send_n (limit, 1, 7, 1000, &lost), ==, 5);
  for (gint64 pid = 2; pid < 20000; pid++)
    g_assert_cmpuint (send_n (limit, pid, 1, 1000 + pid / 100, &lost), ==, 1);
  g_assert_cmpuint (send_n (limit, 1, 1, 1300, &lost), ==, 1);
  g_assert_cmpuint (lost, ==, 2);
  sl_rate_limit_free (limit);
}

#define SHARING_THREADS 4
#define SHARED_BURST 1000

typedef struct
{
  SlRateLimit *limit;
  guint passed;
} Sharer;

static gpointer
share (gpointer data)
{
  Sharer *s = data;
  guint64 lost;
  s->passed = send_n (s->limit, 0, SHARED_BURST, 1000, &lost);
  return NULL;
}

/* the connections of a TCP listener check one window from their own
 * threads: together they pass the burst, not one more */
static void
test_shared_by_threads (void)
{
  SlRateLimitSpec spec = { 10, SHARED_BURST, 0 };
  Sharer sharers[SHARING_THREADS];
  GThread *threads[SHARING_THREADS];
  SlRateLimit *limit = sl_rate_limit_new (&spec);
  guint passed = 0;
  for (guint i = 0; i < SHARING_THREADS; i++)
    {
      sharers[i] = (Sharer) { limit, 0 };
      threads[i] = g_thread_new ("sharer", share, &sharers[i]);
    }
  for (guint i = 0; i < SHARING_THREADS; i++)
    {
      g_thread_join (threads[i]);
      passed += sharers[i].passed;
    }
  g_assert_cmpuint (passed, ==, SHARED_BURST);
  sl_rate_limit_free (limit);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/rate-limit/off", test_off);
  g_test_add_func ("/rate-limit/burst-then-drop", test_burst_then_drop);
  g_test_add_func ("/rate-limit/window-ends", test_window_ends);
  g_test_add_func ("/rate-limit/next-window-opens-late", test_next_window_opens_late);
  g_test_add_func ("/rate-limit/clock-back", test_clock_back);
  g_test_add_func ("/rate-limit/severity", test_severity);
  g_test_add_func ("/rate-limit/many-senders", test_many_senders);
  g_test_add_func ("/rate-limit/shared-by-threads", test_shared_by_threads);
  return g_test_run ();
}
