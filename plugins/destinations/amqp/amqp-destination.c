/* SPDX-License-Identifier: GPL-2.0-or-later */
/* amqp(): each message published to an AMQP 0-9-1 exchange (RabbitMQ), as
 * syslog-ng 3.38's amqp() publishes it: routing-key() and body() templates,
 * the value-pairs() as the message's headers (long strings), content type
 * text/plain, delivery mode 2 with persistent(yes). On librabbitmq
 * (rabbitmq-c, Debian's librabbitmq-dev), the client syslog-ng's module is
 * built on. Unlike syslog-ng, which counts a message sent once it is
 * written to the socket, the channel is in publisher-confirm mode
 * (confirm.select): up to batch-lines() published messages await the
 * broker's basic.ack at a time, across writes (SL_CAP_ANSWERS: write()
 * returns once its messages are published, and reports the run confirmed
 * from the oldest), and only what it confirmed is done. A broker that
 * dies loses nothing: the core publishes the unconfirmed messages again on
 * the next connection, in order (at-least-once). Over plain TCP a write's
 * messages go out in one send() (amqp-frames.c); over TLS each through
 * amqp_basic_publish(). */
#include "core/config/error.h"
#include "core/route/driver.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/plugin/plugin.h"
#include "core/message/template.h"
#include "core/io/tls-block.h"
#include "core/message/value-pairs.h"
#include "plugins/destinations/amqp/amqp-frames.h"

#include <amqp.h>
#include <amqp_framing.h>
#include <amqp_ssl_socket.h>
#include <amqp_tcp_socket.h>
#include <errno.h>
#include <string.h>

enum
{
  AUTH_PLAIN,
  AUTH_EXTERNAL,
};

/* What became of each message in flight */
enum
{
  CONFIRM_WAITING,
  CONFIRM_ACKED,
  CONFIRM_NACKED,
  CONFIRM_DROPPED,   /* can never be published: its headers do not fit in a frame */
};

typedef struct
{
  SlDriver base;
  const gchar *host;
  gint port;
  const gchar *vhost;
  const gchar *exchange;
  gboolean exchange_declare;
  const gchar *exchange_type;
  SlTemplate *routing_key;
  SlTemplate *body;
  gboolean persistent;
  gint auth_method;
  const gchar *username;
  const gchar *password;
  gint max_channel;
  gint frame_size;
  gint heartbeat;
  gint batch_lines;
  gint64 timeout_ms;
  const SlCfgNode *value_pairs;
  const SlCfgNode *tls_node;
  SlTlsBlock *tls;

  SlValuePairs *vp;
  const SlTemplateEnv *env;
  amqp_connection_state_t conn;
  guint64 published;          /* delivery tag of the last publish on this channel */
  gboolean broken;            /* the connection failed outside write() */
  gboolean own_frames;        /* plain TCP (no ca-file()): publishes are framed into out, sent once a write */
  GByteArray *out;
  GString *key_buf;
  GString *body_buf;
  GStringChunk *header_text;
  GArray *headers;            /* amqp_table_entry_t */
  /* the messages in flight, oldest first: span of them from at, in
   * batch-lines() places */
  guint8 *confirmed;          /* CONFIRM_* */
  guint64 *tags;              /* its delivery tag, 0 if dropped */
  guint at;
  guint span;
} AmqpDestination;

static const SlOptionWord auth_words[] = {
  { "plain", AUTH_PLAIN },
  { "external", AUTH_EXTERNAL },
  { NULL }
};

/* librabbitmq 0.11 reads a key passphrase, takes a lowest version up to
 * TLS 1.2 (TLS 1.3 it never turns off) and always names the host; it takes
 * one CA file and no folder, cipher list or CRL. */
static const SlTlsCan rabbitmq_can = SL_TLS_CAN_KEY_PASSPHRASE | SL_TLS_CAN_LOWEST_VERSION;

