/* SPDX-License-Identifier: GPL-2.0-or-later */
/* amqp() against a RabbitMQ broker of the test's own (Debian's
 * rabbitmq-server through tests/peers/rabbitmq, started once for the
 * program): the same routing keys, properties, headers and bodies from
 * syslog-ng 3.38's amqp module and from sluiced on one configuration,
 * nothing lost under flow control while the broker is killed with -9 and
 * started again, and a configuration refused with its position. The
 * messages are read back with librabbitmq from queues the test binds. */
#include "tests/functional/harness.h"
#include "tests/peers/rabbitmq-peer.h"

#include <signal.h>
#include <string.h>
#include <sys/socket.h>

static RabbitPeer broker;

static const gchar side_by_side_config[] =
  "@version: 3.38\n"
  "options { keep-hostname(yes); use-dns(no); };\n"
  "source s { tcp(ip(\"127.0.0.1\") port(@PORT@) flags(syslog-protocol)); };\n"
  "destination d { amqp(host(\"127.0.0.1\") port(@AMQP@) username(\"guest\") password(\"guest\")\n"
  "                     exchange(\"@NAME@-@TAG@\") exchange-declare(yes) exchange-type(\"topic\")\n"
  "                     routing-key(\"${HOST}.${PROGRAM}\") body(\"${PROGRAM}[${PID}]: ${MSG}\")\n"
  "                     persistent(no)\n"
  "                     value-pairs(scope(\"nv-pairs\") key(\"HOST\" \"PROGRAM\") pair(\"fixed\" \"x-${PID}\")\n"
  "                                 exclude(\"SOURCE\"))); };\n"
  "destination d_default { amqp(port(@AMQP@) username(\"guest\") password(\"guest\")\n"
  "                             exchange(\"@NAME@-@TAG@-default\") exchange-declare(yes)); };\n"
  "log { source(s); destination(d); destination(d_default); flags(flow-control); };\n";

/* The same messages through syslog-ng's amqp() and sluiced's: a topic
 * exchange with templated routing keys, a body, value-pairs() with a
 * scope, keys, a pair and an exclude; and one amqp() with every default
 * (fanout, no body, the default value-pairs as headers). */
static void
test_same_as_syslog_ng (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *port = g_strdup_printf ("%u", broker.amqp_port);
  g_autofree gchar *tag = g_strdup_printf ("%d", (gint) getpid ());
  const gchar *names[] = { "sl", "ng" };
  for (guint i = 0; i < 2; i++)
    {
      g_autofree gchar *exchange = g_strdup_printf ("%s-%s", names[i], tag);
      g_autofree gchar *default_exchange = g_strdup_printf ("%s-%s-default", names[i], tag);
      g_autofree gchar *default_queue = g_strdup_printf ("%s-default", exchange);
      if (!rabbit_peer_bind_queue (&broker, exchange, exchange, "topic", "#") || !rabbit_peer_bind_queue (&broker, default_queue, default_exchange, "fanout", ""))
        return;
    }
  GString *conf = g_string_new (side_by_side_config);
  g_string_replace (conf, "@AMQP@", port, 0);
  g_string_replace (conf, "@TAG@", tag, 0);
  GString *text = g_string_new (NULL);
  const guint n = 30;
  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "<%u>1 2026-12-01T10:00:%02uZ host%u app%u %u ID%u [meta@1 a=\"%u\" b=\"two\"] "
                            "message %u with \"quotes\" and spaces\n", 8 + i % 8, i, i % 3, i % 4, 100 + i, i % 2, i, i);
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
  gboolean delivered = rabbit_peer_wait_count (&broker, sl_q, n + 1, SL_TEST_DEADLINE_MS) && rabbit_peer_wait_count (&broker, ng_q, n + 1, SL_TEST_DEADLINE_MS)
                       && rabbit_peer_wait_count (&broker, sl_dq, n + 1, SL_TEST_DEADLINE_MS)
                       && rabbit_peer_wait_count (&broker, ng_dq, n + 1, SL_TEST_DEADLINE_MS);
  sl_test_syslog_ng_stop (env, ng);
  if (!delivered)
    return;
  g_autofree gchar *sl_text = rabbit_peer_compare_queues (&broker, sl_q, ng_q, n + 1, NULL);
  g_autofree gchar *sl_default = rabbit_peer_compare_queues (&broker, sl_dq, ng_dq, n + 1, NULL);
  if (!sl_text || !sl_default)
    return;
  g_assert_true (g_str_has_prefix (sl_text, "key=host0.app0 type=text/plain mode=1\n"));
  g_assert_nonnull (strstr (sl_text, "body=app0[100]: message 0 with \"quotes\" and spaces\n"));
  g_assert_nonnull (strstr (sl_text, "  fixed=x-100 (S)\n"));
  g_assert_true (g_str_has_prefix (sl_default, "key= type=text/plain mode=2\n"));
  g_assert_nonnull (strstr (sl_default, "  .SDATA.meta@1.b=two (S)\n"));
}

