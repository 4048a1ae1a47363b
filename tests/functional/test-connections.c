/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Many stream connections on the daemon's few I/O workers: thousands at
 * once all delivered with a bounded number of threads, a connection closed
 * as soon as its peer ends it, and a flooding peer that does not starve
 * the others of its worker. */
#include "tests/functional/harness.h"
#include "tools/gen/format.h"
#include "tools/gen/verify.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define MANY_CONNECTIONS 8000
#define MESSAGES_EACH 100
/* Threads besides the I/O workers: main, the file writer, and what GLib
 * starts for itself. */
#define OTHER_THREADS_MAX 6

static gchar *
port_text (guint16 port)
{
  return g_strdup_printf ("%u", port);
}

/* The value of a "Name:" line of /proc/PID/status, or -1. */
static gint64
proc_status (GPid pid, const gchar *name)
{
  g_autofree gchar *path = g_strdup_printf ("/proc/%d/status", (gint) pid);
  g_autofree gchar *text = sl_test_read_file (path);
  g_autofree gchar *key = g_strconcat ("\n", name, ":", NULL);
  const gchar *line = text ? strstr (text, key) : NULL;
  return line ? g_ascii_strtoll (line + strlen (key), NULL, 10) : -1;
}

static guint
open_fds (GPid pid)
{
  g_autofree gchar *path = g_strdup_printf ("/proc/%d/fd", (gint) pid);
  GDir *dir = g_dir_open (path, 0, NULL);
  guint n = 0;
  while (dir && g_dir_read_name (dir))
    n++;
  if (dir)
    g_dir_close (dir);
  return n;
}

static const gchar many_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@) max-connections(10000) listen-backlog(4096)); };\n"
  "destination d_file { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_net); destination(d_file); flags(flow-control); };\n";

/* Connection conn (from 1) sends its MESSAGES_EACH numbered messages. */
static gboolean
send_numbered (gint fd, guint conn)
{
  SlGenFormat format = { SL_GEN_RFC3164, SL_GEN_FRAMING_NEWLINE, "manyhost", "app", 7, NULL, 100 };
  SlGenLayout layout;
  g_autofree gchar *frames = sl_gen_frames_new (&format, conn, MESSAGES_EACH, g_get_real_time (), &layout);
  sl_gen_frames_set_seq (frames, &layout, MESSAGES_EACH, 1);
  return sl_test_send_all (fd, frames, layout.frame_len * MESSAGES_EACH);
}

static void
check_every_message (const gchar *path)
{
  gchar *text = NULL;
  gsize len = 0;
  if (!g_file_get_contents (path, &text, &len, NULL))
    {
      g_test_fail_printf ("cannot read %s", path);
      return;
    }
  SlGenVerify *v = sl_gen_verify_new ();
  sl_gen_verify_expect_connections (v, 1, MANY_CONNECTIONS);
  sl_gen_verify_expect_each (v, MESSAGES_EACH);
  sl_gen_verify_begin_file (v);
  sl_gen_verify_text (v, text, len);
  SlGenTotals totals;
  GArray *report = sl_gen_verify_report (v, &totals);
  g_assert_cmpuint (report->len, ==, MANY_CONNECTIONS);
  g_assert_cmpuint (totals.unmarked, ==, 0);
  g_assert_cmpuint (totals.distinct, ==, (guint64) MANY_CONNECTIONS * MESSAGES_EACH);
  g_assert_cmpuint (totals.missing, ==, 0);
  g_assert_cmpuint (totals.duplicated, ==, 0);
  g_assert_cmpuint (totals.reordered, ==, 0);
  g_array_unref (report);
  sl_gen_verify_free (v);
  g_free (text);
}

