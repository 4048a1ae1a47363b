/* SPDX-License-Identifier: GPL-2.0-or-later */
/* opentelemetry() destination end to end: the real sluiced sends to
 * otel-receive.js, a receiver on the official .proto files through
 * @grpc/grpc-js and protobufjs under node, started once for the program
 * (and once more after the test that kills it), which writes every record
 * it took to a file before answering. Syslog messages are mapped, OTLP
 * records go on intact, and a receiver killed mid-run loses nothing under
 * flow control. */
#include "tests/functional/harness.h"
#include "plugins/protocols/opentelemetry/otel-test-node.h"

#include <glib/gstdio.h>
#include <jansson.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>

typedef struct
{
  gchar *dir;
  gchar *out;                /* the records it took, one JSON object a line */
  guint16 grpc, http;
  GPid pid;
} Receiver;

static Receiver receiver;

/* Each answer waits this long, so that the test that kills the receiver
 * does so while requests are on their way. */
#define RECEIVER_DELAY_MS "20"


static gboolean
receiver_start (void)
{
  g_autofree gchar *script = otel_test_source_path ("plugins/protocols/opentelemetry/otel-receive.js");
  g_autofree gchar *protos = otel_test_source_path ("third_party/opentelemetry-proto");
  g_autofree gchar *grpc = g_strdup_printf ("%u", receiver.grpc), *http = g_strdup_printf ("%u", receiver.http);
  g_autofree gchar *err = g_build_filename (receiver.dir, "receiver.stderr", NULL);
  g_autofree gchar *ready = g_build_filename (receiver.dir, "receiver.stdout", NULL);
  const gchar *cmd = "exec node \"$0\" \"$1\" \"$2\" \"$3\" \"$4\" \"$5\" > \"$6\"";
  const gchar *argv[] = { "sh", "-c", cmd, script, protos, grpc, http, receiver.out, RECEIVER_DELAY_MS, ready, NULL };
  g_unlink (ready);
  receiver.pid = sl_test_spawn_argv (argv, err);
  if (!receiver.pid)
    return FALSE;
  gint64 deadline = g_get_monotonic_time () + 3 * SL_TEST_DEADLINE_MS * 1000;
  while (g_get_monotonic_time () < deadline)
    {
      g_autofree gchar *text = sl_test_read_file (ready);
      if (text && strstr (text, "ready"))
        return TRUE;
      gint status;
      if (sl_test_child_exited (receiver.pid, &status))
        break;
      g_usleep (20000);
    }
  g_autofree gchar *why = sl_test_read_file (err);
  g_test_fail_printf ("the receiver did not come up: %s", why ? why : "");
  return FALSE;
}

static void
receiver_kill (void)
{
  if (!receiver.pid)
    return;
  kill (receiver.pid, SIGKILL);
  waitpid (receiver.pid, NULL, 0);
  g_spawn_close_pid (receiver.pid);
  receiver.pid = 0;
}

/* The records the receiver took whose body starts with prefix */
static json_t *
received (const gchar *prefix)
{
  json_t *all = json_array ();
  g_auto (GStrv) lines = sl_test_read_lines (receiver.out);
  for (guint i = 0; lines && lines[i]; i++)
    {
      json_t *j = json_loads (lines[i], 0, NULL);
      if (!j)
        continue;
      json_t *body = json_object_get (j, "body");
      const gchar *text = json_is_string (body) ? json_string_value (body) : NULL;
      if (!text && json_is_object (body))
        text = json_string_value (json_object_get (body, "case"));
      if (text && g_str_has_prefix (text, prefix))
        json_array_append (all, j);
      json_decref (j);
    }
  return all;
}

/* How many records starting with prefix arrived; with distinct, a body
 * sent again counts once. */
static gsize
count_received (const gchar *prefix, gboolean distinct)
{
  json_t *all = received (prefix);
  gsize have = json_array_size (all);
  if (distinct)
    {
      g_autoptr (GHashTable) bodies = g_hash_table_new (g_str_hash, g_str_equal);
      gsize i;
      json_t *j;
      json_array_foreach (all, i, j)
        {
          json_t *body = json_object_get (j, "body");
          if (json_is_string (body))
            g_hash_table_add (bodies, (gpointer) json_string_value (body));
        }
      have = g_hash_table_size (bodies);
    }
  json_decref (all);
  return have;
}

static gboolean
wait_counted (const gchar *prefix, gsize n, gboolean distinct)
{
  gint64 deadline = g_get_monotonic_time () + 3 * SL_TEST_DEADLINE_MS * 1000;
  while (g_get_monotonic_time () < deadline)
    {
      if (count_received (prefix, distinct) >= n)
        return TRUE;
      g_usleep (50000);
    }
  g_test_fail_printf ("the receiver did not get %zu %srecords starting '%s'", n, distinct ? "distinct " : "",
                      prefix);
  return FALSE;
}

static gboolean
wait_received (const gchar *prefix, gsize n)
{
  return wait_counted (prefix, n, FALSE);
}

/* request, OTLP/HTTP JSON, to the opentelemetry() source on port in:
 * curl's exit status, 0 once it was answered with success */
static gint
post_json (guint16 in, const gchar *request)
{
  g_autofree gchar *url = g_strdup_printf ("http://127.0.0.1:%u/v1/logs", in);
  const gchar *curl[] = { "curl", "-sS", "-f", "-o", "/dev/null", "-H", "Content-Type: application/json",
                          "--data-binary", request, url, NULL };
  return sl_test_run_argv (curl, NULL, NULL);
}

static json_t *
path (json_t *j, const gchar *p)
{
  g_auto (GStrv) keys = g_strsplit (p, "/", -1);
  for (guint i = 0; keys[i] && j; i++)
    j = json_object_get (j, keys[i]);
  return j;
}

static const gchar *
str (json_t *j, const gchar *p)
{
  j = path (j, p);
  return j && json_is_string (j) ? json_string_value (j) : NULL;
}

static json_t *
by_via (json_t *all, const gchar *via, const gchar *body)
{
  gsize i;
  json_t *j;
  json_array_foreach (all, i, j)
    if (g_strcmp0 (str (j, "via"), via) == 0 && (!body || g_strcmp0 (str (j, "body"), body) == 0))
      return j;
  return NULL;
}

