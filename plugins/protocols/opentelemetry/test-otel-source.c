/* SPDX-License-Identifier: GPL-2.0-or-later */
/* opentelemetry() source end to end: the real sluiced receives from the
 * OpenTelemetry JavaScript SDK (its gRPC, protobuf and JSON exporters,
 * from the npm registry, installed once into the build tree) and from
 * curl (hand-written OTLP/JSON, refused signals, bad requests), and every
 * record and field is checked in what file() wrote. A request held by
 * flow control is answered only once its record was written, and with
 * 503 when the source stops first. */
#include "tests/functional/harness.h"
#include "plugins/protocols/opentelemetry/otel-test-node.h"

#include <jansson.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#define RECORDS 40

static json_t *
read_records (const gchar *path, guint *n)
{
  g_auto (GStrv) lines = sl_test_read_lines (path);
  g_assert_nonnull (lines);
  json_t *all = json_array ();
  for (guint i = 0; lines[i]; i++)
    {
      if (!*lines[i])
        continue;
      json_error_t jerr;
      /* the JSON, then the stamp the line's template wrote after it */
      json_t *j = json_loads (lines[i], JSON_DISABLE_EOF_CHECK, &jerr);
      if (!j)
        {
          g_test_fail_printf ("not JSON: %s", lines[i]);
          break;
        }
      json_object_set_new (j, "line", json_string (lines[i]));
      json_array_append_new (all, j);
    }
  *n = (guint) json_array_size (all);
  return all;
}

/* The value at a path of keys such as "_otel/log/attributes/grpc/index" */
static const gchar *
at (json_t *j, const gchar *path)
{
  g_auto (GStrv) keys = g_strsplit (path, "/", -1);
  for (guint i = 0; keys[i] && j; i++)
    j = json_object_get (j, keys[i]);
  return j && json_is_string (j) ? json_string_value (j) : NULL;
}

static json_t *
find_record (json_t *all, const gchar *message)
{
  gsize i;
  json_t *j;
  json_array_foreach (all, i, j)
    if (g_strcmp0 (at (j, "MESSAGE"), message) == 0)
      return j;
  return NULL;
}

static const gchar *const CONFIG_SDK =
  "source s_grpc { opentelemetry(port(@GRPC@)); };\n"
  "source s_http { opentelemetry(transport(\"http\") port(@HTTP@)); };\n"
  "destination d_file { file(\"@DIR@/out.json\" template(\"$(format-json --scope nv-pairs --key .otel.* "
  "--key HOST --key MESSAGE --key PRIORITY --key FACILITY) $ISODATE\\n\")); };\n"
  "log { source(s_grpc); source(s_http); destination(d_file); flags(flow-control); };\n";

/* The emitter's records, as otel-emit.js describes them */
static void
check_sdk_record (json_t *all, const gchar *label, guint i)
{
  static const struct { const gchar *number, *text, *priority; } severities[] = {
    { "5", "DEBUG", "debug" }, { "9", "INFO", "info" }, { "13", "WARN", "warning" },
    { "17", "ERROR", "err" }, { "21", "FATAL", "emerg" },
  };
  g_autofree gchar *body = g_strdup_printf ("%s record %u", label, i);
  json_t *r = find_record (all, body);
  if (!r)
    g_printerr ("no record '%s'\n", body);
  g_assert_nonnull (r);
  g_assert_cmpstr (at (r, "_otel/log/body"), ==, body);
  g_assert_cmpstr (at (r, "_otel/type"), ==, "log");
  g_assert_cmpstr (at (r, "_otel/log/severity_number"), ==, severities[i % 5].number);
  g_assert_cmpstr (at (r, "_otel/log/severity_text"), ==, severities[i % 5].text);
  g_assert_cmpstr (at (r, "PRIORITY"), ==, severities[i % 5].priority);
  g_assert_cmpstr (at (r, "FACILITY"), ==, "user");
  g_autofree gchar *nanos = g_strdup_printf ("%" G_GUINT64_FORMAT, (guint64) ((1700000000000ull + i) * 1000000ull));
  g_assert_cmpstr (at (r, "_otel/log/time_unix_nano"), ==, nanos);
  g_assert_nonnull (at (r, "_otel/log/observed_time_unix_nano"));
  g_autofree gchar *prefix = g_strdup_printf ("_otel/log/attributes/%s/", label);
  g_autofree gchar *index_path = g_strconcat (prefix, "index", NULL);
  g_autofree gchar *even_path = g_strconcat (prefix, "even", NULL);
  g_autofree gchar *ratio_path = g_strconcat (prefix, "ratio", NULL);
  g_autofree gchar *tags_path = g_strconcat (prefix, "tags", NULL);
  g_autofree gchar *index = g_strdup_printf ("%u", i);
  gchar ratio[G_ASCII_DTOSTR_BUF_SIZE];
  g_ascii_dtostr (ratio, sizeof ratio, i / 4.0);
  /* an array of strings alone is a list, as syslog-ng 4 keeps it */
  g_autofree gchar *tags = g_strdup_printf ("%s,x", label);
  g_assert_cmpstr (at (r, index_path), ==, index);
  g_assert_cmpstr (at (r, even_path), ==, i % 2 ? "false" : "true");
  g_assert_cmpstr (at (r, ratio_path), ==, ratio);
  g_assert_cmpstr (at (r, tags_path), ==, tags);
  g_assert_cmpstr (at (r, "_otel/resource/attributes/service/name"), ==, "otel-emit");
  g_assert_cmpstr (at (r, "_otel/resource/attributes/host/name"), ==, "emit-host");
  g_assert_cmpstr (at (r, "_otel/resource/attributes/run/kind"), ==, label);
  g_assert_cmpstr (at (r, "_otel/scope/name"), ==, "otel-emit-scope");
  g_assert_cmpstr (at (r, "_otel/scope/version"), ==, "1.2.3");
  g_assert_cmpstr (at (r, "HOST"), ==, "emit-host");
  g_assert_cmpstr (at (r, "HOST_FROM"), ==, "127.0.0.1");
  /* the record's time is the message's stamp, in UTC */
  g_assert_true (g_str_has_suffix (at (r, "line"), "} 2023-11-14T22:13:20+00:00"));
}

