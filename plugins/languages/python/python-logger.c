/* SPDX-License-Identifier: GPL-2.0-or-later */
/* syslogng.Logger: a plugin's own lines into internal(). */
#include "python-module.h"
#include "core/internal.h"

typedef struct
{
  PyObject_HEAD
} PyLogger;

static PyObject *
logger_log (SlLogLevel level, PyObject *args)
{
  const gchar *text;

  if (!PyArg_ParseTuple (args, "s", &text))
    return NULL;
  sl_log (level, "%s", text);
  Py_RETURN_NONE;
}

static PyObject *logger_error   (PyObject *self, PyObject *args) { return logger_log (SL_LOG_ERROR, args); }
static PyObject *logger_warning (PyObject *self, PyObject *args) { return logger_log (SL_LOG_WARNING, args); }
static PyObject *logger_info    (PyObject *self, PyObject *args) { return logger_log (SL_LOG_INFO, args); }
static PyObject *logger_debug   (PyObject *self, PyObject *args) { return logger_log (SL_LOG_DEBUG, args); }

static PyMethodDef logger_methods[] = {
  { "error", logger_error, METH_VARARGS, "log an error" },
  { "warning", logger_warning, METH_VARARGS, "log a warning" },
  { "info", logger_info, METH_VARARGS, "log at info" },
  { "debug", logger_debug, METH_VARARGS, "log at debug" },
  { "trace", logger_debug, METH_VARARGS, "log at debug (Sluice has no trace level)" },
  { NULL }
};

static PyTypeObject logger_type = {
  PyVarObject_HEAD_INIT (NULL, 0)
  .tp_name = "_syslogng.Logger",
  .tp_basicsize = sizeof (PyLogger),
  .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
  .tp_doc = "writes into the daemon's internal() messages",
  .tp_new = PyType_GenericNew,
  .tp_methods = logger_methods,
};

gboolean
py_logger_add (PyObject *module)
{
  if (PyType_Ready (&logger_type) < 0)
    return FALSE;
  Py_INCREF (&logger_type);
  return PyModule_AddObject (module, "Logger", (PyObject *) &logger_type) == 0;
}
