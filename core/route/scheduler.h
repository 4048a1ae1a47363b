/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SlScheduler: the partitions of a parallelize() (syslog-ng 4's
 * log_scheduler). Each partition is a thread that runs the items pushed to
 * it in the order they came; partitions run side by side. It knows nothing
 * of messages: routing (core/route/route.c) pushes the rest of a path to
 * walk and picks the partition. */
#ifndef SL_SCHEDULER_H
#define SL_SCHEDULER_H

#include <glib.h>
#include "core/plugin/options.h"

G_BEGIN_DECLS

/* syslog-ng 4.8 takes a larger partitions() as this many */
#define SL_SCHEDULER_MAX_PARTITIONS 16

/* What parallelize(...) is written with; sl_scheduler_options is its table. */
typedef struct
{
  gint partitions;
  struct _SlTemplate *partition_key;
} SlSchedulerOptions;

extern const SlOptionSpec sl_scheduler_options[];

typedef struct _SlScheduler SlScheduler;

/* Runs items[0..n) on a partition's thread, in the order they were pushed;
 * the items are the callback's from then on. */
typedef void (*SlSchedulerRun) (gpointer *items, guint n, gpointer user_data);

SlScheduler *sl_scheduler_new        (guint partitions, SlSchedulerRun run, gpointer user_data);
guint        sl_scheduler_partitions (const SlScheduler *self);
/* The partition of a key: the same key always gets the same one. */
guint        sl_scheduler_partition_of (const SlScheduler *self, const gchar *key, gsize len);
/* For items without a key: each partition in turn. */
guint        sl_scheduler_next       (SlScheduler *self);
void         sl_scheduler_start      (SlScheduler *self);
/* Queues items[0..n) (their pointers) to partition. FALSE when it does not
 * run (never started, or stopped): the caller keeps them and runs them
 * itself, as syslog-ng runs a message in place when its scheduler cannot
 * take it. While a stop is under way it returns FALSE only once the
 * partition has run everything queued before. */
gboolean     sl_scheduler_push       (SlScheduler *self, guint partition, gpointer *items, guint n);
/* Runs what is queued, then ends the threads; pushes from the moment it
 * is asked are refused. */
void         sl_scheduler_stop       (SlScheduler *self);
void         sl_scheduler_free       (SlScheduler *self);

G_END_DECLS

#endif