/* SIGSTOP of the broker for 2 s, then kill -9, while 10,000 messages flow
 * into a durable queue through amq.direct (durable, so its binding
 * survives the restart): each message is in the queue, at least once, once
 * the broker is back. */
static void
test_broker_killed (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *port = g_strdup_printf ("%u", broker.amqp_port);
  g_autofree gchar *queue = g_strdup_printf ("flow-%d", (gint) getpid ());
  if (!rabbit_peer_bind_queue (&broker, queue, "amq.direct", NULL, queue))
    return;
  guint16 tcp = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *tcp_text = g_strdup_printf ("%u", tcp);
  g_assert_true (sl_test_write_config (env,
                                       "@version: 4.0\n"
                                       "source s { tcp(ip(\"127.0.0.1\") port(@TCP@) log-iw-size(1000)); };\n"
                                       "destination d { amqp(port(@AMQP@) username(\"guest\") password(\"guest\")\n"
                                       "                     exchange(\"amq.direct\") routing-key(\"@QUEUE@\")\n"
                                       "                     body(\"${MSG}\") value-pairs(key(\"PROGRAM\"))\n"
                                       "                     time-reopen(1) log-fifo-size(1000)); };\n"
                                       "log { source(s); destination(d); flags(flow-control); };\n",
                                       "TCP", tcp_text, "AMQP", port, "QUEUE", queue, NULL));
  if (sl_test_daemon_start (env) && sl_test_wait_tcp (env, tcp))
    rabbit_peer_test_outage (&broker, env, tcp, queue, 10000);
}

/* Over TLS to the broker's TLS listener, its certificate checked against
 * ca-file() and its name (localhost): written in tls() and, as syslog-ng
 * also takes it, in amqp() itself; a ca-file() that did not sign the
 * broker's certificate does not connect. */
static void
test_tls (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *port = g_strdup_printf ("%u", broker.tls_port);
  g_autofree gchar *queue = g_strdup_printf ("tls-%d", (gint) getpid ());
  if (!rabbit_peer_bind_queue (&broker, queue, "amq.direct", NULL, queue))
    return;
  /* a certificate the broker's was not signed with */
  g_autofree gchar *other_key = sl_test_path (env, "other-key.pem"), *other = sl_test_path (env, "other.pem");
  const gchar *openssl[] = { "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", other_key,
                             "-out", other, "-days", "2", "-subj", "/CN=localhost", NULL };
  g_assert_cmpint (sl_test_run_argv (openssl, NULL, NULL), ==, 0);
  guint16 tcp = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *tcp_text = g_strdup_printf ("%u", tcp);
  g_assert_true (sl_test_write_config (env,
                                       "@version: 4.0\n"
                                       "source s { tcp(ip(\"127.0.0.1\") port(@TCP@)); };\n"
                                       "destination d_wrong { amqp(host(\"localhost\") port(@TLS@) username(\"guest\")\n"
                                       "    password(\"guest\") exchange(\"amq.direct\") ca-file(\"@OTHER@\")); };\n"
                                       "destination d_block { amqp(host(\"localhost\") port(@TLS@) username(\"guest\")\n"
                                       "    password(\"guest\") exchange(\"amq.direct\") routing-key(\"@QUEUE@\")\n"
                                       "    body(\"block ${MSG}\") tls(ca-file(\"@CA@\") peer-verify(yes))); };\n"
                                       "destination d_flat { amqp(host(\"localhost\") port(@TLS@) username(\"guest\")\n"
                                       "    password(\"guest\") exchange(\"amq.direct\") routing-key(\"@QUEUE@\")\n"
                                       "    body(\"flat ${MSG}\") ca-file(\"@CA@\")); };\n"
                                       "log { source(s); destination(d_block); destination(d_flat); };\n"
                                       "log { source(s); destination(d_wrong); };\n",
                                       "TCP", tcp_text, "TLS", port, "QUEUE", queue, "CA", broker.tls_cert, "OTHER",
                                       other, NULL));
  if (!sl_test_daemon_start (env) || !sl_test_wait_tcp (env, tcp))
    return;
  g_assert_true (sl_test_tcp_send (tcp, "<13>Dec  1 10:00:00 h app: over-tls\n"));
  if (!rabbit_peer_wait_count (&broker, queue, 2, 3 * SL_TEST_DEADLINE_MS))
    return;
  GPtrArray *messages = rabbit_peer_consume (&broker, queue, 2);
  g_autofree gchar *text = messages ? rabbit_peer_joined (messages) : NULL;
  g_assert_nonnull (strstr (text, "body=block over-tls\n"));
  g_assert_nonnull (strstr (text, "body=flat over-tls\n"));
  g_ptr_array_unref (messages);
  /* the broker's certificate is not trusted: d_wrong does not connect */
  g_assert_true (sl_test_wait_stderr (env, "driver='d_wrong#0', reason='cannot connect to AMQP broker"));
  g_autofree gchar *err = sl_test_daemon_stderr (env);
  g_assert_nonnull (strstr (err, "verification failed"));
}

