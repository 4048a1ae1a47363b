/* SPDX-License-Identifier: GPL-2.0-or-later */
/* http() end to end: the real sluiced takes lines over TCP and sends them
 * to http-receiver (built beside this test) on loopback, which answers as
 * the test tells it and records every request. Batching, headers, status
 * handling, retries, failover between two URLs, TLS with a client
 * certificate, gzip, nothing lost while the receiver fails, and bodies of
 * typed values the same as syslog-ng 4.8's. */
#include "tests/functional/harness.h"

#include <glib/gstdio.h>

#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define RECEIVERS 2

typedef struct
{
  SlTestEnv env;
  GPid receiver[RECEIVERS];
  guint16 port[RECEIVERS];
} HttpTest;

static void
http_setup (HttpTest *t, gconstpointer data)
{
  memset (t, 0, sizeof *t);
  sl_test_env_setup (&t->env, data);
}

static void
http_teardown (HttpTest *t, gconstpointer data)
{
  for (guint i = 0; i < RECEIVERS; i++)
    if (t->receiver[i])
      {
        kill (t->receiver[i], SIGKILL);
        waitpid (t->receiver[i], NULL, 0);
        g_spawn_close_pid (t->receiver[i]);
      }
  sl_test_env_teardown (&t->env, data);
}

#define HTTP_TEST_ADD(path, func) \
  g_test_add ((path), HttpTest, NULL, http_setup, (func), http_teardown)

static gchar *
receiver_path (HttpTest *t, guint i, const gchar *what)
{
  g_autofree gchar *name = g_strdup_printf ("r%u-%s", i, what);
  return sl_test_path (&t->env, name);
}

/* Tells receiver i what to answer from now on ("200", "500/3", "stall"). */
static void
answer (HttpTest *t, guint i, const gchar *word)
{
  g_autofree gchar *control = receiver_path (t, i, "control");
  g_assert_true (g_file_set_contents (control, word, -1, NULL));
}

/* Waits until the receiver on port accepts connections (the harness's
 * wait is for sluiced). */
static gboolean
wait_receiver (guint16 port)
{
  struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons (port), .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  gint64 deadline = g_get_monotonic_time () + SL_TEST_DEADLINE_MS * 1000;
  while (g_get_monotonic_time () < deadline)
    {
      gint fd = socket (AF_INET, SOCK_STREAM, 0);
      gboolean up = connect (fd, (struct sockaddr *) &sin, sizeof sin) == 0;
      close (fd);
      if (up)
        return TRUE;
      g_usleep (10000);
    }
  g_test_fail_printf ("http-receiver does not accept connections on 127.0.0.1:%u", port);
  return FALSE;
}

/* Starts receiver i answering word; extra arguments (TLS) end with NULL. */
static gboolean
start_receiver (HttpTest *t, guint i, const gchar *word, ...)
{
  t->port[i] = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port = g_strdup_printf ("%u", t->port[i]);
  g_autofree gchar *out = receiver_path (t, i, "out");
  g_autofree gchar *dir = receiver_path (t, i, "requests");
  g_autofree gchar *control = receiver_path (t, i, "control");
  g_autofree gchar *program = g_build_filename (g_getenv ("SL_TOP_BUILDDIR"), "plugins", "destinations", "http",
                                                "http-receiver", NULL);
  g_mkdir (dir, 0700);
  answer (t, i, word);
  GPtrArray *argv = g_ptr_array_new ();
  const gchar *fixed[] = { program, "--port", port, "--out", out, "--dir", dir, "--control", control };
  for (guint k = 0; k < G_N_ELEMENTS (fixed); k++)
    g_ptr_array_add (argv, (gchar *) fixed[k]);
  va_list ap;
  va_start (ap, word);
  for (const gchar *a; (a = va_arg (ap, const gchar *));)
    g_ptr_array_add (argv, (gchar *) a);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  GError *error = NULL;
  gboolean ok = g_spawn_async (NULL, (gchar **) argv->pdata, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
                               &t->receiver[i], &error);
  g_ptr_array_free (argv, TRUE);
  g_assert_no_error (error);
  return ok && wait_receiver (t->port[i]);
}

/* Writes the configuration: a tcp() source, an http() destination with
 * options (@R0@ and @R1@ stand for the receivers' ports); the source's port. */
static guint16
start_sluiced (HttpTest *t, const gchar *options)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_text = g_strdup_printf ("%u", port);
  g_autofree gchar *r0 = g_strdup_printf ("%u", t->port[0]);
  g_autofree gchar *r1 = g_strdup_printf ("%u", t->port[1]);
  g_autofree gchar *text = g_strdup_printf (
    "@version: 4.0\n"
    "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
    "destination d_http { http(time-reopen(1) %s); };\n"
    "log { source(s_net); destination(d_http); flags(flow-control); };\n", options);
  if (!sl_test_write_config (&t->env, text, "PORT", port_text, "R0", r0, "R1", r1, NULL)
      || !sl_test_daemon_start (&t->env))
    return 0;
  return port;
}

