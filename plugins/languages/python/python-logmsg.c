/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "python-logmsg.h"
#include "python-module.h"
#include "python-value.h"
#include "core/message/macros.h"
#include "core/route/source.h"
#include "core/message/template.h"
#include <datetime.h>

/* "${NAME}" compiled once per name asked for: it resolves aliases (MSG),
 * macros (DATE, FACILITY) and fields alike. Guarded by the GIL. */
static GHashTable *name_templates;

static SlTemplate *
name_template (const gchar *name)
{
  SlTemplate *t = g_hash_table_lookup (name_templates, name);
  if (t)
    return t;
  g_autofree gchar *text = g_strdup_printf ("${%s}", name);
  t = sl_template_compile (text, NULL);
  if (t)
    g_hash_table_insert (name_templates, g_strdup (name), t);
  return t;
}

static const gchar *
key_name (PyObject *key)
{
  Py_ssize_t len;
  const gchar *name = PyUnicode_Check (key) || PyBytes_Check (key) ? py_text (key, &len) : NULL;

  if (!name)
    PyErr_SetString (PyExc_TypeError, "key is not a string object");
  return name;
}

/* name's value as syslog-ng 4 hands it to Python: typed, or bytes when
 * self is not typed; NULL with no exception set when name is not set. */
static PyObject *
get_value (PyLogMessage *self, const gchar *name)
{
  SlTemplate *t = name_template (name);
  if (!t)
    return NULL;
  SlHandle h = sl_template_single_field (t);
  SlValueType type = SL_VALUE_STRING;
  if (h != SL_F_NONE)
    {
      gsize len = 0;
      const gchar *value = sl_message_has (self->msg, h) ? sl_message_get_typed (self->msg, h, &len, &type) : NULL;
      if (!value)
        return NULL;
      return self->typed ? py_value_from_typed (value, len, type) : PyBytes_FromStringAndSize (value, len);
    }
  g_autoptr (GString) out = g_string_new (NULL);
  sl_template_append (t, self->msg, &sl_template_env_default, out);
  if (self->typed && py_value_macro_type (name, &type))
    return py_value_from_typed (out->str, out->len, type);
  return PyBytes_FromStringAndSize (out->str, out->len);
}

/* An unset name is a KeyError in a 4.x configuration; under 3.x it is
 * empty, as syslog-ng 3.38 and 4.8's compatibility mode read it. */
static PyObject *
logmsg_subscript (PyLogMessage *self, PyObject *key)
{
  const gchar *name = key_name (key);
  if (!name)
    return NULL;
  PyObject *value = get_value (self, name);
  if (value || PyErr_Occurred ())
    return value;
  if (!self->typed)
    return PyBytes_FromString ("");
  return PyErr_Format (PyExc_KeyError, "No such name-value pair %s", name);
}

static int
logmsg_ass_subscript (PyLogMessage *self, PyObject *key, PyObject *value)
{
  const gchar *name = key_name (key);
  if (!name)
    return -1;
  if (!self->writable)
    {
      PyErr_Format (PyExc_TypeError,
                    "Log message is read only, cannot set name-value pair %s, you are possibly trying "
                    "to change a LogMessage from a destination driver, which is not allowed", name);
      return -1;
    }
  SlTemplate *t = name_template (name);
  SlHandle h = t ? sl_template_single_field (t) : SL_F_NONE;
  if (h == SL_F_NONE)
    h = sl_field_handle (name);
  if (!value)
    {
      sl_message_unset (self->msg, h);
      return 0;
    }
  if (!self->typed)
    {
      Py_ssize_t vlen;
      const gchar *text = PyUnicode_Check (value) || PyBytes_Check (value) ? py_text (value, &vlen) : NULL;
      if (!text)
        {
          PyErr_Format (PyExc_ValueError,
                        "str or unicode object expected as log message values, got type %s (key %s)",
                        Py_TYPE (value)->tp_name, name);
          return -1;
        }
      sl_message_set (self->msg, h, text, vlen);
      return 0;
    }
  g_autoptr (GString) text = g_string_new (NULL);
  SlValueType type;
  if (!py_value_to_typed (value, text, &type))
    return -1;
  sl_message_set_typed (self->msg, h, text->str, text->len, type);
  return 0;
}

static PyMappingMethods logmsg_mapping = {
  .mp_subscript = (binaryfunc) logmsg_subscript,
  .mp_ass_subscript = (objobjargproc) logmsg_ass_subscript,
};

static void
add_name (PyObject *list, GHashTable *seen, const gchar *name)
{
  if (g_hash_table_contains (seen, name))
    return;
  g_hash_table_add (seen, (gpointer) name);
  PyObject *item = PyBytes_FromString (name);
  PyList_Append (list, item);
  Py_DECREF (item);
}

