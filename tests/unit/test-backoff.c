/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SlBackoff: waits that double from the first up to the ceiling, and
 * start again from the first once a try worked. */
#include "core/route/backoff.h"

static void
test_doubles_up_to_ceiling (void)
{
  SlBackoff b;
  sl_backoff_init (&b, 200, 1000);
  g_assert_false (sl_backoff_worked (&b));
  g_assert_cmpint (sl_backoff_failed (&b), ==, 200);
  g_assert_cmpint (sl_backoff_failed (&b), ==, 400);
  g_assert_cmpint (sl_backoff_failed (&b), ==, 800);
  g_assert_cmpint (sl_backoff_failed (&b), ==, 1000);
  g_assert_cmpint (sl_backoff_failed (&b), ==, 1000);
  g_assert_cmpuint (b.failures, ==, 5);
  g_assert_cmpint (b.failing_since, >, 0);
  g_assert_true (sl_backoff_worked (&b));
  g_assert_false (sl_backoff_worked (&b));
  g_assert_cmpint (sl_backoff_failed (&b), ==, 200);
}

static void
test_ceiling_below_first (void)
{
  SlBackoff b;
  sl_backoff_init (&b, 200, 50);
  g_assert_cmpint (sl_backoff_failed (&b), ==, 50);
  g_assert_cmpint (sl_backoff_failed (&b), ==, 50);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/backoff/doubles-up-to-ceiling", test_doubles_up_to_ceiling);
  g_test_add_func ("/backoff/ceiling-below-first", test_ceiling_below_first);
  return g_test_run ();
}
