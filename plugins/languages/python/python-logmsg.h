/* SPDX-License-Identifier: GPL-2.0-or-later */
/* syslogng.LogMessage: a message seen from Python, a mapping of names to
 * bytes as syslog-ng 3.38 gives them. */
#ifndef PYTHON_LOGMSG_H
#define PYTHON_LOGMSG_H

#include "python-interp.h"

typedef struct
{
  PyObject_HEAD
  SlMessage *msg;
  gboolean writable;      /* a parser's or a source's message; a destination's is read only */
  PyObject *bookmark;     /* set_bookmark() or LogMessage(bookmark=...), or NULL */
} PyLogMessage;

/* A new reference wrapping msg (referenced). */
PyObject  *py_logmsg_new (SlMessage *msg, gboolean writable);
gboolean   py_logmsg_check (PyObject *obj);
/* Lets go of msg: a parser's message object may outlive its call. */
void       py_logmsg_detach (PyObject *obj);
/* A message of source's (received now, its options applied) with made's
 * values, stamp and priority, for posting. */
SlMessage *py_logmsg_for_source (PyLogMessage *made, SlSource *source);

#endif
