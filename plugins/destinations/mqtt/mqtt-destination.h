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

/* messages in flight at once, across writes */
#define MQTT_SLOTS 1024
/* how many of the oldest a full window waits for: one wake-up of the
 * writer per run of confirmations, not per confirmation */
#define MQTT_REFILL (MQTT_SLOTS / 4)
/* what mqtt-direct.c reads at once: acknowledgements are four bytes */
#define MQTT_DIRECT_READ 16384

typedef enum
{
  MQTT_SLOT_PENDING,
  MQTT_SLOT_DONE,
  MQTT_SLOT_DROPPED,
  MQTT_SLOT_FAILED,
} MqttSlotState;

typedef struct _MqttDestination MqttDestination;

/* One message in flight, the context of its Paho callbacks; a callback
 * of a window forgotten since (its round differs) is ignored. */
typedef struct
{
  MqttDestination *owner;
  guint round;
  MqttSlotState state;
  guint16 id;               /* its packet id, in mqtt-direct.c's session */
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
  gchar *reason;            /* why the connection or a message failed */
  guint round;              /* the window's, one more each time it is forgotten */
  MqttSlot *awaited;        /* the slot whose settling wakes the writer, if it waits */
  /* the messages in flight, oldest first: span of them from head */
  guint head;
  guint span;
  MqttSlot slots[MQTT_SLOTS];

  /* a tcp:// address() without http-proxy(): mqtt-direct.c's session,
   * on the writer thread alone */
  gboolean direct;
  gint fd;
  GString *out;             /* packets to write, written up to out_done */
  gsize out_done;
  guint8 *in;               /* read, not yet whole packets */
  gsize in_len;
  guint16 next_id;          /* the next publish's packet id */
  gint64 last_write;        /* monotonic µs: PINGREQ after keepalive() / 2 of silence */
};

/* What mqtt_window_take() found: done messages from the oldest
 * confirmed (dropped of them refused by Paho for good), in_flight still
 * waiting; reason says why the rest will not be confirmed, if so. */
typedef struct
{
  guint done;
  guint dropped;
  guint in_flight;
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
/* The slot of the next message to publish, pending, or -1 when
 * MQTT_SLOTS messages are in flight. */
gint     mqtt_window_add    (MqttDestination *self);
/* Publishes the message of slot i; FALSE when the connection is gone. */
gboolean mqtt_publish       (MqttDestination *self, guint i, const gchar *topic, const GString *payload);
/* Takes the run of messages confirmed from the oldest in flight; with
 * want > 0, first waits until the want oldest (or all in flight, if
 * fewer) are settled, until the connection is lost, the destination
 * stops, or timeout_us pass. FALSE when the oldest will not be confirmed
 * (reason says why): the window is forgotten then. */
gboolean mqtt_window_take   (MqttDestination *self, guint want, gint64 timeout_us, MqttRound *round);
/* Forgets the messages in flight: their callbacks are ignored from now on. */
void     mqtt_window_forget (MqttDestination *self);
/* Under the lock: the slot whose settling ends a wait for the want
 * oldest (the last of them, then the oldest if the broker answered out
 * of order), NULL when both are settled or the oldest failed. */
MqttSlot *mqtt_window_awaited (MqttDestination *self, guint want);

/* mqtt-direct.c: the same for a tcp:// address without http-proxy(),
 * on a socket of the destination's own; mqtt_direct_take() writes what
 * was published and reads the acknowledgements, waiting as
 * mqtt_window_take() does. */
gboolean mqtt_direct_start   (MqttDestination *self, gint timeout_s, gint *code, gchar **message);
void     mqtt_direct_end     (MqttDestination *self, gint timeout_ms);
gboolean mqtt_direct_publish (MqttDestination *self, guint i, const gchar *topic, const GString *payload);
gboolean mqtt_direct_take    (MqttDestination *self, guint want, gint64 timeout_us, MqttRound *round);
/* About once a second: reads what came, and keeps an idle connection alive. */
void     mqtt_direct_tick    (MqttDestination *self);

G_END_DECLS

#endif
