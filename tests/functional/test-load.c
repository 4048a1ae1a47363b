/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The daemon under pressure: flow control that loses nothing, queues that
 * drop and count without it, connection limits, and oversize lines. */
#include "tests/functional/harness.h"

#include <errno.h>
#include <fcntl.h>
#include <arpa/inet.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#define HEADER "<13>Nov 29 20:25:57 loadhost app: "

static gchar *
port_text (guint16 port)
{
  return g_strdup_printf ("%u", port);
}

/* count lines "HEADER seq NNNNNN\n", numbered from 1. */
static GString *
numbered_lines (guint count)
{
  GString *out = g_string_sized_new (count * (sizeof HEADER + 12));
  for (guint i = 1; i <= count; i++)
    g_string_append_printf (out, HEADER "seq %06u\n", i);
  return out;
}

/* Checks that every line of path is "seq N" with N rising; with all, that
 * they are exactly 1..expected. Returns how many lines there are. */
static guint
check_sequence (const gchar *path, gboolean all, guint expected)
{
  g_auto (GStrv) lines = sl_test_read_lines (path);
  if (!lines)
    {
      g_test_fail_printf ("cannot read %s", path);
      return 0;
    }
  guint previous = 0;
  guint n = 0;
  for (; lines[n]; n++)
    {
      guint seq = 0;
      if (sscanf (lines[n], "seq %u", &seq) != 1 || seq <= previous || (all && seq != n + 1))
        {
          g_test_fail_printf ("line %u of %s is '%s' after seq %u", n + 1, path, lines[n], previous);
          return n;
        }
      previous = seq;
    }
  if (all)
    g_assert_cmpuint (n, ==, expected);
  return n;
}

