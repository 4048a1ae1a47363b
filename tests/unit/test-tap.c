/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "core/route/tap.h"

#include <string.h>

static void
count (const SlMessage *msg, gpointer data)
{
  g_atomic_int_inc ((gint *) data);
}

static void
test_points_by_name (void)
{
  SlTapPoint *a = sl_tap_point ("destination", "d_names");
  g_assert_true (sl_tap_point ("destination", "d_names") == a);
  g_assert_true (sl_tap_point ("source", "d_names") != a);
  g_assert_cmpstr (a->kind, ==, "destination");
  g_assert_cmpstr (a->name, ==, "d_names");
  g_assert_false (sl_tap_attached (a));
}

static void
test_attach_detach (void)
{
  SlTapPoint *p = sl_tap_point ("parser", "p_attach");
  SlMessage *msg = sl_message_new ("x", 1);
  gint seen = 0, other = 0;
  sl_tap_pass (p, msg);
  g_assert_true (sl_tap_attach (p, count, &seen));
  g_assert_true (sl_tap_attached (p));
  /* one tap a point */
  g_assert_false (sl_tap_attach (p, count, &other));
  sl_tap_pass (p, msg);
  sl_tap_pass (p, msg);
  g_assert_cmpint (seen, ==, 2);
  sl_tap_detach (p);
  g_assert_false (sl_tap_attached (p));
  sl_tap_pass (p, msg);
  g_assert_cmpint (seen, ==, 2);
  g_assert_true (sl_tap_attach (p, count, &other));
  sl_tap_pass (p, msg);
  g_assert_cmpint (other, ==, 1);
  sl_tap_detach (p);
  sl_message_unref (msg);
}

typedef struct
{
  SlTapPoint *point;
  SlMessage *msg;
  gint attached;             /* set before each attach, cleared after each detach returns */
  gint calls;
  gint late;                 /* calls that came while attached was 0 */
  gint stop;
} Race;

static void
check_attached (const SlMessage *msg, gpointer data)
{
  Race *r = data;
  g_atomic_int_inc (&r->calls);
  if (!g_atomic_int_get (&r->attached))
    g_atomic_int_inc (&r->late);
}

static gpointer
offer_loop (gpointer data)
{
  Race *r = data;
  while (!g_atomic_int_get (&r->stop))
    sl_tap_pass (r->point, r->msg);
  return NULL;
}

/* Threads pass messages while the tap comes and goes: once
 * sl_tap_detach() returned, the function is never called. */
static void
test_detach_under_traffic (void)
{
  Race r = { sl_tap_point ("source", "s_race"), sl_message_new ("x", 1) };
  GThread *threads[3];
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    threads[i] = g_thread_new ("offer", offer_loop, &r);
  /* on a loaded machine the threads may not run during the first rounds:
   * they go on until one was called while attached (or 10 s passed) */
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  for (gint round = 0; round < 2000 || (!g_atomic_int_get (&r.calls) && g_get_monotonic_time () < deadline); round++)
    {
      g_atomic_int_set (&r.attached, 1);
      g_assert_true (sl_tap_attach (r.point, check_attached, &r));
      g_thread_yield ();
      sl_tap_detach (r.point);
      g_atomic_int_set (&r.attached, 0);
    }
  g_atomic_int_set (&r.stop, 1);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    g_thread_join (threads[i]);
  g_assert_cmpint (r.late, ==, 0);
  g_assert_cmpint (r.calls, >, 0);
  sl_message_unref (r.msg);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/tap/points-by-name", test_points_by_name);
  g_test_add_func ("/tap/attach-detach", test_attach_detach);
  g_test_add_func ("/tap/detach-under-traffic", test_detach_under_traffic);
  return g_test_run ();
}
