/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stomp() against the STOMP listener of a RabbitMQ broker of the test's
 * own (Debian's rabbitmq-server and its rabbitmq_stomp plugin through
 * tests/peers/rabbitmq, started once for the program): the same
 * destinations, headers and bodies from syslog-ng 3.38's stomp module and
 * from sluiced on one configuration, nothing lost with ack(yes) under
 * flow control while the broker is killed with -9 and started again, and a
 * configuration refused with its position. RabbitMQ turns each SEND into
 * an AMQP message (a /topic/KEY into amq.topic with routing key KEY, the
 * frame's headers into the message's), read back with librabbitmq from
 * queues the test binds. */
#include "tests/functional/harness.h"
#include "tests/peers/rabbitmq-peer.h"

#include <string.h>
#include <sys/socket.h>

static RabbitPeer broker;

static const gchar side_by_side_config[] =
  "@version: 3.38\n"
  "options { keep-hostname(yes); use-dns(no); };\n"
  "source s { tcp(ip(\"127.0.0.1\") port(@PORT@) flags(syslog-protocol)); };\n"
  "destination d { stomp(host(\"127.0.0.1\") port(@STOMP@) username(\"guest\") password(\"guest\")\n"
  "                      destination(\"/topic/@NAME@-@TAG@\") body(\"${PROGRAM}[${PID}]: ${MSG}\")\n"
  "                      persistent(no) ack(yes)\n"
  "                      value-pairs(scope(\"nv-pairs\") key(\"HOST\" \"PROGRAM\") pair(\"fixed\" \"x-${PID}\")\n"
  "                                  exclude(\"SOURCE\"))); };\n"
  "destination d_default { stomp(port(@STOMP@) destination(\"/topic/@NAME@-@TAG@-default\")); };\n"
  "log { source(s); destination(d); destination(d_default); flags(flow-control); };\n";

/* The messages without what differs by design: the destination each
 * daemon sends to (its routing key) and the receipt ids, which syslog-ng
 * sends as 0 one frame at a time and sluiced numbers to pipeline them. */
static gchar *
comparable (gchar *text)
{
  GRegex *strip = g_regex_new ("^key=(sl|ng)-", G_REGEX_MULTILINE, 0, NULL);
  gchar *keys = g_regex_replace_literal (strip, text, -1, 0, "key=", 0, NULL);
  g_regex_unref (strip);
  GRegex *receipts = g_regex_new ("^  receipt=[0-9]+ ", G_REGEX_MULTILINE, 0, NULL);
  gchar *result = g_regex_replace_literal (receipts, keys, -1, 0, "  receipt=N ", 0, NULL);
  g_regex_unref (receipts);
  g_free (keys);
  g_free (text);
  return result;
}

/* The same messages through syslog-ng's stomp() and sluiced's: a body,
 * value-pairs() with a scope, keys, a pair and an exclude, ack(yes); and
 * one stomp() with the defaults (persistent, no body, ack(no), the default
 * value-pairs as headers). */
static void
test_same_as_syslog_ng (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *port = g_strdup_printf ("%u", broker.stomp_port);
  g_autofree gchar *tag = g_strdup_printf ("%d", (gint) getpid ());
  const gchar *names[] = { "sl", "ng" };
  for (guint i = 0; i < 2; i++)
    {
      g_autofree gchar *queue = g_strdup_printf ("%s-%s", names[i], tag);
      g_autofree gchar *default_queue = g_strdup_printf ("%s-default", queue);
      if (!rabbit_peer_bind_queue (&broker, queue, "amq.topic", NULL, queue)
          || !rabbit_peer_bind_queue (&broker, default_queue, "amq.topic", NULL, default_queue))
        return;
    }
  GString *conf = g_string_new (side_by_side_config);
  g_string_replace (conf, "@STOMP@", port, 0);
  g_string_replace (conf, "@TAG@", tag, 0);
  GString *text = g_string_new (NULL);
  const guint n = 30;
  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "<%u>1 2026-12-01T10:00:%02uZ host%u app%u %u ID%u [meta@1 a=\"%u\" b=\"two\"] "
                            "message %u with \"quotes\": and spaces\n", 8 + i % 8, i, i % 3, i % 4, 100 + i, i % 2, i, i);
  g_string_append (text, "<165>1 2026-12-01T10:01:00Z sdhost sdapp - - - without sdata\n");
  g_autofree gchar *sl_out = NULL, *ng_out = NULL;
  GPid ng = 0;
  gboolean ran = sl_test_side_by_side (env, conf->str, text->str, NULL, 0, &sl_out, &ng_out, &ng);
  g_string_free (conf, TRUE);
  g_string_free (text, TRUE);
  if (!ran)
    return;
  g_autofree gchar *sl_q = g_strdup_printf ("sl-%s", tag), *ng_q = g_strdup_printf ("ng-%s", tag);
  g_autofree gchar *sl_dq = g_strdup_printf ("sl-%s-default", tag), *ng_dq = g_strdup_printf ("ng-%s-default", tag);
  gboolean delivered = rabbit_peer_wait_count (&broker, sl_q, n + 1, SL_TEST_DEADLINE_MS)
                       && rabbit_peer_wait_count (&broker, ng_q, n + 1, SL_TEST_DEADLINE_MS)
                       && rabbit_peer_wait_count (&broker, sl_dq, n + 1, SL_TEST_DEADLINE_MS)
                       && rabbit_peer_wait_count (&broker, ng_dq, n + 1, SL_TEST_DEADLINE_MS);
  sl_test_syslog_ng_stop (env, ng);
  if (!delivered)
    return;
  g_autofree gchar *sl_text = rabbit_peer_compare_queues (&broker, sl_q, ng_q, n + 1, comparable);
  g_autofree gchar *sl_default = rabbit_peer_compare_queues (&broker, sl_dq, ng_dq, n + 1, comparable);
  if (!sl_text || !sl_default)
    return;
  g_assert_nonnull (strstr (sl_text, "body=app0[100]: message 0 with \"quotes\": and spaces\n"));
  g_assert_nonnull (strstr (sl_text, "  fixed=x-100 (S)\n"));
  g_assert_nonnull (strstr (sl_default, "-default type=- mode=2\n"));
  g_assert_nonnull (strstr (sl_default, "  .SDATA.meta@1.b=two (S)\n"));
}

