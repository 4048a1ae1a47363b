/* SPDX-License-Identifier: GPL-2.0-or-later */
/* amqp-queue: a queue of a RabbitMQ broker on 127.0.0.1:PORT, as guest,
 * for bench/run (rabbitmqctl starts an Erlang VM per call: too slow and too
 * costly to poll a count while a daemon is measured).
 *   amqp-queue PORT bind QUEUE EXCHANGE   declares EXCHANGE (fanout, not
 *                                         durable, as amqp() declares it), a
 *                                         durable QUEUE, and binds them
 *   amqp-queue PORT count QUEUE           prints how many messages it holds
 *   amqp-queue PORT dump QUEUE            takes them all off, each body on
 *                                         a line of stdout
 *   amqp-queue PORT delete QUEUE
 * Exits 1, with a line on stderr, when the broker refuses or does not
 * answer within 10 s. */
#include <glib.h>
#include <amqp.h>
#include <amqp_framing.h>
#include <amqp_tcp_socket.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TIMEOUT_S 10
#define PREFETCH 1000

static amqp_connection_state_t conn;

static void G_GNUC_NORETURN
fail (const gchar *what)
{
  fprintf (stderr, "amqp-queue: %s failed\n", what);
  exit (1);
}

static void
check_rpc (const gchar *what)
{
  if (amqp_get_rpc_reply (conn).reply_type != AMQP_RESPONSE_NORMAL)
    fail (what);
}

static void
broker_connect (gint port)
{
  struct timeval timeout = { TIMEOUT_S, 0 };
  conn = amqp_new_connection ();
  amqp_socket_t *socket = amqp_tcp_socket_new (conn);
  if (!socket || amqp_socket_open_noblock (socket, "127.0.0.1", port, &timeout) != AMQP_STATUS_OK)
    fail ("connecting");
  if (amqp_login (conn, "/", 0, AMQP_DEFAULT_FRAME_SIZE, 0, AMQP_SASL_METHOD_PLAIN, "guest", "guest").reply_type
      != AMQP_RESPONSE_NORMAL)
    fail ("logging in");
  amqp_channel_open (conn, 1);
  check_rpc ("channel.open");
}

static guint32
queue_count (const gchar *queue)
{
  amqp_queue_declare_ok_t *ok = amqp_queue_declare (conn, 1, amqp_cstring_bytes (queue), 1, 0, 0, 0,
                                                    amqp_empty_table);
  if (!ok)
    fail ("queue.declare (passive)");
  return ok->message_count;
}

static void
dump (const gchar *queue)
{
  guint32 n = queue_count (queue);
  amqp_basic_qos (conn, 1, 0, PREFETCH, 0);
  check_rpc ("basic.qos");
  amqp_basic_consume (conn, 1, amqp_cstring_bytes (queue), amqp_empty_bytes, 0, 1, 0, amqp_empty_table);
  check_rpc ("basic.consume");
  for (guint32 i = 0; i < n; i++)
    {
      amqp_envelope_t envelope;
      struct timeval timeout = { TIMEOUT_S, 0 };
      amqp_maybe_release_buffers (conn);
      if (amqp_consume_message (conn, &envelope, &timeout, 0).reply_type != AMQP_RESPONSE_NORMAL)
        fail ("consuming");
      fwrite (envelope.message.body.bytes, 1, envelope.message.body.len, stdout);
      putchar ('\n');
      amqp_destroy_envelope (&envelope);
    }
  if (fflush (stdout) != 0)
    fail ("writing");
}

int
main (int argc, char **argv)
{
  if (argc < 4 || argc != (strcmp (argv[2], "bind") == 0 ? 5 : 4))
    {
      fprintf (stderr, "usage: amqp-queue PORT bind QUEUE EXCHANGE | PORT count|dump|delete QUEUE\n");
      return 2;
    }
  const gchar *command = argv[2], *queue = argv[3];
  broker_connect (atoi (argv[1]));
  if (strcmp (command, "bind") == 0)
    {
      amqp_exchange_declare (conn, 1, amqp_cstring_bytes (argv[4]), amqp_cstring_bytes ("fanout"), 0, 0, 0, 0,
                             amqp_empty_table);
      check_rpc ("exchange.declare");
      amqp_queue_declare (conn, 1, amqp_cstring_bytes (queue), 0, 1, 0, 0, amqp_empty_table);
      check_rpc ("queue.declare");
      amqp_queue_bind (conn, 1, amqp_cstring_bytes (queue), amqp_cstring_bytes (argv[4]), amqp_empty_bytes,
                       amqp_empty_table);
      check_rpc ("queue.bind");
    }
  else if (strcmp (command, "count") == 0)
    printf ("%u\n", queue_count (queue));
  else if (strcmp (command, "dump") == 0)
    dump (queue);
  else if (strcmp (command, "delete") == 0)
    {
      amqp_queue_delete (conn, 1, amqp_cstring_bytes (queue), 0, 0);
      check_rpc ("queue.delete");
    }
  else
    {
      fprintf (stderr, "amqp-queue: unknown command '%s'\n", command);
      return 2;
    }
  amqp_channel_close (conn, 1, AMQP_REPLY_SUCCESS);
  amqp_connection_close (conn, AMQP_REPLY_SUCCESS);
  amqp_destroy_connection (conn);
  return 0;
}
