/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/route/backoff.h"

void
sl_backoff_init (SlBackoff *b, gint64 first_ms, gint64 ceiling_ms)
{
  b->ceiling_ms = MAX (ceiling_ms, 1);
  b->first_ms = CLAMP (first_ms, 1, b->ceiling_ms);
  b->next_ms = b->first_ms;
  b->failures = 0;
  b->failing_since = 0;
}

gint64
sl_backoff_failed (SlBackoff *b)
{
  if (!b->failures++)
    b->failing_since = g_get_monotonic_time ();
  gint64 wait = b->next_ms;
  b->next_ms = MIN (b->next_ms * 2, b->ceiling_ms);
  return wait;
}

gboolean
sl_backoff_worked (SlBackoff *b)
{
  gboolean recovered = b->failures > 0;
  b->failures = 0;
  b->next_ms = b->first_ms;
  return recovered;
}
