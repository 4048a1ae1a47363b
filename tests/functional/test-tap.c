/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sluicectl tap against a running sluiced: the messages passing a named
 * source, parser or destination, a filter and a limit, refusals, and a
 * reader that sleeps under load, which never slows the pipeline. */
#include "tests/functional/harness.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define HEADER(program) "<13>Nov 29 20:25:57 taphost " program ": "

static const gchar config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@) log-iw-size(100000)); };\n"
  "parser p_kv { kv-parser(); };\n"
  "destination d_file { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
  "destination both { file(\"@DIR@/both.log\"); };\n"
  "source both { udp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "log { source(s_net); parser(p_kv); destination(d_file); };\n"
  "log { source(both); destination(both); };\n";

static gboolean
start (SlTestEnv *env, guint16 *port)
{
  *port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = g_strdup_printf ("%u", *port);
  return *port && sl_test_write_config (env, config, "PORT", port_str, NULL) && sl_test_daemon_start (env);
}

/* sluicectl tap ARGS with its stdout in out_path, its stderr in err_path;
 * once it said it taps. */
static GPid
spawn_tap (SlTestEnv *env, const gchar *out_path, const gchar *err_path, const gchar *args)
{
  const gchar *builddir = g_getenv ("SL_TOP_BUILDDIR");
  g_autofree gchar *line = g_strdup_printf ("exec '%s/tools/sluicectl' -c '%s' tap %s > '%s'", builddir ? builddir : ".",
                                            env->control, args, out_path);
  const gchar *argv[] = { "/bin/sh", "-c", line, NULL };
  GPid pid = sl_test_spawn_argv (argv, err_path);
  for (gint i = 0; pid && i < 500; i++)
    {
      g_autofree gchar *err = sl_test_read_file (err_path);
      if (err && strstr (err, "sluicectl: tapping "))
        return pid;
      g_usleep (10000);
    }
  g_test_fail_printf ("sluicectl tap %s did not start tapping", args);
  return pid;
}

static void
test_limit_and_filter (SlTestEnv *env, gconstpointer data)
{
  guint16 port;
  if (!start (env, &port))
    return;
  g_autofree gchar *out = sl_test_path (env, "tap.json");
  g_autofree gchar *err = sl_test_path (env, "tap.err");
  GPid tap = spawn_tap (env, out, err, "p_kv --limit 2 --filter 'program(\"app\")'");
  if (!tap || !sl_test_tcp_send (port, HEADER ("other") "a=1\n" HEADER ("app") "x=1 y=2\n" HEADER ("app") "x=2\n"
                                 HEADER ("app") "x=3\n"))
    return;
  gint status = sl_test_child_wait (tap, 10 * G_USEC_PER_SEC);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  g_auto (GStrv) lines = sl_test_read_lines (out);
  g_assert_cmpuint (g_strv_length (lines), ==, 2);
  /* every field the parser made and every macro, once the parser ran */
  g_assert_nonnull (strstr (lines[0], "\"x\":\"1\""));
  g_assert_nonnull (strstr (lines[0], "\"y\":\"2\""));
  g_assert_nonnull (strstr (lines[0], "\"PROGRAM\":\"app\""));
  g_assert_nonnull (strstr (lines[0], "\"HOST_FROM\":\"127.0.0.1\""));
  g_assert_nonnull (strstr (lines[0], "\"SOURCE\":\"s_net\""));
  g_assert_nonnull (strstr (lines[0], "\"ISODATE\":\""));
  g_assert_nonnull (strstr (lines[1], "\"x\":\"2\""));
  g_autofree gchar *said = sl_test_read_file (err);
  g_assert_cmpstr (said, ==, "sluicectl: tapping parser/p_kv\n");
  /* what the tap saw went on to the destination as before */
  g_autofree gchar *file = sl_test_path (env, "out.log");
  g_assert_true (sl_test_wait_lines (env, file, 4));

  /* the source and the destination are points too */
  g_autofree gchar *source_out = sl_test_path (env, "source.json");
  GPid source_tap = spawn_tap (env, source_out, err, "s_net --limit 1");
  if (!source_tap || !sl_test_tcp_send (port, HEADER ("app") "k=v\n"))
    return;
  status = sl_test_child_wait (source_tap, 10 * G_USEC_PER_SEC);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  g_autofree gchar *seen = sl_test_read_file (source_out);
  /* before the parser: no k yet */
  g_assert_nonnull (strstr (seen, "\"MESSAGE\":\"k=v\""));
  g_assert_null (strstr (seen, "\"k\":"));
}

