/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The mqtt() destination's session with its broker, through Paho's
 * asynchronous client: Paho's own threads report the connection and each
 * message's completion into the instance, under its lock, and the writer
 * thread waits on them. Paho is never called with the lock held, as it
 * may report from within a call. */
#include "plugins/destinations/mqtt/mqtt-destination.h"
#include "core/route/destination.h"
#include "core/i18n.h"
#include "core/internal.h"

#include <string.h>

/* how often a wait looks whether the destination is being stopped */
#define MQTT_STOP_POLL_US (100 * G_TIME_SPAN_MILLISECOND)

gboolean
mqtt_uses_tls (const MqttDestination *self)
{
  return g_str_has_prefix (self->address, "ssl://") || g_str_has_prefix (self->address, "wss://");
}

static void
set_reason (MqttDestination *self, const gchar *reason)
{
  g_free (self->reason);
  self->reason = g_strdup (reason);
}

static void
on_connected (void *context, MQTTAsync_successData *response)
{
  MqttDestination *self = context;
  g_mutex_lock (&self->lock);
  self->connected = TRUE;
  self->connect_settled = TRUE;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
}

static void
on_connect_failed (void *context, MQTTAsync_failureData *response)
{
  MqttDestination *self = context;
  g_mutex_lock (&self->lock);
  self->connect_settled = TRUE;
  self->connect_code = response ? response->code : MQTTASYNC_FAILURE;
  /* a TLS error Paho reported first says more than its failure does */
  if (!self->reason)
    set_reason (self, response ? response->message : NULL);
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
}

static void
on_connection_lost (void *context, char *cause)
{
  MqttDestination *self = context;
  g_mutex_lock (&self->lock);
  self->connected = FALSE;
  set_reason (self, cause && *cause ? cause : _("the connection was lost"));
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
}

/* a destination subscribes to nothing, but Paho wants the callback */
static int
on_message_arrived (void *context, char *topic, int topic_len, MQTTAsync_message *message)
{
  MQTTAsync_freeMessage (&message);
  MQTTAsync_free (topic);
  return 1;
}

static void
settle (MqttSlot *slot, MqttSlotState state)
{
  MqttDestination *self = slot->owner;
  g_mutex_lock (&self->lock);
  if (slot->round == self->round && slot->state == MQTT_SLOT_PENDING)
    {
      slot->state = state;
      /* the writer waits for one slot, or a failure, not for each */
      if (self->awaited && (slot == self->awaited || state == MQTT_SLOT_FAILED))
        g_cond_broadcast (&self->cond);
    }
  g_mutex_unlock (&self->lock);
}

static void
on_published (void *context, MQTTAsync_successData *response)
{
  settle (context, MQTT_SLOT_DONE);
}

static void
on_publish_failed (void *context, MQTTAsync_failureData *response)
{
  settle (context, MQTT_SLOT_FAILED);
}

static void
on_disconnected (void *context, MQTTAsync_successData *response)
{
  MqttDestination *self = context;
  g_mutex_lock (&self->lock);
  self->disconnect_settled = TRUE;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
}

static void
on_disconnect_failed (void *context, MQTTAsync_failureData *response)
{
  on_disconnected (context, NULL);
}

static int
on_tls_error (const char *text, size_t len, void *context)
{
  MqttDestination *self = context;
  g_mutex_lock (&self->lock);
  g_free (self->reason);
  self->reason = g_strdup_printf (_("TLS error: %.*s"), (gint) len, text);
  g_mutex_unlock (&self->lock);
  return 1;
}

/* Waits on the instance's condition (lock held) until *flag or the
 * deadline, or the destination stops. */
static void
wait_for (MqttDestination *self, const gboolean *flag, gint64 deadline)
{
  while (!*flag && !sl_destination_stopping ())
    {
      gint64 now = g_get_monotonic_time ();
      if (now >= deadline)
        return;
      g_cond_wait_until (&self->cond, &self->lock, MIN (deadline, now + MQTT_STOP_POLL_US));
    }
}

