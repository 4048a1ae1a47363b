/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SlBackoff: how long to wait before the next try after a failure: a
 * short first wait, doubled at each failure up to a ceiling (a
 * destination's time-reopen()), back to the first once a try works. A
 * fault that heals is noticed within a fraction of a second, one that
 * lasts is tried no more often than the ceiling allows. */
#ifndef SL_BACKOFF_H
#define SL_BACKOFF_H

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  gint64 first_ms;
  gint64 ceiling_ms;
  gint64 next_ms;      /* the wait after the next failure */
  guint failures;      /* in a row; 0: not failing */
  gint64 failing_since; /* monotonic µs of the first of them */
} SlBackoff;

/* The first wait is first_ms, or the ceiling when that is shorter. */
void     sl_backoff_init    (SlBackoff *b, gint64 first_ms, gint64 ceiling_ms);
/* Counts a failure; the milliseconds to wait before the next try. */
gint64   sl_backoff_failed  (SlBackoff *b);
/* A try worked: TRUE when it ends a run of failures (the caller says it
 * recovered), which starts the waits again from the first. */
gboolean sl_backoff_worked  (SlBackoff *b);

G_END_DECLS

#endif
