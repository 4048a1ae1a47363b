/* SPDX-License-Identifier: GPL-2.0-or-later */
/* riemann() against a receiver of the test's own: Debian has no Riemann
 * server (it is Clojure), so a TCP listener here reads the Riemann
 * protocol (a 4-byte length, then a protobuf Msg) and decodes each Msg with
 * riemann-c-client's own protobuf code (riemann_message_from_buffer), then
 * answers Msg{ok: true} made by the same library. Events count as
 * received only once they were answered. On it: the same events from
 * syslog-ng 3.38's riemann module and from sluiced on one configuration;
 * nothing lost under flow control while the receiver stops answering and
 * while it is gone; bad options refused with their place. */
#include "tests/functional/harness.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <openssl/ssl.h>
#include <riemann/riemann-client.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

typedef enum { RECEIVER_ANSWERING, RECEIVER_SILENT, RECEIVER_GONE } ReceiverMode;

static struct
{
  guint16 port;
  GMutex lock;
  GCond changed;
  ReceiverMode mode;
  guint generation;       /* bumped when silence or absence ends: older connections close */
  gint listen_fd;
  GPtrArray *events;      /* gchar *: each answered event as text */
  guint refusals;         /* Msgs answered with an error */
  GThread *acceptor;
  gint udp_fd;            /* type(udp): one Msg a datagram, unanswered */
  gint tls_fd;            /* type(tls): the same protocol in TLS, on a port of its own */
  guint16 tls_port;
  SSL_CTX *tls;
  gchar *dir;             /* the receiver's certificate and key */
  GThread *udp_reader;
  GThread *tls_acceptor;
  gboolean quit;
} rx;

static void
append_field (GString *out, const gchar *name, gboolean has, const gchar *format, ...)
{
  if (!has)
    return;
  va_list args;
  va_start (args, format);
  g_string_append_printf (out, "%s%s=", out->len ? " " : "", name);
  g_string_append_vprintf (out, format, args);
  va_end (args);
}

static gchar *
event_text (const Event *e)
{
  GString *out = g_string_new (NULL);
  append_field (out, "host", e->host != NULL, "'%s'", e->host);
  append_field (out, "service", e->service != NULL, "'%s'", e->service);
  append_field (out, "state", e->state != NULL, "'%s'", e->state);
  append_field (out, "description", e->description != NULL, "'%s'", e->description);
  append_field (out, "time", e->has_time, "%" G_GINT64_FORMAT, (gint64) e->time);
  append_field (out, "time_micros", e->has_time_micros, "%" G_GINT64_FORMAT, (gint64) e->time_micros);
  append_field (out, "ttl", e->has_ttl, "%g", e->ttl);
  append_field (out, "metric_sint64", e->has_metric_sint64, "%" G_GINT64_FORMAT, (gint64) e->metric_sint64);
  append_field (out, "metric_d", e->has_metric_d, "%.17g", e->metric_d);
  append_field (out, "metric_f", e->has_metric_f, "%g", e->metric_f);
  for (size_t i = 0; i < e->n_tags; i++)
    append_field (out, "tag", TRUE, "'%s'", e->tags[i]);
  for (size_t i = 0; i < e->n_attributes; i++)
    append_field (out, "attribute", TRUE, "'%s'='%s'", e->attributes[i]->key,
                  e->attributes[i]->value ? e->attributes[i]->value : "(null)");
  return g_string_free (out, FALSE);
}

/* A connection: plain, or TLS when ssl is set. */
typedef struct
{
  gint fd;
  SSL *ssl;
} Conn;

static gboolean
read_exact (Conn *c, guint8 *buf, gsize len)
{
  while (len)
    {
      ssize_t got = c->ssl ? SSL_read (c->ssl, buf, (int) MIN (len, G_MAXINT)) : read (c->fd, buf, len);
      if (got <= 0)
        return FALSE;
      buf += got;
      len -= (gsize) got;
    }
  return TRUE;
}

static gboolean
write_all (Conn *c, const guint8 *buf, gsize len)
{
  while (len)
    {
      ssize_t put = c->ssl ? SSL_write (c->ssl, buf, (int) MIN (len, G_MAXINT)) : write (c->fd, buf, len);
      if (put <= 0)
        return FALSE;
      buf += put;
      len -= (gsize) put;
    }
  return TRUE;
}

