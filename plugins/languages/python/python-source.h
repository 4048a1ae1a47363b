/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the python() source driver and its LogSource type share: the
 * driver's state, which post_message() reads, and the Python object of a
 * LogSource. */
#ifndef PYTHON_SOURCE_H
#define PYTHON_SOURCE_H

#include "python-ack-tracker.h"
#include "python-life.h"
#include "core/route/source.h"
#include "core/message/window.h"

/* tracked messages each have a window of one: this many may be in flight */
#define TRACKED_WINDOW 100

typedef struct _PySource PySource;

typedef struct
{
  PyObject_HEAD
  PySource *driver;        /* while run() runs, else NULL; touched only with its runner's lock */
  PyRunner *runner;        /* the thread run() runs on */
  char *persist_name;
} PyLogSource;

struct _PySource
{
  SlDriver super;
  PyDriverBase base;
  PyLife life;             /* its runner: the thread run() runs on */
  SlSource *source;
  SlWindow *window;
  PyFlow *flow;
  GThread *thread;         /* ours: waits for run() on the runner, at most PY_STOP_GRACE_US once stopping */
  GThread *run_thread;     /* the runner's, where post_message() may be called */
  GMutex lock;
  gboolean stopping;
  gboolean running;        /* run() may be asked to return */
  PyObject *tracker;
  PyObject *parse_options;
};

/* Whether obj is a LogSource (of a subclass of it). */
gboolean py_logsource_check (PyObject *obj);

#endif
