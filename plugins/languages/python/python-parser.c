/* SPDX-License-Identifier: GPL-2.0-or-later */
/* python() parser: parse(self, msg) on the thread that routes the message,
 * holding the GIL only during the call; True passes the message on. */
#include "python-drivers.h"
#include "python-life.h"
#include "python-logmsg.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/internal.h"

typedef struct
{
  SlDriver super;
  PyDriverBase base;
  PyLife life;             /* no runner: parse() runs on the routing thread */
  PyObject *parse;
} PyParser;

static const SlOptionSpec py_parser_options[] = {
  PY_DRIVER_OPTIONS (PyParser),
  { NULL }
};

static gboolean
py_parser_init (SlDriver *d, GError **error)
{
  static const gchar *const required[] = { "parse", NULL };
  PyParser *self = (PyParser *) d;
  if (!py_life_init (&self->life, &self->base, d, NULL, error))
    return FALSE;

  PyGILState_STATE gil = PyGILState_Ensure ();
  gboolean ok = py_life_make (&self->life, required, NULL, NULL) == TRUE;
  if (ok)
    self->parse = PyObject_GetAttrString (self->life.instance, "parse");
  PyGILState_Release (gil);
  if (!ok)
    sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos,
                      _("python(): class '%s' could not be made and init()ed (see the log)"),
                      self->base.class_name);
  return ok;
}

static gboolean
py_parser_process (SlDriver *d, SlMessage **msg)
{
  PyParser *self = (PyParser *) d;
  sl_message_make_writable (msg);
  PyGILState_STATE gil = PyGILState_Ensure ();
  PyObject *pymsg = py_logmsg_new (*msg, TRUE, self->base.typed_options);
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
  if (self->parse)
    {
      PyGILState_STATE gil = PyGILState_Ensure ();
      Py_CLEAR (self->parse);
      PyGILState_Release (gil);
    }
  py_life_free (&self->life);
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