static const gchar flow_control_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_file { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\") log-fifo-size(1000)); };\n"
  "log { source(s_net); destination(d_file); flags(flow-control); };\n";

#define FLOW_LINES 200000

static void
test_flow_control (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = port_text (port);
  if (!port || !sl_test_write_config (env, flow_control_config, "PORT", port_str, NULL)
      || !sl_test_daemon_start (env))
    return;
  GString *input = numbered_lines (FLOW_LINES);
  gint fd = sl_test_tcp_connect (port);
  gboolean sent = fd >= 0 && sl_test_send_all (fd, input->str, input->len);
  if (fd >= 0)
    close (fd);
  g_string_free (input, TRUE);
  g_autofree gchar *path = sl_test_path (env, "out.log");
  if (!sent || !sl_test_wait_lines (env, path, FLOW_LINES))
    return;
  check_sequence (path, TRUE, FLOW_LINES);
  g_assert_cmpint (sl_test_stat (env, "source", "s_net", "received"), ==, FLOW_LINES);
  g_assert_cmpint (sl_test_stat (env, "destination", "d_file", "dropped"), ==, 0);
  sl_test_wait_stat (env, "destination", "d_file", "written", FLOW_LINES);
}

static const gchar backpressure_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_pipe { file(\"@DIR@/pipe\" template(\"${MESSAGE}\\n\") log-fifo-size(1000)); };\n"
  "log { source(s_net); destination(d_pipe); flags(flow-control); };\n";

typedef struct
{
  gint fd;
  GString *data;
} Drain;

/* Reads until end of file: the daemon closed its end. */
static gpointer
drain_thread (gpointer p)
{
  Drain *t = p;
  gchar buf[64 * 1024];
  gssize n;
  while ((n = read (t->fd, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
    if (n > 0)
      g_string_append_len (t->data, buf, n);
  return NULL;
}

/* received, once it has stopped growing: the sender is held back. */
static gint64
wait_received_steady (SlTestEnv *env)
{
  gint64 deadline = g_get_monotonic_time () + SL_TEST_DEADLINE_MS * 1000;
  gint64 last = -1;
  guint same = 0;
  while (same < 3 && g_get_monotonic_time () < deadline)
    {
      g_usleep (100 * 1000);
      gint64 now = sl_test_stat (env, "source", "s_net", "received");
      same = now > 0 && now == last ? same + 1 : 0;
      last = now;
    }
  return last;
}

/* A destination that cannot write (a pipe nobody reads) holds the TCP
 * sender back instead of losing messages, and what was received before
 * SIGTERM is all written before the daemon exits. */
static void
run_backpressure (SlTestEnv *env, Drain *reader)
{
  gint64 held = wait_received_steady (env);
  g_assert_cmpint (held, >, 0);
  g_assert_cmpint (held, <, FLOW_LINES / 2);
  g_assert_cmpint (sl_test_stat (env, "destination", "d_pipe", "dropped"), ==, 0);

  GThread *drain = g_thread_new ("drain", drain_thread, reader);
  gint status = sl_test_daemon_stop (env, SIGTERM);
  g_thread_join (drain);
  g_assert_cmpint (status, ==, 0);

  gchar *path = sl_test_path (env, "drained.log");
  g_file_set_contents (path, reader->data->str, reader->data->len, NULL);
  guint written = check_sequence (path, FALSE, 0);
  g_test_message ("held back after %" G_GINT64_FORMAT " messages; %u written by shutdown", held, written);
  g_assert_cmpint (written, >=, held);
  /* and with no gap: the n lines are seq 1..n */
  g_auto (GStrv) lines = sl_test_read_lines (path);
  if (written && lines && lines[written - 1])
    {
      g_autofree gchar *last = g_strdup_printf ("seq %06u", written);
      g_assert_cmpstr (lines[written - 1], ==, last);
    }
  g_free (path);
}

static void
test_backpressure_and_shutdown (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = port_text (port);
  g_autofree gchar *pipe_path = sl_test_path (env, "pipe");
  if (!port || mkfifo (pipe_path, 0600) < 0)
    {
      g_test_fail_printf ("cannot make %s: %s", pipe_path, g_strerror (errno));
      return;
    }
  /* opened without waiting for a writer, then read with waiting */
  gint pipe_fd = open (pipe_path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (pipe_fd < 0 || fcntl (pipe_fd, F_SETFL, 0) < 0)
    {
      g_test_fail_printf ("cannot open %s: %s", pipe_path, g_strerror (errno));
      return;
    }
  Drain reader = { pipe_fd, g_string_new (NULL) };
  SlTestSender *sender = NULL;
  gint fd;
  if (sl_test_write_config (env, backpressure_config, "PORT", port_str, NULL) && sl_test_daemon_start (env)
      && (fd = sl_test_tcp_connect (port)) >= 0)
    {
      sender = sl_test_sender_start (fd, numbered_lines (FLOW_LINES));
      run_backpressure (env, &reader);
    }
  /* the daemon is gone (or is killed in teardown, which runs later): the
   * sender must not be left blocked */
  if (sender)
    sl_test_sender_finish (sender);
  close (pipe_fd);
  g_string_free (reader.data, TRUE);
}

/* stall-timeout(0): a full queue drops at once, as in syslog-ng */
static const gchar drop_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_file { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\") log-fifo-size(10) stall-timeout(0)); };\n"
  "log { source(s_net); destination(d_file); };\n";

#define BURST_LINES 20000

/* The counters of the first component of kind whose id is name or name#N. */
static json_t *
json_counters (json_t *stats, const gchar *kind, const gchar *name)
{
  gsize i;
  json_t *component;
  json_array_foreach (stats, i, component)
    {
      const gchar *k = json_string_value (json_object_get (component, "kind"));
      const gchar *id = json_string_value (json_object_get (component, "id"));
      if (g_strcmp0 (k, kind) == 0 && id && g_str_has_prefix (id, name)
          && (id[strlen (name)] == '\0' || id[strlen (name)] == '#'))
        return json_object_get (component, "counters");
    }
  return NULL;
}

static void
test_drops_counted (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = port_text (port);
  if (!port || !sl_test_write_config (env, drop_config, "PORT", port_str, NULL) || !sl_test_daemon_start (env))
    return;
  GString *input = numbered_lines (BURST_LINES);
  gboolean sent = sl_test_tcp_send (port, input->str);
  g_string_free (input, TRUE);
  if (!sent || !sl_test_wait_stat (env, "source", "s_net", "received", BURST_LINES))
    return;

  /* every message is either written or dropped, and the queue runs dry */
  if (!sl_test_wait_stat (env, "destination", "d_file", "queued", 0))
    return;
  gint64 written = sl_test_stat (env, "destination", "d_file", "written");
  gint64 dropped = sl_test_stat (env, "destination", "d_file", "dropped");
  g_assert_cmpint (dropped, >, 0);
  g_assert_cmpint (written + dropped, ==, BURST_LINES);
  g_autofree gchar *path = sl_test_path (env, "out.log");
  if (!sl_test_wait_lines (env, path, written))
    return;
  /* what is kept keeps its order */
  g_assert_cmpuint (check_sequence (path, FALSE, 0), ==, written);
  g_autofree gchar *health = sl_test_control (env, "HEALTH");
  g_assert_true (health && g_str_has_prefix (health, "OK"));
  sl_test_wait_stderr (env, "destination queue full, dropping messages");

  g_autofree gchar *out = NULL;
  g_autofree gchar *err = NULL;
  gint status = sl_test_run_built ("tools/sluicectl", &out, &err, "-c", env->control, "stats", "--json", NULL);
  g_assert_cmpint (status, ==, 0);
  json_error_t json_error;
  json_t *stats = json_loads (out, 0, &json_error);
  if (!stats || !json_is_array (stats))
    {
      g_test_message ("stats --json:\n%s", out);
      g_test_fail_printf ("stats --json is no JSON array: %s", json_error.text);
      json_decref (stats);
      return;
    }
  json_t *source = json_counters (stats, "source", "s_net");
  json_t *destination = json_counters (stats, "destination", "d_file");
  g_assert_nonnull (source);
  g_assert_nonnull (destination);
  if (source && destination)
    {
      g_assert_cmpint (json_integer_value (json_object_get (source, "received")), ==, BURST_LINES);
      g_assert_cmpint (json_integer_value (json_object_get (destination, "dropped")), ==, dropped);
      g_assert_cmpint (json_integer_value (json_object_get (destination, "written")), ==, written);
    }
  json_decref (stats);
}

static const gchar limit_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@) max-connections(2)); };\n"
  "destination d_file { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_net); destination(d_file); };\n";

/* Waits until the daemon closed fd: read gives end of file or a reset. */
static gboolean
wait_closed_by_peer (gint fd)
{
  struct pollfd p = { fd, POLLIN, 0 };
  gchar buf[64];
  if (poll (&p, 1, SL_TEST_DEADLINE_MS) <= 0)
    return FALSE;
  gssize n = read (fd, buf, sizeof buf);
  return n == 0 || (n < 0 && errno == ECONNRESET);
}

static gboolean
send_line (gint fd, const gchar *message)
{
  g_autofree gchar *line = g_strconcat (HEADER, message, "\n", NULL);
  return sl_test_send_all (fd, line, strlen (line));
}

/* A connection to 127.0.0.1:port from the loopback address from, so
 * that the daemon sees another peer; -1 (and the test failed) when it
 * cannot be made. */
static gint
connect_from (const gchar *from, guint16 port)
{
  gint fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_in local = { .sin_family = AF_INET };
  struct sockaddr_in remote = { .sin_family = AF_INET, .sin_port = htons (port) };
  inet_pton (AF_INET, from, &local.sin_addr);
  inet_pton (AF_INET, "127.0.0.1", &remote.sin_addr);
  struct timeval tv = { SL_TEST_DEADLINE_MS / 1000, 0 };
  if (fd < 0 || bind (fd, (struct sockaddr *) &local, sizeof local) < 0
      || setsockopt (fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) < 0
      || setsockopt (fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv) < 0
      || connect (fd, (struct sockaddr *) &remote, sizeof remote) < 0)
    {
      g_test_fail_printf ("cannot connect from %s to 127.0.0.1:%u: %s", from, port, g_strerror (errno));
      if (fd >= 0)
        close (fd);
      return -1;
    }
  return fd;
}

/* fds[0..2]: the connections, closed by the caller. */
static void
run_max_connections (SlTestEnv *env, guint16 port, gint *fds)
{
  g_autofree gchar *path = sl_test_path (env, "out.log");
  fds[0] = sl_test_tcp_connect (port);
  if (fds[0] < 0 || !send_line (fds[0], "first-a") || !sl_test_wait_lines (env, path, 1))
    return;
  fds[1] = sl_test_tcp_connect (port);
  if (fds[1] < 0 || !send_line (fds[1], "second-a") || !sl_test_wait_lines (env, path, 2))
    return;

  /* the third waits in the kernel's backlog: not accepted, so not hung
   * up on, and what it sends meanwhile is kept for when it is served */
  fds[2] = sl_test_tcp_connect (port);
  if (fds[2] < 0 || !send_line (fds[2], "third") || !sl_test_wait_stat (env, "source", "s_net", "accept_paused", 1))
    return;
  g_assert_cmpint (sl_test_stat (env, "source", "s_net", "connections"), ==, 2);

  /* the two it serves still deliver; the third cannot have been read */
  if (!send_line (fds[0], "first-b") || !send_line (fds[1], "second-b") || !sl_test_wait_lines (env, path, 4))
    return;
  g_auto (GStrv) lines = sl_test_read_lines (path);
  g_assert_cmpuint (g_strv_length (lines), ==, 4);
  g_assert_true (g_strv_contains ((const gchar *const *) lines, "first-b"));
  g_assert_true (g_strv_contains ((const gchar *const *) lines, "second-b"));
  g_assert_false (g_strv_contains ((const gchar *const *) lines, "third"));

  /* a closed connection frees its place: the waiting one is accepted and
   * what it sent before arrives */
  close (fds[0]);
  fds[0] = -1;
  if (!sl_test_wait_contains (env, path, "third\n") || !sl_test_wait_stat (env, "source", "s_net", "connections", 3))
    return;
  g_assert_cmpint (sl_test_stat (env, "source", "s_net", "rejected"), ==, 0);
}

static void
test_max_connections (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = port_text (port);
  if (!port || !sl_test_write_config (env, limit_config, "PORT", port_str, NULL) || !sl_test_daemon_start (env))
    return;
  gint fds[3] = { -1, -1, -1 };
  run_max_connections (env, port, fds);
  for (guint i = 0; i < G_N_ELEMENTS (fds); i++)
    if (fds[i] >= 0)
      close (fds[i]);
}

static const gchar idle_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@) max-connections(9) idle-timeout(1)); };\n"
  "destination d_file { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_net); destination(d_file); };\n";

#define IDLE_PEERS 9

/* Nine connections that bring no message (eight send nothing, one a line
 * it never ends) hold every place; a tenth sender gets in as the oldest
 * of them makes room, and idle-timeout() closes the other eight. */
static void
run_idle_timeout (SlTestEnv *env, guint16 port, gint *fds)
{
  g_autofree gchar *path = sl_test_path (env, "out.log");
  for (guint i = 0; i < IDLE_PEERS; i++)
    if ((fds[i] = sl_test_tcp_connect (port)) < 0)
      return;
  if (!sl_test_send_all (fds[0], HEADER "never ended", strlen (HEADER "never ended"))
      || !sl_test_wait_stat (env, "source", "s_net", "connections", IDLE_PEERS))
    return;
  fds[IDLE_PEERS] = sl_test_tcp_connect (port);
  if (fds[IDLE_PEERS] < 0 || !send_line (fds[IDLE_PEERS], "tenth sender"))
    return;
  if (!sl_test_wait_contains (env, path, "tenth sender\n"))
    return;
  for (guint i = 0; i < IDLE_PEERS; i++)
    g_assert_true (wait_closed_by_peer (fds[i]));
  g_assert_cmpint (sl_test_stat (env, "source", "s_net", "connections"), ==, IDLE_PEERS + 1);
  /* on a slow machine idle-timeout() may close all nine before the tenth
   * comes, and the tenth itself once it is idle */
  gint64 evicted = sl_test_stat (env, "source", "s_net", "evicted_no_message");
  g_assert_cmpint (evicted, <=, 1);
  g_assert_cmpint (evicted + sl_test_stat (env, "source", "s_net", "idle_closed"), >=, IDLE_PEERS);
  g_assert_cmpint (sl_test_stat (env, "source", "s_net", "rejected"), ==, 0);
  g_autofree gchar *text = sl_test_read_file (path);
  g_assert_null (strstr (text, "never ended"));
}

static void
test_idle_timeout (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = port_text (port);
  if (!port || !sl_test_write_config (env, idle_config, "PORT", port_str, NULL) || !sl_test_daemon_start (env))
    return;
  gint fds[IDLE_PEERS + 1];
  for (guint i = 0; i < G_N_ELEMENTS (fds); i++)
    fds[i] = -1;
  run_idle_timeout (env, port, fds);
  for (guint i = 0; i < G_N_ELEMENTS (fds); i++)
    if (fds[i] >= 0)
      close (fds[i]);
}

static const gchar per_ip_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@) max-connections(10) max-connections-per-ip(2)); };\n"
  "destination d_file { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_net); destination(d_file); };\n";

