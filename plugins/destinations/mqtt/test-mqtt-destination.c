/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mqtt() against a mosquitto of the test's own (Debian's, started once for
 * the program on free loopback ports, its configuration, password file and
 * certificates in a temporary folder, no persistence): one listener for
 * anyone, one that wants a password, one over TLS. What arrives is read
 * by a Paho subscriber in the test. syslog-ng 3.38 as Debian builds it has
 * no mqtt module, so there is no side-by-side comparison here. */
#include "tests/functional/harness.h"

#include <MQTTClient.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>

static gchar *broker_program;
static gchar *broker_dir;
static gchar *broker_conf;
static gchar *passwd_path;
static gchar *ca_path;
static guint16 anon_port, auth_port, tls_port;
static gboolean have_tls;
static GPid broker_pid;

/* What the subscribers received, "topic payload", shared by the
 * subscribers that follow each other across a broker's restart. */
typedef struct
{
  GMutex lock;
  GPtrArray *got;
} Received;

typedef struct
{
  MQTTClient client;
  Received *received;
} Subscriber;

static gint
on_message (void *context, char *topic, int topic_len, MQTTClient_message *message)
{
  Received *r = ((Subscriber *) context)->received;
  g_mutex_lock (&r->lock);
  g_ptr_array_add (r->got, g_strdup_printf ("%s %.*s", topic, message->payloadlen, (const gchar *) message->payload));
  g_mutex_unlock (&r->lock);
  MQTTClient_freeMessage (&message);
  MQTTClient_free (topic);
  return 1;
}

static void
on_lost (void *context, char *cause)
{
}

static Received *
received_new (void)
{
  Received *r = g_new0 (Received, 1);
  g_mutex_init (&r->lock);
  r->got = g_ptr_array_new_with_free_func (g_free);
  return r;
}

static void
received_free (Received *r)
{
  g_ptr_array_free (r->got, TRUE);
  g_mutex_clear (&r->lock);
  g_free (r);
}

static guint
received_count (Received *r)
{
  g_mutex_lock (&r->lock);
  guint n = r->got->len;
  g_mutex_unlock (&r->lock);
  return n;
}

/* All received, one a line. */
static gchar *
received_text (Received *r)
{
  GString *text = g_string_new (NULL);
  g_mutex_lock (&r->lock);
  for (guint i = 0; i < r->got->len; i++)
    g_string_append_printf (text, "%s\n", (const gchar *) g_ptr_array_index (r->got, i));
  g_mutex_unlock (&r->lock);
  return g_string_free (text, FALSE);
}

static gboolean
received_wait (Received *r, guint n, guint deadline_ms)
{
  for (guint i = 0; i < deadline_ms / 50; i++)
    {
      if (received_count (r) >= n)
        return TRUE;
      g_usleep (50 * 1000);
    }
  g_test_fail_printf ("%u messages arrived, not %u", received_count (r), n);
  return FALSE;
}

/* A subscriber to filter on the anonymous listener, once the broker
 * confirmed the subscription (SUBACK); it also tells that the broker is up. */
static Subscriber *
subscriber_start (const gchar *filter, Received *received)
{
  Subscriber *s = g_new0 (Subscriber, 1);
  s->received = received;
  g_autofree gchar *uri = g_strdup_printf ("tcp://127.0.0.1:%u", anon_port);
  g_autofree gchar *id = g_strdup_printf ("test-%u-%s", (guint) getpid (), filter);
  if (MQTTClient_create (&s->client, uri, id, MQTTCLIENT_PERSISTENCE_NONE, NULL) != MQTTCLIENT_SUCCESS
      || MQTTClient_setCallbacks (s->client, s, on_lost, on_message, NULL) != MQTTCLIENT_SUCCESS)
    {
      g_free (s);
      return NULL;
    }
  MQTTClient_connectOptions options = MQTTClient_connectOptions_initializer;
  options.cleansession = 1;
  for (guint i = 0; i < SL_TEST_DEADLINE_MS / 50; i++)
    {
      if (MQTTClient_connect (s->client, &options) == MQTTCLIENT_SUCCESS)
        {
          /* qos 0: the subscriber sends nothing back, so a broker killed
           * at once cannot reset what it already wrote to it */
          if (MQTTClient_subscribe (s->client, filter, 0) == MQTTCLIENT_SUCCESS)
            return s;
          break;
        }
      g_usleep (50 * 1000);
    }
  MQTTClient_destroy (&s->client);
  g_free (s);
  return NULL;
}

