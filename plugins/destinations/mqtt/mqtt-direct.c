/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The mqtt() destination's session with a broker at a tcp:// address
 * (without http-proxy()): MQTT 3.1.1 spoken by the writer thread on a
 * socket of its own. A write's publishes leave in one send() and one
 * read takes every acknowledgement that came, where Paho's asynchronous
 * client hands each message between three threads and reads each
 * acknowledgement in three recv() calls (doc/performance.md). TLS,
 * WebSocket and proxies stay with Paho (mqtt-session.c). Packet ids
 * follow each other across connections, so that a publish after a
 * reconnection never takes the id of one the broker still holds from a
 * session it keeps (cleansession(no)). */
#include "plugins/destinations/mqtt/mqtt-destination.h"
#include "plugins/destinations/mqtt/mqtt-wire.h"
#include "core/io/net-connect.h"
#include "core/route/destination.h"
#include "core/internal.h"
#include "core/i18n.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* how often a wait looks whether the destination is being stopped */
#define MQTT_DIRECT_POLL_MS 100

static void
fail (MqttDestination *self, const gchar *reason)
{
  g_mutex_lock (&self->lock);
  self->connected = FALSE;
  if (!self->reason)
    self->reason = g_strdup (reason);
  g_mutex_unlock (&self->lock);
}

/* The slot of packet id, if it is in flight: ids follow the slots' order. */
static MqttSlot *
slot_of (MqttDestination *self, guint16 id)
{
  if (!self->span)
    return NULL;
  guint offset = ((guint) id + 65535 - self->slots[self->head].id) % 65535;
  if (offset >= self->span)
    return NULL;
  MqttSlot *slot = &self->slots[(self->head + offset) % MQTT_SLOTS];
  return slot->id == id ? slot : NULL;
}

/* What the broker sent: acknowledgements settle their slots (a PUBREC
 * is answered by PUBREL first). A PUBLISH, for a subscription a kept
 * session of client-id() has, is acknowledged and let go, as Paho's
 * client of the other addresses does. FALSE for anything else. */
static gboolean
take_packets (MqttDestination *self)
{
  gsize at = 0;
  gboolean ok = TRUE;
  g_mutex_lock (&self->lock);
  while (ok)
    {
      MqttWirePacket p;
      gssize n = mqtt_wire_next (self->in + at, self->in_len - at, &p);
      if (n <= 0)
        {
          ok = n == 0;
          break;
        }
      at += (gsize) n;
      if (p.type == MQTT_WIRE_PINGRESP)
        continue;
      if (p.type == MQTT_WIRE_PUBLISH)
        {
          guint16 in_id = mqtt_wire_publish_id (&p);
          if (in_id)
            mqtt_wire_ack (self->out, (p.flags & 4) ? MQTT_WIRE_PUBREC : MQTT_WIRE_PUBACK, in_id);
          continue;
        }
      guint16 id = mqtt_wire_ack_id (&p);
      MqttSlot *slot = id ? slot_of (self, id) : NULL;
      if (!id)
        ok = FALSE;
      else if (p.type == MQTT_WIRE_PUBREL)
        mqtt_wire_ack (self->out, MQTT_WIRE_PUBCOMP, id);
      else if (p.type == MQTT_WIRE_PUBREC)
        mqtt_wire_ack (self->out, MQTT_WIRE_PUBREL, id);
      else if (p.type != MQTT_WIRE_PUBACK && p.type != MQTT_WIRE_PUBCOMP)
        ok = FALSE;
      else if (slot && slot->state == MQTT_SLOT_PENDING)
        slot->state = MQTT_SLOT_DONE;
    }
  g_mutex_unlock (&self->lock);
  memmove (self->in, self->in + at, self->in_len - at);
  self->in_len -= at;
  /* only a packet a publisher is not sent fills the buffer */
  ok = ok && self->in_len < MQTT_DIRECT_READ;
  if (!ok)
    fail (self, _("the broker sent a packet a publisher does not expect"));
  return ok;
}

/* At qos(0) a message is done once written to the socket. */
static void
settle_written (MqttDestination *self)
{
  if (self->qos)
    return;
  g_mutex_lock (&self->lock);
  for (guint k = 0; k < self->span; k++)
    {
      MqttSlot *slot = &self->slots[(self->head + k) % MQTT_SLOTS];
      if (slot->state == MQTT_SLOT_PENDING)
        slot->state = MQTT_SLOT_DONE;
    }
  g_mutex_unlock (&self->lock);
}

