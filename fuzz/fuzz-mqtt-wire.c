/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: any bytes as an MQTT broker (or anyone on its port)
 * could send them to mqtt() on tcp://, cut into packets as the writer
 * reads them: each packet lies inside what was read, a packet cut from
 * the whole is cut the same from its own bytes, and no proper prefix of
 * it is a packet already. */
#include "plugins/destinations/mqtt/mqtt-wire.h"

#include <stdlib.h>

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  gsize at = 0;
  while (at < size)
    {
      MqttWirePacket packet, again;
      gssize cut = mqtt_wire_next (data + at, size - at, &packet);
      if (cut <= 0)
        break;
      if ((gsize) cut > size - at || packet.body < data + at || packet.body + packet.len > data + at + cut)
        abort ();
      if (mqtt_wire_next (data + at, cut - 1, &again) > 0)
        abort ();
      if (mqtt_wire_next (data + at, cut, &again) != cut || again.type != packet.type || again.len != packet.len)
        abort ();
      (void) mqtt_wire_ack_id (&packet);
      (void) mqtt_wire_publish_id (&packet);
      at += cut;
    }
  return 0;
}
