/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SlRateLimit: how many messages of one sender a source takes in a
 * window, as rsyslogd's ratelimit.c counts them (its imuxsock keeps one
 * window per sending PID, its imjournal one for the whole input): a
 * window opens at a message, `burst` messages pass in it, the rest are
 * dropped until a message comes more than `interval` seconds after the
 * window opened (or before it: the clock went back), which ends the
 * window and is counted in the next one. Messages more severe than
 * `severity` (a lower number) are neither limited nor counted. One
 * limit may be checked from several threads: a TCP listener's
 * connections share its window, as in rsyslogd's imtcp. */
#ifndef SL_RATE_LIMIT_H
#define SL_RATE_LIMIT_H

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  guint interval;   /* seconds; 0: no limit */
  guint burst;      /* at least 1 when interval is not 0 */
  gint severity;    /* 0 to 7: severities at or above this number are limited */
} SlRateLimitSpec;

/* What a message did to its sender's window, for the daemon's own
 * messages about it. */
typedef enum
{
  SL_RATE_LIMIT_PASSED,
  SL_RATE_LIMIT_DROPPED,        /* dropped, not the window's first */
  SL_RATE_LIMIT_BEGIN_DROPPING, /* dropped, the window's first drop */
} SlRateLimitVerdict;

typedef struct _SlRateLimit SlRateLimit;

/* NULL when spec->interval is 0: nothing to limit. */
SlRateLimit       *sl_rate_limit_new   (const SlRateLimitSpec *spec);
void               sl_rate_limit_free  (SlRateLimit *limit);
/* Counts one message of sender (a PID; one key for a whole input) with
 * severity, received at now (seconds). *lost is what the window that this
 * message ended had dropped (0 otherwise), to be told once. */
SlRateLimitVerdict sl_rate_limit_check (SlRateLimit *limit, gint64 sender, gint severity, gint64 now,
                                        guint64 *lost);
/* sl_rate_limit_check() that logs, as rsyslogd tells them, the first
 * drop of a window and what a window lost, naming who (a source's id)
 * and, when per_pid, the sending PID. TRUE when the message passes. */
gboolean           sl_rate_limit_admit (SlRateLimit *limit, const gchar *who, gboolean per_pid, gint64 sender,
                                        gint severity, gint64 now);

G_END_DECLS

#endif
