/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Delivery through a tcp() destination when the remote goes away: a
 * receiver that stops and starts again, one that stalls, one that is not
 * there yet, and what a stopping receiver already had acknowledged. With
 * flow control, the sending sluiced holds messages; none may be lost. */
#include "plugins/destinations/network/relay-fixture.h"

#include <errno.h>
#include <linux/sockios.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

static const gchar receiver_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_file { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_net); destination(d_file); flags(flow-control); };\n";

static const gchar sender_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_relay { tcp(\"127.0.0.1\" port(@REMOTE@) time-reopen(1)); };\n"
  "log { source(s_net); destination(d_relay); flags(flow-control); };\n";

/* Starts a receiver on remote_port and a sender forwarding to it; the
 * sender's port, or 0. */
static guint16
start_pair (Relay *relay, guint16 remote_port, gboolean start_receiver)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_text = relay_port_text (port);
  g_autofree gchar *remote_text = relay_port_text (remote_port);
  if (!port || !remote_port
      || !sl_test_write_config (&relay->receiver, receiver_config, "PORT", remote_text, NULL)
      || !sl_test_write_config (&relay->sender, sender_config, "PORT", port_text, "REMOTE", remote_text, NULL)
      || (start_receiver && !sl_test_daemon_start (&relay->receiver))
      || !sl_test_daemon_start (&relay->sender))
    return 0;
  return port;
}

/* Sends numbered lines in chunks with a pause after each, from a thread,
 * so that the remote can go away in the middle of the stream. */
typedef struct
{
  gint fd;
  guint count;
  guint chunk;
  gulong pause_us;
  gint error;
  GThread *thread;
} PacedSender;

static gpointer
paced_sender_thread (gpointer data)
{
  PacedSender *s = data;
  for (guint first = 1; first <= s->count && !s->error; first += s->chunk)
    {
      GString *lines = relay_numbered_lines (first, MIN (s->chunk, s->count - first + 1));
      for (gsize done = 0; done < lines->len && !s->error;)
        {
          gssize n = send (s->fd, lines->str + done, lines->len - done, MSG_NOSIGNAL);
          if (n > 0)
            done += n;
          else if (errno != EINTR)
            s->error = errno;
        }
      g_string_free (lines, TRUE);
      g_usleep (s->pause_us);
    }
  return NULL;
}

#define PACED_LINES 50000
#define PACED_CHUNK 1000
#define PACED_PAUSE_US (50 * 1000)

typedef enum
{
  OUTAGE_RESTART,   /* SIGTERM, then the same configuration starts again */
  OUTAGE_STALL,     /* SIGSTOP, then SIGCONT */
} Outage;

/* 50,000 messages over about 2.5 s; the receiver goes away for 2 s once
 * 10,000 arrived. Every number must arrive at least once. */
static void
run_outage (Relay *relay, Outage outage)
{
  guint16 remote = sl_test_free_port (SOCK_STREAM);
  guint16 port = start_pair (relay, remote, TRUE);
  g_autofree gchar *out = sl_test_path (&relay->receiver, "out.log");
  gint fd = port ? sl_test_tcp_connect (port) : -1;
  if (fd < 0)
    return;
  PacedSender sender = { fd, PACED_LINES, PACED_CHUNK, PACED_PAUSE_US, 0, NULL };
  sender.thread = g_thread_new ("paced-sender", paced_sender_thread, &sender);

  gboolean ok = sl_test_wait_lines (&relay->receiver, out, PACED_LINES / 5);
  if (ok && outage == OUTAGE_RESTART)
    {
      gint status = sl_test_daemon_stop (&relay->receiver, SIGTERM);
      g_assert_cmpint (status, ==, 0);
      g_usleep (2 * G_USEC_PER_SEC);
      ok = sl_test_daemon_start (&relay->receiver);
    }
  else if (ok)
    {
      kill (relay->receiver.pid, SIGSTOP);
      g_usleep (2 * G_USEC_PER_SEC);
      kill (relay->receiver.pid, SIGCONT);
    }
  g_thread_join (sender.thread);
  close (fd);
  g_assert_cmpint (sender.error, ==, 0);
  if (!ok)
    return;

  guint duplicates = 0;
  guint missing = relay_wait_sequence (&relay->receiver, out, PACED_LINES, &duplicates);
  gint64 resent = sl_test_stat (&relay->sender, "destination", "d_relay", "resent");
  g_test_message ("%s: sent %u, missing %u, duplicates %u, resent by the sender %" G_GINT64_FORMAT,
                  outage == OUTAGE_RESTART ? "restart" : "stall", PACED_LINES, missing, duplicates, resent);
  g_assert_cmpuint (missing, ==, 0);
}

static void
test_remote_restart (Relay *relay, gconstpointer data)
{
  run_outage (relay, OUTAGE_RESTART);
}

static void
test_remote_stall (Relay *relay, gconstpointer data)
{
  run_outage (relay, OUTAGE_STALL);
}

#define EARLY_LINES 2000

/* Nothing listens when the sender starts: flow control holds the
 * messages until the receiver comes, and they arrive in order. */
/* Keeps port bound but not listening: connections to it are refused, and
 * neither another test nor the kernel's choice of a local port for an
 * outgoing connection (a TCP self-connect) can take it meanwhile. */
static gint
hold_port (guint16 port)
{
  struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons (port),
                              .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  gint fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  gint one = 1;
  if (fd >= 0)
    setsockopt (fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (fd < 0 || bind (fd, (struct sockaddr *) &addr, sizeof addr) < 0)
    {
      g_test_fail_printf ("cannot hold port %u: %s", port, g_strerror (errno));
      if (fd >= 0)
        close (fd);
      return -1;
    }
  return fd;
}

static void
test_remote_down_at_start (Relay *relay, gconstpointer data)
{
  guint16 remote = sl_test_free_port (SOCK_STREAM);
  gint held = remote ? hold_port (remote) : -1;
  if (held < 0)
    return;
  guint16 port = start_pair (relay, remote, FALSE);
  g_autofree gchar *out = sl_test_path (&relay->receiver, "out.log");
  gint fd = port ? sl_test_tcp_connect (port) : -1;
  if (fd < 0)
    {
      close (held);
      return;
    }
  GString *lines = relay_numbered_lines (1, EARLY_LINES);
  gboolean sent = sl_test_send_all (fd, lines->str, lines->len);
  g_string_free (lines, TRUE);
  close (fd);
  gboolean refused = sent && sl_test_wait_stderr (&relay->sender, "cannot connect");
  close (held);
  if (!refused || !sl_test_daemon_start (&relay->receiver)
      || !sl_test_wait_lines (&relay->receiver, out, EARLY_LINES))
    return;
  g_auto (GStrv) got = sl_test_read_lines (out);
  g_assert_cmpuint (g_strv_length (got), ==, EARLY_LINES);
  for (guint i = 0; got && got[i]; i++)
    {
      g_autofree gchar *expected = g_strdup_printf ("seq %06u", i + 1);
      g_assert_cmpstr (got[i], ==, expected);
    }
  g_assert_cmpint (sl_test_stat (&relay->sender, "destination", "d_relay", "dropped"), ==, 0);
}

/* A receiver whose window is full (one of its destinations cannot write)
 * leaves what a sender sent in its kernel, acknowledged to the sender's
 * TCP. Stopping, it must still read and write all of that. */
static const gchar held_receiver_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@) log-iw-size(100)); };\n"
  "destination d_file { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
  "destination d_down { tcp(\"127.0.0.1\" port(@DOWN@) time-reopen(60)); };\n"
  "log { source(s_net); destination(d_file); destination(d_down); flags(flow-control); };\n";

