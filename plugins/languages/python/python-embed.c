/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "python-embed.h"

const gchar *
py_text (PyObject *obj, Py_ssize_t *len)
{
  if (PyBytes_Check (obj))
    {
      *len = PyBytes_GET_SIZE (obj);
      return PyBytes_AS_STRING (obj);
    }
  if (PyUnicode_Check (obj))
    return PyUnicode_AsUTF8AndSize (obj, len);
  PyErr_Format (PyExc_TypeError, "str or bytes expected, got %s", Py_TYPE (obj)->tp_name);
  return NULL;
}
