/* SPDX-License-Identifier: GPL-2.0-or-later */
/* MQTT 3.1.1's packets as a publishing client writes and reads them:
 * appended to a buffer, so that a batch goes out in one write, and cut
 * from what was read, so that one read takes many acknowledgements. */
#ifndef MQTT_WIRE_H
#define MQTT_WIRE_H

#include <glib.h>

G_BEGIN_DECLS

/* the packet types a publisher reads, as the first byte's high nibble */
#define MQTT_WIRE_CONNACK 2
#define MQTT_WIRE_PUBLISH 3
#define MQTT_WIRE_PUBACK 4
#define MQTT_WIRE_PUBREC 5
#define MQTT_WIRE_PUBREL 6
#define MQTT_WIRE_PUBCOMP 7
#define MQTT_WIRE_PINGRESP 13

/* One packet read: its type and flags (the first byte), its body. */
typedef struct
{
  guint8 type;
  guint8 flags;
  const guint8 *body;
  gsize len;
} MqttWirePacket;

/* CONNECT with MQTT 3.1.1's protocol level; FALSE when a string is longer
 * than the 65,535 bytes MQTT can carry. */
gboolean mqtt_wire_connect    (GString *out, const gchar *client_id, const gchar *username, const gchar *password,
                               guint16 keepalive, gboolean cleansession);
/* PUBLISH of payload to topic with packet id (unused at qos 0); FALSE,
 * with nothing appended, when the topic or the packet is too long. */
gboolean mqtt_wire_publish    (GString *out, const gchar *topic, gsize topic_len, const gchar *payload,
                               gsize payload_len, gint qos, guint16 id);
/* PUBACK, PUBREC, PUBREL or PUBCOMP (type) of packet id */
void     mqtt_wire_ack        (GString *out, guint8 type, guint16 id);
void     mqtt_wire_pingreq    (GString *out);
void     mqtt_wire_disconnect (GString *out);
/* Cuts the first packet of buf: its size, 0 while it is incomplete, -1
 * when buf does not start with a packet. */
gssize   mqtt_wire_next       (const guint8 *buf, gsize len, MqttWirePacket *packet);
/* The packet id of an acknowledgement, or 0 when its body is not one. */
guint16  mqtt_wire_ack_id     (const MqttWirePacket *packet);
/* The packet id of a PUBLISH at qos 1 or 2, 0 at qos 0 or when its body
 * is too short. */
guint16  mqtt_wire_publish_id (const MqttWirePacket *packet);

G_END_DECLS

#endif
