/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Datagrams (UDP, unix-dgram): one message per datagram, a batch per
 * sendmmsg() call. A datagram is never split: one larger than the socket
 * can carry is counted as oversize and dropped, the batch goes on. */
/* sendmmsg() and struct mmsghdr: GNU's, asked for here as a plugin built from the kit alone must */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include "plugins/destinations/network/network-destination.h"
#include "core/i18n.h"
#include "core/internal.h"

#include <errno.h>
#include <sys/socket.h>

static void
prepare (NetDestination *self, SlMessage *const *msgs, guint n)
{
  if (self->hdrs_size < n)
    {
      self->hdrs = g_renew (struct mmsghdr, self->hdrs, n);
      self->iovs = g_renew (struct iovec, self->iovs, n);
      self->hdrs_size = n;
    }
  GString *out = self->datagrams;
  gsize *ends = g_newa (gsize, n);
  g_string_truncate (out, 0);
  for (guint i = 0; i < n; i++)
    {
      net_format_append (&self->format, msgs[i], out, self->frame);
      ends[i] = out->len;
    }
  /* out may have moved while it grew: pointers are taken once it is whole */
  for (guint i = 0; i < n; i++)
    {
      gsize start = i ? ends[i - 1] : 0;
      self->iovs[i] = (struct iovec) { out->str + start, ends[i] - start };
      self->hdrs[i] = (struct mmsghdr) { .msg_hdr = { .msg_iov = &self->iovs[i], .msg_iovlen = 1 } };
    }
}

static void
count_oversize (NetDestination *self, gsize len)
{
  if (sl_counter_get (self->oversize) == 0)
    sl_log (SL_LOG_ERROR, _("message too large for one datagram, dropped; size='%zu', driver='%s'"),
            len, self->super.id);
  sl_counter_add (self->oversize, 1);
}

guint
net_dgram_write (NetDestination *self, SlMessage *const *msgs, guint n, guint *dropped)
{
  if (self->given_up || (self->fd < 0 && !net_connect (self)))
    return 0;
  prepare (self, msgs, n);
  guint done = 0;
  while (done < n)
    {
      gint sent = sendmmsg (self->fd, self->hdrs + done, n - done, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (sent > 0)
        {
          done += sent;
          continue;
        }
      if (errno == EINTR)
        continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK)
        {
          NetWait wait = net_wait_writable (self);
          if (wait == NET_WAIT_WRITABLE)
            continue;
          if (wait == NET_WAIT_STALLED)
            net_give_up (self);
          else
            {
              g_snprintf (self->why, sizeof self->why, _("the socket to %s was closed"), net_current_target (self)->host);
              net_disconnect (self);
            }
          break;
        }
      if (errno == EMSGSIZE)
        {
          count_oversize (self, self->iovs[done].iov_len);
          (*dropped)++;
          done++;
          continue;
        }
      /* UDP reports here an ICMP "port unreachable" for an earlier
       * datagram; this one was not sent and goes now */
      if (errno == ECONNREFUSED && self->family != AF_UNIX)
        continue;
      g_snprintf (self->why, sizeof self->why, _("cannot send datagrams to %s: %s"), net_current_target (self)->host,
                  g_strerror (errno));
      net_disconnect (self);
      break;
    }
  return done;
}
