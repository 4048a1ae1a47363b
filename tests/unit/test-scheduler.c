/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SlScheduler on its own: partitions, order within one, draining stops. */
#include "core/route/scheduler.h"

enum { PRODUCERS = 3, KEYS = 8, PER_PRODUCER = 20000 };

typedef struct
{
  guint key;
  guint producer;
  guint seq;
} Item;

typedef struct
{
  SlScheduler *scheduler;
  GMutex lock;
  guint ran;
  /* per key and producer, the last seq run, +1 (0: none yet) */
  guint last[KEYS][PRODUCERS];
  gboolean out_of_order;
  gboolean wrong_thread;
  GThread *thread_of[KEYS];
} Record;

static void
record_run (gpointer *items, guint n, gpointer user_data)
{
  Record *r = user_data;
  g_mutex_lock (&r->lock);
  for (guint i = 0; i < n; i++)
    {
      Item *it = items[i];
      if (r->last[it->key][it->producer] != it->seq)
        r->out_of_order = TRUE;
      r->last[it->key][it->producer] = it->seq + 1;
      if (!r->thread_of[it->key])
        r->thread_of[it->key] = g_thread_self ();
      else if (r->thread_of[it->key] != g_thread_self ())
        r->wrong_thread = TRUE;
      r->ran++;
      g_free (it);
    }
  g_mutex_unlock (&r->lock);
}

typedef struct
{
  Record *record;
  guint producer;
} Producer;

/* pushes in batches of up to 16 per partition, as routing does */
static gpointer
produce (gpointer data)
{
  Producer *p = data;
  SlScheduler *s = p->record->scheduler;
  for (guint seq = 0; seq < PER_PRODUCER; seq++)
    {
      Item *it = g_new (Item, 1);
      *it = (Item) { seq % KEYS, p->producer, seq / KEYS };
      gchar key[16];
      gint len = g_snprintf (key, sizeof key, "host-%u", it->key);
      gpointer items[] = { it };
      g_assert_true (sl_scheduler_push (s, sl_scheduler_partition_of (s, key, len), items, 1));
    }
  return NULL;
}

static void
test_order_per_key (void)
{
  Record r = { 0 };
  g_mutex_init (&r.lock);
  r.scheduler = sl_scheduler_new (4, record_run, &r);
  sl_scheduler_start (r.scheduler);
  Producer producers[PRODUCERS];
  GThread *threads[PRODUCERS];
  for (guint i = 0; i < PRODUCERS; i++)
    {
      producers[i] = (Producer) { &r, i };
      threads[i] = g_thread_new ("producer", produce, &producers[i]);
    }
  for (guint i = 0; i < PRODUCERS; i++)
    g_thread_join (threads[i]);
  /* the stop runs what is still queued */
  sl_scheduler_stop (r.scheduler);
  g_assert_cmpuint (r.ran, ==, PRODUCERS * PER_PRODUCER);
  g_assert_false (r.out_of_order);
  g_assert_false (r.wrong_thread);
  /* the keys were spread: more than one thread ran them */
  gboolean spread = FALSE;
  for (guint k = 1; k < KEYS; k++)
    spread = spread || r.thread_of[k] != r.thread_of[0];
  g_assert_true (spread);
  sl_scheduler_free (r.scheduler);
  g_mutex_clear (&r.lock);
}

static void
test_partition_choice (void)
{
  SlScheduler *s = sl_scheduler_new (3, record_run, NULL);
  g_assert_cmpuint (sl_scheduler_partitions (s), ==, 3);
  guint first = sl_scheduler_partition_of (s, "web-1", 5);
  g_assert_cmpuint (first, <, 3);
  for (guint i = 0; i < 10; i++)
    g_assert_cmpuint (sl_scheduler_partition_of (s, "web-1", 5), ==, first);
  /* without a key: each partition in turn */
  guint start = sl_scheduler_next (s);
  for (guint i = 1; i < 7; i++)
    g_assert_cmpuint (sl_scheduler_next (s), ==, (start + i) % 3);
  sl_scheduler_free (s);
}

