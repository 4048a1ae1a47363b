/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "tests/peers/rabbitmq-peer.h"
#include "tests/functional/harness.h"

#include <amqp.h>
#include <amqp_framing.h>
#include <amqp_tcp_socket.h>
#include <glib/gstdio.h>
#include <netinet/in.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

gboolean
rabbit_peer_port_open (guint16 port)
{
  gint fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons (port), .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  gboolean open = fd >= 0 && connect (fd, (struct sockaddr *) &sa, sizeof sa) == 0;
  if (fd >= 0)
    close (fd);
  return open;
}

gboolean
rabbit_peer_start (RabbitPeer *peer, guint limit_ms)
{
  if (!peer->dir)
    {
      peer->dir = sl_test_peer_dir ("rabbitmq");
      peer->amqp_port = sl_test_free_port (SOCK_STREAM);
      peer->stomp_port = sl_test_free_port (SOCK_STREAM);
      peer->dist_port = sl_test_free_port (SOCK_STREAM);
      peer->epmd_port = sl_test_free_port (SOCK_STREAM);
      peer->tls_port = sl_test_free_port (SOCK_STREAM);
      g_autofree gchar *tls_dir = g_build_filename (peer->dir, "tls", NULL);
      g_autofree gchar *key = g_build_filename (tls_dir, "key.pem", NULL);
      peer->tls_cert = g_build_filename (tls_dir, "cert.pem", NULL);
      const gchar *openssl[] = { "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key,
                                 "-out", peer->tls_cert, "-days", "2", "-subj", "/CN=localhost",
                                 "-addext", "subjectAltName=DNS:localhost", NULL };
      if (g_mkdir (tls_dir, 0700) != 0 || sl_test_run_argv (openssl, NULL, NULL) != 0)
        return FALSE;
      g_autofree gchar *epmd_port = g_strdup_printf ("%u", peer->epmd_port);
      g_autofree gchar *epmd_err = g_build_filename (peer->dir, "epmd.stderr", NULL);
      const gchar *epmd[] = { "epmd", "-port", epmd_port, "-address", "127.0.0.1", NULL };
      peer->epmd_pid = sl_test_spawn_argv (epmd, epmd_err);
      if (!peer->epmd_pid)
        return FALSE;
    }
  g_autofree gchar *script = g_build_filename (g_getenv ("SL_TOP_SRCDIR"), "tests", "peers", "rabbitmq", NULL);
  g_autofree gchar *amqp = g_strdup_printf ("%u", peer->amqp_port);
  g_autofree gchar *stomp = g_strdup_printf ("%u", peer->stomp_port);
  g_autofree gchar *dist = g_strdup_printf ("%u", peer->dist_port);
  g_autofree gchar *epmd = g_strdup_printf ("%u", peer->epmd_port);
  g_autofree gchar *tls = g_strdup_printf ("%u", peer->tls_port);
  g_autofree gchar *err = g_build_filename (peer->dir, "rabbitmq.stderr", NULL);
  const gchar *argv[] = { script, peer->dir, amqp, stomp, dist, epmd, tls, NULL };
  gint64 start = g_get_monotonic_time ();
  peer->pid = sl_test_spawn_argv (argv, err);
  if (!peer->pid)
    return FALSE;
  while (g_get_monotonic_time () - start < (gint64) limit_ms * 1000)
    {
      if (sl_test_child_exited (peer->pid, NULL))
        break;
      /* the STOMP listener opens after the AMQP one, at the end of boot */
      if (rabbit_peer_port_open (peer->amqp_port) && rabbit_peer_port_open (peer->stomp_port)
          && rabbit_peer_port_open (peer->tls_port))
        {
          g_test_message ("rabbitmq-server answered after %.1f s",
                          (g_get_monotonic_time () - start) / 1e6);
          return TRUE;
        }
      g_usleep (100 * 1000);
    }
  g_autofree gchar *log = sl_test_read_file (err);
  g_printerr ("rabbitmq-server did not answer within %u ms:\n%s\n", limit_ms, log ? log : "");
  return FALSE;
}

void
rabbit_peer_kill (RabbitPeer *peer)
{
  kill (peer->pid, SIGKILL);
  sl_test_child_wait (peer->pid, SL_TEST_DEADLINE_MS * 1000);
  peer->pid = 0;
}