/* fds[0..3]: the connections, closed by the caller. */
static void
run_per_ip (SlTestEnv *env, guint16 port, gint *fds)
{
  g_autofree gchar *path = sl_test_path (env, "out.log");
  for (guint i = 0; i < 2; i++)
    if ((fds[i] = connect_from ("127.0.0.1", port)) < 0)
      return;
  if (!sl_test_wait_stat (env, "source", "s_net", "connections", 2))
    return;
  /* a third from the same address is reset, not left to write into a
   * connection nobody reads */
  fds[2] = connect_from ("127.0.0.1", port);
  if (fds[2] < 0 || !sl_test_wait_stat (env, "source", "s_net", "rejected", 1))
    return;
  g_assert_true (wait_closed_by_peer (fds[2]));
  /* another address still gets in, and the first two still deliver */
  fds[3] = connect_from ("127.0.0.2", port);
  if (fds[3] < 0 || !send_line (fds[3], "other address") || !send_line (fds[0], "first")
      || !send_line (fds[1], "second") || !sl_test_wait_lines (env, path, 3))
    return;
  g_assert_cmpint (sl_test_stat (env, "source", "s_net", "connections"), ==, 3);
  g_assert_cmpint (sl_test_stat (env, "source", "s_net", "rejected"), ==, 1);
  g_autofree gchar *text = sl_test_read_file (path);
  g_assert_nonnull (strstr (text, "other address\n"));
  g_assert_nonnull (strstr (text, "first\n"));
  g_assert_nonnull (strstr (text, "second\n"));
}