static const SlOptionSpec amqp_options[] = {
  { "host", SL_STRING (AmqpDestination, host), "127.0.0.1", "the broker's name or address" },
  { "port", SL_INT (AmqpDestination, port), "5672", "the broker's TCP port", SL_RANGE (1, 65535) },
  { "vhost", SL_STRING (AmqpDestination, vhost), "/", "the virtual host" },
  { "exchange", SL_STRING (AmqpDestination, exchange), "syslog", "the exchange messages are published to" },
  { "exchange-declare", SL_BOOL (AmqpDestination, exchange_declare), "no",
    "declare the exchange (not durable, not auto-deleted) after connecting" },
  { "exchange-type", SL_STRING (AmqpDestination, exchange_type), "fanout",
    "the type of the declared exchange: fanout, direct, topic, headers" },
  { "routing-key", SL_TEMPLATE (AmqpDestination, routing_key), NULL, "each message's routing key; empty when unset" },
  { "body", SL_TEMPLATE (AmqpDestination, body), NULL, "each message's body; empty when unset, as in syslog-ng" },
  { "persistent", SL_BOOL (AmqpDestination, persistent), "yes",
    "delivery mode 2, so that a durable queue keeps the message on disk" },
  { "auth-method", SL_CHOICE (AmqpDestination, auth_method), "plain",
    "plain (username() and password()) or external (the TLS client certificate)", .words = auth_words },
  { "username", SL_STRING (AmqpDestination, username), NULL, "the user name; required with auth-method(plain)" },
  { "password", SL_STRING (AmqpDestination, password), NULL, "the password; required with auth-method(plain)" },
  { "max-channel", SL_INT (AmqpDestination, max_channel), "2047", "the most channels offered at login",
    SL_RANGE (1, 65535) },
  { "frame-size", SL_INT (AmqpDestination, frame_size), "131072", "the largest frame offered at login",
    SL_RANGE (4096, G_MAXINT) },
  { "heartbeat", SL_INT (AmqpDestination, heartbeat), "0",
    "seconds between heartbeats offered at login; 0: none", SL_RANGE (0, 65535) },
  { "value-pairs", SL_BLOCK (AmqpDestination, value_pairs), NULL,
    "the pairs sent as the message's headers: scope(), key(), exclude(), pair(), rekey(); "
    "default scope(selected-macros nv-pairs sdata)" },
  { "batch-lines", SL_INT (AmqpDestination, batch_lines), "100",
    "most messages awaiting the broker's confirm at once, the next published as confirms come", SL_RANGE_POSITIVE },
  { "timeout", SL_DURATION (AmqpDestination, timeout_ms), "10",
    "how long connecting, logging in and each confirm may take; a bare number is seconds" },
  { "retries", SL_UNBOUND (SL_OPT_INT), "3",
    "accepted for syslog-ng compatibility: a message the broker did not confirm is published again until it does",
    SL_RANGE_POSITIVE },
  { "tls", SL_BLOCK (AmqpDestination, tls_node), NULL,
    "the TLS options (doc/tls.md, 8) that librabbitmq can do: ca-file() (set, the "
    "connection uses TLS), cert-file(), key-file(), key-passphrase(), peer-verify(), ssl-options(), ssl-version()" },
  /* as syslog-ng 3.38 also takes them */
  SL_TLS_INLINE_OPTIONS,
  { NULL }
};

static gboolean
amqp_init (SlDriver *d, GError **error)
{
  AmqpDestination *self = (AmqpDestination *) d;
  if (self->auth_method == AUTH_PLAIN && (!self->username || !self->password))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos,
                        _("amqp() needs username() and password() with auth-method(plain)"));
      return FALSE;
    }
  if (!(self->tls = sl_tls_block_new ("amqp()", self->tls_node, d->options, rabbitmq_can, "librabbitmq", d->pos,
                                     error)))
    return FALSE;
  const SlTlsSettings *tls = sl_tls_block_settings (self->tls);
  if (!tls->ca_file && (self->tls_node || sl_tls_block_written (self->tls) || self->auth_method == AUTH_EXTERNAL))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos,
                        _("amqp() uses TLS only with ca-file(); the other TLS options and "
                          "auth-method(external) need it"));
      return FALSE;
    }
  self->own_frames = !tls->ca_file;
  if (!(self->vp = sl_value_pairs_new_from_block (self->value_pairs, d->pos, "amqp() value-pairs()", 0, NULL,
                                                   error)))
    return FALSE;
  self->env = sl_driver_template_env (d);
  self->confirmed = g_new0 (guint8, self->batch_lines);
  self->tags = g_new0 (guint64, self->batch_lines);
  self->key_buf = g_string_sized_new (128);
  self->body_buf = g_string_sized_new (1024);
  self->header_text = g_string_chunk_new (4096);
  self->headers = g_array_new (FALSE, FALSE, sizeof (amqp_table_entry_t));
  self->out = g_byte_array_new ();
  return TRUE;
}

