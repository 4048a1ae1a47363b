/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mqtt(): each message published to an MQTT broker, with syslog-ng's
 * options: topic() a template, its message rendered by template(), qos()
 * 0, 1 or 2. A tcp:// address() without http-proxy() is spoken to on a
 * socket of the writer's own (mqtt-direct.c); ssl://, ws://, wss:// and
 * proxies go through Eclipse Paho's asynchronous C client (Debian's
 * libpaho-mqtt-dev), the client syslog-ng's module uses (mqtt-session.c).
 * Up to MQTT_SLOTS messages are in flight across writes (SL_CAP_ANSWERS): a
 * write() publishes its batch and returns with the completions that came
 * meanwhile, the run from the oldest: written to the socket at qos 0,
 * PUBACK at qos 1, PUBCOMP at qos 2; a write with nothing to publish
 * waits for one. A message counts as done only then, so flow control and
 * disk-buffer() hold it until the broker has it; what was in flight when
 * the connection went is published again, in order, after time-reopen()
 * (duplicates are possible, loss is not). */
#include "plugins/destinations/mqtt/mqtt-destination.h"
#include "core/config/error.h"
#include "core/route/destination.h"
#include "core/route/driver.h"
#include "core/i18n.h"
#include "core/internal.h"

#include <string.h>

/* how long the oldest message in flight may wait for its completion, as
 * syslog-ng waits for each message */
#define MQTT_PUBLISH_TIMEOUT_US (10 * G_TIME_SPAN_SECOND)
#define MQTT_CONNECT_TIMEOUT_S 10
#define MQTT_DISCONNECT_TIMEOUT_MS 1000

/* Paho trusts the system's store only without ca-file() and ca-dir(),
 * always names the host (SNI), and with OpenSSL 1.1 or later takes every
 * version OpenSSL offers whatever sslVersion says. */
static const SlTlsCan paho_can = SL_TLS_CAN_CA_DIR | SL_TLS_CAN_KEY_PASSPHRASE | SL_TLS_CAN_CIPHER_SUITE;

static const SlOptionSpec mqtt_options[] = {
  { "address", SL_STRING (MqttDestination, address), "tcp://localhost:1883",
    "the broker: tcp://host:port, ssl://host:port (TLS), ws:// or wss:// (WebSocket)" },
  { "topic", SL_TEMPLATE (MqttDestination, topic), NULL, "the topic each message is published to, a template: \"$HOST/logs\"",
    .flags = SL_OPT_REQUIRED },
  { "fallback-topic", SL_STRING (MqttDestination, fallback_topic), NULL,
    "where a message goes whose topic() renders empty or with a wildcard; needed when topic() is a template" },
  { "qos", SL_INT (MqttDestination, qos), "0",
    "0: at most once; 1: at least once, each message confirmed (PUBACK); 2: exactly once (PUBCOMP)", SL_RANGE (0, 2) },
  { "template", SL_TEMPLATE (MqttDestination, message), "$ISODATE $HOST $MSGHDR$MSG", "what each message is published as" },
  { "client-id", SL_STRING (MqttDestination, client_id), NULL,
    "the MQTT client identifier; by default syslog-ng-destination- and topic()'s text, as syslog-ng's" },
  { "username", SL_STRING (MqttDestination, username), NULL, "the user name sent in CONNECT" },
  { "password", SL_STRING (MqttDestination, password), NULL, "the password sent in CONNECT" },
  { "keepalive", SL_INT (MqttDestination, keepalive), "60", "seconds between keep-alive pings", SL_RANGE_POSITIVE },
  { "cleansession", SL_BOOL (MqttDestination, cleansession), "no", "ask the broker to forget the session of client-id()" },
  { "http-proxy", SL_STRING (MqttDestination, http_proxy), NULL, "an HTTP proxy to tunnel through: http://host:port" },
  { "tls", SL_BLOCK (MqttDestination, tls_node), NULL,
    "the TLS options (doc/tls.md, 8) that Paho can do: ca-file(), ca-dir(), cert-file(), "
    "key-file(), key-passphrase(), peer-verify(), cipher-suite(), use-system-cert-store() without ca-file() and ca-dir()" },
  { NULL }
};

/* MQTT 3.1.1's CONNACK return codes */
static const gchar *
connack_reason (gint code)
{
  switch (code)
    {
    case 1:
      return _("the broker does not speak MQTT 3.1.1");
    case 2:
      return _("the broker refused the client identifier");
    case 3:
      return _("the broker is unavailable");
    case 4:
      return _("bad user name or password");
    case 5:
      return _("not authorized");
    default:
      return _("refused");
    }
}

