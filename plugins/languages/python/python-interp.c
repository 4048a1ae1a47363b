/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "python-interp.h"
#include "python-module.h"
#include "python-options.h"
#include "core/compile/config.h"
#include "core/config/error.h"
#include "core/config/install-dirs.h"
#include "core/config/syntax-version.h"
#include "core/i18n.h"
#include "core/internal.h"
#include <dlfcn.h>
#include <string.h>

static GMutex prepare_lock;
static gboolean started;
/* the configuration whose python {} code _syslogng_main holds, and that
 * code: a configuration made at the same address with the same code need
 * not run it again */
static gconstpointer prepared_cfg;
static gchar *prepared_code;

/* Sluice's own module folder (the syslogng package) comes before
 * PYTHONPATH, as syslog-ng puts its own before the user's; syslog-ng's
 * python/ folder under module-install-dir comes next, so that the
 * syslogng package extends into its syslogng.modules. */
static void
set_module_path (void)
{
  const gchar *user = g_getenv ("PYTHONPATH");
  const gchar *own = g_getenv ("SLUICE_PYTHON_DIR");
  g_autofree gchar *theirs = g_build_filename (sl_cfg_module_install_dir (), "python", NULL);
  GString *path = g_string_new (own && *own ? own : SLUICE_PYTHON_DIR);

  if (g_file_test (theirs, G_FILE_TEST_IS_DIR))
    g_string_append_printf (path, ":%s", theirs);
  if (user && *user)
    g_string_append_printf (path, ":%s", user);
  g_setenv ("PYTHONPATH", path->str, TRUE);
  g_string_free (path, TRUE);
}

/* The plugin is loaded with its libpython local to it, where Python's C
 * extension modules (_contextvars, _decimal, ...) do not find the
 * interpreter's symbols; libpython is made global before they load. */
static void
make_libpython_global (void)
{
  Dl_info info;

  if (dladdr ((gpointer) Py_InitializeEx, &info) && info.dli_fname)
    dlopen (info.dli_fname, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);
}

static void
start_interpreter (void)
{
  make_libpython_global ();
  set_module_path ();
  py_module_register ();
  Py_InitializeEx (0);
  py_module_ready ();
  /* drivers' threads take the GIL when they call into Python */
  PyEval_SaveThread ();
  started = TRUE;
}

static gchar *
collect_code (SlConfig *cfg, GPtrArray *blocks)
{
  const SlCfgNode *tree = sl_config_tree (cfg);
  GString *all = g_string_new (NULL);

  for (guint i = 0; tree && tree->children && i < tree->children->len; i++)
    {
      const SlCfgNode *node = g_ptr_array_index (tree->children, i);
      if (!g_str_equal (node->name, "python") || !node->args || node->args->len != 1)
        continue;
      const SlCfgArg *code = g_ptr_array_index (node->args, 0);
      g_ptr_array_add (blocks, (gpointer) code);
      g_string_append (all, code->value);
      g_string_append_c (all, '\0');
    }
  return g_string_free (all, FALSE);
}

/* The traceback of the pending exception as text (the exception is kept). */
static gchar *
format_exception (void)
{
  PyObject *type, *value, *tb;
  GString *out = g_string_new (NULL);

  PyErr_Fetch (&type, &value, &tb);
  PyErr_NormalizeException (&type, &value, &tb);
  PyObject *traceback = PyImport_ImportModule ("traceback");
  PyObject *lines = traceback ? PyObject_CallMethod (traceback, "format_exception", "OOO", type,
                                                     value ? value : Py_None, tb ? tb : Py_None)
                              : NULL;
  for (Py_ssize_t i = 0; lines && i < PyList_Size (lines); i++)
    {
      const gchar *line = PyUnicode_AsUTF8 (PyList_GetItem (lines, i));
      if (line)
        g_string_append (out, line);
    }
  if (!lines)
    g_string_append (out, "(no traceback)");
  Py_XDECREF (lines);
  Py_XDECREF (traceback);
  PyErr_Clear ();
  PyErr_Restore (type, value, tb);
  while (out->len && out->str[out->len - 1] == '\n')
    g_string_truncate (out, out->len - 1);
  return g_string_free (out, FALSE);
}

/* Each block is compiled under the configuration file's name, with as many
 * newlines in front as lines before it there, so that a traceback names
 * the file and line the code was written at. */
