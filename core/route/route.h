/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Routing as a parser with SL_CAP_EMITS sees it: what it uses to put a
 * message of its own into the path after it, as syslog-ng's parsers emit
 * synthetic messages (the walk itself is core/route/route-private.h). */
#ifndef SL_ROUTE_H
#define SL_ROUTE_H

#include <glib.h>
#include "core/message/message.h"
#include "core/plugin/plugin.h"

G_BEGIN_DECLS

/* Only inside that parser's process(), on its thread: msg goes on along
 * the rest of the path (and of the paths around it) right away, ahead of
 * the message being processed and in the same routing batch. msg must be
 * the caller's alone (a new message or a clone); it takes no flow-control
 * window. Gives up the caller's reference. */
void                  sl_parser_emit        (SlMessage *msg);
/* Where the message being processed goes on from the parser, kept for
 * emitting later (a timeout): only inside process(). Free with
 * sl_continuation_free(). */
typedef struct _SlContinuation SlContinuation;
SlContinuation       *sl_parser_continuation (void);
void                  sl_continuation_free  (SlContinuation *k);
/* Outside process(), on the main thread (a timer of the default main
 * context): routes msg from k, taken while self processed a message, if
 * self's configuration still runs; otherwise msg is dropped. Gives up the
 * caller's reference. */
gboolean              sl_parser_emit_later  (SlDriver *self, const SlContinuation *k, SlMessage *msg);

G_END_DECLS

#endif
