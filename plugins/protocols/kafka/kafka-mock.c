/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kafka-mock: librdkafka's mock cluster in a process of its own, for the
 * tests and bench/run. It starts BROKERS brokers on loopback, creates each
 * TOPIC:PARTITIONS given (replicated on every broker), prints
 * "bootstrap=HOST:PORT,..." and then reads commands on stdin, one a line,
 * answering each with one line:
 *   down ID | up ID     a broker stops answering / answers again  -> "ok"
 *   refuse N            the next N produce requests are refused with
 *                       NOT_ENOUGH_REPLICAS, what a broker says when acks=all
 *                       cannot be met                              -> "ok"
 *   count TOPIC         messages the topic received (sum of its partitions'
 *                       high watermarks), and of those how many the mock
 *                       retired (it keeps the last 5 MB of a partition;
 *                       sum of the low watermarks)       -> "count=N retired=R"
 * It exits at the end of its input.
 *
 *   kafka-mock [--brokers 3] TOPIC:PARTITIONS ... */
#include <glib.h>
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define QUERY_TIMEOUT_MS 5000
/* the Kafka protocol's number for a ProduceRequest */
#define PRODUCE_API_KEY 0

/* -1 when the topic cannot be queried */
static gint64
topic_count (rd_kafka_t *client, const gchar *topic, gint64 *retired)
{
  rd_kafka_topic_t *rkt = rd_kafka_topic_new (client, topic, NULL);
  const struct rd_kafka_metadata *md = NULL;
  gint64 total = -1;
  if (rd_kafka_metadata (client, 0, rkt, &md, QUERY_TIMEOUT_MS) == RD_KAFKA_RESP_ERR_NO_ERROR
      && md->topic_cnt == 1 && !md->topics[0].err)
    {
      total = 0;
      *retired = 0;
      for (int i = 0; i < md->topics[0].partition_cnt && total >= 0; i++)
        {
          int64_t low, high;
          if (rd_kafka_query_watermark_offsets (client, topic, md->topics[0].partitions[i].id, &low, &high,
                                                QUERY_TIMEOUT_MS))
            total = -1;
          else
            {
              total += high;
              *retired += low;
            }
        }
    }
  if (md)
    rd_kafka_metadata_destroy (md);
  rd_kafka_topic_destroy (rkt);
  return total;
}

static rd_kafka_t *
new_handle (const gchar *bootstrap)
{
  rd_kafka_conf_t *conf = rd_kafka_conf_new ();
  gchar why[512];
  /* brokers taken down on purpose are not news: only critical lines */
  if (rd_kafka_conf_set (conf, "log_level", "2", why, sizeof why) != RD_KAFKA_CONF_OK
      || (bootstrap && rd_kafka_conf_set (conf, "bootstrap.servers", bootstrap, why, sizeof why) != RD_KAFKA_CONF_OK))
    g_error ("kafka-mock: %s", why);
  rd_kafka_t *rk = rd_kafka_new (RD_KAFKA_PRODUCER, conf, why, sizeof why);
  if (!rk)
    g_error ("kafka-mock: %s", why);
  return rk;
}

static void
serve (rd_kafka_mock_cluster_t *cluster, rd_kafka_t *client)
{
  gchar line[1024];
  while (fgets (line, sizeof line, stdin))
    {
      g_strstrip (line);
      gchar **words = g_strsplit (line, " ", 2);
      const gchar *arg = words[0] && words[1] ? words[1] : "";
      if (g_strcmp0 (words[0], "down") == 0)
        printf (rd_kafka_mock_broker_set_down (cluster, atoi (arg)) ? "error\n" : "ok\n");
      else if (g_strcmp0 (words[0], "up") == 0)
        printf (rd_kafka_mock_broker_set_up (cluster, atoi (arg)) ? "error\n" : "ok\n");
      else if (g_strcmp0 (words[0], "refuse") == 0)
        {
          gsize n = (gsize) atoi (arg);
          rd_kafka_resp_err_t *errors = g_new (rd_kafka_resp_err_t, n);
          for (gsize i = 0; i < n; i++)
            errors[i] = RD_KAFKA_RESP_ERR_NOT_ENOUGH_REPLICAS;
          rd_kafka_mock_push_request_errors_array (cluster, PRODUCE_API_KEY, n, errors);
          g_free (errors);
          printf ("ok\n");
        }
      else if (g_strcmp0 (words[0], "count") == 0)
        {
          gint64 retired = 0;
          gint64 total = topic_count (client, arg, &retired);
          printf ("count=%" G_GINT64_FORMAT " retired=%" G_GINT64_FORMAT "\n", total, retired);
        }
      else
        printf ("error: unknown command '%s'\n", line);
      fflush (stdout);
      g_strfreev (words);
    }
}

int
main (int argc, char **argv)
{
  int brokers = 3;
  int first = 1;
  if (argc > 2 && strcmp (argv[1], "--brokers") == 0)
    {
      brokers = atoi (argv[2]);
      first = 3;
    }
  if (brokers < 1)
    g_error ("usage: kafka-mock [--brokers N] TOPIC:PARTITIONS ...");
  rd_kafka_t *keeper = new_handle (NULL);
  rd_kafka_mock_cluster_t *cluster = rd_kafka_mock_cluster_new (keeper, brokers);
  if (!cluster)
    g_error ("kafka-mock: cannot start the mock cluster");
  for (int i = first; i < argc; i++)
    {
      gchar **parts = g_strsplit (argv[i], ":", 2);
      int partitions = parts[1] ? atoi (parts[1]) : 1;
      if (rd_kafka_mock_topic_create (cluster, parts[0], MAX (partitions, 1), brokers))
        g_error ("kafka-mock: cannot create topic %s", parts[0]);
      g_strfreev (parts);
    }
  const gchar *bootstrap = rd_kafka_mock_cluster_bootstraps (cluster);
  rd_kafka_t *client = new_handle (bootstrap);
  printf ("bootstrap=%s\n", bootstrap);
  fflush (stdout);
  serve (cluster, client);
  rd_kafka_destroy (client);
  rd_kafka_mock_cluster_destroy (cluster);
  rd_kafka_destroy (keeper);
  return 0;
}
