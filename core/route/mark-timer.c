/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/route/mark-timer.h"

void
sl_mark_timer_init (SlMarkTimer *t, SlMarkMode mode, gint freq, gint64 now)
{
  t->mode = mode;
  t->freq_us = (gint64) MAX (freq, 0) * G_USEC_PER_SEC;
  t->due = mode == SL_MARK_PERIODICAL && t->freq_us ? now + t->freq_us : 0;
}

static gboolean
is_internal_mark (const SlMessage *msg)
{
  return (msg->flags & SL_MSG_MARK) != 0;
}

/* In the idle modes, which messages put the MARK off. */
static gboolean
postpones (const SlMarkTimer *t, const SlMessage *msg)
{
  return t->mode == SL_MARK_DST_IDLE || (t->mode == SL_MARK_HOST_IDLE && !(msg->flags & SL_MSG_LOCAL));
}

const SlQueueItem *
sl_mark_timer_pass (SlMarkTimer *t, const SlQueueItem *items, guint *n, SlQueueItem **copy)
{
  gboolean keeps_marks = t->mode == SL_MARK_INTERNAL;
  gboolean postponed = FALSE;
  guint marks = 0;
  for (guint i = 0; i < *n; i++)
    {
      if (is_internal_mark (items[i].msg))
        marks++;
      else if (t->freq_us && postpones (t, items[i].msg))
        postponed = TRUE;
    }
  if (postponed)
    __atomic_store_n (&t->due, g_get_monotonic_time () + t->freq_us, __ATOMIC_RELAXED);
  if (!marks || keeps_marks)
    return items;

  SlQueueItem *kept = *copy = g_new (SlQueueItem, *n - marks + 1);
  guint k = 0;
  for (guint i = 0; i < *n; i++)
    {
      SlQueueItem item = items[i];
      if (is_internal_mark (item.msg))
        sl_queue_item_free (&item);
      else
        kept[k++] = item;
    }
  *n = k;
  return kept;
}

gboolean
sl_mark_timer_due (SlMarkTimer *t, gint64 now)
{
  gint64 due = __atomic_load_n (&t->due, __ATOMIC_RELAXED);
  /* A late check (a writer wakes once a second) does not shift the ones
   * after it; one far behind starts again from now. */
  while (due && now >= due)
    {
      gint64 next = due + t->freq_us > now ? due + t->freq_us : now + t->freq_us;
      if (__atomic_compare_exchange_n (&t->due, &due, next, FALSE, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        return TRUE;
    }
  return FALSE;
}
