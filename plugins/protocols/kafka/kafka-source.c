/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kafka() source: a consumer of group-id() reading topics(); the value of
 * each record is a frame that format() parses as any source's.
 *
 * Offsets are committed only for records whose messages were delivered:
 * the reader posts what it consumed (its window holding a place for each
 * message until every flow-controlled destination acknowledged it), and at
 * the end of each round (the consumer had nothing more at once, a window
 * of records (log-iw-size(), at most ROUND_MAX) was read, or half a
 * second went by) waits for its window to empty, then commits the next
 * offset of every partition it read. A stop that cannot wait, or a crash,
 * repeats at most the round's records after a restart, and the round
 * before when the kill cut its asynchronous commit (Kafka's at-least-once);
 * none is lost. Auto-commit and librdkafka's own offset
 * store are off for that reason, and config() may not turn them on. */
#include "plugins/protocols/kafka/kafka-conf.h"
#include "plugins/protocols/kafka/kafka-source-rsyslog.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/route/source.h"

#include <string.h>

#define POST_BATCH 256
/* records between commits at most (fewer with a smaller window), and the
 * longest between them while records keep coming: a crash repeats at most
 * that much */
#define ROUND_MAX 10000
#define ROUND_MAX_USEC (G_USEC_PER_SEC / 2)
#define POLL_MS 100
/* How long stopping waits for the last records read to be delivered; what
 * is still undelivered then is read again after a restart. */
#define STOP_GRACE_USEC (2 * G_USEC_PER_SEC)

typedef struct
{
  SlDriver super;
  /* options */
  const gchar *bootstrap_servers;
  GPtrArray *topics;
  const gchar *group_id;
  GPtrArray *config;

  rd_kafka_conf_t *conf;
  SlSource *source;
  SlWindow *window;
  GThread *thread;
  gint stopping;
  GMutex lock;
  GCond finished_cond;
  gboolean finished;

  /* the reading thread's own */
  rd_kafka_t *rk;
  rd_kafka_topic_partition_list_t *offsets;  /* to commit once delivered */
  rd_kafka_topic_t *last_topic;              /* where the last record came from */
  gint32 last_partition;
  gint last_index;                           /* its entry in offsets, or -1 */
  gboolean error_logged;
  guint round_max;
  SlMessage *batch[POST_BATCH];
  guint batched;
} KafkaSource;

static const SlOptionSpec kafka_source_options[] = {
  { "bootstrap-servers", SL_STRING (KafkaSource, bootstrap_servers), NULL,
    "the brokers to ask for the cluster's metadata: \"host:port,host:port\"" },
  { "topics", SL_LIST (KafkaSource, topics), NULL, "the topics to read (names, or ^regular expressions)" },
  { "topic", SL_LIST (KafkaSource, topics), NULL, "the same as topics()" },
  { "group-id", SL_STRING (KafkaSource, group_id), "sluice",
    "the consumer group: its members share the partitions, and its offsets say where a restart resumes" },
  { "config", SL_PAIRS (KafkaSource, config), NULL,
    "librdkafka properties: config(\"auto.offset.reset\" => \"latest\")" },
  { NULL }
};

static gboolean
config_names (const GPtrArray *pairs, const gchar *name)
{
  for (guint i = 0; pairs && i < pairs->len; i++)
    if (strcmp (((const SlOptionPair *) g_ptr_array_index (pairs, i))->key, name) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
kafka_source_init (SlDriver *d, GError **error)
{
  KafkaSource *self = (KafkaSource *) d;
  if (!self->topics || !self->topics->len)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos, _("kafka() source needs topics(\"name\" ...)"));
      return FALSE;
    }
  if (!*self->group_id)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "group-id"),
                        _("kafka() source needs a group-id() that is not empty"));
      return FALSE;
    }
  const gchar *const fixed[] = {
    "group.id", self->group_id,
    "enable.auto.commit", "false",
    "enable.auto.offset.store", "false",
    NULL
  };
  self->conf = kafka_conf_new (d, self->bootstrap_servers, self->config, fixed, error);
  if (!self->conf)
    return FALSE;
  /* logs already in a topic are read by a new group, unless config() says otherwise */
  if (!config_names (self->config, "auto.offset.reset"))
    rd_kafka_conf_set (self->conf, "auto.offset.reset", "earliest", NULL, 0);
  g_mutex_init (&self->lock);
  g_cond_init (&self->finished_cond);
  return TRUE;
}

