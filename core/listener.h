/* SlListener: accepts connections on a listening stream socket (TCP or
 * unix) on an I/O worker, and gives each one to the least loaded worker,
 * which reads it through SlStreamReader until it ends. */
#ifndef SL_LISTENER_H
#define SL_LISTENER_H

#include <glib.h>
#include "core/source.h"

G_BEGIN_DECLS

typedef struct
{
  guint max_connections;   /* more are refused and counted as "rejected" */
  gboolean so_keepalive;
  gint so_rcvbuf;          /* 0 keeps the system default */
} SlListenerSettings;

typedef struct _SlListener SlListener;

/* Takes listen_fd, which must be bound and listening. */
SlListener *sl_listener_start (SlSource *src, gint listen_fd, const SlListenerSettings *settings,
                               GError **error);
/* Stops accepting, tells every peer we are going and waits up to a
 * second for them to close, then has each connection's worker read what
 * the kernel acknowledged and close it. Waits for the workers, so never
 * call it from one. */
void        sl_listener_stop  (SlListener *l);

G_END_DECLS

#endif
