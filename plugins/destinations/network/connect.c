/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reaching a target: names are resolved when a connection is made, never
 * per message; each address is tried in turn with a bounded connect, and
 * failover() servers after the primary. With TLS the handshake is part of
 * connecting, within the same bound: a server that refuses us counts as
 * one that cannot be reached, and the next failover server is tried. */
/* POLLRDHUP: GNU's, asked for here as a plugin built from the kit alone must */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include "plugins/destinations/network/network-destination.h"
#include "core/route/destination.h"
#include "core/i18n.h"
#include "core/internal.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

/* A host that does not answer must not hold the writer thread for the
 * kernel's two minutes of SYN retries, nor a stopping daemon for long. */
#define CONNECT_TIMEOUT_MS 10000
#define STOP_CONNECT_TIMEOUT_MS 1000
/* Failback probes are a courtesy: they must not hold the writer long. */
#define PROBE_TIMEOUT_MS 1000

const NetTarget *
net_current_target (NetDestination *self)
{
  return g_ptr_array_index (self->targets, self->current);
}

static void
set_options (NetDestination *self, gint fd)
{
  gint one = 1;
  if (self->so_sndbuf > 0)
    setsockopt (fd, SOL_SOCKET, SO_SNDBUF, &self->so_sndbuf, sizeof self->so_sndbuf);
  if (self->so_keepalive && self->socktype == SOCK_STREAM)
    setsockopt (fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
}

static gboolean
bind_local (NetDestination *self, gint fd, gint family, gint *err)
{
  if (!self->local_ip && !self->local_port)
    return TRUE;
  struct addrinfo hints = { .ai_family = family, .ai_socktype = self->socktype, .ai_flags = AI_PASSIVE };
  struct addrinfo *res = NULL;
  if (getaddrinfo (self->local_ip, self->local_port ? self->local_port : "0", &hints, &res) != 0)
    {
      *err = EADDRNOTAVAIL;
      return FALSE;
    }
  gint one = 1;
  setsockopt (fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  gboolean ok = bind (fd, res->ai_addr, res->ai_addrlen) == 0;
  if (!ok)
    *err = errno;
  freeaddrinfo (res);
  return ok;
}

/* A non-blocking socket connected to addr within timeout_ms, or -1 with
 * *err set. */
static gint
connect_addr (NetDestination *self, const struct sockaddr *addr, socklen_t len, gint timeout_ms,
              gboolean configure, gint *err)
{
  gint fd = socket (addr->sa_family, self->socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0)
    {
      *err = errno;
      return -1;
    }
  if (configure)
    set_options (self, fd);
  if (configure && addr->sa_family != AF_UNIX && !bind_local (self, fd, addr->sa_family, err))
    {
      close (fd);
      return -1;
    }
  if (connect (fd, addr, len) == 0)
    return fd;
  if (errno != EINPROGRESS && errno != EINTR)
    {
      *err = errno;
      close (fd);
      return -1;
    }
  struct pollfd pfd = { fd, POLLOUT, 0 };
  gint ready;
  do
    ready = poll (&pfd, 1, timeout_ms);
  while (ready < 0 && errno == EINTR);
  gint so_error = 0;
  socklen_t so_len = sizeof so_error;
  if (ready <= 0)
    so_error = ready == 0 ? ETIMEDOUT : errno;
  else if (getsockopt (fd, SOL_SOCKET, SO_ERROR, &so_error, &so_len) < 0)
    so_error = errno;
  if (so_error)
    {
      *err = so_error;
      close (fd);
      return -1;
    }
  return fd;
}

static gint
connect_target (NetDestination *self, const NetTarget *t, gint timeout_ms, gboolean configure,
                gchar **why)
{
  gint err = 0;
  if (self->family == AF_UNIX)
    {
      struct sockaddr_un addr = { .sun_family = AF_UNIX };
      if (strlen (t->host) >= sizeof addr.sun_path)
        {
          *why = g_strdup (g_strerror (ENAMETOOLONG));
          return -1;
        }
      g_strlcpy (addr.sun_path, t->host, sizeof addr.sun_path);
      gint fd = connect_addr (self, (struct sockaddr *) &addr, sizeof addr, timeout_ms, configure, &err);
      if (fd < 0)
        *why = g_strdup (g_strerror (err));
      return fd;
    }

  struct addrinfo hints = { .ai_family = self->family, .ai_socktype = self->socktype };
  struct addrinfo *res = NULL;
  gint rc = getaddrinfo (t->host, t->port, &hints, &res);
  if (rc != 0)
    {
      *why = g_strdup (gai_strerror (rc));
      return -1;
    }
  gint fd = -1;
  for (struct addrinfo *ai = res; ai && fd < 0; ai = ai->ai_next)
    fd = connect_addr (self, ai->ai_addr, ai->ai_addrlen, timeout_ms, configure, &err);
  freeaddrinfo (res);
  if (fd < 0)
    *why = g_strdup (g_strerror (err));
  return fd;
}

/* The handshake on fd, waiting for the socket as OpenSSL asks. */
static gboolean
tls_handshake (NetDestination *self, gint fd, const NetTarget *t, gint timeout_ms, gchar **why)
{
  self->tls = sl_tls_new (self->tls_ctx, fd, t->host);
  gint64 limit = g_get_monotonic_time () + (gint64) timeout_ms * 1000;
  for (;;)
    {
      SlTlsStatus status = sl_tls_handshake (self->tls);
      if (status == SL_TLS_DONE)
        return TRUE;
      gint64 left_ms = (limit - g_get_monotonic_time ()) / 1000;
      gint ready = 0;
      if ((status == SL_TLS_WANT_READ || status == SL_TLS_WANT_WRITE) && left_ms > 0)
        {
          struct pollfd pfd = { fd, status == SL_TLS_WANT_READ ? POLLIN : POLLOUT, 0 };
          ready = poll (&pfd, 1, (gint) left_ms);
          if (ready > 0 || (ready < 0 && errno == EINTR))
            continue;
        }
      *why = ready == 0 && status != SL_TLS_FAILED && status != SL_TLS_CLOSED
             ? g_strdup_printf ("TLS handshake: %s", g_strerror (ETIMEDOUT))
             : g_strdup_printf ("TLS handshake: %s", sl_tls_failure (self->tls));
      g_clear_pointer (&self->tls, sl_tls_free);
      return FALSE;
    }
}

static gchar *
target_name (NetDestination *self, const NetTarget *t)
{
  if (self->family == AF_UNIX)
    return g_strdup (t->host);
  return g_strdup_printf ("%s port %s", t->host, t->port);
}

gboolean
net_connect (NetDestination *self)
{
  guint count = self->targets->len;
  g_autoptr (GString) failures = g_string_new (NULL);
  for (guint i = 0; i < count; i++)
    {
      guint index = (self->current + i) % count;
      const NetTarget *t = g_ptr_array_index (self->targets, index);
      gchar *why = NULL;
      gint timeout = sl_destination_stopping () ? STOP_CONNECT_TIMEOUT_MS : CONNECT_TIMEOUT_MS;
      gint fd = connect_target (self, t, timeout, TRUE, &why);
      if (fd >= 0 && self->tls_ctx && !tls_handshake (self, fd, t, timeout, &why))
        {
          close (fd);
          fd = -1;
        }
      gchar *name = target_name (self, t);
      if (fd >= 0)
        {
          if (index != self->current)
            sl_log (SL_LOG_NOTICE, _("connection established to another server; server='%s', driver='%s', after='%s'"),
                    name, self->super.id, failures->str);
          if (index != 0 && self->failback)
            {
              self->probes_passed = 0;
              self->next_probe = g_get_monotonic_time () + self->probe_interval_us;
            }
          self->current = index;
          self->fd = fd;
          sl_counter_add (self->connections, 1);
          g_free (name);
          return TRUE;
        }
      sl_counter_add (self->connect_errors, 1);
      if (failures->len)
        g_string_append (failures, "; ");
      g_string_append_printf (failures, _("cannot connect to %s: %s"), name, why);
      g_free (why);
      g_free (name);
    }
  g_strlcpy (self->why, failures->str, sizeof self->why);
  return FALSE;
}

gboolean
net_probe_primary (NetDestination *self)
{
  gchar *why = NULL;
  gint fd = connect_target (self, g_ptr_array_index (self->targets, 0), PROBE_TIMEOUT_MS, FALSE, &why);
  g_free (why);
  if (fd < 0)
    return FALSE;
  close (fd);
  return TRUE;
}

void
net_disconnect (NetDestination *self)
{
  g_clear_pointer (&self->tls, sl_tls_free);
  if (self->fd < 0)
    return;
  close (self->fd);
  self->fd = -1;
}

gssize
net_send (NetDestination *self, const gchar *data, gsize len)
{
  if (!self->tls)
    return send (self->fd, data, len, MSG_NOSIGNAL | MSG_DONTWAIT);
  SlTlsStatus status;
  gsize n = sl_tls_write (self->tls, data, len, &status);
  if (n > 0)
    return n;
  errno = status == SL_TLS_WANT_WRITE || status == SL_TLS_WANT_READ ? EAGAIN : EPIPE;
  return -1;
}

gssize
net_recv_discard (NetDestination *self)
{
  gchar sink[4096];
  if (!self->tls)
    return recv (self->fd, sink, sizeof sink, MSG_DONTWAIT);
  SlTlsStatus status;
  gsize n = sl_tls_read (self->tls, sink, sizeof sink, &status);
  if (n > 0)
    return n;
  if (status == SL_TLS_CLOSED)
    return 0;
  errno = status == SL_TLS_FAILED ? EPROTO : EAGAIN;
  return -1;
}

/* While the daemon stops, a peer that took nothing for this long is given up. */
#define STOP_STALL_US (2 * G_USEC_PER_SEC)
#define WAIT_SLICE_MS 200

/* A stream peer that closes or fails ends the wait; a datagram socket's
 * error is left for the next send to report. */
NetWait
net_wait_writable (NetDestination *self)
{
  gboolean stream = self->socktype == SOCK_STREAM;
  struct pollfd pfd = { self->fd, stream ? POLLOUT | POLLIN | POLLRDHUP : POLLOUT, 0 };
  gint64 stall_limit = 0;
  for (;;)
    {
      gint ready = poll (&pfd, 1, WAIT_SLICE_MS);
      if (ready < 0 && errno != EINTR)
        return NET_WAIT_CLOSED;
      if (ready > 0 && !stream)
        return NET_WAIT_WRITABLE;
      if (ready > 0 && (pfd.revents & (POLLERR | POLLHUP | POLLRDHUP | POLLNVAL)))
        return NET_WAIT_CLOSED;
      if (ready > 0 && (pfd.revents & POLLIN))
        {
          gssize n = net_recv_discard (self);
          if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR) || (n > 0 && self->close_on_input))
            return NET_WAIT_CLOSED;
        }
      if (ready > 0 && (pfd.revents & POLLOUT))
        return NET_WAIT_WRITABLE;
      if (!sl_destination_stopping ())
        continue;
      gint64 now = g_get_monotonic_time ();
      if (!stall_limit)
        stall_limit = now + STOP_STALL_US;
      else if (now >= stall_limit)
        return NET_WAIT_STALLED;
    }
}

/* Another connection to a stalled peer would only pile the same messages
 * into its kernel once more, to arrive twice if it wakes up; what it has
 * not acknowledged is counted when the destination closes. */
void
net_give_up (NetDestination *self)
{
  sl_log (SL_LOG_ERROR, _("server takes nothing while the destination stops, giving up; server='%s', driver='%s'"),
          net_current_target (self)->host, self->super.id);
  self->given_up = TRUE;
}
