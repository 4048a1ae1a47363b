/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kafka() destination (also kafka-c(), syslog-ng's name for it): produces
 * each message into a Kafka topic with librdkafka.
 *
 * A message is done (acknowledged to its source's window, settled in a
 * disk-buffer()) only once the broker's delivery report said it was
 * stored. The destination answers later (SL_CAP_ANSWERS), so the core
 * keeps up to max-in-flight() messages in flight across write()s:
 *   - write() produces its batch's messages, each with a KafkaPending of
 *     its own as librdkafka's opaque, into the flight array (the core's
 *     order), serves the delivery reports that came, and reports as
 *     answered the run of delivered messages from the oldest in flight;
 *     called with no message, or with librdkafka's queue full, it waits up
 *     to poll-timeout() (once the destination stops, up to
 *     flush-timeout-on-shutdown() in all) for an answer;
 *   - an oldest message whose report was an error, or no answer at all in
 *     that time, gives every unanswered message back to the core with
 *     SL_WRITE_RETRY, or SL_WRITE_ERROR when the oldest was refused for
 *     good (too large: the core drops it after three tries);
 *   - what went back is remembered by message (with a reference of its
 *     own) until the core hands it back: then a message still in
 *     librdkafka's queue is not produced again but waited for, one
 *     delivered meanwhile is answered at once, and only one whose report
 *     was an error is produced again;
 *   - tick() serves reports while the core waits to retry, and ends the
 *     wait as soon as one arrives, so a broker that comes back is written
 *     to at once rather than after time-reopen().
 * librdkafka keeps each partition's messages in order across its own
 * retries; the core's order is broken only by a message produced again
 * after an error report. A broker that is down thus holds what is in
 * flight: the queue fills, flow control holds the senders or the disk
 * buffer fills, and nothing is lost. With workers(N) a message handed back
 * may be taken by another worker, which produces it again: a duplicate,
 * never a loss. librdkafka's queue is bounded by
 * queue.buffering.max.messages; its depth is the "kafka_queued" counter. */
#include "plugins/protocols/kafka/kafka-private.h"
#include "core/config/error.h"
#include "core/route/destination.h"
#include "core/route/driver.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/stats.h"
#include "core/message/template.h"

#include <string.h>

/* what write() serves reports in while librdkafka's queue is full */
#define QUEUE_FULL_POLL_MS 100
/* the slices write() waits for an answer in */
#define ANSWER_SLICE_MS 1
/* answered places at the front of the flight array that are compacted away */
#define FLIGHT_COMPACT 1024

typedef enum
{
  PENDING_NEW,          /* not (or no longer) in librdkafka's hands */
  PENDING_IN_FLIGHT,
  PENDING_DELIVERED,
  PENDING_FAILED,
} PendingState;

typedef struct
{
  SlMessage *msg;           /* a reference of its own */
  PendingState state;
  rd_kafka_resp_err_t err;
  gboolean flying;          /* in the flight array: the core waits for its answer */
  guint64 due;              /* held: taken by then (see taken) unless it went elsewhere */
} KafkaPending;

struct _KafkaDestination
{
  SlDriver super;
  /* options */
  const gchar *bootstrap_servers;
  SlTemplate *topic;
  const gchar *fallback_topic;
  SlTemplate *key;
  SlTemplate *message;
  GPtrArray *config;
  gboolean sync_send;
  gint64 poll_timeout_ms;
  gint64 flush_timeout_shutdown_ms;

  rd_kafka_conf_t *conf;
  const SlTemplateEnv *env;
  rd_kafka_t *rk;
  rd_kafka_topic_t *fixed_topic;   /* topic() without macros */
  rd_kafka_topic_t *fallback;
  GHashTable *topics;              /* rendered name -> rd_kafka_topic_t */
  GHashTable *held;                /* SlMessage -> KafkaPending: gone back to the core unanswered */
  GPtrArray *spare;                /* KafkaPending to reuse */
  /* what the core holds in flight, in the order it was sent: the
   * unanswered ones are flight[flight_head..] */
  GPtrArray *flight;
  guint flight_head;
  guint64 taken;                   /* messages write() was given to send */
  gboolean progress;               /* a held message was reported on */
  gint64 stop_deadline;            /* monotonic µs; 0 until the destination stops */
  rd_kafka_resp_err_t last_error;
  GString *topic_buf;
  GString *key_buf;
  GString *msg_buf;
  gint64 queued_reported;          /* what this instance added to kafka_queued */

