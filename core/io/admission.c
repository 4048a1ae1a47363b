/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/io/admission.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/route/source-private.h"

#include <inttypes.h>

/* A newcomer gets this long to bring its first message before another
 * newcomer may take its place: a sender writes as soon as it connected,
 * while an attacker's connections that never complete one are made room
 * for at max-connections()/EVICT_GRACE_MS a second. */
#define EVICT_GRACE_MS 20
/* A connection that completed messages makes room only after this long
 * without one: senders that are busy keep their place, however many
 * wait. */
#define EVICT_IDLE_MS 5000
/* The sweep runs this many times per limit, at most once every
 * SWEEP_MAX_MS, so a connection is closed at most a quarter late. */
#define SWEEPS_PER_TIMEOUT 4
#define SWEEP_MAX_MS 1000
/* A flood of closes is logged the first time and then once per this
 * many; the counters have every one. */
#define LOG_EVERY 1000

struct _SlAdmission
{
  SlSource *src;
  gint64 idle_timeout_us;      /* 0: never */
  gint64 no_message_us;        /* first-message-timeout(); 0: never */
  SlCounter *counters[SL_ADMIT_EVICT_IDLE + 1];
};

static const gchar *const counter_names[] = {
  [SL_ADMIT_IDLE_TIMEOUT] = "idle_closed",
  [SL_ADMIT_NO_MESSAGE] = "no_message_closed",
  [SL_ADMIT_EVICT_NO_MESSAGE] = "evicted_no_message",
  [SL_ADMIT_EVICT_IDLE] = "evicted_idle",
};

SlAdmission *
sl_admission_new (SlSource *src)
{
  SlAdmission *a = g_new0 (SlAdmission, 1);
  a->src = src;
  a->idle_timeout_us = src->idle_timeout_ms * 1000;
  a->no_message_us = src->first_message_timeout_ms * 1000;
  const gchar *id = sl_source_id (src);
  const gchar *kind = src->driver->klass->name;
  for (guint i = SL_ADMIT_IDLE_TIMEOUT; i < G_N_ELEMENTS (counter_names); i++)
    a->counters[i] = sl_stats_counter ("source", id, kind, counter_names[i]);
  return a;
}

void
sl_admission_free (SlAdmission *a)
{
  g_free (a);
}

gint64
sl_admission_sweep_us (SlAdmission *a)
{
  gint64 shortest = a->idle_timeout_us;
  if (a->no_message_us && (!shortest || a->no_message_us < shortest))
    shortest = a->no_message_us;
  if (!shortest)
    return 0;
  return CLAMP (shortest / SWEEPS_PER_TIMEOUT, 1000, SWEEP_MAX_MS * 1000);
}

SlAdmitVerdict
sl_admission_expired (SlAdmission *a, const SlAdmitFacts *f, gint64 now)
{
  if (a->no_message_us && !f->last_frame && now - f->accepted >= a->no_message_us)
    return SL_ADMIT_NO_MESSAGE;
  if (a->idle_timeout_us && !f->window_full && now - MAX (f->quiet_since, f->accepted) >= a->idle_timeout_us)
    return SL_ADMIT_IDLE_TIMEOUT;
  return SL_ADMIT_KEEP;
}

void
sl_admission_choice_init (SlAdmitChoice *choice)
{
  *choice = (SlAdmitChoice) { 0 };
}

static void
note_chance (SlAdmitChoice *choice, gint64 when)
{
  if (!choice->next_chance || when < choice->next_chance)
    choice->next_chance = when;
}

/* Who goes first: a connection that never sent a byte (a TLS client
 * that never started its handshake among them), then one that never
 * completed a message, then one that went quiet after it did; among each
 * kind the one waiting longest. */
enum
{
  RANK_IDLE = 1,
  RANK_UNFINISHED,
  RANK_SILENT,
};

static gboolean
goes_before (gint rank, gint64 since, const SlAdmitChoice *choice)
{
  if (!choice->victim || rank != choice->rank)
    return !choice->victim || rank > choice->rank;
  return since < choice->since;
}

void
sl_admission_consider (SlAdmission *a, SlAdmitChoice *choice, gpointer conn, const SlAdmitFacts *f, gint64 now)
{
  if (f->window_full)
    return;
  gint rank = !f->last_frame ? (f->heard ? RANK_UNFINISHED : RANK_SILENT) : RANK_IDLE;
  gint64 since = rank == RANK_IDLE ? MAX (f->quiet_since, f->accepted) : f->accepted;
  gint64 floor_us = (rank == RANK_IDLE ? EVICT_IDLE_MS : EVICT_GRACE_MS) * 1000;
  if (now - since < floor_us)
    {
      note_chance (choice, since + floor_us);
      return;
    }
  if (goes_before (rank, since, choice))
    {
      choice->victim = conn;
      choice->why = rank == RANK_IDLE ? SL_ADMIT_EVICT_IDLE : SL_ADMIT_EVICT_NO_MESSAGE;
      choice->rank = rank;
      choice->since = since;
    }
}

void
sl_admission_closed (SlAdmission *a, SlAdmitVerdict why, const gchar *peer)
{
  if (why == SL_ADMIT_KEEP)
    return;
  SlCounter *counter = a->counters[why];
  gint64 total = sl_counter_get (counter) + 1;
  sl_counter_add (counter, 1);
  if ((total - 1) % LOG_EVERY != 0)
    return;
  const gchar *client = peer ? peer : "local";
  const gchar *id = sl_source_id (a->src);
  switch (why)
    {
    case SL_ADMIT_IDLE_TIMEOUT:
      sl_log (SL_LOG_NOTICE, _("closing a connection that brought no complete message for idle-timeout(); "
                               "client='%s', driver='%s', closed='%" PRId64 "'"), client, id, total);
      break;
    case SL_ADMIT_NO_MESSAGE:
      sl_log (SL_LOG_NOTICE, _("closing a connection that brought no complete message within first-message-timeout(); "
                               "client='%s', driver='%s', closed='%" PRId64 "'"), client, id, total);
      break;
    case SL_ADMIT_EVICT_NO_MESSAGE:
      sl_log (SL_LOG_NOTICE, _("max-connections() reached, closing the oldest connection that brought no complete "
                               "message to make room; client='%s', driver='%s', evicted='%" PRId64 "'"), client, id, total);
      break;
    case SL_ADMIT_EVICT_IDLE:
      sl_log (SL_LOG_NOTICE, _("max-connections() reached, closing the longest idle connection to make room; "
                               "client='%s', driver='%s', evicted='%" PRId64 "'"), client, id, total);
      break;
    case SL_ADMIT_KEEP:
      break;
    }
}