/* count lines "<13>... app: seq N" from first */
static gchar *
numbered (guint first, guint count)
{
  GString *s = g_string_new (NULL);
  for (guint i = first; i < first + count; i++)
    g_string_append_printf (s, "<13>Nov 29 20:25:57 web1 app: seq %u\n", i);
  return g_string_free (s, FALSE);
}

static gint
compare_lines (gconstpointer a, gconstpointer b, gpointer data)
{
  return g_strcmp0 (*(const gchar *const *) a, *(const gchar *const *) b);
}

static gboolean
send_numbered (guint16 port, guint first, guint count)
{
  g_autofree gchar *text = numbered (first, count);
  return sl_test_tcp_send (port, text);
}

/* The heads of the requests receiver i recorded, in order: each the status
 * it gave, a newline, the request's head. */
static GPtrArray *
heads (HttpTest *t, guint i)
{
  GPtrArray *all = g_ptr_array_new_with_free_func (g_free);
  for (guint n = 1;; n++)
    {
      g_autofree gchar *name = g_strdup_printf ("r%u-requests/%06u.head", i, n);
      g_autofree gchar *path = sl_test_path (&t->env, name);
      gchar *text = sl_test_read_file (path);
      if (!text)
        return all;
      g_ptr_array_add (all, text);
    }
}

static gchar *
body (HttpTest *t, guint i, guint n)
{
  g_autofree gchar *name = g_strdup_printf ("r%u-requests/%06u.body", i, n);
  g_autofree gchar *path = sl_test_path (&t->env, name);
  return sl_test_read_file (path);
}

/* How many requests receiver i answered with status. */
static guint
answered (HttpTest *t, guint i, gint status)
{
  GPtrArray *all = heads (t, i);
  guint n = 0;
  for (guint k = 0; k < all->len; k++)
    n += atoi (g_ptr_array_index (all, k)) == status;
  g_ptr_array_unref (all);
  return n;
}

/* Waits until receiver i has answered at least n requests with status. */
static gboolean
wait_answered (HttpTest *t, guint i, gint status, guint n)
{
  gint64 deadline = g_get_monotonic_time () + SL_TEST_DEADLINE_MS * 1000;
  while (answered (t, i, status) < n)
    {
      if (g_get_monotonic_time () > deadline)
        {
          g_test_fail_printf ("receiver %u answered %d only %u times, waited for %u", i, status,
                              answered (t, i, status), n);
          return FALSE;
        }
      g_usleep (20000);
    }
  return TRUE;
}

static gboolean
wait_delivered (HttpTest *t, guint i, guint lines)
{
  g_autofree gchar *out = receiver_path (t, i, "out");
  return sl_test_wait_lines (&t->env, out, lines);
}

static guint
delivered_lines (HttpTest *t, guint i)
{
  g_autofree gchar *out = receiver_path (t, i, "out");
  return sl_test_count_lines (out);
}

/* flush-lines(25) and a long batch-timeout(): the 25 messages make one
 * write, cut into requests of batch-lines(10): 10, 10, 5, JSON lines. */
static void
test_batch_lines (HttpTest *t, gconstpointer data)
{
  guint16 port;
  if (!start_receiver (t, 0, "200", NULL)
      || !(port = start_sluiced (t, "url(\"http://127.0.0.1:@R0@/ingest\") batch-lines(10) flush-lines(25)"
                                    " batch-timeout(60s) body(\"{\\\"msg\\\":\\\"$MESSAGE\\\"}\")"))
      || !send_numbered (port, 1, 25) || !wait_delivered (t, 0, 25))
    return;
  g_autoptr (GPtrArray) all = heads (t, 0);
  g_assert_cmpuint (all->len, ==, 3);
  g_assert_true (g_str_has_prefix (g_ptr_array_index (all, 0), "200\nPOST /ingest HTTP/1.1"));
  /* the three are in flight at once, so they may arrive in any order */
  guint found = 0;
  for (guint n = 1; n <= all->len; n++)
    {
      g_autofree gchar *b = body (t, 0, n);
      if (g_strcmp0 (b, "{\"msg\":\"seq 21\"}\n{\"msg\":\"seq 22\"}\n{\"msg\":\"seq 23\"}\n"
                     "{\"msg\":\"seq 24\"}\n{\"msg\":\"seq 25\"}") == 0)
        found |= 1;
      else if (b && g_str_has_prefix (b, "{\"msg\":\"seq 1\"}\n{\"msg\":\"seq 2\"}\n")
               && g_str_has_suffix (b, "\n{\"msg\":\"seq 10\"}"))
        found |= 2;
      else if (b && g_str_has_prefix (b, "{\"msg\":\"seq 11\"}\n") && g_str_has_suffix (b, "\n{\"msg\":\"seq 20\"}"))
        found |= 4;
    }
  g_assert_cmpuint (found, ==, 7);
}

