/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one life of a python() driver's instance, whatever its kind: made,
 * its methods checked and init(options) called the first time it is
 * needed, deinit() called and its references dropped when the driver is
 * freed. The calls run on the driver's runner (destination, source,
 * fetcher: a call that does not return cannot hold a stop or a reload) or,
 * without one (parser), on the caller's thread with the GIL held. */
#ifndef PYTHON_LIFE_H
#define PYTHON_LIFE_H

#include "python-interp.h"
#include "python-runner.h"

/* What the functions below return when the runner was given up on
 * meanwhile: the job returns at once, touching nothing of the driver's. */
#define PY_GAVE_UP (-1)

typedef struct
{
  PyDriverBase *base;
  const gchar *kind;       /* the driver's word, for the log: python, python-fetcher */
  PyRunner *runner;        /* NULL: calls on the caller's thread */
  PyObject *instance;      /* once init() returned true: deinit() is due */
} PyLife;

/* For a driver's init: class() checked, the interpreter started, and with
 * a thread_name a runner of that name. */
gboolean  py_life_init (PyLife *life, PyDriverBase *base, SlDriver *driver, const gchar *thread_name,
                        GError **error);

/* What a driver checks and sets on a new instance before its init(); FALSE
 * (logged) refuses it. */
typedef gboolean (*PyLifePrepare) (gpointer driver, PyObject *instance);

/* The instance made, the methods of required (NULL-terminated) present,
 * prepare (may be NULL) and init(options) called: TRUE, FALSE (logged) or
 * PY_GAVE_UP. Once TRUE, life->instance is set and this returns TRUE at
 * once. */
gint      py_life_make (PyLife *life, const gchar *const *required, PyLifePrepare prepare, gpointer driver);

/* obj.name(arg) if obj has it (arg may be NULL): TRUE with *result its new
 * reference, or NULL when there is no such method or it raised (logged as
 * kind); FALSE when the runner was given up on. */
gboolean  py_life_call (PyLife *life, PyObject *obj, PyCallKind kind, const gchar *name, PyObject *arg,
                        PyObject **result);

/* For a driver's free: deinit() (with PY_STOP_GRACE_US on a runner), the
 * runner ended, the instance dropped. */
void      py_life_free (PyLife *life);

#endif