#define HELD_LINES 40000

/* The sender's unacknowledged bytes, once they stopped changing. */
static gint
steady_unacked (gint fd)
{
  gint previous = -1;
  gint unacked = 0;
  for (guint same = 0; same < 3;)
    {
      g_usleep (100 * 1000);
      if (ioctl (fd, SIOCOUTQ, &unacked) < 0)
        return -1;
      same = unacked == previous ? same + 1 : 0;
      previous = unacked;
    }
  return unacked;
}

static void
test_stopping_receiver_reads_what_was_acknowledged (Relay *relay, gconstpointer data)
{
  SlTestEnv *env = &relay->receiver;
  guint16 port = sl_test_free_port (SOCK_STREAM);
  guint16 down = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_text = relay_port_text (port);
  g_autofree gchar *down_text = relay_port_text (down);
  g_autofree gchar *out = sl_test_path (env, "out.log");
  if (!port || !down || !sl_test_write_config (env, held_receiver_config, "PORT", port_text, "DOWN", down_text, NULL)
      || !sl_test_daemon_start (env))
    return;
  gint fd = sl_test_tcp_connect (port);
  if (fd < 0)
    return;
  GString *lines = relay_numbered_lines (1, HELD_LINES);
  gsize line_len = strlen ("<13>Nov 29 20:25:57 relayhost app: seq 000001\n");
  gsize sent = 0;
  while (sent < lines->len)
    {
      gssize n = send (fd, lines->str + sent, lines->len - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n <= 0)
        break;
      sent += n;
    }
  g_string_free (lines, TRUE);
  gint unacked = steady_unacked (fd);
  g_assert_cmpint (unacked, >=, 0);
  guint acknowledged = (sent - unacked) / line_len;
  g_test_message ("sent %" G_GSIZE_FORMAT " bytes, %u lines acknowledged by the receiver's kernel, %u written before the stop",
                  sent, acknowledged, sl_test_count_lines (out));
  g_assert_cmpuint (sl_test_count_lines (out), <, acknowledged);

  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
  close (fd);
  /* the line the acknowledged bytes cut in two may come out cut; every
   * whole one must be there */
  g_auto (GStrv) got = sl_test_read_lines (out);
  guint8 *seen = g_new0 (guint8, acknowledged + 1);
  guint missing = acknowledged;
  for (guint i = 0; got && got[i]; i++)
    {
      guint seq = 0;
      if (strlen (got[i]) == strlen ("seq 000001") && sscanf (got[i], "seq %u", &seq) == 1
          && seq >= 1 && seq <= acknowledged && !seen[seq])
        {
          seen[seq] = 1;
          missing--;
        }
    }
  g_free (seen);
  g_assert_cmpuint (missing, ==, 0);
}

gint
main (gint argc, gchar **argv)
{
  sl_test_init (&argc, &argv);
  RELAY_TEST_ADD ("/network/delivery/remote-restart", test_remote_restart);
  RELAY_TEST_ADD ("/network/delivery/remote-stall", test_remote_stall);
  RELAY_TEST_ADD ("/network/delivery/remote-down-at-start", test_remote_down_at_start);
  RELAY_TEST_ADD ("/network/delivery/stopping-receiver-reads-what-was-acknowledged",
                     test_stopping_receiver_reads_what_was_acknowledged);
  return g_test_run ();
}
