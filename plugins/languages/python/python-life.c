/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "python-life.h"
#include "core/i18n.h"
#include "core/internal.h"

gboolean
py_life_init (PyLife *life, PyDriverBase *base, SlDriver *driver, const gchar *thread_name, GError **error)
{
  life->base = base;
  life->kind = driver->klass->name;
  if (!py_driver_init (base, driver, error))
    return FALSE;
  if (thread_name)
    life->runner = py_runner_new (thread_name);
  return TRUE;
}

gboolean
py_life_call (PyLife *life, PyObject *obj, PyCallKind kind, const gchar *name, PyObject *arg, PyObject **result)
{
  if (!life->runner)
    {
      py_call_optional (life->base, kind, obj, name, arg, result);
      return TRUE;
    }
  *result = NULL;
  PyObject *method = PyObject_GetAttrString (obj, name);
  if (!method)
    {
      PyErr_Clear ();
      return TRUE;
    }
  gboolean ours = py_runner_call (life->runner, method, arg, result);
  Py_DECREF (method);
  if (ours && !*result)
    {
      g_autofree gchar *what = g_strdup_printf ("%s()", name);
      py_driver_log_exception (life->base, kind, what);
    }
  return ours;
}

static gboolean
has_methods (PyLife *life, PyObject *instance, const gchar *const *required)
{
  for (; required && *required; required++)
    if (!PyObject_HasAttrString (instance, *required))
      {
        sl_log (SL_LOG_ERROR, _("%s %s: class '%s' has no %s() method"), life->kind, life->base->id,
                life->base->class_name, *required);
        return FALSE;
      }
  return TRUE;
}

/* init(options) if the instance has it: TRUE, FALSE or PY_GAVE_UP. */
static gint
call_init (PyLife *life, PyObject *instance)
{
  gboolean has_init = PyObject_HasAttrString (instance, "init");
  PyObject *options = py_driver_options_dict (life->base);
  PyObject *result;

  if (!options)
    {
      py_driver_log_exception (life->base, PY_CALL_INIT, "making options()");
      return FALSE;
    }
  gboolean ours = py_life_call (life, instance, PY_CALL_INIT, "init", options, &result);
  Py_DECREF (options);
  if (!ours)
    return PY_GAVE_UP;
  if (!has_init)
    return TRUE;
  gboolean ok = result && PyObject_IsTrue (result) == 1;
  if (result && !ok)
    sl_log (SL_LOG_ERROR, _("%s %s: init() of class '%s' returned false"), life->kind, life->base->id,
            life->base->class_name);
  Py_XDECREF (result);
  return ok;
}

gint
py_life_make (PyLife *life, const gchar *const *required, PyLifePrepare prepare, gpointer driver)
{
  if (life->instance)
    return TRUE;
  PyObject *instance = py_driver_instantiate (life->base);
  if (!instance)
    return FALSE;
  gint made = has_methods (life, instance, required) && (!prepare || prepare (driver, instance));
  if (made)
    made = call_init (life, instance);
  if (made == TRUE)
    life->instance = instance;
  else
    Py_DECREF (instance);
  return made;
}

static void
deinit_job (PyRunner *r, gpointer data)
{
  PyLife *life = data;
  PyObject *result;
  if (py_life_call (life, life->instance, PY_CALL_DEINIT, "deinit", NULL, &result))
    Py_XDECREF (result);
}

static gboolean
always_stopping (gpointer unused)
{
  return TRUE;
}

void
py_life_free (PyLife *life)
{
  if (life->runner)
    {
      if (life->instance)
        py_runner_run (life->runner, deinit_job, life, always_stopping, NULL);
      py_runner_free (life->runner);
      life->runner = NULL;
    }
  else if (life->instance)
    {
      PyGILState_STATE gil = PyGILState_Ensure ();
      deinit_job (NULL, life);
      PyGILState_Release (gil);
    }
  if (!life->instance)
    return;
  PyGILState_STATE gil = PyGILState_Ensure ();
  Py_CLEAR (life->instance);
  PyGILState_Release (gil);
}