/* One exchange with the broker: writes what is pending and reads what
 * came, waiting up to timeout_ms for either; FALSE when the connection
 * is gone (reason says why). */
static gboolean
pump (MqttDestination *self, gint timeout_ms)
{
  struct pollfd p = { self->fd, POLLIN | (self->out_done < self->out->len ? POLLOUT : 0), 0 };
  gint rc = poll (&p, 1, timeout_ms);
  if (rc < 0 && errno != EINTR)
    {
      fail (self, g_strerror (errno));
      return FALSE;
    }
  if (rc <= 0)
    return TRUE;
  if (p.revents & POLLOUT)
    {
      gssize n = send (self->fd, self->out->str + self->out_done, self->out->len - self->out_done, MSG_NOSIGNAL);
      if (n < 0 && errno != EAGAIN && errno != EINTR)
        {
          fail (self, g_strerror (errno));
          return FALSE;
        }
      if (n > 0)
        {
          self->out_done += (gsize) n;
          self->last_write = g_get_monotonic_time ();
        }
      if (self->out_done == self->out->len)
        {
          g_string_truncate (self->out, 0);
          self->out_done = 0;
          settle_written (self);
        }
    }
  if (p.revents & (POLLIN | POLLHUP | POLLERR))
    {
      gssize n = read (self->fd, self->in + self->in_len, MQTT_DIRECT_READ - self->in_len);
      if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
        {
          fail (self, n ? g_strerror (errno) : _("the connection was lost"));
          return FALSE;
        }
      if (n > 0)
        {
          self->in_len += (gsize) n;
          return take_packets (self);
        }
    }
  return TRUE;
}

/* host and port of address() tcp://host[:port] or tcp://[v6][:port] */
static void
split_address (const gchar *address, gchar **host, gchar **port)
{
  const gchar *at = address + strlen ("tcp://");
  const gchar *end = *at == '[' ? strchr (at, ']') : NULL;
  const gchar *colon = strrchr (end ? end : at, ':');
  if (end)
    *host = g_strndup (at + 1, (gsize) (end - at - 1));
  else
    *host = colon ? g_strndup (at, (gsize) (colon - at)) : g_strdup (at);
  *port = g_strdup (colon ? colon + 1 : "1883");
}

gboolean
mqtt_direct_start (MqttDestination *self, gint timeout_s, gint *code, gchar **message)
{
  mqtt_window_forget (self);
  g_mutex_lock (&self->lock);
  self->connected = FALSE;
  g_clear_pointer (&self->reason, g_free);
  g_mutex_unlock (&self->lock);
  g_string_truncate (self->out, 0);
  self->out_done = self->in_len = 0;
  *code = MQTTASYNC_FAILURE;

  g_autofree gchar *host = NULL, *port = NULL;
  split_address (self->address, &host, &port);
  GError *error = NULL;
  self->fd = sl_net_connect (host, port, timeout_s * 1000, FALSE, &error);
  if (self->fd < 0)
    {
      *message = g_strdup (error->message);
      g_error_free (error);
      return FALSE;
    }
  if (!mqtt_wire_connect (self->out, self->client_id_text, self->username, self->password,
                          (guint16) MIN (self->keepalive, 65535), self->cleansession))
    {
      *message = g_strdup (_("client-id(), username() or password() is longer than MQTT's 65,535 bytes"));
      return FALSE;
    }
  self->connected = TRUE;
  gint64 deadline = g_get_monotonic_time () + timeout_s * G_TIME_SPAN_SECOND;
  MqttWirePacket p = { 0 };
  gssize n = 0;
  while ((n = mqtt_wire_next (self->in, self->in_len, &p)) == 0)
    {
      gint64 left = (deadline - g_get_monotonic_time ()) / 1000;
      if (left <= 0 || sl_destination_stopping ())
        {
          fail (self, _("the broker did not answer"));
          break;
        }
      struct pollfd pfd = { self->fd, POLLIN | (self->out_done < self->out->len ? POLLOUT : 0), 0 };
      if (poll (&pfd, 1, (gint) MIN (left, MQTT_DIRECT_POLL_MS)) < 0 && errno != EINTR)
        {
          fail (self, g_strerror (errno));
          break;
        }
      if (pfd.revents & POLLOUT)
        {
          gssize w = send (self->fd, self->out->str + self->out_done, self->out->len - self->out_done, MSG_NOSIGNAL);
          if (w > 0)
            self->out_done += (gsize) w;
        }
      if (pfd.revents & (POLLIN | POLLHUP | POLLERR))
        {
          gssize r = read (self->fd, self->in + self->in_len, MQTT_DIRECT_READ - self->in_len);
          if (r <= 0 && !(r < 0 && (errno == EAGAIN || errno == EINTR)))
            {
              fail (self, r ? g_strerror (errno) : _("the broker closed the connection"));
              break;
            }
          if (r > 0)
            self->in_len += (gsize) r;
        }
    }
  g_string_truncate (self->out, 0);
  self->out_done = 0;
  self->last_write = g_get_monotonic_time ();
  if (n > 0 && p.type == MQTT_WIRE_CONNACK && p.len == 2)
    *code = p.body[1];
  else if (n != 0)
    fail (self, _("the broker's answer to CONNECT is not a CONNACK"));
  if (n > 0)
    {
      memmove (self->in, self->in + n, self->in_len - (gsize) n);
      self->in_len -= (gsize) n;
    }
  g_mutex_lock (&self->lock);
  gboolean connected = self->connected && *code == 0;
  self->connected = connected;
  *message = g_strdup (self->reason);
  g_mutex_unlock (&self->lock);
  return connected;
}

