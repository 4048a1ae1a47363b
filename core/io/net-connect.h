/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A destination's TCP connection to its peer: every address the name
 * resolves to tried in turn, each within a bound wait. */
#ifndef SL_NET_CONNECT_H
#define SL_NET_CONNECT_H

#include <glib.h>

G_BEGIN_DECLS

/* A connected, non-blocking, close-on-exec socket to host:port (SO_KEEPALIVE
 * with keepalive), waiting at most timeout_ms for each address; -1 with
 * error (the host, the port and why) when none answered. */
gint sl_net_connect (const gchar *host, const gchar *port, gint timeout_ms, gboolean keepalive, GError **error);

G_END_DECLS

#endif