static void
test_per_ip (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = port_text (port);
  if (!port || !sl_test_write_config (env, per_ip_config, "PORT", port_str, NULL) || !sl_test_daemon_start (env))
    return;
  gint fds[4] = { -1, -1, -1, -1 };
  run_per_ip (env, port, fds);
  for (guint i = 0; i < G_N_ELEMENTS (fds); i++)
    if (fds[i] >= 0)
      close (fds[i]);
}

static const gchar oversize_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@) log-msg-size(1024) trim-large-messages(yes)); };\n"
  "source s_framed { network(ip(\"127.0.0.1\") port(@FPORT@) transport(\"framed\") log-msg-size(1024)); };\n"
  "destination d_file { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_net); source(s_framed); destination(d_file); };\n";

#define OVERSIZE 5000
#define MSG_SIZE 1024

static void
check_oversize_lines (SlTestEnv *env, const gchar *path, guint first_line)
{
  if (!sl_test_wait_lines (env, path, first_line + 2))
    return;
  g_auto (GStrv) lines = sl_test_read_lines (path);
  g_assert_cmpuint (g_strv_length (lines), ==, first_line + 2);
  if (g_strv_length (lines) != first_line + 2)
    return;
  /* the frame is cut to log-msg-size() bytes, and the header takes its part */
  g_autofree gchar *kept = g_strnfill (MSG_SIZE - strlen (HEADER), 'x');
  g_assert_cmpuint (strlen (lines[first_line]), ==, strlen (kept));
  g_assert_cmpstr (lines[first_line], ==, kept);
  g_assert_cmpstr (lines[first_line + 1], ==, "normal line after");
}