/* A Msg with an event whose description starts with "refuse" is answered
 * with an error, as a server whose stream refuses it would. */
static gboolean
to_refuse (const riemann_message_t *msg)
{
  for (size_t i = 0; i < msg->n_events; i++)
    if (msg->events[i]->description && g_str_has_prefix (msg->events[i]->description, "refuse"))
      return TRUE;
  return FALSE;
}

/* Answers Msg{ok: true} once events are kept (Msg{ok: false, error} for
 * one to refuse); FALSE to close the connection. */
static gboolean
answer (Conn *c, riemann_message_t *msg, guint generation)
{
  gboolean refuse = to_refuse (msg);
  g_mutex_lock (&rx.lock);
  /* a silent receiver holds the Msg unanswered until silence ends, and then
   * hangs up without having kept it */
  while (rx.mode == RECEIVER_SILENT && !rx.quit)
    g_cond_wait (&rx.changed, &rx.lock);
  gboolean keep = rx.mode == RECEIVER_ANSWERING && rx.generation == generation && !rx.quit;
  if (keep && refuse)
    rx.refusals++;
  if (keep && !refuse)
    for (size_t i = 0; i < msg->n_events; i++)
      g_ptr_array_add (rx.events, event_text (msg->events[i]));
  g_cond_broadcast (&rx.changed);
  g_mutex_unlock (&rx.lock);
  if (!keep)
    return FALSE;
  riemann_message_t *reply = riemann_message_new ();
  reply->has_ok = 1;
  reply->ok = !refuse;
  if (refuse)
    reply->error = strdup ("refused by the test's receiver");
  size_t len = 0;
  guint8 *wire = riemann_message_to_buffer (reply, &len);
  riemann_message_free (reply);
  gboolean ok = wire && write_all (c, wire, len);
  free (wire);
  return ok;
}

static gpointer
serve_connection (gpointer data)
{
  Conn *c = data;
  g_mutex_lock (&rx.lock);
  guint generation = rx.generation;
  g_mutex_unlock (&rx.lock);
  gboolean ready = !c->ssl || SSL_accept (c->ssl) == 1;
  while (ready)
    {
      guint32 header;
      if (!read_exact (c, (guint8 *) &header, sizeof header))
        break;
      gsize len = ntohl (header);
      guint8 *body = g_malloc (MAX (len, 1));
      riemann_message_t *msg = read_exact (c, body, len) ? riemann_message_from_buffer (body, len) : NULL;
      g_free (body);
      if (!msg)
        break;
      gboolean go_on = answer (c, msg, generation);
      riemann_message_free (msg);
      if (!go_on)
        break;
    }
  if (c->ssl)
    SSL_free (c->ssl);
  close (c->fd);
  g_free (c);
  return NULL;
}

