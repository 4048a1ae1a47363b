/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SlSuppress: a destination's repeated messages held back and summed up,
 * as syslog-ng's suppress() does or as rsyslog's $RepeatedMsgReduction
 * does. A repeat is the same MESSAGE, HOST, PROGRAM and PID as the last
 * message let through; the run of repeats ends with a summary message
 * queued before the next different one (and, for syslog-ng's, when its
 * time is up). */
#ifndef SL_SUPPRESS_H
#define SL_SUPPRESS_H

#include <glib.h>
#include "core/route/queue.h"
#include "core/stats.h"

G_BEGIN_DECLS

typedef enum
{
  /* syslog-ng's suppress(SECONDS): a repeat counts while it was received
   * within SECONDS of the message it repeats, a run is summed up at the
   * latest SECONDS after its first repeat, MARK lines are never held, and
   * the summary is "Last message '...' repeated N times, suppressed by
   * syslog-ng on FQDN" with the repeated message's PRI, HOST and PROGRAM */
  SL_SUPPRESS_SYSLOG_NG,
  /* rsyslog's $RepeatedMsgReduction: no time bound; the summary is the
   * last repeat itself after one repeat, else a copy of it whose MESSAGE
   * is "message repeated N times: [...]"; a run still open at a stop is
   * summed up then */
  SL_SUPPRESS_RSYSLOG,
} SlSuppressStyle;

typedef struct _SlSuppress SlSuppress;

/* seconds is suppress()'s window (SL_SUPPRESS_SYSLOG_NG only); suppressed
 * (may be NULL) counts the repeats held back. */
SlSuppress *sl_suppress_new    (SlSuppressStyle style, gint seconds, SlCounter *suppressed);
void        sl_suppress_free   (SlSuppress *s);
/* Runs items through, in order: repeats are acknowledged and let go, the
 * rest come back, each summary before the message that ended its run.
 * Takes the items' references; the array returned (*n items) is the
 * caller's to g_free. now is the monotonic time in µs. */
SlQueueItem *sl_suppress_filter (SlSuppress *s, const SlQueueItem *items, guint *n, gint64 now);
/* The summary of a run whose time is up at now (monotonic µs), or, with
 * stopping, of any open run that its style sums up at a stop; else NULL.
 * The message is the caller's. */
SlMessage  *sl_suppress_expire (SlSuppress *s, gint64 now, gboolean stopping);

G_END_DECLS

#endif
