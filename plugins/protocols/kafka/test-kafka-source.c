/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kafka() source against librdkafka's mock cluster (3 brokers, a topic of
 * 4 partitions): kcat produces numbered lines, the real sluiced consumes
 * them into a file, sluice-gen verify checks every number arrived. A
 * restart in the middle loses nothing; what it repeats (records read but
 * not yet committed, Kafka's at-least-once) is counted and reported. */
#include "plugins/protocols/kafka/kafka-fixture.h"

#include <signal.h>
#include <stdio.h>

static const gchar source_config[] =
  "@version: 4.0\n"
  "source s_kafka { kafka(bootstrap-servers(\"@BOOTSTRAP@\") topics(\"in\") group-id(\"sluice-test\")\n"
  "  config(\"session.timeout.ms\" => 6000 \"heartbeat.interval.ms\" => 1000) flags(no-parse)); };\n"
  "destination d_file { file(\"@DIR@/out.log\" template(\"$MSG\\n\") @EXTRA@); };\n"
  "log { source(s_kafka); destination(d_file); flags(flow-control); };\n";

/* The mock cluster's coordinator lets a restarted member into the group
 * only after the session timeout of the one before (a broker rebalances
 * at once when a member leaves): the short session.timeout.ms above keeps
 * the restart test quick. */
#define RECORDS 20000

/* Lines "seq=1:N record N", as sluice-gen verify reads them. */
static gchar *
write_records (SlTestEnv *env, guint count)
{
  GString *text = g_string_sized_new (count * 24);
  for (guint i = 1; i <= count; i++)
    g_string_append_printf (text, "seq=1:%u record %u\n", i, i);
  gchar *path = sl_test_path (env, "records.txt");
  g_assert_true (g_file_set_contents (path, text->str, (gssize) text->len, NULL));
  g_string_free (text, TRUE);
  return path;
}

static KafkaMock *
start (SlTestEnv *env, const gchar *extra)
{
  const gchar *topics[] = { "in:4", NULL };
  KafkaMock *mock = kafka_mock_start (topics);
  if (!mock)
    return NULL;
  g_autofree gchar *records = write_records (env, RECORDS);
  if (!kafka_produce (mock, "in", records) || kafka_mock_wait_count (mock, "in", RECORDS) != RECORDS
      || !sl_test_write_config (env, source_config, "BOOTSTRAP", kafka_mock_bootstrap (mock), "EXTRA", extra,
                                NULL)
      || !sl_test_daemon_start (env))
    {
      kafka_mock_stop (mock);
      return NULL;
    }
  return mock;
}

static gint64
verify_out (SlTestEnv *env, gint64 *duplicated, gboolean report)
{
  g_autofree gchar *out = sl_test_path (env, "out.log");
  return kafka_verify (out, RECORDS, duplicated, report);
}

static void
test_consume (SlTestEnv *env, gconstpointer data)
{
  KafkaMock *mock = start (env, "");
  if (!mock)
    return;
  g_autofree gchar *out = sl_test_path (env, "out.log");
  g_assert_true (sl_test_wait_lines (env, out, RECORDS));
  gint64 duplicated = -1;
  g_assert_cmpint (verify_out (env, &duplicated, TRUE), ==, 0);
  g_assert_cmpint (duplicated, ==, 0);
  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
  kafka_mock_stop (mock);
}

/* The file destination is throttled so that the stop comes in the middle
 * of the topic; the second run resumes from the committed offsets. */
static void
test_restart (SlTestEnv *env, gconstpointer data)
{
  KafkaMock *mock = start (env, "throttle(5000)");
  if (!mock)
    return;
  g_autofree gchar *out = sl_test_path (env, "out.log");
  g_assert_true (sl_test_wait_lines (env, out, RECORDS / 4));
  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
  guint first_run = sl_test_count_lines (out);
  g_assert_cmpuint (first_run, <, RECORDS);
  if (!sl_test_daemon_start (env))
    goto out;
  /* duplicates make the file longer than RECORDS before the last record
   * came: wait for a line more than verify saw, counted before it read */
  gint64 duplicated = -1;
  for (;;)
    {
      guint seen = sl_test_count_lines (out);
      if (verify_out (env, &duplicated, FALSE) == 0)
        break;
      if (!sl_test_wait_lines (env, out, seen + 1))
        {
          verify_out (env, &duplicated, TRUE);
          goto out;
        }
    }
  g_test_message ("restart after %u of %u records: 0 lost, %" G_GINT64_FORMAT " read twice", first_run, RECORDS,
                  duplicated);
out:
  sl_test_daemon_stop (env, SIGTERM);
  kafka_mock_stop (mock);
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/kafka-source/consume", test_consume);
  SL_TEST_ADD ("/kafka-source/restart", test_restart);
  return g_test_run ();
}
