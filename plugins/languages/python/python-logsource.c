/* SPDX-License-Identifier: GPL-2.0-or-later */
/* syslogng.LogSource: the base class of python() sources, whose
 * post_message(msg) waits (without the GIL) for a place in the source's
 * window and posts the message into the source's paths. */
#include "python-source.h"
#include "python-logmsg.h"
#include "python-module.h"
#include <structmember.h>


/* Called from run(), on the runner, while its job let go of the lock. */
static PyObject *
logsource_post (PyLogSource *self, PyObject *args, PyObject *kwargs)
{
  static char *kwlist[] = { "msg", NULL };
  PyObject *pymsg;

  if (!PyArg_ParseTupleAndKeywords (args, kwargs, "O", kwlist, &pymsg))
    return NULL;
  if (!self->runner)
    return PyErr_Format (PyExc_RuntimeError, "post_message must be called from main thread");
  if (!py_runner_resume (self->runner))
    {
      py_runner_pause (self->runner);
      return PyErr_Format (PyExc_RuntimeError, "the source was stopped");
    }
  PyObject *error = NULL;
  PySource *d = self->driver;
  PyObject *bookmark = ((PyLogMessage *) pymsg)->bookmark;
  if (!d || g_thread_self () != d->run_thread)
    error = PyExc_RuntimeError;
  else if (!py_logmsg_check (pymsg))
    error = PyExc_TypeError;
  else if (bookmark && !d->tracker)
    error = PyExc_LookupError;
  if (error)
    {
      py_runner_pause (self->runner);
      return PyErr_Format (error == PyExc_LookupError ? PyExc_RuntimeError : error, "%s",
                           error == PyExc_TypeError ? "LogMessage expected in the first parameter"
                           : error == PyExc_LookupError
                           ? "Bookmarks can not be used without creating an AckTracker instance (self.ack_tracker)"
                           : "post_message must be called from main thread");
    }
  gboolean tracked = bookmark != NULL;
  gboolean room;
  Py_BEGIN_ALLOW_THREADS
  room = tracked ? py_flow_wait (d->flow) : sl_window_wait (d->window);
  Py_END_ALLOW_THREADS
  if (room)
    {
      SlMessage *msg = py_logmsg_for_source ((PyLogMessage *) pymsg, d->source);
      if (tracked)
        py_ack_tracker_track (d->tracker, d->flow, bookmark, msg);
      else
        sl_message_bind_window (msg, d->window);
      Py_BEGIN_ALLOW_THREADS
      sl_source_post (d->source, &msg, 1);
      Py_END_ALLOW_THREADS
    }
  py_runner_pause (self->runner);
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

gboolean
py_logsource_check (PyObject *obj)
{
  return PyObject_TypeCheck (obj, &logsource_type);
}