  SlCounter *queued;
  SlCounter *delivery_errors;
  SlCounter *fallbacks;
};

static const SlOptionSpec kafka_options[] = {
  { "bootstrap-servers", SL_STRING (KafkaDestination, bootstrap_servers), NULL,
    "the brokers to ask for the cluster's metadata: \"host:port,host:port\"" },
  { "topic", SL_TEMPLATE (KafkaDestination, topic), NULL,
    "the topic to produce to (a template)", .flags = SL_OPT_POSITIONAL },
  { "fallback-topic", SL_STRING (KafkaDestination, fallback_topic), NULL,
    "where messages go whose rendered topic() is not a valid topic name; required when topic() is a template" },
  { "key", SL_TEMPLATE (KafkaDestination, key), NULL, "the messages' key (a template); none when unset or empty" },
  { "message", SL_TEMPLATE (KafkaDestination, message), "$ISODATE $HOST $MSGHDR$MSG",
    "the messages' value (a template)" },
  { "template", SL_TEMPLATE (KafkaDestination, message), NULL, "the same as message()" },
  { "config", SL_PAIRS (KafkaDestination, config), NULL,
    "librdkafka properties: config(\"acks\" => \"all\" \"compression.type\" => \"lz4\")" },
  { "sync-send", SL_BOOL (KafkaDestination, sync_send), "no",
    "wait for each message's delivery report before producing the next (keeps the order, slowly)" },
  { "poll-timeout", SL_DURATION_MS (KafkaDestination, poll_timeout_ms), "1000",
    "how long write() waits for a delivery report before giving what is in flight back to be retried" },
  { "flush-timeout-on-shutdown", SL_DURATION_MS (KafkaDestination, flush_timeout_shutdown_ms), "60000",
    "how long a stopping destination waits for the delivery reports of what it produced" },
  /* A reload keeps a kafka() whose options did not change, with its
   * producer and what it holds; a changed one stops as at shutdown. */
  { "flush-timeout-on-reload", SL_UNBOUND (SL_OPT_DURATION_MS), "1000",
    "accepted for syslog-ng compatibility: a reload keeps an unchanged kafka() running, and stops a changed "
    "one with flush-timeout-on-shutdown()" },
  { NULL }
};

/* Kafka's rule for topic names. */
static gboolean
topic_name_valid (const gchar *name, gsize len)
{
  if (len == 0 || len > 249 || strcmp (name, ".") == 0 || strcmp (name, "..") == 0)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isalnum (name[i]) && name[i] != '.' && name[i] != '_' && name[i] != '-')
      return FALSE;
  return TRUE;
}

static gboolean
check_topic_name (SlDriver *d, const gchar *option, const gchar *name, GError **error)
{
  if (topic_name_valid (name, strlen (name)))
    return TRUE;
  sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, option),
                    _("%s(): '%s' is not a valid topic name (1 to 249 of a-z, A-Z, 0-9, '.', '_', '-')"),
                    d->klass->name, name);
  return FALSE;
}