/* Runs otel-emit.js with count records for each target; env: more
 * variables for node, NULL-terminated pairs of name and value. */
static void
run_emitter (guint count, const gchar *const *targets, const gchar *const *env)
{
  g_autofree gchar *script = otel_test_source_path ("plugins/protocols/opentelemetry/otel-emit.js");
  g_autofree gchar *n = g_strdup_printf ("%u", count);
  for (guint i = 0; env && env[i]; i += 2)
    g_setenv (env[i], env[i + 1], TRUE);
  GPtrArray *argv = g_ptr_array_new ();
  g_ptr_array_add (argv, "node");
  g_ptr_array_add (argv, script);
  g_ptr_array_add (argv, n);
  for (guint i = 0; targets[i]; i++)
    g_ptr_array_add (argv, (gpointer) targets[i]);
  g_ptr_array_add (argv, NULL);
  g_autofree gchar *out = NULL, *err = NULL;
  gint status = sl_test_run_argv ((const gchar *const *) argv->pdata, &out, &err);
  g_ptr_array_unref (argv);
  for (guint i = 0; env && env[i]; i += 2)
    g_unsetenv (env[i]);
  if (status != 0)
    g_printerr ("otel-emit.js:\n%s%s", out ? out : "", err ? err : "");
  g_assert_cmpint (status, ==, 0);
}

/* The SDK's three exporters (and the HTTP ones with gzip), RECORDS records
 * each, from one run of node. */
static void
test_sdk (SlTestEnv *env, gconstpointer data)
{
  guint16 grpc = sl_test_free_port (SOCK_STREAM), http = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *grpc_s = g_strdup_printf ("%u", grpc), *http_s = g_strdup_printf ("%u", http);
  if (!otel_test_node_ready () || !sl_test_write_config (env, CONFIG_SDK, "GRPC", grpc_s, "HTTP", http_s, NULL)
      || !sl_test_daemon_start (env))
    return;
  g_autofree gchar *t_grpc = g_strdup_printf ("grpc=http://127.0.0.1:%u", grpc);
  g_autofree gchar *t_proto = g_strdup_printf ("proto=http://127.0.0.1:%u/v1/logs", http);
  g_autofree gchar *t_http = g_strdup_printf ("http=http://127.0.0.1:%u/v1/logs", http);
  g_autofree gchar *t_protogz = g_strdup_printf ("proto+gzip=http://127.0.0.1:%u/v1/logs", http);
  g_autofree gchar *t_httpgz = g_strdup_printf ("http+gzip=http://127.0.0.1:%u/v1/logs", http);
  const gchar *targets[] = { t_grpc, t_proto, t_http, t_protogz, t_httpgz, NULL };
  run_emitter (RECORDS, targets, NULL);
  /* every export was answered success, so every record is in the file */
  g_autofree gchar *path = sl_test_path (env, "out.json");
  g_assert_cmpuint (sl_test_count_lines (path), ==, 5 * RECORDS);
  guint n;
  json_t *all = read_records (path, &n);
  const gchar *labels[] = { "grpc", "proto", "http", "protogz", "httpgz" };
  for (guint l = 0; l < G_N_ELEMENTS (labels); l++)
    for (guint i = 0; i < RECORDS; i++)
      check_sdk_record (all, labels[l], i);
  json_decref (all);
  g_assert_cmpint (sl_test_stat (env, "source", "s_grpc", "received"), ==, RECORDS);
  g_assert_cmpint (sl_test_stat (env, "source", "s_http", "received"), ==, 4 * RECORDS);
}

