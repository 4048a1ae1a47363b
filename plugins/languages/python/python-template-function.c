/* SPDX-License-Identifier: GPL-2.0-or-later */
/* $(python FUNCTION ARGS...): FUNCTION(msg, arg, ...) with the arguments
 * rendered as bytes, its str or bytes result put in (under a 4.x
 * configuration also the text of an int, float, bool, None or list, as
 * syslog-ng 4 stores it); "<error>" when it raises or returns something
 * else, as in syslog-ng. FUNCTION is looked up at each call
 * (module.function, or one of the python {} code). */
#include "python-drivers.h"
#include "python-logmsg.h"
#include "python-value.h"
#include "core/config/error.h"
#include "core/config/syntax-version.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/message/template.h"
#include <string.h>

static PyDriverBase tf_errors = { .class_name = "", .id = "$(python)" };

static gboolean
tf_python_prepare (SlTfCall *call, GError **error)
{
  if (call->argc < 1)
    {
      g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE,
                   _("$(python) needs the name of a Python function"));
      return FALSE;
    }
  /* whether the configuration is 4.x: the message is typed, and so is the result */
  call->state = GINT_TO_POINTER (sl_cfg_compiling_version_4 ());
  return py_interp_start (error);
}

static PyObject *
lookup_function (const gchar *name)
{
  const gchar *dot = strrchr (name, '.');
  g_autofree gchar *module_name = dot ? g_strndup (name, dot - name) : g_strdup ("_syslogng_main");
  PyObject *module = PyImport_ImportModule (module_name);
  if (!module)
    return NULL;
  PyObject *func = PyObject_GetAttrString (module, dot ? dot + 1 : name);
  Py_DECREF (module);
  return func;
}

/* str or bytes; typed, also what syslog-ng 4 stores an int, float, bool,
 * None or list as. FALSE with an exception set for anything else. */
static gboolean
append_result (PyObject *result, gboolean typed, GString *out)
{
  if (typed)
    {
      g_autoptr (GString) text = g_string_new (NULL);
      SlValueType type;
      if (!py_value_to_typed (result, text, &type))
        return FALSE;
      g_string_append_len (out, text->str, text->len);
      return TRUE;
    }
  Py_ssize_t len;
  const gchar *text = py_text (result, &len);
  if (text)
    g_string_append_len (out, text, len);
  return text != NULL;
}

static void
tf_python_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  g_autoptr (GString) arg = g_string_new (NULL);
  PyGILState_STATE gil = PyGILState_Ensure ();

  sl_template_append (call->arg_templates[0], msg, env, arg);
  PyObject *func = lookup_function (arg->str);
  PyObject *args = func ? PyTuple_New (call->argc) : NULL;
  PyObject *result = NULL;
  if (args)
    {
      PyTuple_SET_ITEM (args, 0, py_logmsg_new ((SlMessage *) msg, FALSE, GPOINTER_TO_INT (call->state)));
      for (gint i = 1; i < call->argc; i++)
        {
          g_string_truncate (arg, 0);
          sl_template_append (call->arg_templates[i], msg, env, arg);
          PyTuple_SET_ITEM (args, i, PyBytes_FromStringAndSize (arg->str, arg->len));
        }
      result = PyObject_CallObject (func, args);
    }
  if (!result || !append_result (result, GPOINTER_TO_INT (call->state), out))
    {
      py_driver_log_exception (&tf_errors, func ? PY_CALL_TEMPLATE : PY_CALL_LOOKUP,
                               func ? "the template function" : "looking up the template function");
      g_string_append (out, "<error>");
    }
  Py_XDECREF (result);
  Py_XDECREF (args);
  Py_XDECREF (func);
  PyGILState_Release (gil);
}

static const SlTemplateFunctionOps tf_python_ops = {
  .prepare = tf_python_prepare,
  .eval = tf_python_eval,
};

const SlDriverClass py_template_function_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION,
  .name = "python",
  .summary = "$(python FUNCTION ARGS...): the value a Python function returns",
  .ops.template_function = &tf_python_ops,
};
