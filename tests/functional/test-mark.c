/* SPDX-License-Identifier: GPL-2.0-or-later */
/* MARK messages beside their peers: syslog-ng 3.38 (and 4.8 under
 * @version: 4.8) and sluiced on one
 * configuration with mark-freq(1), internal()'s MARKs and those each
 * mark-mode() makes compared line by line; rsyslogd 8.2302's immark and
 * the mark() source it maps onto, compared in the line rsyslogd writes. */
#include "harness.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>

#define MARK "-- MARK --"

/* A stamp as RFC 3164 writes it: "Dec  6 02:49:37". */
static gboolean
is_bsd_stamp (const gchar *s)
{
  static const gchar shape[] = "Aaa dd dd:dd:dd";
  for (guint i = 0; i < sizeof shape - 1; i++)
    {
      gchar c = s[i], want = shape[i];
      gboolean fits = want == 'A' ? g_ascii_isupper (c)
                      : want == 'a' ? g_ascii_islower (c)
                      : want == 'd' ? g_ascii_isdigit (c) || (i == 4 && c == ' ')
                      : c == want;
      if (!fits)
        return FALSE;
    }
  return TRUE;
}

/* The MARK lines of path, at most max, each with its stamp checked and
 * cut off when it starts with one, joined by newlines. */
static gchar *
mark_lines (const gchar *path, guint max)
{
  g_auto (GStrv) lines = sl_test_read_lines (path);
  GString *out = g_string_new (NULL);
  guint n = 0;
  for (guint i = 0; lines && lines[i] && n < max; i++)
    {
      if (!strstr (lines[i], MARK))
        continue;
      const gchar *line = lines[i];
      if (strlen (line) > 15 && g_ascii_isupper (line[0]))
        {
          g_assert_true (is_bsd_stamp (line));
          line += 15;
        }
      g_string_append_printf (out, "%s\n", line);
      n++;
    }
  return g_string_free (out, FALSE);
}

static guint
count_marks (const gchar *path)
{
  g_auto (GStrv) lines = sl_test_read_lines (path);
  guint n = 0;
  for (guint i = 0; lines && lines[i]; i++)
    n += strstr (lines[i], MARK) != NULL;
  return n;
}

static gboolean
wait_marks (const gchar *path, guint n)
{
  gint64 end = g_get_monotonic_time () + SL_TEST_DEADLINE_MS * 1000;
  while (count_marks (path) < n)
    {
      if (g_get_monotonic_time () > end)
        {
          g_test_message ("%s: %u MARK lines, waited for %u", path, count_marks (path), n);
          return FALSE;
        }
      g_usleep (50000);
    }
  return TRUE;
}

/* internal()'s MARKs reach the destination of mark-mode(internal) only;
 * periodical, dst-idle and host-idle (after the message from the network)
 * make their own, and so does global, options { mark-mode() }'s default
 * host-idle; file()'s default, none, writes none. */
static const gchar side_config[] =
  "@version: 3.38\n"
  "options { mark-freq(1); };\n"
  "template t_fields { template(\"$FACILITY.$LEVEL $PRI host=$HOST program=$PROGRAM pid=$PID [$MSGHDR] $MSG\\n\"); };\n"
  "source s_int { internal(); };\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_int { file(\"@OUT@/internal.log\" mark-mode(internal)); };\n"
  "destination d_fields { file(\"@OUT@/fields.log\" mark-mode(internal) template(t_fields)); };\n"
  "destination d_per { file(\"@OUT@/periodical.log\" mark-mode(periodical)); };\n"
  "destination d_dst { file(\"@OUT@/dst-idle.log\" mark-mode(dst-idle)); };\n"
  "destination d_host { file(\"@OUT@/host-idle.log\" mark-mode(host-idle) template(t_fields)); };\n"
  "destination d_none { file(\"@OUT@/default.log\"); };\n"
  "destination d_global { file(\"@OUT@/global.log\" mark-mode(global)); };\n"
  "destination d_net { file(\"@OUT@/net.log\"); };\n"
  "log { source(s_int); destination(d_int); destination(d_fields); destination(d_per); destination(d_dst);\n"
  "      destination(d_none); };\n"
  "log { source(s_net); destination(d_host); destination(d_global); destination(d_net); };\n";