/* The first line of the answer to command, the connection closed after. */
static gchar *
first_line (SlTestEnv *env, const gchar *command)
{
  gint fd = sl_test_unix_connect (env->control, SOCK_STREAM);
  if (fd < 0 || !sl_test_send_all (fd, command, strlen (command)))
    return NULL;
  GString *line = g_string_new (NULL);
  gchar c;
  while (read (fd, &c, 1) == 1)
    {
      g_string_append_c (line, c);
      if (c == '\n')
        break;
    }
  close (fd);
  return g_string_free (line, FALSE);
}

static void
test_refusals (SlTestEnv *env, gconstpointer data)
{
  guint16 port;
  if (!start (env, &port))
    return;
  g_autofree gchar *out = NULL, *err = NULL;
  gint status = sl_test_run_built ("tools/sluicectl", &out, &err, "-c", env->control, "tap", "d_nothing", NULL);
  g_assert_cmpint (status, ==, 1);
  g_assert_cmpstr (err, ==, "ERROR no source, parser, rewrite or destination of the running configuration's paths "
                            "is called 'd_nothing'\n");
  g_clear_pointer (&err, g_free);
  g_clear_pointer (&out, g_free);
  status = sl_test_run_built ("tools/sluicectl", &out, &err, "-c", env->control, "tap", "both", NULL);
  g_assert_cmpint (status, ==, 1);
  g_assert_cmpstr (err, ==, "ERROR 'both' names more than one object; give one of source/both, destination/both\n");
  g_clear_pointer (&err, g_free);
  g_clear_pointer (&out, g_free);
  status = sl_test_run_built ("tools/sluicectl", &out, &err, "-c", env->control, "tap", "d_file", "--filter",
                              "program(\"app\" and", NULL);
  g_assert_cmpint (status, ==, 1);
  g_assert_true (g_str_has_prefix (err, "ERROR --filter:1:"));

  /* one tap at a time on a point; the next once it went */
  g_autofree gchar *tap_out = sl_test_path (env, "tap.json");
  g_autofree gchar *tap_err = sl_test_path (env, "tap.err");
  GPid tap = spawn_tap (env, tap_out, tap_err, "destination/both");
  if (!tap)
    return;
  g_clear_pointer (&err, g_free);
  g_clear_pointer (&out, g_free);
  status = sl_test_run_built ("tools/sluicectl", &out, &err, "-c", env->control, "tap", "destination/both", NULL);
  g_assert_cmpint (status, ==, 1);
  g_assert_cmpstr (err, ==, "ERROR destination/both is tapped already\n");
  /* Ctrl-C ends it, and frees the point */
  kill (tap, SIGINT);
  sl_test_child_wait (tap, 10 * G_USEC_PER_SEC);
  g_autofree gchar *answer = NULL;
  for (gint i = 0; i < 50; i++)
    {
      g_free (answer);
      answer = first_line (env, "TAP destination/both\n");
      if (!answer || !strstr (answer, "tapped already"))
        break;
      g_usleep (50000);
    }
  g_assert_cmpstr (answer, ==, "OK tapping destination/both\n");
}

/* A reload that keeps the object's name keeps the tap. */
static void
test_across_reload (SlTestEnv *env, gconstpointer data)
{
  guint16 port;
  if (!start (env, &port))
    return;
  g_autofree gchar *out = sl_test_path (env, "tap.json");
  g_autofree gchar *err = sl_test_path (env, "tap.err");
  GPid tap = spawn_tap (env, out, err, "d_file --limit 2");
  /* "before" is tapped before the reload: its connection and the next
   * one are read by different threads, in no order of theirs */
  if (!tap || !sl_test_tcp_send (port, HEADER ("app") "before\n") || !sl_test_wait_lines (env, out, 1))
    return;
  g_autofree gchar *answer = sl_test_control (env, "RELOAD");
  g_assert_cmpstr (answer, ==, "OK configuration reloaded\n");
  if (!sl_test_wait_tcp (env, port) || !sl_test_tcp_send (port, HEADER ("app") "after\n"))
    return;
  gint status = sl_test_child_wait (tap, 10 * G_USEC_PER_SEC);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  g_auto (GStrv) lines = sl_test_read_lines (out);
  g_assert_cmpuint (g_strv_length (lines), ==, 2);
  g_assert_nonnull (strstr (lines[0], "\"MESSAGE\":\"before\""));
  g_assert_nonnull (strstr (lines[1], "\"MESSAGE\":\"after\""));
}