/* Binds a queue named name-PID to amq.direct and starts sluiced with a
 * tcp() source into an amqp() that routes to it, with options: the
 * source's port, or 0 */
static guint16
start_into_queue (SlTestEnv *env, const gchar *name, const gchar *options, gchar **queue)
{
  g_autofree gchar *port = g_strdup_printf ("%u", broker.amqp_port);
  *queue = g_strdup_printf ("%s-%d", name, (gint) getpid ());
  if (!rabbit_peer_bind_queue (&broker, *queue, "amq.direct", NULL, *queue))
    return 0;
  guint16 tcp = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *tcp_text = g_strdup_printf ("%u", tcp);
  g_assert_true (sl_test_write_config (env,
                                       "@version: 4.0\n"
                                       "source s { tcp(ip(\"127.0.0.1\") port(@TCP@)); };\n"
                                       "destination d { amqp(port(@AMQP@) username(\"guest\") password(\"guest\")\n"
                                       "    exchange(\"amq.direct\") routing-key(\"@QUEUE@\") @OPTIONS@); };\n"
                                       "log { source(s); destination(d); flags(flow-control); };\n",
                                       "TCP", tcp_text, "AMQP", port, "QUEUE", *queue, "OPTIONS", options, NULL));
  if (!sl_test_daemon_start (env) || !sl_test_wait_tcp (env, tcp))
    return 0;
  return tcp;
}

/* A message whose headers do not fit in frame-size() can never be
 * published: dropped and counted, as syslog-ng drops it, and the next
 * one goes. retries() is taken, as syslog-ng's threaded destinations take it. */
static void
test_too_big (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *queue = NULL;
  guint16 tcp = start_into_queue (env, "big", "body(\"${PROGRAM}\") frame-size(4096) retries(5)\n"
                                  "    value-pairs(pair(\"text\" \"${MSG}\"))", &queue);
  if (!tcp)
    return;
  GString *text = g_string_new ("<13>Dec  1 10:00:00 h big: ");
  for (guint i = 0; i < 6000; i++)
    g_string_append_c (text, 'x');
  g_string_append (text, "\n<13>Dec  1 10:00:00 h small: fits\n");
  g_assert_true (sl_test_tcp_send (tcp, text->str));
  g_string_free (text, TRUE);
  g_assert_true (sl_test_wait_stat (env, "destination", "d", "dropped", 1));
  if (!rabbit_peer_wait_count (&broker, queue, 1, SL_TEST_DEADLINE_MS))
    return;
  GPtrArray *messages = rabbit_peer_consume (&broker, queue, 1);
  g_assert_nonnull (messages);
  g_assert_nonnull (strstr (g_ptr_array_index (messages, 0), "body=small\n"));
  g_ptr_array_unref (messages);
}

