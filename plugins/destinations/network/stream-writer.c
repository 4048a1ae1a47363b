/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Streams (TCP, unix-stream): a batch is rendered behind the backlog and
 * sent with as few send() calls as the socket allows. A message counts as
 * written once all its bytes are in the kernel; it stays in the backlog
 * until the peer acknowledged it (SIOCOUTQ), and a connection that breaks
 * before that has it sent again on the next one. Over TLS, SIOCOUTQ counts
 * record bytes: a message is acknowledged once the records of the write
 * that took its last byte are (sl_tls_unacked). */
/* POLLRDHUP: GNU's, asked for here as a plugin built from the kit alone must */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include "plugins/destinations/network/network-destination.h"
#include "core/i18n.h"
#include "core/internal.h"

#include <errno.h>
#include <linux/sockios.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

/* How long a closing connection waits for the peer to acknowledge what it
 * was given, so that it need not be sent again. */
#define SETTLE_MS 1000

/* TCP keeps counting unacknowledged bytes after the peer closed or reset
 * the connection. A unix socket counts the memory of what its peer has
 * not read, and frees it when the peer closes unread: its count is only
 * believed while the peer is there. */
static gboolean
unacked_bytes (NetDestination *self, gsize *unacked)
{
  gint outq = 0;
  if (ioctl (self->fd, SIOCOUTQ, &outq) < 0 || outq < 0)
    return FALSE;
  if (self->tls)
    {
      *unacked = sl_tls_unacked (self->tls, outq);
      return TRUE;
    }
  if (self->family == AF_UNIX)
    {
      struct pollfd pfd = { self->fd, 0, 0 };
      if (poll (&pfd, 1, 0) != 0)
        return FALSE;
    }
  *unacked = outq;
  return TRUE;
}

static void
note_delivered (NetDestination *self)
{
  gsize unacked;
  if (self->fd >= 0 && unacked_bytes (self, &unacked))
    sl_resend_buffer_delivered (&self->backlog, unacked);
}

/* A TCP connection that was reset or timed out will acknowledge nothing
 * more. */
static gboolean
connection_dead (NetDestination *self)
{
  if (self->family == AF_UNIX)
    return FALSE;
  struct tcp_info info;
  socklen_t len = sizeof info;
  return getsockopt (self->fd, IPPROTO_TCP, TCP_INFO, &info, &len) < 0 || info.tcpi_state == TCP_CLOSE;
}

/* Gives the peer a moment to acknowledge what it was given. */
static void
settle (NetDestination *self)
{
  gint64 limit = g_get_monotonic_time () + SETTLE_MS * 1000;
  for (;;)
    {
      gsize unacked;
      if (!unacked_bytes (self, &unacked))
        return;
      sl_resend_buffer_delivered (&self->backlog, unacked);
      if (unacked == 0 || connection_dead (self) || g_get_monotonic_time () >= limit)
        return;
      g_usleep (5 * 1000);
    }
}

/* A connection that ends keeps in the backlog what the peer did not
 * acknowledge; the next one starts by sending that. */
static void
end_connection (NetDestination *self, gboolean ours)
{
  /* our end of stream first, so that the peer reads up to it and closes;
   * unix sockets are left alone (see unacked_bytes) */
  if (ours && self->tls)
    sl_tls_close_notify (self->tls);
  if (ours && self->family != AF_UNIX)
    shutdown (self->fd, SHUT_WR);
  settle (self);
  net_disconnect (self);
  sl_resend_buffer_rewind (&self->backlog);
}

static void
note_lost_connection (NetDestination *self, gint err)
{
  gchar *server = self->family == AF_UNIX
                  ? g_strdup (net_current_target (self)->host)
                  : g_strdup_printf ("%s port %s", net_current_target (self)->host, net_current_target (self)->port);
  if (err)
    g_snprintf (self->why, sizeof self->why, _("the connection to %s broke: %s"), server, g_strerror (err));
  else
    g_snprintf (self->why, sizeof self->why, _("%s closed the connection"), server);
  g_free (server);
}