static gboolean
kafka_init (SlDriver *d, GError **error)
{
  KafkaDestination *self = (KafkaDestination *) d;
  if (!self->topic)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos, _("%s() needs topic()"), d->klass->name);
      return FALSE;
    }
  if (sl_template_is_literal (self->topic))
    {
      if (!check_topic_name (d, "topic", sl_template_text (self->topic), error))
        return FALSE;
    }
  else if (!self->fallback_topic)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "topic"),
                        _("%s(): topic() is a template, so fallback-topic() is needed for the messages whose "
                          "topic would not be a valid name"), d->klass->name);
      return FALSE;
    }
  if (self->fallback_topic && !check_topic_name (d, "fallback-topic", self->fallback_topic, error))
    return FALSE;
  self->conf = kafka_conf_new (d, self->bootstrap_servers, self->config, NULL, error);
  if (!self->conf)
    return FALSE;
  self->env = sl_driver_template_env (d);
  self->held = g_hash_table_new (g_direct_hash, g_direct_equal);
  self->spare = g_ptr_array_new_with_free_func (g_free);
  self->flight = g_ptr_array_new ();
  self->topic_buf = g_string_sized_new (256);
  self->key_buf = g_string_sized_new (256);
  self->msg_buf = g_string_sized_new (1024);
  self->queued = sl_stats_counter ("destination", d->id, d->klass->name, "kafka_queued");
  self->delivery_errors = sl_stats_counter ("destination", d->id, d->klass->name, "delivery_errors");
  self->fallbacks = sl_stats_counter ("destination", d->id, d->klass->name, "fallback_topic");
  return TRUE;
}

const rd_kafka_conf_t *
kafka_destination_conf (const KafkaDestination *self)
{
  return self->conf;
}

static KafkaPending *
pending_new (KafkaDestination *self, SlMessage *msg)
{
  KafkaPending *p = self->spare->len ? g_ptr_array_steal_index_fast (self->spare, self->spare->len - 1)
                                     : g_new (KafkaPending, 1);
  p->msg = sl_message_ref (msg);
  p->state = PENDING_NEW;
  p->err = RD_KAFKA_RESP_ERR_NO_ERROR;
  p->flying = FALSE;
  return p;
}

static void
pending_release (KafkaDestination *self, KafkaPending *p)
{
  sl_message_unref (p->msg);
  g_ptr_array_add (self->spare, p);
}

/* Runs in rd_kafka_poll() and rd_kafka_flush(), on the writer's thread. */
static void
on_delivery (rd_kafka_t *rk, const rd_kafka_message_t *m, void *opaque)
{
  KafkaDestination *self = opaque;
  KafkaPending *p = m->_private;
  if (p->state != PENDING_IN_FLIGHT)
    return;
  if (m->err)
    {
      p->state = PENDING_FAILED;
      p->err = m->err;
      self->last_error = m->err;
      sl_counter_add (self->delivery_errors, 1);
    }
  else
    p->state = PENDING_DELIVERED;
  if (!p->flying)
    self->progress = TRUE;
}

static void
report_queue (KafkaDestination *self)
{
  gint64 len = self->rk ? rd_kafka_outq_len (self->rk) : 0;
  sl_counter_add (self->queued, len - self->queued_reported);
  self->queued_reported = len;
}

static gboolean
kafka_open (SlDriver *d, GError **error)
{
  KafkaDestination *self = (KafkaDestination *) d;
  if (self->rk)
    return TRUE;
  rd_kafka_conf_t *conf = rd_kafka_conf_dup (self->conf);
  rd_kafka_conf_set_opaque (conf, self);
  rd_kafka_conf_set_dr_msg_cb (conf, on_delivery);
  gchar why[512];
  self->rk = rd_kafka_new (RD_KAFKA_PRODUCER, conf, why, sizeof why);
  if (!self->rk)
    {
      rd_kafka_conf_destroy (conf);
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, _("cannot make a Kafka producer: %s"), why);
      return FALSE;
    }
  self->topics = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) rd_kafka_topic_destroy);
  if (sl_template_is_literal (self->topic))
    self->fixed_topic = rd_kafka_topic_new (self->rk, sl_template_text (self->topic), NULL);
  if (self->fallback_topic)
    self->fallback = rd_kafka_topic_new (self->rk, self->fallback_topic, NULL);
  return TRUE;
}

static rd_kafka_topic_t *
topic_for (KafkaDestination *self, const SlMessage *msg)
{
  if (self->fixed_topic)
    return self->fixed_topic;
  g_string_truncate (self->topic_buf, 0);
  sl_template_append (self->topic, msg, self->env, self->topic_buf);
  if (!topic_name_valid (self->topic_buf->str, self->topic_buf->len))
    {
      sl_counter_add (self->fallbacks, 1);
      return self->fallback;
    }
  rd_kafka_topic_t *rkt = g_hash_table_lookup (self->topics, self->topic_buf->str);
  if (!rkt)
    {
      rkt = rd_kafka_topic_new (self->rk, self->topic_buf->str, NULL);
      g_hash_table_insert (self->topics, g_strdup (self->topic_buf->str), rkt);
    }
  return rkt;
}