gboolean
mqtt_session_start (MqttDestination *self, gint timeout_s, gint *code, gchar **message)
{
  gint rc = MQTTAsync_create (&self->client, self->address, self->client_id_text, MQTTCLIENT_PERSISTENCE_NONE, NULL);
  if (rc == MQTTASYNC_SUCCESS)
    rc = MQTTAsync_setCallbacks (self->client, self, on_connection_lost, on_message_arrived, NULL);
  if (rc != MQTTASYNC_SUCCESS)
    {
      *code = rc;
      return FALSE;
    }
  mqtt_window_forget (self);
  g_mutex_lock (&self->lock);
  self->connected = self->connect_settled = FALSE;
  self->connect_code = 0;
  g_clear_pointer (&self->reason, g_free);
  g_mutex_unlock (&self->lock);

  MQTTAsync_connectOptions options = MQTTAsync_connectOptions_initializer;
  options.keepAliveInterval = self->keepalive;
  options.cleansession = self->cleansession;
  options.username = self->username;
  options.password = self->password;
  options.connectTimeout = timeout_s;
  options.MQTTVersion = MQTTVERSION_3_1_1;
  options.httpProxy = self->http_proxy;
  options.httpsProxy = self->http_proxy;
  options.onSuccess = on_connected;
  options.onFailure = on_connect_failed;
  options.context = self;
  MQTTAsync_SSLOptions tls = MQTTAsync_SSLOptions_initializer;
  if (mqtt_uses_tls (self))
    {
      const SlTlsSettings *s = sl_tls_block_settings (self->tls);
      tls.trustStore = s->ca_file;
      tls.CApath = s->ca_dir;
      tls.keyStore = s->cert_file;
      tls.privateKey = s->key_file;
      tls.privateKeyPassword = s->key_passphrase;
      tls.enabledCipherSuites = s->cipher_suite;
      tls.enableServerCertAuth = s->verify_trusted;
      tls.verify = s->verify_trusted;
      tls.disableDefaultTrustStore = !s->system_store;
      tls.ssl_error_cb = on_tls_error;
      tls.ssl_error_context = self;
      options.ssl = &tls;
    }
  rc = MQTTAsync_connect (self->client, &options);
  if (rc != MQTTASYNC_SUCCESS)
    {
      *code = rc;
      return FALSE;
    }
  g_mutex_lock (&self->lock);
  /* Paho gives up after connectTimeout itself; the margin is for its threads */
  wait_for (self, &self->connect_settled, g_get_monotonic_time () + (timeout_s + 2) * G_TIME_SPAN_SECOND);
  gboolean connected = self->connected;
  *code = self->connect_settled ? self->connect_code : MQTTASYNC_FAILURE;
  *message = g_strdup (self->connect_settled ? self->reason : _("the broker did not answer"));
  g_mutex_unlock (&self->lock);
  return connected;
}

void
mqtt_session_end (MqttDestination *self, gint timeout_ms)
{
  g_mutex_lock (&self->lock);
  gboolean connected = self->connected;
  self->disconnect_settled = FALSE;
  g_mutex_unlock (&self->lock);
  if (!connected)
    return;
  MQTTAsync_disconnectOptions options = MQTTAsync_disconnectOptions_initializer;
  options.timeout = timeout_ms;
  options.onSuccess = on_disconnected;
  options.onFailure = on_disconnect_failed;
  options.context = self;
  if (MQTTAsync_disconnect (self->client, &options) != MQTTASYNC_SUCCESS)
    return;
  g_mutex_lock (&self->lock);
  wait_for (self, &self->disconnect_settled, g_get_monotonic_time () + timeout_ms * G_TIME_SPAN_MILLISECOND);
  self->connected = FALSE;
  g_mutex_unlock (&self->lock);
}

gint
mqtt_window_add (MqttDestination *self)
{
  g_mutex_lock (&self->lock);
  gint i = -1;
  if (self->span < MQTT_SLOTS)
    {
      i = (gint) ((self->head + self->span) % MQTT_SLOTS);
      self->slots[i] = (MqttSlot) { self, self->round, MQTT_SLOT_PENDING };
      self->span++;
    }
  g_mutex_unlock (&self->lock);
  return i;
}

static void
forget_locked (MqttDestination *self)
{
  self->round++;
  self->head = 0;
  self->span = 0;
}