static gint
listen_on (guint16 port)
{
  gint fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  gint on = 1;
  setsockopt (fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons (port),
                             .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  if (bind (fd, (struct sockaddr *) &sin, sizeof sin) != 0 || listen (fd, 16) != 0)
    {
      close (fd);
      return -1;
    }
  return fd;
}

static gpointer
accept_loop (gpointer data)
{
  gboolean tls = GPOINTER_TO_INT (data);
  for (;;)
    {
      g_mutex_lock (&rx.lock);
      gint lfd = tls ? rx.tls_fd : rx.listen_fd;
      gboolean quit = rx.quit;
      g_mutex_unlock (&rx.lock);
      if (quit)
        return NULL;
      gint fd = lfd >= 0 ? accept4 (lfd, NULL, NULL, SOCK_CLOEXEC) : -1;
      if (fd < 0)
        {
          g_usleep (20 * 1000);
          continue;
        }
      Conn *c = g_new0 (Conn, 1);
      c->fd = fd;
      if (tls)
        {
          c->ssl = SSL_new (rx.tls);
          SSL_set_fd (c->ssl, fd);
        }
      g_thread_unref (g_thread_new ("riemann-rx", serve_connection, c));
    }
}

static gpointer
udp_loop (gpointer data)
{
  guint8 *buf = g_malloc (65536);
  for (;;)
    {
      ssize_t got = recv (rx.udp_fd, buf, 65536, 0);
      g_mutex_lock (&rx.lock);
      gboolean quit = rx.quit;
      g_mutex_unlock (&rx.lock);
      if (quit)
        break;
      riemann_message_t *msg = got > 0 ? riemann_message_from_buffer (buf, (size_t) got) : NULL;
      if (!msg)
        continue;
      g_mutex_lock (&rx.lock);
      for (size_t i = 0; i < msg->n_events; i++)
        g_ptr_array_add (rx.events, event_text (msg->events[i]));
      g_mutex_unlock (&rx.lock);
      riemann_message_free (msg);
    }
  g_free (buf);
  return NULL;
}

/* Gone: the listener closes (new connections are refused) and every
 * connection hangs up at its next Msg; back: listening again on the port. */
static void
receiver_set_mode (ReceiverMode mode)
{
  g_mutex_lock (&rx.lock);
  if (mode == RECEIVER_GONE && rx.listen_fd >= 0)
    {
      shutdown (rx.listen_fd, SHUT_RDWR);
      close (rx.listen_fd);
      rx.listen_fd = -1;
    }
  if (mode == RECEIVER_ANSWERING)
    {
      rx.generation++;
      if (rx.listen_fd < 0)
        rx.listen_fd = listen_on (rx.port);
    }
  rx.mode = mode;
  g_cond_broadcast (&rx.changed);
  g_mutex_unlock (&rx.lock);
}

/* The answered events whose text contains marker, in the order received,
 * with marker cut out, one a line. */
static gchar *
receiver_events (const gchar *marker, guint *n)
{
  GString *out = g_string_new (NULL);
  *n = 0;
  g_mutex_lock (&rx.lock);
  for (guint i = 0; i < rx.events->len; i++)
    {
      const gchar *text = g_ptr_array_index (rx.events, i);
      const gchar *at = strstr (text, marker);
      if (!at)
        continue;
      g_string_append_len (out, text, at - text);
      g_string_append (out, at + strlen (marker));
      g_string_append_c (out, '\n');
      (*n)++;
    }
  g_mutex_unlock (&rx.lock);
  return g_string_free (out, FALSE);
}

static gboolean
receiver_wait (const gchar *marker, guint n)
{
  guint have = 0;
  for (guint i = 0; i < SL_TEST_DEADLINE_MS / 50; i++)
    {
      g_free (receiver_events (marker, &have));
      if (have >= n)
        return TRUE;
      g_usleep (50 * 1000);
    }
  g_autofree gchar *events = receiver_events (marker, &have);
  g_test_fail_printf ("the receiver has %u events with %s, not %u:\n%s", have, marker, n, events);
  return FALSE;
}

/* config run by syslog-ng and by sluiced (@RIEMANN@ the receiver's port,
 * @CERTS@ its certificate's folder) with text sent to both, every event
 * carrying the attribute who=NAME:TAG for each of tags; TRUE once n events
 * of each tag came from both, whose texts (who cut out) are then in
 * sl_events and ng_events, one per tag. */
static gboolean
events_side_by_side (SlTestEnv *env, const gchar *config, guint16 port, const gchar *text,
                     const gchar *const *tags, guint n, GStrv *sl_events, GStrv *ng_events)
{
  g_autofree gchar *port_text = g_strdup_printf ("%u", port);
  GString *conf = g_string_new (config);
  g_string_replace (conf, "@RIEMANN@", port_text, 0);
  g_string_replace (conf, "@CERTS@", rx.dir, 0);
  g_autofree gchar *sl_out = NULL, *ng_out = NULL;
  GPid ng = 0;
  gboolean ran = sl_test_side_by_side (env, conf->str, text, NULL, 0, &sl_out, &ng_out, &ng);
  g_string_free (conf, TRUE);
  if (!ran)
    return FALSE;
  guint n_tags = g_strv_length ((gchar **) tags);
  GPtrArray *markers = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < n_tags; i++)
    {
      g_ptr_array_add (markers, g_strdup_printf (" attribute='who'='sl:%s'", tags[i]));
      g_ptr_array_add (markers, g_strdup_printf (" attribute='who'='ng:%s'", tags[i]));
    }
  gboolean delivered = TRUE;
  for (guint i = 0; i < markers->len && delivered; i++)
    delivered = receiver_wait (g_ptr_array_index (markers, i), n);
  sl_test_syslog_ng_stop (env, ng);
  *sl_events = g_new0 (gchar *, n_tags + 1);
  *ng_events = g_new0 (gchar *, n_tags + 1);
  for (guint i = 0; i < n_tags && delivered; i++)
    {
      guint got;
      (*sl_events)[i] = receiver_events (g_ptr_array_index (markers, 2 * i), &got);
      (*ng_events)[i] = receiver_events (g_ptr_array_index (markers, 2 * i + 1), &got);
    }
  g_ptr_array_free (markers, TRUE);
  return delivered;
}