/* FALSE when librdkafka's queue is full. A message librdkafka refuses
 * for good (too large) is marked failed. */
static gboolean
produce (KafkaDestination *self, KafkaPending *p)
{
  rd_kafka_topic_t *rkt = topic_for (self, p->msg);
  const gchar *key = NULL;
  gsize key_len = 0;
  if (self->key)
    {
      g_string_truncate (self->key_buf, 0);
      sl_template_append (self->key, p->msg, self->env, self->key_buf);
      key = self->key_buf->len ? self->key_buf->str : NULL;
      key_len = self->key_buf->len;
    }
  g_string_truncate (self->msg_buf, 0);
  sl_template_append (self->message, p->msg, self->env, self->msg_buf);
  if (rd_kafka_produce (rkt, RD_KAFKA_PARTITION_UA, RD_KAFKA_MSG_F_COPY, self->msg_buf->str, self->msg_buf->len,
                        key, key_len, p) == 0)
    {
      p->state = PENDING_IN_FLIGHT;
      return TRUE;
    }
  rd_kafka_resp_err_t err = rd_kafka_last_error ();
  if (err == RD_KAFKA_RESP_ERR__QUEUE_FULL)
    return FALSE;
  p->state = PENDING_FAILED;
  p->err = err;
  self->last_error = err;
  sl_counter_add (self->delivery_errors, 1);
  return TRUE;
}

static gint
remaining_ms (gint64 deadline)
{
  gint64 left = deadline - g_get_monotonic_time ();
  return left <= 0 ? 0 : (gint) MIN ((left + 999) / 1000, G_MAXINT);
}

/* The pending of a message the core sends: the one it had when it went
 * back to the core unanswered, or a new one. */
static KafkaPending *
take_pending (KafkaDestination *self, SlMessage *msg)
{
  KafkaPending *p = g_hash_table_size (self->held) ? g_hash_table_lookup (self->held, msg) : NULL;
  if (p)
    g_hash_table_remove (self->held, msg);
  else
    p = pending_new (self, msg);
  self->taken++;
  return p;
}

static guint
flight_len (const KafkaDestination *self)
{
  return self->flight->len - self->flight_head;
}

/* Produces the batch's messages into the flight array, up to librdkafka's
 * queue (or, with sync-send(), one message while none is in flight); a
 * held message still in librdkafka's hands is not produced again, one
 * delivered meanwhile is answered at once. Returns how many were sent. */
static guint
send_batch (KafkaDestination *self, SlMessage *const *msgs, guint n, gint64 deadline)
{
  guint sent = 0;
  for (; sent < n && !(self->sync_send && flight_len (self)); sent++)
    {
      KafkaPending *p = take_pending (self, msgs[sent]);
      if (p->state == PENDING_NEW || p->state == PENDING_FAILED)
        {
          gboolean queued;
          while (!(queued = produce (self, p)) && !flight_len (self) && remaining_ms (deadline))
            rd_kafka_poll (self->rk, MIN (remaining_ms (deadline), QUEUE_FULL_POLL_MS));
          if (!queued)
            {
              /* the core puts it back in front; it comes again */
              p->due = self->taken + n;
              g_hash_table_insert (self->held, p->msg, p);
              break;
            }
        }
      p->flying = TRUE;
      g_ptr_array_add (self->flight, p);
    }
  return sent;
}

/* Counts in batch->answered the run of delivered messages from the
 * oldest in flight and lets go of them; the oldest not delivered, or
 * NULL when none is left in flight. */
static const KafkaPending *
settle_answered (KafkaDestination *self, SlWriteBatch *batch)
{
  while (self->flight_head < self->flight->len)
    {
      KafkaPending *p = g_ptr_array_index (self->flight, self->flight_head);
      if (p->state != PENDING_DELIVERED)
        return p;
      pending_release (self, p);
      self->flight_head++;
      batch->answered++;
    }
  g_ptr_array_set_size (self->flight, 0);
  self->flight_head = 0;
  return NULL;
}

