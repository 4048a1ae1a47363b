/* SPDX-License-Identifier: GPL-2.0-or-later */
/* suppress(): syslog-ng 3.38 (Debian's syslog-ng-core), and syslog-ng
 * 4.8 (Debian 13's) under @version: 4.8, and sluiced run the same configuration, take the same messages (repeats, different ones, a
 * pause past the window, MARK lines) and must write the same lines; the
 * summaries' stamps are compared by shape and their PID, each daemon's
 * own, by what it is. reduce-repeats(): the real rsyslogd 8.2302 with
 * $RepeatedMsgReduction on and sluiced take the same messages and must
 * write the same file. */
#include "tests/functional/harness.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define WINDOW "2"

static const gchar config[] =
  "@version: 3.38\n"
  "options { keep-hostname(yes); keep-timestamp(yes); stats-freq(0); };\n"
  "source s_in { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_out { file(\"@OUT@/suppressed.log\" suppress(" WINDOW ")\n"
  "  template(\"<$PRI> $ISODATE $HOST $MSGHDR$MSG\\n\")); };\n"
  "log { source(s_in); destination(d_out); };\n";

#define LINE(pid, text) "<13>Dec  6 10:00:00 h1 app[" pid "]: " text "\n"

/* Repeats ended by a different message, a different PID that is not a
 * repeat, and repeats left for the window to end. */
static const gchar first[] =
  LINE ("42", "disk is full on /var/spool/postfix") LINE ("42", "disk is full on /var/spool/postfix")
  LINE ("42", "disk is full on /var/spool/postfix") LINE ("42", "disk is full on /var/spool/postfix")
  LINE ("42", "other") LINE ("43", "other") LINE ("43", "other") LINE ("43", "other");
/* After the window: the same message is written again; MARK lines and
 * empty texts are never held back; a repeat from another host is none. */
static const gchar second[] =
  LINE ("43", "other") LINE ("43", "-- MARK --") LINE ("43", "-- MARK --") LINE ("43", "") LINE ("43", "")
  "<13>Dec  6 10:00:00 h2 app[43]: \n" LINE ("43", "last") LINE ("43", "last") "<13>Dec  6 10:00:01 h1 other: end\n";

typedef struct
{
  gchar *dir;
  guint16 port;
  GPid pid;
} Daemon;

static gboolean
send_both (const Daemon *ng, const Daemon *sl, const gchar *text)
{
  return sl_test_tcp_send (ng->port, text) && sl_test_tcp_send (sl->port, text);
}

static gboolean
wait_both (SlTestEnv *env, const Daemon *ng, const Daemon *sl, guint n)
{
  g_autofree gchar *ng_path = g_build_filename (ng->dir, "suppressed.log", NULL);
  g_autofree gchar *sl_path = g_build_filename (sl->dir, "suppressed.log", NULL);
  return sl_test_wait_lines (env, ng_path, n) && sl_test_wait_lines (env, sl_path, n);
}

/* A line with its receive-time stamp and the daemon's own PID made
 * comparable: "STAMP" for an ISO stamp of this year's shape, "[PID]". */
static gchar *
normalized (const gchar *line, GPid pid)
{
  g_autoptr (GRegex) stamp = g_regex_new ("^(<[0-9]+>) [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}[+-][0-9]{2}:[0-9]{2} ",
                                         0, 0, NULL);
  g_autofree gchar *own = g_strdup_printf ("[%d]", (int) pid);
  g_autofree gchar *stamped = strstr (line, "suppressed by syslog-ng")
                               ? g_regex_replace (stamp, line, -1, 0, "\\1 STAMP ", 0, NULL) : g_strdup (line);
  gchar **parts = g_strsplit (stamped, own, -1);
  gchar *out = g_strjoinv ("[PID]", parts);
  g_strfreev (parts);
  return out;
}

/* The peer's configuration: @version: 3.38 as written, or 4.8 */
static gchar *
peer_config (const gchar *version, const gchar *port, const gchar *out)
{
  GString *text = g_string_new (config);
  g_autofree gchar *line = g_strdup_printf ("@version: %s\n", version);
  g_string_replace (text, "@version: 3.38\n", line, 1);
  g_string_replace (text, "@PORT@", port, 0);
  g_string_replace (text, "@OUT@", out, 0);
  return g_string_free (text, FALSE);
}

