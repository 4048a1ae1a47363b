/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* MARK messages: what syslog-ng's internal() and its destinations' own
 * mark-mode() write when nothing else came for mark-freq() seconds, and
 * what mark() writes at its interval (rsyslog's immark). */
#ifndef SL_MARK_H
#define SL_MARK_H

#include <glib.h>
#include "core/message/message.h"

G_BEGIN_DECLS

/* syslog-ng's text, and rsyslog's immark's default markMessageText */
#define SL_MARK_TEXT "-- MARK --"

/* A local message of text, facility syslog and severity info, HOST this
 * host's name, stamped now, with no PROGRAM: as syslog-ng makes its MARK.
 * The caller adds SL_MSG_MARK where destinations' mark-mode() is to see
 * it as internal()'s MARK. */
SlMessage *sl_mark_message_new (const gchar *text);

G_END_DECLS

#endif