static gboolean
run_blocks (GPtrArray *blocks, GError **error)
{
  PyObject *modules = PyImport_GetModuleDict ();

  if (PyDict_DelItemString (modules, "_syslogng_main") < 0)
    PyErr_Clear ();
  PyObject *module = PyImport_AddModule ("_syslogng_main");
  if (!module)
    {
      g_autofree gchar *text = format_exception ();
      PyErr_Clear ();
      g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE, "%s", text);
      return FALSE;
    }
  PyObject *dict = PyModule_GetDict (module);
  if (!PyDict_GetItemString (dict, "__builtins__"))
    PyDict_SetItemString (dict, "__builtins__", PyEval_GetBuiltins ());
  for (guint i = 0; i < blocks->len; i++)
    {
      const SlCfgArg *code = g_ptr_array_index (blocks, i);
      g_autoptr (GString) text = g_string_new (NULL);
      for (gint line = 1; line < code->pos.line; line++)
        g_string_append_c (text, '\n');
      g_string_append (text, code->value);
      PyObject *compiled = Py_CompileString (text->str, code->pos.file, Py_file_input);
      PyObject *result = compiled ? PyEval_EvalCode (compiled, dict, dict) : NULL;
      Py_XDECREF (compiled);
      if (!result)
        {
          g_autofree gchar *trace = format_exception ();
          PyErr_Clear ();
          sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, code->pos, _("the python {} block failed:\n%s"), trace);
          return FALSE;
        }
      Py_DECREF (result);
    }
  return TRUE;
}

gboolean
py_interp_start (GError **error)
{
  g_mutex_lock (&prepare_lock);
  if (!started)
    start_interpreter ();
  g_mutex_unlock (&prepare_lock);
  return TRUE;
}

gboolean
py_interp_prepare (SlConfig *cfg, const SlDriver *driver, GError **error)
{
  g_autoptr (GPtrArray) blocks = g_ptr_array_new ();
  g_autofree gchar *code = collect_code (cfg, blocks);
  gboolean ok = TRUE;

  g_mutex_lock (&prepare_lock);
  if (!started)
    start_interpreter ();
  if (prepared_cfg != cfg || g_strcmp0 (prepared_code, code) != 0)
    {
      PyGILState_STATE gil = PyGILState_Ensure ();
      ok = run_blocks (blocks, error);
      PyGILState_Release (gil);
      g_free (prepared_code);
      prepared_code = ok ? g_steal_pointer (&code) : NULL;
      prepared_cfg = ok ? cfg : NULL;
    }
  g_mutex_unlock (&prepare_lock);
  return ok;
}

void
py_driver_log_exception (PyDriverBase *base, PyCallKind kind, const gchar *what)
{
  if (!PyErr_Occurred ())
    return;
  if (base->logged & (1u << kind))
    {
      base->suppressed++;
      PyErr_Clear ();
      return;
    }
  base->logged |= 1u << kind;
  g_autofree gchar *trace = format_exception ();
  PyErr_Clear ();
  sl_log (SL_LOG_ERROR, _("python %s: %s raised an exception (logged once; later ones of %s are only counted): "
                          "class='%s'\n%s"),
          base->id, what, what, base->class_name ? base->class_name : "", trace);
}

static gboolean
import_loaders (PyDriverBase *base)
{
  for (guint i = 0; base->loaders && i < base->loaders->len; i++)
    {
      PyObject *module = PyImport_ImportModule (g_ptr_array_index (base->loaders, i));
      if (!module)
        {
          py_driver_log_exception (base, PY_CALL_LOOKUP, "importing loaders()");
          return FALSE;
        }
      Py_DECREF (module);
    }
  return TRUE;
}

/* class("module.sub.Class"): the module part imported; a bare name is a
 * class of the python {} code, as syslog-ng resolves it. */
static PyObject *
resolve_class (const gchar *name)
{
  const gchar *dot = strrchr (name, '.');
  g_autofree gchar *module_name = dot ? g_strndup (name, dot - name) : g_strdup ("_syslogng_main");
  PyObject *module = PyImport_ImportModule (module_name);

  if (!module)
    return NULL;
  PyObject *klass = PyObject_GetAttrString (module, dot ? dot + 1 : name);
  Py_DECREF (module);
  return klass;
}