static const gchar *const marked[] = {
  "internal.log", "fields.log", "periodical.log", "dst-idle.log", "host-idle.log", "global.log",
};

static const gchar from_afar[] = "<13>Dec  6 02:00:00 remotehost app: from afar\n";
static const gchar *const net_output[] = { "net.log", NULL };

/* The MARKs of the marked files alike, none in default.log */
static void
assert_same_marks (const gchar *sl_out, const gchar *ng_out)
{
  for (guint i = 0; i < G_N_ELEMENTS (marked); i++)
    {
      g_autofree gchar *ng_path = g_build_filename (ng_out, marked[i], NULL);
      g_autofree gchar *sl_path = g_build_filename (sl_out, marked[i], NULL);
      g_assert_true (wait_marks (ng_path, 2));
      g_assert_true (wait_marks (sl_path, 2));
      g_autofree gchar *expected = mark_lines (ng_path, 2);
      g_autofree gchar *got = mark_lines (sl_path, 2);
      g_test_message ("%s:\n%s", marked[i], expected);
      g_assert_cmpstr (got, ==, expected);
    }
  g_autofree gchar *ng_none = g_build_filename (ng_out, "default.log", NULL);
  g_autofree gchar *sl_none = g_build_filename (sl_out, "default.log", NULL);
  g_assert_cmpuint (count_marks (ng_none), ==, 0);
  g_assert_cmpuint (count_marks (sl_none), ==, 0);
}

static void
test_beside_syslog_ng (SlTestEnv *env, gconstpointer data)
{
  (void) data;
  g_autofree gchar *sl_out = NULL, *ng_out = NULL;
  GPid ng = 0;
  if (!sl_test_side_by_side (env, side_config, from_afar, net_output, 1, &sl_out, &ng_out, &ng))
    return;
  assert_same_marks (sl_out, ng_out);
  sl_test_syslog_ng_stop (env, ng);
}

/* The same under @version: 4.8 beside syslog-ng 4.8 (Debian 13's) */
static void
test_beside_syslog_ng_48 (SlTestEnv *env, gconstpointer data)
{
  (void) data;
  g_autofree gchar *root = sl_test_trixie_root ();
  if (!root)
    {
      g_test_skip ("the Debian 13 root of syslog-ng 4.8 could not be made (tests/peers/trixie-root)");
      return;
    }
  GString *config = g_string_new (side_config);
  g_string_replace (config, "@version: 3.38\n", "@version: 4.8\n", 1);
  g_autofree gchar *sl_out = NULL;
  gchar *ng_out = NULL;
  GPid ng = 0;
  if (sl_test_side_by_side_48 (env, root, config->str, from_afar, net_output, 1, &sl_out, &ng_out, &ng))
    {
      assert_same_marks (sl_out, ng_out);
      sl_test_syslog_ng_48_stop (ng, ng_out);
    }
  g_string_free (config, TRUE);
}

/* What is refused, where. */
static void
test_refused (SlTestEnv *env, gconstpointer data)
{
  (void) data;
  g_autofree gchar *global = sl_test_refused_config (env, "options { mark-mode(global); };\n", NULL);
  g_assert_nonnull (strstr (global, "sluice.conf:1:"));
  g_assert_nonnull (strstr (global, "global"));
  g_autofree gchar *unknown = sl_test_refused_config (
    env, "destination d { file(\"/dev/null\" mark-mode(sometimes)); };\nlog { destination(d); };\n", NULL);
  g_assert_nonnull (strstr (unknown, "sluice.conf:1:"));
  /* as in syslog-ng, destinations without a log writer have no mark-mode() */
  g_autofree gchar *tty = sl_test_refused_config (
    env, "destination d { usertty(\"root\" mark-mode(periodical)); };\nlog { destination(d); };\n", NULL);
  g_assert_nonnull (strstr (tty, "sluice.conf:1:"));
  g_assert_nonnull (strstr (tty, "mark-mode"));
}

