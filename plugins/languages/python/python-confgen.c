/* SPDX-License-Identifier: GPL-2.0-or-later */
/* syslogng.register_config_generator(context, name, config_generator):
 * syslog-ng 4 calls the function at each reference to name() in context
 * for the configuration text it stands for. Sluice runs a
 * configuration's python {} code after the whole file is read, too late
 * to define a block of it; the generator is refused with a warning, so
 * that name() stays unknown and its use is an error at its place. */
#include "python-module.h"
#include "core/i18n.h"
#include "core/internal.h"

static PyObject *
register_config_generator (PyObject *self, PyObject *args, PyObject *kwargs)
{
  static char *kwlist[] = { "context", "name", "config_generator", NULL };
  static const gchar *const contexts[] = { "source", "destination", "parser", "rewrite", "filter", "log", "root" };
  const gchar *context, *name;
  PyObject *generator;

  if (!PyArg_ParseTupleAndKeywords (args, kwargs, "ssO", kwlist, &context, &name, &generator))
    return NULL;
  if (!g_strv_contains ((const gchar *const *) contexts, context))
    return PyErr_Format (PyExc_ValueError, "unknown context value %s", context);
  if (!PyCallable_Check (generator))
    return PyErr_Format (PyExc_TypeError, "config_generator must be callable");
  sl_log (SL_LOG_WARNING, _("python: the config generator %s %s() is not defined: Sluice does not run Python "
                            "config generators"), context, name);
  Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
  { "register_config_generator", (PyCFunction) (void (*) (void)) register_config_generator,
    METH_VARARGS | METH_KEYWORDS, "register a function that makes a block's configuration text" },
  { NULL }
};

gboolean
py_confgen_add (PyObject *module)
{
  return PyModule_AddFunctions (module, methods) == 0;
}
