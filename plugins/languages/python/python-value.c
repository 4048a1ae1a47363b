/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "python-value.h"
#include "core/message/list-text.h"
#include <datetime.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* datetime.h's API pointer is static to each unit that includes it */
static gboolean
datetime_api (void)
{
  if (!PyDateTimeAPI)
    PyDateTime_IMPORT;
  return PyDateTimeAPI != NULL;
}

static gboolean
cast_int (const gchar *text, gint64 *out)
{
  const gchar *digits = text + (text[0] == '+' || text[0] == '-');
  gboolean hex = digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X');
  gchar *end;

  *out = strtoll (text, &end, hex ? 16 : 10);
  return *text && !*end;
}

static gboolean
cast_double (const gchar *text, gdouble *out)
{
  gchar *end;

  errno = 0;
  *out = g_ascii_strtod (text, &end);
  return end != text && !*end && !(errno == ERANGE && isinf (*out));
}

/* syslog-ng's boolean cast reads the first character only */
static gboolean
cast_boolean (const gchar *text, gboolean *out)
{
  if (text[0] && strchr ("Tt1", text[0]))
    *out = TRUE;
  else if (text[0] && strchr ("Ff0", text[0]))
    *out = FALSE;
  else
    return FALSE;
  return TRUE;
}

/* A naive datetime in local time, its fold set in summer time, as
 * syslog-ng's py_datetime_from_msec() makes it. */
static PyObject *
datetime_from_msec (gint64 msec)
{
  time_t sec = msec / 1000;
  struct tm tm;

  if (!datetime_api () || !localtime_r (&sec, &tm))
    return PyErr_Format (PyExc_ValueError, "Error converting a UNIX time to datetime");
  return PyDateTime_FromDateAndTimeAndFold (tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
                                            tm.tm_sec, (gint) (msec % 1000) * 1000, tm.tm_isdst > 0);
}

static void
append_item (const gchar *item, gsize len, gpointer user_data)
{
  PyObject *list = user_data;
  PyObject *bytes = PyBytes_FromStringAndSize (item, len);

  if (bytes)
    PyList_Append (list, bytes);
  Py_XDECREF (bytes);
}

static PyObject *
list_from_text (const gchar *value, gsize len)
{
  PyObject *list = PyList_New (0);

  if (list)
    sl_list_text_foreach (value, len, append_item, list);
  if (list && PyErr_Occurred ())
    Py_CLEAR (list);
  return list;
}

PyObject *
py_value_from_typed (const gchar *value, gsize len, SlValueType type)
{
  /* most values are strings: bytes at once, without the copy the casts
   * read */
  if (type == SL_VALUE_STRING || type == SL_VALUE_JSON)
    return PyBytes_FromStringAndSize (value, len);
  g_autofree gchar *text = g_strndup (value, len);
  gint64 i;
  gdouble d;
  gboolean b;

  switch (type)
    {
    case SL_VALUE_INT32:
    case SL_VALUE_INT64:
      if (cast_int (text, &i))
        return PyLong_FromLongLong (i);
      break;
    case SL_VALUE_DOUBLE:
      if (cast_double (text, &d))
        return PyFloat_FromDouble (d);
      break;
    case SL_VALUE_BOOLEAN:
      if (cast_boolean (text, &b))
        return PyBool_FromLong (b);
      break;
    case SL_VALUE_NULL:
      Py_RETURN_NONE;
    case SL_VALUE_LIST:
      return list_from_text (value, len);
    case SL_VALUE_DATETIME:
      if (sl_value_datetime_msec (value, len, &i))
        return datetime_from_msec (i);
      break;
    default:
      break;
    }
  return PyBytes_FromStringAndSize (value, len);
}

static const struct
{
  const gchar *name;
  SlValueType type;
} typed_macros[] = {
  { "FACILITY_NUM", SL_VALUE_INT64 }, { "LEVEL_NUM", SL_VALUE_INT64 }, { "SEVERITY_NUM", SL_VALUE_INT64 },
  { "TAGS", SL_VALUE_LIST }, { "UNIXTIME", SL_VALUE_DATETIME }, { "R_UNIXTIME", SL_VALUE_DATETIME },
  { "S_UNIXTIME", SL_VALUE_DATETIME },
};

gboolean
py_value_macro_type (const gchar *name, SlValueType *type)
{
  for (guint i = 0; i < G_N_ELEMENTS (typed_macros); i++)
    if (strcmp (typed_macros[i].name, name) == 0)
      {
        *type = typed_macros[i].type;
        return TRUE;
      }
  return FALSE;
}