static const gchar *const CONFIG_SYSLOG =
  "source s_in { syslog(ip(\"127.0.0.1\") port(@IN@) keep-hostname(yes)); };\n"
  "destination d_grpc { opentelemetry(url(\"127.0.0.1:@GRPC@\") headers(\"X-Api-Key: secret\") compression(yes)); };\n"
  "destination d_http { opentelemetry(transport(\"http\") url(\"http://127.0.0.1:@HTTP@/v1/logs\") "
  "compression(yes) batch-lines(2)); };\n"
  "log { source(s_in); destination(d_grpc); destination(d_http); flags(flow-control); };\n";

/* RFC 5424 messages mapped as doc/opentelemetry.md's table says, over
 * gRPC (gzip, headers() as metadata) and over HTTP with gzip and batches
 * of two. */
static void
test_syslog_mapping (SlTestEnv *env, gconstpointer data)
{
  guint16 in = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *in_s = g_strdup_printf ("%u", in), *grpc = g_strdup_printf ("%u", receiver.grpc),
                   *http = g_strdup_printf ("%u", receiver.http);
  if (!sl_test_write_config (env, CONFIG_SYSLOG, "IN", in_s, "GRPC", grpc, "HTTP", http, NULL)
      || !sl_test_daemon_start (env))
    return;
  const gchar *m1 = "<11>1 2024-01-02T03:04:05.123Z web1 nginx 42 ID7 [meta@1 seq=\"5\" zone=\"eu\"] map-one failed";
  const gchar *m2 = "<166>1 2024-01-02T03:04:06Z web2 cron - - - map-two ok";
  const gchar *m3 = "<13>1 2024-01-02T03:04:07Z web1 nginx 43 - - map-three";
  g_autofree gchar *framed = g_strdup_printf ("%zu %s%zu %s%zu %s", strlen (m1), m1, strlen (m2), m2, strlen (m3), m3);
  g_assert_true (sl_test_tcp_send (in, framed));
  g_assert_true (wait_received ("map-", 6));
  json_t *all = received ("map-");
  g_assert_cmpuint (json_array_size (all), ==, 6);
  const gchar *vias[] = { "grpc", "http" };
  for (guint v = 0; v < 2; v++)
    {
      json_t *r = by_via (all, vias[v], "map-one failed");
      g_assert_nonnull (r);
      g_assert_cmpstr (str (r, "time"), ==, "1704164645123000000");
      g_assert_cmpint (json_integer_value (json_object_get (r, "severity")), ==, 17);
      g_assert_cmpstr (str (r, "severityText"), ==, "err");
      g_assert_cmpstr (str (r, "resource/host.name"), ==, "web1");
      g_assert_cmpstr (str (r, "resource/service.name"), ==, "nginx");
      g_assert_cmpstr (str (r, "scope/name"), ==, "sluice");
      g_assert_cmpstr (str (r, "attributes/process.pid"), ==, "42");
      g_assert_cmpstr (str (r, "attributes/syslog.msgid"), ==, "ID7");
      g_assert_cmpstr (str (r, "attributes/syslog.facility"), ==, "user");
      g_assert_cmpstr (str (r, "attributes/meta@1.seq"), ==, "5");
      g_assert_cmpstr (str (r, "attributes/meta@1.zone"), ==, "eu");
      g_assert_cmpstr (str (r, "observed"), !=, "0");
      r = by_via (all, vias[v], "map-two ok");
      g_assert_nonnull (r);
      g_assert_cmpint (json_integer_value (json_object_get (r, "severity")), ==, 9);
      g_assert_cmpstr (str (r, "attributes/syslog.facility"), ==, "local4");
      g_assert_cmpstr (str (r, "resource/service.name"), ==, "cron");
      g_assert_null (str (r, "attributes/process.pid"));
      r = by_via (all, vias[v], "map-three");
      g_assert_nonnull (r);
      g_assert_cmpint (json_integer_value (json_object_get (r, "severity")), ==, 10);
      g_assert_cmpstr (str (r, "time"), ==, "1704164647000000000");
    }
  /* headers() go as gRPC metadata */
  g_assert_cmpstr (str (by_via (all, "grpc", "map-one failed"), "apiKey"), ==, "secret");
  g_assert_true (sl_test_wait_stat (env, "destination", "d_grpc", "written", 3));
  g_assert_true (sl_test_wait_stat (env, "destination", "d_http", "written", 3));
  g_assert_cmpint (sl_test_stat (env, "destination", "d_http", "requests"), ==, 2);
  json_decref (all);
}

static const gchar *const CONFIG_RELAY =
  "source s_otel { opentelemetry(transport(\"http\") port(@IN@)); };\n"
  "destination d_grpc { opentelemetry(url(\"127.0.0.1:@GRPC@\")); };\n"
  "log { source(s_otel); destination(d_grpc); flags(flow-control); };\n";

/* What came in as OTLP goes out as it came: ids, typed attributes, a
 * key-value body, the resource and scope. */
static void
test_otlp_intact (SlTestEnv *env, gconstpointer data)
{
  guint16 in = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *in_s = g_strdup_printf ("%u", in), *grpc = g_strdup_printf ("%u", receiver.grpc);
  if (!sl_test_write_config (env, CONFIG_RELAY, "IN", in_s, "GRPC", grpc, NULL) || !sl_test_daemon_start (env))
    return;
  const gchar *request =
    "{\"resourceLogs\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\",\"value\":{\"stringValue\":\"pay\"}}]},"
    "\"schemaUrl\":\"https://opentelemetry.io/schemas/1.24.0\",\"scopeLogs\":[{\"scope\":{\"name\":\"lib\","
    "\"version\":\"2\"},\"logRecords\":[{\"timeUnixNano\":\"1700000000000000001\",\"severityNumber\":18,"
    "\"traceId\":\"5b8efff798038103d269b633813fc60c\",\"spanId\":\"eee19b7ec3c1b174\","
    "\"body\":{\"kvlistValue\":{\"values\":[{\"key\":\"case\",\"value\":{\"stringValue\":\"intact-1\"}},"
    "{\"key\":\"n\",\"value\":{\"intValue\":\"7\"}}]}},"
    "\"attributes\":[{\"key\":\"count\",\"value\":{\"intValue\":\"12\"}},{\"key\":\"ratio\",\"value\":{\"doubleValue\":0.5}},"
    "{\"key\":\"raw\",\"value\":{\"bytesValue\":\"AAEC\"}},{\"key\":\"ok\",\"value\":{\"boolValue\":true}}]}]}]}]}";
  g_assert_cmpint (post_json (in, request), ==, 0);
  /* answered: the source's window is empty, so the receiver has it */
  json_t *all = received ("intact-");
  g_assert_cmpuint (json_array_size (all), ==, 1);
  json_t *r = json_array_get (all, 0);
  g_assert_cmpstr (str (r, "via"), ==, "grpc");
  g_assert_cmpstr (str (r, "time"), ==, "1700000000000000001");
  g_assert_cmpstr (str (r, "observed"), ==, "0");
  g_assert_cmpint (json_integer_value (json_object_get (r, "severity")), ==, 18);
  g_assert_cmpstr (str (r, "traceId"), ==, "5b8efff798038103d269b633813fc60c");
  g_assert_cmpstr (str (r, "spanId"), ==, "eee19b7ec3c1b174");
  g_assert_cmpstr (str (r, "body/case"), ==, "intact-1");
  g_assert_cmpstr (str (r, "body/n/int"), ==, "7");
  g_assert_cmpstr (str (r, "attributes/count/int"), ==, "12");
  g_assert_cmpfloat (json_real_value (json_object_get (json_object_get (json_object_get (r, "attributes"), "ratio"),
                                                       "double")), ==, 0.5);
  g_assert_cmpstr (str (r, "attributes/raw/bytes"), ==, "AAEC");
  g_assert_true (json_is_true (json_object_get (json_object_get (r, "attributes"), "ok")));
  g_assert_cmpstr (str (r, "resource/service.name"), ==, "pay");
  g_assert_cmpstr (str (r, "resourceSchemaUrl"), ==, "https://opentelemetry.io/schemas/1.24.0");
  g_assert_cmpstr (str (r, "scope/name"), ==, "lib");
  g_assert_cmpstr (str (r, "scope/version"), ==, "2");
  json_decref (all);
}