static void
subscriber_stop (Subscriber *s)
{
  if (!s)
    return;
  if (MQTTClient_isConnected (s->client))
    MQTTClient_disconnect (s->client, 1000);
  MQTTClient_destroy (&s->client);
  g_free (s);
}

static gboolean
broker_start (void)
{
  g_autofree gchar *err = g_build_filename (broker_dir, "mosquitto.stderr", NULL);
  const gchar *argv[] = { broker_program, "-c", broker_conf, NULL };
  broker_pid = sl_test_spawn_argv (argv, err);
  return broker_pid != 0;
}

static gboolean
run (const gchar *first, ...)
{
  GPtrArray *argv = g_ptr_array_new ();
  va_list args;
  va_start (args, first);
  for (const gchar *a = first; a; a = va_arg (args, const gchar *))
    g_ptr_array_add (argv, (gpointer) a);
  va_end (args);
  g_ptr_array_add (argv, NULL);
  g_autofree gchar *err = NULL;
  gint status = sl_test_run_argv ((const gchar *const *) argv->pdata, NULL, &err);
  if (status != 0)
    g_printerr ("%s failed: %s\n", first, err ? err : "");
  g_ptr_array_free (argv, TRUE);
  return status == 0;
}

/* The password file: sluice/secret when with_sluice, and always
 * other/other, so that the file is never empty. */
static gboolean
write_passwords (gboolean with_sluice)
{
  return run ("mosquitto_passwd", "-c", "-b", passwd_path, "other", "other", NULL)
         && (!with_sluice || run ("mosquitto_passwd", "-b", passwd_path, "sluice", "secret", NULL));
}

/* A CA and a certificate for 127.0.0.1 it signed, for the TLS listener. */
static gboolean
make_certificates (void)
{
  g_autofree gchar *ca_key = g_build_filename (broker_dir, "ca.key", NULL);
  g_autofree gchar *key = g_build_filename (broker_dir, "server.key", NULL);
  g_autofree gchar *csr = g_build_filename (broker_dir, "server.csr", NULL);
  g_autofree gchar *cert = g_build_filename (broker_dir, "server.pem", NULL);
  g_autofree gchar *serial = g_build_filename (broker_dir, "ca.srl", NULL);
  g_autofree gchar *ext = g_build_filename (broker_dir, "san.ext", NULL);
  ca_path = g_build_filename (broker_dir, "ca.pem", NULL);
  return g_file_set_contents (ext, "subjectAltName=IP:127.0.0.1\n", -1, NULL)
         && run ("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", ca_key, "-out", ca_path,
                 "-days", "2", "-subj", "/CN=sluice test CA", NULL)
         && run ("openssl", "req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", csr, "-subj",
                 "/CN=127.0.0.1", NULL)
         && run ("openssl", "x509", "-req", "-in", csr, "-CA", ca_path, "-CAkey", ca_key, "-CAserial", serial,
                 "-CAcreateserial", "-out", cert, "-days", "2", "-extfile", ext, NULL);
}

