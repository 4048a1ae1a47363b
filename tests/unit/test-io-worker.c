/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The I/O workers and the window's wake-up that re-arms a connection:
 * descriptors reported on a worker thread, tasks that run once however
 * often they were posted before running, a paused watch resumed by a
 * task, deadlines that expire on the worker and die with their watch, and
 * a window that calls its notify once per arming. */
#include "core/io/io-worker.h"
#include "core/message/window.h"

#include <fcntl.h>
#include <sys/epoll.h>
#include <unistd.h>

#define DEADLINE_US (10 * G_USEC_PER_SEC)

typedef struct
{
  SlIoWatch watch;
  SlIoTask task;
  SlIoTask barrier;       /* posted from the test: runs after what was queued before */
  SlIoTask stop;          /* unwatches on the worker */
  GMutex lock;
  GCond changed;
  guint ready_calls;
  guint task_runs;
  guint barrier_runs;
  guint stop_runs;
  guint expired_runs;
  GThread *ready_thread;
  GThread *expired_thread;
  gchar got[64];
  gsize got_len;
  gboolean pause_once;
} Probe;

static void
bump (Probe *p, guint *counter)
{
  g_mutex_lock (&p->lock);
  (*counter)++;
  g_cond_broadcast (&p->changed);
  g_mutex_unlock (&p->lock);
}

static void
barrier_run (SlIoTask *task)
{
  Probe *p = G_STRUCT_MEMBER_P (task, -G_STRUCT_OFFSET (Probe, barrier));
  bump (p, &p->barrier_runs);
}

static void
stop_run (SlIoTask *task)
{
  Probe *p = G_STRUCT_MEMBER_P (task, -G_STRUCT_OFFSET (Probe, stop));
  sl_io_worker_unwatch (&p->watch);
  bump (p, &p->stop_runs);
}

/* Waits until *counter reaches n; FALSE when the deadline passed first. */
static gboolean
probe_wait (Probe *p, guint *counter, guint n)
{
  gint64 deadline = g_get_monotonic_time () + DEADLINE_US;
  g_mutex_lock (&p->lock);
  while (*counter < n && g_cond_wait_until (&p->changed, &p->lock, deadline))
    ;
  gboolean reached = *counter >= n;
  g_mutex_unlock (&p->lock);
  return reached;
}

/* A pipe whose reading end the probe watches. */
static void
probe_start (Probe *p, gint *fds, SlIoReady ready, SlIoTaskFunc task)
{
  g_assert_cmpint (pipe2 (fds, O_CLOEXEC | O_NONBLOCK), ==, 0);
  p->watch.fd = fds[0];
  p->watch.ready = ready;
  p->task.func = task;
  p->barrier.func = barrier_run;
  p->stop.func = stop_run;
  g_mutex_init (&p->lock);
  g_cond_init (&p->changed);
  g_assert_true (sl_io_worker_watch (sl_io_worker_pick (), &p->watch, EPOLLIN));
}

/* The probe lives on the test's stack: the worker lets go of it first. */
static void
probe_finish (Probe *p, gint *fds)
{
  sl_io_worker_post (p->watch.worker, &p->stop);
  g_assert_true (probe_wait (p, &p->stop_runs, 1));
  close (fds[0]);
  close (fds[1]);
  g_mutex_clear (&p->lock);
  g_cond_clear (&p->changed);
}

static void
read_ready (SlIoWatch *watch, guint32 events)
{
  Probe *p = (Probe *) watch;
  g_mutex_lock (&p->lock);
  gssize n = read (watch->fd, p->got + p->got_len, sizeof p->got - 1 - p->got_len);
  if (n > 0)
    p->got_len += n;
  p->ready_thread = g_thread_self ();
  p->ready_calls++;
  g_cond_broadcast (&p->changed);
  g_mutex_unlock (&p->lock);
}

static void
test_watch_reports_on_worker (void)
{
  gint fds[2];
  Probe p = { 0 };
  probe_start (&p, fds, read_ready, NULL);
  g_assert_cmpint (write (fds[1], "hello", 5), ==, 5);
  g_assert_true (probe_wait (&p, &p.ready_calls, 1));
  g_mutex_lock (&p.lock);
  g_assert_cmpstr (p.got, ==, "hello");
  g_assert_true (p.ready_thread != g_thread_self ());
  g_mutex_unlock (&p.lock);
  probe_finish (&p, fds);
}

static void
count_run (SlIoTask *task)
{
  Probe *p = G_STRUCT_MEMBER_P (task, -G_STRUCT_OFFSET (Probe, task));
  bump (p, &p->task_runs);
}

/* Posted twice from the worker during a batch of events: tasks run after
 * the batch, so both posts find it queued. */
static void
post_twice_ready (SlIoWatch *watch, guint32 events)
{
  Probe *p = (Probe *) watch;
  gchar c;
  if (read (watch->fd, &c, 1) != 1)
    return;
  sl_io_worker_post (watch->worker, &p->task);
  sl_io_worker_post (watch->worker, &p->task);
  read_ready (watch, events);
}

/* Tasks run in the order they were posted: once the barrier ran, a
 * second run of the task would have happened. */
static void
test_task_runs_once (void)
{
  gint fds[2];
  Probe p = { 0 };
  probe_start (&p, fds, post_twice_ready, count_run);
  g_assert_cmpint (write (fds[1], "a", 1), ==, 1);
  g_assert_true (probe_wait (&p, &p.task_runs, 1));
  sl_io_worker_post (p.watch.worker, &p.barrier);
  g_assert_true (probe_wait (&p, &p.barrier_runs, 1));
  g_mutex_lock (&p.lock);
  g_assert_cmpuint (p.task_runs, ==, 1);
  g_mutex_unlock (&p.lock);
  probe_finish (&p, fds);
}