gboolean
rabbit_peer_stop (RabbitPeer *peer)
{
  gboolean ok = TRUE;
  if (peer->pid)
    {
      kill (peer->pid, SIGTERM);
      if (sl_test_child_wait (peer->pid, 3 * SL_TEST_DEADLINE_MS * 1000) == -1)
        ok = FALSE;
    }
  if (peer->epmd_pid)
    {
      kill (peer->epmd_pid, SIGTERM);
      if (sl_test_child_wait (peer->epmd_pid, SL_TEST_DEADLINE_MS * 1000) == -1)
        ok = FALSE;
    }
  if (!sl_test_peer_stop (0, peer->dir))
    ok = FALSE;
  g_clear_pointer (&peer->dir, g_free);
  g_free (peer->tls_cert);
  return ok;
}

static amqp_connection_state_t
broker_connect (const RabbitPeer *broker)
{
  amqp_connection_state_t conn = amqp_new_connection ();
  amqp_socket_t *socket = amqp_tcp_socket_new (conn);
  struct timeval timeout = { 10, 0 };
  if (amqp_socket_open_noblock (socket, "127.0.0.1", broker->amqp_port, &timeout) != AMQP_STATUS_OK
      || amqp_login (conn, "/", 0, AMQP_DEFAULT_FRAME_SIZE, 0, AMQP_SASL_METHOD_PLAIN, "guest", "guest").reply_type
           != AMQP_RESPONSE_NORMAL)
    {
      amqp_destroy_connection (conn);
      return NULL;
    }
  amqp_channel_open (conn, 1);
  if (amqp_get_rpc_reply (conn).reply_type != AMQP_RESPONSE_NORMAL)
    {
      amqp_destroy_connection (conn);
      return NULL;
    }
  return conn;
}

/* The broker answers once its boot is over; a connection made just after
 * a restart may still be refused. */
static amqp_connection_state_t
broker_connect_waiting (const RabbitPeer *broker)
{
  for (guint i = 0; i < 600; i++)
    {
      amqp_connection_state_t conn = broker_connect (broker);
      if (conn)
        return conn;
      g_usleep (100 * 1000);
    }
  g_test_fail_printf ("cannot log in to rabbitmq on port %u", broker->amqp_port);
  return NULL;
}

static void
broker_disconnect (amqp_connection_state_t conn)
{
  amqp_channel_close (conn, 1, AMQP_REPLY_SUCCESS);
  amqp_connection_close (conn, AMQP_REPLY_SUCCESS);
  amqp_destroy_connection (conn);
}

static gboolean
rpc_ok (amqp_connection_state_t conn, const gchar *what)
{
  amqp_rpc_reply_t reply = amqp_get_rpc_reply (conn);
  if (reply.reply_type == AMQP_RESPONSE_NORMAL)
    return TRUE;
  g_test_fail_printf ("%s failed (reply type %d)", what, reply.reply_type);
  return FALSE;
}

/* A durable queue bound to exchange with key; the exchange is declared
 * first (as the destination will: not durable) unless it is amq.*. */
gboolean
rabbit_peer_bind_queue (const RabbitPeer *broker, const gchar *queue, const gchar *exchange, const gchar *type, const gchar *key)
{
  amqp_connection_state_t conn = broker_connect_waiting (broker);
  if (!conn)
    return FALSE;
  gboolean ok = TRUE;
  if (type)
    {
      amqp_exchange_declare (conn, 1, amqp_cstring_bytes (exchange), amqp_cstring_bytes (type), 0, 0, 0, 0,
                             amqp_empty_table);
      ok = rpc_ok (conn, "exchange.declare");
    }
  if (ok)
    {
      amqp_queue_declare (conn, 1, amqp_cstring_bytes (queue), 0, 1, 0, 0, amqp_empty_table);
      ok = rpc_ok (conn, "queue.declare");
    }
  if (ok)
    {
      amqp_queue_bind (conn, 1, amqp_cstring_bytes (queue), amqp_cstring_bytes (exchange), amqp_cstring_bytes (key),
                       amqp_empty_table);
      ok = rpc_ok (conn, "queue.bind");
    }
  broker_disconnect (conn);
  return ok;
}