static const gchar *const CONFIG_TLS =
  "source s_grpc { opentelemetry(port(@GRPC@) tls(key-file(\"@DIR@/key.pem\") cert-file(\"@DIR@/cert.pem\") "
  "peer-verify(optional-untrusted))); };\n"
  "source s_http { opentelemetry(transport(\"http\") port(@HTTP@) tls(key-file(\"@DIR@/key.pem\") "
  "cert-file(\"@DIR@/cert.pem\") peer-verify(optional-untrusted))); };\n"
  "destination d_file { file(\"@DIR@/out.json\" template(\"$(format-json --scope nv-pairs --key .otel.* "
  "--key HOST --key MESSAGE --key PRIORITY --key FACILITY) $ISODATE\\n\")); };\n"
  "log { source(s_grpc); source(s_http); destination(d_file); flags(flow-control); };\n";

/* The same over TLS: gRPC negotiates h2 by ALPN, HTTP is HTTP/1.1 inside
 * TLS; the SDK trusts the test's self-signed certificate. */
static void
test_tls (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *key = sl_test_path (env, "key.pem"), *cert = sl_test_path (env, "cert.pem");
  const gchar *openssl[] = { "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                             "-nodes", "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=localhost",
                             "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost", NULL };
  g_assert_cmpint (sl_test_run_argv (openssl, NULL, NULL), ==, 0);
  guint16 grpc = sl_test_free_port (SOCK_STREAM), http = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *grpc_s = g_strdup_printf ("%u", grpc), *http_s = g_strdup_printf ("%u", http);
  if (!otel_test_node_ready () || !sl_test_write_config (env, CONFIG_TLS, "GRPC", grpc_s, "HTTP", http_s, NULL)
      || !sl_test_daemon_start (env))
    return;
  g_autofree gchar *t_grpc = g_strdup_printf ("grpc=https://127.0.0.1:%u", grpc);
  g_autofree gchar *t_proto = g_strdup_printf ("proto=https://127.0.0.1:%u/v1/logs", http);
  g_autofree gchar *t_http = g_strdup_printf ("http+gzip=https://127.0.0.1:%u/v1/logs", http);
  const gchar *targets[] = { t_grpc, t_proto, t_http, NULL };
  const gchar *node_env[] = { "NODE_EXTRA_CA_CERTS", cert, "OTEL_EXPORTER_OTLP_CERTIFICATE", cert, NULL };
  run_emitter (RECORDS / 4, targets, node_env);
  g_autofree gchar *path = sl_test_path (env, "out.json");
  g_assert_cmpuint (sl_test_count_lines (path), ==, 3 * (RECORDS / 4));
  guint n;
  json_t *all = read_records (path, &n);
  const gchar *labels[] = { "grpc", "proto", "httpgz" };
  for (guint l = 0; l < G_N_ELEMENTS (labels); l++)
    for (guint i = 0; i < RECORDS / 4; i++)
      check_sdk_record (all, labels[l], i);
  json_decref (all);
  /* a client that does not speak TLS is refused and counted */
  g_assert_true (sl_test_tcp_send (http, "POST /v1/logs HTTP/1.1\r\n\r\n"));
  g_assert_true (sl_test_wait_stat (env, "source", "s_http", "tls_refused", 1));
}

/* curl's answer: the status line's code and the headers */
static gint
curl (const gchar *const *args, gchar **headers)
{
  GPtrArray *argv = g_ptr_array_new ();
  g_ptr_array_add (argv, "curl");
  g_ptr_array_add (argv, "-sS");
  g_ptr_array_add (argv, "-o");
  g_ptr_array_add (argv, "/dev/null");
  g_ptr_array_add (argv, "-D");
  g_ptr_array_add (argv, "-");
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_autofree gchar *out = NULL, *err = NULL;
  gint status = sl_test_run_argv ((const gchar *const *) argv->pdata, &out, &err);
  g_ptr_array_unref (argv);
  g_assert_cmpint (status, ==, 0);
  gint code = 0;
  /* the last status line: a 100 Continue may come first */
  for (gchar *line = out; line && (line = strstr (line, "HTTP/")); line++)
    code = atoi (strchr (line, ' ') + 1);
  if (headers)
    *headers = g_steal_pointer (&out);
  return code;
}

static const gchar *const CONFIG_ONE_HTTP =
  "source s_http { opentelemetry(transport(\"http\") port(@HTTP@)); };\n"
  "source s_grpc { opentelemetry(port(@GRPC@)); };\n"
  "destination d_file { file(\"@DIR@/out.json\" template(\"$(format-json --scope nv-pairs --key .otel.* "
  "--key HOST --key MESSAGE --key PRIORITY) $UNIXTIME\\n\")); };\n"
  "log { source(s_http); source(s_grpc); destination(d_file); flags(flow-control); };\n";