/* batch-bytes(): no body passes it; every message still arrives once. */
static void
test_batch_bytes (HttpTest *t, gconstpointer data)
{
  guint16 port;
  if (!start_receiver (t, 0, "200", NULL)
      || !(port = start_sluiced (t, "url(\"http://127.0.0.1:@R0@/\") batch-lines(1000) batch-bytes(64)"
                                    " body-suffix(\"\\n\")"))
      || !send_numbered (port, 1, 40) || !wait_delivered (t, 0, 40))
    return;
  g_autoptr (GPtrArray) all = heads (t, 0);
  g_assert_cmpuint (all->len, >=, 40 * 7 / 64);
  for (guint n = 1; n <= all->len; n++)
    {
      g_autofree gchar *b = body (t, 0, n);
      g_assert_nonnull (b);
      /* the limit is on the messages; body-suffix() comes after */
      g_assert_cmpuint (b ? strlen (b) : 0, <=, 64 + 1);
    }
}

/* batch-timeout(): messages sent one by one, on separate connections,
 * wait for each other and go as one request. */
static void
test_batch_timeout (HttpTest *t, gconstpointer data)
{
  guint16 port;
  if (!start_receiver (t, 0, "200", NULL)
      || !(port = start_sluiced (t, "url(\"http://127.0.0.1:@R0@/\") batch-lines(100) flush-lines(5) batch-timeout(30s)")))
    return;
  for (guint i = 1; i <= 5; i++)
    if (!send_numbered (port, i, 1))
      return;
  if (!wait_delivered (t, 0, 5))
    return;
  g_autoptr (GPtrArray) all = heads (t, 0);
  g_assert_cmpuint (all->len, ==, 1);
  /* from five connections, so in any order */
  g_autofree gchar *b = body (t, 0, 1);
  g_auto (GStrv) lines = g_strsplit (b, "\n", -1);
  g_qsort_with_data (lines, g_strv_length (lines), sizeof (gchar *), (GCompareDataFunc) compare_lines, NULL);
  g_autofree gchar *sorted = g_strjoinv ("\n", lines);
  g_assert_cmpstr (sorted, ==, "seq 1\nseq 2\nseq 3\nseq 4\nseq 5");
}

/* method(), headers(), user()/password(), user-agent() on the wire;
 * Elasticsearch's bulk body as elasticsearch-http() makes it. */
static void
test_request_head (HttpTest *t, gconstpointer data)
{
  guint16 port;
  if (!start_receiver (t, 0, "200", NULL)
      || !(port = start_sluiced (t, "url(\"http://127.0.0.1:@R0@/_bulk\") method(\"PUT\") user(\"alice\") password(\"s3cret\")"
                                    " headers(\"Content-Type: application/x-ndjson\" \"X-Test: yes\") user-agent(\"probe/1\")"
                                    " batch-lines(2) flush-lines(2) batch-timeout(60s) body-suffix(\"\\n\")"
                                    " body(\"{\\\"index\\\":{}}\\n{\\\"message\\\":\\\"$MESSAGE\\\"}\")"))
      || !send_numbered (port, 1, 2) || !wait_answered (t, 0, 200, 1))
    return;
  g_autoptr (GPtrArray) all = heads (t, 0);
  const gchar *head = g_ptr_array_index (all, 0);
  g_assert_true (g_str_has_prefix (head, "200\nPUT /_bulk HTTP/1.1\n"));
  g_assert_nonnull (strstr (head, "\nAuthorization: Basic YWxpY2U6czNjcmV0\n"));
  g_assert_nonnull (strstr (head, "\nContent-Type: application/x-ndjson\n"));
  g_assert_nonnull (strstr (head, "\nX-Test: yes\n"));
  g_assert_nonnull (strstr (head, "\nUser-Agent: probe/1\n"));
  g_autofree gchar *b = body (t, 0, 1);
  g_assert_cmpstr (b, ==, "{\"index\":{}}\n{\"message\":\"seq 1\"}\n{\"index\":{}}\n{\"message\":\"seq 2\"}\n");
}