/* SIGSTOP of the broker for 2 s, then kill -9, while 10,000 messages flow
 * with ack(yes) into a durable queue (/amq/queue/NAME: the queue the test
 * declared): each message is in the queue, at least once, once the broker
 * is back. */
static void
test_broker_killed (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *port = g_strdup_printf ("%u", broker.stomp_port);
  g_autofree gchar *queue = g_strdup_printf ("stomp-flow-%d", (gint) getpid ());
  if (!rabbit_peer_bind_queue (&broker, queue, "amq.direct", NULL, queue))
    return;
  guint16 tcp = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *tcp_text = g_strdup_printf ("%u", tcp);
  g_assert_true (sl_test_write_config (env,
                                       "@version: 4.0\n"
                                       "source s { tcp(ip(\"127.0.0.1\") port(@TCP@) log-iw-size(1000)); };\n"
                                       "destination d { stomp(port(@STOMP@) destination(\"/amq/queue/@QUEUE@\") ack(yes)\n"
                                       "                      body(\"${MSG}\") value-pairs(key(\"PROGRAM\"))\n"
                                       "                      time-reopen(1) log-fifo-size(1000)); };\n"
                                       "log { source(s); destination(d); flags(flow-control); };\n",
                                       "TCP", tcp_text, "STOMP", port, "QUEUE", queue, NULL));
  if (sl_test_daemon_start (env) && sl_test_wait_tcp (env, tcp))
    rabbit_peer_test_outage (&broker, env, tcp, queue, 10000);
}

static void
expect_refused (SlTestEnv *env, const gchar *destination, const gchar *needle)
{
  g_autofree gchar *text = g_strdup_printf ("@version: 4.0\n"
                                            "source s { tcp(ip(\"127.0.0.1\") port(1)); };\n"
                                            "destination d {\n"
                                            "  %s };\n"
                                            "log { source(s); destination(d); };\n", destination);
  g_autofree gchar *err = sl_test_refused_config (env, text, NULL);
  g_assert_nonnull (err);
  g_autofree gchar *where = g_strdup_printf ("%s:%s", env->config, needle);
  if (!strstr (err, where))
    g_test_message ("%s", err);
  g_assert_nonnull (strstr (err, where));
}

static void
test_refused (SlTestEnv *env, gconstpointer data)
{
  expect_refused (env, "stomp(destination(\"\"));", "4:9: stomp() needs a destination()");
  expect_refused (env, "stomp(ack(maybe));", "4:13: ");
  expect_refused (env, "stomp(value-pairs(scope(\"nv-pairs\") shout(\"x\")));",
                  "4:39: stomp() value-pairs() has no shout()");
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  g_setenv ("TZ", "UTC", TRUE);
  if (!g_file_test ("/usr/lib/rabbitmq/bin/rabbitmq-server", G_FILE_TEST_IS_EXECUTABLE))
    {
      g_print ("1..0 # SKIP rabbitmq-server is not installed (quickstart installs it)\n");
      return 0;
    }
  SL_TEST_ADD ("/stomp/refused", test_refused);
  SL_TEST_ADD ("/stomp/same-as-syslog-ng", test_same_as_syslog_ng);
  SL_TEST_ADD ("/stomp/broker-stopped-and-killed", test_broker_killed);
  if (!rabbit_peer_start (&broker, 12 * SL_TEST_DEADLINE_MS))
    {
      rabbit_peer_stop (&broker);
      return 1;
    }
  gint status = g_test_run ();
  if (!rabbit_peer_stop (&broker))
    status = 1;
  return status;
}
