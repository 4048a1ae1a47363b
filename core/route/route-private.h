/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Routing: messages walked down compiled log paths in batches, collected
 * per destination, and pushed to each destination's queue at once. */
#ifndef SL_ROUTE_PRIVATE_H
#define SL_ROUTE_PRIVATE_H

#include <glib.h>
#include "core/message/message.h"

G_BEGIN_DECLS

/* Sends msgs[0..n) down paths (the SlPath of one source, in configuration
 * order); each destination receives one batch. Gives up the caller's
 * references. */
void sl_route (GPtrArray *paths, SlMessage **msgs, guint n);

/* What a parallelize() handed on, routed on from where each item stopped:
 * an SlSchedulerRun, called on its partition's thread. */
void sl_route_handed_off (gpointer *items, guint n, gpointer unused);

G_END_DECLS

#endif