/* immark's message goes through syslog(3) to /dev/log unless rsyslogd
 * processes its own messages; the test has no /dev/log of its own, so it
 * asks for the latter, which writes the same line. mark.* matches nothing:
 * the "mark" facility is one past every message's. */
static const gchar rs_config[] =
  "global(workDirectory=\"@DIR@\" processInternalMessages=\"on\")\n"
  "module(load=\"immark\" interval=\"1\")\n"
  "$ActionFileDefaultTemplate RSYSLOG_TraditionalFileFormat\n"
  "*.* @DIR@/all.log\n"
  "mark.* @DIR@/mark.log\n";

/* What the rsyslog front end makes of it: see doc/rsyslog.md. */
static const gchar sl_config[] =
  "template t_trad { template(\"$(substr ${S_DATE} 0 15) ${HOST} $(rsyslog-tag ${MSGHDR}${MESSAGE})"
  "$(rsyslog-msg-space ${MSGHDR}${MESSAGE})$(rsyslog-msg ${MSGHDR}${MESSAGE})\\n\"); };\n"
  "source s_mark { mark(freq(1) program(\"rsyslogd\")); };\n"
  "destination d_all { file(\"@DIR@/all.log\" template(t_trad)); };\n"
  "log { source(s_mark); destination(d_all); };\n";

static gchar *
fill (const gchar *text, const gchar *dir)
{
  g_auto (GStrv) parts = g_strsplit (text, "@DIR@", -1);
  return g_strjoinv (dir, parts);
}

static void
test_beside_rsyslogd (SlTestEnv *env, gconstpointer data)
{
  (void) data;
  g_autofree gchar *root = sl_test_rsyslog_root_or_skip ();
  if (!root)
    return;
  g_autofree gchar *rs_dir = sl_test_path (env, "rsyslogd");
  g_autofree gchar *sl_dir = sl_test_path (env, "sluiced");
  g_assert_cmpint (g_mkdir (rs_dir, 0755), ==, 0);
  g_assert_cmpint (g_mkdir (sl_dir, 0755), ==, 0);
  g_autofree gchar *rs_conf = g_build_filename (rs_dir, "rsyslog.conf", NULL);
  g_autofree gchar *rs_text = fill (rs_config, rs_dir);
  g_autofree gchar *sl_text = fill (sl_config, sl_dir);
  g_assert_true (g_file_set_contents (rs_conf, rs_text, -1, NULL));
  g_assert_true (g_file_set_contents (env->config, sl_text, -1, NULL));

  GPid rs = sl_test_rsyslogd_start (root, rs_conf, rs_dir);
  g_assert_cmpint (rs, >, 0);

  g_autofree gchar *rs_all = g_build_filename (rs_dir, "all.log", NULL);
  g_autofree gchar *sl_all = g_build_filename (sl_dir, "all.log", NULL);
  g_autofree gchar *rs_mark = g_build_filename (rs_dir, "mark.log", NULL);
  gboolean ok = sl_test_daemon_start (env) && wait_marks (rs_all, 2) && wait_marks (sl_all, 2);
  kill (rs, SIGTERM);
  sl_test_child_wait (rs, 10 * G_USEC_PER_SEC);
  g_assert_true (ok);
  g_autofree gchar *expected = mark_lines (rs_all, 2);
  g_autofree gchar *got = mark_lines (sl_all, 2);
  g_test_message ("rsyslogd:\n%s", expected);
  g_assert_cmpstr (got, ==, expected);
  g_assert_false (g_file_test (rs_mark, G_FILE_TEST_EXISTS) && count_marks (rs_mark));
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/mark/beside-syslog-ng", test_beside_syslog_ng);
  SL_TEST_ADD ("/mark/beside-syslog-ng-4.8", test_beside_syslog_ng_48);
  SL_TEST_ADD ("/mark/refused", test_refused);
  SL_TEST_ADD ("/mark/beside-rsyslogd", test_beside_rsyslogd);
  return g_test_run ();
}
