/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "plugins/protocols/relp/relp-conn.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

void
relp_conn_init (RelpConn *c, gint fd, SlTlsContext *ctx, const gchar *host, gint stop_fd)
{
  gint flags = fcntl (fd, F_GETFL);
  fcntl (fd, F_SETFL, flags | O_NONBLOCK);
  c->fd = fd;
  c->stop_fd = stop_fd;
  c->tls = ctx ? sl_tls_new (ctx, fd, host) : NULL;
}

void
relp_conn_close (RelpConn *c)
{
  if (c->tls)
    {
      sl_tls_close_notify (c->tls);
      g_clear_pointer (&c->tls, sl_tls_free);
    }
  if (c->fd >= 0)
    close (c->fd);
  c->fd = -1;
}

/* Waits until fd is ready for events, the owner stops or deadline passes. */
static RelpIoStatus
await (RelpConn *c, short events, gint64 deadline)
{
  for (;;)
    {
      gint64 left = deadline - g_get_monotonic_time ();
      if (left <= 0)
        return RELP_IO_TIMEOUT;
      struct pollfd p[2] = { { .fd = c->fd, .events = events }, { .fd = c->stop_fd, .events = POLLIN } };
      gint rc = poll (p, c->stop_fd >= 0 ? 2 : 1, (gint) MIN ((left + 999) / 1000, G_MAXINT));
      if (rc < 0 && errno != EINTR)
        return RELP_IO_FAILED;
      if (rc > 0 && c->stop_fd >= 0 && (p[1].revents & POLLIN))
        return RELP_IO_STOPPED;
      if (rc > 0 && p[0].revents)
        return RELP_IO_OK;
    }
}

static RelpIoStatus
await_tls (RelpConn *c, SlTlsStatus status, gint64 deadline)
{
  switch (status)
    {
    case SL_TLS_WANT_READ:
      return await (c, POLLIN, deadline);
    case SL_TLS_WANT_WRITE:
      return await (c, POLLOUT, deadline);
    case SL_TLS_CLOSED:
      return RELP_IO_CLOSED;
    default:
      return RELP_IO_FAILED;
    }
}

RelpIoStatus
relp_conn_handshake (RelpConn *c, gint64 deadline)
{
  if (!c->tls)
    return RELP_IO_OK;
  for (;;)
    {
      SlTlsStatus status = sl_tls_handshake (c->tls);
      if (status == SL_TLS_DONE)
        return RELP_IO_OK;
      RelpIoStatus io = await_tls (c, status, deadline);
      if (io != RELP_IO_OK)
        return io;
    }
}

gboolean
relp_conn_pending (RelpConn *c)
{
  return c->tls && sl_tls_pending (c->tls);
}

RelpIoStatus
relp_conn_read (RelpConn *c, gchar *buf, gsize len, gsize *got, gint64 deadline)
{
  for (;;)
    {
      if (c->tls)
        {
          SlTlsStatus status;
          *got = sl_tls_read (c->tls, buf, len, &status);
          if (*got)
            return RELP_IO_OK;
          RelpIoStatus io = await_tls (c, status, deadline);
          if (io != RELP_IO_OK)
            return io;
          continue;
        }
      gssize n = read (c->fd, buf, len);
      if (n > 0)
        {
          *got = (gsize) n;
          return RELP_IO_OK;
        }
      if (n == 0)
        return RELP_IO_CLOSED;
      if (errno == EINTR)
        continue;
      if (errno != EAGAIN)
        return RELP_IO_FAILED;
      RelpIoStatus io = await (c, POLLIN, deadline);
      if (io != RELP_IO_OK)
        return io;
    }
}

RelpIoStatus
relp_conn_write_all (RelpConn *c, const gchar *buf, gsize len, gint64 deadline)
{
  while (len)
    {
      RelpIoStatus io;
      if (c->tls)
        {
          SlTlsStatus status;
          gsize n = sl_tls_write (c->tls, buf, len, &status);
          if (n)
            {
              buf += n;
              len -= n;
              continue;
            }
          io = await_tls (c, status, deadline);
        }
      else
        {
          gssize n = send (c->fd, buf, len, MSG_NOSIGNAL);
          if (n > 0)
            {
              buf += n;
              len -= (gsize) n;
              continue;
            }
          if (n < 0 && errno == EINTR)
            continue;
          if (n < 0 && errno != EAGAIN)
            return errno == EPIPE || errno == ECONNRESET ? RELP_IO_CLOSED : RELP_IO_FAILED;
          io = await (c, POLLOUT, deadline);
        }
      if (io != RELP_IO_OK)
        return io;
    }
  return RELP_IO_OK;
}

const gchar *
relp_conn_failure (RelpConn *c, RelpIoStatus status)
{
  switch (status)
    {
    case RELP_IO_TIMEOUT:
      return "timed out";
    case RELP_IO_STOPPED:
      return "stopping";
    case RELP_IO_CLOSED:
      return "closed by the peer";
    default:
      return c->tls && sl_tls_failure (c->tls) ? sl_tls_failure (c->tls) : g_strerror (errno);
    }
}
