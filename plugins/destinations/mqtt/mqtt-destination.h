/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the parts of the mqtt() destination share: the driver instance and
 * the session with the broker (mqtt-session.c), which connects through
 * Paho and tracks each published message until the broker confirms it. */
#ifndef MQTT_DESTINATION_H
#define MQTT_DESTINATION_H

#include "core/plugin/plugin.h"
#include "core/stats.h"
#include "core/message/template.h"
#include "core/io/tls-block.h"

#include <MQTTAsync.h>

G_BEGIN_DECLS

/* messages of one round in flight at once: a whole batch (flush-lines()
 * is at most 1024) */
#define MQTT_SLOTS 1024

typedef enum
{
  MQTT_SLOT_PENDING,
  MQTT_SLOT_DONE,
  MQTT_SLOT_DROPPED,
  MQTT_SLOT_FAILED,
} MqttSlotState;

typedef struct _MqttDestination MqttDestination;

/* One message of the round, the context of its Paho callbacks; a
 * callback of an earlier round (its round differs) is ignored. */
typedef struct
{
  MqttDestination *owner;
  guint round;
  MqttSlotState state;
} MqttSlot;

struct _MqttDestination
{
  SlDriver base;
  const gchar *address;
  SlTemplate *topic;
  const gchar *fallback_topic;
  gint qos;
  SlTemplate *message;
  const gchar *client_id;
  const gchar *username;
  const gchar *password;
  gint keepalive;
  gboolean cleansession;
  const gchar *http_proxy;
  const SlCfgNode *tls_node;

  SlTlsBlock *tls;
  gchar *client_id_text;
  const SlTemplateEnv *env;
  GString *payload;
  GString *topic_text;
  SlCounter *refused;
  SlCounter *fallbacks;

  MQTTAsync client;
  /* what Paho's threads report, under lock */
  GMutex lock;
  GCond cond;
  gboolean locks_ready;
  gboolean connected;
  gboolean connect_settled;
  gint connect_code;
  gboolean disconnect_settled;
  gchar *reason;            /* why the connection or the round failed */
  guint round;
  guint settled;
  guint awaited;            /* how many the writer waits for; G_MAXUINT while it publishes */
  MqttSlot slots[MQTT_SLOTS];
};

/* How a round ended: done messages from the first confirmed (dropped of
 * them refused by Paho for good); reason says why the rest was not. */
typedef struct
{
  guint done;
  guint dropped;
  gchar reason[256];
} MqttRound;

/* Whether address() is ssl:// or wss://. */
gboolean mqtt_uses_tls      (const MqttDestination *self);
/* Creates the client and connects, waiting up to timeout_s; on failure
 * *code is the broker's CONNACK code (> 0) or Paho's error (<= 0) and
 * *message Paho's text, if any. */
gboolean mqtt_session_start (MqttDestination *self, gint timeout_s, gint *code, gchar **message);
/* Sends DISCONNECT and waits for it up to timeout_ms. */
void     mqtt_session_end   (MqttDestination *self, gint timeout_ms);
/* Starts a round of n messages, each pending. */
void     mqtt_round_begin   (MqttDestination *self, guint n);
/* Publishes the round's message i; FALSE when the connection is gone. */
gboolean mqtt_publish       (MqttDestination *self, guint i, const gchar *topic, const GString *payload);
/* Waits until the sent messages of the round are settled, the connection
 * is lost, the destination stops, or none settled for timeout_us. */
MqttRound mqtt_round_wait   (MqttDestination *self, guint sent, gint64 timeout_us);

G_END_DECLS

#endif