/* fds[0..MANY_CONNECTIONS): the connections, closed by the caller. */
static void
run_many (SlTestEnv *env, guint16 port, gint *fds)
{
  g_autofree gchar *path = sl_test_path (env, "out.log");
  for (guint i = 0; i < MANY_CONNECTIONS; i++)
    if ((fds[i] = sl_test_tcp_connect (port)) < 0 || !send_numbered (fds[i], i + 1))
      return;
  if (!sl_test_wait_lines (env, path, MANY_CONNECTIONS * MESSAGES_EACH))
    return;
  gint64 threads = proc_status (env->pid, "Threads");
  gint64 cores = g_get_num_processors ();
  g_test_message ("%u connections open: %" G_GINT64_FORMAT " threads on %" G_GINT64_FORMAT
                  " processors, peak RSS %" G_GINT64_FORMAT " kB", MANY_CONNECTIONS, threads, cores,
                  proc_status (env->pid, "VmHWM"));
  g_assert_cmpint (threads, >, 0);
  g_assert_cmpint (threads, <=, 2 * cores + OTHER_THREADS_MAX);
  g_assert_cmpint (sl_test_stat (env, "source", "s_net", "connections"), ==, MANY_CONNECTIONS);
  check_every_message (path);
}

/* Each connection sends before the next is made, and all stay open until
 * every message arrived, so the daemon holds them all at once. */
static void
test_many_connections (SlTestEnv *env, gconstpointer data)
{
  struct rlimit limit;
  if (getrlimit (RLIMIT_NOFILE, &limit) < 0 || limit.rlim_cur < MANY_CONNECTIONS + 1000)
    {
      g_test_skip ("the open-file limit is below what 8000 connections need");
      return;
    }
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = port_text (port);
  if (!port || !sl_test_write_config (env, many_config, "PORT", port_str, NULL) || !sl_test_daemon_start (env))
    return;
  gint *fds = g_new (gint, MANY_CONNECTIONS);
  for (guint i = 0; i < MANY_CONNECTIONS; i++)
    fds[i] = -1;
  run_many (env, port, fds);
  for (guint i = 0; i < MANY_CONNECTIONS; i++)
    if (fds[i] >= 0)
      close (fds[i]);
  g_free (fds);
}

static const gchar eof_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_file { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_net); destination(d_file); };\n";

/* The daemon closes its end once it read ours: our read sees its end of
 * stream, and its descriptor is gone. */
static void
run_closed_at_eof (SlTestEnv *env, gint fd)
{
  g_autofree gchar *path = sl_test_path (env, "out.log");
  static const gchar line[] = "<13>Nov 29 20:25:57 eofhost app: last words\n";
  if (!sl_test_send_all (fd, line, strlen (line)) || !sl_test_wait_contains (env, path, "last words\n"))
    return;
  guint fds_open = open_fds (env->pid);
  gint64 start = g_get_monotonic_time ();
  shutdown (fd, SHUT_WR);
  struct pollfd p = { fd, POLLIN, 0 };
  gchar buf[16];
  gboolean closed = poll (&p, 1, SL_TEST_DEADLINE_MS / 2) == 1 && read (fd, buf, sizeof buf) == 0;
  gint64 took = g_get_monotonic_time () - start;
  g_assert_true (closed);
  if (!closed)
    return;
  g_test_message ("the daemon closed the connection %.2f ms after the peer's end of stream", took / 1000.0);
  g_assert_cmpuint (open_fds (env->pid), ==, fds_open - 1);
}

static void
test_closed_at_eof (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = port_text (port);
  if (!port || !sl_test_write_config (env, eof_config, "PORT", port_str, NULL) || !sl_test_daemon_start (env))
    return;
  gint fd = sl_test_tcp_connect (port);
  if (fd < 0)
    return;
  run_closed_at_eof (env, fd);
  close (fd);
}

static const gchar close_on_input_config[] =
  "@version: 3.38\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_peer { unix-stream(\"@DIR@/peer.sock\" close-on-input(@CLOSE@) time-reopen(1)\n"
  "  template(\"$MSG\\n\")); };\n"
  "log { source(s_net); destination(d_peer); };\n";

/* What a unix-stream() destination sends, read by the test as its server. */
static gint
listen_unix (const gchar *path)
{
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  gint fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  g_strlcpy (addr.sun_path, path, sizeof addr.sun_path);
  if (fd < 0 || bind (fd, (struct sockaddr *) &addr, sizeof addr) < 0 || listen (fd, 4) < 0)
    {
      if (fd >= 0)
        close (fd);
      return -1;
    }
  return fd;
}

