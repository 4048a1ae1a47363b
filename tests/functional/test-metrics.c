/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Metrics: sluicectl stats --format prometheus, the HTTP endpoint of
 * options { stats(listen(...)) }, its scrapes served while clients hold
 * half a request, and Debian's prometheus scraping it. */
#include "tests/functional/harness.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <jansson.h>
#include <netinet/in.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define HEADER "<13>Nov 29 20:25:57 metrichost app: "
/* prometheus takes a few seconds to start and scrape on a busy machine */
#define PROMETHEUS_DEADLINE_MS 60000

static const gchar metrics_config[] =
  "@version: 4.0\n"
  "options { stats(listen(\"@LISTEN@\")); };\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_file { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_net); destination(d_file); };\n";

/* Whether something accepts on 127.0.0.1:port, without failing the test. */
static gboolean
port_open (guint16 port)
{
  gint fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = g_htons (port),
                              .sin_addr.s_addr = g_htonl (0x7f000001) };
  gboolean open = connect (fd, (struct sockaddr *) &addr, sizeof addr) == 0;
  close (fd);
  return open;
}

static gboolean
start_with_metrics (SlTestEnv *env, guint16 *port, guint16 *http_port)
{
  *port = sl_test_free_port (SOCK_STREAM);
  *http_port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = g_strdup_printf ("%u", *port);
  g_autofree gchar *listen = g_strdup_printf ("127.0.0.1:%u", *http_port);
  return *port && *http_port
         && sl_test_write_config (env, metrics_config, "PORT", port_str, "LISTEN", listen, NULL)
         && sl_test_daemon_start (env) && sl_test_wait_tcp (env, *http_port);
}

static gboolean
send_messages (guint16 port, guint n)
{
  GString *lines = g_string_new (NULL);
  for (guint i = 0; i < n; i++)
    g_string_append_printf (lines, HEADER "message %u\n", i);
  gboolean ok = sl_test_tcp_send (port, lines->str);
  g_string_free (lines, TRUE);
  return ok;
}

/* One HTTP exchange on loopback: the whole answer, headers and body, or
 * NULL (and the test failed). */
static gchar *
http_exchange (guint16 port, const gchar *request)
{
  gint fd = sl_test_tcp_connect (port);
  if (fd < 0)
    return NULL;
  GString *answer = g_string_new (NULL);
  if (sl_test_send_all (fd, request, strlen (request)))
    {
      gchar buf[4096];
      gssize n;
      while ((n = read (fd, buf, sizeof buf)) > 0)
        g_string_append_len (answer, buf, n);
    }
  close (fd);
  return g_string_free (answer, FALSE);
}

static gchar *
http_get (guint16 port, const gchar *path)
{
  g_autofree gchar *request = g_strdup_printf ("GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", path);
  return http_exchange (port, request);
}

static const gchar *
http_body (const gchar *answer)
{
  const gchar *end = answer ? strstr (answer, "\r\n\r\n") : NULL;
  return end ? end + 4 : "";
}

static gchar *
sluicectl_prometheus (SlTestEnv *env)
{
  gchar *out = NULL;
  gint status = sl_test_run_built ("tools/sluicectl", &out, NULL, "-c", env->control, "stats", "--format",
                                   "prometheus", NULL);
  g_assert_cmpint (status, ==, 0);
  return out;
}

