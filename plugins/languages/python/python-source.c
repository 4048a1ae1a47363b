/* SPDX-License-Identifier: GPL-2.0-or-later */
/* python() source: a LogSource class whose run() runs on a thread of the
 * source's own until request_exit(); post_message(msg) waits (without the
 * GIL) for a place in the source's window, so a full window holds run()
 * under flow control. With self.ack_tracker, a message's bookmark goes
 * back to Python once the message was delivered. */
#include "python-drivers.h"
#include "python-source.h"
#include "python-logmsg.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/route/source.h"
#include "core/message/window.h"

static const SlOptionSpec py_source_options[] = {
  PY_DRIVER_OPTIONS (PySource),
  { NULL }
};

static gboolean
py_source_init (SlDriver *d, GError **error)
{
  PySource *self = (PySource *) d;
  g_mutex_init (&self->lock);
  return py_life_init (&self->life, &self->base, d, "python-source", error);
}

/* syslog-ng's: python-source(CLASS), or python-source.NAME when the class
 * has generate_persist_name(options). */
static gchar *
persist_name (PySource *self, PyObject *instance)
{
  PyObject *method = PyObject_GetAttrString (instance, "generate_persist_name");
  if (!method)
    {
      PyErr_Clear ();
      return g_strdup_printf ("python-source(%s)", self->base.class_name);
    }
  PyObject *options = py_driver_options_dict (&self->base);
  PyObject *name = options ? PyObject_CallOneArg (method, options) : NULL;
  Py_XDECREF (options);
  Py_DECREF (method);
  Py_ssize_t len;
  const gchar *text = name ? py_text (name, &len) : NULL;
  gchar *result = text ? g_strdup_printf ("python-source.%s", text)
                       : g_strdup_printf ("python-source(%s)", self->base.class_name);
  if (!text)
    py_driver_log_exception (&self->base, PY_CALL_LOOKUP, "generate_persist_name()");
  Py_XDECREF (name);
  return result;
}

/* Before init(): a LogSource, named as it keeps its state. */
static gboolean
prepare_instance (gpointer driver, PyObject *instance)
{
  PySource *self = driver;
  if (!py_logsource_check (instance))
    {
      sl_log (SL_LOG_ERROR, _("python %s: class '%s' is not a subclass of LogSource"), self->base.id,
              self->base.class_name);
      return FALSE;
    }
  PyLogSource *py = (PyLogSource *) instance;
  g_free (py->persist_name);
  py->persist_name = persist_name (self, instance);
  return TRUE;
}

/* On the runner: the instance made and init()ed, ready to run(): TRUE,
 * FALSE or PY_GAVE_UP. */
static gint
make_instance (PySource *self)
{
  static const gchar *const required[] = { "run", "request_exit", NULL };
  gint made = py_life_make (&self->life, required, prepare_instance, self);
  if (made != TRUE)
    return made;
  PyObject *instance = self->life.instance;
  PyObject *tracker = PyObject_GetAttrString (instance, "ack_tracker");
  if (!tracker)
    PyErr_Clear ();
  else if (!py_ack_tracker_check (tracker))
    {
      sl_log (SL_LOG_ERROR, _("python %s: ack_tracker of class '%s' needs to be an AckTracker"), self->base.id,
              self->base.class_name);
      Py_CLEAR (tracker);
    }
  self->tracker = tracker;
  /* as syslog-ng, once init() returned */
  self->parse_options = py_parse_options_new (self->source);
  if (PyObject_SetAttrString (instance, "parse_options", self->parse_options) < 0)
    PyErr_Clear ();
  return TRUE;
}

static void
run_job (PyRunner *r, gpointer data)
{
  PySource *self = data;
  if (!self->life.instance && make_instance (self) != TRUE)
    return;
  g_mutex_lock (&self->lock);
  self->running = !self->stopping;
  g_mutex_unlock (&self->lock);
  if (!self->running)
    return;
  PyLogSource *py = (PyLogSource *) self->life.instance;
  self->run_thread = g_thread_self ();
  py->driver = self;
  py->runner = r;
  PyObject *run = PyObject_GetAttrString (self->life.instance, "run");
  PyObject *result = NULL;
  gboolean ours = run && py_runner_call (r, run, NULL, &result);
  Py_XDECREF (run);
  if (!ours)
    return;
  if (!result)
    py_driver_log_exception (&self->base, PY_CALL_RUN, "run()");
  Py_XDECREF (result);
  py->driver = NULL;
  py->runner = NULL;
}

static gboolean
source_stopping (gpointer data)
{
  PySource *self = data;
  g_mutex_lock (&self->lock);
  gboolean stopping = self->stopping;
  g_mutex_unlock (&self->lock);
  return stopping;
}

/* run() goes on until request_exit(); once the source stops, it gets
 * PY_STOP_GRACE_US to return. */
static gpointer
source_thread (gpointer data)
{
  PySource *self = data;
  if (!py_runner_run (self->life.runner, run_job, self, source_stopping, self))
    sl_log (SL_LOG_ERROR, _("python %s: run() of class '%s' did not return within %d s of request_exit(); "
                            "given up on"), self->base.id, self->base.class_name,
            (gint) (PY_STOP_GRACE_US / G_USEC_PER_SEC));
  return NULL;
}

static gboolean
py_source_start (SlDriver *d, SlSource *source, GError **error)
{
  PySource *self = (PySource *) d;
  self->source = source;
  self->window = sl_source_new_window (source);
  self->flow = py_flow_new (TRACKED_WINDOW);
  self->stopping = FALSE;
  self->running = FALSE;
  self->thread = g_thread_new ("python-source", source_thread, self);
  return TRUE;
}

static void
py_source_stop (SlDriver *d)
{
  PySource *self = (PySource *) d;
  if (!self->thread)
    return;
  g_mutex_lock (&self->lock);
  self->stopping = TRUE;
  gboolean running = self->running;
  g_mutex_unlock (&self->lock);
  sl_window_cancel (self->window);
  py_flow_cancel (self->flow);
  PyGILState_STATE gil = PyGILState_Ensure ();
  PyObject *result = NULL;
  if (running)
    py_call_optional (&self->base, PY_CALL_RUN, self->life.instance, "request_exit", NULL, &result);
  Py_XDECREF (result);
  PyGILState_Release (gil);
  g_thread_join (self->thread);
  self->thread = NULL;
  gil = PyGILState_Ensure ();
  if (self->parse_options)
    py_parse_options_clear (self->parse_options);
  if (self->tracker)
    py_ack_tracker_flush (self->tracker);
  PyGILState_Release (gil);
  sl_window_unref (self->window);
  py_flow_unref (self->flow);
}

static void
py_source_free (SlDriver *d)
{
  PySource *self = (PySource *) d;
  py_life_free (&self->life);
  if (self->parse_options)
    {
      PyGILState_STATE gil = PyGILState_Ensure ();
      Py_CLEAR (self->tracker);
      Py_CLEAR (self->parse_options);
      PyGILState_Release (gil);
    }
  g_mutex_clear (&self->lock);
}

static const SlSourceOps py_source_ops = {
  .start = py_source_start,
  .stop = py_source_stop,
};

const SlDriverClass py_source_class = {
  .kind = SL_DRIVER_SOURCE,
  .name = "python",
  .summary = "messages a Python LogSource's run() posts, syslog-ng's python() source",
  .options = py_source_options,
  .capabilities = SL_CAP_PARSES,
  .instance_size = sizeof (PySource),
  .init = py_source_init,
  .free = py_source_free,
  .ops.source = &py_source_ops,
};