/* Splunk HEC events, gzipped (the receiver records them unzipped). */
static void
test_gzip_hec (HttpTest *t, gconstpointer data)
{
  guint16 port;
  if (!start_receiver (t, 0, "200", NULL)
      || !(port = start_sluiced (t, "url(\"http://127.0.0.1:@R0@/services/collector/event\") content-compression(\"gzip\")"
                                    " headers(\"Authorization: Splunk 0000\") batch-lines(3) flush-lines(3) batch-timeout(60s)"
                                    " delimiter(\"\") body(\"{\\\"event\\\":\\\"$MESSAGE\\\",\\\"source\\\":\\\"$PROGRAM\\\"}\")"))
      || !send_numbered (port, 1, 3) || !wait_answered (t, 0, 200, 1))
    return;
  g_autoptr (GPtrArray) all = heads (t, 0);
  g_assert_nonnull (strstr (g_ptr_array_index (all, 0), "\nContent-Encoding: gzip\n"));
  g_autofree gchar *b = body (t, 0, 1);
  g_assert_cmpstr (b, ==, "{\"event\":\"seq 1\",\"source\":\"app\"}{\"event\":\"seq 2\",\"source\":\"app\"}"
                   "{\"event\":\"seq 3\",\"source\":\"app\"}");
}

/* 500, 429 and a stalled receiver (timeout()) keep the messages: once the
 * receiver answers 200 again, each has arrived. */
static void
retry_until_delivered (HttpTest *t, const gchar *word, gint status)
{
  guint16 port;
  if (!start_receiver (t, 0, word, NULL)
      || !(port = start_sluiced (t, "url(\"http://127.0.0.1:@R0@/\") batch-lines(5) timeout(1) retries(2)"))
      || !send_numbered (port, 1, 10) || !wait_answered (t, 0, status, 3))
    return;
  g_assert_cmpuint (delivered_lines (t, 0), ==, 0);
  answer (t, 0, "200");
  if (!wait_delivered (t, 0, 10))
    return;
  g_assert_cmpint (sl_test_stat (&t->env, "destination", "d_http", "dropped"), ==, 0);
  g_assert_cmpint (sl_test_stat (&t->env, "destination", "d_http", "request_errors"), >=, 3);
  g_assert_cmpint (sl_test_stat (&t->env, "destination", "d_http", "retries"), >=, 1);
}

static void
test_retry_500 (HttpTest *t, gconstpointer data)
{
  retry_until_delivered (t, "500", 500);
}

static void
test_retry_429 (HttpTest *t, gconstpointer data)
{
  retry_until_delivered (t, "429", 429);
}

static void
test_retry_stall (HttpTest *t, gconstpointer data)
{
  retry_until_delivered (t, "stall", 0);
}

/* 404 can never succeed: the batch is dropped and counted, not retried;
 * response-action(404 retry) keeps it instead. */
static void
test_404_dropped (HttpTest *t, gconstpointer data)
{
  guint16 port;
  if (!start_receiver (t, 0, "404", NULL)
      || !(port = start_sluiced (t, "url(\"http://127.0.0.1:@R0@/\") batch-lines(5) flush-lines(5) batch-timeout(60s)"))
      || !send_numbered (port, 1, 5)
      || !sl_test_wait_stat (&t->env, "destination", "d_http", "dropped", 5))
    return;
  g_assert_cmpint (sl_test_stat (&t->env, "destination", "d_http", "written"), ==, 0);
  g_assert_cmpuint (answered (t, 0, 404), ==, 1);
}

static void
test_404_response_action (HttpTest *t, gconstpointer data)
{
  guint16 port;
  if (!start_receiver (t, 0, "404", NULL)
      || !(port = start_sluiced (t, "url(\"http://127.0.0.1:@R0@/\") batch-lines(5) response-action(404 retry)"))
      || !send_numbered (port, 1, 5) || !wait_answered (t, 0, 404, 2))
    return;
  answer (t, 0, "200");
  if (!wait_delivered (t, 0, 5))
    return;
  g_assert_cmpint (sl_test_stat (&t->env, "destination", "d_http", "dropped"), ==, 0);
}

/* Two url()s: the first answers 503, so requests go to the second. */
static void
test_failover (HttpTest *t, gconstpointer data)
{
  guint16 port;
  if (!start_receiver (t, 0, "503", NULL) || !start_receiver (t, 1, "200", NULL)
      || !(port = start_sluiced (t, "url(\"http://127.0.0.1:@R0@/\" \"http://127.0.0.1:@R1@/\") batch-lines(10)"))
      || !send_numbered (port, 1, 30) || !wait_delivered (t, 1, 30))
    return;
  g_assert_cmpuint (delivered_lines (t, 0), ==, 0);
  g_assert_cmpint (sl_test_stat (&t->env, "destination", "d_http", "failovers"), >=, 1);
  g_assert_cmpint (sl_test_stat (&t->env, "destination", "d_http", "dropped"), ==, 0);
}

/* A failed URL that is not listening at all fails over the same way. */
static void
test_failover_refused (HttpTest *t, gconstpointer data)
{
  guint16 port;
  t->port[0] = sl_test_free_port (SOCK_STREAM);
  if (!start_receiver (t, 1, "200", NULL)
      || !(port = start_sluiced (t, "url(\"http://127.0.0.1:@R0@/\" \"http://127.0.0.1:@R1@/\") batch-lines(10)"))
      || !send_numbered (port, 1, 30) || !wait_delivered (t, 1, 30))
    return;
  g_assert_cmpint (sl_test_stat (&t->env, "destination", "d_http", "failovers"), >=, 1);
}