/* OTLP/JSON as the specification writes it: hex ids, 64-bit integers as
 * strings, a key-value list body, bytes in base64, schema URLs. */
static const gchar *const JSON_REQUEST =
  "{\"resourceLogs\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\",\"value\":{\"stringValue\":\"checkout\"}},"
  "{\"key\":\"k8s.pod.uid\",\"value\":{\"bytesValue\":\"AAEC\"}}],\"droppedAttributesCount\":2},"
  "\"schemaUrl\":\"https://opentelemetry.io/schemas/1.24.0\","
  "\"scopeLogs\":[{\"scope\":{\"name\":\"lib\",\"version\":\"9\",\"attributes\":[{\"key\":\"lib.mode\","
  "\"value\":{\"stringValue\":\"fast\"}}]},"
  "\"logRecords\":[{\"timeUnixNano\":\"1700000001500000000\",\"observedTimeUnixNano\":1700000002000000000,"
  "\"severityNumber\":17,\"severityText\":\"ERROR\",\"traceId\":\"5b8efff798038103d269b633813fc60c\","
  "\"spanId\":\"eee19b7ec3c1b174\",\"flags\":1,\"body\":{\"kvlistValue\":{\"values\":[{\"key\":\"user\","
  "\"value\":{\"stringValue\":\"ann\"}},{\"key\":\"n\",\"value\":{\"intValue\":\"7\"}}]}},"
  "\"attributes\":[{\"key\":\"http.status\",\"value\":{\"intValue\":\"503\"}},{\"key\":\"retry\","
  "\"value\":{\"boolValue\":true}},{\"key\":\"cost\",\"value\":{\"doubleValue\":0.1}}],"
  "\"droppedAttributesCount\":1,\"eventName\":\"checkout.failed\"},"
  "{\"severityNumber\":\"SEVERITY_NUMBER_WARN\",\"body\":{\"stringValue\":\"second\"}}]}]}]}";

/* Attributes keep their OTLP types, as syslog-ng 4's otel parser gives
 * them: $(format-json) of a 4.x configuration writes them typed. */
static const gchar *const CONFIG_TYPED =
  "@version: 4.8\n"
  "source s_http { opentelemetry(transport(\"http\") port(@HTTP@)); };\n"
  "destination d_file { file(\"@DIR@/out.json\" template(\"$(format-json --key .otel.log.attributes.*)\\n\")); };\n"
  "log { source(s_http); destination(d_file); flags(flow-control); };\n";

static const gchar *const TYPED_REQUEST =
  "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"body\":{\"stringValue\":\"typed\"},\"attributes\":["
  "{\"key\":\"i\",\"value\":{\"intValue\":\"503\"}},{\"key\":\"b\",\"value\":{\"boolValue\":true}},"
  "{\"key\":\"d\",\"value\":{\"doubleValue\":2.5}},{\"key\":\"s\",\"value\":{\"stringValue\":\"7\"}},"
  "{\"key\":\"l\",\"value\":{\"arrayValue\":{\"values\":[{\"stringValue\":\"a\"},{\"stringValue\":\"b,c\"}]}}},"
  "{\"key\":\"m\",\"value\":{\"arrayValue\":{\"values\":[{\"intValue\":\"1\"},{\"stringValue\":\"x\"}]}}},"
  "{\"key\":\"n\",\"value\":{}}]}]}]}]}";

static void
test_typed_attributes (SlTestEnv *env, gconstpointer data)
{
  guint16 http = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *http_s = g_strdup_printf ("%u", http);
  if (!sl_test_write_config (env, CONFIG_TYPED, "HTTP", http_s, NULL) || !sl_test_daemon_start (env))
    return;
  g_autofree gchar *url = g_strdup_printf ("http://127.0.0.1:%u/v1/logs", http);
  const gchar *args[] = { "-H", "Content-Type: application/json", "--data-binary", TYPED_REQUEST, url, NULL };
  g_assert_cmpint (curl (args, NULL), ==, 200);
  g_autofree gchar *path = sl_test_path (env, "out.json");
  g_assert_true (sl_test_wait_lines (env, path, 1));
  g_autofree gchar *line = sl_test_read_file (path);
  g_assert_cmpstr (line, ==, "{\"_otel\":{\"log\":{\"attributes\":{\"s\":\"7\",\"n\":null,\"m\":\"[1,\\\"x\\\"]\","
                   "\"l\":[\"a\",\"b,c\"],\"i\":503,\"d\":2.5,\"b\":true}}}}\n");
}