/* syslog-ng 3.38 (root NULL) or 4.8 (in root) and sluiced on the same
 * configuration under that version write the same lines */
static void
same_lines (SlTestEnv *env, const gchar *root)
{
  const gchar *version = root ? "4.8" : "3.38";
  Daemon ng = { NULL, sl_test_free_port (SOCK_STREAM), 0 };
  Daemon sl = { sl_test_path (env, "sl"), sl_test_free_port (SOCK_STREAM), 0 };
  g_mkdir (sl.dir, 0755);
  g_autofree gchar *ng_port = g_strdup_printf ("%u", ng.port);
  g_autofree gchar *sl_port = g_strdup_printf ("%u", sl.port);
  g_autofree gchar *sl_text = peer_config (version, "@PORT@", "@OUT@");
  if (!sl_test_write_config (env, sl_text, "PORT", sl_port, "OUT", sl.dir, NULL) || !sl_test_daemon_start (env))
    goto out;
  sl.pid = env->pid;
  if (root)
    {
      /* 4.8 writes inside its root: @DIR@ is its folder there */
      g_autofree gchar *ng_text = peer_config (version, ng_port, "@DIR@");
      ng.pid = sl_test_syslog_ng_48_start (env, root, ng_text, NULL, &ng.dir);
    }
  else
    {
      ng.dir = sl_test_path (env, "ng");
      g_mkdir (ng.dir, 0755);
      g_autofree gchar *ng_text = peer_config (version, ng_port, ng.dir);
      g_autofree gchar *ng_config = sl_test_path (env, "syslog-ng.conf");
      if (g_file_set_contents (ng_config, ng_text, -1, NULL))
        ng.pid = sl_test_syslog_ng_start (env, ng_config);
    }
  /* the first four lines come at once; the fifth, the summary of the
   * last run, only once the window is over */
  if (!ng.pid || !sl_test_wait_tcp (env, ng.port) || !send_both (&ng, &sl, first) || !wait_both (env, &ng, &sl, 5))
    goto out;
  /* past the window, counted from the first repeat's second */
  g_usleep ((atoi (WINDOW) + 1) * G_USEC_PER_SEC);
  if (!send_both (&ng, &sl, second) || !wait_both (env, &ng, &sl, 14))
    goto out;

  /* a block of its own: the gotos above must not jump into the scope of
   * what it frees at its end */
  {
    g_autofree gchar *ng_path = g_build_filename (ng.dir, "suppressed.log", NULL);
    g_autofree gchar *sl_path = g_build_filename (sl.dir, "suppressed.log", NULL);
    g_auto (GStrv) ng_lines = sl_test_read_lines (ng_path);
    g_auto (GStrv) sl_lines = sl_test_read_lines (sl_path);
    g_assert_nonnull (ng_lines);
    g_assert_nonnull (sl_lines);
    g_assert_cmpuint (g_strv_length (sl_lines), ==, g_strv_length (ng_lines));
    for (guint i = 0; ng_lines[i]; i++)
      {
        g_autofree gchar *a = normalized (ng_lines[i], ng.pid);
        g_autofree gchar *b = normalized (sl_lines[i], sl.pid);
        g_test_message ("line %u: %s", i + 1, a);
        g_assert_cmpstr (b, ==, a);
      }
    /* what syslog-ng writes for the first run, to the letter */
    g_autofree gchar *fqdn_line = g_strdup (sl_lines[1]);
    g_assert_true (g_regex_match_simple ("^<13> \\S+ h1 app\\[[0-9]+\\]: Last message 'disk is full on /var' "
                                         "repeated 3 times, suppressed by syslog-ng on \\S+$", fqdn_line, 0, 0));
    g_assert_cmpint (sl_test_stat (env, "destination", "d_out", "suppressed"), ==, 6);
  }
out:
  if (root)
    sl_test_syslog_ng_48_stop (ng.pid, g_steal_pointer (&ng.dir));
  else
    sl_test_syslog_ng_stop (env, ng.pid);
  g_free (ng.dir);
  g_free (sl.dir);
}

