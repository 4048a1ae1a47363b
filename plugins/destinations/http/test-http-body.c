/* SPDX-License-Identifier: GPL-2.0-or-later */
/* http(): the option tables and the request bodies a write is cut into,
 * from drivers made from configuration text as the daemon makes them. */
#include "plugins/destinations/http/http-destination.h"
#include "tests/unit/plugin-fixture.h"
#include "core/compile/loader.h"

#include <string.h>
#include <zlib.h>

extern const SlModule sl_module;

typedef struct
{
  SlTestDriver t;
  HttpDestination *self;
} Http;

static gboolean
http_new (Http *h, const gchar *text, GError **error)
{
  gboolean ok = sl_test_driver_new (&h->t, SL_DRIVER_DESTINATION, NULL, text, error);
  h->self = ok ? (HttpDestination *) h->t.driver : NULL;
  return ok;
}

static SlMessage **
messages (guint n)
{
  SlMessage **msgs = g_new0 (SlMessage *, n);
  for (guint i = 0; i < n; i++)
    {
      gchar *text = g_strdup_printf ("message %u", i + 1);
      gchar *program = g_strdup_printf ("app%u", i + 1);
      msgs[i] = sl_test_message_new ("MESSAGE", text, "PROGRAM", program, "HOST", "web1", NULL);
      g_free (program);
      g_free (text);
    }
  return msgs;
}

static void
messages_free (SlMessage **msgs, guint n)
{
  for (guint i = 0; i < n; i++)
    sl_message_unref (msgs[i]);
  g_free (msgs);
}

/* The bodies of the requests n messages are cut into, joined by "|". */
static gchar *
bodies (Http *h, guint n)
{
  SlMessage **msgs = messages (n);
  guint *members = g_new (guint, n);
  for (guint i = 0; i < n; i++)
    members[i] = i;
  GString *all = g_string_new (NULL), *body = g_string_new (NULL);
  for (guint pos = 0; pos < n;)
    {
      pos += http_body_build (h->self, msgs, members + pos, n - pos, body);
      g_string_append_printf (all, "%s%s", all->len ? "|" : "", body->str);
    }
  g_string_free (body, TRUE);
  g_free (members);
  messages_free (msgs, n);
  return g_string_free (all, FALSE);
}

static void
test_json_lines (void)
{
  Http h;
  g_assert_true (http_new (&h, "http(url(\"http://127.0.0.1:1/\") batch-lines(2)"
                           " body(\"{\\\"msg\\\":\\\"$MESSAGE\\\"}\"))", NULL));
  g_autofree gchar *got = bodies (&h, 3);
  g_assert_cmpstr (got, ==, "{\"msg\":\"message 1\"}\n{\"msg\":\"message 2\"}|{\"msg\":\"message 3\"}");
  sl_test_driver_free (&h.t);
}

/* Elasticsearch's bulk API: an action line before each document and a
 * newline after the last one, as elasticsearch-http() writes it. */
static void
test_elasticsearch_bulk (void)
{
  Http h;
  g_assert_true (http_new (&h, "http(url(\"http://127.0.0.1:1/_bulk\") batch-lines(100)"
                           " body(\"{\\\"index\\\":{}}\\n{\\\"program\\\":\\\"$PROGRAM\\\"}\") body-suffix(\"\\n\"))", NULL));
  g_autofree gchar *got = bodies (&h, 2);
  g_assert_cmpstr (got, ==, "{\"index\":{}}\n{\"program\":\"app1\"}\n{\"index\":{}}\n{\"program\":\"app2\"}\n");
  sl_test_driver_free (&h.t);
}

/* Splunk HEC: events back to back, no delimiter. */
static void
test_splunk_hec (void)
{
  Http h;
  g_assert_true (http_new (&h, "http(url(\"http://127.0.0.1:1/services/collector/event\") batch-lines(10)"
                           " delimiter(\"\") body(\"{\\\"event\\\":\\\"$MESSAGE\\\",\\\"host\\\":\\\"$HOST\\\"}\"))", NULL));
  g_autofree gchar *got = bodies (&h, 2);
  g_assert_cmpstr (got, ==, "{\"event\":\"message 1\",\"host\":\"web1\"}{\"event\":\"message 2\",\"host\":\"web1\"}");
  sl_test_driver_free (&h.t);
}