/* A failed RPC as one sentence: the library's error or the broker's. */
static gchar *
rpc_error (amqp_rpc_reply_t reply)
{
  if (reply.reply_type == AMQP_RESPONSE_LIBRARY_EXCEPTION)
    return g_strdup (amqp_error_string2 (reply.library_error));
  if (reply.reply_type == AMQP_RESPONSE_SERVER_EXCEPTION && reply.reply.id == AMQP_CONNECTION_CLOSE_METHOD)
    {
      const amqp_connection_close_t *m = reply.reply.decoded;
      return g_strdup_printf ("%u %.*s", m->reply_code, (gint) m->reply_text.len, (const gchar *) m->reply_text.bytes);
    }
  if (reply.reply_type == AMQP_RESPONSE_SERVER_EXCEPTION && reply.reply.id == AMQP_CHANNEL_CLOSE_METHOD)
    {
      const amqp_channel_close_t *m = reply.reply.decoded;
      return g_strdup_printf ("%u %.*s", m->reply_code, (gint) m->reply_text.len, (const gchar *) m->reply_text.bytes);
    }
  return g_strdup (_("no reply"));
}

static gboolean
rpc_ok (AmqpDestination *self, const gchar *what, amqp_rpc_reply_t reply, GError **error)
{
  if (reply.reply_type == AMQP_RESPONSE_NORMAL)
    return TRUE;
  gchar *text = rpc_error (reply);
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, _("AMQP %s at %s:%d failed: %s"), what, self->host, self->port,
               text);
  g_free (text);
  return FALSE;
}

static void
amqp_close (SlDriver *d)
{
  AmqpDestination *self = (AmqpDestination *) d;
  if (!self->conn)
    return;
  if (!self->broken)
    {
      amqp_channel_close (self->conn, 1, AMQP_REPLY_SUCCESS);
      amqp_connection_close (self->conn, AMQP_REPLY_SUCCESS);
    }
  amqp_destroy_connection (self->conn);
  self->conn = NULL;
}

static amqp_socket_t *
new_socket (AmqpDestination *self, GError **error)
{
  if (self->own_frames)
    return amqp_tcp_socket_new (self->conn);
  const SlTlsSettings *tls = sl_tls_block_settings (self->tls);
  amqp_socket_t *socket = amqp_ssl_socket_new (self->conn);
  if (!socket)
    return NULL;
  static const amqp_tls_version_t lowest[] = { 0, AMQP_TLSv1, AMQP_TLSv1_1, AMQP_TLSv1_2 };
  if (tls->key_passphrase)
    amqp_ssl_socket_set_key_passwd (socket, tls->key_passphrase);
  gint status = amqp_ssl_socket_set_ssl_versions (socket, lowest[tls->min_version], AMQP_TLSvLATEST);
  if (status == AMQP_STATUS_OK)
    status = amqp_ssl_socket_set_cacert (socket, tls->ca_file);
  if (status == AMQP_STATUS_OK && tls->cert_file)
    status = amqp_ssl_socket_set_key (socket, tls->cert_file, tls->key_file);
  if (status != AMQP_STATUS_OK)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, _("amqp() TLS files: %s"), amqp_error_string2 (status));
      return NULL;
    }
  amqp_ssl_socket_set_verify_peer (socket, tls->verify_trusted);
  amqp_ssl_socket_set_verify_hostname (socket, tls->verify_trusted);
  return socket;
}