static void
test_oversize (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  guint16 framed = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = port_text (port);
  g_autofree gchar *framed_str = port_text (framed);
  g_autofree gchar *path = sl_test_path (env, "out.log");
  if (!port || !framed || !sl_test_write_config (env, oversize_config, "PORT", port_str, "FPORT", framed_str, NULL)
      || !sl_test_daemon_start (env))
    return;
  g_autofree gchar *long_body = g_strnfill (OVERSIZE, 'x');

  /* newline framing, the rest of the line dropped (/sources/long-lines
   * has the rest read as the next message, syslog-ng's default) */
  g_autofree gchar *lines = g_strconcat (HEADER, long_body, "\n", HEADER, "normal line after\n", NULL);
  if (!sl_test_tcp_send (port, lines))
    return;
  check_oversize_lines (env, path, 0);
  if (!sl_test_wait_stat (env, "source", "s_net", "truncated", 1))
    return;

  /* octet-counted framing (RFC 6587), on a source that declares it */
  g_autofree gchar *frame = g_strconcat (HEADER, long_body, NULL);
  g_autofree gchar *next = g_strconcat (HEADER, "normal line after", NULL);
  g_autofree gchar *frames = g_strdup_printf ("%zu %s%zu %s", strlen (frame), frame, strlen (next), next);
  if (!sl_test_tcp_send (framed, frames))
    return;
  check_oversize_lines (env, path, 2);
  sl_test_wait_stat (env, "source", "s_framed", "truncated", 1);
}