static gboolean
valid_topic (const gchar *topic)
{
  return *topic && !strpbrk (topic, "+#");
}

static gboolean
valid_address (const gchar *address)
{
  static const gchar *const schemes[] = { "tcp://", "ssl://", "ws://", "wss://" };
  for (guint i = 0; i < G_N_ELEMENTS (schemes); i++)
    if (g_str_has_prefix (address, schemes[i]) && address[strlen (schemes[i])])
      return TRUE;
  return FALSE;
}

static gboolean
mqtt_init (SlDriver *d, GError **error)
{
  MqttDestination *self = (MqttDestination *) d;
  if (!valid_address (self->address))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "address"),
                        _("address() takes tcp://, ssl://, ws:// or wss:// and the broker's host:port, not '%s'"),
                        self->address);
      return FALSE;
    }
  if (sl_template_is_literal (self->topic) ? !valid_topic (sl_template_text (self->topic)) : !self->fallback_topic)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "topic"),
                        sl_template_is_literal (self->topic)
                        ? _("topic() must not be empty nor hold the wildcards + and #")
                        : _("mqtt() needs fallback-topic() when topic() is a template"));
      return FALSE;
    }
  if (self->fallback_topic && !valid_topic (self->fallback_topic))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "fallback-topic"),
                        _("fallback-topic() must not be empty nor hold the wildcards + and #"));
      return FALSE;
    }
  if (self->client_id && !*self->client_id)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "client-id"),
                        _("client-id() must not be empty"));
      return FALSE;
    }
  if (self->tls_node && !mqtt_uses_tls (self))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "tls"),
                        _("mqtt() uses tls() only with an ssl:// or wss:// address()"));
      return FALSE;
    }
  if (!(self->tls = sl_tls_block_new ("mqtt()", self->tls_node, NULL, paho_can, "Paho", d->pos, error)))
    return FALSE;
  self->client_id_text = self->client_id ? g_strdup (self->client_id)
                                         : g_strconcat ("syslog-ng-destination-", sl_template_text (self->topic), NULL);
  self->env = sl_driver_template_env (d);
  self->payload = g_string_sized_new (256);
  self->topic_text = g_string_sized_new (64);
  self->refused = sl_stats_counter ("destination", d->id, d->klass->name, "refused_connections");
  self->fallbacks = sl_stats_counter ("destination", d->id, d->klass->name, "fallback_topics");
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
  self->locks_ready = TRUE;
  self->fd = -1;
  self->direct = g_str_has_prefix (self->address, "tcp://") && !self->http_proxy;
  if (self->direct)
    {
      self->out = g_string_sized_new (65536);
      self->in = g_malloc (MQTT_DIRECT_READ);
      self->next_id = 1;
    }
  return TRUE;
}

static void
mqtt_close (SlDriver *d)
{
  MqttDestination *self = (MqttDestination *) d;
  if (self->direct)
    {
      mqtt_direct_end (self, MQTT_DISCONNECT_TIMEOUT_MS);
      return;
    }
  if (!self->client)
    return;
  mqtt_session_end (self, MQTT_DISCONNECT_TIMEOUT_MS);
  MQTTAsync_destroy (&self->client);
  self->client = NULL;
}

static gboolean
mqtt_open (SlDriver *d, GError **error)
{
  MqttDestination *self = (MqttDestination *) d;
  gint code = 0;
  gchar *message = NULL;
  if (self->direct ? mqtt_direct_start (self, MQTT_CONNECT_TIMEOUT_S, &code, &message)
                   : mqtt_session_start (self, MQTT_CONNECT_TIMEOUT_S, &code, &message))
    return TRUE;
  if (code > 0)
    {
      sl_counter_add (self->refused, 1);
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
                   _("the MQTT broker at %s refused client '%s': %s (CONNACK %d)"), self->address,
                   self->client_id_text, connack_reason (code), code);
    }
  else
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, _("cannot connect to the MQTT broker at %s: %s"),
                 self->address, message ? message : MQTTAsync_strerror (code));
  g_free (message);
  mqtt_close (d);
  return FALSE;
}

/* The topic of msg as topic() renders it, or fallback-topic() when that
 * cannot be published to. */