/* The first report pauses without reading; the task resumes, and the
 * byte still waiting is reported again. */
static void
pause_first_ready (SlIoWatch *watch, guint32 events)
{
  Probe *p = (Probe *) watch;
  if (p->pause_once)
    {
      p->pause_once = FALSE;
      sl_io_worker_pause (watch);
      sl_io_worker_post (watch->worker, &p->task);
      return;
    }
  read_ready (watch, events);
}

static void
resume_run (SlIoTask *task)
{
  Probe *p = G_STRUCT_MEMBER_P (task, -G_STRUCT_OFFSET (Probe, task));
  sl_io_worker_resume (&p->watch);
  count_run (task);
}

static void
test_pause_and_resume (void)
{
  gint fds[2];
  Probe p = { .pause_once = TRUE };
  probe_start (&p, fds, pause_first_ready, resume_run);
  g_assert_cmpint (write (fds[1], "z", 1), ==, 1);
  g_assert_true (probe_wait (&p, &p.ready_calls, 1));
  g_mutex_lock (&p.lock);
  g_assert_cmpuint (p.task_runs, ==, 1);
  g_assert_cmpstr (p.got, ==, "z");
  g_mutex_unlock (&p.lock);
  probe_finish (&p, fds);
}

static void
expired (SlIoWatch *watch)
{
  Probe *p = (Probe *) watch;
  g_mutex_lock (&p->lock);
  p->expired_thread = g_thread_self ();
  g_mutex_unlock (&p->lock);
  bump (p, &p->expired_runs);
}

/* A watch with nothing to read is told once its deadline passed, on
 * its worker, even though the worker had no other reason to wake. */
static void
test_deadline_expires (void)
{
  gint fds[2];
  Probe p = { 0 };
  probe_start (&p, fds, read_ready, NULL);
  sl_io_worker_set_deadline (&p.watch, g_get_monotonic_time () + 20 * 1000, expired);
  g_assert_true (probe_wait (&p, &p.expired_runs, 1));
  sl_io_worker_post (p.watch.worker, &p.barrier);
  g_assert_true (probe_wait (&p, &p.barrier_runs, 1));
  g_mutex_lock (&p.lock);
  g_assert_cmpuint (p.expired_runs, ==, 1);
  g_assert_cmpuint (p.ready_calls, ==, 0);
  g_assert_true (p.expired_thread != NULL && p.expired_thread != g_thread_self ());
  g_mutex_unlock (&p.lock);
  probe_finish (&p, fds);
}

/* On the worker: a deadline already passed, then the watch goes; the
 * worker looks at deadlines after its tasks, so by the time a task posted
 * later ran, an expiry would have been called. */
static void
deadline_then_unwatch (SlIoTask *task)
{
  Probe *p = G_STRUCT_MEMBER_P (task, -G_STRUCT_OFFSET (Probe, task));
  sl_io_worker_set_deadline (&p->watch, g_get_monotonic_time () - 1, expired);
  sl_io_worker_unwatch (&p->watch);
  count_run (task);
}

static void
test_deadline_dies_with_watch (void)
{
  gint fds[2];
  Probe p = { 0 };
  probe_start (&p, fds, read_ready, deadline_then_unwatch);
  sl_io_worker_post (p.watch.worker, &p.task);
  g_assert_true (probe_wait (&p, &p.task_runs, 1));
  sl_io_worker_post (p.watch.worker, &p.barrier);
  g_assert_true (probe_wait (&p, &p.barrier_runs, 1));
  g_mutex_lock (&p.lock);
  g_assert_cmpuint (p.expired_runs, ==, 0);
  g_mutex_unlock (&p.lock);
  probe_finish (&p, fds);
}

static void
count_notify (gpointer data)
{
  (*(guint *) data)++;
}

static void
test_window_arm_and_notify (void)
{
  guint calls = 0;
  SlWindow *w = sl_window_new (2);
  sl_window_set_notify (w, count_notify, &calls);
  g_assert_false (sl_window_arm (w));
  sl_window_take (w, 2);
  g_assert_true (sl_window_arm (w));
  sl_window_release (w, 1);
  g_assert_cmpuint (calls, ==, 1);
  /* not armed again: room that comes is not told */
  sl_window_release (w, 1);
  g_assert_cmpuint (calls, ==, 1);

  sl_window_take (w, 3);
  g_assert_true (sl_window_arm (w));
  sl_window_release (w, 1);
  g_assert_cmpuint (calls, ==, 1);   /* still full */
  sl_window_release (w, 1);
  g_assert_cmpuint (calls, ==, 2);

  sl_window_take (w, 1);
  g_assert_true (sl_window_arm (w));
  sl_window_set_notify (w, NULL, NULL);
  sl_window_release (w, 2);
  g_assert_cmpuint (calls, ==, 2);
  sl_window_unref (w);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  sl_io_workers_set_count (2);
  g_test_add_func ("/io-worker/watch-reports-on-worker", test_watch_reports_on_worker);
  g_test_add_func ("/io-worker/task-runs-once", test_task_runs_once);
  g_test_add_func ("/io-worker/pause-and-resume", test_pause_and_resume);
  g_test_add_func ("/io-worker/deadline-expires", test_deadline_expires);
  g_test_add_func ("/io-worker/deadline-dies-with-watch", test_deadline_dies_with_watch);
  g_test_add_func ("/window/arm-and-notify", test_window_arm_and_notify);
  return g_test_run ();
}