static void
test_json (SlTestEnv *env, gconstpointer data)
{
  guint16 http = sl_test_free_port (SOCK_STREAM), grpc = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *http_s = g_strdup_printf ("%u", http), *grpc_s = g_strdup_printf ("%u", grpc);
  if (!sl_test_write_config (env, CONFIG_ONE_HTTP, "HTTP", http_s, "GRPC", grpc_s, NULL) || !sl_test_daemon_start (env))
    return;
  g_autofree gchar *url = g_strdup_printf ("http://127.0.0.1:%u/v1/logs", http);
  g_autofree gchar *headers = NULL;
  const gchar *args[] = { "-H", "Content-Type: application/json", "--data-binary", JSON_REQUEST, url, NULL };
  g_assert_cmpint (curl (args, &headers), ==, 200);
  g_assert_nonnull (strstr (headers, "application/json"));
  g_autofree gchar *path = sl_test_path (env, "out.json");
  g_assert_cmpuint (sl_test_count_lines (path), ==, 2);
  guint n;
  json_t *all = read_records (path, &n);
  json_t *r = find_record (all, "{\"user\":\"ann\",\"n\":7}");
  g_assert_nonnull (r);
  g_assert_cmpstr (at (r, "_otel/log/trace_id"), ==, "5b8efff798038103d269b633813fc60c");
  g_assert_cmpstr (at (r, "_otel/log/span_id"), ==, "eee19b7ec3c1b174");
  g_assert_cmpstr (at (r, "_otel/log/flags"), ==, "1");
  g_assert_cmpstr (at (r, "_otel/log/time_unix_nano"), ==, "1700000001500000000");
  g_assert_cmpstr (at (r, "_otel/log/observed_time_unix_nano"), ==, "1700000002000000000");
  g_assert_cmpstr (at (r, "_otel/log/severity_number"), ==, "17");
  g_assert_cmpstr (at (r, "PRIORITY"), ==, "err");
  g_assert_cmpstr (at (r, "_otel/log/attributes/http/status"), ==, "503");
  g_assert_cmpstr (at (r, "_otel/log/attributes/retry"), ==, "true");
  g_assert_cmpstr (at (r, "_otel/log/attributes/cost"), ==, "0.1");
  g_assert_cmpstr (at (r, "_otel/log/dropped_attributes_count"), ==, "1");
  g_assert_cmpstr (at (r, "_otel/log/event_name"), ==, "checkout.failed");
  g_assert_cmpstr (at (r, "_otel/resource/attributes/service/name"), ==, "checkout");
  g_assert_cmpstr (at (r, "_otel/resource/attributes/k8s/pod/uid"), ==, "AAEC");
  g_assert_cmpstr (at (r, "_otel/resource/dropped_attributes_count"), ==, "2");
  g_assert_cmpstr (at (r, "_otel/resource/schema_url"), ==, "https://opentelemetry.io/schemas/1.24.0");
  g_assert_cmpstr (at (r, "_otel/scope/name"), ==, "lib");
  g_assert_cmpstr (at (r, "_otel/scope/version"), ==, "9");
  g_assert_cmpstr (at (r, "_otel/scope/attributes/lib/mode"), ==, "fast");
  /* no host.name: the sender's address */
  g_assert_cmpstr (at (r, "HOST"), ==, "127.0.0.1");
  /* the message's stamp is the record's time: $UNIXTIME after the JSON */
  g_assert_true (g_str_has_suffix (at (r, "line"), "} 1700000001"));
  json_t *second = find_record (all, "second");
  g_assert_nonnull (second);
  g_assert_cmpstr (at (second, "_otel/log/severity_number"), ==, "13");
  g_assert_cmpstr (at (second, "PRIORITY"), ==, "warning");
  json_decref (all);
}

/* Traces and metrics are refused with the status each transport has for
 * it, and bad requests are answered, counted and survived. */
