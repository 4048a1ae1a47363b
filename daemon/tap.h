/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sluicectl tap: the messages passing a tap point, streamed to a control
 * client as JSON lines. The pipeline never waits for the client: what
 * does not fit in the session's buffer is dropped, and counted to it. */
#ifndef SL_TAP_SESSION_H
#define SL_TAP_SESSION_H

#include <glib.h>
#include "core/compile/config.h"

G_BEGIN_DECLS

typedef struct _SlTapSessions SlTapSessions;

SlTapSessions *sl_tap_sessions_new  (void);
/* Ends every session (their clients see the end) and joins their threads. */
void           sl_tap_sessions_free (SlTapSessions *sessions);

/* Serves "TAP ID [LIMIT N] [FILTER EXPR]" on client, which it takes: the
 * answer is "OK tapping KIND/NAME", then a JSON object a line for each
 * message that passes ID and EXPR, and "DROPPED TOTAL" lines when messages
 * were dropped since the last; the connection ends after N messages, when
 * the client goes, or at the end of the daemon. On a refusal, "ERROR
 * why". */
void           sl_tap_sessions_start (SlTapSessions *sessions, SlConfig *cfg, const gchar *command, gint client);

G_END_DECLS

#endif