static const gchar bound_config[] =
  "@version: 4.0\n"
  "options { in-flight-bytes-max(1M); };\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@) log-iw-size(1000000)); };\n"
  "source s_udp { udp(ip(\"127.0.0.1\") port(@UDP@)); };\n"
  "destination d_pipe { file(\"@DIR@/pipe\" template(\"${MESSAGE}\\n\") log-fifo-size(1000000)); };\n"
  "destination d_file { file(\"@DIR@/udp.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_net); destination(d_pipe); flags(flow-control); };\n"
  "log { source(s_udp); destination(d_file); };\n";

#define BOUND_BYTES (1 << 20)
/* What one read of 64 KiB makes at most: lines of HEADER "seq NNNNNN\n",
 * each in a block of at most 512 bytes, and a thread's unflushed slack. */
#define ONE_READ ((64 * 1024 / (sizeof HEADER + 10) + 1) * 512 + 16 * 1024)

static gint64
bytes_in_flight (SlTestEnv *env)
{
  return sl_test_stat (env, "global", "messages", "bytes_in_flight");
}

/* With in-flight-bytes-max() and a destination that cannot write, the
 * flow-controlled source stops reading near the bound, though its window
 * would take a million messages: the gauge stays within one read of it,
 * a path without flow control drops and counts meanwhile, and once the
 * destination writes again every message arrives, in order. */
static void
run_bound (SlTestEnv *env, Drain *reader, guint16 udp_port)
{
  gint64 deadline = g_get_monotonic_time () + SL_TEST_DEADLINE_MS * 1000;
  gint64 peak = 0, last = -1;
  guint same = 0;
  while (same < 5 && g_get_monotonic_time () < deadline)
    {
      g_usleep (50 * 1000);
      gint64 now = sl_test_stat (env, "source", "s_net", "received");
      peak = MAX (peak, bytes_in_flight (env));
      same = now > 0 && now == last ? same + 1 : 0;
      last = now;
    }
  g_test_message ("held back after %" G_GINT64_FORMAT " messages; at most %" G_GINT64_FORMAT " bytes in flight",
                  last, peak);
  g_assert_cmpint (last, <, FLOW_LINES / 4);
  g_assert_cmpint (peak, >=, BOUND_BYTES);
  g_assert_cmpint (peak, <=, BOUND_BYTES + ONE_READ);
  g_assert_cmpint (sl_test_stat (env, "global", "messages", "bytes_in_flight_max"), ==, BOUND_BYTES);

  for (guint i = 0; i < 10; i++)
    if (!sl_test_udp_send (udp_port, HEADER "over the bound"))
      return;
  sl_test_wait_stat (env, "destination", "d_file", "dropped", 10);
  sl_test_wait_stderr (env, "in-flight-bytes-max() reached, dropping messages without flow control");

  GThread *drain = g_thread_new ("drain", drain_thread, reader);
  sl_test_wait_stat (env, "destination", "d_pipe", "written", FLOW_LINES);
  g_assert_cmpint (bytes_in_flight (env), <=, 4 * 16 * 1024);
  gint status = sl_test_daemon_stop (env, SIGTERM);
  g_thread_join (drain);
  g_assert_cmpint (status, ==, 0);
  gchar *path = sl_test_path (env, "drained.log");
  g_file_set_contents (path, reader->data->str, reader->data->len, NULL);
  check_sequence (path, TRUE, FLOW_LINES);
  g_free (path);
}