static gboolean
amqp_open (SlDriver *d, GError **error)
{
  AmqpDestination *self = (AmqpDestination *) d;
  struct timeval timeout = { self->timeout_ms / 1000, (self->timeout_ms % 1000) * 1000 };
  self->conn = amqp_new_connection ();
  self->broken = TRUE;
  self->published = 0;
  self->span = 0;
  amqp_socket_t *socket = new_socket (self, error);
  if (!socket)
    {
      if (error && !*error)
        g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, _("amqp() cannot make a socket"));
      amqp_close (d);
      return FALSE;
    }
  gint status = amqp_socket_open_noblock (socket, self->host, self->port, &timeout);
  if (status != AMQP_STATUS_OK)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, _("cannot connect to AMQP broker at %s:%d: %s"), self->host,
                   self->port, amqp_error_string2 (status));
      amqp_close (d);
      return FALSE;
    }
  amqp_set_handshake_timeout (self->conn, &timeout);
  amqp_set_rpc_timeout (self->conn, &timeout);
  amqp_rpc_reply_t reply;
  if (self->auth_method == AUTH_EXTERNAL)
    /* EXTERNAL needs an identity that is not empty, though the broker
     * takes the certificate's */
    reply = amqp_login (self->conn, self->vhost, self->max_channel, self->frame_size, self->heartbeat,
                        AMQP_SASL_METHOD_EXTERNAL, self->username && *self->username ? self->username : ".");
  else
    reply = amqp_login (self->conn, self->vhost, self->max_channel, self->frame_size, self->heartbeat,
                        AMQP_SASL_METHOD_PLAIN, self->username, self->password);
  if (!rpc_ok (self, _("login"), reply, error))
    {
      amqp_close (d);
      return FALSE;
    }
  self->broken = FALSE;
  amqp_channel_open (self->conn, 1);
  if (!rpc_ok (self, _("channel open"), amqp_get_rpc_reply (self->conn), error))
    {
      amqp_close (d);
      return FALSE;
    }
  amqp_confirm_select (self->conn, 1);
  if (!rpc_ok (self, _("confirm.select"), amqp_get_rpc_reply (self->conn), error))
    {
      amqp_close (d);
      return FALSE;
    }
  if (self->exchange_declare)
    {
      amqp_exchange_declare (self->conn, 1, amqp_cstring_bytes (self->exchange),
                             amqp_cstring_bytes (self->exchange_type), 0, 0, 0, 0, amqp_empty_table);
      if (!rpc_ok (self, _("exchange declaration"), amqp_get_rpc_reply (self->conn), error))
        {
          amqp_close (d);
          return FALSE;
        }
    }
  return TRUE;
}

/* Every value as its text, whatever its type hint, as syslog-ng's amqp() sends it. */
static gboolean
add_header (const gchar *name, SlValueType type, const gchar *value, gsize len, gpointer user_data)
{
  AmqpDestination *self = user_data;
  amqp_table_entry_t entry = { 0 };
  entry.key = amqp_cstring_bytes (g_string_chunk_insert (self->header_text, name));
  entry.value.kind = AMQP_FIELD_KIND_UTF8;
  entry.value.value.bytes = (amqp_bytes_t) { len, g_string_chunk_insert_len (self->header_text, value, len) };
  g_array_append_val (self->headers, entry);
  return TRUE;
}

static gint
publish (AmqpDestination *self, const SlMessage *msg)
{
  g_string_chunk_clear (self->header_text);
  g_array_set_size (self->headers, 0);
  sl_value_pairs_foreach (self->vp, msg, self->env, SL_VALUE_PAIRS_ASCENDING, add_header, self);
  g_string_truncate (self->key_buf, 0);
  if (self->routing_key)
    sl_template_append (self->routing_key, msg, self->env, self->key_buf);
  g_string_truncate (self->body_buf, 0);
  if (self->body)
    sl_template_append (self->body, msg, self->env, self->body_buf);

  amqp_basic_properties_t props = { 0 };
  props._flags = AMQP_BASIC_CONTENT_TYPE_FLAG | AMQP_BASIC_DELIVERY_MODE_FLAG | AMQP_BASIC_HEADERS_FLAG;
  props.content_type = amqp_cstring_bytes ("text/plain");
  props.delivery_mode = self->persistent ? 2 : 1;
  props.headers.num_entries = (gint) self->headers->len;
  props.headers.entries = (amqp_table_entry_t *) self->headers->data;
  amqp_bytes_t key = { self->key_buf->len, self->key_buf->str };
  amqp_bytes_t body = { self->body_buf->len, self->body_buf->str };
  if (!self->own_frames)
    return amqp_basic_publish (self->conn, 1, amqp_cstring_bytes (self->exchange), key, 0, 0, &props, body);
  amqp_basic_publish_t method = { .exchange = amqp_cstring_bytes (self->exchange), .routing_key = key };
  return rmq_frames_add_publish (self->out, (gsize) amqp_get_frame_max (self->conn), &method, &props, body);
}

/* Marks the messages in flight that a basic.ack or basic.nack speaks of. */
static void
mark (AmqpDestination *self, guint64 tag, gboolean multiple, guint8 how)
{
  for (guint k = 0; k < self->span; k++)
    {
      guint i = (self->at + k) % (guint) self->batch_lines;
      if (self->tags[i] && !self->confirmed[i] && (multiple ? self->tags[i] <= tag : self->tags[i] == tag))
        self->confirmed[i] = how;
    }
}

static const gchar *
frame_name (const amqp_frame_t *frame)
{
  if (frame->payload.method.id == AMQP_CHANNEL_CLOSE_METHOD)
    return "channel.close";
  return "connection.close";
}