static gboolean
openssl (HttpTest *t, const gchar *command)
{
  g_autofree gchar *line = g_strdup_printf ("cd '%s' && %s", t->env.dir, command);
  const gchar *argv[] = { "/bin/sh", "-c", line, NULL };
  g_autofree gchar *err = NULL;
  gint status = sl_test_run_argv (argv, NULL, &err);
  if (status != 0)
    g_test_fail_printf ("%s: %s", command, err ? err : "");
  return status == 0;
}

/* TLS both ways: the receiver requires a certificate from the test's CA,
 * Sluice checks the receiver's against it. */
static void
test_tls_client_certificate (HttpTest *t, gconstpointer data)
{
  if (!openssl (t, "openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 -subj /CN=test-ca 2>/dev/null")
      || !openssl (t, "openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj /CN=127.0.0.1 2>/dev/null")
      || !openssl (t, "printf 'subjectAltName=IP:127.0.0.1\\n' > san.ext && openssl x509 -req -in server.csr -CA ca.pem"
                      " -CAkey ca.key -CAcreateserial -out server.pem -days 2 -extfile san.ext 2>/dev/null")
      || !openssl (t, "openssl req -newkey rsa:2048 -nodes -keyout client.key -out client.csr -subj /CN=sluice-client 2>/dev/null")
      || !openssl (t, "openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out client.pem -days 2 2>/dev/null"))
    return;
  g_autofree gchar *ca = sl_test_path (&t->env, "ca.pem");
  g_autofree gchar *cert = sl_test_path (&t->env, "server.pem");
  g_autofree gchar *key = sl_test_path (&t->env, "server.key");
  g_autofree gchar *options = g_strdup_printf (
    "url(\"https://127.0.0.1:@R0@/\") batch-lines(5) tls(ca-file(\"%s/ca.pem\") cert-file(\"%s/client.pem\")"
    " key-file(\"%s/client.key\") peer-verify(yes))", t->env.dir, t->env.dir, t->env.dir);
  guint16 port;
  if (!start_receiver (t, 0, "200", "--cert", cert, "--key", key, "--ca", ca, NULL)
      || !(port = start_sluiced (t, options)) || !send_numbered (port, 1, 10) || !wait_delivered (t, 0, 10))
    return;
  g_autoptr (GPtrArray) all = heads (t, 0);
  g_assert_nonnull (strstr (g_ptr_array_index (all, 0), "\nClient-Subject: /CN=sluice-client\n"));
}

/* sluice-gen's messages through two workers while every third request
 * fails with 500, then every fourth with 429: each one arrives. */
static void
test_none_lost_under_errors (HttpTest *t, gconstpointer data)
{
  guint16 port;
  if (!start_receiver (t, 0, "500/3", NULL) || !start_receiver (t, 1, "429/4", NULL)
      || !(port = start_sluiced (t, "url(\"http://127.0.0.1:@R0@/\" \"http://127.0.0.1:@R1@/\") workers(2)"
                                    " batch-lines(50) retries(5) log-fifo-size(2000)")))
    return;
  g_autofree gchar *port_text = g_strdup_printf ("%u", port);
  g_autofree gchar *out = NULL;
  gint status = sl_test_run_built ("tools/sluice-gen", &out, NULL, "-Q", "-r", "0", "-n", "20000",
                                   "--active-connections", "2", "127.0.0.1", port_text, NULL);
  g_assert_cmpint (status, ==, 0);
  g_autofree gchar *out0 = receiver_path (t, 0, "out");
  g_autofree gchar *out1 = receiver_path (t, 1, "out");
  /* waits until every message arrived, or the output stopped growing: a
   * slow machine is no failure, a stuck or lossy delivery is (duplicates
   * count as lines, so the line count alone cannot tell) */
  guint lines = 0;
  gint64 deadline = g_get_monotonic_time () + SL_TEST_DEADLINE_MS * 1000;
  g_autofree gchar *report = NULL;
  for (;;)
    {
      g_clear_pointer (&report, g_free);
      status = sl_test_run_built ("tools/sluice-gen", &report, NULL, "verify", "--expect=20000", "--connections=2",
                                  out0, out1, NULL);
      guint now = sl_test_count_lines (out0) + sl_test_count_lines (out1);
      if (now > lines)
        deadline = g_get_monotonic_time () + SL_TEST_DEADLINE_MS * 1000;
      lines = now;
      if (status == 0 || g_get_monotonic_time () > deadline)
        break;
      g_usleep (200000);
    }
  if (status != 0)
    g_test_fail_printf ("sluice-gen verify:\n%s", report);
  g_assert_cmpuint (answered (t, 0, 500) + answered (t, 1, 429), >, 0);
  g_assert_cmpint (sl_test_stat (&t->env, "destination", "d_http", "dropped"), ==, 0);
}

