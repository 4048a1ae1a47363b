/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The budgets refill with time, so these tests measure how long they ran
 * and allow what that time could have refilled: on a fast machine the
 * bounds are exact, on a slow one they widen instead of failing. */
#include "tests/unit/plugin-fixture.h"
#include "core/compile/loader.h"
#include "core/stats.h"

#include <string.h>

extern const SlModule sl_module;

static SlTestDriver
rate_limit (const gchar *text)
{
  SlTestDriver t;
  GError *error = NULL;
  g_assert_true (sl_test_driver_new (&t, SL_DRIVER_FILTER, NULL, text, &error));
  g_assert_no_error (error);
  return t;
}

static gboolean
passes (SlTestDriver *t, SlMessage *msg)
{
  return t->driver->klass->ops.filter->match (t->driver, msg);
}

/* How many more messages a budget of rate a second may let through over
 * the time since start. */
static guint
refilled_since (gint64 start_us, guint rate)
{
  gint64 elapsed = g_get_monotonic_time () - start_us;
  return (guint) (elapsed * rate / G_USEC_PER_SEC) + 1;
}

static void
test_one_budget (void)
{
  SlTestDriver t = rate_limit ("rate-limit(rate(10))");
  SlMessage *msg = sl_test_message_new ("HOST", "a", NULL);
  gint64 start = g_get_monotonic_time ();
  guint passed = 0;
  for (guint i = 0; i < 1000; i++)
    passed += passes (&t, msg);
  guint slack = refilled_since (start, 10);
  g_assert_cmpuint (passed, >=, 10);
  g_assert_cmpuint (passed, <=, 10 + slack);
  sl_message_unref (msg);
  sl_test_driver_free (&t);
}

/* rate(1) period(60): the first message, then none for a minute (what
 * rsyslog's action.execOnlyOnceEveryInterval="60" runs). */
static void
test_once_a_period (void)
{
  SlTestDriver t = rate_limit ("rate-limit(rate(1) period(60))");
  SlMessage *msg = sl_test_message_new ("HOST", "a", NULL);
  g_assert_true (passes (&t, msg));
  for (guint i = 0; i < 1000; i++)
    g_assert_false (passes (&t, msg));
  sl_message_unref (msg);
  sl_test_driver_free (&t);
}

static void
test_budget_per_key (void)
{
  SlTestDriver t = rate_limit ("throttle(template(\"$HOST\") rate(3))");
  SlMessage *a = sl_test_message_new ("HOST", "a", NULL);
  SlMessage *b = sl_test_message_new ("HOST", "b", NULL);
  SlMessage *none = sl_message_new ("", 0);
  gint64 start = g_get_monotonic_time ();
  guint passed_a = 0, passed_b = 0, passed_none = 0;
  for (guint i = 0; i < 100; i++)
    {
      passed_a += passes (&t, a);
      passed_b += passes (&t, b);
      passed_none += passes (&t, none);
    }
  guint slack = refilled_since (start, 3);
  g_assert_cmpuint (passed_a, >=, 3);
  g_assert_cmpuint (passed_a, <=, 3 + slack);
  g_assert_cmpuint (passed_b, >=, 3);
  g_assert_cmpuint (passed_b, <=, 3 + slack);
  /* an empty value is a key like any other */
  g_assert_cmpuint (passed_none, >=, 3);
  g_assert_cmpuint (passed_none, <=, 3 + slack);
  sl_message_unref (a);
  sl_message_unref (b);
  sl_message_unref (none);
  sl_test_driver_free (&t);
}

/* More keys than max-keys: the table does not grow; the keys that find no
 * place share one budget, and are counted. */