static void
test_prefix_and_suffix (void)
{
  Http h;
  g_assert_true (http_new (&h, "http(url(\"http://127.0.0.1:1/\") batch-lines(3)"
                           " body-prefix(\"[\") delimiter(\",\") body-suffix(\"]\") body(\"\\\"$PROGRAM\\\"\"))", NULL));
  g_autofree gchar *got = bodies (&h, 4);
  g_assert_cmpstr (got, ==, "[\"app1\",\"app2\",\"app3\"]|[\"app4\"]");
  sl_test_driver_free (&h.t);
}

/* batch-bytes() cuts before a message would pass it; a message longer than
 * the limit goes alone rather than being split or lost. */
static void
test_batch_bytes (void)
{
  Http h;
  g_assert_true (http_new (&h, "http(url(\"http://127.0.0.1:1/\") batch-lines(100) batch-bytes(20))", NULL));
  g_autofree gchar *got = bodies (&h, 3);
  /* "message 1\nmessage 2" is 19 bytes; a third would make 29 */
  g_assert_cmpstr (got, ==, "message 1\nmessage 2|message 3");
  sl_test_driver_free (&h.t);

  g_assert_true (http_new (&h, "http(url(\"http://127.0.0.1:1/\") batch-lines(100) batch-bytes(4))", NULL));
  g_autofree gchar *alone = bodies (&h, 2);
  g_assert_cmpstr (alone, ==, "message 1|message 2");
  sl_test_driver_free (&h.t);
}

static void
test_gzip (void)
{
  Http h;
  g_assert_true (http_new (&h, "http(url(\"http://127.0.0.1:1/\") content-compression(\"gzip\") batch-lines(5))", NULL));
  SlMessage **msgs = messages (5);
  GString *body = g_string_new (NULL);
  static const guint all[] = { 0, 1, 2, 3, 4 };
  g_assert_cmpuint (http_body_build (h.self, msgs, all, 5, body), ==, 5);
  g_assert_true (http_body_compress (h.self, body));
  g_assert_cmpuint ((guchar) body->str[0], ==, 0x1f);
  g_assert_cmpuint ((guchar) body->str[1], ==, 0x8b);
  gchar plain[256];
  z_stream z = { 0 };
  g_assert_cmpint (inflateInit2 (&z, 16 + MAX_WBITS), ==, Z_OK);
  z.next_in = (Bytef *) body->str;
  z.avail_in = body->len;
  z.next_out = (Bytef *) plain;
  z.avail_out = sizeof plain;
  g_assert_cmpint (inflate (&z, Z_FINISH), ==, Z_STREAM_END);
  plain[z.total_out] = '\0';
  g_assert_cmpstr (plain, ==, "message 1\nmessage 2\nmessage 3\nmessage 4\nmessage 5");
  inflateEnd (&z);
  g_string_free (body, TRUE);
  messages_free (msgs, 5);
  sl_test_driver_free (&h.t);
}

static void
test_status_actions (void)
{
  Http h;
  g_assert_true (http_new (&h, "http(url(\"http://127.0.0.1:1/\") response-action(404 retry 503 drop))", NULL));
  g_assert_cmpint (http_status_action (h.self, 200), ==, HTTP_ACTION_SUCCESS);
  g_assert_cmpint (http_status_action (h.self, 204), ==, HTTP_ACTION_SUCCESS);
  g_assert_cmpint (http_status_action (h.self, 429), ==, HTTP_ACTION_RETRY);
  g_assert_cmpint (http_status_action (h.self, 500), ==, HTTP_ACTION_RETRY);
  g_assert_cmpint (http_status_action (h.self, 400), ==, HTTP_ACTION_DROP);
  g_assert_cmpint (http_status_action (h.self, 404), ==, HTTP_ACTION_RETRY);
  g_assert_cmpint (http_status_action (h.self, 503), ==, HTTP_ACTION_DROP);
  sl_test_driver_free (&h.t);
}

static void
assert_refused (const gchar *text, const gchar *needle)
{
  Http h;
  GError *error = NULL;
  g_assert_false (http_new (&h, text, &error));
  g_assert_nonnull (error);
  if (!strstr (error->message, needle))
    g_error ("expected '%s' in: %s", needle, error->message);
  g_error_free (error);
  sl_test_driver_free (&h.t);
}