static void
test_same_lines_as_syslog_ng (SlTestEnv *env, gconstpointer data)
{
  (void) data;
  g_autofree gchar *syslog_ng = sl_test_syslog_ng_path ();
  if (!syslog_ng)
    {
      g_test_skip ("syslog-ng is not installed (quickstart installs Debian's syslog-ng-core)");
      return;
    }
  same_lines (env, NULL);
}

static void
test_same_lines_as_syslog_ng_48 (SlTestEnv *env, gconstpointer data)
{
  (void) data;
  g_autofree gchar *root = sl_test_trixie_root ();
  if (!root)
    {
      g_test_skip ("the Debian 13 root of syslog-ng 4.8 could not be made (tests/peers/trixie-root)");
      return;
    }
  same_lines (env, root);
}

static const gchar rsyslog_config[] =
  "$RepeatedMsgReduction on\n"
  "module(load=\"imtcp\")\n"
  "input(type=\"imtcp\" address=\"127.0.0.1\" port=\"@PORT@\")\n"
  "*.* action(type=\"omfile\" file=\"@DIR@/rsyslogd.log\" template=\"RSYSLOG_TraditionalFileFormat\")\n";

/* As the rsyslog front end may say it: for every destination that takes it. */
static const gchar reduce_config[] =
  "@version: 3.38\n"
  "options { keep-hostname(yes); stats-freq(0); reduce-repeats(yes); };\n"
  "source s_in { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_out { file(\"@DIR@/sluiced.log\"); };\n"
  "log { source(s_in); destination(d_out); };\n";

#define STAMPED(stamp, pid, text) "<13>Dec  6 " stamp " h1 app[" pid "]: " text "\n"

/* Three repeats (their summary stamped as the last), one repeat (written
 * itself), a different PID, and a run still open when both stop. */
static const gchar repeats[] =
  STAMPED ("10:00:00", "42", "disk full") STAMPED ("10:00:01", "42", "disk full")
  STAMPED ("10:00:02", "42", "disk full") STAMPED ("10:00:03", "42", "disk full")
  STAMPED ("10:00:04", "42", "other") STAMPED ("10:00:09", "42", "other") STAMPED ("10:00:10", "43", "other")
  STAMPED ("10:00:11", "42", "x") STAMPED ("10:00:12", "42", "x") STAMPED ("10:00:13", "42", "x");

static void
test_same_file_as_rsyslogd (SlTestEnv *env, gconstpointer data)
{
  (void) data;
  g_autofree gchar *root = sl_test_rsyslog_root_or_skip ();
  if (!root)
    return;
  guint16 rs_port = sl_test_free_port (SOCK_STREAM), sl_port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *rs_port_text = g_strdup_printf ("%u", rs_port);
  g_autofree gchar *sl_port_text = g_strdup_printf ("%u", sl_port);
  g_autofree gchar *rs_config = sl_test_path (env, "rsyslog.conf");
  if (!sl_test_write_config (env, rsyslog_config, "PORT", rs_port_text, NULL) || rename (env->config, rs_config) != 0
      || !sl_test_write_config (env, reduce_config, "PORT", sl_port_text, NULL) || !sl_test_daemon_start (env))
    return;
  g_autofree gchar *rsyslogd = g_build_filename (root, "usr/sbin/rsyslogd", NULL);
  g_autofree gchar *modules = g_build_filename (root, "usr/lib/x86_64-linux-gnu/rsyslog", NULL);
  g_autofree gchar *rs_pid = sl_test_path (env, "rsyslogd.pid");
  g_autofree gchar *rs_err = sl_test_path (env, "rsyslogd.stderr");
  const gchar *argv[] = { rsyslogd, "-M", modules, "-n", "-f", rs_config, "-i", rs_pid, NULL };
  GPid rs = sl_test_spawn_argv (argv, rs_err);
  g_autofree gchar *rs_log = sl_test_path (env, "rsyslogd.log");
  g_autofree gchar *sl_log = sl_test_path (env, "sluiced.log");
  gboolean sent = rs && sl_test_wait_port (rs_port) && sl_test_tcp_send (rs_port, repeats)
                  && sl_test_tcp_send (sl_port, repeats) && sl_test_wait_lines (env, rs_log, 6)
                  && sl_test_wait_lines (env, sl_log, 6);
  if (rs)
    {
      kill (rs, SIGTERM);
      g_assert_cmpint (sl_test_child_wait (rs, SL_TEST_DEADLINE_MS * 1000), ==, 0);
    }
  if (!sent || sl_test_daemon_stop (env, SIGTERM) != 0)
    {
      g_autofree gchar *err = sl_test_read_file (rs_err);
      g_test_message ("rsyslogd stderr:\n%s", err ? err : "");
      g_test_fail ();
      return;
    }
  g_autofree gchar *expected = sl_test_read_file (rs_log);
  g_autofree gchar *got = sl_test_read_file (sl_log);
  g_test_message ("rsyslogd wrote:\n%s", expected);
  g_assert_nonnull (strstr (expected, "Dec  6 10:00:03 h1 app[42]: message repeated 3 times: [ disk full]\n"));
  g_assert_cmpstr (got, ==, expected);
}