#define KILLED_MESSAGES 3000

static const gchar *const CONFIG_KILLED =
  "source s_in { tcp(ip(\"127.0.0.1\") port(@IN@) log-iw-size(1000)); };\n"
  "destination d_grpc { opentelemetry(url(\"127.0.0.1:@GRPC@\") batch-lines(50) retries(2) time-reopen(1)); };\n"
  "log { source(s_in); destination(d_grpc); flags(flow-control); };\n";

/* The receiver is killed while messages flow and started again: every
 * message arrives (some may twice), none is lost, and they arrive in the
 * order they were sent (what is sent again follows what was answered). */
static void
test_receiver_killed (SlTestEnv *env, gconstpointer data)
{
  guint16 in = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *in_s = g_strdup_printf ("%u", in), *grpc = g_strdup_printf ("%u", receiver.grpc);
  if (!sl_test_write_config (env, CONFIG_KILLED, "IN", in_s, "GRPC", grpc, NULL) || !sl_test_daemon_start (env))
    return;
  GString *lines = g_string_new (NULL);
  for (guint i = 0; i < KILLED_MESSAGES; i++)
    g_string_append_printf (lines, "<13>Jan  2 03:04:05 host app: killed-%05u\n", i);
  gint fd = sl_test_tcp_connect (in);
  g_assert_cmpint (fd, >=, 0);
  SlTestSender *sender = sl_test_sender_start (fd, lines);
  g_assert_true (wait_received ("killed-", 100));
  receiver_kill ();
  g_assert_true (receiver_start ());
  sl_test_sender_join (sender);
  /* what was sent again counts once: wait for every message */
  g_assert_true (wait_counted ("killed-", KILLED_MESSAGES, TRUE));
  json_t *all = received ("killed-");
  GHashTable *seen = g_hash_table_new (g_str_hash, g_str_equal);
  gsize i;
  json_t *j;
  gint last = -1;
  json_array_foreach (all, i, j)
    {
      const gchar *body = str (j, "body");
      if (g_hash_table_contains (seen, body))
        continue;
      gint k = atoi (body + strlen ("killed-"));
      if (k < last)
        g_test_fail_printf ("%s came after killed-%05d", body, last);
      last = k;
      g_hash_table_add (seen, (gpointer) body);
    }
  for (guint k = 0; k < KILLED_MESSAGES; k++)
    {
      g_autofree gchar *body = g_strdup_printf ("killed-%05u", k);
      if (!g_hash_table_contains (seen, body))
        {
          g_test_fail_printf ("%s was lost", body);
          break;
        }
    }
  g_hash_table_unref (seen);
  json_decref (all);
  g_assert_cmpint (sl_test_stat (env, "destination", "d_grpc", "dropped"), ==, 0);
  /* requests failed while it was away, and were sent again */
  g_assert_cmpint (sl_test_stat (env, "destination", "d_grpc", "retries"), >, 0);
}

/* What the receiver printed since offset: its "connection" lines and the
 * most calls it had open at once. */
