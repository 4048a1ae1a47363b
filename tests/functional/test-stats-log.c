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

/* Level 0 is syslog-ng 3.38's: the totals per source and destination and
 * internal()'s own counters; the tcp() and file() drivers' own are level 1. */
static void
test_counts_in_the_log (SlTestEnv *env, gconstpointer data)
{
  guint16 port;
  g_autofree gchar *internal = sl_test_path (env, "internal.log");
  if (!start_with (env, &port, "stats(freq(1))") || !send_messages (env, port, 3)
      || !sl_test_wait_contains (env, internal, "processed='destination(d_net)=3'"))
    return;
  g_autofree gchar *line = last_stats_line (env);
  g_assert_nonnull (strstr (line, "processed='source(s_net)=3'"));
  g_assert_nonnull (strstr (line, "processed='center(received)="));
  g_assert_nonnull (strstr (line, "processed='src.internal(s_int#0)="));
  g_assert_nonnull (strstr (line, "stamp='src.internal(s_int#0)="));
  g_assert_null (strstr (line, "src.tcp(s_net#0)"));
  g_assert_null (strstr (line, "dst.file(d_net#0)"));
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

/* Counters only syslog-ng has, left out of the comparison: its process's
 * global(...) ones (scratch buffers, message clones, payload reallocations,
 * internal()'s queue), and connections='src.tcp(NAME,afsocket_sd.(stream,
 * AF_INET(ADDRESS)))', the connections a listener has open now (Sluice's
 * "connections" counts those it accepted, a level-1 counter). */
static gboolean
only_syslog_ng (const gchar *item)
{
  return strstr (item, "='global(") || g_str_has_prefix (item, "connections='src.tcp(");
}

static gint
compare_strings (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const gchar *const *) a, *(const gchar *const *) b);
}

/* The items of a "Log statistics; " line as key='component', without the
 * values, sorted (syslog-ng writes them in its hash table's order), one a
 * line. */
static gchar *
stats_shape (const gchar *line)
{
  g_auto (GStrv) items = g_strsplit (line + strlen ("Log statistics; "), ", ", -1);
  GPtrArray *shape = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; items[i]; i++)
    {
      const gchar *value = strrchr (items[i], '=');
      if (!only_syslog_ng (items[i]))
        g_ptr_array_add (shape, g_strdup_printf ("%.*s'", (int) (value ? value - items[i] : (gssize) strlen (items[i])),
                                                 items[i]));
    }
  g_ptr_array_sort (shape, compare_strings);
  g_ptr_array_add (shape, NULL);
  gchar *joined = g_strjoinv ("\n", (gchar **) shape->pdata);
  g_ptr_array_free (shape, TRUE);
  return joined;
}

/* The last "Log statistics" line of DIR/internal.log that counts n
 * messages of s_net, waiting for one. */
static gchar *
wait_stats_line (SlTestEnv *env, const gchar *dir, guint n)
{
  g_autofree gchar *path = g_build_filename (dir, "internal.log", NULL);
  g_autofree gchar *needle = g_strdup_printf ("processed='source(s_net)=%u'", n);
  if (!sl_test_wait_contains (env, path, needle))
    return NULL;
  g_auto (GStrv) lines = sl_test_read_lines (path);
  gchar *last = NULL;
  for (guint i = 0; lines && lines[i]; i++)
    if (g_str_has_prefix (lines[i], "Log statistics; ") && strstr (lines[i], needle))
      {
        g_free (last);
        last = g_strdup (lines[i]);
      }
  return last;
}

/* syslog-ng 3.38 (or 4.8) and sluiced on one configuration: the same counters in
 * their "Log statistics" lines. The values differ where the daemons do:
 * internal() carries each one's own messages (syslog-ng logs more of them),
 * so source(s_int), destination(d_int), src.internal(s_int#0) and the
 * center totals count differently, and stamp is each one's time. */
static const gchar side_config[] =
    "@version: 3.38\n"
    "options { stats-freq(1); };\n"
    "source s_int { internal(); };\n"
    "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
    "destination d_net { file(\"@OUT@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
    "destination d_int { file(\"@OUT@/internal.log\" template(\"${MESSAGE}\\n\")); };\n"
    "log { source(s_net); destination(d_net); };\n"
    "log { source(s_int); destination(d_int); };\n";

static const gchar *const side_outputs[] = { "out.log", NULL };

static gchar *
side_text (void)
{
  GString *text = g_string_new (NULL);
  for (guint i = 0; i < 3; i++)
    g_string_append_printf (text, HEADER "message %u\n", i);
  return g_string_free (text, FALSE);
}

/* The counters of the two lines alike */
static void
assert_same_shape (const gchar *ng_line, const gchar *sl_line)
{
  if (!ng_line || !sl_line)
    return;
  g_test_message ("syslog-ng: %s", ng_line);
  g_test_message ("sluiced:   %s", sl_line);
  g_autofree gchar *ng_shape = stats_shape (ng_line);
  g_autofree gchar *sl_shape = stats_shape (sl_line);
  g_assert_cmpstr (sl_shape, ==, ng_shape);
}

static void
test_same_as_syslog_ng (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *text = side_text ();
  g_autofree gchar *sl_out = NULL, *ng_out = NULL;
  GPid ng = 0;
  if (!sl_test_side_by_side (env, side_config, text, side_outputs, 3, &sl_out, &ng_out, &ng))
    return;
  g_autofree gchar *ng_line = wait_stats_line (env, ng_out, 3);
  sl_test_syslog_ng_stop (env, ng);
  g_autofree gchar *sl_line = wait_stats_line (env, sl_out, 3);
  assert_same_shape (ng_line, sl_line);
}

/* The same under @version: 4.8 beside syslog-ng 4.8 (Debian 13's) */
static void
test_same_as_syslog_ng_48 (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *root = sl_test_trixie_root ();
  if (!root)
    {
      g_test_skip ("the Debian 13 root of syslog-ng 4.8 could not be made (tests/peers/trixie-root)");
      return;
    }
  GString *config = g_string_new (side_config);
  g_string_replace (config, "@version: 3.38\n", "@version: 4.8\n", 1);
  g_autofree gchar *text = side_text ();
  g_autofree gchar *sl_out = NULL;
  gchar *ng_out = NULL;
  GPid ng = 0;
  gboolean ran = sl_test_side_by_side_48 (env, root, config->str, text, side_outputs, 3, &sl_out, &ng_out, &ng);
  g_string_free (config, TRUE);
  if (!ran)
    return;
  g_autofree gchar *ng_line = wait_stats_line (env, ng_out, 3);
  sl_test_syslog_ng_48_stop (ng, ng_out);
  g_autofree gchar *sl_line = wait_stats_line (env, sl_out, 3);
  assert_same_shape (ng_line, sl_line);
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/stats-log/counts", test_counts_in_the_log);
  SL_TEST_ADD ("/stats-log/off-then-reload", test_off_then_reload);
  SL_TEST_ADD ("/stats-log/same-as-syslog-ng", test_same_as_syslog_ng);
  SL_TEST_ADD ("/stats-log/same-as-syslog-ng-4.8", test_same_as_syslog_ng_48);
  return g_test_run ();
}