/* Reads from fd until text has come, or what came before the end of
 * stream (NULL on neither). */
static gchar *
read_until (gint fd, const gchar *text)
{
  GString *got = g_string_new (NULL);
  for (;;)
    {
      struct pollfd p = { fd, POLLIN, 0 };
      gchar buf[256];
      gssize n = poll (&p, 1, SL_TEST_DEADLINE_MS) == 1 ? read (fd, buf, sizeof buf) : -1;
      if (n < 0)
        {
          g_string_free (got, TRUE);
          return NULL;
        }
      g_string_append_len (got, buf, n);
      if (n == 0 || strstr (got->str, text))
        return g_string_free (got, FALSE);
    }
}

static gint
accept_peer (gint listener)
{
  struct pollfd p = { listener, POLLIN, 0 };
  return poll (&p, 1, SL_TEST_DEADLINE_MS) == 1 ? accept4 (listener, NULL, NULL, SOCK_CLOEXEC) : -1;
}

/* close-on-input(): data from the server ends the connection, and the next
 * message comes on a new one (yes, syslog-ng's default); or is read and
 * dropped (no, as the collectd() block sets it). */
static void
test_close_on_input (SlTestEnv *env, gconstpointer data)
{
  gboolean close_on_input = GPOINTER_TO_INT (data);
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = port_text (port);
  g_autofree gchar *sock = sl_test_path (env, "peer.sock");
  gint listener = listen_unix (sock);
  g_assert_cmpint (listener, >=, 0);
  if (!port
      || !sl_test_write_config (env, close_on_input_config, "PORT", port_str,
                                "CLOSE", close_on_input ? "yes" : "no", NULL)
      || !sl_test_daemon_start (env) || !sl_test_wait_tcp (env, port)
      || !sl_test_tcp_send (port, "<13>Dec  1 14:00:00 h p: first\n"))
    {
      close (listener);
      return;
    }
  gint peer = accept_peer (listener);
  g_assert_cmpint (peer, >=, 0);
  g_autofree gchar *first = read_until (peer, "first\n");
  g_assert_cmpstr (first, ==, "first\n");
  g_assert_cmpint (write (peer, "x", 1), ==, 1);
  g_assert_true (sl_test_tcp_send (port, "<13>Dec  1 14:00:01 h p: second\n"));

  g_autofree gchar *rest = read_until (peer, "second\n");
  if (close_on_input)
    {
      g_assert_cmpstr (rest, ==, "");
      gint again = accept_peer (listener);
      g_assert_cmpint (again, >=, 0);
      g_autofree gchar *second = read_until (again, "second\n");
      g_assert_cmpstr (second, ==, "second\n");
      close (again);
    }
  else
    g_assert_cmpstr (rest, ==, "second\n");
  close (peer);
  close (listener);
}

static const gchar flood_config[] =
  "@version: 4.0\n"
  "source s_flood { tcp(ip(\"127.0.0.1\") port(@FLOOD@)); };\n"
  "source s_small { tcp(ip(\"127.0.0.1\") port(@SMALL@)); };\n"
  "filter f_nothing { message(\"no flood line has this\"); };\n"
  "destination d_flood { file(\"@DIR@/flood.log\" template(\"${MESSAGE}\\n\")); };\n"
  "destination d_small { file(\"@DIR@/small.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_flood); filter(f_nothing); destination(d_flood); };\n"
  "log { source(s_small); destination(d_small); };\n";

typedef struct
{
  gint fd;
  gint stop;
  GString *chunk;
} Flood;

/* Sends the chunk again and again until told to stop or the daemon stops
 * taking it. */
static gpointer
flood_thread (gpointer data)
{
  Flood *f = data;
  while (!g_atomic_int_get (&f->stop))
    for (gsize done = 0; done < f->chunk->len;)
      {
        gssize n = write (f->fd, f->chunk->str + done, f->chunk->len - done);
        if (n < 0 && errno == EINTR)
          continue;
        if (n <= 0)
          return NULL;
        done += n;
      }
  return NULL;
}

