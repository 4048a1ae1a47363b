/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SlDestination: runs a destination driver on writer threads of its own,
 * behind its queue, so a slow destination never blocks a source or another
 * destination. One writer, or workers() of them sharing the queue, each
 * with an instance of the driver. Messages are acknowledged only once the
 * driver says they were written or dropped. */
#ifndef SL_DESTINATION_PRIVATE_H
#define SL_DESTINATION_PRIVATE_H

#include <glib.h>
#include "core/route/driver-private.h"
#include "core/route/queue.h"

G_BEGIN_DECLS

typedef struct _SlDestination SlDestination;

/* drivers: one instance per writer, all made from the same options; the
 * destination keeps the array. */
SlDestination *sl_destination_new    (GPtrArray *drivers, const SlDestinationOptions *options);
gboolean       sl_destination_start  (SlDestination *d, GError **error);
/* Takes the items' references; counts what the full queue dropped. */
void           sl_destination_push   (SlDestination *d, const SlQueueItem *items, guint n);
/* Whether paths without flags(flow-control) hold their sources back for
 * it until it stalls (stall-timeout() is not 0). */
gboolean       sl_destination_holds_lapse (SlDestination *d);
/* Writes out what is queued, then joins the threads. */
void           sl_destination_stop   (SlDestination *d);
/* For a reload that replaces d by to (the same destination, changed): d
 * writes what it can, then stops, and what it still holds goes to to's
 * queue instead of being dropped. With a disk buffer on either side, d
 * leaves the rest in its own buffer as at a stop. */
void           sl_destination_hand_over (SlDestination *d, SlDestination *to);
void           sl_destination_reopen (SlDestination *d);
void           sl_destination_free   (SlDestination *d);
/* For a destination never started (sluiced --test): hands func each
 * message its paths queued, in order, then lets it go as written. */
typedef void (*SlDestinationTake) (SlMessage *msg, gpointer user_data);
void           sl_destination_take_queued (SlDestination *d, SlDestinationTake func, gpointer user_data);
/* The id its drivers share ("d_net#0"). */
const gchar   *sl_destination_driver_id (SlDestination *d);
/* Its drivers, one per writer. */
GPtrArray     *sl_destination_drivers (SlDestination *d);

G_END_DECLS

#endif