/* How many messages queue holds, -1 when the broker does not answer. */
gint64
rabbit_peer_queue_count (const RabbitPeer *broker, const gchar *queue)
{
  amqp_connection_state_t conn = broker_connect (broker);
  if (!conn)
    return -1;
  amqp_queue_declare_ok_t *ok = amqp_queue_declare (conn, 1, amqp_cstring_bytes (queue), 1, 0, 0, 0, amqp_empty_table);
  gint64 n = ok ? (gint64) ok->message_count : -1;
  broker_disconnect (conn);
  return n;
}

gboolean
rabbit_peer_wait_count (const RabbitPeer *broker, const gchar *queue, gint64 n, guint limit_ms)
{
  gint64 have = -1;
  for (guint i = 0; i < limit_ms / 100; i++)
    {
      if ((have = rabbit_peer_queue_count (broker, queue)) >= n)
        return TRUE;
      g_usleep (100 * 1000);
    }
  g_test_fail_printf ("queue %s holds %" G_GINT64_FORMAT " messages, not %" G_GINT64_FORMAT, queue, have, n);
  return FALSE;
}

static gchar *
bytes_dup (amqp_bytes_t b)
{
  return g_strndup (b.bytes, b.len);
}

static gint
compare_strings (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const gchar *const *) a, *(const gchar *const *) b);
}

/* One message as text: routing key, content type, delivery mode, the
 * headers sorted by name, and the body. */
static gchar *
describe (const amqp_envelope_t *e)
{
  const amqp_basic_properties_t *p = &e->message.properties;
  GString *out = g_string_new (NULL);
  g_autofree gchar *key = bytes_dup (e->routing_key);
  g_autofree gchar *type = (p->_flags & AMQP_BASIC_CONTENT_TYPE_FLAG) ? bytes_dup (p->content_type) : g_strdup ("-");
  g_string_append_printf (out, "key=%s type=%s mode=%d\n", key, type,
                          (p->_flags & AMQP_BASIC_DELIVERY_MODE_FLAG) ? p->delivery_mode : 0);
  GPtrArray *headers = g_ptr_array_new_with_free_func (g_free);
  for (gint i = 0; (p->_flags & AMQP_BASIC_HEADERS_FLAG) && i < p->headers.num_entries; i++)
    {
      const amqp_table_entry_t *h = &p->headers.entries[i];
      g_autofree gchar *name = bytes_dup (h->key);
      g_autofree gchar *value = h->value.kind == AMQP_FIELD_KIND_UTF8 || h->value.kind == AMQP_FIELD_KIND_BYTES
                                  ? bytes_dup (h->value.value.bytes) : g_strdup_printf ("<kind %c>", h->value.kind);
      g_ptr_array_add (headers, g_strdup_printf ("  %s=%s (%c)", name, value, h->value.kind));
    }
  g_ptr_array_sort (headers, compare_strings);
  for (guint i = 0; i < headers->len; i++)
    g_string_append_printf (out, "%s\n", (const gchar *) g_ptr_array_index (headers, i));
  g_ptr_array_free (headers, TRUE);
  g_autofree gchar *body = bytes_dup (e->message.body);
  g_string_append_printf (out, "body=%s\n", body);
  return g_string_free (out, FALSE);
}

/* Takes n messages off queue, each described. */
GPtrArray *
rabbit_peer_consume (const RabbitPeer *broker, const gchar *queue, guint n)
{
  amqp_connection_state_t conn = broker_connect_waiting (broker);
  if (!conn)
    return NULL;
  GPtrArray *messages = g_ptr_array_new_with_free_func (g_free);
  amqp_basic_consume (conn, 1, amqp_cstring_bytes (queue), amqp_empty_bytes, 0, 1, 0, amqp_empty_table);
  if (rpc_ok (conn, "basic.consume"))
    while (messages->len < n)
      {
        amqp_envelope_t envelope;
        struct timeval timeout = { SL_TEST_DEADLINE_MS / 1000, 0 };
        amqp_maybe_release_buffers (conn);
        if (amqp_consume_message (conn, &envelope, &timeout, 0).reply_type != AMQP_RESPONSE_NORMAL)
          break;
        g_ptr_array_add (messages, describe (&envelope));
        amqp_destroy_envelope (&envelope);
      }
  broker_disconnect (conn);
  if (messages->len < n)
    g_test_fail_printf ("took %u messages off %s, not %u", messages->len, queue, n);
  return messages;
}

gchar *
rabbit_peer_joined (GPtrArray *messages)
{
  GString *out = g_string_new (NULL);
  for (guint i = 0; i < messages->len; i++)
    g_string_append (out, g_ptr_array_index (messages, i));
  return g_string_free (out, FALSE);
}