typedef struct
{
  PyObject *list;
  GHashTable *seen;
} KeysWalk;

static gboolean
add_field (SlHandle h, const gchar *value, gsize len, gpointer user_data)
{
  KeysWalk *walk = user_data;
  add_name (walk->list, walk->seen, sl_field_name (h));
  return TRUE;
}

/* A macro that is another name of a field (MSG for MESSAGE) is not listed:
 * syslog-ng lists the field under its own name only. */
static void
add_macro (const gchar *name, guint scopes, gpointer user_data)
{
  KeysWalk *walk = user_data;
  SlTemplate *t = name_template (name);
  SlHandle h = t ? sl_template_single_field (t) : SL_F_NONE;
  if (h == SL_F_NONE || g_strcmp0 (sl_field_name (h), name) == 0)
    add_name (walk->list, walk->seen, g_intern_string (name));
}

/* keys(): the names the message has values for, then every macro, as
 * syslog-ng lists them. */
static PyObject *
logmsg_keys (PyLogMessage *self, PyObject *unused)
{
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  KeysWalk walk = { PyList_New (0), seen };

  for (SlHandle h = 1; h < SL_F_BUILTIN_MAX; h++)
    if (sl_message_has (self->msg, h) && sl_field_name (h))
      add_name (walk.list, seen, sl_field_name (h));
  sl_message_foreach_dynamic (self->msg, add_field, &walk);
  sl_macro_foreach (add_macro, &walk);
  return walk.list;
}

/* get(key, default=None): self[key], or default when key is not set */
static PyObject *
logmsg_get (PyLogMessage *self, PyObject *args, PyObject *kwargs)
{
  static char *kwlist[] = { "key", "default", NULL };
  const gchar *name;
  Py_ssize_t len;
  PyObject *fallback = Py_None;

  if (!PyArg_ParseTupleAndKeywords (args, kwargs, "s#|O", kwlist, &name, &len, &fallback))
    return NULL;
  PyObject *value = get_value (self, name);
  if (value || PyErr_Occurred ())
    return value;
  Py_INCREF (fallback);
  return fallback;
}

/* get_as_str(key, default=None, encoding, errors, repr): the value's text
 * decoded, whatever its type */
static PyObject *
logmsg_get_as_str (PyLogMessage *self, PyObject *args, PyObject *kwargs)
{
  static char *kwlist[] = { "key", "default", "encoding", "errors", "repr", NULL };
  const gchar *name, *encoding = "utf-8", *errors = "strict", *repr = "internal";
  Py_ssize_t len;
  PyObject *fallback = Py_None;

  if (!PyArg_ParseTupleAndKeywords (args, kwargs, "s#|Osss", kwlist, &name, &len, &fallback, &encoding, &errors,
                                    &repr))
    return NULL;
  SlTemplate *t = name_template (name);
  SlHandle h = t ? sl_template_single_field (t) : SL_F_NONE;
  if (t && (h == SL_F_NONE || sl_message_has (self->msg, h)))
    {
      g_autoptr (GString) out = g_string_new (NULL);
      sl_template_append (t, self->msg, &sl_template_env_default, out);
      return PyUnicode_Decode (out->str, out->len, encoding, errors);
    }
  if (fallback != Py_None && !PyUnicode_Check (fallback))
    return PyErr_Format (PyExc_TypeError, "default is not a string object");
  Py_INCREF (fallback);
  return fallback;
}

static PyObject *
logmsg_set_pri (PyLogMessage *self, PyObject *args, PyObject *kwargs)
{
  static char *kwlist[] = { "pri", NULL };
  unsigned int pri;

  if (!PyArg_ParseTupleAndKeywords (args, kwargs, "I", kwlist, &pri))
    return NULL;
  self->msg->pri = (guint8) pri;
  Py_RETURN_NONE;
}

static PyObject *
logmsg_get_pri (PyLogMessage *self, PyObject *unused)
{
  return PyLong_FromLong (self->msg->pri);
}

static PyObject *
logmsg_set_timestamp (PyLogMessage *self, PyObject *args, PyObject *kwargs)
{
  static char *kwlist[] = { "timestamp", NULL };
  PyObject *dt;

  if (!PyArg_ParseTupleAndKeywords (args, kwargs, "O", kwlist, &dt))
    return NULL;
  if (!py_value_datetime_to_time (dt, &self->msg->stamp))
    return NULL;
  Py_RETURN_NONE;
}