/* options { suppress(); } is every LogWriter destination's, as in syslog-ng. */
static void
test_global_suppress (SlTestEnv *env, gconstpointer data)
{
  (void) data;
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_text = g_strdup_printf ("%u", port);
  if (!sl_test_write_config (env,
                             "options { suppress(60); keep-hostname(yes); };\n"
                             "source s { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
                             "destination d { file(\"@DIR@/out\" template(\"$MSG\\n\")); };\n"
                             "log { source(s); destination(d); };\n", "PORT", port_text, NULL)
      || !sl_test_daemon_start (env)
      || !sl_test_tcp_send (port, LINE ("1", "again") LINE ("1", "again") LINE ("1", "again") LINE ("1", "new")))
    return;
  g_autofree gchar *out = sl_test_path (env, "out");
  if (!sl_test_wait_lines (env, out, 3))
    return;
  g_autofree gchar *text = sl_test_read_file (out);
  g_assert_true (g_regex_match_simple ("^again\nLast message 'again' repeated 2 times, suppressed by syslog-ng on "
                                       "\\S+\nnew\n$", text, 0, 0));
}

static void
test_suppress_excludes_reduce_repeats (SlTestEnv *env, gconstpointer data)
{
  (void) data;
  g_autofree gchar *err = sl_test_refused_config (
    env,
    "source s { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
    "destination d { file(\"@DIR@/out\" suppress(5) reduce-repeats(yes)); };\n"
    "log { source(s); destination(d); };\n", "PORT", "1", NULL);
  if (!err)
    return;
  g_assert_nonnull (strstr (err, "reduce-repeats() and suppress() exclude each other"));
}

static void
test_not_on_other_destinations (SlTestEnv *env, gconstpointer data)
{
  (void) data;
  g_autofree gchar *err = sl_test_refused_config (env,
                                                  "source s { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
                                                  "destination d { usertty(\"root\" suppress(5)); };\n"
                                                  "log { source(s); destination(d); };\n", "PORT", "1", NULL);
  if (!err)
    return;
  g_assert_nonnull (strstr (err, "unknown option 'suppress' in usertty()"));
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/suppress/same-lines-as-syslog-ng", test_same_lines_as_syslog_ng);
  SL_TEST_ADD ("/suppress/same-lines-as-syslog-ng-4.8", test_same_lines_as_syslog_ng_48);
  SL_TEST_ADD ("/suppress/reduce-repeats-as-rsyslogd", test_same_file_as_rsyslogd);
  SL_TEST_ADD ("/suppress/global", test_global_suppress);
  SL_TEST_ADD ("/suppress/excludes-reduce-repeats", test_suppress_excludes_reduce_repeats);
  SL_TEST_ADD ("/suppress/not-on-other-destinations", test_not_on_other_destinations);
  return g_test_run ();
}