/* A body longer than frame-size() goes in several body frames (amqp-frames.c
 * frames them itself over plain TCP), and arrives whole, with the message
 * after it (the headers small: the default value-pairs() carry $MSG). */
static void
test_body_across_frames (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *queue = NULL;
  guint16 tcp = start_into_queue (env, "frames", "body(\"${MSG}\") frame-size(4096) value-pairs(pair(\"k\" \"v\"))",
                                  &queue);
  if (!tcp)
    return;
  GString *long_body = g_string_new (NULL);
  for (guint i = 0; long_body->len < 10000; i++)
    g_string_append_printf (long_body, "%05u ", i);
  g_autofree gchar *lines = g_strdup_printf ("<13>Dec  1 10:00:00 h app: %s\n<13>Dec  1 10:00:00 h app: after\n",
                                             long_body->str);
  g_assert_true (sl_test_tcp_send (tcp, lines));
  if (!rabbit_peer_wait_count (&broker, queue, 2, SL_TEST_DEADLINE_MS))
    return;
  GPtrArray *messages = rabbit_peer_consume (&broker, queue, 2);
  g_assert_nonnull (messages);
  g_autofree gchar *expected = g_strdup_printf ("body=%s\n", long_body->str);
  g_assert_nonnull (strstr (g_ptr_array_index (messages, 0), expected));
  g_assert_nonnull (strstr (g_ptr_array_index (messages, 1), "body=after\n"));
  g_ptr_array_unref (messages);
  g_string_free (long_body, TRUE);
}

/* auth-method(plain), the default, needs a user and a password: refused
 * at sluiced -s with the driver's position. */
static void
test_refused (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *err = sl_test_refused_config (env,
                                                  "@version: 4.0\n"
                                                  "source s { tcp(ip(\"127.0.0.1\") port(1)); };\n"
                                                  "destination d {\n"
                                                  "  amqp(exchange(\"logs\") username(\"guest\")); };\n"
                                                  "log { source(s); destination(d); };\n", NULL);
  g_assert_nonnull (err);
  g_autofree gchar *where = g_strdup_printf ("%s:4:3: amqp() needs username() and password()", env->config);
  if (!strstr (err, where))
    g_test_message ("%s", err);
  g_assert_nonnull (strstr (err, where));

  g_free (err);
  err = sl_test_refused_config (env,
                                "@version: 4.0\n"
                                "source s { tcp(ip(\"127.0.0.1\") port(1)); };\n"
                                "destination d { amqp(username(\"u\") password(\"p\")\n"
                                "  value-pairs(scope(\"nv-pairs\") rekey(\"*\" shift-all(1)))); };\n"
                                "log { source(s); destination(d); };\n", NULL);
  g_assert_nonnull (err);
  g_free (where);
  where = g_strdup_printf ("%s:4:43: amqp() value-pairs(): rekey() has no shift-all()", env->config);
  if (!strstr (err, where))
    g_test_message ("%s", err);
  g_assert_nonnull (strstr (err, where));

  /* what librabbitmq cannot do, refused where it is written, inline too */
  g_free (err);
  err = sl_test_refused_config (env,
                                "@version: 4.0\n"
                                "source s { tcp(ip(\"127.0.0.1\") port(1)); };\n"
                                "destination d { amqp(username(\"u\") password(\"p\") ca-file(\"/ca.pem\")\n"
                                "  cipher-suite(\"HIGH\")); };\n"
                                "log { source(s); destination(d); };\n", NULL);
  g_assert_nonnull (err);
  g_free (where);
  where = g_strdup_printf ("%s:4:3: amqp() tls(): cipher-suite() cannot be used here: librabbitmq does not offer it",
                           env->config);
  if (!strstr (err, where))
    g_test_message ("%s", err);
  g_assert_nonnull (strstr (err, where));
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
  SL_TEST_ADD ("/amqp/refused", test_refused);
  SL_TEST_ADD ("/amqp/same-as-syslog-ng", test_same_as_syslog_ng);
  SL_TEST_ADD ("/amqp/tls", test_tls);
  SL_TEST_ADD ("/amqp/too-big", test_too_big);
  SL_TEST_ADD ("/amqp/body-across-frames", test_body_across_frames);
  SL_TEST_ADD ("/amqp/broker-stopped-and-killed", test_broker_killed);
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
