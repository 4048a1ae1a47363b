/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The bytes of frames not finished yet that the process holds, over every
 * stream connection of every source: each connection holds at most a
 * message's worth (log-msg-size()), and all of them together at most
 * SL_PARTIAL_BUDGET, so that thousands of peers that each send a long
 * line and never end it cannot take the memory of the process. Counted
 * as the gauge "partial_bytes" (kind "global"). */
#ifndef SL_PARTIAL_BUDGET_H
#define SL_PARTIAL_BUDGET_H

#include <glib.h>

G_BEGIN_DECLS

#define SL_PARTIAL_BUDGET (64 * 1024 * 1024)

/* A connection that held before bytes now holds after: TRUE when that
 * fits the budget (a connection that holds less always does), and it is
 * counted; FALSE, and nothing changes, when it would go over. */
gboolean sl_partial_budget_move (gsize before, gsize after);
gint64   sl_partial_budget_held (void);

G_END_DECLS

#endif
