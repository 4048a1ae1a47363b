/* SPDX-License-Identifier: GPL-2.0-or-later */
/* python() parser: parse(self, msg) on the thread that routes the message,
 * holding the GIL only during the call; True passes the message on. */
#include "python-drivers.h"
#include "python-logmsg.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/internal.h"

typedef struct
{
  SlDriver super;
  PyDriverBase base;
  PyObject *instance;
  PyObject *parse;
} PyParser;

static const SlOptionSpec py_parser_options[] = {
  PY_DRIVER_OPTIONS (PyParser),
  { NULL }
};

static gboolean
py_parser_init (SlDriver *d, GError **error)
{
  PyParser *self = (PyParser *) d;
  if (!py_driver_init (&self->base, d, error))
    return FALSE;

  PyGILState_STATE gil = PyGILState_Ensure ();
  PyObject *instance = py_driver_instantiate (&self->base);
  PyObject *parse = instance ? PyObject_GetAttrString (instance, "parse") : NULL;
  if (instance && !parse)
    PyErr_Clear ();
  gboolean ok = parse && py_driver_call_init (&self->base, instance);
  if (ok)
    {
      self->instance = instance;
      self->parse = parse;
    }
  else
    {
      Py_XDECREF (parse);
      Py_XDECREF (instance);
    }
  PyGILState_Release (gil);
  if (!ok)
    sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos,
                      instance && !parse ? _("python(): class '%s' has no parse() method")
                                         : _("python(): class '%s' could not be made and init()ed (see the log)"),
                      self->base.class_name);
  return ok;
}

static gboolean
py_parser_process (SlDriver *d, SlMessage **msg)
{
  PyParser *self = (PyParser *) d;
  sl_message_make_writable (msg);
  PyGILState_STATE gil = PyGILState_Ensure ();
  PyObject *pymsg = py_logmsg_new (*msg, TRUE);
  PyObject *result = PyObject_CallOneArg (self->parse, pymsg);
  py_logmsg_detach (pymsg);
  Py_DECREF (pymsg);
  gboolean passed = FALSE;
  if (result)
    {
      passed = PyObject_IsTrue (result) == 1;
      Py_DECREF (result);
    }
  else
    py_driver_log_exception (&self->base, PY_CALL_PARSE, "parse()");
  PyGILState_Release (gil);
  return passed;
}

static void
py_parser_free (SlDriver *d)
{
  PyParser *self = (PyParser *) d;
  if (!self->instance)
    return;
  PyGILState_STATE gil = PyGILState_Ensure ();
  PyObject *result;
  py_call_optional (&self->base, PY_CALL_DEINIT, self->instance, "deinit", NULL, &result);
  Py_XDECREF (result);
  Py_CLEAR (self->parse);
  Py_CLEAR (self->instance);
  PyGILState_Release (gil);
}

static const SlParserOps py_parser_ops = { .process = py_parser_process };

const SlDriverClass py_parser_class = {
  .kind = SL_DRIVER_PARSER,
  .name = "python",
  .summary = "parse(self, msg) of a Python class, syslog-ng's python() parser",
  .options = py_parser_options,
  .instance_size = sizeof (PyParser),
  .init = py_parser_init,
  .free = py_parser_free,
  .ops.parser = &py_parser_ops,
};
