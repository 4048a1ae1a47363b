/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/io/io-worker.h"
#include "core/i18n.h"
#include "core/internal.h"

#include <errno.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#define EVENTS_PER_WAIT 64

struct _SlIoWorker
{
  gint epfd;
  SlIoWatch wake;           /* eventfd: a task was posted */
  gint watches;             /* descriptors watched, for picking the least loaded */
  GMutex lock;
  GQueue tasks;             /* SlIoTask, linked through task->link */
  GQueue timed;             /* SlIoWatch with a deadline, linked through watch->timed */
  gint timed_count;         /* its length, read without the lock */
  GThread *thread;
};

static guint requested_count;
static SlIoWorker *workers;
static guint worker_count;

void
sl_io_workers_set_count (guint n)
{
  requested_count = MIN (n, SL_IO_WORKERS_MAX);
}

guint
sl_io_workers_count (void)
{
  return requested_count ? requested_count : CLAMP (g_get_num_processors (), 1, SL_IO_WORKERS_MAX);
}

/* Tasks queued when the wake-up came are run, not those they post: a
 * connection re-armed again and again cannot keep the worker from epoll. */
static void
run_tasks (SlIoWorker *w)
{
  guint64 count;
  if (read (w->wake.fd, &count, sizeof count) < 0 && errno != EAGAIN)
    sl_log (SL_LOG_ERROR, _("I/O worker: cannot read its eventfd: %s"), g_strerror (errno));
  g_mutex_lock (&w->lock);
  guint n = w->tasks.length;
  g_mutex_unlock (&w->lock);
  for (; n > 0; n--)
    {
      g_mutex_lock (&w->lock);
      GList *link = g_queue_pop_head_link (&w->tasks);
      SlIoTask *task = link ? link->data : NULL;
      if (task)
        task->queued = FALSE;
      g_mutex_unlock (&w->lock);
      if (!task)
        break;
      task->func (task);
    }
  g_mutex_lock (&w->lock);
  gboolean more = w->tasks.length > 0;
  g_mutex_unlock (&w->lock);
  /* posts that found the queue non-empty did not wake us */
  guint64 one = 1;
  if (more && write (w->wake.fd, &one, sizeof one) != sizeof one)
    sl_log (SL_LOG_ERROR, _("I/O worker: cannot write its eventfd: %s"), g_strerror (errno));
}

static void
wake_up (SlIoWorker *w)
{
  guint64 one = 1;
  if (write (w->wake.fd, &one, sizeof one) != sizeof one)
    sl_log (SL_LOG_ERROR, _("I/O worker: cannot write its eventfd: %s"), g_strerror (errno));
}

/* epoll_wait's timeout: until the nearest deadline, or none. */
static gint
next_timeout (SlIoWorker *w)
{
  if (!g_atomic_int_get (&w->timed_count))
    return -1;
  gint64 nearest = G_MAXINT64;
  g_mutex_lock (&w->lock);
  for (GList *i = w->timed.head; i; i = i->next)
    nearest = MIN (nearest, ((SlIoWatch *) i->data)->deadline);
  g_mutex_unlock (&w->lock);
  if (nearest == G_MAXINT64)
    return -1;
  gint64 wait_us = nearest - g_get_monotonic_time ();
  return wait_us <= 0 ? 0 : (gint) MIN ((wait_us + 999) / 1000, G_MAXINT);
}

static void
unlink_timed (SlIoWorker *w, SlIoWatch *watch)
{
  if (!watch->timed.data)
    return;
  g_queue_unlink (&w->timed, &watch->timed);
  watch->timed.data = NULL;
  g_atomic_int_add (&w->timed_count, -1);
}

/* One at a time: an expired callback frees its own watch, which is then
 * no longer in the list. */
static void
run_expired (SlIoWorker *w)
{
  if (!g_atomic_int_get (&w->timed_count))
    return;
  gint64 now = g_get_monotonic_time ();
  for (;;)
    {
      SlIoWatch *due = NULL;
      g_mutex_lock (&w->lock);
      for (GList *i = w->timed.head; i && !due; i = i->next)
        if (((SlIoWatch *) i->data)->deadline <= now)
          due = i->data;
      if (due)
        unlink_timed (w, due);
      g_mutex_unlock (&w->lock);
      if (!due)
        return;
      due->expired (due);
    }
}

/* Tasks run after the whole batch of events: a task may free a watch
 * whose event is still further down the batch. */
static gpointer
worker_thread (gpointer data)
{
  SlIoWorker *w = data;
  struct epoll_event events[EVENTS_PER_WAIT];
  for (;;)
    {
      gint n = epoll_wait (w->epfd, events, EVENTS_PER_WAIT, next_timeout (w));
      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          sl_log (SL_LOG_ERROR, _("I/O worker: epoll_wait: %s"), g_strerror (errno));
          g_usleep (G_USEC_PER_SEC / 10);
          continue;
        }
      gboolean woken = FALSE;
      for (gint i = 0; i < n; i++)
        {
          SlIoWatch *watch = events[i].data.ptr;
          if (watch == &w->wake)
            woken = TRUE;
          else
            watch->ready (watch, events[i].events);
        }
      if (woken)
        run_tasks (w);
      run_expired (w);
    }
  return NULL;
}