/* Reads the next frame, waiting up to 200 ms when wait, and marks what a
 * basic.ack or basic.nack in it confirms of the messages in flight
 * (*progress: something was). FALSE when the broker went away or closed
 * the channel (an exchange that does not exist); batch, when there is
 * one, says so. */
static gboolean
read_confirms (AmqpDestination *self, SlWriteBatch *batch, gboolean wait, gboolean *progress)
{
  struct timeval slice = { 0, wait ? 200 * 1000 : 0 };
  amqp_frame_t frame;
  *progress = FALSE;
  gint status = amqp_simple_wait_frame_noblock (self->conn, &frame, &slice);
  if (status == AMQP_STATUS_TIMEOUT)
    return TRUE;
  if (status != AMQP_STATUS_OK)
    {
      if (batch)
        sl_write_batch_fail (batch, SL_WRITE_NOT_CONNECTED, 0, _("the connection to the AMQP broker failed: %s"),
                             amqp_error_string2 (status));
      return FALSE;
    }
  if (frame.frame_type != AMQP_FRAME_METHOD)
    return TRUE;
  amqp_method_number_t id = frame.payload.method.id;
  if (id == AMQP_BASIC_ACK_METHOD)
    {
      const amqp_basic_ack_t *ack = frame.payload.method.decoded;
      mark (self, ack->delivery_tag, ack->multiple, CONFIRM_ACKED);
      *progress = TRUE;
    }
  else if (id == AMQP_BASIC_NACK_METHOD)
    {
      const amqp_basic_nack_t *nack = frame.payload.method.decoded;
      mark (self, nack->delivery_tag, nack->multiple, CONFIRM_NACKED);
      *progress = TRUE;
    }
  else if (id == AMQP_CHANNEL_CLOSE_METHOD || id == AMQP_CONNECTION_CLOSE_METHOD)
    {
      const amqp_channel_close_t *close = frame.payload.method.decoded;
      if (batch)
        sl_write_batch_fail (batch, SL_WRITE_NOT_CONNECTED, 0, _("the AMQP broker closed the %s: %u %.*s"),
                           frame_name (&frame), close->reply_code, (gint) close->reply_text.len,
                           (const gchar *) close->reply_text.bytes);
      return FALSE;
    }
  return TRUE;
}

/* The messages in flight are the core's again: it publishes them anew. */
static SlWriteResult
lost (AmqpDestination *self)
{
  self->broken = TRUE;
  self->span = 0;
  return SL_WRITE_NOT_CONNECTED;
}

/* Reports the run of messages in flight, from the oldest, that were acked
 * or dropped; FALSE when the oldest was nacked. */
static gboolean
advance (AmqpDestination *self, SlWriteBatch *batch)
{
  while (self->span && (self->confirmed[self->at] == CONFIRM_ACKED || self->confirmed[self->at] == CONFIRM_DROPPED))
    {
      batch->answered++;
      batch->dropped += self->confirmed[self->at] == CONFIRM_DROPPED;
      self->at = (self->at + 1) % (guint) self->batch_lines;
      self->span--;
    }
  return !self->span || self->confirmed[self->at] != CONFIRM_NACKED;
}

/* Sends what publish() framed; FALSE when the connection failed */
static gboolean
send_frames (AmqpDestination *self, SlWriteBatch *batch)
{
  if (!self->out->len || rmq_frames_send (self->out, amqp_get_sockfd (self->conn), self->timeout_ms))
    return TRUE;
  sl_write_batch_fail (batch, SL_WRITE_NOT_CONNECTED, 0, _("publishing to the AMQP broker failed: %s"),
                       g_strerror (errno));
  return FALSE;
}

/* Publishes msgs[done..n) while fewer than batch-lines() await confirms. */
static gboolean
publish_batch (AmqpDestination *self, SlWriteBatch *batch)
{
  for (; batch->done < batch->n && self->span < (guint) self->batch_lines; batch->done++)
    {
      guint i = (self->at + self->span) % (guint) self->batch_lines;
      gint status = publish (self, batch->msgs[batch->done]);
      self->tags[i] = 0;
      self->confirmed[i] = CONFIRM_WAITING;
      if (status == AMQP_STATUS_TABLE_TOO_BIG)
        {
          /* as syslog-ng drops it: no connection can take it */
          sl_log (SL_LOG_ERROR, _("%s: a message's headers do not fit in frame-size(); it is dropped"), self->base.id);
          self->confirmed[i] = CONFIRM_DROPPED;
          self->span++;
          continue;
        }
      if (status != AMQP_STATUS_OK)
        {
          sl_write_batch_fail (batch, SL_WRITE_NOT_CONNECTED, 0, _("publishing to the AMQP broker failed: %s"),
                               amqp_error_string2 (status));
          g_byte_array_set_size (self->out, 0);
          return FALSE;
        }
      self->tags[i] = ++self->published;
      self->span++;
    }
  return send_frames (self, batch);
}