/* Waits until the flood's source has received more than before; what it
 * has then. */
static gint64
wait_flood_above (SlTestEnv *env, gint64 before)
{
  gint64 now = sl_test_stat (env, "source", "s_flood", "received");
  for (guint tries = 0; now <= before && tries < SL_TEST_DEADLINE_MS / 10; tries++)
    {
      g_usleep (10000);
      now = sl_test_stat (env, "source", "s_flood", "received");
    }
  return now;
}

static void
run_small_sender (SlTestEnv *env, guint16 port)
{
  g_autofree gchar *path = sl_test_path (env, "small.log");
  gint fd = sl_test_tcp_connect (port);
  if (fd < 0)
    return;
  /* the flood is flowing before the small sender starts (a slow build may
   * take a while to post its first read) */
  gint64 flood_before = wait_flood_above (env, 0);
  for (guint i = 1; i <= 10; i++)
    {
      g_autofree gchar *line = g_strdup_printf ("<13>Nov 29 20:25:57 smallhost app: small %u\n", i);
      g_autofree gchar *needle = g_strdup_printf ("small %u\n", i);
      if (!sl_test_send_all (fd, line, strlen (line)) || !sl_test_wait_contains (env, path, needle))
        break;
    }
  /* the flood goes on beside it */
  g_assert_cmpint (wait_flood_above (env, flood_before), >, flood_before);
  close (fd);
}

/* One I/O worker serves both connections: its turns must take them in
 * turn, however much the flood has waiting. */
static void
test_flood_does_not_starve (SlTestEnv *env, gconstpointer data)
{
  guint16 flood_port = sl_test_free_port (SOCK_STREAM);
  guint16 small_port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *flood_str = port_text (flood_port);
  g_autofree gchar *small_str = port_text (small_port);
  if (!flood_port || !small_port
      || !sl_test_write_config (env, flood_config, "FLOOD", flood_str, "SMALL", small_str, NULL)
      || !sl_test_daemon_start_with_args (env, "--io-threads", "1", NULL))
    return;
  Flood flood = { sl_test_tcp_connect (flood_port), 0, g_string_new (NULL) };
  if (flood.fd < 0)
    {
      g_string_free (flood.chunk, TRUE);
      return;
    }
  while (flood.chunk->len < 1024 * 1024)
    g_string_append (flood.chunk, "<13>Nov 29 20:25:57 floodhost app: flooding flooding flooding\n");
  GThread *thread = g_thread_new ("flood", flood_thread, &flood);
  if (sl_test_wait_stat (env, "source", "s_flood", "connections", 1))
    run_small_sender (env, small_port);
  g_atomic_int_set (&flood.stop, 1);
  shutdown (flood.fd, SHUT_RDWR);
  g_thread_join (thread);
  close (flood.fd);
  g_string_free (flood.chunk, TRUE);
}

int
main (int argc, char **argv)
{
  /* the daemon inherits the limit: 8000 connections need more than the
   * usual 1024 descriptors on both sides */
  struct rlimit limit;
  if (getrlimit (RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max)
    {
      limit.rlim_cur = limit.rlim_max;
      setrlimit (RLIMIT_NOFILE, &limit);
    }
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/connections/many-concurrent", test_many_connections);
  SL_TEST_ADD ("/connections/closed-at-eof", test_closed_at_eof);
  g_test_add ("/connections/close-on-input/yes", SlTestEnv, GINT_TO_POINTER (TRUE), sl_test_env_setup,
              test_close_on_input, sl_test_env_teardown);
  g_test_add ("/connections/close-on-input/no", SlTestEnv, GINT_TO_POINTER (FALSE), sl_test_env_setup,
              test_close_on_input, sl_test_env_teardown);
  SL_TEST_ADD ("/connections/flood-does-not-starve", test_flood_does_not_starve);
  return g_test_run ();
}