static void
test_refused_options (void)
{
  assert_refused ("http(url(\"ftp://example.org/\"))", "http:// or https://");
  assert_refused ("http(url(\"http://a/\") response-action(404))", "pairs");
  assert_refused ("http(url(\"http://a/\") response-action(404 maybe))", "success, retry, drop, disconnect");
  assert_refused ("http(url(\"http://a/\") response-action(99 retry))", "no HTTP status");
  assert_refused ("http(url(\"http://a/\") method(\"PATCH\"))", "POST, PUT");
  assert_refused ("http(url(\"http://a/\") content-compression(\"brotli\"))", "identity, gzip");
  assert_refused ("http(url(\"http://a/\") batch-lines(0))", "at least 1");
  assert_refused ("http(url(\"http://a/\") tls(peer-verify(yes) ca-fil(\"x\")))", "ca-fil");
  /* what libcurl cannot do, refused where it is written */
  assert_refused ("http(url(\"https://a/\") tls(crl-dir(\"/crl\")))",
                  "http() tls(): crl-dir() cannot be used here: libcurl does not offer it");
  assert_refused ("http(url(\"https://a/\") ca-file(\"/ca.pem\") use-system-cert-store(yes))",
                  "use-system-cert-store() cannot be used with ca-file()");
  assert_refused ("http(url(\"https://a/\") tls(sni(no)))", "sni() cannot be no here");
}

/* Options in tls() and, as syslog-ng 3 takes them, in http() itself; a
 * size and a duration with suffixes. */
static void
test_tls_and_units (void)
{
  Http h;
  g_assert_true (http_new (&h, "http(url(\"https://127.0.0.1:1/\") tls(ca-file(\"/ca.pem\") cert-file(\"/c.pem\")"
                           " key-file(\"/k.pem\") peer-verify(no)) batch-bytes(1M) timeout(1500ms) batch-timeout(2s))", NULL));
  const SlTlsSettings *tls = sl_tls_block_settings (h.self->tls);
  g_assert_cmpstr (tls->ca_file, ==, "/ca.pem");
  g_assert_cmpstr (tls->cert_file, ==, "/c.pem");
  g_assert_cmpstr (tls->key_file, ==, "/k.pem");
  g_assert_false (tls->verify_trusted);
  g_assert_cmpint (h.self->batch_bytes, ==, 1024 * 1024);
  g_assert_cmpint (h.self->timeout_ms, ==, 1500);
  sl_test_driver_free (&h.t);

  g_assert_true (http_new (&h, "http(url(\"https://127.0.0.1:1/\") ca-file(\"/top.pem\"))", NULL));
  tls = sl_tls_block_settings (h.self->tls);
  g_assert_cmpstr (tls->ca_file, ==, "/top.pem");
  g_assert_true (tls->verify_trusted);
  sl_test_driver_free (&h.t);
}

/* bulk-response(auto) reads the replies of Elasticsearch's bulk endpoint */
static void
test_bulk_url (void)
{
  g_assert_true (http_bulk_url ("http://127.0.0.1:9200/_bulk"));
  g_assert_true (http_bulk_url ("https://es:9200/logs/_bulk/?refresh=true"));
  g_assert_true (http_bulk_url ("http://es/_bulk#x"));
  g_assert_false (http_bulk_url ("http://es/_bulkx"));
  g_assert_false (http_bulk_url ("http://es/"));
  g_assert_false (http_bulk_url ("http://es/a_bulk"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_assert_true (sl_plugins_register (&sl_module, __FILE__, NULL));
  g_test_add_func ("/http/body/json-lines", test_json_lines);
  g_test_add_func ("/http/body/elasticsearch-bulk", test_elasticsearch_bulk);
  g_test_add_func ("/http/body/bulk-url", test_bulk_url);
  g_test_add_func ("/http/body/splunk-hec", test_splunk_hec);
  g_test_add_func ("/http/body/prefix-and-suffix", test_prefix_and_suffix);
  g_test_add_func ("/http/body/batch-bytes", test_batch_bytes);
  g_test_add_func ("/http/body/gzip", test_gzip);
  g_test_add_func ("/http/options/status-actions", test_status_actions);
  g_test_add_func ("/http/options/refused", test_refused_options);
  g_test_add_func ("/http/options/tls-and-units", test_tls_and_units);
  return g_test_run ();
}
