/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SlIoWorker: the process's fixed set of I/O threads, each an epoll loop
 * over non-blocking descriptors (listening sockets and the connections of
 * every stream source of every configuration). A descriptor is watched by
 * one worker for its whole life, and everything done with it runs there,
 * so a connection's state needs no lock; other threads reach it through
 * tasks posted to its worker. */
#ifndef SL_IO_WORKER_H
#define SL_IO_WORKER_H

#include <glib.h>

G_BEGIN_DECLS

typedef struct _SlIoWorker SlIoWorker;
typedef struct _SlIoWatch SlIoWatch;
typedef struct _SlIoTask SlIoTask;

/* Runs on the worker with the epoll events (EPOLLIN, EPOLLHUP ...) of the
 * descriptor. It may unwatch and free its own watch, no other. */
typedef void (*SlIoReady) (SlIoWatch *watch, guint32 events);
typedef void (*SlIoTaskFunc) (SlIoTask *task);
/* Runs on the worker when a watch's deadline passed; it may unwatch and
 * free its own watch, no other. */
typedef void (*SlIoExpired) (SlIoWatch *watch);

/* Embedded in what the caller watches; fd and ready are the caller's to
 * set, the rest belongs to the worker. */
struct _SlIoWatch
{
  gint fd;
  SlIoReady ready;
  SlIoWorker *worker;
  guint32 events;
  gboolean watched;
  gboolean paused;
  gint64 deadline;          /* see sl_io_worker_set_deadline */
  SlIoExpired expired;
  GList timed;              /* in the worker's list of watches with a deadline */
};

/* Embedded in what the caller posts; func is the caller's to set. */
struct _SlIoTask
{
  SlIoTaskFunc func;
  GList link;
  gboolean queued;
};

/* Sets how many workers the pool starts with; 0 (the default) is one per
 * processor, at most SL_IO_WORKERS_MAX. Only before the first use. */
#define SL_IO_WORKERS_MAX 64
void        sl_io_workers_set_count (guint n);
guint       sl_io_workers_count     (void);

/* The worker that watches the fewest descriptors; the pool starts at the
 * first call and runs until the process exits. */
SlIoWorker *sl_io_worker_pick    (void);
/* From any thread: the worker starts reporting epoll events (level
 * triggered) of watch->fd; events as EPOLLIN, EPOLLOUT. FALSE and errno
 * when epoll refuses. */
gboolean    sl_io_worker_watch   (SlIoWorker *w, SlIoWatch *watch, guint32 events);
/* On the watch's worker (or while its callbacks cannot run): stops the
 * reports. The descriptor stays open. */
void        sl_io_worker_unwatch (SlIoWatch *watch);
/* On the watch's worker: the events reported from now on. */
void        sl_io_worker_modify  (SlIoWatch *watch, guint32 events);
/* From any thread, once watch->worker is set: expired (watch) runs on
 * that worker once the monotonic clock passes deadline (µs), unless the
 * deadline is cleared (0) or the watch unwatched first. For the few
 * watches that wait for something with a limit, such as a handshake:
 * the worker looks at them all before each wait. */
void        sl_io_worker_set_deadline (SlIoWatch *watch, gint64 deadline, SlIoExpired expired);
/* On the watch's worker: reports stop until resume, for a connection
 * that may not read now; it still counts as the worker's. */
void        sl_io_worker_pause   (SlIoWatch *watch);
void        sl_io_worker_resume  (SlIoWatch *watch);
/* From any thread: runs task->func once on the worker, after the events
 * at hand. A task posted again before it ran runs once. */
void        sl_io_worker_post    (SlIoWorker *w, SlIoTask *task);
/* On the worker: a posted task that has not run yet will not. */
void        sl_io_worker_unpost  (SlIoWorker *w, SlIoTask *task);

G_END_DECLS

#endif