/* The first line where sluiced's messages and syslog-ng's differ, so
 * that a failure need not be read in two long strings. */
void
rabbit_peer_show_difference (const gchar *sl, const gchar *ng)
{
  g_auto (GStrv) a = g_strsplit (sl ? sl : "", "\n", -1);
  g_auto (GStrv) b = g_strsplit (ng ? ng : "", "\n", -1);
  for (guint i = 0; a[i] || b[i]; i++)
    if (!a[i] || !b[i] || strcmp (a[i], b[i]) != 0)
      {
        g_test_message ("line %u: sluiced '%s', syslog-ng '%s'", i + 1, a[i] ? a[i] : "(end)", b[i] ? b[i] : "(end)");
        return;
      }
}

void
rabbit_peer_test_outage (RabbitPeer *broker, SlTestEnv *env, guint16 tcp, const gchar *queue, guint n)
{
  GString *text = g_string_new (NULL);
  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "<13>Dec  1 10:00:00 h app: %u\n", i);
  SlTestSender *sender = sl_test_sender_start (sl_test_tcp_connect (tcp), text);
  if (!rabbit_peer_wait_count (broker, queue, n / 10, 6 * SL_TEST_DEADLINE_MS))
    {
      sl_test_sender_finish (sender);
      return;
    }
  /* stopped: no confirms or receipts come, the writer waits, then reconnects */
  kill (broker->pid, SIGSTOP);
  g_usleep (2 * G_USEC_PER_SEC);
  kill (broker->pid, SIGCONT);
  if (!rabbit_peer_wait_count (broker, queue, n / 5, 6 * SL_TEST_DEADLINE_MS))
    {
      sl_test_sender_finish (sender);
      return;
    }
  rabbit_peer_kill (broker);
  g_assert_true (rabbit_peer_start (broker, 12 * SL_TEST_DEADLINE_MS));
  sl_test_sender_join (sender);
  /* what was sent again is in the queue twice: the count alone may reach
   * n before the last messages are in; "written" counts each once, when
   * the broker confirmed it */
  if (!rabbit_peer_wait_count (broker, queue, n, 12 * SL_TEST_DEADLINE_MS)
      || !sl_test_wait_stat_at_least (env, "destination", "d", "written", n))
    return;
  GPtrArray *messages = rabbit_peer_consume (broker, queue, (guint) rabbit_peer_queue_count (broker, queue));
  g_autofree gboolean *seen = g_new0 (gboolean, n);
  guint distinct = 0;
  for (guint i = 0; messages && i < messages->len; i++)
    {
      const gchar *body = strstr (g_ptr_array_index (messages, i), "body=");
      guint64 v = body ? g_ascii_strtoull (body + 5, NULL, 10) : n;
      if (v < n && !seen[v])
        {
          seen[v] = TRUE;
          distinct++;
        }
    }
  g_test_message ("%u messages in the queue for %u sent", messages ? messages->len : 0, n);
  if (messages)
    g_ptr_array_unref (messages);
  g_assert_cmpuint (distinct, ==, n);
}

gchar *
rabbit_peer_compare_queues (const RabbitPeer *peer, const gchar *sl_queue, const gchar *ng_queue, guint n,
                            gchar *(*normalise) (gchar *text))
{
  GPtrArray *sl = rabbit_peer_consume (peer, sl_queue, n), *ng = rabbit_peer_consume (peer, ng_queue, n);
  if (!sl || !ng)
    {
      g_clear_pointer (&sl, g_ptr_array_unref);
      g_clear_pointer (&ng, g_ptr_array_unref);
      return NULL;
    }
  gchar *sl_text = rabbit_peer_joined (sl), *ng_text = rabbit_peer_joined (ng);
  g_ptr_array_unref (sl);
  g_ptr_array_unref (ng);
  if (normalise)
    {
      sl_text = normalise (sl_text);
      ng_text = normalise (ng_text);
    }
  rabbit_peer_show_difference (sl_text, ng_text);
  gboolean same = g_strcmp0 (sl_text, ng_text) == 0;
  g_free (ng_text);
  if (!same)
    {
      g_test_fail_printf ("%s and %s differ", sl_queue, ng_queue);
      g_clear_pointer (&sl_text, g_free);
    }
  return sl_text;
}