static gboolean
write_broker_config (void)
{
  GString *conf = g_string_new ("per_listener_settings true\npersistence false\nlog_dest stderr\n");
  /* run as root, mosquitto would become the user mosquitto, who cannot
   * read the test's folder */
  g_string_append_printf (conf, "user %s\n", g_get_user_name ());
  g_string_append_printf (conf, "listener %u 127.0.0.1\nallow_anonymous true\n", anon_port);
  g_string_append_printf (conf, "listener %u 127.0.0.1\nallow_anonymous false\npassword_file %s\n", auth_port,
                          passwd_path);
  if (have_tls)
    g_string_append_printf (conf, "listener %u 127.0.0.1\nallow_anonymous true\ncafile %s\n"
                            "certfile %s/server.pem\nkeyfile %s/server.key\n",
                            tls_port, ca_path, broker_dir, broker_dir);
  broker_conf = g_build_filename (broker_dir, "mosquitto.conf", NULL);
  gboolean ok = g_file_set_contents (broker_conf, conf->str, -1, NULL);
  g_string_free (conf, TRUE);
  return ok;
}

/* Writes the configuration with @TCP@, @ANON@, @AUTH@, @TLS@ and @CA@ in
 * it, and starts sluiced; the TCP port its source listens on, or 0. */
static guint16
start_daemon (SlTestEnv *env, const gchar *config)
{
  guint16 tcp = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *tcp_text = g_strdup_printf ("%u", tcp);
  g_autofree gchar *anon = g_strdup_printf ("%u", anon_port);
  g_autofree gchar *auth = g_strdup_printf ("%u", auth_port);
  g_autofree gchar *tls = g_strdup_printf ("%u", tls_port);
  if (!sl_test_write_config (env, config, "TCP", tcp_text, "ANON", anon, "AUTH", auth, "TLS", tls, "CA",
                             ca_path ? ca_path : "", NULL)
      || !sl_test_daemon_start (env) || !sl_test_wait_tcp (env, tcp))
    return 0;
  return tcp;
}

/* Subscribes to filter, starts sluiced on config, sends lines to its
 * source and waits for n messages: all that arrived, one a line ("topic
 * payload"), or NULL (and the test failed). */
static gchar *
deliver (SlTestEnv *env, const gchar *filter, const gchar *config, const gchar *lines, guint n)
{
  Received *r = received_new ();
  Subscriber *s = subscriber_start (filter, r);
  g_assert_nonnull (s);
  guint16 tcp = start_daemon (env, config);
  gchar *text = NULL;
  if (tcp && sl_test_tcp_send (tcp, lines) && received_wait (r, n, SL_TEST_DEADLINE_MS))
    text = received_text (r);
  subscriber_stop (s);
  received_free (r);
  return text;
}

/* The payloads arrive on the topic, in order, as template() renders them;
 * without template(), as syslog-ng's default "$ISODATE $HOST $MSGHDR$MSG". */
static void
test_delivered (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *text =
    deliver (env, "plain/#",
             "@version: 3.38\n"
             "options { keep-hostname(yes); };\n"
             "source s { tcp(ip(\"127.0.0.1\") port(@TCP@)); };\n"
             "destination d { mqtt(address(\"tcp://127.0.0.1:@ANON@\") topic(\"plain/one\")\n"
             "                     template(\"${HOST} ${PROGRAM}: ${MSG}\") qos(1)); };\n"
             "destination d_default { mqtt(address(\"tcp://127.0.0.1:@ANON@\") topic(\"plain/default\") qos(2)); };\n"
             "log { source(s); destination(d); destination(d_default); flags(flow-control); };\n",
             "<13>Dec  1 10:00:00 host0 app[7]: first \"quoted\"\n"
             "<13>Dec  1 10:00:01 host1 app: second\n"
             "<13>Dec  1 10:00:02 host2 other: third, the last\n", 6);
  if (!text)
    return;
  g_assert_true (sl_test_wait_stat (env, "destination", "d", "written", 3));
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  GString *one = g_string_new (NULL);
  guint defaults = 0;
  for (guint i = 0; lines[i] && *lines[i]; i++)
    if (g_str_has_prefix (lines[i], "plain/one "))
      g_string_append_printf (one, "%s\n", lines[i]);
    else if (g_str_has_prefix (lines[i], "plain/default ") && g_str_has_suffix (lines[i], " host0 app[7]: first \"quoted\""))
      defaults++;
  g_assert_cmpstr (one->str, ==,
                   "plain/one host0 app: first \"quoted\"\n"
                   "plain/one host1 app: second\n"
                   "plain/one host2 other: third, the last\n");
  g_assert_cmpuint (defaults, ==, 1);
  g_string_free (one, TRUE);
}