static void
test_refused (SlTestEnv *env, gconstpointer data)
{
  guint16 http = sl_test_free_port (SOCK_STREAM), grpc = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *http_s = g_strdup_printf ("%u", http), *grpc_s = g_strdup_printf ("%u", grpc);
  if (!sl_test_write_config (env, CONFIG_ONE_HTTP, "HTTP", http_s, "GRPC", grpc_s, NULL) || !sl_test_daemon_start (env))
    return;
  g_autofree gchar *traces = g_strdup_printf ("http://127.0.0.1:%u/v1/traces", http);
  g_autofree gchar *metrics = g_strdup_printf ("http://127.0.0.1:%u/v1/metrics", http);
  g_autofree gchar *logs = g_strdup_printf ("http://127.0.0.1:%u/v1/logs", http);
  const gchar *to_traces[] = { "-H", "Content-Type: application/x-protobuf", "--data-binary", "", traces, NULL };
  g_assert_cmpint (curl (to_traces, NULL), ==, 404);
  const gchar *to_metrics[] = { "-H", "Content-Type: application/json", "--data-binary", "{}", metrics, NULL };
  g_assert_cmpint (curl (to_metrics, NULL), ==, 404);
  const gchar *get[] = { logs, NULL };
  g_assert_cmpint (curl (get, NULL), ==, 405);
  const gchar *text[] = { "-H", "Content-Type: text/plain", "--data-binary", "hello", logs, NULL };
  g_assert_cmpint (curl (text, NULL), ==, 415);
  const gchar *bad_json[] = { "-H", "Content-Type: application/json", "--data-binary", "{\"resourceLogs\":7}", logs, NULL };
  g_assert_cmpint (curl (bad_json, NULL), ==, 400);
  /* two members of a oneof, and a bad value deep inside: refused whole */
  const gchar *two_of_oneof[] = { "-H", "Content-Type: application/json", "--data-binary",
                                  "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"body\":"
                                  "{\"stringValue\":\"ok\",\"intValue\":\"3\"}}]}]}]}", logs, NULL };
  g_assert_cmpint (curl (two_of_oneof, NULL), ==, 400);
  const gchar *deep[] = { "-H", "Content-Type: application/json", "--data-binary",
                          "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"attributes\":[{\"key\":\"k\","
                          "\"value\":{\"arrayValue\":{\"values\":[{\"intValue\":\"x\"}]}}}]}]}]}]}", logs, NULL };
  g_assert_cmpint (curl (deep, NULL), ==, 400);
  const gchar *bad_proto[] = { "-H", "Content-Type: application/x-protobuf", "--data-binary", "\xff\xff\xff", logs, NULL };
  g_assert_cmpint (curl (bad_proto, NULL), ==, 400);
  const gchar *bad_gzip[] = { "-H", "Content-Type: application/x-protobuf", "-H", "Content-Encoding: gzip",
                              "--data-binary", "not gzip", logs, NULL };
  g_assert_cmpint (curl (bad_gzip, NULL), ==, 400);
  /* gRPC: a trace export gets UNIMPLEMENTED (12) in a headers-only answer */
  g_autofree gchar *trace_service = g_strdup_printf ("http://127.0.0.1:%u/opentelemetry.proto.collector.trace.v1.TraceService/Export", grpc);
  g_autofree gchar *headers = NULL;
  const gchar *grpc_trace[] = { "--http2-prior-knowledge", "-H", "Content-Type: application/grpc", "-H", "TE: trailers",
                                "--data-binary", "", trace_service, NULL };
  g_assert_cmpint (curl (grpc_trace, &headers), ==, 200);
  g_assert_nonnull (strstr (headers, "grpc-status: 12"));
  /* a logs export that is not a length-prefixed message: INVALID_ARGUMENT (3) */
  g_autofree gchar *logs_service = g_strdup_printf ("http://127.0.0.1:%u/opentelemetry.proto.collector.logs.v1.LogsService/Export", grpc);
  g_free (g_steal_pointer (&headers));
  const gchar *grpc_bad[] = { "--http2-prior-knowledge", "-H", "Content-Type: application/grpc", "-H", "TE: trailers",
                              "--data-binary", "xy", logs_service, NULL };
  g_assert_cmpint (curl (grpc_bad, &headers), ==, 200);
  g_assert_nonnull (strstr (headers, "grpc-status: 3"));
  g_assert_cmpint (sl_test_stat (env, "source", "s_http", "errors"), ==, 5);
  g_assert_cmpint (sl_test_stat (env, "source", "s_grpc", "errors"), ==, 1);
  g_autofree gchar *path = sl_test_path (env, "out.json");
  g_assert_cmpuint (sl_test_count_lines (path), ==, 0);
}

static const gchar *const CONFIG_HELD =
  "source s_http { opentelemetry(transport(\"http\") port(@HTTP@)); };\n"
  "destination d_tcp { tcp(\"127.0.0.1\" port(@DOWN@) time-reopen(1) template(\"$MESSAGE\\n\")); };\n"
  "log { source(s_http); destination(d_tcp); flags(flow-control); };\n";

/* A request whose record a flow-controlled destination cannot write yet
 * is not answered; a stop answers it 503 with Retry-After, so the
 * client sends it again to the next receiver. */