static const gchar config[] =
  "@version: 3.38\n"
  "options { keep-hostname(yes); };\n"
  "source s { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_full { riemann(server(\"127.0.0.1\") port(@RIEMANN@) type(\"tcp\") persist-name(\"d_full\")\n"
  "    host(\"${HOST}.example\") service(\"${PROGRAM}/syslog\") state(\"ok\") description(\"${MSG}\")\n"
  "    metric(\"${PID}\") ttl(\"30.5\") tags(\"syslog\" \"sluice-test\") timeout(5)\n"
  "    attributes(scope(\"selected-macros\") exclude(\"DATE\") exclude(\"R_*\") exclude(\"S_*\")\n"
  "               pair(\"who\" \"@NAME@:full\") pair(\".meta.id\" \"${PID}\") facility-name(\"$FACILITY\"))); };\n"
  "destination d_plain { riemann(port(@RIEMANN@) persist-name(\"d_plain\") batch-lines(10)\n"
  "    event-time(\"${UNIXTIME}\" seconds) attributes(pair(\"who\" \"@NAME@:plain\"))); };\n"
  "destination d_micros { riemann(port(@RIEMANN@) persist-name(\"d_micros\") host(\"\") tags(\"a\" \"b\")\n"
  "    event-time(\"${UNIXTIME}250000\" microseconds) attributes(pair(\"who\" \"@NAME@:micros\"))); };\n"
  "log { source(s); destination(d_full); destination(d_plain); destination(d_micros); flags(flow-control); };\n";

static void
test_same_as_syslog_ng (SlTestEnv *env, gconstpointer data)
{
  GString *text = g_string_new (NULL);
  for (guint i = 0; i < 30; i++)
    {
      if (i % 5 == 4)
        g_string_append_printf (text, "<%u>2026-12-01T10:00:%02u+00:00 host%u app%u: no pid here %u\n", 8 * (i % 4) + 5,
                                i, i % 3, i % 7, i);
      else
        g_string_append_printf (text, "<%u>2026-12-01T10:00:%02u+00:00 host%u app%u[%u]: message %u with \"quotes\"\n",
                                8 * (i % 4) + 5, i, i % 3, i % 7, 100 + i, i);
    }
  const gchar *const tags[] = { "full", "plain", "micros", NULL };
  g_auto (GStrv) sl = NULL;
  g_auto (GStrv) ng = NULL;
  gboolean ran = events_side_by_side (env, config, rx.port, text->str, tags, 30, &sl, &ng);
  g_string_free (text, TRUE);
  if (!ran)
    return;
  g_test_message ("syslog-ng's first event: %.*s", (int) (strchr (ng[0], '\n') - ng[0]), ng[0]);
  g_assert_cmpstr (sl[0], ==, ng[0]);
  g_assert_cmpstr (sl[1], ==, ng[1]);
  g_assert_cmpstr (sl[2], ==, ng[2]);
  g_assert_nonnull (strstr (sl[0], "host='host1.example' service='app1/syslog' state='ok' "
                                   "description='message 1 with \"quotes\"' time=1796119201 ttl=30.5 metric_d=101"));
  g_assert_nonnull (strstr (sl[0], "attribute='.meta.id'='101'"));
  g_assert_nonnull (strstr (sl[1], "host='host2' service='app2' time=1796119202"));
  /* an empty host() leaves the field out */
  g_assert_true (g_str_has_prefix (sl[2], "service='app0' time_micros=1796119200250000 tag='a' tag='b'\n"));
}

