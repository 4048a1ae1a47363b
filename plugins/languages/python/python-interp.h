/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one CPython interpreter of the daemon: started at the first python()
 * driver, never finalized; the code of a configuration's `python {}`
 * blocks; what every python() driver shares (its class, its options dict,
 * exceptions logged once per kind). Everything taking a PyObject runs with
 * the GIL held (PyGILState_Ensure). */
#ifndef PYTHON_INTERP_H
#define PYTHON_INTERP_H

#include "python-embed.h"
#include "core/plugin/plugin.h"

/* Starts the interpreter once, released; for what needs no configuration. */
gboolean  py_interp_start (GError **error);
/* Starts the interpreter once (then released: no thread holds the GIL),
 * and runs cfg's `python {}` blocks into the module _syslogng_main unless
 * the same code already ran for cfg. Call without the GIL. */
gboolean  py_interp_prepare (SlConfig *cfg, const SlDriver *driver, GError **error);

/* What kind of call raised, so that each kind is logged once per driver. */
typedef enum
{
  PY_CALL_LOOKUP,
  PY_CALL_INIT,
  PY_CALL_DEINIT,
  PY_CALL_OPEN,
  PY_CALL_CLOSE,
  PY_CALL_SEND,
  PY_CALL_FLUSH,
  PY_CALL_RESULT,
  PY_CALL_FETCH,
  PY_CALL_PARSE,
  PY_CALL_TEMPLATE,
  PY_CALL_RUN,
  PY_CALL_KINDS
} PyCallKind;

/* What a python() driver of any kind has: class(), options(), loaders(). */
typedef struct
{
  const gchar *class_name;
  const SlCfgNode *options;     /* options("key" "value" ...) */
  GPtrArray *loaders;           /* imports() / loaders(): modules imported first */
  const gchar *id;
  gboolean typed_options;       /* a 4.x configuration's: options() and LogMessage's values typed, logging
                                 * into internal() */
  guint logged;                 /* bits of PyCallKind already logged */
  gint64 suppressed;            /* exceptions not logged since */
} PyDriverBase;

/* The pending exception, logged with its traceback the first time this
 * kind raises in this driver (then only counted), and cleared. */
void      py_driver_log_exception (PyDriverBase *base, PyCallKind kind, const gchar *what);
/* Imports loaders(), finds class() (module.Class, or a class of the
 * `python {}` code) and makes an instance with no arguments. NULL with
 * the exception logged. */
PyObject *py_driver_instantiate (PyDriverBase *base);
/* options() as the dict syslog-ng gives (python-options.h), keys with
 * '-' as '_'; NULL with the exception set. */
PyObject *py_driver_options_dict (const PyDriverBase *base);
/* Calls obj.name(*args) if obj has it: TRUE with *result (a new reference,
 * or NULL when there is no such method); FALSE when it raised (logged). */
gboolean  py_call_optional (PyDriverBase *base, PyCallKind kind, PyObject *obj, const gchar *name,
                            PyObject *arg, PyObject **result);

/* The option table entries every python() driver takes. */
#define PY_DRIVER_OPTIONS(T) \
  { "class", SL_STRING (T, base.class_name), NULL, "the Python class: module.Class, or a class of a python {} block", \
    .flags = SL_OPT_POSITIONAL }, \
  { "options", SL_BLOCK (T, base.options), NULL, "\"key\" => value pairs given to init(self, options) as a dict: typed under @version 4, " \
    "LogTemplate(\"...\") a compiled template" }, \
  { "loaders", SL_LIST (T, base.loaders), NULL, "modules imported before the class is looked up" }, \
  { "imports", SL_LIST (T, base.loaders), NULL, "the same as loaders()" }

/* Checks class() and starts the interpreter; for a driver's init. */
gboolean  py_driver_init (PyDriverBase *base, SlDriver *driver, GError **error);

#endif
