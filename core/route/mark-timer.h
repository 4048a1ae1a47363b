/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A destination's mark-mode() and mark-freq(), as syslog-ng 3.38's writers
 * keep them: which of internal()'s MARKs it writes, and when it makes a
 * MARK of its own. Core units only. */
#ifndef SL_MARK_TIMER_H
#define SL_MARK_TIMER_H

#include <glib.h>
#include "core/route/driver-private.h"
#include "core/route/queue.h"

G_BEGIN_DECLS

typedef struct
{
  SlMarkMode mode;
  gint64 freq_us;   /* 0: never a MARK of its own */
  gint64 due;       /* monotonic µs of its next MARK; 0: none armed */
} SlMarkTimer;

/* mode is resolved: never SL_MARK_GLOBAL. freq in seconds. A periodical
 * timer is armed from now, the idle ones by their first message. */
void      sl_mark_timer_init (SlMarkTimer *t, SlMarkMode mode, gint freq, gint64 now);
/* What a destination queues of items pushed to it: internal()'s MARKs
 * are let go (acknowledged, as syslog-ng drops them) unless its mode is
 * internal; in dst-idle and host-idle the others put its MARK off. Returns
 * items, or the ones kept in *copy (g_free it); *n is how many. */
const SlQueueItem *sl_mark_timer_pass (SlMarkTimer *t, const SlQueueItem *items, guint *n,
                                       SlQueueItem **copy);
/* TRUE once for each MARK of its own that is due by now; the next one is
 * then due mark-freq() later. Any thread. */
gboolean  sl_mark_timer_due  (SlMarkTimer *t, gint64 now);

G_END_DECLS

#endif
