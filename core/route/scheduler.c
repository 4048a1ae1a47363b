/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/route/scheduler.h"

const SlOptionSpec sl_scheduler_options[] = {
  { "partitions", SL_INT (SlSchedulerOptions, partitions), "0",
    "threads the rest of the path runs on; 0 runs it where the message is (as syslog-ng 4.8 does), "
    "more than 16 is taken as 16", SL_RANGE_NON_NEGATIVE },
  { "partition-key", SL_TEMPLATE (SlSchedulerOptions, partition_key), NULL,
    "messages whose key renders the same run on one partition, in order; without it, each message goes to "
    "the next partition in turn" },
  { NULL }
};

typedef struct
{
  SlScheduler *owner;
  guint index;
  GMutex lock;
  GCond wake;
  GCond ended;               /* the thread cleared running */
  GPtrArray *pending;        /* pushed, not yet taken by the thread */
  GPtrArray *spare;          /* the array the thread ran last, empty */
  gboolean running;          /* takes pushes; the thread clears it as it ends */
  gboolean stopping;
  GThread *thread;
} Partition;

struct _SlScheduler
{
  SlSchedulerRun run;
  gpointer user_data;
  gint turn;
  guint n;
  Partition partitions[];
};

SlScheduler *
sl_scheduler_new (guint partitions, SlSchedulerRun run, gpointer user_data)
{
  g_return_val_if_fail (partitions > 0, NULL);
  SlScheduler *self = g_malloc0 (sizeof (SlScheduler) + partitions * sizeof (Partition));
  self->run = run;
  self->user_data = user_data;
  self->n = partitions;
  for (guint i = 0; i < partitions; i++)
    {
      Partition *p = &self->partitions[i];
      p->owner = self;
      p->index = i;
      g_mutex_init (&p->lock);
      g_cond_init (&p->wake);
      g_cond_init (&p->ended);
      p->pending = g_ptr_array_new ();
      p->spare = g_ptr_array_new ();
    }
  return self;
}

guint
sl_scheduler_partitions (const SlScheduler *self)
{
  return self->n;
}

/* FNV-1a: cheap, and spreads keys that differ in one character */
guint
sl_scheduler_partition_of (const SlScheduler *self, const gchar *key, gsize len)
{
  guint32 h = 2166136261u;
  for (gsize i = 0; i < len; i++)
    h = (h ^ (guchar) key[i]) * 16777619u;
  return h % self->n;
}

guint
sl_scheduler_next (SlScheduler *self)
{
  return (guint) g_atomic_int_add (&self->turn, 1) % self->n;
}

/* Takes everything pending at once, runs it unlocked; ends only when a
 * stop was asked and nothing is left, so a stop drains. */
static gpointer
partition_thread (gpointer data)
{
  Partition *p = data;
  SlScheduler *self = p->owner;
  g_mutex_lock (&p->lock);
  for (;;)
    {
      while (!p->pending->len && !p->stopping)
        g_cond_wait (&p->wake, &p->lock);
      if (!p->pending->len)
        break;
      GPtrArray *work = p->pending;
      p->pending = p->spare;
      g_mutex_unlock (&p->lock);
      self->run (work->pdata, work->len, self->user_data);
      g_ptr_array_set_size (work, 0);
      g_mutex_lock (&p->lock);
      p->spare = work;
    }
  p->running = FALSE;
  g_cond_broadcast (&p->ended);
  g_mutex_unlock (&p->lock);
  return NULL;
}

void
sl_scheduler_start (SlScheduler *self)
{
  for (guint i = 0; i < self->n; i++)
    {
      Partition *p = &self->partitions[i];
      if (p->thread)
        continue;
      p->running = TRUE;
      p->stopping = FALSE;
      p->thread = g_thread_new ("sl-partition", partition_thread, p);
    }
}

gboolean
sl_scheduler_push (SlScheduler *self, guint partition, gpointer *items, guint n)
{
  g_return_val_if_fail (partition < self->n, FALSE);
  Partition *p = &self->partitions[partition];
  g_mutex_lock (&p->lock);
  /* once a stop is asked, what comes is routed by the caller, and only
   * after the partition routed everything handed before it: the order of
   * one key holds across the stop, and the stop ends however fast pushes
   * come. The partition's own thread (a path that comes back to it) is
   * not made to wait for itself. */
  while (p->stopping && p->running && g_thread_self () != p->thread)
    g_cond_wait (&p->ended, &p->lock);
  gboolean taken = p->running;
  if (taken)
    {
      gboolean idle = !p->pending->len;
      for (guint i = 0; i < n; i++)
        g_ptr_array_add (p->pending, items[i]);
      if (idle)
        g_cond_signal (&p->wake);
    }
  g_mutex_unlock (&p->lock);
  return taken;
}

void
sl_scheduler_stop (SlScheduler *self)
{
  for (guint i = 0; i < self->n; i++)
    {
      Partition *p = &self->partitions[i];
      g_mutex_lock (&p->lock);
      p->stopping = TRUE;
      g_cond_signal (&p->wake);
      g_mutex_unlock (&p->lock);
    }
  for (guint i = 0; i < self->n; i++)
    {
      Partition *p = &self->partitions[i];
      if (p->thread)
        g_thread_join (p->thread);
      p->thread = NULL;
    }
}

void
sl_scheduler_free (SlScheduler *self)
{
  if (!self)
    return;
  sl_scheduler_stop (self);
  for (guint i = 0; i < self->n; i++)
    {
      Partition *p = &self->partitions[i];
      g_mutex_clear (&p->lock);
      g_cond_clear (&p->wake);
      g_cond_clear (&p->ended);
      g_ptr_array_unref (p->pending);
      g_ptr_array_unref (p->spare);
    }
  g_free (self);
}