/* keepalive(1) and 8 s without a message: the PINGREQs keep the
 * connection (the broker closes one silent for 1.5 keepalives, mosquitto
 * 2.0 within 5 s), so the
 * message after the pause is published on it, at qos(0) done as soon as
 * it is written, with no failed write before. */
static void
test_keepalive (SlTestEnv *env, gconstpointer data)
{
  Received *r = received_new ();
  Subscriber *s = subscriber_start ("idle/#", r);
  g_assert_nonnull (s);
  guint16 tcp = start_daemon (env,
                              "@version: 3.38\n"
                              "source s { tcp(ip(\"127.0.0.1\") port(@TCP@)); };\n"
                              "destination d { mqtt(address(\"tcp://127.0.0.1:@ANON@\") topic(\"idle/logs\") template(\"${MSG}\")\n"
                              "                     qos(0) keepalive(1)); };\n"
                              "log { source(s); destination(d); };\n");
  g_assert_cmpuint (tcp, !=, 0);
  g_assert_true (sl_test_tcp_send (tcp, "<13>Dec  1 10:00:00 h app: before\n"));
  g_assert_true (received_wait (r, 1, SL_TEST_DEADLINE_MS));
  g_usleep (8 * G_USEC_PER_SEC);
  g_assert_true (sl_test_tcp_send (tcp, "<13>Dec  1 10:00:08 h app: after\n"));
  g_assert_true (received_wait (r, 2, 5000));
  g_autofree gchar *text = received_text (r);
  g_assert_cmpstr (text, ==, "idle/logs before\nidle/logs after\n");
  g_autofree gchar *log = sl_test_daemon_stderr (env);
  g_assert_null (strstr (log, "cannot write now"));
  subscriber_stop (s);
  received_free (r);
}

/* topic() as a template: one topic per host; a host name with a wildcard
 * in it cannot be a topic, so that message goes to fallback-topic(). */
static void
test_topic_template (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *text =
    deliver (env, "hosts/#",
             "@version: 3.38\n"
             "options { keep-hostname(yes); };\n"
             "source s { tcp(ip(\"127.0.0.1\") port(@TCP@)); };\n"
             "destination d { mqtt(address(\"tcp://127.0.0.1:@ANON@\") topic(\"hosts/${HOST}/logs\")\n"
             "                     fallback-topic(\"hosts/unknown\") template(\"${MSG}\") qos(1)); };\n"
             "log { source(s); destination(d); flags(flow-control); };\n",
             "<13>Dec  1 10:00:00 web1 app: a\n"
             "<13>Dec  1 10:00:00 db2 app: b\n"
             "<13>Dec  1 10:00:00 web1 app: c\n"
             "<13>Dec  1 10:00:00 bad+host app: d\n", 4);
  if (!text)
    return;
  g_assert_cmpstr (text, ==, "hosts/web1/logs a\nhosts/db2/logs b\nhosts/web1/logs c\nhosts/unknown d\n");
  g_assert_true (sl_test_wait_stat (env, "destination", "d", "fallback_topics", 1));
  g_assert_true (sl_test_wait_stderr (env, "topic() rendered 'hosts/bad+host/logs'"));
}

/* A wrong password is refused by the broker: counted, logged, retried
 * after time-reopen(); the right one delivers. */