/* type(udp): the same events from both, one Msg a datagram. */
static void
test_udp_same_as_syslog_ng (SlTestEnv *env, gconstpointer data)
{
  GString *text = g_string_new (NULL);
  for (guint i = 0; i < 10; i++)
    g_string_append_printf (text, "<%u>2026-12-01T10:00:%02u+00:00 host%u app[%u]: over udp %u\n", 8 + i % 8, i,
                            i % 2, 7 * i, i);
  const gchar *const tags[] = { "udp", NULL };
  g_auto (GStrv) sl = NULL;
  g_auto (GStrv) ng = NULL;
  gboolean ran = events_side_by_side (env,
                                      "@version: 3.38\n"
                                      "options { keep-hostname(yes); };\n"
                                      "source s { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
                                      "destination d { riemann(type(\"udp\") port(@RIEMANN@) state(\"${LEVEL}\")\n"
                                      "    description(\"${MSG}\") metric(\"${PID}\") attributes(pair(\"who\" \"@NAME@:udp\"))); };\n"
                                      "log { source(s); destination(d); flags(flow-control); };\n",
                                      rx.port, text->str, tags, 10, &sl, &ng);
  g_string_free (text, TRUE);
  if (!ran)
    return;
  g_assert_cmpstr (sl[0], ==, ng[0]);
  g_assert_nonnull (strstr (sl[0], "host='host1' service='app' state='alert' description='over udp 1' "
                                   "time=1796119201 metric_d=7 tag='.source.s'"));
}

/* type(tls) with its files in type() (as syslog-ng's documentation writes
 * them) and in tls(): the same events
 * from both over TLS (riemann-c-client's GnuTLS client, the receiver's
 * OpenSSL server on a self-signed certificate for 127.0.0.1). */
static void
test_tls_same_as_syslog_ng (SlTestEnv *env, gconstpointer data)
{
  if (!rx.tls)
    {
      g_test_skip ("no certificate for the receiver (openssl req failed)");
      return;
    }
  GString *text = g_string_new (NULL);
  for (guint i = 0; i < 10; i++)
    g_string_append_printf (text, "<13>2026-12-01T10:00:%02u+00:00 host app: over tls %u\n", i, i);
  const gchar *const tags[] = { "tls", NULL };
  g_auto (GStrv) sl = NULL;
  g_auto (GStrv) ng = NULL;
  gboolean ran = events_side_by_side (env,
                                      "@version: 3.38\n"
                                      "options { keep-hostname(yes); };\n"
                                      "source s { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
                                      "destination d { riemann(server(\"127.0.0.1\") port(@RIEMANN@)\n"
                                      "    type(\"tls\" ca-file(\"@CERTS@/cert.pem\")) tls(cert-file(\"@CERTS@/cert.pem\")\n"
                                      "        key-file(\"@CERTS@/key.pem\"))\n"
                                      "    description(\"${MSG}\") tags(\"tls\") attributes(pair(\"who\" \"@NAME@:tls\"))); };\n"
                                      "log { source(s); destination(d); flags(flow-control); };\n",
                                      rx.tls_port, text->str, tags, 10, &sl, &ng);
  g_string_free (text, TRUE);
  if (!ran)
    return;
  g_assert_cmpstr (sl[0], ==, ng[0]);
  g_assert_nonnull (strstr (sl[0], "host='host' service='app' description='over tls 9' time=1796119209 tag='tls'"));
}

/* A metric() or ttl() that is not a number drops the message (syslog-ng's
 * on-error(drop-message), its default), counted; the others go. syslog-ng
 * then waits time-reopen() before the next message; Sluice goes on. */
static void
test_not_a_number (SlTestEnv *env, gconstpointer data)
{
  const gchar *text = "<13>2026-12-01T10:00:00+00:00 h app: 42\n"
                      "<13>2026-12-01T10:00:01+00:00 h app: lots\n"
                      "<13>2026-12-01T10:00:02+00:00 h app: 7.5\n";
  const gchar *const tags[] = { "numbers", NULL };
  g_auto (GStrv) sl = NULL;
  g_auto (GStrv) ng = NULL;
  gboolean ran = events_side_by_side (env,
                                      "@version: 3.38\n"
                                      "options { keep-hostname(yes); };\n"
                                      "source s { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
                                      "destination d { riemann(port(@RIEMANN@) metric(\"${MSG}\") ttl(\"${MSG}\") time-reopen(1)\n"
                                      "    attributes(pair(\"who\" \"@NAME@:numbers\"))); };\n"
                                      "log { source(s); destination(d); flags(flow-control); };\n",
                                      rx.port, text, tags, 2, &sl, &ng);
  if (!ran)
    return;
  g_assert_cmpstr (sl[0], ==, ng[0]);
  g_assert_cmpstr (sl[0], ==, "host='h' service='app' time=1796119200 ttl=42 metric_d=42 tag='.source.s'\n"
                              "host='h' service='app' time=1796119202 ttl=7.5 metric_d=7.5 tag='.source.s'\n");
  g_assert_true (sl_test_wait_stat (env, "destination", "d", "conversion_errors", 1));
  g_assert_true (sl_test_wait_stat (env, "destination", "d", "dropped", 1));
}

