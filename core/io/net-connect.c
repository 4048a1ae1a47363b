/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/io/net-connect.h"
#include "core/i18n.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

/* One address: connected, or -1 with *err saying why. */
static gint
connect_one (const struct addrinfo *ai, gint timeout_ms, gboolean keepalive, gint *err)
{
  gint fd = socket (ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0)
    {
      *err = errno;
      return -1;
    }
  if (keepalive)
    setsockopt (fd, SOL_SOCKET, SO_KEEPALIVE, &(gint) { 1 }, sizeof (gint));
  if (connect (fd, ai->ai_addr, ai->ai_addrlen) == 0)
    return fd;
  *err = errno;
  if (*err == EINPROGRESS)
    {
      struct pollfd p = { .fd = fd, .events = POLLOUT };
      socklen_t len = sizeof *err;
      if (poll (&p, 1, timeout_ms) == 1 && getsockopt (fd, SOL_SOCKET, SO_ERROR, err, &len) == 0 && *err == 0)
        return fd;
      if (*err == EINPROGRESS)
        *err = ETIMEDOUT;
    }
  close (fd);
  return -1;
}

gint
sl_net_connect (const gchar *host, const gchar *port, gint timeout_ms, gboolean keepalive, GError **error)
{
  struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM };
  struct addrinfo *res = NULL;
  gint rc = getaddrinfo (host, port, &hints, &res);
  if (rc != 0)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, _("cannot resolve %s port %s: %s"), host, port,
                   gai_strerror (rc));
      return -1;
    }
  gint fd = -1, err = 0;
  for (struct addrinfo *ai = res; ai && fd < 0; ai = ai->ai_next)
    fd = connect_one (ai, timeout_ms, keepalive, &err);
  freeaddrinfo (res);
  if (fd < 0)
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, _("cannot connect to %s port %s: %s"), host, port,
                 g_strerror (err));
  return fd;
}
