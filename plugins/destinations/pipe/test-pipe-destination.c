/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pipe() on the real daemon with a real FIFO and cat reading it: a pipe
 * nobody reads holds its messages while the other destinations go on, a
 * reader that comes (back) gets them, and without flow control a full
 * queue drops and counts. */
#include "tests/functional/harness.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static gboolean
send_lines (guint16 port, guint first, guint count)
{
  GString *text = g_string_new (NULL);
  for (guint i = first; i < first + count; i++)
    g_string_append_printf (text, "<13>Oct 11 22:14:15 host app[1]: line %04u\n", i);
  gboolean ok = sl_test_tcp_send (port, text->str);
  g_string_free (text, TRUE);
  return ok;
}

static void
assert_numbered (const gchar *path, guint first, guint count)
{
  g_auto (GStrv) lines = sl_test_read_lines (path);
  g_assert_nonnull (lines);
  if (!lines)
    return;
  g_assert_cmpuint (g_strv_length (lines), ==, count);
  for (guint i = 0; lines[i] && i < count; i++)
    {
      g_autofree gchar *want = g_strdup_printf ("line %04u", first + i);
      g_assert_cmpstr (lines[i], ==, want);
    }
}

/* cat reading fifo, appending to out; its pid, or 0. */
static GPid
start_reader (const gchar *fifo, const gchar *out)
{
  gint fd = open (out, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  const gchar *argv[] = { "cat", fifo, NULL };
  GPid pid = 0;
  GError *error = NULL;
  if (fd < 0 || !g_spawn_async_with_pipes_and_fds (NULL, argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD,
                                                   NULL, NULL, -1, fd, -1, NULL, NULL, 0, &pid, NULL, NULL, NULL,
                                                   &error))
    {
      g_test_fail_printf ("cannot start cat: %s", error ? error->message : g_strerror (errno));
      g_clear_error (&error);
      pid = 0;
    }
  if (fd >= 0)
    close (fd);
  return pid;
}

static void
stop_reader (GPid pid)
{
  if (!pid)
    return;
  kill (pid, SIGTERM);
  waitpid (pid, NULL, 0);
  g_spawn_close_pid (pid);
}

static gchar *
port_text (guint16 port)
{
  return g_strdup_printf ("%u", port);
}

static const gchar held_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_pipe { pipe(\"@DIR@/xconsole\" template(\"${MESSAGE}\\n\") time-reopen(1)); };\n"
  "destination d_file { file(\"@DIR@/other.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_net); destination(d_pipe); destination(d_file); flags(flow-control); };\n";

static void
run_held (SlTestEnv *env, GPid *reader)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = port_text (port);
  if (!port || !sl_test_write_config (env, held_config, "PORT", port_str, NULL) || !sl_test_daemon_start (env))
    return;
  g_autofree gchar *fifo = sl_test_path (env, "xconsole");
  g_autofree gchar *other = sl_test_path (env, "other.log");
  g_autofree gchar *out = sl_test_path (env, "out.txt");

  /* nobody reads: the file gets its messages, the pipe holds them */
  g_autofree gchar *reason = g_strdup_printf ("driver='d_pipe#0', reason='nobody reads the pipe %s: ", fifo);
  if (!send_lines (port, 1, 5) || !sl_test_wait_lines (env, other, 5) || !sl_test_wait_stderr (env, reason))
    return;
  struct stat st;
  g_assert_cmpint (stat (fifo, &st), ==, 0);
  g_assert_true (S_ISFIFO (st.st_mode));
  g_assert_cmpuint (st.st_mode & 0777, ==, 0600);
  g_assert_cmpint (sl_test_stat (env, "destination", "d_pipe", "written"), ==, 0);
  g_assert_cmpint (sl_test_stat (env, "destination", "d_pipe", "queued"), ==, 5);

  /* a reader comes: it gets them */
  *reader = start_reader (fifo, out);
  if (!*reader || !sl_test_wait_lines (env, out, 5) || !sl_test_wait_stderr (env, "destination writes again; driver='d_pipe#0'"))
    return;

  /* the reader goes away: held again, and the next reader gets them */
  stop_reader (*reader);
  *reader = 0;
  if (!send_lines (port, 6, 3) || !sl_test_wait_lines (env, other, 8))
    return;
  *reader = start_reader (fifo, out);
  if (!*reader || !sl_test_wait_lines (env, out, 8))
    return;
  assert_numbered (out, 1, 8);
  g_assert_cmpint (sl_test_stat (env, "destination", "d_pipe", "dropped"), ==, 0);
  g_assert_true (sl_test_daemon_alive (env));
}

static void
test_held_until_read (SlTestEnv *env, gconstpointer data)
{
  GPid reader = 0;
  run_held (env, &reader);
  stop_reader (reader);
}

static const gchar dropped_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_pipe { pipe(\"@DIR@/xconsole\" time-reopen(1) log-fifo-size(10) flush-lines(5) stall-timeout(1)); };\n"
  "destination d_file { file(\"@DIR@/other.log\"); };\n"
  "log { source(s_net); destination(d_pipe); destination(d_file); };\n";

/* Without flow control a pipe nobody reads holds its source back for
 * stall-timeout(), then what its queue does not fit is dropped and
 * counted; the file destination misses nothing. */
static void
test_dropped_without_flow_control (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = port_text (port);
  if (!port || !sl_test_write_config (env, dropped_config, "PORT", port_str, NULL) || !sl_test_daemon_start (env))
    return;
  g_autofree gchar *other = sl_test_path (env, "other.log");
  if (!send_lines (port, 1, 50) || !sl_test_wait_lines (env, other, 50)
      || !sl_test_wait_stat (env, "destination", "d_pipe", "processed", 50)
      || !sl_test_wait_stderr (env, "has written nothing for"))
    return;
  gint64 dropped = sl_test_stat (env, "destination", "d_pipe", "dropped");
  g_assert_cmpint (dropped, >=, 50 - 10 - 5);
  g_assert_cmpint (dropped + sl_test_stat (env, "destination", "d_pipe", "queued"), ==, 50);
  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/pipe/held-until-read", test_held_until_read);
  SL_TEST_ADD ("/pipe/dropped-without-flow-control", test_dropped_without_flow_control);
  return g_test_run ();
}