static void
test_held (SlTestEnv *env, gconstpointer data)
{
  guint16 http = sl_test_free_port (SOCK_STREAM), down = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *http_s = g_strdup_printf ("%u", http), *down_s = g_strdup_printf ("%u", down);
  if (!sl_test_write_config (env, CONFIG_HELD, "HTTP", http_s, "DOWN", down_s, NULL) || !sl_test_daemon_start (env))
    return;
  g_autofree gchar *url = g_strdup_printf ("http://127.0.0.1:%u/v1/logs", http);
  g_autofree gchar *answer = sl_test_path (env, "answer");
  g_autofree gchar *curl_err = sl_test_path (env, "curl.stderr");
  const gchar *argv[] = { "curl", "-sS", "-o", "/dev/null", "-D", answer, "-H", "Content-Type: application/json",
                          "--data-binary",
                          "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"body\":{\"stringValue\":\"held\"}}]}]}]}",
                          url, NULL };
  GPid pid = sl_test_spawn_argv (argv, curl_err);
  g_assert_true (pid);
  /* the record is in the destination's queue; its request is not answered */
  g_assert_true (sl_test_wait_stat (env, "source", "s_http", "received", 1));
  g_assert_true (sl_test_wait_stderr (env, "cannot connect"));
  gint status;
  g_assert_false (sl_test_child_exited (pid, &status));
  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
  g_assert_cmpint (sl_test_child_wait (pid, SL_TEST_DEADLINE_MS * 1000), ==, 0);
  g_autofree gchar *headers = sl_test_read_file (answer);
  g_assert_nonnull (headers);
  g_assert_true (g_str_has_prefix (headers, "HTTP/1.1 503"));
  g_assert_nonnull (strstr (headers, "Retry-After: 5"));
}

/* Held the same way, the answer comes once the destination wrote the record. */
static void
test_answered_when_written (SlTestEnv *env, gconstpointer data)
{
  guint16 http = sl_test_free_port (SOCK_STREAM), down = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *http_s = g_strdup_printf ("%u", http), *down_s = g_strdup_printf ("%u", down);
  if (!sl_test_write_config (env, CONFIG_HELD, "HTTP", http_s, "DOWN", down_s, NULL) || !sl_test_daemon_start (env))
    return;
  g_autofree gchar *url = g_strdup_printf ("http://127.0.0.1:%u/v1/logs", http);
  g_autofree gchar *answer = sl_test_path (env, "answer");
  g_autofree gchar *curl_err = sl_test_path (env, "curl.stderr");
  const gchar *argv[] = { "curl", "-sS", "-o", "/dev/null", "-D", answer, "-H", "Content-Type: application/json",
                          "--data-binary",
                          "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"body\":{\"stringValue\":\"held\"}}]}]}]}",
                          url, NULL };
  GPid pid = sl_test_spawn_argv (argv, curl_err);
  g_assert_true (pid);
  g_assert_true (sl_test_wait_stat (env, "source", "s_http", "received", 1));
  g_assert_true (sl_test_wait_stderr (env, "cannot connect"));
  gint status;
  g_assert_false (sl_test_child_exited (pid, &status));
  /* the destination's peer comes up: the record is written, then answered */
  gint lfd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  gint one = 1;
  setsockopt (lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons (down), .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  g_assert_cmpint (bind (lfd, (struct sockaddr *) &sin, sizeof sin), ==, 0);
  g_assert_cmpint (listen (lfd, 1), ==, 0);
  struct pollfd pfd = { lfd, POLLIN, 0 };
  gboolean connected = poll (&pfd, 1, SL_TEST_DEADLINE_MS * 3) == 1;
  gint cfd = connected ? accept (lfd, NULL, NULL) : -1;
  close (lfd);
  if (cfd < 0)
    {
      g_test_fail_printf ("the destination did not connect");
      return;
    }
  g_assert_cmpint (sl_test_child_wait (pid, SL_TEST_DEADLINE_MS * 1000), ==, 0);
  g_autofree gchar *headers = sl_test_read_file (answer);
  g_assert_true (g_str_has_prefix (headers, "HTTP/1.1 200"));
  gchar line[16] = "";
  pfd = (struct pollfd) { cfd, POLLIN, 0 };
  if (poll (&pfd, 1, SL_TEST_DEADLINE_MS) == 1)
    g_assert_cmpint (recv (cfd, line, sizeof line - 1, 0), ==, 5);
  close (cfd);
  g_assert_cmpstr (line, ==, "held\n");
}

static void
test_bad_config (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *err = sl_test_refused_config (env, "source s { opentelemetry(max-request-size(0)); };\n"
                                                      "log { source(s); };\n", NULL);
  g_assert_nonnull (strstr (err, "sluice.conf:1:26: max-request-size() must be between 1 byte and 2 GiB"));
}

/* Three silent connections fill max-connections(3) on transport (the
 * source's option text); then curl's export (the arguments before the
 * URL, path on the source's port) is answered with status, and the silent
 * ones are made room for or closed at first-message-timeout(): what came
 * before, then the end. curl's headers in *headers. */
static void
silent_connections_make_room (SlTestEnv *env, const gchar *transport, const gchar *const *curl_args,
                              const gchar *path, gint status, gchar **headers)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_s = g_strdup_printf ("%u", port);
  if (!sl_test_write_config (env,
                             "source s_otlp { opentelemetry(@TRANSPORT@ port(@PORT@) max-connections(3)"
                             " first-message-timeout(2)); };\n"
                             "destination d_file { file(\"@DIR@/out.log\"); };\n"
                             "log { source(s_otlp); destination(d_file); };\n",
                             "TRANSPORT", transport, "PORT", port_s, NULL)
      || !sl_test_daemon_start (env) || !sl_test_wait_tcp (env, port))
    return;
  gint silent[3];
  for (guint i = 0; i < G_N_ELEMENTS (silent); i++)
    g_assert_cmpint ((silent[i] = sl_test_tcp_connect (port)), >=, 0);
  g_autofree gchar *url = g_strdup_printf ("http://127.0.0.1:%u%s", port, path);
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  for (guint i = 0; curl_args[i]; i++)
    g_ptr_array_add (args, (gpointer) curl_args[i]);
  g_ptr_array_add (args, url);
  g_ptr_array_add (args, NULL);
  g_assert_cmpint (curl ((const gchar **) args->pdata, headers), ==, status);
  /* sl_test_wait_tcp()'s probe may still hold a place when the silent
   * ones come (its end not read yet, as under a sanitizer): then it is
   * made room for as well */
  gint64 deadline = g_get_monotonic_time () + SL_TEST_DEADLINE_MS * 1000;
  gint64 evicted = 0, closed = 0;
  while (!(evicted >= 1 && evicted + closed >= 3) && g_get_monotonic_time () < deadline)
    {
      g_usleep (50000);
      evicted = sl_test_stat_if_any (env, "source", "s_otlp", "evicted_no_message");
      closed = sl_test_stat_if_any (env, "source", "s_otlp", "no_message_closed");
    }
  g_assert_cmpint (evicted, >=, 1);
  g_assert_cmpint (evicted + closed, >=, 3);
  for (guint i = 0; i < G_N_ELEMENTS (silent); i++)
    {
      gchar buf[256];
      struct pollfd p = { .fd = silent[i], .events = POLLIN };
      gssize n = 1;
      while (n > 0 && poll (&p, 1, SL_TEST_DEADLINE_MS) == 1)
        n = read (silent[i], buf, sizeof buf);
      g_assert_cmpint (n, <=, 0);
      close (silent[i]);
    }
}

