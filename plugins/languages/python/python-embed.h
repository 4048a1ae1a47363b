/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Python.h as every unit of the plugin includes it, and what the units
 * below the interpreter share: reading text out of Python objects. */
#ifndef PYTHON_EMBED_H
#define PYTHON_EMBED_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <glib.h>

/* UTF-8 of a str or the bytes of a bytes object, NULL otherwise (with a
 * TypeError set). Valid while obj lives. */
const gchar *py_text (PyObject *obj, Py_ssize_t *len);

#endif
