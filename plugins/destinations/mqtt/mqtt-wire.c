/* SPDX-License-Identifier: GPL-2.0-or-later */
/* MQTT 3.1.1 (OASIS standard, 2014), sections 2 and 3: a fixed header
 * of the type and flags and the remaining length in base-128 digits,
 * strings as two bytes of length and their bytes. */
#include "plugins/destinations/mqtt/mqtt-wire.h"

#include <string.h>

#define MQTT_WIRE_MAX_LENGTH 268435455
#define MQTT_WIRE_MAX_STRING 65535

static void
put_u16 (GString *out, guint16 v)
{
  g_string_append_c (out, (gchar) (v >> 8));
  g_string_append_c (out, (gchar) (v & 0xff));
}

static void
put_string (GString *out, const gchar *s, gsize len)
{
  put_u16 (out, (guint16) len);
  g_string_append_len (out, s, (gssize) len);
}

static void
put_header (GString *out, guint8 first, gsize remaining)
{
  g_string_append_c (out, (gchar) first);
  do
    {
      guint8 digit = remaining % 128;
      remaining /= 128;
      g_string_append_c (out, (gchar) (remaining ? digit | 128 : digit));
    }
  while (remaining);
}

gboolean
mqtt_wire_connect (GString *out, const gchar *client_id, const gchar *username, const gchar *password,
                   guint16 keepalive, gboolean cleansession)
{
  gsize id_len = strlen (client_id), user_len = username ? strlen (username) : 0,
        pass_len = password ? strlen (password) : 0;
  if (id_len > MQTT_WIRE_MAX_STRING || user_len > MQTT_WIRE_MAX_STRING || pass_len > MQTT_WIRE_MAX_STRING)
    return FALSE;
  guint8 flags = (username ? 0x80 : 0) | (password ? 0x40 : 0) | (cleansession ? 0x02 : 0);
  gsize remaining = 10 + 2 + id_len + (username ? 2 + user_len : 0) + (password ? 2 + pass_len : 0);
  put_header (out, 0x10, remaining);
  put_string (out, "MQTT", 4);
  g_string_append_c (out, 4);
  g_string_append_c (out, (gchar) flags);
  put_u16 (out, keepalive);
  put_string (out, client_id, id_len);
  if (username)
    put_string (out, username, user_len);
  if (password)
    put_string (out, password, pass_len);
  return TRUE;
}

gboolean
mqtt_wire_publish (GString *out, const gchar *topic, gsize topic_len, const gchar *payload, gsize payload_len,
                   gint qos, guint16 id)
{
  if (topic_len > MQTT_WIRE_MAX_STRING)
    return FALSE;
  gsize remaining = 2 + topic_len + (qos ? 2 : 0);
  if (payload_len > MQTT_WIRE_MAX_LENGTH - remaining)
    return FALSE;
  put_header (out, (guint8) (0x30 | qos << 1), remaining + payload_len);
  put_string (out, topic, topic_len);
  if (qos)
    put_u16 (out, id);
  g_string_append_len (out, payload, (gssize) payload_len);
  return TRUE;
}

void
mqtt_wire_ack (GString *out, guint8 type, guint16 id)
{
  /* PUBREL's reserved flags are 0010 */
  put_header (out, (guint8) (type << 4 | (type == MQTT_WIRE_PUBREL ? 2 : 0)), 2);
  put_u16 (out, id);
}

void
mqtt_wire_pingreq (GString *out)
{
  put_header (out, 0xc0, 0);
}

void
mqtt_wire_disconnect (GString *out)
{
  put_header (out, 0xe0, 0);
}

gssize
mqtt_wire_next (const guint8 *buf, gsize len, MqttWirePacket *packet)
{
  gsize remaining = 0, at = 1;
  for (guint shift = 0;; shift += 7)
    {
      if (at >= len)
        return 0;
      if (shift > 21)
        return -1;
      guint8 digit = buf[at++];
      remaining |= (gsize) (digit & 127) << shift;
      if (!(digit & 128))
        break;
    }
  if (len - at < remaining)
    return 0;
  packet->type = buf[0] >> 4;
  packet->flags = buf[0] & 15;
  packet->body = buf + at;
  packet->len = remaining;
  return (gssize) (at + remaining);
}

guint16
mqtt_wire_ack_id (const MqttWirePacket *packet)
{
  return packet->len == 2 ? (guint16) (packet->body[0] << 8 | packet->body[1]) : 0;
}

guint16
mqtt_wire_publish_id (const MqttWirePacket *packet)
{
  if (!(packet->flags & 6) || packet->len < 2)
    return 0;
  gsize topic_len = (gsize) (packet->body[0] << 8 | packet->body[1]);
  if (packet->len < 2 + topic_len + 2)
    return 0;
  return (guint16) (packet->body[2 + topic_len] << 8 | packet->body[3 + topic_len]);
}
