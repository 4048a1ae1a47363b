/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kafka() destination against librdkafka's mock cluster (3 brokers):
 * sluice-gen sends numbered messages to the real sluiced over TCP with
 * flow control, sluiced produces them, kcat consumes them back and
 * sluice-gen verify checks every number arrived: with acks=all refusals,
 * with a broker down in the middle of the run (in order per partition
 * with one writer and a reliable disk buffer), with every broker down
 * across a restart with a disk buffer, and with a templated topic whose
 * invalid names go to fallback-topic(). */
#include "plugins/protocols/kafka/kafka-fixture.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>

static const gchar kafka_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_kafka { kafka(bootstrap-servers(\"@BOOTSTRAP@\") topic(\"logs\")\n"
  "  config(\"acks\" => \"all\" \"linger.ms\" => 1) poll-timeout(500) flush-timeout-on-shutdown(1000)\n"
  "  time-reopen(1) @EXTRA@); };\n"
  "log { source(s_net); destination(d_kafka); flags(flow-control); };\n";

typedef struct
{
  KafkaMock *mock;
  guint16 port;
  gchar *port_text;
} Setup;

static gboolean
setup (SlTestEnv *env, Setup *s, const gchar *extra)
{
  const gchar *topics[] = { "logs:4", NULL };
  s->mock = kafka_mock_start (topics);
  s->port = sl_test_free_port (SOCK_STREAM);
  s->port_text = g_strdup_printf ("%u", s->port);
  g_autofree gchar *extra_text = g_strdup (extra ? extra : "");
  return s->mock && s->port
         && sl_test_write_config (env, kafka_config, "PORT", s->port_text, "BOOTSTRAP",
                                  kafka_mock_bootstrap (s->mock), "EXTRA", extra_text, NULL)
         && sl_test_daemon_start (env);
}

static void
teardown (Setup *s)
{
  kafka_mock_stop (s->mock);
  g_free (s->port_text);
}

/* sluice-gen sending count messages at rate a second (0: at once), in the
 * background. */
static GPid
send_numbered (Setup *s, guint count, guint rate)
{
  g_autofree gchar *gen = g_build_filename (g_getenv ("SL_TOP_BUILDDIR"), "tools", "sluice-gen", NULL);
  g_autofree gchar *n = g_strdup_printf ("%u", count);
  g_autofree gchar *r = g_strdup_printf ("%u", rate);
  const gchar *argv[] = { gen, "-Q", "-n", n, "-r", r, "-s", "120", "127.0.0.1", s->port_text, NULL };
  GPid pid = 0;
  GError *error = NULL;
  if (!g_spawn_async (NULL, (gchar **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL, NULL,
                      NULL, &pid, &error))
    {
      g_test_fail_printf ("cannot start sluice-gen: %s", error->message);
      g_error_free (error);
    }
  return pid;
}

static gboolean
sender_finished (GPid pid)
{
  gint status = -1;
  waitpid (pid, &status, 0);
  g_spawn_close_pid (pid);
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    g_test_fail_printf ("sluice-gen failed (status %d)", status);
  return WIFEXITED (status) && WEXITSTATUS (status) == 0;
}

/* Waits until sluiced counts every message written, which it does only
 * once the brokers confirmed it (the topic's own count may reach count
 * earlier, with duplicates), then consumes the topic with kcat and checks
 * that 1..count all arrived; duplicates are reported, not failed:
 * librdkafka may send a batch again when its answer was lost, and a
 * message handed back to the queue may be produced again by another
 * worker. */
static void
assert_all_delivered (SlTestEnv *env, Setup *s, const gchar *topic, guint count)
{
  g_assert_true (sl_test_wait_stat (env, "destination", "d_kafka", "written", count));
  g_assert_cmpint (kafka_mock_count (s->mock, topic), >=, count);
  g_autofree gchar *path = sl_test_path (env, "consumed.log");
  g_assert_true (kafka_consume (s->mock, topic, path));
  gint64 duplicated = -1;
  g_assert_cmpint (kafka_verify (path, count, &duplicated, TRUE), ==, 0);
  g_test_message ("%u messages through kafka(): 0 lost, %" G_GINT64_FORMAT " duplicated", count, duplicated);
}

#define MESSAGES 20000

static void
test_acks_all (SlTestEnv *env, gconstpointer data)
{
  Setup s = { 0 };
  g_autofree gchar *ok = NULL;
  if (!setup (env, &s, NULL))
    goto out;
  /* what a broker answers when acks=all cannot be met: librdkafka must
   * not take it as stored */
  ok = kafka_mock_command (s.mock, "refuse 5");
  g_assert_cmpstr (ok, ==, "ok");
  GPid gen = send_numbered (&s, MESSAGES, 0);
  if (!gen || !sender_finished (gen))
    goto out;
  assert_all_delivered (env, &s, "logs", MESSAGES);
  g_assert_true (sl_test_wait_stat (env, "destination", "d_kafka", "kafka_queued", 0));
out:
  sl_test_daemon_stop (env, SIGTERM);
  teardown (&s);
}

static void
test_broker_down (SlTestEnv *env, gconstpointer data)
{
  Setup s = { 0 };
  g_autofree gchar *down = NULL, *up = NULL;
  if (!setup (env, &s, "workers(2)"))
    goto out;
  GPid gen = send_numbered (&s, MESSAGES, 4000);
  if (!gen)
    goto out;
  kafka_mock_wait_count (s.mock, "logs", MESSAGES / 10);
  down = kafka_mock_command (s.mock, "down 1");
  g_assert_cmpstr (down, ==, "ok");
  g_usleep (2 * G_USEC_PER_SEC);
  up = kafka_mock_command (s.mock, "up 1");
  g_assert_cmpstr (up, ==, "ok");
  if (!sender_finished (gen))
    goto out;
  assert_all_delivered (env, &s, "logs", MESSAGES);
out:
  sl_test_daemon_stop (env, SIGTERM);
  teardown (&s);
}

/* One broker down and back while messages are in flight, one writer and
 * a reliable disk buffer: nothing lost, and each partition holds its
 * messages in the order they were sent. */
static void
test_broker_restart_order (SlTestEnv *env, gconstpointer data)
{
  Setup s = { 0 };
  g_autofree gchar *extra = g_strdup_printf ("disk-buffer(reliable(yes) disk-buf-size(10M) dir(\"%s\"))", env->dir);
  g_autofree gchar *down = NULL, *up = NULL;
  if (!setup (env, &s, extra))
    goto out;
  GPid gen = send_numbered (&s, MESSAGES, 4000);
  if (!gen)
    goto out;
  kafka_mock_wait_count (s.mock, "logs", MESSAGES / 4);
  down = kafka_mock_command (s.mock, "down 2");
  g_assert_cmpstr (down, ==, "ok");
  g_usleep (2 * G_USEC_PER_SEC);
  up = kafka_mock_command (s.mock, "up 2");
  g_assert_cmpstr (up, ==, "ok");
  if (!sender_finished (gen))
    goto out;
  assert_all_delivered (env, &s, "logs", MESSAGES);
  g_assert_cmpint (kafka_out_of_order (s.mock, "logs"), ==, 0);
out:
  sl_test_daemon_stop (env, SIGTERM);
  teardown (&s);
}

/* Every broker down: the disk buffer takes what cannot be delivered; a
 * restart finds it there and delivers it once the brokers are back. */
static void
test_disk_buffer_across_restart (SlTestEnv *env, gconstpointer data)
{
  Setup s = { 0 };
  g_autofree gchar *extra = g_strdup_printf ("disk-buffer(reliable(yes) disk-buf-size(10M) dir(\"%s\"))", env->dir);
  const guint count = 2000;
  g_autofree gchar *down = NULL, *up = NULL;
  if (!setup (env, &s, extra))
    goto out;
  down = kafka_mock_command (s.mock, "down -1");
  g_assert_cmpstr (down, ==, "ok");
  GPid gen = send_numbered (&s, count, 0);
  if (!gen || !sender_finished (gen))
    goto out;
  g_assert_true (sl_test_wait_stat (env, "source", "s_net", "received", count));
  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
  up = kafka_mock_command (s.mock, "up -1");
  g_assert_cmpstr (up, ==, "ok");
  if (!sl_test_daemon_start (env))
    goto out;
  assert_all_delivered (env, &s, "logs", count);
out:
  sl_test_daemon_stop (env, SIGTERM);
  teardown (&s);
}

static const gchar fallback_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_kafka { kafka(bootstrap-servers(\"@BOOTSTRAP@\") topic(\"logs-$PROGRAM\")\n"
  "  fallback-topic(\"unrouted\") key(\"$HOST\") message(\"$MSG\")); };\n"
  "log { source(s_net); destination(d_kafka); flags(flow-control); };\n";

static void
test_fallback_topic (SlTestEnv *env, gconstpointer data)
{
  const gchar *topics[] = { "logs-app:2", "unrouted:2", NULL };
  KafkaMock *mock = kafka_mock_start (topics);
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_text = g_strdup_printf ("%u", port);
  g_autofree gchar *path = NULL, *text = NULL;
  if (!mock || !port
      || !sl_test_write_config (env, fallback_config, "PORT", port_text, "BOOTSTRAP", kafka_mock_bootstrap (mock),
                                NULL)
      || !sl_test_daemon_start (env))
    goto out;
  g_assert_true (sl_test_tcp_send (port, "<13>Jan  1 00:00:00 h1 app: seq=1:1 routed\n"
                                         "<13>Jan  1 00:00:00 h1 a%p: seq=1:2 not a topic name\n"
                                         "<13>Jan  1 00:00:00 h2 app: seq=1:3 routed\n"));
  g_assert_cmpint (kafka_mock_wait_count (mock, "logs-app", 2), ==, 2);
  g_assert_cmpint (kafka_mock_wait_count (mock, "unrouted", 1), ==, 1);
  g_assert_true (sl_test_wait_stat (env, "destination", "d_kafka", "fallback_topic", 1));
  path = sl_test_path (env, "unrouted.log");
  g_assert_true (kafka_consume (mock, "unrouted", path));
  text = sl_test_read_file (path);
  g_assert_cmpstr (text, ==, "seq=1:2 not a topic name\n");
out:
  sl_test_daemon_stop (env, SIGTERM);
  kafka_mock_stop (mock);
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/kafka/acks-all", test_acks_all);
  SL_TEST_ADD ("/kafka/broker-down", test_broker_down);
  SL_TEST_ADD ("/kafka/broker-restart-order", test_broker_restart_order);
  SL_TEST_ADD ("/kafka/disk-buffer-across-restart", test_disk_buffer_across_restart);
  SL_TEST_ADD ("/kafka/fallback-topic", test_fallback_topic);
  return g_test_run ();
}
