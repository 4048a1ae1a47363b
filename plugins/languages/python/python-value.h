/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A typed value and a Python object, both ways, as syslog-ng 4's python
 * module converts them (modules/python/python-types.c): int, float, bool,
 * None, a list of bytes, a datetime; a string or JSON value as bytes. A
 * 3.x configuration sees bytes only, which python-logmsg.c decides. */
#ifndef PYTHON_VALUE_H
#define PYTHON_VALUE_H

#include "python-embed.h"
#include "core/message/message.h"

/* What Python gets for value[0..len) of type; a value that does not cast
 * to its type is bytes, as syslog-ng falls back. A datetime is given as a
 * naive local datetime, to the millisecond. A new reference, or NULL with
 * an exception set. */
PyObject *py_value_from_typed (const gchar *value, gsize len, SlValueType type);
/* The type syslog-ng 4 gives a macro that is not text: FACILITY_NUM and
 * its kin int, TAGS a list, the *UNIXTIME macros a datetime; FALSE for
 * any other name (a string). */
gboolean  py_value_macro_type (const gchar *name, SlValueType *type);
/* The text and type obj is stored as: str and bytes a string, int,
 * float ("%f"), bool ("true"/"false"), None, a list of str or bytes (list
 * text), a datetime ("sec.msec"). FALSE with a ValueError set for
 * anything else. */
gboolean  py_value_to_typed (PyObject *obj, GString *out, SlValueType *type);
/* A datetime's instant and its offset east of UTC; a naive one is local
 * time, as syslog-ng reads it. FALSE with a TypeError set for anything
 * but a datetime. */
gboolean  py_value_datetime_to_time (PyObject *dt, SlTime *t);

#endif