/* Not running, a scheduler takes nothing: the caller runs the items. */
static void
test_refuses_when_not_running (void)
{
  Record r = { 0 };
  g_mutex_init (&r.lock);
  r.scheduler = sl_scheduler_new (2, record_run, &r);
  Item it = { 0 };
  gpointer items[] = { &it };
  g_assert_false (sl_scheduler_push (r.scheduler, 0, items, 1));
  sl_scheduler_start (r.scheduler);
  sl_scheduler_stop (r.scheduler);
  g_assert_false (sl_scheduler_push (r.scheduler, 1, items, 1));
  g_assert_cmpuint (r.ran, ==, 0);
  sl_scheduler_free (r.scheduler);
  g_mutex_clear (&r.lock);
}

typedef struct
{
  Record *record;
  guint producer;
  gint *done;
  guint pushed;
} EndlessProducer;

/* pushes one message every few microseconds until told to end; what the
 * scheduler refuses it runs itself, as routing does */
static gpointer
produce_until_done (gpointer data)
{
  EndlessProducer *p = data;
  SlScheduler *s = p->record->scheduler;
  for (guint seq = 0; !g_atomic_int_get (p->done); seq++)
    {
      Item *it = g_new (Item, 1);
      *it = (Item) { seq % KEYS, p->producer, seq / KEYS };
      gchar key[16];
      gint len = g_snprintf (key, sizeof key, "host-%u", it->key);
      gpointer items[] = { it };
      if (!sl_scheduler_push (s, sl_scheduler_partition_of (s, key, len), items, 1))
        record_run (items, 1, p->record);
      p->pushed++;
      g_usleep (5);
    }
  return NULL;
}

/* slower than the producers: the partitions always have more waiting */
static void
slow_run (gpointer *items, guint n, gpointer user_data)
{
  g_usleep (2000);
  record_run (items, n, user_data);
}

static gpointer
stop_scheduler (gpointer data)
{
  Record *r = data;
  sl_scheduler_stop (r->scheduler);
  return GINT_TO_POINTER (1);
}

/* Producers that push faster than the partitions run do not keep a stop
 * from ending, and what they route themselves once it is asked comes
 * after what the partitions ran: each key keeps its order. */
static void
test_stop_ends_under_pushes (void)
{
  Record r = { 0 };
  g_mutex_init (&r.lock);
  r.scheduler = sl_scheduler_new (2, slow_run, &r);
  sl_scheduler_start (r.scheduler);
  gint done = 0;
  EndlessProducer producers[PRODUCERS];
  GThread *threads[PRODUCERS];
  for (guint i = 0; i < PRODUCERS; i++)
    {
      producers[i] = (EndlessProducer) { &r, i, &done, 0 };
      threads[i] = g_thread_new ("producer", produce_until_done, &producers[i]);
    }
  g_usleep (20000);
  /* the producers go on until the stop has ended: it must end on its own */
  GThread *stopper = g_thread_new ("stopper", stop_scheduler, &r);
  g_assert_nonnull (g_thread_join (stopper));
  g_atomic_int_set (&done, 1);
  guint pushed = 0;
  for (guint i = 0; i < PRODUCERS; i++)
    {
      g_thread_join (threads[i]);
      pushed += producers[i].pushed;
    }
  g_assert_cmpuint (r.ran, ==, pushed);
  g_assert_false (r.out_of_order);
  sl_scheduler_free (r.scheduler);
  g_mutex_clear (&r.lock);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/scheduler/order-per-key", test_order_per_key);
  g_test_add_func ("/scheduler/partition-choice", test_partition_choice);
  g_test_add_func ("/scheduler/refuses-when-not-running", test_refuses_when_not_running);
  g_test_add_func ("/scheduler/stop-ends-under-pushes", test_stop_ends_under_pushes);
  return g_test_run ();
}