#define LOAD_MESSAGES 200000

/* A reader that never reads while LOAD_MESSAGES pass at full speed: the
 * destination writes them all, the tap drops what its buffer cannot hold
 * and says how many; what it shows and what it dropped add up. */
static void
test_sleeping_reader (SlTestEnv *env, gconstpointer data)
{
  guint16 port;
  if (!start (env, &port))
    return;
  gint fd = sl_test_unix_connect (env->control, SOCK_STREAM);
  if (fd < 0 || !sl_test_send_all (fd, "TAP d_file\n", 11))
    return;
  const gchar *builddir = g_getenv ("SL_TOP_BUILDDIR");
  g_autofree gchar *gen = g_build_filename (builddir ? builddir : ".", "tools", "sluice-gen", NULL);
  g_autofree gchar *port_str = g_strdup_printf ("%u", port);
  g_autofree gchar *number = g_strdup_printf ("%u", LOAD_MESSAGES);
  const gchar *argv[] = { gen, "-n", number, "-r", "0", "-Q", "127.0.0.1", port_str, NULL };
  g_autofree gchar *gen_err = NULL;
  gint64 started = g_get_monotonic_time ();
  g_assert_cmpint (sl_test_run_argv (argv, NULL, &gen_err), ==, 0);
  if (!sl_test_wait_stat (env, "destination", "d_file", "written", LOAD_MESSAGES))
    {
      close (fd);
      return;
    }
  gint64 took = g_get_monotonic_time () - started;
  g_test_message ("%u messages through with a sleeping tap in %.2f s", LOAD_MESSAGES, took / 1e6);
  g_assert_cmpint (sl_test_stat (env, "destination", "d_file", "dropped"), ==, 0);
  g_autofree gchar *path = sl_test_path (env, "out.log");
  g_assert_cmpuint (sl_test_count_lines (path), ==, LOAD_MESSAGES);

  /* the reader wakes up: what was held comes, then the count of drops */
  GString *got = g_string_new (NULL);
  gchar buf[65536];
  struct pollfd p = { fd, POLLIN, 0 };
  while (poll (&p, 1, 2000) > 0)
    {
      gssize n = read (fd, buf, sizeof buf);
      if (n <= 0)
        break;
      g_string_append_len (got, buf, n);
    }
  close (fd);
  g_auto (GStrv) lines = g_strsplit (got->str, "\n", -1);
  g_string_free (got, TRUE);
  g_assert_cmpstr (lines[0], ==, "OK tapping destination/d_file");
  guint64 shown = 0, dropped = 0;
  for (guint i = 1; lines[i] && *lines[i]; i++)
    if (g_str_has_prefix (lines[i], "DROPPED "))
      dropped = g_ascii_strtoull (lines[i] + 8, NULL, 10);
    else
      {
        g_assert_true (g_str_has_prefix (lines[i], "{"));
        shown++;
      }
  g_test_message ("tap showed %" G_GUINT64_FORMAT ", dropped %" G_GUINT64_FORMAT, shown, dropped);
  g_assert_cmpuint (dropped, >, 0);
  g_assert_cmpuint (shown, >, 0);
  g_assert_cmpuint (shown + dropped, ==, LOAD_MESSAGES);
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/tap/limit-and-filter", test_limit_and_filter);
  SL_TEST_ADD ("/tap/refusals", test_refusals);
  SL_TEST_ADD ("/tap/across-reload", test_across_reload);
  SL_TEST_ADD ("/tap/sleeping-reader", test_sleeping_reader);
  return g_test_run ();
}
