/* SPDX-License-Identifier: GPL-2.0-or-later */
/* syslogng.LogMessage: a message seen from Python, a mapping of names to
 * values: typed as syslog-ng 4 gives them (python-value.h) under a 4.x
 * configuration, bytes as syslog-ng 3.38 gives them under 3.x. */
#ifndef PYTHON_LOGMSG_H
#define PYTHON_LOGMSG_H

#include "python-embed.h"
#include "core/message/message.h"
#include "core/route/source.h"

typedef struct
{
  PyObject_HEAD
  SlMessage *msg;
  gboolean writable;      /* a parser's or a source's message; a destination's is read only */
  gboolean typed;         /* values typed both ways, unset names a KeyError: a 4.x configuration's */
  PyObject *bookmark;     /* set_bookmark() or LogMessage(bookmark=...), or NULL */
  SlSource *parsed_by;    /* LogMessage.parse() with this source's parse_options: posted as it is */
} PyLogMessage;

/* A new reference wrapping msg (referenced); typed for a driver of a 4.x
 * configuration (PyDriverBase's typed_options). */
PyObject  *py_logmsg_new (SlMessage *msg, gboolean writable, gboolean typed);
gboolean   py_logmsg_check (PyObject *obj);
/* Lets go of msg: a parser's message object may outlive its call. */
void       py_logmsg_detach (PyObject *obj);
/* A source's parse_options, which LogMessage.parse(raw, parse_options)
 * parses with; cleared when the source stops. */
PyObject  *py_parse_options_new (SlSource *source);
void       py_parse_options_clear (PyObject *obj);
/* For posting: made's own message when it was parsed with source's
 * parse_options (from then on read only), else a message of source's
 * (received now, its options applied) with made's values, stamp and
 * priority. */
SlMessage *py_logmsg_for_source (PyLogMessage *made, SlSource *source);

#endif