static void
flush_batch (KafkaSource *self)
{
  if (!self->batched)
    return;
  sl_source_post (self->source, self->batch, self->batched);
  self->batched = 0;
}

/* Records the offset after m as its partition's next commit; records come
 * in runs per partition, so the list is searched only when one ends. */
static void
note_offset (KafkaSource *self, const rd_kafka_message_t *m)
{
  if (m->rkt != self->last_topic || m->partition != self->last_partition || self->last_index < 0)
    {
      const gchar *topic = rd_kafka_topic_name (m->rkt);
      rd_kafka_topic_partition_t *p = rd_kafka_topic_partition_list_find (self->offsets, topic, m->partition);
      if (!p)
        p = rd_kafka_topic_partition_list_add (self->offsets, topic, m->partition);
      self->last_index = (gint) (p - self->offsets->elems);
      self->last_topic = m->rkt;
      self->last_partition = m->partition;
    }
  self->offsets->elems[self->last_index].offset = m->offset + 1;
}

static void
take_record (KafkaSource *self, const rd_kafka_message_t *m)
{
  if (m->err)
    {
      if (m->err != RD_KAFKA_RESP_ERR__PARTITION_EOF && !self->error_logged)
        sl_log (SL_LOG_WARNING, _("%s: %s"), self->super.id, rd_kafka_message_errstr (m));
      self->error_logged = m->err != RD_KAFKA_RESP_ERR__PARTITION_EOF;
      return;
    }
  self->error_logged = FALSE;
  note_offset (self, m);
  if (!m->len)
    return;
  SlMessage *msg = sl_source_parse (self->source, m->payload, m->len, NULL);
  sl_message_bind_window (msg, self->window);
  self->batch[self->batched++] = msg;
  if (self->batched == POST_BATCH)
    {
      flush_batch (self);
      sl_window_wait (self->window);
    }
}

static void
commit (KafkaSource *self, gboolean async)
{
  if (!self->offsets->cnt)
    return;
  rd_kafka_resp_err_t err = rd_kafka_commit (self->rk, self->offsets, async);
  if (err)
    sl_log (SL_LOG_WARNING, _("%s: committing offsets failed: %s; they are committed with the next ones"),
            self->super.id, rd_kafka_err2str (err));
  else
    {
      rd_kafka_topic_partition_list_destroy (self->offsets);
      self->offsets = rd_kafka_topic_partition_list_new (16);
      self->last_index = -1;
    }
}

/* Reads one round; FALSE when the window was cancelled before its
 * messages were delivered. */
static gboolean
read_round (KafkaSource *self)
{
  guint read = 0;
  gint64 round_end = g_get_monotonic_time () + ROUND_MAX_USEC;
  while (read < self->round_max && !g_atomic_int_get (&self->stopping)
         && (read % POST_BATCH != 0 || g_get_monotonic_time () < round_end))
    {
      rd_kafka_message_t *m = rd_kafka_consumer_poll (self->rk, read ? 0 : POLL_MS);
      if (!m)
        break;
      /* one clock reading per batch of records, as a stream reader takes one per read() */
      if (read % POST_BATCH == 0)
        sl_source_mark_read_time ();
      take_record (self, m);
      rd_kafka_message_destroy (m);
      read++;
    }
  flush_batch (self);
  if (!read)
    return TRUE;
  if (!sl_window_wait_empty (self->window, -1))
    return FALSE;
  commit (self, TRUE);
  return TRUE;
}

static gpointer
reader_thread (gpointer data)
{
  KafkaSource *self = data;
  while (!g_atomic_int_get (&self->stopping))
    if (!read_round (self))
      break;
  if (sl_window_in_flight (self->window) == 0)
    commit (self, FALSE);
  rd_kafka_consumer_close (self->rk);
  g_mutex_lock (&self->lock);
  self->finished = TRUE;
  g_cond_signal (&self->finished_cond);
  g_mutex_unlock (&self->lock);
  return NULL;
}

