/* SPDX-License-Identifier: GPL-2.0-or-later */
/* python() source: a LogSource class whose run() runs on a thread of the
 * source's own until request_exit(); post_message(msg) waits (without the
 * GIL) for a place in the source's window, so a full window holds run()
 * under flow control. With self.ack_tracker, a message's bookmark goes
 * back to Python once the message was delivered. */
#include "python-drivers.h"
#include "python-ack-tracker.h"
#include "python-logmsg.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/source.h"
#include "core/window.h"
#include <structmember.h>

/* tracked messages each have a window of one: this many may be in flight */
#define TRACKED_WINDOW 100

typedef struct _PySource PySource;

typedef struct
{
  PyObject_HEAD
  PySource *driver;        /* while the source runs, else NULL */
  char *persist_name;
} PyLogSource;

struct _PySource
{
  SlDriver super;
  PyDriverBase base;
  SlSource *source;
  SlWindow *window;
  PyFlow *flow;
  GThread *thread;
  GMutex lock;
  gboolean stopping;
  gboolean running;        /* run() may be asked to return */
  PyObject *instance;
  PyObject *tracker;
};

static const SlOptionSpec py_source_options[] = {
  PY_DRIVER_OPTIONS (PySource),
  { NULL }
};

static PyObject *
logsource_post (PyLogSource *self, PyObject *args, PyObject *kwargs)
{
  static char *kwlist[] = { "msg", NULL };
  PyObject *pymsg;
  PySource *d = self->driver;

  if (!PyArg_ParseTupleAndKeywords (args, kwargs, "O", kwlist, &pymsg))
    return NULL;
  if (!d || g_thread_self () != d->thread)
    return PyErr_Format (PyExc_RuntimeError, "post_message must be called from main thread");
  if (!py_logmsg_check (pymsg))
    return PyErr_Format (PyExc_TypeError, "LogMessage expected in the first parameter");
  PyObject *bookmark = ((PyLogMessage *) pymsg)->bookmark;
  if (bookmark && !d->tracker)
    return PyErr_Format (PyExc_RuntimeError,
                         "Bookmarks can not be used without creating an AckTracker instance (self.ack_tracker)");
  gboolean tracked = bookmark != NULL;
  gboolean room;
  Py_BEGIN_ALLOW_THREADS
  room = tracked ? py_flow_wait (d->flow) : sl_window_wait (d->window);
  Py_END_ALLOW_THREADS
  if (!room)
    Py_RETURN_NONE;
  SlMessage *msg = py_logmsg_for_source ((PyLogMessage *) pymsg, d->source);
  if (tracked)
    py_ack_tracker_track (d->tracker, d->flow, bookmark, msg);
  else
    sl_message_bind_window (msg, d->window);
  Py_BEGIN_ALLOW_THREADS
  sl_source_post (d->source, &msg, 1);
  Py_END_ALLOW_THREADS
  Py_RETURN_NONE;
}

static void
logsource_dealloc (PyLogSource *self)
{
  g_free (self->persist_name);
  Py_TYPE (self)->tp_free ((PyObject *) self);
}

static PyMethodDef logsource_methods[] = {
  { "post_message", (PyCFunction) (void (*) (void)) logsource_post, METH_VARARGS | METH_KEYWORDS,
    "post a LogMessage into the source's log paths; waits while the window is full" },
  { NULL }
};

static PyMemberDef logsource_members[] = {
  { "persist_name", T_STRING, offsetof (PyLogSource, persist_name), READONLY, "the name to keep state under" },
  { NULL }
};

static PyTypeObject logsource_type = {
  PyVarObject_HEAD_INIT (NULL, 0)
  .tp_name = "_syslogng.LogSource",
  .tp_basicsize = sizeof (PyLogSource),
  .tp_dealloc = (destructor) logsource_dealloc,
  .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
  .tp_doc = "the base class of python() sources",
  .tp_new = PyType_GenericNew,
  .tp_methods = logsource_methods,
  .tp_members = logsource_members,
};

gboolean
py_logsource_add (PyObject *module)
{
  if (PyType_Ready (&logsource_type) < 0)
    return FALSE;
  Py_INCREF (&logsource_type);
  return PyModule_AddObject (module, "LogSource", (PyObject *) &logsource_type) == 0;
}

static gboolean
py_source_init (SlDriver *d, GError **error)
{
  PySource *self = (PySource *) d;
  g_mutex_init (&self->lock);
  return py_driver_init (&self->base, d, error);
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
  PyObject *name = PyObject_CallOneArg (method, options);
  Py_DECREF (options);
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

static gboolean
has_method (PySource *self, PyObject *instance, const gchar *name)
{
  PyObject *method = PyObject_GetAttrString (instance, name);
  if (method)
    {
      Py_DECREF (method);
      return TRUE;
    }
  PyErr_Clear ();
  sl_log (SL_LOG_ERROR, _("python %s: class '%s' has no %s() method"), self->base.id, self->base.class_name, name);
  return FALSE;
}

/* With the GIL: the instance made and init()ed, ready to run(). */
static gboolean
make_instance (PySource *self)
{
  PyObject *instance = py_driver_instantiate (&self->base);
  if (!instance)
    return FALSE;
  if (!PyObject_TypeCheck (instance, &logsource_type))
    {
      sl_log (SL_LOG_ERROR, _("python %s: class '%s' is not a subclass of LogSource"), self->base.id,
              self->base.class_name);
      Py_DECREF (instance);
      return FALSE;
    }
  PyLogSource *py = (PyLogSource *) instance;
  py->persist_name = persist_name (self, instance);
  if (!has_method (self, instance, "run") || !has_method (self, instance, "request_exit")
      || !py_driver_call_init (&self->base, instance))
    {
      Py_DECREF (instance);
      return FALSE;
    }
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
  self->instance = instance;
  return TRUE;
}

static gpointer
source_thread (gpointer data)
{
  PySource *self = data;
  PyGILState_STATE gil = PyGILState_Ensure ();

  if (self->instance || make_instance (self))
    {
      ((PyLogSource *) self->instance)->driver = self;
      g_mutex_lock (&self->lock);
      self->running = !self->stopping;
      g_mutex_unlock (&self->lock);
      PyObject *result;
      if (self->running)
        py_call_optional (&self->base, PY_CALL_RUN, self->instance, "run", NULL, &result);
      else
        result = NULL;
      Py_XDECREF (result);
    }
  PyGILState_Release (gil);
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
    py_call_optional (&self->base, PY_CALL_RUN, self->instance, "request_exit", NULL, &result);
  Py_XDECREF (result);
  PyGILState_Release (gil);
  g_thread_join (self->thread);
  self->thread = NULL;
  gil = PyGILState_Ensure ();
  if (self->instance)
    ((PyLogSource *) self->instance)->driver = NULL;
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
  if (self->instance)
    {
      PyGILState_STATE gil = PyGILState_Ensure ();
      PyObject *result;
      py_call_optional (&self->base, PY_CALL_DEINIT, self->instance, "deinit", NULL, &result);
      Py_XDECREF (result);
      Py_CLEAR (self->tracker);
      Py_CLEAR (self->instance);
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