/* A self-signed certificate for 127.0.0.1 in rx.dir, and the server
 * context on it; FALSE when openssl could not make one. */
static gboolean
receiver_tls_setup (void)
{
  g_autofree gchar *key = g_build_filename (rx.dir, "key.pem", NULL);
  g_autofree gchar *cert = g_build_filename (rx.dir, "cert.pem", NULL);
  const gchar *argv[] = { "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                          "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                          "-keyout", key, "-out", cert, NULL };
  if (sl_test_run_argv (argv, NULL, NULL) != 0)
    return FALSE;
  rx.tls = SSL_CTX_new (TLS_server_method ());
  if (SSL_CTX_use_certificate_file (rx.tls, cert, SSL_FILETYPE_PEM) != 1
      || SSL_CTX_use_PrivateKey_file (rx.tls, key, SSL_FILETYPE_PEM) != 1)
    {
      SSL_CTX_free (rx.tls);
      rx.tls = NULL;
      return FALSE;
    }
  rx.tls_port = sl_test_free_port (SOCK_STREAM);
  rx.tls_fd = listen_on (rx.tls_port);
  if (rx.tls_fd < 0)
    return FALSE;
  rx.tls_acceptor = g_thread_new ("riemann-tls-accept", accept_loop, GINT_TO_POINTER (TRUE));
  return TRUE;
}

/* How many of 0..n-1 came as description='K' with marker. */
static guint
receiver_distinct (const gchar *marker, guint n, guint *total)
{
  g_autofree gchar *text = receiver_events (marker, total);
  g_autofree gboolean *seen = g_new0 (gboolean, n);
  guint distinct = 0;
  for (const gchar *p = strstr (text, "description='"); p; p = strstr (p + 1, "description='"))
    {
      guint64 v = g_ascii_strtoull (p + strlen ("description='"), NULL, 10);
      if (v < n && !seen[v])
        {
          seen[v] = TRUE;
          distinct++;
        }
    }
  return distinct;
}

static gboolean
receiver_wait_distinct (const gchar *marker, guint want, guint n)
{
  guint distinct = 0, total = 0;
  for (guint i = 0; i < 2 * SL_TEST_DEADLINE_MS / 50; i++)
    {
      if ((distinct = receiver_distinct (marker, n, &total)) >= want)
        return TRUE;
      g_usleep (50 * 1000);
    }
  g_test_fail_printf ("%u of %u messages arrived (%u events)", distinct, want, total);
  return FALSE;
}

/* Waits until the daemon's stderr holds needle at least n times. */
static gboolean
wait_stderr_count (SlTestEnv *env, const gchar *needle, guint n)
{
  guint count = 0;
  for (guint i = 0; i < SL_TEST_DEADLINE_MS / 50; i++)
    {
      g_autofree gchar *err = sl_test_daemon_stderr (env);
      count = 0;
      for (const gchar *p = err ? strstr (err, needle) : NULL; p; p = strstr (p + 1, needle))
        count++;
      if (count >= n)
        return TRUE;
      g_usleep (50 * 1000);
    }
  g_test_fail_printf ("stderr showed '%s' %u times, not %u", needle, count, n);
  return FALSE;
}

/* messages first..first+n-1 of the flow test, on a connection of their own */
static SlTestSender *
send_flow (guint16 tcp, guint first, guint n)
{
  GString *text = g_string_new (NULL);
  for (guint i = first; i < first + n; i++)
    g_string_append_printf (text, "<13>Dec  1 10:00:00 h app: %u\n", i);
  return sl_test_sender_start (sl_test_tcp_connect (tcp), text);
}