PyObject *
py_driver_instantiate (PyDriverBase *base)
{
  if (!import_loaders (base))
    return NULL;
  PyObject *klass = resolve_class (base->class_name);
  if (!klass)
    {
      py_driver_log_exception (base, PY_CALL_LOOKUP, "looking up class()");
      return NULL;
    }
  PyObject *instance = PyObject_CallNoArgs (klass);
  Py_DECREF (klass);
  if (!instance)
    py_driver_log_exception (base, PY_CALL_LOOKUP, "making an instance of class()");
  return instance;
}

PyObject *
py_driver_options_dict (const PyDriverBase *base)
{
  PyObject *dict = PyDict_New ();
  const GPtrArray *args = base->options ? base->options->args : NULL;

  for (guint i = 0; dict && args && i < args->len; i++)
    {
      const SlCfgArg *a = g_ptr_array_index (args, i);
      const SlCfgArg *value = a;
      const gchar *key = a->key;

      if (!key)
        {
          if (i + 1 >= args->len)
            break;
          key = a->value;
          value = g_ptr_array_index (args, ++i);
        }
      g_autofree gchar *normal = g_strdelimit (g_strdup (key), "-", '_');
      PyObject *v = py_option_value (value, base->typed_options);
      if (!v || PyDict_SetItemString (dict, normal, v) < 0)
        Py_CLEAR (dict);
      Py_XDECREF (v);
    }
  return dict;
}

gboolean
py_call_optional (PyDriverBase *base, PyCallKind kind, PyObject *obj, const gchar *name, PyObject *arg,
                  PyObject **result)
{
  *result = NULL;
  PyObject *method = PyObject_GetAttrString (obj, name);
  if (!method)
    {
      PyErr_Clear ();
      return TRUE;
    }
  *result = arg ? PyObject_CallOneArg (method, arg) : PyObject_CallNoArgs (method);
  Py_DECREF (method);
  if (*result)
    return TRUE;
  g_autofree gchar *what = g_strdup_printf ("%s()", name);
  py_driver_log_exception (base, kind, what);
  return FALSE;
}

/* loaders() and class()'s module are imported on the thread that loads
 * the configuration, Python's main thread, as syslog-ng imports them:
 * module code may do what only the main thread can (4.8's s3 module
 * sets a signal handler). A failure here is left to the driver's own
 * import, which logs it where the driver handles it. */
static void
import_on_main_thread (PyDriverBase *base)
{
  const gchar *dot = strrchr (base->class_name, '.');
  g_autofree gchar *module_name = dot ? g_strndup (base->class_name, dot - base->class_name) : NULL;
  PyGILState_STATE gil = PyGILState_Ensure ();

  for (guint i = 0; base->loaders && i < base->loaders->len; i++)
    {
      PyObject *module = PyImport_ImportModule (g_ptr_array_index (base->loaders, i));
      Py_XDECREF (module);
      PyErr_Clear ();
    }
  PyObject *module = module_name ? PyImport_ImportModule (module_name) : NULL;
  Py_XDECREF (module);
  PyErr_Clear ();
  PyGILState_Release (gil);
}

/* Python's logging goes into internal() under a 4.x configuration, as
 * syslog-ng 4's syslogng package sends it, and is left alone under 3.x. */
static void
route_logging (PyDriverBase *base)
{
  PyGILState_STATE gil = PyGILState_Ensure ();
  PyObject *package = PyImport_ImportModule ("syslogng");
  PyObject *result = package ? PyObject_CallMethod (package, "_route_logging", "O",
                                                    base->typed_options ? Py_True : Py_False)
                             : NULL;
  if (!result)
    py_driver_log_exception (base, PY_CALL_LOOKUP, "routing Python's logging");
  Py_XDECREF (result);
  Py_XDECREF (package);
  PyGILState_Release (gil);
}

gboolean
py_driver_init (PyDriverBase *base, SlDriver *driver, GError **error)
{
  base->id = driver->id;
  base->typed_options = sl_cfg_compiling_version_4 ();
  if (!base->class_name || !*base->class_name)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, driver->pos,
                        _("%s() needs class(\"module.Class\"): the Python class to run"), driver->klass->name);
      return FALSE;
    }
  if (!py_interp_prepare (driver->cfg, driver, error))
    return FALSE;
  route_logging (base);
  import_on_main_thread (base);
  return TRUE;
}