static void
test_login (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *text =
    deliver (env, "login/#",
             "@version: 3.38\n"
             "source s { tcp(ip(\"127.0.0.1\") port(@TCP@)); };\n"
             "destination d_ok { mqtt(address(\"tcp://127.0.0.1:@AUTH@\") topic(\"login/ok\") template(\"${MSG}\")\n"
             "                        username(\"sluice\") password(\"secret\") qos(1)); };\n"
             "destination d_bad { mqtt(address(\"tcp://127.0.0.1:@AUTH@\") topic(\"login/bad\") template(\"${MSG}\")\n"
             "                         username(\"sluice\") password(\"wrong\") qos(1) time-reopen(1)); };\n"
             "log { source(s); destination(d_ok); destination(d_bad); };\n",
             "<13>Dec  1 10:00:00 h app: welcome\n", 1);
  if (!text)
    return;
  g_assert_cmpstr (text, ==, "login/ok welcome\n");
  g_assert_true (sl_test_wait_stderr (env, "refused client 'syslog-ng-destination-login/bad'"));
  g_assert_true (sl_test_wait_stat_at_least (env, "destination", "d_bad", "refused_connections", 2));
  g_assert_cmpint (sl_test_stat (env, "destination", "d_bad", "written"), ==, 0);
  g_assert_cmpint (sl_test_stat (env, "destination", "d_ok", "refused_connections"), ==, 0);
}

/* ssl:// to the TLS listener, its certificate checked against the test's CA. */
static void
test_tls (SlTestEnv *env, gconstpointer data)
{
  if (!have_tls)
    {
      g_test_skip ("openssl could not make the test certificates");
      return;
    }
  g_autofree gchar *text =
    deliver (env, "tls/#",
             "@version: 3.38\n"
             "source s { tcp(ip(\"127.0.0.1\") port(@TCP@)); };\n"
             "destination d { mqtt(address(\"ssl://127.0.0.1:@TLS@\") topic(\"tls/logs\") template(\"${MSG}\")\n"
             "                     qos(1) tls(ca-file(\"@CA@\") peer-verify(yes))); };\n"
             "log { source(s); destination(d); flags(flow-control); };\n",
             "<13>Dec  1 10:00:00 h app: secret message\n", 1);
  if (text)
    g_assert_cmpstr (text, ==, "tls/logs secret message\n");
}

/* Which numbers below n arrived in the payloads, how many of them,
 * and how many payloads arrived in all. */
static gboolean *
numbers_seen (Received *r, guint n, guint *distinct, guint *all)
{
  gboolean *seen = g_new0 (gboolean, n);
  *distinct = 0;
  g_mutex_lock (&r->lock);
  *all = r->got->len;
  for (guint i = 0; i < r->got->len; i++)
    {
      const gchar *line = g_ptr_array_index (r->got, i);
      const gchar *space = strchr (line, ' ');
      guint64 v = space ? g_ascii_strtoull (space + 1, NULL, 10) : n;
      if (v < n && !seen[v])
        {
          seen[v] = TRUE;
          (*distinct)++;
        }
    }
  g_mutex_unlock (&r->lock);
  return seen;
}

/* Whether every number from acked on was seen: sluiced publishes in
 * order, so the broker's acknowledgements cover the numbers below acked. */
static gboolean
unacknowledged_all_seen (const gboolean *seen, guint n, guint acked)
{
  for (guint v = acked; v < n; v++)
    if (!seen[v])
      return FALSE;
  return TRUE;
}

/* kill -9 of the broker while 20,000 messages flow at qos(1) under flow
 * control: every message the broker had not acknowledged arrives after
 * it is back, duplicates counted. So that nothing is published before
 * the test's subscriber is back, the restarted broker refuses sluiced's
 * login (it is counted) until the subscriber is in and the password
 * file is reloaded. mosquitto sends PUBACK once it holds a message,
 * before its subscriber has it, and the kill loses what it holds: the
 * broker is stopped first, and once sluiced's written counter and the
 * subscriber's count stand still, their difference is what the broker
 * acknowledged and can lose. throttle() keeps that small. */
