/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A RabbitMQ broker of a test program's own (tests/peers/rabbitmq: free
 * loopback ports, a temporary folder, its own epmd), started once for the
 * program, killed and started again on the same folder for the tests of
 * what survives a crash, and stopped by pid with nothing left behind. */
#ifndef RABBITMQ_PEER_H
#define RABBITMQ_PEER_H

#include <glib.h>
#include "tests/functional/harness.h"

G_BEGIN_DECLS

typedef struct
{
  gchar *dir;
  guint16 amqp_port;
  guint16 stomp_port;
  guint16 dist_port;
  guint16 epmd_port;
  guint16 tls_port;     /* AMQP over TLS, with the certificate in tls_cert */
  gchar *tls_cert;      /* self-signed, CN and DNS name localhost */
  GPid epmd_pid;
  GPid pid;
} RabbitPeer;

/* FALSE (with a message) when the broker did not answer on its ports
 * within limit_ms; the time it took is printed as a test message. */
gboolean rabbit_peer_start   (RabbitPeer *peer, guint limit_ms);
/* Whether something listens on 127.0.0.1:port; quiet, unlike
 * sl_test_tcp_connect(), which fails the test when nothing does. */
gboolean rabbit_peer_port_open (guint16 port);
/* kill -9 of the broker's VM, waited for. */
void     rabbit_peer_kill    (RabbitPeer *peer);
/* Stops the broker and epmd by pid and removes the folder: FALSE when
 * something would not go. */
gboolean rabbit_peer_stop    (RabbitPeer *peer);

/* Reading back, over AMQP as guest: a durable queue bound to exchange
 * with key, the exchange declared first as amqp() declares it (not
 * durable) when type is set (NULL for amq.* and other existing ones). */
gboolean   rabbit_peer_bind_queue  (const RabbitPeer *peer, const gchar *queue, const gchar *exchange,
                                    const gchar *type, const gchar *key);
/* How many messages queue holds, -1 when the broker does not answer. */
gint64     rabbit_peer_queue_count (const RabbitPeer *peer, const gchar *queue);
/* Until queue holds n (FALSE, and the test failed, after limit_ms). */
gboolean   rabbit_peer_wait_count  (const RabbitPeer *peer, const gchar *queue, gint64 n, guint limit_ms);
/* Takes n messages off queue, each described as text: its routing key,
 * content type, delivery mode, headers sorted by name, and body. */
GPtrArray *rabbit_peer_consume     (const RabbitPeer *peer, const gchar *queue, guint n);
/* The descriptions one after the other. */
gchar     *rabbit_peer_joined      (GPtrArray *messages);
/* A test message with the first line where sl and ng differ. */
void       rabbit_peer_show_difference (const gchar *sl, const gchar *ng);
/* Takes n messages off each queue and compares their descriptions (each
 * passed through normalise first, when set: it takes its argument and
 * returns a new string); sluiced's side for more checks, or NULL when
 * they differ (the test failed, the first difference shown). */
gchar     *rabbit_peer_compare_queues (const RabbitPeer *peer, const gchar *sl_queue, const gchar *ng_queue, guint n,
                                       gchar *(*normalise) (gchar *text));
/* Sends n numbered messages to sluiced's tcp() source on port tcp (its
 * destination writes ${MSG} as the body into queue) while the broker is
 * stopped (SIGSTOP) for 2 s, then killed -9 and started again; fails the
 * test unless every number is in queue (at least once) afterwards. */
void       rabbit_peer_test_outage (RabbitPeer *peer, SlTestEnv *env, guint16 tcp, const gchar *queue, guint n);

G_END_DECLS

#endif
