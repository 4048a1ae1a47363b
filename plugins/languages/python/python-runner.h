/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A thread of a driver's own that makes its Python calls, so that the
 * thread the core gave the driver can stop waiting for a call that does
 * not return. A job runs with the GIL and the runner's lock held; it lets
 * go of the lock around each Python call (py_runner_pause), and when
 * py_runner_resume() says the driver gave up meanwhile it returns at once,
 * touching nothing of the driver's or the job's again. */
#ifndef PYTHON_RUNNER_H
#define PYTHON_RUNNER_H

#include "python-embed.h"

/* How long a call may go on once the daemon stops or reloads. */
#define PY_STOP_GRACE_US (2 * G_USEC_PER_SEC)

typedef struct _PyRunner PyRunner;
typedef void (*PyRunnerJob) (PyRunner *runner, gpointer job);

PyRunner *py_runner_new     (const gchar *name);
/* Runs func (runner, job) on the runner's thread and waits. Once
 * stopping() (asked about once a second) has said TRUE for
 * PY_STOP_GRACE_US, gives up on the runner: FALSE, and every later run is
 * refused at once. */
typedef gboolean (*PyRunnerStopping) (gpointer data);
gboolean  py_runner_run     (PyRunner *r, PyRunnerJob func, gpointer job, PyRunnerStopping stopping,
                             gpointer stopping_data);
gboolean  py_runner_given_up (PyRunner *r);
/* Inside a job, around a Python call that may block. */
void      py_runner_pause   (PyRunner *r);
gboolean  py_runner_resume  (PyRunner *r);
/* callable(arg) (arg may be NULL) with the lock let go: *result is its
 * new reference, or NULL with the exception pending. FALSE when the driver
 * gave up meanwhile: the job must return at once. */
gboolean  py_runner_call    (PyRunner *r, PyObject *callable, PyObject *arg, PyObject **result);
/* Ends the thread (joined unless given up: then it ends on its own). */
void      py_runner_free    (PyRunner *r);

#endif