static PyObject *
logmsg_get_timestamp (PyLogMessage *self, PyObject *unused)
{
  PyObject *delta = PyDelta_FromDSU (0, self->msg->stamp.gmtoff, 0);
  PyObject *zone = delta ? PyTimeZone_FromOffset (delta) : NULL;
  PyObject *args = zone ? Py_BuildValue ("(dO)", self->msg->stamp.usec / (gdouble) G_USEC_PER_SEC, zone) : NULL;
  PyObject *dt = args ? PyDateTime_FromTimestamp (args) : NULL;

  Py_XDECREF (args);
  Py_XDECREF (zone);
  Py_XDECREF (delta);
  return dt;
}

static PyObject *
logmsg_set_bookmark (PyLogMessage *self, PyObject *args, PyObject *kwargs)
{
  static char *kwlist[] = { "bookmark", NULL };
  PyObject *bookmark;

  if (!PyArg_ParseTupleAndKeywords (args, kwargs, "O", kwlist, &bookmark))
    return NULL;
  Py_XINCREF (bookmark);
  Py_XSETREF (self->bookmark, bookmark);
  Py_RETURN_NONE;
}

typedef struct
{
  PyObject_HEAD
  SlSource *source;
} PyParseOptions;

static PyTypeObject parse_options_type = {
  PyVarObject_HEAD_INIT (NULL, 0)
  .tp_name = "_syslogng.ParseOptions",
  .tp_basicsize = sizeof (PyParseOptions),
  .tp_flags = Py_TPFLAGS_DEFAULT,
  .tp_doc = "a source's format() and its options, for LogMessage.parse()",
};

PyObject *
py_parse_options_new (SlSource *source)
{
  PyParseOptions *self = PyObject_New (PyParseOptions, &parse_options_type);
  if (self)
    self->source = source;
  return (PyObject *) self;
}

void
py_parse_options_clear (PyObject *obj)
{
  ((PyParseOptions *) obj)->source = NULL;
}

/* LogMessage.parse(raw_msg, parse_options): raw_msg as the source's
 * format() reads it, as syslog-ng's static method does. */
static PyObject *
logmsg_parse (PyObject *unused, PyObject *args, PyObject *kwargs)
{
  static char *kwlist[] = { "raw_msg", "parse_options", NULL };
  const gchar *raw;
  Py_ssize_t len;
  PyObject *options;

  if (!PyArg_ParseTupleAndKeywords (args, kwargs, "s#O", kwlist, &raw, &len, &options))
    return NULL;
  if (!PyObject_TypeCheck (options, &parse_options_type))
    return PyErr_Format (PyExc_TypeError, "Parse options (PyCapsule) expected in the second parameter");
  SlSource *source = ((PyParseOptions *) options)->source;
  if (!source)
    return PyErr_Format (PyExc_TypeError, "Invalid parse options (PyCapsule)");
  /* from this host: with keep-hostname(no) HOST is this host's name, as
   * syslog-ng names the sender of a message a python source posts */
  SlMessage *msg = sl_source_parse (source, raw, len, sl_macro_loghost ());
  sl_message_unset (msg, SL_F_SOURCEIP);
  PyLogMessage *self = (PyLogMessage *) py_logmsg_new (msg, TRUE, TRUE);
  sl_message_unref (msg);
  if (self)
    self->parsed_by = source;
  return (PyObject *) self;
}

static PyMethodDef logmsg_methods[] = {
  { "parse", (PyCFunction) (void (*) (void)) logmsg_parse, METH_STATIC | METH_VARARGS | METH_KEYWORDS,
    "parse a raw message with a source's parse_options" },
  { "keys", (PyCFunction) logmsg_keys, METH_NOARGS, "the names of the message's values and the macros" },
  { "get", (PyCFunction) (void (*) (void)) logmsg_get, METH_VARARGS | METH_KEYWORDS,
    "a value, or default when it is not set" },
  { "get_as_str", (PyCFunction) (void (*) (void)) logmsg_get_as_str, METH_VARARGS | METH_KEYWORDS,
    "a value's text as str, or default when it is not set" },
  { "set_pri", (PyCFunction) (void (*) (void)) logmsg_set_pri, METH_VARARGS | METH_KEYWORDS, "set the priority" },
  { "get_pri", (PyCFunction) logmsg_get_pri, METH_NOARGS, "the priority" },
  { "set_timestamp", (PyCFunction) (void (*) (void)) logmsg_set_timestamp, METH_VARARGS | METH_KEYWORDS,
    "set the message's stamp from a datetime" },
  { "get_timestamp", (PyCFunction) logmsg_get_timestamp, METH_NOARGS, "the message's stamp as a datetime" },
  { "set_bookmark", (PyCFunction) (void (*) (void)) logmsg_set_bookmark, METH_VARARGS | METH_KEYWORDS,
    "what the source's ack tracker gets back once the message is delivered" },
  { NULL }
};