/* Under flow control, the receiver stops answering while the first half
 * is sent (each Msg held until the client's timeout() gives up on it), and
 * is gone (connections refused, the open one hung up on) while the second
 * half is: every message arrives (at least once) after it answers again.
 * Each outage lasts until sluiced said it lost the connection. */
static void
test_receiver_lost (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *port = g_strdup_printf ("%u", rx.port);
  guint16 tcp = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *tcp_text = g_strdup_printf ("%u", tcp);
  g_assert_true (sl_test_write_config (env,
                                       "@version: 4.0\n"
                                       "source s { tcp(ip(\"127.0.0.1\") port(@TCP@) log-iw-size(1000)); };\n"
                                       "destination d { riemann(port(@RIEMANN@) service(\"flow\") description(\"${MSG}\")\n"
                                       "                        batch-lines(20) timeout(1) time-reopen(1) log-fifo-size(1000)); };\n"
                                       "log { source(s); destination(d); flags(flow-control); };\n",
                                       "TCP", tcp_text, "RIEMANN", port, NULL));
  if (!sl_test_daemon_start (env) || !sl_test_wait_tcp (env, tcp))
    return;
  const guint n = 20000;
  const gchar *marker = " service='flow'";
  const gchar *lost = "the connection to riemann failed";
  receiver_set_mode (RECEIVER_SILENT);
  SlTestSender *sender = send_flow (tcp, 0, n / 2);
  gboolean ok = wait_stderr_count (env, lost, 1);
  receiver_set_mode (RECEIVER_ANSWERING);
  sl_test_sender_join (sender);
  if (!ok || !receiver_wait_distinct (marker, n / 2, n))
    return;
  receiver_set_mode (RECEIVER_GONE);
  sender = send_flow (tcp, n / 2, n / 2);
  ok = wait_stderr_count (env, lost, 2);
  receiver_set_mode (RECEIVER_ANSWERING);
  sl_test_sender_join (sender);
  if (!ok || !receiver_wait_distinct (marker, n, n))
    return;
  guint total = 0;
  g_assert_cmpuint (receiver_distinct (marker, n, &total), ==, n);
  g_test_message ("%u events for %u messages", total, n);
  g_assert_true (sl_test_wait_stat (env, "destination", "d", "dropped", 0));
}

/* An event the server answers with an error is sent retries() times,
 * then dropped and counted; the messages after it still go. */
static void
test_error_answer (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *port = g_strdup_printf ("%u", rx.port);
  guint16 tcp = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *tcp_text = g_strdup_printf ("%u", tcp);
  g_assert_true (sl_test_write_config (env,
                                       "@version: 4.0\n"
                                       "source s { tcp(ip(\"127.0.0.1\") port(@TCP@)); };\n"
                                       "destination d { riemann(port(@RIEMANN@) service(\"refusals\") description(\"${MSG}\")\n"
                                       "                        retries(2) time-reopen(1)); };\n"
                                       "log { source(s); destination(d); flags(flow-control); };\n",
                                       "TCP", tcp_text, "RIEMANN", port, NULL));
  if (!sl_test_daemon_start (env) || !sl_test_wait_tcp (env, tcp))
    return;
  g_assert_true (sl_test_tcp_send (tcp, "<13>Dec  1 10:00:00 h app: one\n"
                                        "<13>Dec  1 10:00:00 h app: refuse two\n"
                                        "<13>Dec  1 10:00:00 h app: three\n"));
  const gchar *marker = " service='refusals'";
  if (!receiver_wait (marker, 2) || !sl_test_wait_stat (env, "destination", "d", "refused", 1)
      || !sl_test_wait_stat (env, "destination", "d", "dropped", 1))
    return;
  guint n;
  g_autofree gchar *events = receiver_events (marker, &n);
  g_assert_nonnull (strstr (events, "description='one'"));
  g_assert_nonnull (strstr (events, "description='three'"));
  g_assert_null (strstr (events, "refuse"));
  g_mutex_lock (&rx.lock);
  guint refusals = rx.refusals;
  g_mutex_unlock (&rx.lock);
  g_assert_cmpuint (refusals, ==, 2);
}

static void
expect_refused (SlTestEnv *env, const gchar *driver, const gchar *needle)
{
  g_autofree gchar *text = g_strdup_printf ("@version: 4.0\nsource s { stdin(); };\n"
                                            "destination d { %s };\nlog { source(s); destination(d); };\n", driver);
  g_autofree gchar *err = sl_test_refused_config (env, text, NULL);
  if (err && !strstr (err, needle))
    g_test_fail_printf ("expected '%s' in:\n%s", needle, err);
}