static gboolean
kafka_source_start (SlDriver *d, SlSource *source, GError **error)
{
  KafkaSource *self = (KafkaSource *) d;
  gchar why[512];
  rd_kafka_conf_t *conf = rd_kafka_conf_dup (self->conf);
  self->rk = rd_kafka_new (RD_KAFKA_CONSUMER, conf, why, sizeof why);
  if (!self->rk)
    {
      rd_kafka_conf_destroy (conf);
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, _("%s: cannot make a Kafka consumer: %s"), d->id, why);
      return FALSE;
    }
  rd_kafka_poll_set_consumer (self->rk);
  rd_kafka_topic_partition_list_t *topics = rd_kafka_topic_partition_list_new ((int) self->topics->len);
  for (guint i = 0; i < self->topics->len; i++)
    rd_kafka_topic_partition_list_add (topics, g_ptr_array_index (self->topics, i), RD_KAFKA_PARTITION_UA);
  rd_kafka_resp_err_t err = rd_kafka_subscribe (self->rk, topics);
  rd_kafka_topic_partition_list_destroy (topics);
  if (err)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, _("%s: cannot subscribe to the topics: %s"), d->id,
                   rd_kafka_err2str (err));
      g_clear_pointer (&self->rk, rd_kafka_destroy);
      return FALSE;
    }
  self->source = source;
  self->window = sl_source_new_window (source);
  self->round_max = MIN (ROUND_MAX, sl_source_window_size (source));
  self->offsets = rd_kafka_topic_partition_list_new (16);
  self->last_index = -1;
  self->last_topic = NULL;
  self->stopping = 0;
  self->finished = FALSE;
  self->thread = g_thread_new ("sl-kafka", reader_thread, self);
  return TRUE;
}

static void
kafka_source_stop (SlDriver *d)
{
  KafkaSource *self = (KafkaSource *) d;
  g_atomic_int_set (&self->stopping, 1);
  /* the destinations still run: what was read is usually delivered at once */
  gint64 deadline = g_get_monotonic_time () + STOP_GRACE_USEC;
  g_mutex_lock (&self->lock);
  while (!self->finished)
    if (!g_cond_wait_until (&self->finished_cond, &self->lock, deadline))
      break;
  gboolean finished = self->finished;
  g_mutex_unlock (&self->lock);
  if (!finished)
    {
      sl_log (SL_LOG_NOTICE, _("%s: the last records read were not delivered in time; they will be read again at "
                               "the next start"), d->id);
      sl_window_cancel (self->window);
    }
  g_thread_join (self->thread);
  self->thread = NULL;
  g_clear_pointer (&self->rk, rd_kafka_destroy);
  g_clear_pointer (&self->offsets, rd_kafka_topic_partition_list_destroy);
  g_clear_pointer (&self->window, sl_window_unref);
}

static void
kafka_source_free (SlDriver *d)
{
  KafkaSource *self = (KafkaSource *) d;
  if (!self->conf)
    return;
  rd_kafka_conf_destroy (self->conf);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->finished_cond);
}

static const SlSourceOps kafka_source_ops = {
  .start = kafka_source_start,
  .stop = kafka_source_stop,
};

static const SlDriverClass kafka_source_class = {
  .kind = SL_DRIVER_SOURCE,
  .name = "kafka",
  .summary = "consume Kafka topics in a consumer group; offsets are committed once the messages were delivered",
  .options = kafka_source_options,
  .capabilities = SL_CAP_PARSES,
  .instance_size = sizeof (KafkaSource),
  .init = kafka_source_init,
  .free = kafka_source_free,
  .ops.source = &kafka_source_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "kafka-source",
  .drivers = (const SlDriverClass *const[]) { &kafka_source_class, NULL },
  .rsyslog_modules = (const SlRsModule *const[]) { &kafka_imkafka, NULL },
};
