/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What a destination driver asks of the destination that runs it (the
 * rest of SlDestination is the core's: core/route/destination-private.h). */
#ifndef SL_DESTINATION_H
#define SL_DESTINATION_H

#include <glib.h>

G_BEGIN_DECLS

/* For a destination's operations, which run on its writer threads: whether
 * the destination is being stopped. A driver that waits on a slow peer
 * gives up then, so that a stalled remote cannot hold the daemon's shutdown. */
gboolean sl_destination_stopping (void);

G_END_DECLS

#endif