static const gchar *
message_topic (MqttDestination *self, const SlMessage *msg)
{
  g_string_truncate (self->topic_text, 0);
  sl_template_append (self->topic, msg, self->env, self->topic_text);
  if (valid_topic (self->topic_text->str) && strlen (self->topic_text->str) == self->topic_text->len)
    return self->topic_text->str;
  sl_counter_add (self->fallbacks, 1);
  if (sl_counter_get (self->fallbacks) % 1000 == 1)
    sl_log (SL_LOG_ERROR, _("%s: topic() rendered '%s', which cannot be published to; the message goes to "
                            "fallback-topic('%s') (logged the first time and then once per 1000)"),
            ((SlDriver *) self)->id, self->topic_text->str, self->fallback_topic);
  return self->fallback_topic;
}

static SlWriteResult
mqtt_write (SlDriver *d, SlWriteBatch *batch)
{
  MqttDestination *self = (MqttDestination *) d;
  for (;;)
    {
      gint i;
      while (batch->done < batch->n && (i = mqtt_window_add (self)) >= 0)
        {
          const SlMessage *msg = batch->msgs[batch->done];
          g_string_truncate (self->payload, 0);
          sl_template_append (self->message, msg, self->env, self->payload);
          const gchar *topic = message_topic (self, msg);
          if (!(self->direct ? mqtt_direct_publish (self, (guint) i, topic, self->payload)
                             : mqtt_publish (self, (guint) i, topic, self->payload)))
            {
              mqtt_window_forget (self);
              g_mutex_lock (&self->lock);
              sl_write_batch_fail (batch, SL_WRITE_NOT_CONNECTED, 0, _("publishing to the MQTT broker at %s failed: %s"),
                                   self->address, self->reason ? self->reason : "");
              g_mutex_unlock (&self->lock);
              return SL_WRITE_NOT_CONNECTED;
            }
          batch->done++;
        }
      /* with every message published, the completions that came are taken
       * without waiting; a full window waits for a run of them, a call
       * with nothing to publish for the oldest */
      guint want = batch->done < batch->n ? MQTT_REFILL : !batch->n && !batch->answered ? 1 : 0;
      MqttRound round;
      gboolean ok = self->direct ? mqtt_direct_take (self, want, MQTT_PUBLISH_TIMEOUT_US, &round)
                                 : mqtt_window_take (self, want, MQTT_PUBLISH_TIMEOUT_US, &round);
      batch->answered += round.done;
      batch->dropped += round.dropped;
      if (!ok)
        return sl_write_batch_fail (batch, SL_WRITE_NOT_CONNECTED, 0, _("publishing to the MQTT broker at %s failed: %s"),
                                    self->address, round.reason);
      if (batch->done == batch->n && (batch->n || batch->answered || !round.in_flight))
        return SL_WRITE_OK;
    }
}

static void
mqtt_free (SlDriver *d)
{
  MqttDestination *self = (MqttDestination *) d;
  mqtt_close (d);
  sl_tls_block_free (self->tls);
  if (self->payload)
    g_string_free (self->payload, TRUE);
  if (self->topic_text)
    g_string_free (self->topic_text, TRUE);
  g_free (self->client_id_text);
  g_free (self->reason);
  if (self->out)
    g_string_free (self->out, TRUE);
  g_free (self->in);
  if (self->locks_ready)
    {
      g_mutex_clear (&self->lock);
      g_cond_clear (&self->cond);
    }
}

static gboolean
mqtt_tick (SlDriver *d)
{
  MqttDestination *self = (MqttDestination *) d;
  if (self->direct)
    mqtt_direct_tick (self);
  return FALSE;
}

static const SlDestinationOps mqtt_ops = {
  .open = mqtt_open,
  .write = mqtt_write,
  .close = mqtt_close,
  .tick = mqtt_tick,
};

static const SlDriverClass mqtt_class = {
  .kind = SL_DRIVER_DESTINATION,
  .name = "mqtt",
  .summary = "each message published to an MQTT broker (MQTT 3.1.1 of its own on tcp://, Eclipse Paho for TLS, "
             "WebSocket and proxies), confirmed by the broker at qos(1) and qos(2)",
  .options = mqtt_options,
  .capabilities = SL_CAP_TEMPLATES | SL_CAP_DISK_BUFFER | SL_CAP_ANSWERS,
  .instance_size = sizeof (MqttDestination),
  .init = mqtt_init,
  .free = mqtt_free,
  .ops.destination = &mqtt_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "mqtt",
  .drivers = (const SlDriverClass *const[]) { &mqtt_class, NULL },
};