/* Debian's syslog-ng-scl block elasticsearch-http(), unchanged, on
 * Sluice's http(): the bulk body it builds reaches the receiver. scl.conf
 * comes from the source tree's include folder, as make check runs before
 * make install (a Debian package build). */
static void
test_scl_elasticsearch_http (HttpTest *t, gconstpointer data)
{
  if (!g_file_test ("/usr/share/syslog-ng/include/scl/elasticsearch/elastic-http.conf", G_FILE_TEST_EXISTS))
    {
      g_test_skip ("syslog-ng-scl is not installed");
      return;
    }
  g_autofree gchar *include_path
    = g_strdup_printf ("%s/config/include:/usr/share/syslog-ng/include", g_getenv ("SL_TOP_SRCDIR"));
  if (!start_receiver (t, 0, "200", NULL))
    return;
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_text = g_strdup_printf ("%u", port);
  g_autofree gchar *r0 = g_strdup_printf ("%u", t->port[0]);
  if (!sl_test_write_config (&t->env,
                             "@version: 3.38\n"
                             "@include \"scl.conf\"\n"
                             "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
                             "destination d_es { elasticsearch-http(url(\"http://127.0.0.1:@R0@/_bulk\") index(\"logs\") type(\"\")); };\n"
                             "log { source(s_net); destination(d_es); flags(flow-control); };\n",
                             "PORT", port_text, "R0", r0, NULL)
      || !sl_test_daemon_start_with_args (&t->env, "--include-path", include_path, NULL)
      || !send_numbered (port, 1, 1) || !wait_answered (t, 0, 200, 1))
    return;
  g_autoptr (GPtrArray) all = heads (t, 0);
  g_assert_true (g_str_has_prefix (g_ptr_array_index (all, 0), "200\nPOST /_bulk HTTP/1.1\n"));
  g_autofree gchar *b = body (t, 0, 1);
  g_assert_true (g_str_has_prefix (b, "{\"index\":{\"_index\":\"logs\"}}\n{"));
  g_assert_nonnull (strstr (b, "\"MESSAGE\":\"seq 1\""));
}

/* The documents receiver i took (its out file), sorted. */
static gchar *
taken_documents (HttpTest *t, guint i)
{
  g_autofree gchar *out = receiver_path (t, i, "out");
  g_auto (GStrv) lines = sl_test_read_lines (out);
  GPtrArray *sorted = g_ptr_array_new ();
  for (guint k = 0; lines && lines[k]; k++)
    g_ptr_array_add (sorted, lines[k]);
  g_ptr_array_sort_with_data (sorted, compare_lines, NULL);
  g_ptr_array_add (sorted, NULL);
  gchar *text = g_strjoinv ("|", (gchar **) sorted->pdata);
  g_ptr_array_free (sorted, TRUE);
  return text;
}

/* Typed values in a body, side by side with syslog-ng 4.8 (Debian 13's,
 * with syslog-ng-mod-http, in the root of tests/peers/trixie-root): the
 * typed-values corpus through json-parser() and set()'s type hints into
 * http() and elasticsearch-http() (4.8's SCL for both) whose bodies are
 * $(format-json) of the typed values, 4.8 sending to receiver 0, sluiced
 * to receiver 1: the bodies (the documents, for elasticsearch-http())
 * are byte for byte the same, compared sorted (sluiced sends a batch's
 * requests on several connections at once, so the receiver's order is
 * the scheduler's). */
#define TYPED_BODY_CONFIG \
  "@version: 4.8\n" \
  "@include \"scl.conf\"\n" \
  "source s { file(\"@DIR@/in.log\" flags(no-parse)); };\n" \
  "parser p { json-parser(prefix(\"j.\")); };\n" \
  "rewrite r { set(int(\"42\") value(\"h.i\")); set(1.5 value(\"h.f\")); set(boolean(\"true\") value(\"h.b\"));\n" \
  "            set(list(\"a,b\") value(\"h.l\")); set(null(\"\") value(\"h.z\")); set(json(\"{\\\"x\\\":1}\") value(\"h.j\")); };\n" \
  "destination d { @DEST@; };\n" \
  "log { source(s); junction { channel { parser(p); rewrite(r); flags(final); }; channel { flags(final); }; };\n" \
  "      destination(d); };\n"

#define TYPED_BODY "$(format-json --key j.* --key h.* --key MESSAGE)"