static void
receiver_saw (gsize offset, guint *connections, guint *concurrent)
{
  g_autofree gchar *ready = g_build_filename (receiver.dir, "receiver.stdout", NULL);
  g_autofree gchar *text = sl_test_read_file (ready);
  *connections = *concurrent = 0;
  g_auto (GStrv) lines = g_strsplit (text && strlen (text) >= offset ? text + offset : "", "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (strcmp (lines[i], "connection") == 0)
      (*connections)++;
    else if (g_str_has_prefix (lines[i], "concurrent "))
      *concurrent = MAX (*concurrent, (guint) atoi (lines[i] + 11));
}

static gsize
receiver_printed (void)
{
  g_autofree gchar *ready = g_build_filename (receiver.dir, "receiver.stdout", NULL);
  g_autofree gchar *text = sl_test_read_file (ready);
  return text ? strlen (text) : 0;
}

#define IN_FLIGHT_MESSAGES 5000

static const gchar *const CONFIG_IN_FLIGHT =
  "source s_in { tcp(ip(\"127.0.0.1\") port(@IN@) log-iw-size(5000)); };\n"
  "destination d_grpc { opentelemetry(url(\"127.0.0.1:@GRPC@\") batch-lines(50)); };\n"
  "log { source(s_in); destination(d_grpc); flags(flow-control); };\n";

/* Requests of 50 records go out without waiting for each other's answers
 * (which the receiver delays), all on one HTTP/2 connection, and their
 * records arrive once each, in order. (Not gzip here: grpc-js inflates
 * asynchronously, so a later request may overtake one it inflates.) */
static void
test_many_in_flight (SlTestEnv *env, gconstpointer data)
{
  guint16 in = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *in_s = g_strdup_printf ("%u", in), *grpc = g_strdup_printf ("%u", receiver.grpc);
  gsize printed = receiver_printed ();
  if (!sl_test_write_config (env, CONFIG_IN_FLIGHT, "IN", in_s, "GRPC", grpc, NULL) || !sl_test_daemon_start (env))
    return;
  GString *lines = g_string_new (NULL);
  for (guint i = 0; i < IN_FLIGHT_MESSAGES; i++)
    g_string_append_printf (lines, "<13>Jan  2 03:04:05 host app: inflight-%05u\n", i);
  g_assert_true (sl_test_tcp_send (in, lines->str));
  g_string_free (lines, TRUE);
  g_assert_true (wait_received ("inflight-", IN_FLIGHT_MESSAGES));
  json_t *all = received ("inflight-");
  g_assert_cmpuint (json_array_size (all), ==, IN_FLIGHT_MESSAGES);
  gsize i;
  json_t *j;
  json_array_foreach (all, i, j)
    {
      g_autofree gchar *want = g_strdup_printf ("inflight-%05zu", i);
      g_assert_cmpstr (str (j, "body"), ==, want);
    }
  json_decref (all);
  guint connections, concurrent;
  receiver_saw (printed, &connections, &concurrent);
  g_assert_cmpuint (connections, ==, 1);
  g_assert_cmpuint (concurrent, >=, 2);
  g_assert_cmpint (sl_test_stat (env, "destination", "d_grpc", "retries"), ==, 0);
}

static const gchar *const CONFIG_STATUS =
  "source s_in { tcp(ip(\"127.0.0.1\") port(@IN@)); };\n"
  "destination d_grpc { opentelemetry(url(\"127.0.0.1:@GRPC@\") batch-lines(1)); };\n"
  "log { source(s_in); destination(d_grpc); flags(flow-control); };\n";

/* UNAVAILABLE is retried and then taken; INVALID_ARGUMENT is final: its
 * request's message is dropped and counted, the others go on. */
static void
test_error_status (SlTestEnv *env, gconstpointer data)
{
  guint16 in = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *in_s = g_strdup_printf ("%u", in), *grpc = g_strdup_printf ("%u", receiver.grpc);
  if (!sl_test_write_config (env, CONFIG_STATUS, "IN", in_s, "GRPC", grpc, NULL) || !sl_test_daemon_start (env))
    return;
  g_assert_true (sl_test_tcp_send (in, "<13>Jan  2 03:04:05 host app: answers-1\n"
                                       "<13>Jan  2 03:04:05 host app: status-14-answers-2\n"
                                       "<13>Jan  2 03:04:05 host app: status-3-answers-3\n"
                                       "<13>Jan  2 03:04:05 host app: answers-4\n"));
  g_assert_true (wait_received ("answers-", 2));
  g_assert_true (wait_received ("status-14-answers-2", 1));
  gint64 deadline = g_get_monotonic_time () + SL_TEST_DEADLINE_MS * 1000;
  while (sl_test_stat (env, "destination", "d_grpc", "dropped") < 1 && g_get_monotonic_time () < deadline)
    g_usleep (50 * 1000);
  g_assert_cmpint (sl_test_stat (env, "destination", "d_grpc", "dropped"), ==, 1);
  g_assert_cmpint (sl_test_stat (env, "destination", "d_grpc", "retries"), ==, 1);
  json_t *refused = received ("status-3-");
  g_assert_cmpuint (json_array_size (refused), ==, 0);
  json_decref (refused);
  json_t *retried = received ("status-14-");
  g_assert_cmpuint (json_array_size (retried), ==, 1);
  json_decref (retried);
}

static const gchar *const CONFIG_TLS =
  "source s_in { syslog(ip(\"127.0.0.1\") port(@IN@) keep-hostname(yes)); };\n"
  "destination d_grpc { opentelemetry(url(\"https://127.0.0.1:@GRPC@\") tls(ca-file(\"@DIR@/cert.pem\"))); };\n"
  "destination d_http { opentelemetry(transport(\"http\") url(\"https://127.0.0.1:@HTTP@/v1/logs\") "
  "tls(ca-file(\"@DIR@/cert.pem\"))); };\n"
  "log { source(s_in); destination(d_grpc); destination(d_http); flags(flow-control); };\n"
  "source s_grpc { opentelemetry(ip(\"127.0.0.1\") port(@GRPC@) tls(key-file(\"@DIR@/key.pem\") "
  "cert-file(\"@DIR@/cert.pem\") peer-verify(optional-untrusted))); };\n"
  "source s_http { opentelemetry(transport(\"http\") ip(\"127.0.0.1\") port(@HTTP@) tls(key-file(\"@DIR@/key.pem\") "
  "cert-file(\"@DIR@/cert.pem\") peer-verify(optional-untrusted))); };\n"
  "destination d_file { file(\"@DIR@/out\" template(\"${SOURCE} ${.otel.resource.attributes.host.name} $MSG\\n\")); };\n"
  "log { source(s_grpc); source(s_http); destination(d_file); };\n";

/* Over TLS, checked against the receiver's certificate: gRPC as HTTP/2
 * chosen by ALPN, HTTP/1.1; the receiver is Sluice's own source. */
static void
test_tls (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *key = sl_test_path (env, "key.pem"), *cert = sl_test_path (env, "cert.pem");
  const gchar *openssl[] = { "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                             "-nodes", "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=localhost",
                             "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost", NULL };
  g_assert_cmpint (sl_test_run_argv (openssl, NULL, NULL), ==, 0);
  guint16 in = sl_test_free_port (SOCK_STREAM), grpc = sl_test_free_port (SOCK_STREAM),
          http = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *in_s = g_strdup_printf ("%u", in), *grpc_s = g_strdup_printf ("%u", grpc),
                   *http_s = g_strdup_printf ("%u", http);
  if (!sl_test_write_config (env, CONFIG_TLS, "IN", in_s, "GRPC", grpc_s, "HTTP", http_s, NULL)
      || !sl_test_daemon_start (env))
    return;
  const gchar *m = "<14>1 2024-01-02T03:04:05Z tlshost app - - - over-tls";
  g_autofree gchar *framed = g_strdup_printf ("%zu %s", strlen (m), m);
  g_assert_true (sl_test_tcp_send (in, framed));
  g_autofree gchar *out = sl_test_path (env, "out");
  g_assert_true (sl_test_wait_lines (env, out, 2));
  g_autofree gchar *text = sl_test_read_file (out);
  g_assert_nonnull (strstr (text, "s_grpc tlshost over-tls\n"));
  g_assert_nonnull (strstr (text, "s_http tlshost over-tls\n"));
  g_assert_cmpint (sl_test_stat (env, "destination", "d_grpc", "retries"), ==, 0);
}

/* A receiver that speaks TLS 1.2 only: the destination that asks for 1.3
 * at least never gets through, the one that also takes 1.2 does. */
static const gchar *const CONFIG_TLS_VERSIONS =
  "source s_in { syslog(ip(\"127.0.0.1\") port(@IN@) keep-hostname(yes)); };\n"
  "destination d_13 { opentelemetry(transport(\"http\") url(\"https://127.0.0.1:@HTTP@/v1/logs\") retries(1) "
  "tls(ca-file(\"@DIR@/cert.pem\") ssl-version(tlsv1_3))); };\n"
  "destination d_12 { opentelemetry(transport(\"http\") url(\"https://127.0.0.1:@HTTP@/v1/logs\") "
  "tls(ca-file(\"@DIR@/cert.pem\") ssl-version(tlsv1_2) cipher-suite(\"ECDHE-ECDSA-AES128-GCM-SHA256\"))); };\n"
  "log { source(s_in); destination(d_13); };\n"
  "log { source(s_in); destination(d_12); };\n"
  "source s_http { opentelemetry(transport(\"http\") ip(\"127.0.0.1\") port(@HTTP@) tls(key-file(\"@DIR@/key.pem\") "
  "cert-file(\"@DIR@/cert.pem\") peer-verify(optional-untrusted) ssl-options(no-sslv3, no-tlsv1, no-tlsv11, no-tlsv13))); };\n"
  "destination d_file { file(\"@DIR@/out\" template(\"$MSG\\n\")); };\n"
  "log { source(s_http); destination(d_file); };\n";

/* The OTLP client honours the versions and ciphers of tls() as http() does. */
static void
test_tls_versions (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *key = sl_test_path (env, "key.pem"), *cert = sl_test_path (env, "cert.pem");
  const gchar *openssl[] = { "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                             "-nodes", "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=localhost",
                             "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost", NULL };
  g_assert_cmpint (sl_test_run_argv (openssl, NULL, NULL), ==, 0);
  guint16 in = sl_test_free_port (SOCK_STREAM), http = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *in_s = g_strdup_printf ("%u", in), *http_s = g_strdup_printf ("%u", http);
  if (!sl_test_write_config (env, CONFIG_TLS_VERSIONS, "IN", in_s, "HTTP", http_s, NULL)
      || !sl_test_daemon_start (env))
    return;
  const gchar *m = "<14>1 2024-01-02T03:04:05Z tlshost app - - - over-tls-1.2";
  g_autofree gchar *framed = g_strdup_printf ("%zu %s", strlen (m), m);
  g_assert_true (sl_test_tcp_send (in, framed));
  g_autofree gchar *out = sl_test_path (env, "out");
  g_assert_true (sl_test_wait_lines (env, out, 1));
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (sl_test_stat (env, "destination", "d_13", "retries") == 0 && g_get_monotonic_time () < deadline)
    g_usleep (50 * 1000);
  g_assert_cmpint (sl_test_stat (env, "destination", "d_13", "retries"), >, 0);
  g_autofree gchar *text = sl_test_read_file (out);
  g_assert_cmpstr (text, ==, "over-tls-1.2\n");
  g_assert_cmpint (sl_test_stat (env, "destination", "d_12", "retries"), ==, 0);
}

/* OTLP/HTTP goes through libcurl, which cannot check the DN (gRPC,
 * through the core's TLS, can) */
static void
test_tls_refused (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *err = sl_test_refused_config (env,
    "destination d { opentelemetry(transport(\"http\") url(\"https://127.0.0.1:4318/v1/logs\")\n"
    "  tls(ca-file(\"/ca.pem\") trusted-dn(\"*\"))); };\n"
    "log { source { internal(); }; destination(d); };\n", NULL);
  g_assert_nonnull (strstr (err, ":2:26: opentelemetry() tls(): trusted-dn() cannot be used here: libcurl does not offer it"));
}

static const gchar *const CONFIG_SYSLOG_NG =
  "template t { template(\"$ISODATE $HOST $PROGRAM $PID $MSGID $FACILITY.$LEVEL ${.SDATA.meta@1.seq} $SOURCEIP "
  "${json.x} $MSG\\n\"); };\n"
  "source s_in { syslog(ip(\"127.0.0.1\") port(@IN@) keep-hostname(yes) keep-timestamp(yes)); };\n"
  "parser p_json { json-parser(prefix(\"json.\") template(\"{\\\"x\\\": \\\"from-json\\\"}\")); };\n"
  "destination d_direct { file(\"@DIR@/direct\" template(t)); };\n"
  "destination d_otlp { syslog-ng-otlp(url(\"127.0.0.1:@OTLP@\")); };\n"
  "log { source(s_in); parser(p_json); destination(d_direct); destination(d_otlp); flags(flow-control); };\n"
  "source s_otlp { syslog-ng-otlp(ip(\"127.0.0.1\") port(@OTLP@)); };\n"
  "destination d_relayed { file(\"@DIR@/relayed\" template(t)); };\n"
  "log { source(s_otlp); destination(d_relayed); };\n";

/* syslog-ng-otlp() to syslog-ng-otlp(): every name-value pair, the
 * priority, the stamp with its zone and the sender's address arrive, so
 * the same template renders the same line on both sides. */
static void
test_syslog_ng_otlp (SlTestEnv *env, gconstpointer data)
{
  guint16 in = sl_test_free_port (SOCK_STREAM), otlp = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *in_s = g_strdup_printf ("%u", in), *otlp_s = g_strdup_printf ("%u", otlp);
  if (!sl_test_write_config (env, CONFIG_SYSLOG_NG, "IN", in_s, "OTLP", otlp_s, NULL) || !sl_test_daemon_start (env))
    return;
  const gchar *m1 = "<165>1 2024-01-02T03:04:05.250+02:00 web1 nginx 42 ID7 [meta@1 seq=\"5\"] relayed one";
  const gchar *m2 = "<11>1 2024-01-02T03:04:06Z web2 cron - - - relayed two";
  g_autofree gchar *framed = g_strdup_printf ("%zu %s%zu %s", strlen (m1), m1, strlen (m2), m2);
  g_assert_true (sl_test_tcp_send (in, framed));
  g_autofree gchar *direct = sl_test_path (env, "direct"), *relayed = sl_test_path (env, "relayed");
  g_assert_true (sl_test_wait_lines (env, direct, 2));
  g_assert_true (sl_test_wait_lines (env, relayed, 2));
  g_autofree gchar *want = sl_test_read_file (direct), *have = sl_test_read_file (relayed);
  g_assert_cmpstr (have, ==, want);
  g_assert_nonnull (strstr (want, "2024-01-02T03:04:05+02:00 web1 nginx 42 ID7 local4.notice 5 127.0.0.1 from-json relayed one\n"));
}

/* Typed values through syslog-ng-otlp(): each goes under its type's name,
 * and the source gives it that type again, so $(format-json) of a 4.x
 * configuration writes the same types on both sides. */
static const gchar *const CONFIG_SYSLOG_NG_TYPED =
  "@version: 4.8\n"
  "template t { template(\"$(format-json --key h.* --key MESSAGE)\\n\"); };\n"
  "source s_in { tcp(ip(\"127.0.0.1\") port(@IN@)); };\n"
  "rewrite r { set(int(\"42\") value(\"h.i\")); set(1.5 value(\"h.f\")); set(boolean(\"true\") value(\"h.b\"));\n"
  "            set(list(\"a,b\") value(\"h.l\")); set(null(\"\") value(\"h.z\")); set(json(\"{\\\"x\\\":1}\") value(\"h.j\"));\n"
  "            set(\"text\" value(\"h.s\")); set(datetime(\"1700000000.5\") value(\"h.dt\")); };\n"
  "destination d_direct { file(\"@DIR@/direct\" template(t)); };\n"
  "destination d_otlp { syslog-ng-otlp(url(\"127.0.0.1:@OTLP@\")); };\n"
  "log { source(s_in); rewrite(r); destination(d_direct); destination(d_otlp); flags(flow-control); };\n"
  "source s_otlp { syslog-ng-otlp(ip(\"127.0.0.1\") port(@OTLP@)); };\n"
  "destination d_relayed { file(\"@DIR@/relayed\" template(t)); };\n"
  "log { source(s_otlp); destination(d_relayed); };\n";

static void
test_syslog_ng_otlp_typed (SlTestEnv *env, gconstpointer data)
{
  guint16 in = sl_test_free_port (SOCK_STREAM), otlp = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *in_s = g_strdup_printf ("%u", in), *otlp_s = g_strdup_printf ("%u", otlp);
  if (!sl_test_write_config (env, CONFIG_SYSLOG_NG_TYPED, "IN", in_s, "OTLP", otlp_s, NULL)
      || !sl_test_daemon_start (env))
    return;
  g_assert_true (sl_test_tcp_send (in, "<13>Jan  2 03:04:05 web1 app: typed\n"));
  g_autofree gchar *direct = sl_test_path (env, "direct"), *relayed = sl_test_path (env, "relayed");
  g_assert_true (sl_test_wait_lines (env, direct, 1));
  g_assert_true (sl_test_wait_lines (env, relayed, 1));
  g_autofree gchar *want = sl_test_read_file (direct), *have = sl_test_read_file (relayed);
  g_assert_cmpstr (want, ==, "{\"h\":{\"z\":null,\"s\":\"text\",\"l\":[\"a\",\"b\"],\"j\":{\"x\":1},\"i\":42,\"f\":1.5,"
                   "\"dt\":\"1700000000.5\",\"b\":true},\"MESSAGE\":\"typed\"}\n");
  g_assert_cmpstr (have, ==, want);
}

/* The record whose attribute "case" is value, among all the receiver took */
static json_t *
received_case (const gchar *value)
{
  g_auto (GStrv) lines = sl_test_read_lines (receiver.out);
  for (guint i = 0; lines && lines[i]; i++)
    {
      json_t *j = json_loads (lines[i], 0, NULL);
      if (j && g_strcmp0 (str (j, "attributes/case"), value) == 0)
        return j;
      json_decref (j);
    }
  return NULL;
}

static json_t *
wait_case (const gchar *value)
{
  gint64 deadline = g_get_monotonic_time () + 3 * SL_TEST_DEADLINE_MS * 1000;
  while (g_get_monotonic_time () < deadline)
    {
      json_t *j = received_case (value);
      if (j)
        return j;
      g_usleep (50000);
    }
  g_test_fail_printf ("the receiver did not get the record of case '%s'", value);
  return NULL;
}

/* Records made from .otel.* fields set with set()'s type hints, as
 * syslog-ng 4.8's formatter makes them: each value's type its AnyValue's,
 * a scalar field read only from a value of its type, a record's, a
 * resource's and a scope's fields each from its own prefix. */
static const gchar *const CONFIG_FIELDS =
  "@version: 4.8\n"
  "source s_in { tcp(ip(\"127.0.0.1\") port(@IN@)); };\n"
  "filter f_typed { message(\"fields-typed\"); };\n"
  "filter f_wrong { message(\"fields-wrong\"); };\n"
  "filter f_other { message(\"fields-other\"); };\n"
  "rewrite r_typed {\n"
  "  set(\"log\" value(\".otel.type\")); set(\"$MSG\" value(\".otel.log.body\"));\n"
  "  set(int64(\"1700000000000000001\") value(\".otel.log.time_unix_nano\"));\n"
  "  set(int(\"1700000000000000002\") value(\".otel.log.observed_time_unix_nano\"));\n"
  "  set(int(\"18\") value(\".otel.log.severity_number\")); set(\"ERROR2\" value(\".otel.log.severity_text\"));\n"
  "  set(int(\"3\") value(\".otel.log.dropped_attributes_count\")); set(int(\"1\") value(\".otel.log.flags\"));\n"
  "  set(\"5b8efff798038103d269b633813fc60c\" value(\".otel.log.trace_id\"));\n"
  "  set(\"typed\" value(\".otel.log.attributes.case\"));\n"
  "  set(int(\"42\") value(\".otel.log.attributes.i\")); set(int(\"0x1f\") value(\".otel.log.attributes.hex\"));\n"
  "  set(int(\"12abc\") value(\".otel.log.attributes.bad\")); set(1.5 value(\".otel.log.attributes.f\"));\n"
  "  set(boolean(\"true\") value(\".otel.log.attributes.b\")); set(boolean(\"yes\") value(\".otel.log.attributes.y\"));\n"
  "  set(list(\"a,b\") value(\".otel.log.attributes.l\")); set(null(\"\") value(\".otel.log.attributes.z\"));\n"
  "  set(json(\"{\\\"x\\\":1}\") value(\".otel.log.attributes.j\")); set(\"text\" value(\".otel.log.attributes.s.t\"));\n"
  "  set(\"pay\" value(\".otel.resource.attributes.service.name\"));\n"
  "  set(int(\"2\") value(\".otel.resource.attributes.n\")); set(int(\"4\") value(\".otel.resource.dropped_attributes_count\"));\n"
  "  set(\"https://opentelemetry.io/schemas/1.24.0\" value(\".otel.resource.schema_url\"));\n"
  "  set(\"lib\" value(\".otel.scope.name\")); set(\"2.0\" value(\".otel.scope.version\"));\n"
  "  set(boolean(\"false\") value(\".otel.scope.attributes.on\")); set(int(\"5\") value(\".otel.scope.dropped_attributes_count\"));\n"
  "  set(\"https://example.org/scope\" value(\".otel.scope.schema_url\"));\n"
  "};\n"
  "rewrite r_wrong {\n"
  "  set(\"lo\" value(\".otel.type\")); set(int(\"7\") value(\".otel.log.body\"));\n"
  "  set(\"1700000000000000001\" value(\".otel.log.time_unix_nano\"));\n"
  "  set(int(\"99\") value(\".otel.log.severity_number\")); set(int(\"9\") value(\".otel.log.severity_text\"));\n"
  "  set(\"3\" value(\".otel.log.flags\")); set(\"wrong\" value(\".otel.log.attributes.case\"));\n"
  "  set(int(\"2\") value(\".otel.scope.name\"));\n"
  "};\n"
  "rewrite r_other { set(\"logs\" value(\".otel.type\")); set(\"other\" value(\".otel.log.attributes.case\")); };\n"
  "destination d_grpc { opentelemetry(url(\"127.0.0.1:@GRPC@\")); };\n"
  "log { source(s_in); filter(f_typed); rewrite(r_typed); destination(d_grpc); };\n"
  "log { source(s_in); filter(f_wrong); rewrite(r_wrong); destination(d_grpc); };\n"
  "log { source(s_in); filter(f_other); rewrite(r_other); destination(d_grpc); };\n";

static void
test_otel_fields (SlTestEnv *env, gconstpointer data)
{
  guint16 in = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *in_s = g_strdup_printf ("%u", in), *grpc = g_strdup_printf ("%u", receiver.grpc);
  if (!sl_test_write_config (env, CONFIG_FIELDS, "IN", in_s, "GRPC", grpc, NULL) || !sl_test_daemon_start (env))
    return;
  g_assert_true (sl_test_tcp_send (in, "<13>Jan  2 03:04:05 web1 app: fields-typed\n"
                                       "<13>Jan  2 03:04:05 web1 app: fields-wrong\n"
                                       "<13>Jan  2 03:04:05 web1 app: fields-other\n"));
  json_t *r = wait_case ("typed");
  g_assert_nonnull (r);
  g_assert_cmpstr (str (r, "body"), ==, "fields-typed");
  g_assert_cmpstr (str (r, "time"), ==, "1700000000000000001");
  g_assert_cmpstr (str (r, "observed"), ==, "1700000000000000002");
  g_assert_cmpint (json_integer_value (json_object_get (r, "severity")), ==, 18);
  g_assert_cmpstr (str (r, "severityText"), ==, "ERROR2");
  g_assert_cmpint (json_integer_value (json_object_get (r, "dropped")), ==, 3);
  g_assert_cmpint (json_integer_value (json_object_get (r, "flags")), ==, 1);
  /* a string is not the bytes 4.8 reads an id from */
  g_assert_null (json_object_get (r, "traceId"));
  g_assert_cmpstr (str (r, "attributes/i/int"), ==, "42");
  g_assert_cmpstr (str (r, "attributes/hex/int"), ==, "31");
  /* as far as it reads, logged */
  g_assert_cmpstr (str (r, "attributes/bad/int"), ==, "12");
  g_assert_cmpfloat (json_real_value (path (r, "attributes/f/double")), ==, 1.5);
  g_assert_true (json_is_true (path (r, "attributes/b")));
  /* type_cast_to_boolean() reads the first character: "yes" is not one, logged */
  g_assert_true (json_is_false (path (r, "attributes/y")));
  json_t *list = path (r, "attributes/l");
  g_assert_cmpuint (json_array_size (list), ==, 2);
  g_assert_cmpstr (json_string_value (json_array_get (list, 1)), ==, "b");
  /* null and json(): the key with an empty value */
  g_assert_true (json_is_null (path (r, "attributes/z")));
  g_assert_true (json_is_null (path (r, "attributes/j")));
  g_assert_cmpstr (str (r, "attributes/s.t"), ==, "text");
  g_assert_cmpuint (json_object_size (json_object_get (r, "attributes")), ==, 11);
  g_assert_cmpstr (str (r, "resource/service.name"), ==, "pay");
  g_assert_cmpstr (str (r, "resource/n/int"), ==, "2");
  g_assert_cmpuint (json_object_size (json_object_get (r, "resource")), ==, 2);
  g_assert_cmpint (json_integer_value (json_object_get (r, "resourceDropped")), ==, 4);
  g_assert_cmpstr (str (r, "resourceSchemaUrl"), ==, "https://opentelemetry.io/schemas/1.24.0");
  g_assert_cmpstr (str (r, "scope/name"), ==, "lib");
  g_assert_cmpstr (str (r, "scope/version"), ==, "2.0");
  g_assert_true (json_is_false (path (r, "scopeAttributes/on")));
  g_assert_cmpint (json_integer_value (json_object_get (r, "scopeDropped")), ==, 5);
  g_assert_cmpstr (str (r, "scopeSchemaUrl"), ==, "https://example.org/scope");
  json_decref (r);

  r = wait_case ("wrong");
  g_assert_nonnull (r);
  g_assert_cmpstr (str (r, "body/int"), ==, "7");
  g_assert_cmpstr (str (r, "time"), ==, "0");
  g_assert_cmpstr (str (r, "observed"), ==, "0");
  g_assert_cmpint (json_integer_value (json_object_get (r, "severity")), ==, 0);
  g_assert_null (json_object_get (r, "severityText"));
  g_assert_null (json_object_get (r, "flags"));
  g_assert_cmpuint (json_object_size (json_object_get (r, "resource")), ==, 0);
  g_assert_null (str (r, "scope/name"));
  json_decref (r);

  /* "logs" is not a log: the syslog mapping, without .otel.* attributes */
  g_assert_true (wait_received ("fields-other", 1));
  json_t *all = received ("fields-other");
  r = json_array_get (all, 0);
  g_assert_cmpstr (str (r, "scope/name"), ==, "sluice");
  g_assert_cmpstr (str (r, "resource/service.name"), ==, "app");
  g_assert_null (json_object_get (json_object_get (r, "attributes"), "case"));
  json_decref (all);
}

static const gchar *const CONFIG_FIELDS_RELAY =
  "@version: 4.8\n"
  "source s_otel { opentelemetry(transport(\"http\") port(@IN@)); };\n"
  "rewrite r { unset(value(\".otel_raw.log\")); set(\"rebuilt\" value(\".otel.log.attributes.case\"));\n"
  "            set(int(\"12\") value(\".otel.log.attributes.count\")); };\n"
  "destination d_grpc { opentelemetry(url(\"127.0.0.1:@GRPC@\")); };\n"
  "log { source(s_otel); rewrite(r); destination(d_grpc); flags(flow-control); };\n";

/* A received record whose raw record is unset is made again from its
 * .otel.* fields, which the source types as 4.8's parser does (numbers
 * integers), with the resource and scope as received. */
static void
test_otel_fields_relay (SlTestEnv *env, gconstpointer data)
{
  guint16 in = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *in_s = g_strdup_printf ("%u", in), *grpc = g_strdup_printf ("%u", receiver.grpc);
  if (!sl_test_write_config (env, CONFIG_FIELDS_RELAY, "IN", in_s, "GRPC", grpc, NULL) || !sl_test_daemon_start (env))
    return;
  const gchar *request =
    "{\"resourceLogs\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\",\"value\":{\"stringValue\":\"pay\"}}]},"
    "\"schemaUrl\":\"https://opentelemetry.io/schemas/1.24.0\",\"scopeLogs\":[{\"scope\":{\"name\":\"lib\","
    "\"version\":\"2\"},\"logRecords\":[{\"timeUnixNano\":\"1700000000000000001\",\"observedTimeUnixNano\":\"1700000000000000005\","
    "\"severityNumber\":18,\"severityText\":\"ERROR2\",\"flags\":1,\"droppedAttributesCount\":2,"
    "\"body\":{\"stringValue\":\"rebuilt-1\"},"
    "\"attributes\":[{\"key\":\"ratio\",\"value\":{\"doubleValue\":0.5}},{\"key\":\"ok\",\"value\":{\"boolValue\":true}}]}]}]}]}";
  g_assert_cmpint (post_json (in, request), ==, 0);
  json_t *r = wait_case ("rebuilt");
  g_assert_nonnull (r);
  g_assert_cmpstr (str (r, "body"), ==, "rebuilt-1");
  g_assert_cmpstr (str (r, "time"), ==, "1700000000000000001");
  g_assert_cmpstr (str (r, "observed"), ==, "1700000000000000005");
  g_assert_cmpint (json_integer_value (json_object_get (r, "severity")), ==, 18);
  g_assert_cmpstr (str (r, "severityText"), ==, "ERROR2");
  g_assert_cmpint (json_integer_value (json_object_get (r, "flags")), ==, 1);
  g_assert_cmpint (json_integer_value (json_object_get (r, "dropped")), ==, 2);
  g_assert_cmpfloat (json_real_value (path (r, "attributes/ratio/double")), ==, 0.5);
  g_assert_true (json_is_true (path (r, "attributes/ok")));
  g_assert_cmpstr (str (r, "attributes/count/int"), ==, "12");
  g_assert_cmpstr (str (r, "resource/service.name"), ==, "pay");
  g_assert_cmpstr (str (r, "resourceSchemaUrl"), ==, "https://opentelemetry.io/schemas/1.24.0");
  g_assert_cmpstr (str (r, "scope/name"), ==, "lib");
  json_decref (r);
}

static void
test_bad_url (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *err = sl_test_refused_config (env,
    "destination d { opentelemetry(transport(\"http\") url(\"127.0.0.1:4318\")); };\n"
    "log { source { internal(); }; destination(d); };\n", NULL);
  g_assert_nonnull (strstr (err, ": opentelemetry(transport(\"http\")) takes an http:// or https:// url()"));
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  receiver.dir = g_dir_make_tmp ("sluice-otel-receiver-XXXXXX", NULL);
  receiver.out = g_build_filename (receiver.dir, "records.jsonl", NULL);
  receiver.grpc = sl_test_free_port (SOCK_STREAM);
  receiver.http = sl_test_free_port (SOCK_STREAM);
  if (!otel_test_node_ready () || !receiver_start ())
    return 1;
  SL_TEST_ADD ("/opentelemetry/destination/syslog-mapping", test_syslog_mapping);
  SL_TEST_ADD ("/opentelemetry/destination/otlp-intact", test_otlp_intact);
  SL_TEST_ADD ("/opentelemetry/destination/receiver-killed", test_receiver_killed);
  SL_TEST_ADD ("/opentelemetry/destination/many-in-flight", test_many_in_flight);
  SL_TEST_ADD ("/opentelemetry/destination/error-status", test_error_status);
  SL_TEST_ADD ("/opentelemetry/destination/tls", test_tls);
  SL_TEST_ADD ("/opentelemetry/destination/tls-versions", test_tls_versions);
  SL_TEST_ADD ("/opentelemetry/destination/tls-refused", test_tls_refused);
  SL_TEST_ADD ("/opentelemetry/destination/syslog-ng-otlp", test_syslog_ng_otlp);
  SL_TEST_ADD ("/opentelemetry/destination/syslog-ng-otlp-typed", test_syslog_ng_otlp_typed);
  SL_TEST_ADD ("/opentelemetry/destination/otel-fields", test_otel_fields);
  SL_TEST_ADD ("/opentelemetry/destination/otel-fields-relay", test_otel_fields_relay);
  SL_TEST_ADD ("/opentelemetry/destination/bad-url", test_bad_url);
  gint rc = g_test_run ();
  receiver_kill ();
  g_autofree gchar *err = g_build_filename (receiver.dir, "receiver.stderr", NULL);
  g_autofree gchar *ready = g_build_filename (receiver.dir, "receiver.stdout", NULL);
  g_unlink (receiver.out);
  g_unlink (err);
  g_unlink (ready);
  g_rmdir (receiver.dir);
  g_free (receiver.out);
  g_free (receiver.dir);
  return rc;
}
