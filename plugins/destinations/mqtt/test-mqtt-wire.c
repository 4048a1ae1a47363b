/* SPDX-License-Identifier: GPL-2.0-or-later */
/* MQTT 3.1.1's packets as mqtt-wire.c writes and cuts them: the bytes of
 * CONNECT and PUBLISH as the standard lays them out, remaining lengths
 * of one and more digits, and reads that stop inside a packet. */
#include "plugins/destinations/mqtt/mqtt-wire.h"

#include <string.h>

static void
assert_bytes (const GString *out, const gchar *want, gsize len)
{
  g_assert_cmpuint (out->len, ==, len);
  g_assert_cmpmem (out->str, out->len, want, len);
}

static void
test_connect (void)
{
  GString *out = g_string_new (NULL);
  g_assert_true (mqtt_wire_connect (out, "id", "u", "pw", 60, TRUE));
  static const gchar want[] = "\x10\x15\0\x04MQTT\x04\xc2\0\x3c\0\x02id\0\x01u\0\x02pw";
  assert_bytes (out, want, sizeof want - 1);
  g_string_truncate (out, 0);
  g_assert_true (mqtt_wire_connect (out, "id", NULL, NULL, 5, FALSE));
  static const gchar bare[] = "\x10\x0e\0\x04MQTT\x04\0\0\x05\0\x02id";
  assert_bytes (out, bare, sizeof bare - 1);
  gchar *long_id = g_strnfill (65536, 'x');
  g_string_truncate (out, 0);
  g_assert_false (mqtt_wire_connect (out, long_id, NULL, NULL, 60, FALSE));
  g_free (long_id);
  g_string_free (out, TRUE);
}

static void
test_publish (void)
{
  GString *out = g_string_new (NULL);
  g_assert_true (mqtt_wire_publish (out, "a/b", 3, "hi", 2, 1, 0x1234));
  static const gchar qos1[] = "\x32\x09\0\x03" "a/b\x12\x34hi";
  assert_bytes (out, qos1, sizeof qos1 - 1);
  g_string_truncate (out, 0);
  g_assert_true (mqtt_wire_publish (out, "t", 1, "x", 1, 0, 7));
  static const gchar qos0[] = "\x30\x04\0\x01tx";
  assert_bytes (out, qos0, sizeof qos0 - 1);
  g_string_free (out, TRUE);
}

/* 200 bytes of payload take two digits of remaining length (208 = 80 + 1 * 128) */
static void
test_round_trip (void)
{
  GString *out = g_string_new (NULL);
  gchar payload[200];
  memset (payload, 'p', sizeof payload);
  g_assert_true (mqtt_wire_publish (out, "logs", 4, payload, sizeof payload, 2, 65535));
  g_assert_cmpuint ((guint8) out->str[1], ==, 0x80 | 80);
  g_assert_cmpuint ((guint8) out->str[2], ==, 1);
  MqttWirePacket p;
  for (gsize cut = 0; cut < out->len; cut++)
    g_assert_cmpint (mqtt_wire_next ((const guint8 *) out->str, cut, &p), ==, 0);
  g_assert_cmpint (mqtt_wire_next ((const guint8 *) out->str, out->len, &p), ==, (gssize) out->len);
  g_assert_cmpuint (p.type, ==, 3);
  g_assert_cmpuint (p.flags, ==, 4);
  g_assert_cmpuint (p.len, ==, 2 + 4 + 2 + sizeof payload);
  g_string_free (out, TRUE);
}

static void
test_acks (void)
{
  GString *out = g_string_new (NULL);
  mqtt_wire_ack (out, MQTT_WIRE_PUBREL, 0x0102);
  mqtt_wire_pingreq (out);
  mqtt_wire_disconnect (out);
  static const gchar want[] = "\x62\x02\x01\x02\xc0\0\xe0\0";
  assert_bytes (out, want, sizeof want - 1);
  static const guint8 in[] = { 0x40, 0x02, 0xab, 0xcd, 0xd0, 0x00, 0x70, 0x02, 0x00 };
  MqttWirePacket p;
  g_assert_cmpint (mqtt_wire_next (in, sizeof in, &p), ==, 4);
  g_assert_cmpuint (p.type, ==, MQTT_WIRE_PUBACK);
  g_assert_cmpuint (mqtt_wire_ack_id (&p), ==, 0xabcd);
  g_assert_cmpint (mqtt_wire_next (in + 4, sizeof in - 4, &p), ==, 2);
  g_assert_cmpuint (p.type, ==, MQTT_WIRE_PINGRESP);
  g_assert_cmpuint (mqtt_wire_ack_id (&p), ==, 0);
  g_assert_cmpint (mqtt_wire_next (in + 6, sizeof in - 6, &p), ==, 0);
  /* a PUBLISH the broker sends: qos 1, topic "t", id 0x0203; qos 0 has no id */
  static const guint8 publish[] = { 0x32, 0x06, 0x00, 0x01, 't', 0x02, 0x03, 'x' };
  g_assert_cmpint (mqtt_wire_next (publish, sizeof publish, &p), ==, sizeof publish);
  g_assert_cmpuint (mqtt_wire_publish_id (&p), ==, 0x0203);
  static const guint8 publish0[] = { 0x30, 0x04, 0x00, 0x01, 't', 'x' };
  g_assert_cmpint (mqtt_wire_next (publish0, sizeof publish0, &p), ==, sizeof publish0);
  g_assert_cmpuint (mqtt_wire_publish_id (&p), ==, 0);
  static const guint8 endless[] = { 0x40, 0xff, 0xff, 0xff, 0xff, 0x01 };
  g_assert_cmpint (mqtt_wire_next (endless, sizeof endless, &p), ==, -1);
  g_string_free (out, TRUE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/mqtt-wire/connect", test_connect);
  g_test_add_func ("/mqtt-wire/publish", test_publish);
  g_test_add_func ("/mqtt-wire/round-trip", test_round_trip);
  g_test_add_func ("/mqtt-wire/acks", test_acks);
  return g_test_run ();
}
