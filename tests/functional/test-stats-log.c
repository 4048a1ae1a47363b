/* SPDX-License-Identifier: GPL-2.0-or-later */
/* options { stats(freq() level()) } and stats-freq(): the counters written
 * into internal() as syslog-ng's "Log statistics" messages. */
#include "tests/functional/harness.h"

#include <signal.h>
#include <string.h>
#include <sys/socket.h>

#define HEADER "<13>Dec  1 20:25:57 statshost app: "

/* @STATS@ is the options {} entry under test */
static const gchar stats_config[] =
  "@version: 4.0\n"
  "options { @STATS@; };\n"
  "source s_int { internal(); };\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_net { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
  "destination d_int { file(\"@DIR@/internal.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_net); destination(d_net); };\n"
  "log { source(s_int); destination(d_int); };\n";

static gboolean
write_config (SlTestEnv *env, guint16 port, const gchar *stats)
{
  g_autofree gchar *port_str = g_strdup_printf ("%u", port);
  return sl_test_write_config (env, stats_config, "PORT", port_str, "STATS", stats, NULL);
}

static gboolean
start_with (SlTestEnv *env, guint16 *port, const gchar *stats)
{
  *port = sl_test_free_port (SOCK_STREAM);
  return *port && write_config (env, *port, stats) && sl_test_daemon_start (env);
}

static gboolean
send_messages (SlTestEnv *env, guint16 port, guint n)
{
  GString *lines = g_string_new (NULL);
  for (guint i = 0; i < n; i++)
    g_string_append_printf (lines, HEADER "message %u\n", i);
  gboolean ok = sl_test_tcp_send (port, lines->str);
  g_string_free (lines, TRUE);
  return ok && sl_test_wait_stat (env, "destination", "d_net", "written", n);
}

/* The last "Log statistics" line of internal.log, or NULL. */
static gchar *
last_stats_line (SlTestEnv *env)
{
  g_autofree gchar *path = sl_test_path (env, "internal.log");
  g_auto (GStrv) lines = sl_test_read_lines (path);
  gchar *last = NULL;
  for (guint i = 0; lines && lines[i]; i++)
    if (g_str_has_prefix (lines[i], "Log statistics; "))
      {
        g_free (last);
        last = g_strdup (lines[i]);
      }
  return last;
}

static void
test_counts_in_the_log (SlTestEnv *env, gconstpointer data)
{
  guint16 port;
  g_autofree gchar *internal = sl_test_path (env, "internal.log");
  if (!start_with (env, &port, "stats(freq(1))") || !send_messages (env, port, 3)
      || !sl_test_wait_contains (env, internal, "processed='src.tcp(s_net#0)=3'"))
    return;
  g_autofree gchar *line = last_stats_line (env);
  g_assert_nonnull (strstr (line, "processed='source(s_net)=3'"));
  g_assert_nonnull (strstr (line, "written='dst.file(d_net#0)=3'"));
  g_assert_nonnull (strstr (line, "dropped='dst.file(d_net#0)=0'"));
  g_assert_nonnull (strstr (line, "processed='destination(d_net)=3'"));
  g_assert_nonnull (strstr (line, "processed='center(received)="));
  /* level 0 leaves out the counters beyond a driver's message counts */
  g_assert_null (strstr (line, "truncated="));
}

/* stats-freq(0), the 3.x spelling, writes none; a reload to
 * stats(freq(1) level(1)) starts them, with every counter. */
static void
test_off_then_reload (SlTestEnv *env, gconstpointer data)
{
  guint16 port;
  g_autofree gchar *internal = sl_test_path (env, "internal.log");
  if (!start_with (env, &port, "stats-freq(0)") || !send_messages (env, port, 2))
    return;
  /* absence needs a time to look over: three periods of the reload's
   * freq(1); a slow machine only makes a wrong timer fire later */
  gint64 until = g_get_monotonic_time () + 3 * G_USEC_PER_SEC;
  while (g_get_monotonic_time () < until)
    g_usleep (100000);
  g_autofree gchar *before = last_stats_line (env);
  g_assert_null (before);

  if (!write_config (env, port, "stats(freq(1) level(1))"))
    return;
  kill (env->pid, SIGHUP);
  if (!sl_test_wait_stderr (env, "configuration reloaded") || !sl_test_wait_tcp (env, port)
      || !sl_test_wait_contains (env, internal, "truncated='src.tcp(s_net#0)=0'"))
    return;
  g_autofree gchar *after = last_stats_line (env);
  g_assert_nonnull (strstr (after, "processed='src.tcp(s_net#0)=2'"));
  g_assert_nonnull (strstr (after, "written='dst.file(d_net#0)=2'"));
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/stats-log/counts", test_counts_in_the_log);
  SL_TEST_ADD ("/stats-log/off-then-reload", test_off_then_reload);
  return g_test_run ();
}
