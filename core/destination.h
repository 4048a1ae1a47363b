/* SlDestination: runs one destination driver on its own thread, behind
 * its queue, so a slow destination never blocks a source or another
 * destination. Messages are acknowledged only once written. */
#ifndef SL_DESTINATION_H
#define SL_DESTINATION_H

#include <glib.h>
#include "core/plugin.h"
#include "core/queue.h"

G_BEGIN_DECLS

typedef struct _SlDestination SlDestination;

typedef struct
{
  guint fifo_size;          /* log-fifo-size() */
  guint batch_lines;        /* flush-lines(): most messages per write */
  gint64 flush_timeout_ms;  /* flush-timeout() */
  gint64 time_reopen_s;     /* time-reopen(): wait before retrying a failed write */
  guint throttle;           /* throttle(): most messages written a second; 0: no limit */
} SlDestinationSettings;

SlDestination *sl_destination_new    (SlDriver *driver,
                                      const SlDestinationSettings *settings);
gboolean       sl_destination_start  (SlDestination *d, GError **error);
/* Takes the items' references; counts what the full queue dropped. */
void           sl_destination_push   (SlDestination *d, const SlQueueItem *items, guint n);
/* Writes out what is queued, then joins the thread. */
void           sl_destination_stop   (SlDestination *d);
void           sl_destination_reopen (SlDestination *d);
void           sl_destination_free   (SlDestination *d);
SlDriver      *sl_destination_driver (SlDestination *d);

G_END_DECLS

#endif