static void
test_typed_body (HttpTest *t, gconstpointer data)
{
  g_autofree gchar *trixie = sl_test_trixie_root ();
  if (!trixie)
    {
      g_test_skip ("the Debian 13 root could not be made (tests/peers/trixie-root)");
      return;
    }
  const gchar *top = g_getenv ("SL_TOP_SRCDIR");
  g_autofree gchar *corpus_path = g_build_filename (top, "tests/differential/typed-values/corpus.jsonl", NULL);
  g_autofree gchar *input = sl_test_read_file (corpus_path);
  g_assert_nonnull (input);
  guint lines = sl_test_count_lines (corpus_path);
  const gchar *word = g_str_equal (data, "http") ? "200" : "bulk";
  if (!start_receiver (t, 0, word, NULL) || !start_receiver (t, 1, word, NULL))
    return;
  GString *config[2];
  for (guint i = 0; i < 2; i++)
    {
      g_autofree gchar *dest = g_str_equal (data, "http")
        ? g_strdup_printf ("http(url(\"http://127.0.0.1:%u/\") method(\"POST\") body(\"" TYPED_BODY "\"))", t->port[i])
        : g_strdup_printf ("elasticsearch-http(url(\"http://127.0.0.1:%u/_bulk\") index(\"logs\") type(\"\")"
                           " batch-timeout(100) template(\"" TYPED_BODY "\"))", t->port[i]);
      config[i] = g_string_new (TYPED_BODY_CONFIG);
      g_string_replace (config[i], "@DEST@", dest, 0);
    }
  gchar *ng_dir = NULL;
  GPid ng = sl_test_syslog_ng_48_start (&t->env, trixie, config[0]->str, input, &ng_dir);
  g_autofree gchar *ng_out = receiver_path (t, 0, "out");
  g_autofree gchar *sl_out = receiver_path (t, 1, "out");
  gboolean ng_done = ng && sl_test_wait_lines (&t->env, ng_out, lines);
  sl_test_syslog_ng_48_stop (ng, ng_dir);
  g_autofree gchar *in = sl_test_path (&t->env, "in.log");
  g_autofree gchar *scl = g_build_filename (trixie, "usr/share/syslog-ng/include", NULL);
  g_autofree gchar *include_path = g_strdup_printf ("%s/config/include:%s", top, scl);
  gboolean sl_done = ng_done && g_file_set_contents (in, input, -1, NULL)
                     && sl_test_write_config (&t->env, config[1]->str, NULL)
                     && sl_test_daemon_start_with_args (&t->env, "--include-path", include_path, NULL)
                     && sl_test_wait_lines (&t->env, sl_out, lines);
  g_string_free (config[0], TRUE);
  g_string_free (config[1], TRUE);

  g_assert_true (ng_done);
  g_assert_true (sl_done);
  g_autofree gchar *ng_bodies = taken_documents (t, 0);
  g_autofree gchar *sl_bodies = taken_documents (t, 1);
  g_test_message ("syslog-ng 4.8's %s bodies, sorted:\n%s", (const gchar *) data, ng_bodies);
  g_assert_nonnull (strstr (ng_bodies, "\"h\":{\"z\":null,\"l\":[\"a\",\"b\"],\"j\":{\"x\":1},\"i\":42,\"f\":1.5,\"b\":true}"));
  g_assert_cmpstr (sl_bodies, ==, ng_bodies);
}

/* A 200 bulk reply with failed items (the receiver answering as
 * Elasticsearch's _bulk does: Debian has no Elasticsearch): the item
 * refused for good (400) is dropped and counted, the one refused for now
 * (429) is sent again alone until it is taken, and the documents taken
 * the first time are not sent again. */
static void
test_bulk_items (HttpTest *t, gconstpointer data)
{
  guint16 port;
  if (!start_receiver (t, 0, "bulk\n429 seq 2\n400 seq 3", NULL)
      || !(port = start_sluiced (t, "url(\"http://127.0.0.1:@R0@/_bulk\") batch-lines(5) flush-lines(5) "
                                    "batch-timeout(2s) retries(2) "
                                    "body(\"{\\\"index\\\":{}}\\n{\\\"MESSAGE\\\":\\\"${MESSAGE}\\\"}\")"))
      || !send_numbered (port, 1, 5)
      || !sl_test_wait_stat (&t->env, "destination", "d_http", "bulk_retried_items", 2))
    return;
  /* seq 3 is counted as dropped once the messages before it are done */
  g_assert_cmpint (sl_test_stat (&t->env, "destination", "d_http", "bulk_dropped_items"), ==, 1);
  answer (t, 0, "bulk");
  if (!wait_delivered (t, 0, 4) || !sl_test_wait_stat (&t->env, "destination", "d_http", "written", 4))
    return;
  g_autofree gchar *taken = taken_documents (t, 0);
  g_assert_cmpstr (taken, ==, "{\"MESSAGE\":\"seq 1\"}|{\"MESSAGE\":\"seq 2\"}|{\"MESSAGE\":\"seq 4\"}|"
                              "{\"MESSAGE\":\"seq 5\"}");
  g_assert_cmpint (sl_test_stat (&t->env, "destination", "d_http", "bulk_dropped_items"), ==, 1);
  g_assert_cmpint (sl_test_stat (&t->env, "destination", "d_http", "dropped"), ==, 1);
  /* the last request held seq 2 alone */
  g_autoptr (GPtrArray) all = heads (t, 0);
  g_autofree gchar *last = body (t, 0, all->len);
  g_assert_cmpstr (last, ==, "{\"index\":{}}\n{\"MESSAGE\":\"seq 2\"}");
}