static void
test_keys_are_bounded (void)
{
  SlTestDriver t = rate_limit ("rate-limit(key(\"$HOST\") rate(1) max-keys(1))");
  gint64 overflows = sl_test_driver_counter (&t, "key-overflows");
  gint64 start = g_get_monotonic_time ();
  guint passed = 0;
  for (guint i = 0; i < 5000; i++)
    {
      gchar host[16];
      g_snprintf (host, sizeof host, "h%u", i);
      SlMessage *msg = sl_test_message_new ("HOST", host, NULL);
      passed += passes (&t, msg);
      sl_message_unref (msg);
    }
  guint slack = refilled_since (start, 1);
  /* a table for max-keys(1) has 32 places; every place is busy for a second */
  g_assert_cmpuint (passed, <=, 32 + slack * 33);
  g_assert_cmpint (sl_test_driver_counter (&t, "key-overflows") - overflows, >=, 5000 - 32 * (gint64) slack);
  sl_test_driver_free (&t);
}

typedef struct
{
  SlTestDriver *t;
  SlMessage *msg;
  guint passed;
} Worker;

static gpointer
work (gpointer data)
{
  Worker *w = data;
  for (guint i = 0; i < 20000; i++)
    w->passed += passes (w->t, w->msg);
  return NULL;
}

/* Four threads spending one budget never let more through than it holds. */
static void
test_threads_share_budgets (void)
{
  SlTestDriver t = rate_limit ("rate-limit(template(\"$PROGRAM\") rate(100))");
  SlMessage *msg = sl_test_message_new ("PROGRAM", "busy", NULL);
  Worker workers[4];
  GThread *threads[4];
  gint64 start = g_get_monotonic_time ();
  for (guint i = 0; i < 4; i++)
    {
      workers[i] = (Worker) { &t, msg, 0 };
      threads[i] = g_thread_new ("worker", work, &workers[i]);
    }
  guint passed = 0;
  for (guint i = 0; i < 4; i++)
    {
      g_thread_join (threads[i]);
      passed += workers[i].passed;
    }
  guint slack = refilled_since (start, 100);
  g_assert_cmpuint (passed, >=, 100);
  g_assert_cmpuint (passed, <=, 100 + slack);
  sl_message_unref (msg);
  sl_test_driver_free (&t);
}

static void
assert_refused (const gchar *filter, const gchar *expected)
{
  SlTestDriver t;
  GError *error = NULL;
  g_assert_false (sl_test_driver_new (&t, SL_DRIVER_FILTER, NULL, filter, &error));
  g_assert_nonnull (error);
  if (!strstr (error->message, expected))
    g_error ("'%s' not in: %s", expected, error->message);
  g_error_free (error);
  sl_test_driver_free (&t);
}

static void
test_config_errors (void)
{
  assert_refused ("rate-limit(template(\"$HOST\"))", "test.conf:1:12: rate-limit() needs option rate()");
  assert_refused ("rate-limit(rate(0))", "test.conf:1:28: option 'rate' of rate-limit() must be 1 to 1000000000, got '0'");
  assert_refused ("rate-limit(rate(-5))", "option 'rate' of rate-limit() must be 1 to 1000000000, got '-5'");
  assert_refused ("rate-limit(rate(1) period(0))", "option 'period' of rate-limit()");
  assert_refused ("rate-limit(rate(10) max-keys(0))", "option 'max-keys' of rate-limit() must be 1 to 16777216, got '0'");
  assert_refused ("rate-limit(rate(10) template(\"$(nosuchfunction)\"))", "unknown template function 'nosuchfunction'");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_assert_true (sl_plugins_register (&sl_module, __FILE__, NULL));
  g_test_add_func ("/rate-limit-filter/one-budget", test_one_budget);
  g_test_add_func ("/rate-limit-filter/budget-per-key", test_budget_per_key);
  g_test_add_func ("/rate-limit-filter/once-a-period", test_once_a_period);
  g_test_add_func ("/rate-limit-filter/keys-are-bounded", test_keys_are_bounded);
  g_test_add_func ("/rate-limit-filter/threads", test_threads_share_budgets);
  g_test_add_func ("/rate-limit-filter/config-errors", test_config_errors);
  return g_test_run ();
}
