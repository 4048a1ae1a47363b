/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/io/partial-budget.h"
#include "core/stats.h"

static gint64 held;

static SlCounter *
gauge (void)
{
  static gsize once;
  static SlCounter *counter;
  if (g_once_init_enter (&once))
    {
      counter = sl_stats_gauge ("global", "partial", "stream", "partial_bytes");
      g_once_init_leave (&once, 1);
    }
  return counter;
}

gboolean
sl_partial_budget_move (gsize before, gsize after)
{
  gint64 delta = (gint64) after - (gint64) before;
  if (!delta)
    return TRUE;
  if (delta > 0)
    {
      gint64 total = __atomic_add_fetch (&held, delta, __ATOMIC_RELAXED);
      if (total > SL_PARTIAL_BUDGET)
        {
          __atomic_sub_fetch (&held, delta, __ATOMIC_RELAXED);
          return FALSE;
        }
    }
  else
    __atomic_add_fetch (&held, delta, __ATOMIC_RELAXED);
  sl_counter_add (gauge (), delta);
  return TRUE;
}

gint64
sl_partial_budget_held (void)
{
  return __atomic_load_n (&held, __ATOMIC_RELAXED);
}
