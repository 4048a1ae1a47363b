/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The bytes of every message the daemon holds, against the bound that
 * options { in-flight-bytes-max() } sets: past it, flow-controlled sources
 * read no more (their windows count as full) and paths without flow
 * control drop what they would queue. Each thread counts into a local sum
 * and adds it to the shared one past a few KiB, or when it flushes, so that the hot path takes no shared cache line per message. */
#ifndef SL_IN_FLIGHT_H
#define SL_IN_FLIGHT_H

#include <glib.h>

G_BEGIN_DECLS

/* 0: no bound. */
void     sl_in_flight_set_max (gint64 bytes);
gint64   sl_in_flight_max     (void);
/* Adds this thread's local sum to the shared one. */
void     sl_in_flight_flush   (void);

#define SL_IN_FLIGHT_SLACK (16 * 1024)
extern __thread gint64 sl_in_flight_local;

/* bytes more (or, negative, fewer) held by this thread */
static inline void
sl_in_flight_add (gint64 bytes)
{
  sl_in_flight_local += bytes;
  if (G_UNLIKELY ((guint64) (sl_in_flight_local + SL_IN_FLIGHT_SLACK) > 2 * SL_IN_FLIGHT_SLACK))
    sl_in_flight_flush ();
}
/* Whether the shared sum is at the bound (what this thread has not
 * flushed is not in it). Takes no lock: may be called under any. */
gboolean sl_in_flight_over    (void);
/* The shared sum: the gauge, at most a few KiB per thread off. */
gint64   sl_in_flight_bytes   (void);

typedef void (*SlInFlightNotify) (gpointer data);
/* Calls notify (data) once, from the thread that brings the sum below the
 * bound, or now when it is below already; TRUE when it was queued. */
gboolean sl_in_flight_notify_below (SlInFlightNotify notify, gpointer data);

G_END_DECLS

#endif