/* elasticsearch-http() of Debian's SCL, unchanged: its url() ends in
 * /_bulk, so its replies are read item by item. */
static void
test_scl_elasticsearch_bulk_items (HttpTest *t, gconstpointer data)
{
  if (!g_file_test ("/usr/share/syslog-ng/include/scl/elasticsearch/elastic-http.conf", G_FILE_TEST_EXISTS))
    {
      g_test_skip ("syslog-ng-scl is not installed");
      return;
    }
  g_autofree gchar *include_path
    = g_strdup_printf ("%s/config/include:/usr/share/syslog-ng/include", g_getenv ("SL_TOP_SRCDIR"));
  if (!start_receiver (t, 0, "bulk\n400 seq 2", NULL))
    return;
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_text = g_strdup_printf ("%u", port);
  g_autofree gchar *r0 = g_strdup_printf ("%u", t->port[0]);
  if (!sl_test_write_config (&t->env,
                             "@version: 3.38\n"
                             "@include \"scl.conf\"\n"
                             "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
                             "destination d_es { elasticsearch-http(url(\"http://127.0.0.1:@R0@/_bulk\") index(\"logs\") "
                             "type(\"\") workers(1) batch-lines(3) flush-lines(3) batch-timeout(2s)); };\n"
                             "log { source(s_net); destination(d_es); flags(flow-control); };\n",
                             "PORT", port_text, "R0", r0, NULL)
      || !sl_test_daemon_start_with_args (&t->env, "--include-path", include_path, NULL)
      || !send_numbered (port, 1, 3) || !wait_delivered (t, 0, 2)
      || !sl_test_wait_stat (&t->env, "destination", "d_es", "dropped", 1))
    return;
  g_assert_cmpint (sl_test_stat (&t->env, "destination", "d_es", "bulk_dropped_items"), ==, 1);
  g_assert_cmpint (sl_test_stat (&t->env, "destination", "d_es", "written"), ==, 2);
  g_autofree gchar *taken = taken_documents (t, 0);
  g_assert_nonnull (strstr (taken, "\"MESSAGE\":\"seq 1\""));
  g_assert_null (strstr (taken, "\"MESSAGE\":\"seq 2\""));
  g_assert_nonnull (strstr (taken, "\"MESSAGE\":\"seq 3\""));
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  HTTP_TEST_ADD ("/http/scl/elasticsearch-http", test_scl_elasticsearch_http);
  g_test_add ("/http/typed-body/http", HttpTest, "http", http_setup, test_typed_body, http_teardown);
  g_test_add ("/http/typed-body/elasticsearch-http", HttpTest, "elasticsearch-http", http_setup, test_typed_body,
              http_teardown);
  HTTP_TEST_ADD ("/http/scl/elasticsearch-bulk-items", test_scl_elasticsearch_bulk_items);
  HTTP_TEST_ADD ("/http/bulk/items", test_bulk_items);
  HTTP_TEST_ADD ("/http/batch/lines", test_batch_lines);
  HTTP_TEST_ADD ("/http/batch/bytes", test_batch_bytes);
  HTTP_TEST_ADD ("/http/batch/timeout", test_batch_timeout);
  HTTP_TEST_ADD ("/http/request/head-and-bulk-body", test_request_head);
  HTTP_TEST_ADD ("/http/request/gzip-hec", test_gzip_hec);
  HTTP_TEST_ADD ("/http/retry/500", test_retry_500);
  HTTP_TEST_ADD ("/http/retry/429", test_retry_429);
  HTTP_TEST_ADD ("/http/retry/stall", test_retry_stall);
  HTTP_TEST_ADD ("/http/status/404-dropped", test_404_dropped);
  HTTP_TEST_ADD ("/http/status/404-response-action", test_404_response_action);
  HTTP_TEST_ADD ("/http/failover/503", test_failover);
  HTTP_TEST_ADD ("/http/failover/refused", test_failover_refused);
  HTTP_TEST_ADD ("/http/tls/client-certificate", test_tls_client_certificate);
  HTTP_TEST_ADD ("/http/delivery/none-lost-under-errors", test_none_lost_under_errors);
  return g_test_run ();
}