static void
test_bytes_in_flight_bound (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  guint16 udp_port = sl_test_free_port (SOCK_DGRAM);
  g_autofree gchar *port_str = port_text (port);
  g_autofree gchar *udp_str = port_text (udp_port);
  g_autofree gchar *pipe_path = sl_test_path (env, "pipe");
  if (!port || !udp_port || mkfifo (pipe_path, 0600) < 0)
    {
      g_test_fail_printf ("cannot make %s: %s", pipe_path, g_strerror (errno));
      return;
    }
  gint pipe_fd = open (pipe_path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (pipe_fd < 0 || fcntl (pipe_fd, F_SETFL, 0) < 0)
    {
      g_test_fail_printf ("cannot open %s: %s", pipe_path, g_strerror (errno));
      return;
    }
  Drain reader = { pipe_fd, g_string_new (NULL) };
  SlTestSender *sender = NULL;
  gint fd;
  if (sl_test_write_config (env, bound_config, "PORT", port_str, "UDP", udp_str, NULL) && sl_test_daemon_start (env)
      && (fd = sl_test_tcp_connect (port)) >= 0)
    {
      sender = sl_test_sender_start (fd, numbered_lines (FLOW_LINES));
      run_bound (env, &reader, udp_port);
    }
  if (sender)
    sl_test_sender_finish (sender);
  close (pipe_fd);
  g_string_free (reader.data, TRUE);
}

static const gchar bound_refused_config[] =
  "@version: 4.0\n"
  "options { in-flight-bytes-max(64k); };\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_file { file(\"@DIR@/out.log\"); };\n"
  "log { source(s_net); destination(d_file); };\n";

/* A bound too small to let a read through is refused where it is written. */
static void
test_bytes_in_flight_bound_refused (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = port_text (port);
  if (!port || !sl_test_write_config (env, bound_refused_config, "PORT", port_str, NULL))
    return;
  g_autofree gchar *err = NULL;
  gint status = sl_test_run_built ("daemon/sluiced", NULL, &err, "-s", "-f", env->config, NULL);
  g_assert_cmpint (status, !=, 0);
  g_assert_nonnull (strstr (err, "sluice.conf:2:31:"));
  g_assert_nonnull (strstr (err, "in-flight-bytes-max"));
}

static const gchar oversize_dgram_config[] =
  "@version: 4.0\n"
  "source s_udp { udp(ip(\"127.0.0.1\") port(@PORT@) log-msg-size(1024)); };\n"
  "source s_dgram { unix-dgram(\"@DIR@/dgram.sock\" log-msg-size(1024)); };\n"
  "destination d_file { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_udp); source(s_dgram); destination(d_file); };\n";

/* An oversize datagram is cut and counted once, like an oversize line. */
static void
test_oversize_datagram (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_DGRAM);
  g_autofree gchar *port_str = port_text (port);
  g_autofree gchar *path = sl_test_path (env, "out.log");
  g_autofree gchar *socket_path = sl_test_path (env, "dgram.sock");
  if (!port || !sl_test_write_config (env, oversize_dgram_config, "PORT", port_str, NULL)
      || !sl_test_daemon_start (env) || !sl_test_wait_socket (env, socket_path))
    return;
  g_autofree gchar *long_body = g_strnfill (OVERSIZE, 'x');
  g_autofree gchar *datagram = g_strconcat (HEADER, long_body, "\n", NULL);
  if (!sl_test_udp_send (port, datagram) || !sl_test_udp_send (port, HEADER "normal line after\n"))
    return;
  check_oversize_lines (env, path, 0);
  if (!sl_test_unix_send (socket_path, SOCK_DGRAM, datagram)
      || !sl_test_unix_send (socket_path, SOCK_DGRAM, HEADER "normal line after"))
    return;
  check_oversize_lines (env, path, 2);
  g_assert_cmpint (sl_test_stat (env, "source", "s_udp", "truncated"), ==, 1);
  g_assert_cmpint (sl_test_stat (env, "source", "s_dgram", "truncated"), ==, 1);
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/load/flow-control", test_flow_control);
  SL_TEST_ADD ("/load/backpressure-and-shutdown", test_backpressure_and_shutdown);
  SL_TEST_ADD ("/load/drops-counted", test_drops_counted);
  SL_TEST_ADD ("/load/bytes-in-flight-bound", test_bytes_in_flight_bound);
  SL_TEST_ADD ("/load/bytes-in-flight-bound-refused", test_bytes_in_flight_bound_refused);
  SL_TEST_ADD ("/load/max-connections", test_max_connections);
  SL_TEST_ADD ("/load/idle-timeout", test_idle_timeout);
  SL_TEST_ADD ("/load/max-connections-per-ip", test_per_ip);
  SL_TEST_ADD ("/load/oversize", test_oversize);
  SL_TEST_ADD ("/load/oversize-datagram", test_oversize_datagram);
  return g_test_run ();
}
