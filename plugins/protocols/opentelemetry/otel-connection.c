/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "otel-connection.h"

#include <netdb.h>
#include <string.h>

SlWindow *
otel_source_connection_window (OtelSource *self)
{
  g_mutex_lock (&self->lock);
  SlWindow *window = NULL;
  if (!self->stopping)
    {
      window = sl_source_new_window (self->source);
      g_ptr_array_add (self->windows, window);
    }
  g_mutex_unlock (&self->lock);
  return window;
}

void
otel_source_connection_closed (OtelSource *self, SlWindow *window)
{
  g_mutex_lock (&self->lock);
  g_ptr_array_remove_fast (self->windows, window);
  g_mutex_unlock (&self->lock);
  sl_window_unref (window);
}

gchar *
otel_peer_address (const struct sockaddr *sa)
{
  gchar host[INET6_ADDRSTRLEN];
  socklen_t len = sa->sa_family == AF_INET6 ? sizeof (struct sockaddr_in6) : sizeof (struct sockaddr_in);
  if (getnameinfo (sa, len, host, sizeof host, NULL, 0, NI_NUMERICHOST) != 0)
    return NULL;
  /* an IPv4 peer of a dual-stack socket is named as IPv4 */
  if (g_str_has_prefix (host, "::ffff:") && strchr (host, '.'))
    return g_strdup (host + 7);
  return g_strdup (host);
}
