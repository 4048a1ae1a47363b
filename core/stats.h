/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Counters per source, path and destination, kept across reloads. */
#ifndef SL_STATS_H
#define SL_STATS_H

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  gint64 value;   /* read and changed only through the functions below */
} SlCounter;

/* The counter named name of component (kind "source", "destination",
 * "path"; id such as "s_net#0", the object's name and the driver's place in
 * it; instance such as "tcp", the driver). The same arguments give the same
 * counter. */
SlCounter *sl_stats_counter (const gchar *kind, const gchar *id,
                             const gchar *instance, const gchar *name);
/* The same for a value that goes down as well as up (a queue's length):
 * exported to Prometheus as a gauge rather than a counter. */
SlCounter *sl_stats_gauge   (const gchar *kind, const gchar *id,
                             const gchar *instance, const gchar *name);

static inline void
sl_counter_add (SlCounter *c, gint64 n)
{
  __atomic_add_fetch (&c->value, n, __ATOMIC_RELAXED);
}

/* The value with n added. */
static inline gint64
sl_counter_add_fetch (SlCounter *c, gint64 n)
{
  return __atomic_add_fetch (&c->value, n, __ATOMIC_RELAXED);
}

static inline void
sl_counter_set (SlCounter *c, gint64 n)
{
  __atomic_store_n (&c->value, n, __ATOMIC_RELAXED);
}

static inline gint64
sl_counter_get (const SlCounter *c)
{
  return __atomic_load_n (&c->value, __ATOMIC_RELAXED);
}



/* The line formats of stats(file()), rsyslog's impstats format= */
typedef enum
{
  SL_STATS_FILE_LEGACY,
  SL_STATS_FILE_JSON,
  SL_STATS_FILE_CEE,
  SL_STATS_FILE_JSON_ES,
} SlStatsFileFormat;

/* What options { stats(...) } says: the daemon's own settings. */
typedef struct
{
  const gchar *listen;   /* address of the HTTP endpoint for /metrics and /health, or NULL */
  gint freq;             /* seconds between "Log statistics" messages; 0: none */
  gint level;            /* 0: totals and internal()'s counters, as syslog-ng's; 1 and more: every counter */
  const gchar *file;     /* the file the counters are appended to every file_freq seconds, or NULL */
  gint file_freq;
  gint file_format;      /* SlStatsFileFormat */
} SlStatsSettings;

G_END_DECLS

#endif