static PyObject *
logmsg_construct (PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
  static char *kwlist[] = { "message", "bookmark", NULL };
  const gchar *text = NULL;
  Py_ssize_t len = 0;
  PyObject *bookmark = NULL;

  if (!PyArg_ParseTupleAndKeywords (args, kwargs, "|z#O", kwlist, &text, &len, &bookmark))
    return NULL;
  PyLogMessage *self = (PyLogMessage *) type->tp_alloc (type, 0);
  if (!self)
    return NULL;
  self->msg = sl_message_new ("", 0);
  /* user.notice, as syslog-ng makes an empty message */
  self->msg->pri = SL_PRI_MAKE (1, 5);
  sl_time_now (&self->msg->stamp);
  self->msg->recvd = self->msg->stamp;
  self->writable = TRUE;
  /* typed under any @version: syslog-ng 4.8 makes a LogMessage() so */
  self->typed = TRUE;
  if (text)
    sl_message_set (self->msg, SL_F_MESSAGE, text, len);
  if (bookmark && bookmark != Py_None)
    {
      Py_INCREF (bookmark);
      self->bookmark = bookmark;
    }
  return (PyObject *) self;
}

static void
logmsg_dealloc (PyLogMessage *self)
{
  sl_message_unref (self->msg);
  Py_CLEAR (self->bookmark);
  Py_TYPE (self)->tp_free ((PyObject *) self);
}

static PyTypeObject logmsg_type = {
  PyVarObject_HEAD_INIT (NULL, 0)
  .tp_name = "_syslogng.LogMessage",
  .tp_basicsize = sizeof (PyLogMessage),
  .tp_dealloc = (destructor) logmsg_dealloc,
  .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
  .tp_doc = "a log message: values by name, typed under a 4.x configuration, else bytes",
  .tp_new = logmsg_construct,
  .tp_as_mapping = &logmsg_mapping,
  .tp_methods = logmsg_methods,
};

PyObject *
py_logmsg_new (SlMessage *msg, gboolean writable, gboolean typed)
{
  PyLogMessage *self = PyObject_New (PyLogMessage, &logmsg_type);
  if (!self)
    return NULL;
  self->msg = sl_message_ref (msg);
  self->writable = writable;
  self->typed = typed;
  self->bookmark = NULL;
  self->parsed_by = NULL;
  return (PyObject *) self;
}

gboolean
py_logmsg_check (PyObject *obj)
{
  return PyObject_TypeCheck (obj, &logmsg_type);
}

void
py_logmsg_detach (PyObject *obj)
{
  ((PyLogMessage *) obj)->writable = FALSE;
}

gboolean
py_logmsg_add (PyObject *module)
{
  PyDateTime_IMPORT;
  if (!PyDateTimeAPI)
    return FALSE;
  name_templates = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) sl_template_unref);
  if (PyType_Ready (&logmsg_type) < 0 || PyType_Ready (&parse_options_type) < 0)
    return FALSE;
  Py_INCREF (&logmsg_type);
  return PyModule_AddObject (module, "LogMessage", (PyObject *) &logmsg_type) == 0;
}

typedef struct
{
  const SlMessage *from;
  SlMessage *to;
} FieldCopy;

static void
copy_typed (const SlMessage *from, SlMessage *to, SlHandle h)
{
  gsize len;
  SlValueType type;
  const gchar *value = sl_message_get_typed (from, h, &len, &type);
  sl_message_set_typed (to, h, value, len, type);
}

static gboolean
copy_field (SlHandle h, const gchar *value, gsize len, gpointer user_data)
{
  FieldCopy *copy = user_data;
  copy_typed (copy->from, copy->to, h);
  return TRUE;
}

static void
fill_from_made (SlMessage *msg, gpointer user_data)
{
  const SlMessage *made = user_data;
  FieldCopy copy = { made, msg };

  msg->pri = made->pri;
  msg->stamp = made->stamp;
  for (SlHandle h = 1; h < SL_F_BUILTIN_MAX; h++)
    if (h != SL_F_HOST_FROM && h != SL_F_SOURCEIP && sl_message_has (made, h))
      copy_typed (made, msg, h);
  sl_message_foreach_dynamic (made, copy_field, &copy);
}

/* The values, stamp and priority of a message made in Python onto one the
 * source makes, so that the source's host, program and tags apply after. */
SlMessage *
py_logmsg_for_source (PyLogMessage *made, SlSource *source)
{
  if (made->parsed_by == source)
    {
      made->writable = FALSE;
      return sl_message_ref (made->msg);
    }
  gsize len = 0;
  const gchar *text = sl_message_has (made->msg, SL_F_MESSAGE) ? sl_message_get (made->msg, SL_F_MESSAGE, &len) : "";
  return sl_source_parse_fields (source, text, len, fill_from_made, made->msg);
}