static void
test_endpoint_serves_metrics_and_health (SlTestEnv *env, gconstpointer data)
{
  guint16 port, http_port;
  g_autofree gchar *out = sl_test_path (env, "out.log");
  if (!start_with_metrics (env, &port, &http_port) || !send_messages (port, 3) || !sl_test_wait_lines (env, out, 3)
      || !sl_test_wait_stat (env, "destination", "d_file", "written", 3))
    return;

  g_autofree gchar *metrics = http_get (http_port, "/metrics");
  g_assert_true (g_str_has_prefix (metrics, "HTTP/1.1 200 OK\r\n"));
  g_assert_nonnull (strstr (metrics, "Content-Type: text/plain; version=0.0.4"));
  g_assert_nonnull (strstr (http_body (metrics),
                            "sluice_source_received_total{id=\"s_net#0\",driver=\"tcp\"} 3\n"));
  g_assert_nonnull (strstr (http_body (metrics),
                            "# TYPE sluice_destination_queued gauge\n"
                            "sluice_destination_queued{id=\"d_file#0\",driver=\"file\"} 0\n"));
  /* the same rendering as sluicectl's, now that nothing moves */
  g_autofree gchar *ctl = sluicectl_prometheus (env);
  g_assert_cmpstr (http_body (metrics), ==, ctl);

  g_autofree gchar *health = http_get (http_port, "/health?verbose=1");
  g_assert_true (g_str_has_prefix (health, "HTTP/1.1 200 OK\r\n"));
  g_assert_cmpstr (http_body (health), ==, "OK\n");

  g_autofree gchar *head = http_exchange (http_port, "HEAD /metrics HTTP/1.0\r\n\r\n");
  g_assert_true (g_str_has_prefix (head, "HTTP/1.1 200 OK\r\n"));
  g_assert_cmpstr (http_body (head), ==, "");

  g_autofree gchar *missing = http_get (http_port, "/stop");
  g_assert_true (g_str_has_prefix (missing, "HTTP/1.1 404 "));
  g_autofree gchar *post = http_exchange (http_port, "POST /metrics HTTP/1.1\r\nContent-Length: 0\r\n\r\n");
  g_assert_true (g_str_has_prefix (post, "HTTP/1.1 405 "));
  g_autofree gchar *garbage = http_exchange (http_port, "hello\r\n\r\n");
  g_assert_true (g_str_has_prefix (garbage, "HTTP/1.1 400 "));

  /* a request that never ends is cut at a bound, not buffered */
  GString *huge = g_string_new ("GET /metrics HTTP/1.1\r\n");
  while (huge->len < 16 * 1024)
    g_string_append (huge, "X-Padding: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n");
  g_autofree gchar *refused = http_exchange (http_port, huge->str);
  g_string_free (huge, TRUE);
  g_assert_true (refused == NULL || *refused == '\0' || g_str_has_prefix (refused, "HTTP/1.1 431 "));
  g_assert_true (sl_test_daemon_alive (env));

  g_autofree gchar *json = NULL;
  gint status = sl_test_run_built ("tools/sluicectl", &json, NULL, "-c", env->control, "stats", "--json", NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (json, "\"received\": 3"));
}

static void
test_listen_is_checked (SlTestEnv *env, gconstpointer data)
{
  if (!sl_test_write_config (env,
                             "@version: 4.0\n"
                             "options { stats(listen(\"127.0.0.1\")); };\n"
                             "source s { tcp(ip(\"127.0.0.1\") port(1)); };\n"
                             "destination d { file(\"@DIR@/out.log\"); };\n"
                             "log { source(s); destination(d); };\n", NULL))
    return;
  g_autofree gchar *err = NULL;
  gint status = sl_test_run_built ("daemon/sluiced", NULL, &err, "-s", "-f", env->config, "--module-path",
                                   sl_test_module_path (), NULL);
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (err, "stats(listen(\"127.0.0.1\")): give host:port, [IPv6]:port or a port"));

  if (!sl_test_write_config (env,
                             "@version: 4.0\n"
                             "options { stats(listne(\"9577\")); };\n", NULL))
    return;
  g_clear_pointer (&err, g_free);
  status = sl_test_run_built ("daemon/sluiced", NULL, &err, "-s", "-f", env->config, "--module-path",
                              sl_test_module_path (), NULL);
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (err, "unknown option 'listne' in stats(); did you mean 'listen'?"));
}

#define HALF_REQUESTS 16
#define SCRAPES 25

/* A client that holds half a request line; -1 (and the test failed) when
 * it cannot connect. */
static gint
half_request (guint16 port)
{
  gint fd = sl_test_tcp_connect (port);
  if (fd >= 0 && !sl_test_send_all (fd, "GET /met", 8))
    {
      close (fd);
      return -1;
    }
  return fd;
}