/* Every message in flight goes back to the core, which sends it again
 * after time-reopen(): remembered until then, so that it is produced
 * again only if its report was an error. */
static void
give_back (KafkaDestination *self)
{
  guint64 due = self->taken + 2 * (guint64) flight_len (self);
  for (guint i = self->flight_head; i < self->flight->len; i++)
    {
      KafkaPending *p = g_ptr_array_index (self->flight, i);
      p->flying = FALSE;
      p->due = due;
      g_hash_table_insert (self->held, p->msg, p);
    }
  g_ptr_array_set_size (self->flight, 0);
  self->flight_head = 0;
}

/* The core sends what went back again first and in order, so held
 * messages not handed back by their due time went to another worker or
 * were dropped; once librdkafka is done with them they are let go. */
static void
release_stale (KafkaDestination *self)
{
  GHashTableIter iter;
  gpointer value;
  g_hash_table_iter_init (&iter, self->held);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      KafkaPending *p = value;
      if (p->state != PENDING_IN_FLIGHT && p->due < self->taken)
        {
          g_hash_table_iter_remove (&iter);
          pending_release (self, p);
        }
    }
}

static gboolean
permanent_error (rd_kafka_resp_err_t err)
{
  return err == RD_KAFKA_RESP_ERR_MSG_SIZE_TOO_LARGE || err == RD_KAFKA_RESP_ERR_INVALID_MSG
         || err == RD_KAFKA_RESP_ERR_INVALID_MSG_SIZE || err == RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED
         || err == RD_KAFKA_RESP_ERR_TOPIC_EXCEPTION || err == RD_KAFKA_RESP_ERR_INVALID_RECORD;
}

/* SL_CAP_ANSWERS: sends what the batch brings and reports what the
 * brokers confirmed since the last call; waits for an answer when it
 * could not send everything or was called only for answers. */
static SlWriteResult
kafka_write (SlDriver *d, SlWriteBatch *batch)
{
  KafkaDestination *self = (KafkaDestination *) d;
  self->progress = FALSE;
  gint64 now = g_get_monotonic_time ();
  gint64 deadline = now + self->poll_timeout_ms * 1000;
  if (sl_destination_stopping ())
    {
      if (!self->stop_deadline)
        self->stop_deadline = now + self->flush_timeout_shutdown_ms * 1000;
      deadline = self->stop_deadline;
    }
  if (batch->n && g_hash_table_size (self->held))
    release_stale (self);
  batch->done = send_batch (self, batch->msgs, batch->n, deadline);
  rd_kafka_poll (self->rk, 0);
  const KafkaPending *oldest = settle_answered (self, batch);
  gboolean wait = batch->done < batch->n || !batch->n;
  while (wait && !batch->answered && oldest && oldest->state == PENDING_IN_FLIGHT && remaining_ms (deadline))
    {
      /* nothing more comes before an answer, so what linger.ms would
       * hold back is sent at once, as a flush does; a flush returns only
       * once every message is delivered or its time is up, so it gets a
       * short slice */
      rd_kafka_flush (self->rk, MIN (remaining_ms (deadline), ANSWER_SLICE_MS));
      oldest = settle_answered (self, batch);
    }
  if (self->flight_head >= FLIGHT_COMPACT && self->flight_head * 2 >= self->flight->len)
    {
      g_ptr_array_remove_range (self->flight, 0, self->flight_head);
      self->flight_head = 0;
    }
  report_queue (self);
  gboolean failed = oldest && oldest->state == PENDING_FAILED;
  gboolean stuck = wait && !batch->answered && (oldest || batch->done < batch->n);
  if (!failed && !stuck)
    return SL_WRITE_OK;

  guint unanswered = flight_len (self) + batch->n - batch->done;
  rd_kafka_resp_err_t err = failed ? oldest->err : self->last_error;
  give_back (self);
  return sl_write_batch_fail (batch, failed && permanent_error (err) ? SL_WRITE_ERROR : SL_WRITE_RETRY, 0,
                              _("%u messages not confirmed by the brokers yet: %s"), unanswered,
                              rd_kafka_err2str (err));
}

