/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SlListener: accepts connections on a listening stream socket (TCP or
 * unix) on an I/O worker, and gives each one to the least loaded worker,
 * which reads it through SlStreamReader until it ends. The source's
 * connection limits hold here: at max-connections() it stops accepting
 * (new peers wait in the kernel's backlog) until a connection closes or
 * the one SlAdmission names makes room, max-connections-per-ip() resets
 * what is over it, and first-message-timeout() and idle-timeout() close
 * connections that bring no complete message. With TLS the worker
 * first runs the handshake, without blocking, within the context's
 * handshake-timeout(); a refused peer is logged once per address and
 * reason, and counted as "tls_refused". A PROXY header (settings.proxy)
 * is read within the same handshake-timeout() (PROXY_TIMEOUT_MS without
 * TLS).
 *
 * The connections of a protocol whose answers wait (relp(), OTLP) are
 * served by an SlSession each, on a thread of its own, once the listener
 * admitted them, read their PROXY header and finished their handshake:
 * settings.session says how; without it SlStreamReader reads them. */
#ifndef SL_LISTENER_H
#define SL_LISTENER_H

#include <glib.h>
#include "core/route/source.h"
#include "core/io/stream.h"
#include "core/io/session.h"
#include "core/io/tls.h"

G_BEGIN_DECLS

typedef enum
{
  SL_LISTENER_PROXY_NONE,
  SL_LISTENER_PROXY_FIRST,     /* proxied-tcp, proxied-tls-passthrough */
  SL_LISTENER_PROXY_IN_TLS,    /* proxied-tls */
} SlListenerProxy;

typedef struct
{
  guint max_connections;   /* more wait in the backlog; counted as "accept_paused" */
  gboolean so_keepalive;
  gint so_rcvbuf;          /* 0 keeps the system default */
  SlStreamFraming framing;
  SlTlsContext *tls;       /* or NULL; the caller keeps it while the listener runs */
  /* a PROXY header comes first (before TLS), or first inside TLS: its
   * client is the peer, for max-connections-per-ip() too; without one
   * the connection is closed and counted as "proxy_refused" */
  SlListenerProxy proxy;
  /* or NULL: lines or frames read by SlStreamReader on the I/O workers;
   * PROXY_IN_TLS is the stream reader's alone */
  const SlSessionOps *session;
  gpointer session_data;
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