void
mqtt_direct_end (MqttDestination *self, gint timeout_ms)
{
  if (self->fd < 0)
    return;
  if (self->connected)
    {
      /* DISCONNECT after what is still to be written, each at its pace */
      mqtt_wire_disconnect (self->out);
      gint64 deadline = g_get_monotonic_time () + timeout_ms * G_TIME_SPAN_MILLISECOND;
      while (self->out->len && g_get_monotonic_time () < deadline && pump (self, MQTT_DIRECT_POLL_MS))
        ;
    }
  close (self->fd);
  self->fd = -1;
  self->connected = FALSE;
}

gboolean
mqtt_direct_publish (MqttDestination *self, guint i, const gchar *topic, const GString *payload)
{
  MqttSlot *slot = &self->slots[i];
  slot->id = self->next_id;
  self->next_id = self->next_id % 65535 + 1;
  gsize topic_len = strlen (topic);
  if (g_utf8_validate (topic, (gssize) topic_len, NULL)
      && mqtt_wire_publish (self->out, topic, topic_len, payload->str, payload->len, self->qos, slot->id))
    return TRUE;
  sl_log (SL_LOG_ERROR, _("%s: a message for topic '%s' cannot be published (not UTF-8, or too long for MQTT), it is "
                          "dropped"), self->base.id, topic);
  g_mutex_lock (&self->lock);
  slot->state = MQTT_SLOT_DROPPED;
  g_mutex_unlock (&self->lock);
  return TRUE;
}

gboolean
mqtt_direct_take (MqttDestination *self, guint want, gint64 timeout_us, MqttRound *round)
{
  gint64 deadline = g_get_monotonic_time () + timeout_us;
  gboolean ok = self->connected && pump (self, 0);
  for (;;)
    {
      g_mutex_lock (&self->lock);
      gboolean waits = want && self->span && mqtt_window_awaited (self, want);
      gboolean oldest_pending = self->span && self->slots[self->head].state == MQTT_SLOT_PENDING;
      g_mutex_unlock (&self->lock);
      if (!ok || (!waits && self->out_done == self->out->len))
        break;
      gint64 now = g_get_monotonic_time ();
      /* as mqtt_window_take(): a stop fails only a wait that got nothing */
      if (sl_destination_stopping ())
        {
          if (waits && oldest_pending)
            fail (self, _("the destination is stopping"));
          break;
        }
      if (now >= deadline)
        {
          if (self->out->len)
            fail (self, _("the broker took nothing for 10 s"));
          else if (oldest_pending)
            fail (self, _("the broker confirmed nothing for 10 s"));
          break;
        }
      ok = pump (self, (gint) MIN ((deadline - now) / 1000 + 1, MQTT_DIRECT_POLL_MS));
    }
  return mqtt_window_take (self, 0, 0, round);
}

void
mqtt_direct_tick (MqttDestination *self)
{
  if (!self->connected)
    return;
  if (g_get_monotonic_time () - self->last_write >= self->keepalive * G_TIME_SPAN_SECOND / 2 && !self->out->len)
    mqtt_wire_pingreq (self->out);
  pump (self, 0);
}