static void
test_broker_killed (SlTestEnv *env, gconstpointer data)
{
  Received *r = received_new ();
  Subscriber *s = subscriber_start ("flow/#", r);
  g_assert_nonnull (s);
  guint16 tcp = start_daemon (env,
                              "@version: 3.38\n"
                              "source s { tcp(ip(\"127.0.0.1\") port(@TCP@) log-iw-size(1000)); };\n"
                              "destination d { mqtt(address(\"tcp://127.0.0.1:@AUTH@\") topic(\"flow/logs\") template(\"${MSG}\")\n"
                              "                     username(\"sluice\") password(\"secret\") qos(1)\n"
                              "                     time-reopen(1) log-fifo-size(1000) throttle(5000)); };\n"
                              "log { source(s); destination(d); flags(flow-control); };\n");
  const guint n = 20000;
  if (!tcp)
    goto out;
  GString *text = g_string_new (NULL);
  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "<13>Dec  1 10:00:00 h app: %u\n", i);
  SlTestSender *sender = sl_test_sender_start (sl_test_tcp_connect (tcp), text);
  if (!received_wait (r, n / 10, SL_TEST_DEADLINE_MS))
    {
      sl_test_sender_finish (sender);
      goto out;
    }
  kill (broker_pid, SIGSTOP);
  gint64 acked = -1;
  guint before = G_MAXUINT;
  for (guint i = 0; i < SL_TEST_DEADLINE_MS / 200; i++)
    {
      gint64 now_acked = sl_test_stat (env, "destination", "d", "written");
      guint now_before = received_count (r);
      if (now_acked == acked && now_before == before)
        break;
      acked = now_acked;
      before = now_before;
      g_usleep (200 * 1000);
    }
  kill (broker_pid, SIGKILL);
  sl_test_child_wait (broker_pid, SL_TEST_DEADLINE_MS * 1000);
  g_assert_cmpint (acked, >=, 0);
  subscriber_stop (s);
  s = NULL;
  g_assert_true (write_passwords (FALSE));
  gint64 refused = sl_test_stat (env, "destination", "d", "refused_connections");
  g_assert_true (broker_start ());
  g_assert_true (sl_test_wait_stat_at_least (env, "destination", "d", "refused_connections", refused + 1));
  s = subscriber_start ("flow/#", r);
  g_assert_nonnull (s);
  g_assert_true (write_passwords (TRUE));
  kill (broker_pid, SIGHUP);
  sl_test_sender_join (sender);
  /* duplicates count in what arrived: wait for the numbers instead */
  guint all = 0, distinct = 0;
  /* the broker may pass a message on before it acknowledges it */
  guint lost_by_broker = (guint) acked > before ? (guint) acked - before : 0;
  gboolean unacknowledged_arrived = FALSE;
  for (guint i = 0; i < SL_TEST_DEADLINE_MS * 6 / 50 && !(unacknowledged_arrived && distinct >= n - lost_by_broker); i++)
    {
      g_usleep (50 * 1000);
      g_autofree gboolean *seen = numbers_seen (r, n, &distinct, &all);
      unacknowledged_arrived = unacknowledged_all_seen (seen, n, (guint) acked);
    }
  g_test_message ("%u messages arrived for %u sent (%u before the kill, %" G_GINT64_FORMAT
                  " acknowledged by the broker), %u duplicates", all, n, before, acked, all - distinct);
  g_assert_true (unacknowledged_arrived);
  g_assert_cmpuint (distinct, >=, n - lost_by_broker);
out:
  subscriber_stop (s);
  received_free (r);
}

static void
expect_refused (SlTestEnv *env, const gchar *driver, const gchar *needle)
{
  g_autofree gchar *text = g_strdup_printf ("@version: 3.38\nsource s { stdin(); };\n"
                                            "destination d { %s };\nlog { source(s); destination(d); };\n", driver);
  g_autofree gchar *err = sl_test_refused_config (env, text, NULL);
  if (err && !strstr (err, needle))
    g_test_fail_printf ("expected '%s' in:\n%s", needle, err);
}