/* A sliding window across writes: up to batch-lines() messages await
 * their confirms while the next are published; write() returns once its
 * messages are published, with the confirms that came meanwhile, and a
 * call with none waits for one. A message is done once it and every one
 * before it were acked. */
static SlWriteResult
amqp_write (SlDriver *d, SlWriteBatch *batch)
{
  AmqpDestination *self = (AmqpDestination *) d;
  if (self->broken)
    {
      self->span = 0;
      return sl_write_batch_fail (batch, SL_WRITE_NOT_CONNECTED, 0, _("the connection to the AMQP broker was lost while idle"));
    }
  gint64 deadline = g_get_monotonic_time () + self->timeout_ms * 1000;
  for (;;)
    {
      if (!publish_batch (self, batch))
        return lost (self);
      if (!advance (self, batch))
        break;
      gboolean wait = batch->done < batch->n || (!batch->n && !batch->answered);
      if (!self->span)
        return SL_WRITE_OK;
      gboolean progress;
      if (!read_confirms (self, batch, wait, &progress))
        return lost (self);
      if (!advance (self, batch))
        break;
      /* timeout() bounds each wait: a broker that stopped answering
       * (SIGSTOP, a resource alarm) is left, and the rest published again
       * on a new connection */
      if (progress)
        deadline = g_get_monotonic_time () + self->timeout_ms * 1000;
      else if (!wait)
        return SL_WRITE_OK;
      else if (g_get_monotonic_time () > deadline)
        {
          sl_write_batch_fail (batch, SL_WRITE_NOT_CONNECTED, 0, _("the AMQP broker confirmed nothing within timeout()"));
          return lost (self);
        }
    }
  /* a nack: what is in flight is published again after time-reopen() */
  self->span = 0;
  return sl_write_batch_fail (batch, SL_WRITE_RETRY, 0, _("the AMQP broker refused a message (basic.nack)"));
}

/* While idle: heartbeats go out and the broker's closing is noticed, as
 * syslog-ng's heartbeat timer reads what the broker sent. */
static gboolean
amqp_tick (SlDriver *d)
{
  AmqpDestination *self = (AmqpDestination *) d;
  if (!self->conn || self->broken)
    return FALSE;
  /* the confirms read here are marked for the next write() to report */
  gboolean progress;
  do
    if (!read_confirms (self, NULL, FALSE, &progress))
      {
        self->broken = TRUE;
        return FALSE;
      }
  while (progress);
  return FALSE;
}

static void
amqp_free (SlDriver *d)
{
  AmqpDestination *self = (AmqpDestination *) d;
  amqp_close (d);
  sl_tls_block_free (self->tls);
  sl_value_pairs_free (self->vp);
  if (self->key_buf)
    g_string_free (self->key_buf, TRUE);
  if (self->body_buf)
    g_string_free (self->body_buf, TRUE);
  if (self->header_text)
    g_string_chunk_free (self->header_text);
  if (self->headers)
    g_array_free (self->headers, TRUE);
  if (self->out)
    g_byte_array_unref (self->out);
  g_free (self->confirmed);
  g_free (self->tags);
}

static const SlDestinationOps amqp_ops = {
  .open = amqp_open,
  .write = amqp_write,
  .close = amqp_close,
  .tick = amqp_tick,
};

static const SlDriverClass amqp_class = {
  .kind = SL_DRIVER_DESTINATION,
  .name = "amqp",
  .summary = "each message published to an AMQP exchange (RabbitMQ), done once the broker confirmed it",
  .options = amqp_options,
  .capabilities = SL_CAP_TEMPLATES | SL_CAP_WORKERS | SL_CAP_DISK_BUFFER | SL_CAP_ANSWERS,
  .instance_size = sizeof (AmqpDestination),
  .init = amqp_init,
  .free = amqp_free,
  .ops.destination = &amqp_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "amqp",
  .drivers = (const SlDriverClass *const[]) { &amqp_class, NULL },
};