static gboolean
kafka_tick (SlDriver *d)
{
  KafkaDestination *self = (KafkaDestination *) d;
  if (!self->rk)
    return FALSE;
  rd_kafka_poll (self->rk, 0);
  report_queue (self);
  gboolean progress = self->progress;
  self->progress = FALSE;
  return progress;
}

static void
release_all_held (KafkaDestination *self)
{
  GHashTableIter iter;
  gpointer value;
  g_hash_table_iter_init (&iter, self->held);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      g_hash_table_iter_remove (&iter);
      pending_release (self, value);
    }
}

/* What was produced and not confirmed has been put back to the core (a
 * disk buffer keeps it) or given up by it: it gets until
 * flush-timeout-on-shutdown() to be delivered, then librdkafka drops it
 * and the reports say so before the held messages are let go. */
static void
kafka_close (SlDriver *d)
{
  KafkaDestination *self = (KafkaDestination *) d;
  if (!self->rk)
    return;
  gint64 deadline = self->stop_deadline ? self->stop_deadline
                                        : g_get_monotonic_time () + self->flush_timeout_shutdown_ms * 1000;
  if (rd_kafka_flush (self->rk, remaining_ms (deadline)) == RD_KAFKA_RESP_ERR__TIMED_OUT)
    sl_log (SL_LOG_WARNING, _("%s: %d messages were still not confirmed by the brokers when it closed"),
            d->id, rd_kafka_outq_len (self->rk));
  rd_kafka_purge (self->rk, RD_KAFKA_PURGE_F_QUEUE | RD_KAFKA_PURGE_F_INFLIGHT);
  rd_kafka_poll (self->rk, 0);
  g_clear_pointer (&self->topics, g_hash_table_unref);
  g_clear_pointer (&self->fixed_topic, rd_kafka_topic_destroy);
  g_clear_pointer (&self->fallback, rd_kafka_topic_destroy);
  g_clear_pointer (&self->rk, rd_kafka_destroy);
  give_back (self);
  release_all_held (self);
  report_queue (self);
  self->stop_deadline = 0;
}

static void
kafka_free (SlDriver *d)
{
  KafkaDestination *self = (KafkaDestination *) d;
  kafka_close (d);
  if (self->held)
    g_hash_table_unref (self->held);
  if (self->spare)
    g_ptr_array_unref (self->spare);
  if (self->flight)
    g_ptr_array_unref (self->flight);
  if (self->conf)
    rd_kafka_conf_destroy (self->conf);
  if (self->topic_buf)
    g_string_free (self->topic_buf, TRUE);
  if (self->key_buf)
    g_string_free (self->key_buf, TRUE);
  if (self->msg_buf)
    g_string_free (self->msg_buf, TRUE);
}

static const SlDestinationOps kafka_ops = {
  .open = kafka_open,
  .write = kafka_write,
  .close = kafka_close,
  .tick = kafka_tick,
};

#define KAFKA_DESTINATION_CLASS(var, word, text) \
  static const SlDriverClass var = { \
    .kind = SL_DRIVER_DESTINATION, \
    .name = word, \
    .summary = text, \
    .options = kafka_options, \
    .capabilities = SL_CAP_TEMPLATES | SL_CAP_WORKERS | SL_CAP_DISK_BUFFER | SL_CAP_ANSWERS, \
    .instance_size = sizeof (KafkaDestination), \
    .init = kafka_init, \
    .free = kafka_free, \
    .ops.destination = &kafka_ops, \
  }

KAFKA_DESTINATION_CLASS (kafka_class, "kafka",
                         "produce to Kafka topics; a message is done once the broker confirmed it");
KAFKA_DESTINATION_CLASS (kafka_c_class, "kafka-c", "the same as kafka(), syslog-ng's name for its C driver");

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "kafka-destination",
  .drivers = (const SlDriverClass *const[]) { &kafka_class, &kafka_c_class, NULL },
  .rsyslog_modules = (const SlRsModule *const[]) { &kafka_omkafka, NULL },
};