static void
test_config_errors (SlTestEnv *env, gconstpointer data)
{
  expect_refused (env, "mqtt(topic(\"t\") qos(3));", ":3:37: option 'qos' of mqtt() must be 0 to 2, got '3'");
  expect_refused (env, "mqtt(address(\"127.0.0.1:1883\") topic(\"t\"));",
                  ":3:22: address() takes tcp://, ssl://, ws:// or wss:// and the broker's host:port, not '127.0.0.1:1883'");
  expect_refused (env, "mqtt(topic(\"$HOST\"));", ":3:22: mqtt() needs fallback-topic() when topic() is a template");
  expect_refused (env, "mqtt(topic(\"a/#\"));", ":3:22: topic() must not be empty nor hold the wildcards + and #");
  expect_refused (env, "mqtt(address(\"tcp://127.0.0.1:1\"));", ":3:17: mqtt() needs option topic()");
  /* what Paho cannot do, refused where it is written */
  expect_refused (env, "mqtt(address(\"ssl://127.0.0.1:1\") topic(\"t\") tls(ssl-version(tlsv1_2)));",
                  ":3:66: mqtt() tls(): ssl-version() cannot be used here: Paho does not offer it");
  expect_refused (env, "mqtt(address(\"ssl://127.0.0.1:1\") topic(\"t\") tls(ca-file(\"/ca.pem\") use-system-cert-store(yes)));",
                  "mqtt() tls(): use-system-cert-store() cannot be used with ca-file() or ca-dir() here");
  expect_refused (env, "mqtt(address(\"tcp://127.0.0.1:1\") topic(\"t\") tls(ca-file(\"/ca.pem\")));",
                  "mqtt() uses tls() only with an ssl:// or wss:// address()");
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  g_setenv ("TZ", "UTC", TRUE);
  /* mosquitto is in /usr/sbin, which a user's PATH may lack */
  broker_program = g_find_program_in_path ("mosquitto");
  if (!broker_program && g_file_test ("/usr/sbin/mosquitto", G_FILE_TEST_IS_EXECUTABLE))
    broker_program = g_strdup ("/usr/sbin/mosquitto");
  g_autofree gchar *passwd_program = g_find_program_in_path ("mosquitto_passwd");
  g_autofree gchar *openssl = g_find_program_in_path ("openssl");
  if (!broker_program || !passwd_program)
    {
      g_print ("1..0 # SKIP mosquitto is not installed (quickstart installs it)\n");
      return 0;
    }
  broker_dir = sl_test_peer_dir ("mqtt");
  passwd_path = g_build_filename (broker_dir, "passwd", NULL);
  anon_port = sl_test_free_port (SOCK_STREAM);
  auth_port = sl_test_free_port (SOCK_STREAM);
  tls_port = sl_test_free_port (SOCK_STREAM);
  have_tls = openssl && make_certificates ();
  Received *probe = received_new ();
  Subscriber *ready = NULL;
  if (!write_passwords (TRUE) || !write_broker_config () || !broker_start ()
      || !(ready = subscriber_start ("probe", probe)))
    {
      g_printerr ("mosquitto did not start\n");
      return 1;
    }
  subscriber_stop (ready);
  received_free (probe);
  SL_TEST_ADD ("/mqtt/delivered", test_delivered);
  SL_TEST_ADD ("/mqtt/keepalive", test_keepalive);
  SL_TEST_ADD ("/mqtt/topic-template", test_topic_template);
  SL_TEST_ADD ("/mqtt/login", test_login);
  SL_TEST_ADD ("/mqtt/tls", test_tls);
  SL_TEST_ADD ("/mqtt/broker-killed", test_broker_killed);
  SL_TEST_ADD ("/mqtt/config-errors", test_config_errors);
  gint status = g_test_run ();
  if (!sl_test_peer_stop (broker_pid, broker_dir))
    status = 1;
  g_free (broker_dir);
  g_free (broker_program);
  return status;
}
