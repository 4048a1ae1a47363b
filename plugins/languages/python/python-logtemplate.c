/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "python-logtemplate.h"
#include "python-logmsg.h"
#include "python-module.h"

enum { LTZ_LOCAL = 0, LTZ_SEND = 1 };

typedef struct
{
  PyObject_HEAD
  SlTemplateEnv env;
} PyTemplateOptions;

typedef struct
{
  PyObject_HEAD
  SlTemplate *template;
  PyObject *options;   /* PyTemplateOptions given to the constructor, or NULL */
} PyLogTemplate;

static PyObject *template_error;

static void
options_dealloc (PyTemplateOptions *self)
{
  if (self->env.zone)
    g_time_zone_unref (self->env.zone);
  Py_TYPE (self)->tp_free ((PyObject *) self);
}

static PyTypeObject options_type = {
  PyVarObject_HEAD_INIT (NULL, 0)
  .tp_name = "_syslogng.LogTemplateOptions",
  .tp_basicsize = sizeof (PyTemplateOptions),
  .tp_dealloc = (destructor) options_dealloc,
  .tp_flags = Py_TPFLAGS_DEFAULT,
  .tp_doc = "how a destination renders templates: its ts-format(), time-zone(), ...",
};

PyObject *
py_template_options_new (const SlTemplateEnv *env)
{
  PyTemplateOptions *self = PyObject_New (PyTemplateOptions, &options_type);
  if (!self)
    return NULL;
  self->env = *env;
  if (self->env.zone)
    g_time_zone_ref (self->env.zone);
  return (PyObject *) self;
}

static PyObject *
template_construct (PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
  const gchar *text;
  PyObject *options = NULL;
  GError *error = NULL;

  if (!PyArg_ParseTuple (args, "s|O", &text, &options))
    return NULL;
  if (options && options != Py_None && !PyObject_TypeCheck (options, &options_type))
    return PyErr_Format (PyExc_TypeError, "LogTemplateOptions expected in the second parameter");
  SlTemplate *t = sl_template_compile (text, &error);
  if (!t)
    {
      PyErr_Format (template_error, "Error compiling template: %s", error->message);
      g_error_free (error);
      return NULL;
    }
  PyLogTemplate *self = (PyLogTemplate *) type->tp_alloc (type, 0);
  if (!self)
    {
      sl_template_unref (t);
      return NULL;
    }
  self->template = t;
  if (options && options != Py_None)
    {
      Py_INCREF (options);
      self->options = options;
    }
  return (PyObject *) self;
}

/* format(msg, options=None, tz=LTZ_SEND, seqnum=0): with the options given
 * here or to the constructor, as syslog-ng asks for one of them. */
static PyObject *
template_format (PyLogTemplate *self, PyObject *args, PyObject *kwargs)
{
  static char *kwlist[] = { "msg", "options", "tz", "seqnum", NULL };
  PyObject *msg, *options = NULL;
  int tz = LTZ_SEND, seqnum = 0;

  if (!PyArg_ParseTupleAndKeywords (args, kwargs, "O|Oii", kwlist, &msg, &options, &tz, &seqnum))
    return NULL;
  if (!py_logmsg_check (msg))
    return PyErr_Format (PyExc_TypeError, "LogMessage expected in the first parameter");
  if (options == Py_None)
    options = NULL;
  if (options && !PyObject_TypeCheck (options, &options_type))
    return PyErr_Format (PyExc_TypeError, "LogTemplateOptions expected in the second parameter");
  if (!options)
    options = self->options;
  if (!options)
    return PyErr_Format (PyExc_RuntimeError,
                         "LogTemplateOptions must be provided either in the LogTemplate constructor or as parameter of format");
  SlTemplateEnv env = ((PyTemplateOptions *) options)->env;
  /* LTZ_LOCAL: the message's own zone rather than time-zone()'s */
  if (tz == LTZ_LOCAL)
    env.zone = NULL;
  g_autoptr (GString) out = g_string_new (NULL);
  sl_template_append (self->template, ((PyLogMessage *) msg)->msg, &env, out);
  return PyUnicode_DecodeUTF8 (out->str, out->len, "replace");
}

static void
template_dealloc (PyLogTemplate *self)
{
  sl_template_unref (self->template);
  Py_CLEAR (self->options);
  Py_TYPE (self)->tp_free ((PyObject *) self);
}

static PyMethodDef template_methods[] = {
  { "format", (PyCFunction) (void (*) (void)) template_format, METH_VARARGS | METH_KEYWORDS,
    "render the template over a LogMessage" },
  { NULL }
};

static PyTypeObject template_type = {
  PyVarObject_HEAD_INIT (NULL, 0)
  .tp_name = "_syslogng.LogTemplate",
  .tp_basicsize = sizeof (PyLogTemplate),
  .tp_dealloc = (destructor) template_dealloc,
  .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
  .tp_doc = "a compiled template",
  .tp_new = template_construct,
  .tp_methods = template_methods,
};

gboolean
py_logtemplate_add (PyObject *module)
{
  if (PyType_Ready (&options_type) < 0 || PyType_Ready (&template_type) < 0)
    return FALSE;
  template_error = PyErr_NewException ("_syslogng.LogTemplateException", NULL, NULL);
  Py_INCREF (&template_type);
  Py_INCREF (&options_type);
  return PyModule_AddObject (module, "LogTemplate", (PyObject *) &template_type) == 0
         && PyModule_AddObject (module, "LogTemplateOptions", (PyObject *) &options_type) == 0
         && PyModule_AddObject (module, "LogTemplateException", template_error) == 0
         && PyModule_AddIntConstant (module, "LTZ_LOCAL", LTZ_LOCAL) == 0
         && PyModule_AddIntConstant (module, "LTZ_SEND", LTZ_SEND) == 0;
}