/* Sends one more byte of its request, or connects again when the daemon
 * dropped it; FALSE (and the test failed) when it cannot. */
static gboolean
keep_holding (gint *fd, guint16 port)
{
  gchar byte;
  gssize n = recv (*fd, &byte, 1, MSG_DONTWAIT);
  if ((n == 0 || (n < 0 && errno != EAGAIN)) || send (*fd, "r", 1, MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
    {
      close (*fd);
      *fd = half_request (port);
    }
  return *fd >= 0;
}

/* Sixteen clients that hold half a request line, sending a byte now and
 * then and coming back when dropped, do not make a scrape fail: each
 * takes the place of the oldest of them. */
static void
run_half_requests (guint16 http_port, gint *fds)
{
  for (guint i = 0; i < HALF_REQUESTS; i++)
    if ((fds[i] = half_request (http_port)) < 0)
      return;
  for (guint scrape = 0; scrape < SCRAPES; scrape++)
    {
      for (guint i = 0; i < HALF_REQUESTS; i++)
        if (!keep_holding (&fds[i], http_port))
          return;
      g_autofree gchar *metrics = http_get (http_port, "/metrics");
      if (!g_str_has_prefix (metrics, "HTTP/1.1 200 OK\r\n"))
        {
          g_test_fail_printf ("scrape %u of %u failed: '%s'", scrape + 1, SCRAPES, metrics);
          return;
        }
    }
  /* one that never ends its request is dropped within the request's
   * deadline, however it trickles */
  gchar buf[64];
  g_assert_cmpint (recv (fds[HALF_REQUESTS - 1], buf, sizeof buf, 0), <=, 0);
}

static void
test_half_requests (SlTestEnv *env, gconstpointer data)
{
  guint16 port, http_port;
  if (!start_with_metrics (env, &port, &http_port))
    return;
  gint fds[HALF_REQUESTS];
  for (guint i = 0; i < HALF_REQUESTS; i++)
    fds[i] = -1;
  run_half_requests (http_port, fds);
  for (guint i = 0; i < HALF_REQUESTS; i++)
    if (fds[i] >= 0)
      close (fds[i]);
}

/* A reload that moves the endpoint: the old address is let go, the new
 * one answers. */
static void
test_reload_moves_endpoint (SlTestEnv *env, gconstpointer data)
{
  guint16 port, http_port;
  if (!start_with_metrics (env, &port, &http_port))
    return;
  guint16 next = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = g_strdup_printf ("%u", port);
  g_autofree gchar *listen = g_strdup_printf ("%u", next);
  if (!next || !sl_test_write_config (env, metrics_config, "PORT", port_str, "LISTEN", listen, NULL))
    return;
  g_autofree gchar *answer = sl_test_control (env, "RELOAD");
  g_assert_true (g_str_has_prefix (answer, "OK"));
  g_autofree gchar *health = http_get (next, "/health");
  g_assert_true (g_str_has_prefix (health, "HTTP/1.1 200 OK\r\n"));
  g_assert_false (port_open (http_port));
}

/* prometheus's answer to /api/v1/query for the query: the value of its
 * one sample, or -1 while it has none. */
static gint64
prometheus_value (guint16 port, const gchar *query)
{
  g_autofree gchar *escaped = g_uri_escape_string (query, NULL, FALSE);
  g_autofree gchar *path = g_strdup_printf ("/api/v1/query?query=%s", escaped);
  g_autofree gchar *answer = http_get (port, path);
  json_t *root = json_loads (http_body (answer), 0, NULL);
  json_t *result = json_object_get (json_object_get (root, "data"), "result");
  json_t *value = json_array_get (json_object_get (json_array_get (result, 0), "value"), 1);
  gint64 n = json_is_string (value) ? g_ascii_strtoll (json_string_value (value), NULL, 10) : -1;
  json_decref (root);
  return n;
}

static GPid
prometheus_start (SlTestEnv *env, guint16 target, guint16 web_port)
{
  g_autofree gchar *yml = sl_test_path (env, "prometheus.yml");
  g_autofree gchar *config = g_strdup_printf ("global:\n"
                                              "  scrape_interval: 1s\n"
                                              "  scrape_timeout: 1s\n"
                                              "scrape_configs:\n"
                                              "  - job_name: sluice\n"
                                              "    static_configs:\n"
                                              "      - targets: ['127.0.0.1:%u']\n", target);
  g_assert_true (g_file_set_contents (yml, config, -1, NULL));
  g_autofree gchar *config_arg = g_strdup_printf ("--config.file=%s", yml);
  g_autofree gchar *tsdb = sl_test_path (env, "tsdb");
  g_autofree gchar *tsdb_arg = g_strdup_printf ("--storage.tsdb.path=%s", tsdb);
  g_autofree gchar *web_arg = g_strdup_printf ("--web.listen-address=127.0.0.1:%u", web_port);
  g_autofree gchar *log = sl_test_path (env, "prometheus.log");
  const gchar *argv[] = { "prometheus", config_arg, tsdb_arg, web_arg, NULL };
  gint out = g_open (log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  GPid pid = 0;
  GError *error = NULL;
  if (!g_spawn_async_with_pipes_and_fds (env->dir, argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD,
                                         NULL, NULL, -1, out, out, NULL, NULL, 0, &pid, NULL, NULL, NULL, &error))
    {
      g_test_fail_printf ("cannot run prometheus: %s", error->message);
      g_error_free (error);
    }
  close (out);
  return pid;
}

static void
prometheus_stop (GPid pid)
{
  kill (pid, SIGTERM);
  gint64 deadline = g_get_monotonic_time () + PROMETHEUS_DEADLINE_MS * 1000;
  while (waitpid (pid, NULL, WNOHANG) == 0)
    {
      if (g_get_monotonic_time () > deadline)
        {
          kill (pid, SIGKILL);
          waitpid (pid, NULL, 0);
          g_test_fail_printf ("prometheus did not stop on SIGTERM");
          break;
        }
      g_usleep (50000);
    }
}

static void
test_prometheus_scrapes_sluice (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *prometheus = g_find_program_in_path ("prometheus");
  if (!prometheus)
    {
      g_test_skip ("prometheus is not installed (Debian: apt-get install prometheus)");
      return;
    }
  guint16 port, http_port;
  g_autofree gchar *out = sl_test_path (env, "out.log");
  if (!start_with_metrics (env, &port, &http_port) || !send_messages (port, 7)
      || !sl_test_wait_stat (env, "source", "s_net", "received", 7))
    return;
  guint16 web_port = sl_test_free_port (SOCK_STREAM);
  GPid pid = web_port ? prometheus_start (env, http_port, web_port) : 0;
  if (!pid)
    return;
  /* what sluicectl says and what prometheus scraped must agree */
  gint64 expected = sl_test_stat (env, "source", "s_net", "received");
  gint64 seen = -1;
  gint64 deadline = g_get_monotonic_time () + PROMETHEUS_DEADLINE_MS * 1000;
  while (seen != expected && g_get_monotonic_time () < deadline)
    {
      g_usleep (200000);
      if (port_open (web_port))
        seen = prometheus_value (web_port, "sluice_source_received_total{id=\"s_net#0\",driver=\"tcp\"}");
    }
  g_assert_cmpint (seen, ==, expected);
  g_assert_cmpint (prometheus_value (web_port, "up{job=\"sluice\"}"), ==, 1);
  prometheus_stop (pid);
  if (seen != expected)
    {
      g_autofree gchar *log_path = sl_test_path (env, "prometheus.log");
      g_autofree gchar *log = sl_test_read_file (log_path);
      g_test_message ("prometheus said:\n%s", log ? log : "");
    }
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/metrics/endpoint", test_endpoint_serves_metrics_and_health);
  SL_TEST_ADD ("/metrics/listen-checked", test_listen_is_checked);
  SL_TEST_ADD ("/metrics/half-requests", test_half_requests);
  SL_TEST_ADD ("/metrics/reload-moves-endpoint", test_reload_moves_endpoint);
  SL_TEST_ADD ("/metrics/prometheus-scrapes", test_prometheus_scrapes_sluice);
  return g_test_run ();
}