gboolean
py_value_datetime_to_time (PyObject *dt, SlTime *t)
{
  if (!datetime_api () || !PyDateTime_Check (dt))
    {
      PyErr_SetString (PyExc_TypeError, "datetime expected in the first parameter");
      return FALSE;
    }
  PyObject *stamp = PyObject_CallMethod (dt, "timestamp", NULL);
  if (!stamp)
    return FALSE;
  gdouble seconds = PyFloat_AsDouble (stamp);
  Py_DECREF (stamp);
  PyObject *offset = PyObject_CallMethod (dt, "utcoffset", NULL);
  if (!offset)
    return FALSE;
  if (offset != Py_None)
    t->gmtoff = PyDateTime_DELTA_GET_DAYS (offset) * 86400 + PyDateTime_DELTA_GET_SECONDS (offset);
  else
    {
      g_autoptr (GTimeZone) local = g_time_zone_new_local ();
      gint interval = g_time_zone_find_interval (local, G_TIME_TYPE_UNIVERSAL, (gint64) seconds);
      t->gmtoff = g_time_zone_get_offset (local, MAX (interval, 0));
    }
  Py_DECREF (offset);
  t->usec = (gint64) (seconds * G_USEC_PER_SEC + (seconds >= 0 ? 0.5 : -0.5));
  return TRUE;
}

/* syslog-ng takes list items of exactly str or bytes */
static gboolean
list_to_text (PyObject *list, GString *out)
{
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE (list); i++)
    {
      PyObject *item = PyList_GET_ITEM (list, i);
      Py_ssize_t len;
      const gchar *text = PyBytes_CheckExact (item) || PyUnicode_CheckExact (item) ? py_text (item, &len) : NULL;
      if (!text)
        {
          PyErr_SetString (PyExc_ValueError, "Error extracting value from str/bytes");
          return FALSE;
        }
      sl_list_text_append (out, 0, text, len);
    }
  return TRUE;
}

/* The days of dt's utcoffset(), 0 for a naive dt */
static gboolean
offset_days (PyObject *dt, gint64 *days)
{
  PyObject *offset = PyObject_CallMethod (dt, "utcoffset", NULL);
  if (!offset)
    return FALSE;
  *days = offset != Py_None ? PyDateTime_DELTA_GET_DAYS (offset) : 0;
  Py_DECREF (offset);
  return TRUE;
}

gboolean
py_value_to_typed (PyObject *obj, GString *out, SlValueType *type)
{
  g_string_truncate (out, 0);
  if (PyBytes_CheckExact (obj) || PyUnicode_CheckExact (obj))
    {
      Py_ssize_t len;
      const gchar *text = py_text (obj, &len);
      if (!text)
        return FALSE;
      g_string_append_len (out, text, len);
      *type = SL_VALUE_STRING;
      return TRUE;
    }
  if (PyLong_CheckExact (obj))
    {
      gint64 i = PyLong_AsLongLong (obj);
      if (i == -1 && PyErr_Occurred ())
        return FALSE;
      g_string_printf (out, "%" G_GINT64_FORMAT, i);
      *type = SL_VALUE_INT64;
      return TRUE;
    }
  if (PyFloat_CheckExact (obj))
    {
      /* "%f" of the largest double is 316 characters */
      gchar buffer[400];
      g_string_append (out, g_ascii_formatd (buffer, sizeof buffer, "%f", PyFloat_AS_DOUBLE (obj)));
      *type = SL_VALUE_DOUBLE;
      return TRUE;
    }
  if (PyBool_Check (obj))
    {
      g_string_append (out, obj == Py_True ? "true" : "false");
      *type = SL_VALUE_BOOLEAN;
      return TRUE;
    }
  if (obj == Py_None)
    {
      *type = SL_VALUE_NULL;
      return TRUE;
    }
  if (PyList_CheckExact (obj))
    {
      *type = SL_VALUE_LIST;
      return list_to_text (obj, out);
    }
  if (datetime_api () && PyDateTime_Check (obj))
    {
      SlTime t;
      gint64 days;
      if (!py_value_datetime_to_time (obj, &t) || !offset_days (obj, &days))
        return FALSE;
      /* 4.8 takes an offset's seconds without its days: a zone west of UTC
       * (-1 day and some seconds) puts the time a day earlier */
      t.usec += days * 86400 * G_USEC_PER_SEC;
      gint64 msec = t.usec / 1000 - (t.usec % 1000 < 0);
      g_string_printf (out, "%" G_GINT64_FORMAT ".%03d", msec / 1000 - (msec % 1000 < 0),
                       (gint) ((msec % 1000 + 1000) % 1000));
      *type = SL_VALUE_DATETIME;
      return TRUE;
    }
  PyErr_SetString (PyExc_ValueError, "Error extracting value from Python object");
  return FALSE;
}
