/* SPDX-License-Identifier: GPL-2.0-or-later */
/* syslogng.Persist(persist_name): a dict of str, int and bytes kept in the
 * daemon's persist file (-R) across restarts. Each value is an entry
 * "python-persist:NAME##KEY" whose first character says its type; the
 * entry "python-persist:NAME" lists the keys, for iteration. */
#include "python-module.h"
#include "core/store/persist.h"

typedef struct
{
  PyObject_HEAD
  gchar *name;
} PyPersist;

static gchar *
entry_key (PyPersist *self, const gchar *key)
{
  return g_strdup_printf ("python-persist:%s##%s", self->name, key);
}

static gchar *
index_key (PyPersist *self)
{
  return g_strdup_printf ("python-persist:%s", self->name);
}

static gchar **
stored_keys (PyPersist *self)
{
  g_autofree gchar *key = index_key (self);
  g_autofree gchar *list = sl_persist_get (key);
  return list && *list ? g_strsplit (list, "\n", -1) : g_new0 (gchar *, 1);
}

static void
remember_key (PyPersist *self, const gchar *name)
{
  g_auto (GStrv) keys = stored_keys (self);
  if (g_strv_contains ((const gchar *const *) keys, name))
    return;
  g_autoptr (GString) list = g_string_new (NULL);
  for (guint i = 0; keys[i]; i++)
    g_string_append_printf (list, "%s\n", keys[i]);
  g_string_append (list, name);
  g_autofree gchar *key = index_key (self);
  sl_persist_set (key, list->str);
}

static PyObject *
decode (const gchar *stored)
{
  switch (stored[0])
    {
    case 's':
      return PyUnicode_FromString (stored + 1);
    case 'l':
      return PyLong_FromString (stored + 1, NULL, 10);
    case 'b':
      return PyBytes_FromString (stored + 1);
    default:
      return PyErr_Format (PyExc_RuntimeError, "Unknown data type: %c", stored[0]);
    }
}

static PyObject *
persist_subscript (PyPersist *self, PyObject *key)
{
  Py_ssize_t len;
  const gchar *name = PyUnicode_Check (key) ? py_text (key, &len) : NULL;
  if (!name)
    return PyErr_Format (PyExc_TypeError, "key is not a string object");
  g_autofree gchar *entry = entry_key (self, name);
  g_autofree gchar *stored = sl_persist_get (entry);
  if (!stored)
    return PyErr_Format (PyExc_KeyError, "No such name-value pair %s", name);
  return decode (stored);
}

static int
persist_ass_subscript (PyPersist *self, PyObject *key, PyObject *value)
{
  Py_ssize_t len;
  const gchar *name = PyUnicode_Check (key) ? py_text (key, &len) : NULL;
  if (!name)
    {
      PyErr_SetString (PyExc_TypeError, "key is not a string object");
      return -1;
    }
  g_autofree gchar *stored = NULL;
  if (value && PyBytes_Check (value))
    stored = g_strconcat ("b", PyBytes_AS_STRING (value), NULL);
  else if (value && PyUnicode_Check (value))
    stored = g_strconcat ("s", PyUnicode_AsUTF8 (value), NULL);
  else if (value && PyLong_Check (value))
    {
      PyObject *digits = PyObject_Str (value);
      stored = g_strconcat ("l", PyUnicode_AsUTF8 (digits), NULL);
      Py_DECREF (digits);
    }
  else
    {
      PyErr_SetString (PyExc_TypeError, "Value must be either string, integer or bytes");
      return -1;
    }
  g_autofree gchar *entry = entry_key (self, name);
  sl_persist_set (entry, stored);
  remember_key (self, name);
  return 0;
}

static PyMappingMethods persist_mapping = {
  .mp_subscript = (binaryfunc) persist_subscript,
  .mp_ass_subscript = (objobjargproc) persist_ass_subscript,
};

static int
persist_contains (PyPersist *self, PyObject *key)
{
  Py_ssize_t len;
  const gchar *name = PyUnicode_Check (key) ? py_text (key, &len) : NULL;
  if (!name)
    return 0;
  g_autofree gchar *entry = entry_key (self, name);
  g_autofree gchar *stored = sl_persist_get (entry);
  return stored != NULL;
}

static PySequenceMethods persist_sequence = {
  .sq_contains = (objobjproc) persist_contains,
};

static PyObject *
persist_iter (PyPersist *self)
{
  g_auto (GStrv) keys = stored_keys (self);
  PyObject *list = PyList_New (0);
  for (guint i = 0; keys[i]; i++)
    {
      PyObject *k = PyUnicode_FromString (keys[i]);
      PyList_Append (list, k);
      Py_DECREF (k);
    }
  PyObject *iter = PyObject_GetIter (list);
  Py_DECREF (list);
  return iter;
}

static int
persist_init (PyPersist *self, PyObject *args, PyObject *kwargs)
{
  static char *kwlist[] = { "persist_name", NULL };
  const gchar *name;
  if (!PyArg_ParseTupleAndKeywords (args, kwargs, "s", kwlist, &name))
    return -1;
  g_free (self->name);
  self->name = g_strdup (name);
  return 0;
}

static void
persist_dealloc (PyPersist *self)
{
  g_free (self->name);
  Py_TYPE (self)->tp_free ((PyObject *) self);
}

static PyTypeObject persist_type = {
  PyVarObject_HEAD_INIT (NULL, 0)
  .tp_name = "_syslogng.Persist",
  .tp_basicsize = sizeof (PyPersist),
  .tp_dealloc = (destructor) persist_dealloc,
  .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
  .tp_doc = "values kept in the persist file across restarts",
  .tp_new = PyType_GenericNew,
  .tp_init = (initproc) persist_init,
  .tp_as_mapping = &persist_mapping,
  .tp_as_sequence = &persist_sequence,
  .tp_iter = (getiterfunc) persist_iter,
};

gboolean
py_persist_add (PyObject *module)
{
  if (PyType_Ready (&persist_type) < 0)
    return FALSE;
  Py_INCREF (&persist_type);
  return PyModule_AddObject (module, "Persist", (PyObject *) &persist_type) == 0;
}