static void
test_config_errors (SlTestEnv *env, gconstpointer data)
{
  expect_refused (env, "riemann(type(\"sctp\"));", "sluice.conf:3:30:");
  expect_refused (env, "riemann(type(\"sctp\"));", "sctp");
  expect_refused (env, "riemann(type(\"tls\" ca-dir(\"/tmp\")));", "ca-dir");
  expect_refused (env, "riemann(ttl(\"-5\"));",
                  "sluice.conf:3:25: riemann() ttl() must be a number of seconds from 0, not '-5'");
  expect_refused (env, "riemann(metric(\"lots\"));", "riemann() metric() must be a number, not 'lots'");
  expect_refused (env, "riemann(port(70000));", "sluice.conf:3:");
  expect_refused (env, "riemann(event-time(\"${UNIXTIME}\" hours));",
                  "riemann() event-time()'s unit is seconds or microseconds, not 'hours'");
  expect_refused (env, "riemann(attributes(rekey(\"x*\" upcase())));", "rekey() has no upcase()");
  expect_refused (env, "riemann(tls(ca-dir(\"/tmp\")));", "ca-dir");
  expect_refused (env, "riemann(retries(0));", "sluice.conf:3:");
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  g_setenv ("TZ", "UTC", TRUE);
  rx.events = g_ptr_array_new_with_free_func (g_free);
  rx.port = sl_test_free_port (SOCK_STREAM);
  rx.listen_fd = listen_on (rx.port);
  if (rx.listen_fd < 0)
    {
      g_printerr ("the Riemann receiver cannot listen on port %u\n", rx.port);
      return 1;
    }
  rx.acceptor = g_thread_new ("riemann-accept", accept_loop, GINT_TO_POINTER (FALSE));
  rx.udp_fd = socket (AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons (rx.port),
                             .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  if (bind (rx.udp_fd, (struct sockaddr *) &sin, sizeof sin) != 0)
    {
      g_printerr ("the Riemann receiver cannot bind UDP port %u\n", rx.port);
      return 1;
    }
  rx.udp_reader = g_thread_new ("riemann-udp", udp_loop, NULL);
  rx.tls_fd = -1;
  rx.dir = sl_test_peer_dir ("riemann");
  if (!rx.dir || !receiver_tls_setup ())
    g_printerr ("no TLS receiver: the TLS test is skipped\n");
  SL_TEST_ADD ("/riemann/same-as-syslog-ng", test_same_as_syslog_ng);
  SL_TEST_ADD ("/riemann/udp-same-as-syslog-ng", test_udp_same_as_syslog_ng);
  SL_TEST_ADD ("/riemann/tls-same-as-syslog-ng", test_tls_same_as_syslog_ng);
  SL_TEST_ADD ("/riemann/not-a-number", test_not_a_number);
  SL_TEST_ADD ("/riemann/receiver-lost", test_receiver_lost);
  SL_TEST_ADD ("/riemann/error-answer", test_error_answer);
  SL_TEST_ADD ("/riemann/config-errors", test_config_errors);
  gint status = g_test_run ();
  g_mutex_lock (&rx.lock);
  rx.quit = TRUE;
  if (rx.listen_fd >= 0)
    shutdown (rx.listen_fd, SHUT_RDWR);
  if (rx.tls_fd >= 0)
    shutdown (rx.tls_fd, SHUT_RDWR);
  g_cond_broadcast (&rx.changed);
  g_mutex_unlock (&rx.lock);
  g_thread_join (rx.acceptor);
  shutdown (rx.udp_fd, SHUT_RDWR);
  g_thread_join (rx.udp_reader);
  close (rx.udp_fd);
  if (rx.tls_acceptor)
    {
      g_thread_join (rx.tls_acceptor);
      close (rx.tls_fd);
    }
  if (rx.tls)
    SSL_CTX_free (rx.tls);
  if (!sl_test_peer_stop (0, rx.dir))
    status = 1;
  g_free (rx.dir);
  if (rx.listen_fd >= 0)
    close (rx.listen_fd);
  g_ptr_array_free (rx.events, TRUE);
  return status;
}