static void
worker_init (SlIoWorker *w, guint index)
{
  w->epfd = epoll_create1 (EPOLL_CLOEXEC);
  w->wake.fd = eventfd (0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (w->epfd < 0 || w->wake.fd < 0)
    g_error (_("cannot start an I/O worker: %s"), g_strerror (errno));
  g_mutex_init (&w->lock);
  g_queue_init (&w->tasks);
  g_queue_init (&w->timed);
  struct epoll_event ev = { .events = EPOLLIN, .data.ptr = &w->wake };
  if (epoll_ctl (w->epfd, EPOLL_CTL_ADD, w->wake.fd, &ev) < 0)
    g_error (_("cannot start an I/O worker: %s"), g_strerror (errno));
  g_autofree gchar *name = g_strdup_printf ("sl-io-%u", index);
  w->thread = g_thread_new (name, worker_thread, w);
}

static gpointer
start_pool (gpointer unused)
{
  worker_count = sl_io_workers_count ();
  workers = g_new0 (SlIoWorker, worker_count);
  for (guint i = 0; i < worker_count; i++)
    worker_init (&workers[i], i);
  return NULL;
}

SlIoWorker *
sl_io_worker_pick (void)
{
  static GOnce once = G_ONCE_INIT;
  g_once (&once, start_pool, NULL);
  SlIoWorker *best = &workers[0];
  for (guint i = 1; i < worker_count; i++)
    if (g_atomic_int_get (&workers[i].watches) < g_atomic_int_get (&best->watches))
      best = &workers[i];
  return best;
}

gboolean
sl_io_worker_watch (SlIoWorker *w, SlIoWatch *watch, guint32 events)
{
  watch->worker = w;
  watch->events = events;
  watch->watched = TRUE;
  watch->paused = FALSE;
  g_atomic_int_inc (&w->watches);
  /* from here on the worker may run the callback, which may free watch */
  struct epoll_event ev = { .events = events, .data.ptr = watch };
  if (epoll_ctl (w->epfd, EPOLL_CTL_ADD, watch->fd, &ev) == 0)
    return TRUE;
  watch->watched = FALSE;
  g_atomic_int_add (&w->watches, -1);
  return FALSE;
}

void
sl_io_worker_set_deadline (SlIoWatch *watch, gint64 deadline, SlIoExpired expired)
{
  SlIoWorker *w = watch->worker;
  g_mutex_lock (&w->lock);
  unlink_timed (w, watch);
  watch->deadline = deadline;
  watch->expired = expired;
  if (deadline)
    {
      watch->timed.data = watch;
      g_queue_push_tail_link (&w->timed, &watch->timed);
      g_atomic_int_inc (&w->timed_count);
    }
  g_mutex_unlock (&w->lock);
  /* a worker asleep without a timeout learns of the deadline */
  if (deadline)
    wake_up (w);
}

void
sl_io_worker_modify (SlIoWatch *watch, guint32 events)
{
  if (watch->events == events)
    return;
  watch->events = events;
  if (!watch->watched || watch->paused)
    return;
  struct epoll_event ev = { .events = events, .data.ptr = watch };
  if (epoll_ctl (watch->worker->epfd, EPOLL_CTL_MOD, watch->fd, &ev) < 0)
    sl_log (SL_LOG_ERROR, _("I/O worker: cannot change the events of descriptor %d: %s"), watch->fd,
            g_strerror (errno));
}

void
sl_io_worker_unwatch (SlIoWatch *watch)
{
  if (watch->timed.data)
    {
      g_mutex_lock (&watch->worker->lock);
      unlink_timed (watch->worker, watch);
      g_mutex_unlock (&watch->worker->lock);
    }
  if (!watch->watched)
    return;
  if (!watch->paused)
    epoll_ctl (watch->worker->epfd, EPOLL_CTL_DEL, watch->fd, NULL);
  watch->watched = FALSE;
  g_atomic_int_add (&watch->worker->watches, -1);
}

/* Taken out of the epoll set rather than left in it with no events:
 * epoll reports a hang-up or an error whatever was asked for, and level
 * triggered it would report it again on every wait. */
void
sl_io_worker_pause (SlIoWatch *watch)
{
  if (!watch->watched || watch->paused)
    return;
  epoll_ctl (watch->worker->epfd, EPOLL_CTL_DEL, watch->fd, NULL);
  watch->paused = TRUE;
}

void
sl_io_worker_resume (SlIoWatch *watch)
{
  if (!watch->watched || !watch->paused)
    return;
  struct epoll_event ev = { .events = watch->events, .data.ptr = watch };
  if (epoll_ctl (watch->worker->epfd, EPOLL_CTL_ADD, watch->fd, &ev) < 0)
    sl_log (SL_LOG_ERROR, _("I/O worker: cannot watch descriptor %d again: %s"), watch->fd, g_strerror (errno));
  watch->paused = FALSE;
}

void
sl_io_worker_post (SlIoWorker *w, SlIoTask *task)
{
  g_mutex_lock (&w->lock);
  gboolean wake = !task->queued && w->tasks.length == 0;
  if (!task->queued)
    {
      task->link.data = task;
      g_queue_push_tail_link (&w->tasks, &task->link);
      task->queued = TRUE;
    }
  g_mutex_unlock (&w->lock);
  guint64 one = 1;
  if (wake && write (w->wake.fd, &one, sizeof one) != sizeof one)
    sl_log (SL_LOG_ERROR, _("I/O worker: cannot write its eventfd: %s"), g_strerror (errno));
}

void
sl_io_worker_unpost (SlIoWorker *w, SlIoTask *task)
{
  g_mutex_lock (&w->lock);
  if (task->queued)
    {
      g_queue_unlink (&w->tasks, &task->link);
      task->queued = FALSE;
    }
  g_mutex_unlock (&w->lock);
}