void
mqtt_window_forget (MqttDestination *self)
{
  g_mutex_lock (&self->lock);
  forget_locked (self);
  g_mutex_unlock (&self->lock);
}

gboolean
mqtt_publish (MqttDestination *self, guint i, const gchar *topic, const GString *payload)
{
  MQTTAsync_message message = MQTTAsync_message_initializer;
  message.payload = payload->str;
  message.payloadlen = (int) payload->len;
  message.qos = self->qos;
  MQTTAsync_responseOptions response = MQTTAsync_responseOptions_initializer;
  response.onSuccess = on_published;
  response.onFailure = on_publish_failed;
  response.context = &self->slots[i];
  gint rc = MQTTAsync_sendMessage (self->client, topic, &message, &response);
  if (rc == MQTTASYNC_SUCCESS)
    return TRUE;
  if (rc == MQTTASYNC_BAD_UTF8_STRING || rc == MQTTASYNC_NULL_PARAMETER || rc == MQTTASYNC_TOPICNAME_TRUNCATED)
    {
      sl_log (SL_LOG_ERROR, _("%s: Paho refused a message for topic '%s', it is dropped: %s"), self->base.id, topic,
              MQTTAsync_strerror (rc));
      settle (&self->slots[i], MQTT_SLOT_DROPPED);
      return TRUE;
    }
  g_mutex_lock (&self->lock);
  set_reason (self, MQTTAsync_strerror (rc));
  g_mutex_unlock (&self->lock);
  return FALSE;
}

MqttSlot *
mqtt_window_awaited (MqttDestination *self, guint want)
{
  MqttSlot *oldest = &self->slots[self->head];
  MqttSlot *last = &self->slots[(self->head + MIN (want, self->span) - 1) % MQTT_SLOTS];
  if (oldest->state == MQTT_SLOT_FAILED)
    return NULL;
  if (last->state == MQTT_SLOT_PENDING)
    return last;
  return oldest->state == MQTT_SLOT_PENDING ? oldest : NULL;
}

gboolean
mqtt_window_take (MqttDestination *self, guint want, gint64 timeout_us, MqttRound *round)
{
  memset (round, 0, sizeof *round);
  g_mutex_lock (&self->lock);
  gint64 deadline = g_get_monotonic_time () + timeout_us;
  gboolean timed_out = FALSE;
  MqttSlot *awaited;
  while (want && self->span && self->connected && !sl_destination_stopping ()
         && (awaited = mqtt_window_awaited (self, want)))
    {
      gint64 now = g_get_monotonic_time ();
      if (now >= deadline)
        {
          /* only the oldest unconfirmed for so long is a failure */
          if (self->slots[self->head].state == MQTT_SLOT_PENDING)
            {
              set_reason (self, _("the broker confirmed nothing for 10 s"));
              timed_out = TRUE;
            }
          break;
        }
      self->awaited = awaited;
      g_cond_wait_until (&self->cond, &self->lock, MIN (deadline, now + MQTT_STOP_POLL_US));
      self->awaited = NULL;
    }
  while (self->span && (self->slots[self->head].state == MQTT_SLOT_DONE
                        || self->slots[self->head].state == MQTT_SLOT_DROPPED))
    {
      if (self->slots[self->head].state == MQTT_SLOT_DROPPED)
        round->dropped++;
      round->done++;
      self->head = (self->head + 1) % MQTT_SLOTS;
      self->span--;
    }
  gboolean ok = TRUE;
  if (self->span && self->slots[self->head].state == MQTT_SLOT_FAILED)
    {
      set_reason (self, _("Paho reports the message failed"));
      ok = FALSE;
    }
  else if (self->span && (!self->connected || timed_out || (want && !round->done && sl_destination_stopping ())))
    {
      if (!self->reason)
        set_reason (self, sl_destination_stopping () ? _("the destination is stopping") : _("the connection was lost"));
      ok = FALSE;
    }
  if (!ok)
    {
      g_strlcpy (round->reason, self->reason ? self->reason : "", sizeof round->reason);
      forget_locked (self);
    }
  round->in_flight = self->span;
  g_mutex_unlock (&self->lock);
  return ok;
}