/* gRPC connections that fill max-connections() and never say a word keep
 * no exporter out: the next one takes the oldest silent one's place and
 * is answered; the others are closed at first-message-timeout(). */
static void
test_silent_connections_make_room (SlTestEnv *env, gconstpointer data)
{
  static const gchar *const export[] = { "--max-time", "20", "--http2-prior-knowledge", "-H",
                                         "Content-Type: application/grpc", "-H", "TE: trailers", "--data-binary", "",
                                         NULL };
  g_autofree gchar *headers = NULL;
  silent_connections_make_room (env, "", export, "/opentelemetry.proto.collector.trace.v1.TraceService/Export", 200,
                                &headers);
  g_assert_nonnull (headers);
  g_assert_nonnull (strstr (headers, "grpc-status: 12"));
}

/* OTLP/HTTP's connections are admitted by the same listener: silent ones
 * that fill max-connections() make room for a client that asks, and the
 * others are closed at first-message-timeout(), which libmicrohttpd's
 * own limits never did. */
static void
test_http_silent_connections_make_room (SlTestEnv *env, gconstpointer data)
{
  static const gchar *const export[] = { "--max-time", "20", "-H", "Content-Type: application/x-protobuf",
                                         "--data-binary", "", NULL };
  g_autofree gchar *headers = NULL;
  silent_connections_make_room (env, "transport(\"http\")", export, "/v1/traces", 404, &headers);
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/opentelemetry/source/sdk", test_sdk);
  SL_TEST_ADD ("/opentelemetry/source/tls", test_tls);
  SL_TEST_ADD ("/opentelemetry/source/json", test_json);
  SL_TEST_ADD ("/opentelemetry/source/typed-attributes", test_typed_attributes);
  SL_TEST_ADD ("/opentelemetry/source/refused", test_refused);
  SL_TEST_ADD ("/opentelemetry/source/held-then-stopped", test_held);
  SL_TEST_ADD ("/opentelemetry/source/answered-when-written", test_answered_when_written);
  SL_TEST_ADD ("/opentelemetry/source/bad-config", test_bad_config);
  SL_TEST_ADD ("/opentelemetry/source/silent-connections-make-room", test_silent_connections_make_room);
  SL_TEST_ADD ("/opentelemetry/source/http-silent-connections-make-room", test_http_silent_connections_make_room);
  return g_test_run ();
}