static gint
socket_error (NetDestination *self)
{
  gint err = 0;
  socklen_t len = sizeof err;
  if (getsockopt (self->fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0)
    return errno;
  return err;
}

/* Before a batch: a peer that closed (a receiver stopping says so before
 * it goes) gets no more data on this connection. */
static void
check_peer (NetDestination *self)
{
  struct pollfd pfd = { self->fd, POLLIN | POLLRDHUP, 0 };
  if (poll (&pfd, 1, 0) <= 0)
    return;
  gboolean gone = (pfd.revents & (POLLERR | POLLHUP | POLLRDHUP | POLLNVAL)) != 0;
  while (!gone && (pfd.revents & POLLIN))
    {
      gssize n = net_recv_discard (self);
      if (n > 0 && self->close_on_input)
        {
          sl_log (SL_LOG_NOTICE, _("the server sent data, closing the connection as close-on-input(yes) says; "
                                   "driver='%s'"), self->super.id);
          end_connection (self, TRUE);
          return;
        }
      if (n > 0)
        continue;
      gone = n == 0 || (errno != EAGAIN && errno != EINTR);
      break;
    }
  if (!gone)
    return;
  note_lost_connection (self, socket_error (self));
  end_connection (self, TRUE);
}

static void
maybe_fail_back (NetDestination *self)
{
  gint64 now = g_get_monotonic_time ();
  if (!self->failback || self->current == 0 || now < self->next_probe)
    return;
  self->next_probe = now + self->probe_interval_us;
  if (!net_probe_primary (self))
    {
      self->probes_passed = 0;
      return;
    }
  if (++self->probes_passed < self->probes_required)
    return;
  const NetTarget *primary = g_ptr_array_index (self->targets, 0);
  sl_log (SL_LOG_NOTICE, _("primary server answers again, failing back; server='%s', driver='%s'"),
          primary->host, self->super.id);
  if (self->fd >= 0)
    end_connection (self, TRUE);
  self->current = 0;
}

/* Sends the backlog from where the connection stands; FALSE when the
 * connection broke or the peer would take nothing while we stop. */
static gboolean
send_pending (NetDestination *self)
{
  SlResendBuffer *b = &self->backlog;
  while (sl_resend_buffer_unsent (b))
    {
      gssize n = net_send (self, b->bytes->str + b->sent, b->bytes->len - b->sent);
      if (n > 0)
        {
          b->sent += n;
          continue;
        }
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        {
          NetWait wait = net_wait_writable (self);
          if (wait == NET_WAIT_WRITABLE)
            continue;
          if (wait == NET_WAIT_STALLED)
            net_give_up (self);
          else
            note_lost_connection (self, socket_error (self));
          return FALSE;
        }
      note_lost_connection (self, n < 0 ? errno : EPIPE);
      return FALSE;
    }
  return TRUE;
}

static gboolean
reconnect (NetDestination *self)
{
  if (!net_connect (self))
    return FALSE;
  guint again = sl_resend_buffer_messages (&self->backlog);
  if (again)
    {
      sl_counter_add (self->resent, again);
      sl_log (SL_LOG_NOTICE, _("sending again what the server had not acknowledged; messages='%u', driver='%s'"),
              again, self->super.id);
    }
  return TRUE;
}

guint
net_stream_write (NetDestination *self, SlMessage *const *msgs, guint n)
{
  SlResendBuffer *b = &self->backlog;
  if (self->given_up)
    return 0;
  if (self->fd >= 0)
    check_peer (self);
  note_delivered (self);
  maybe_fail_back (self);
  if (self->fd < 0 && !reconnect (self))
    return 0;

  sl_resend_buffer_compact (b);
  guint mark = sl_resend_buffer_mark (b);
  for (guint i = 0; i < n; i++)
    {
      net_format_append (&self->format, msgs[i], b->bytes, self->frame);
      sl_resend_buffer_end_message (b);
    }
  if (send_pending (self))
    return n;

  /* The messages the kernel took whole are ours to deliver from now on;
   * the rest go back to the core, which gives them again after
   * time-reopen(). */
  if (!self->given_up)
    settle (self);
  guint written = sl_resend_buffer_take_back (b, mark, FALSE);
  net_disconnect (self);
  sl_resend_buffer_rewind (b);
  return written;
}

void
net_stream_flush (NetDestination *self)
{
  if (self->fd < 0)
    return;
  check_peer (self);
  note_delivered (self);
}

/* At a stop or reload: what the peer has not acknowledged yet gets one
 * more connection; what even that cannot deliver is counted and logged. */
void
net_stream_close (NetDestination *self)
{
  SlResendBuffer *b = &self->backlog;
  if (self->fd >= 0 && !self->given_up)
    end_connection (self, TRUE);
  net_disconnect (self);
  if (sl_resend_buffer_messages (b) && !self->given_up && reconnect (self))
    {
      if (send_pending (self))
        end_connection (self, TRUE);
      else if (!self->given_up)
        settle (self);
      net_disconnect (self);
    }
  guint lost = sl_resend_buffer_messages (b);
  if (lost)
    {
      sl_counter_add (self->dropped, lost);
      sl_log (SL_LOG_ERROR, _("server had not acknowledged messages when the destination closed; messages='%u', driver='%s'"),
              lost, self->super.id);
    }
  sl_resend_buffer_clear (b);
  sl_resend_buffer_init (b);
}
