/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SlAdmission: which connections of a stream source may keep their place.
 * The listener asks it two things about the facts of each connection:
 * whether one has overstayed a limit (first-message-timeout(),
 * idle-timeout()), and, at max-connections() with a newcomer waiting,
 * which one makes room: the oldest that never sent a byte, else the
 * oldest that never completed a message, else the longest idle. It counts and logs every close it decided; the
 * mechanics of closing stay the listener's. */
#ifndef SL_ADMISSION_H
#define SL_ADMISSION_H

#include <glib.h>
#include "core/route/source.h"

G_BEGIN_DECLS

typedef enum
{
  SL_ADMIT_KEEP,
  SL_ADMIT_IDLE_TIMEOUT,      /* idle-timeout(): no complete message for that long */
  SL_ADMIT_NO_MESSAGE,        /* first-message-timeout(): none since accept */
  SL_ADMIT_EVICT_NO_MESSAGE,  /* made room: it never completed a message */
  SL_ADMIT_EVICT_IDLE,        /* made room: it was the longest idle */
} SlAdmitVerdict;

/* Monotonic µs, read by whichever thread judges. */
typedef struct
{
  gint64 accepted;
  gboolean heard;        /* a byte came since accept */
  gint64 last_frame;     /* 0: no complete message yet */
  gint64 quiet_since;    /* the last complete message or the last time its window had room */
  gboolean window_full;  /* waiting for room: its silence is ours */
} SlAdmitFacts;

/* The best victim seen so far while the listener walks its connections. */
typedef struct
{
  gpointer victim;        /* NULL: none may go */
  SlAdmitVerdict why;
  gint rank;              /* what kind of connection it is: see sl_admission_consider */
  gint64 since;           /* the victim's accept or quiet time: older goes first */
  gint64 next_chance;     /* when one that may not go yet will be allowed to; 0: never */
} SlAdmitChoice;

typedef struct _SlAdmission SlAdmission;

SlAdmission   *sl_admission_new      (SlSource *src);
void           sl_admission_free     (SlAdmission *a);
/* How often the listener should look for overstayed connections; 0: no
 * limit is set, never. */
gint64         sl_admission_sweep_us (SlAdmission *a);
/* Whether a connection has overstayed first-message-timeout() or
 * idle-timeout(). */
SlAdmitVerdict sl_admission_expired  (SlAdmission *a, const SlAdmitFacts *f, gint64 now);

void           sl_admission_choice_init (SlAdmitChoice *choice);
/* Weighs one more connection as the one to make room. */
void           sl_admission_consider (SlAdmission *a, SlAdmitChoice *choice, gpointer conn,
                                      const SlAdmitFacts *f, gint64 now);
/* Counts (and logs the first, then one per thousand) a close it decided. */
void           sl_admission_closed   (SlAdmission *a, SlAdmitVerdict why, const gchar *peer);

G_END_DECLS

#endif
