/* SPDX-License-Identifier: GPL-2.0-or-later */
/* systemd-journal() on the real daemon, reading journal files that
 * systemd-journal-remote writes from export-format entries the test makes
 * (never the host's journal): the fields and macros, the options, and a
 * restart in the middle that neither loses nor repeats an entry. */
#include "tests/functional/harness.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

#define STAMP_BASE 1700000000

static gchar *
journal_remote (void)
{
  static const gchar *const places[] = {
    "/lib/systemd/systemd-journal-remote", "/usr/lib/systemd/systemd-journal-remote", NULL
  };
  for (guint i = 0; places[i]; i++)
    if (g_file_test (places[i], G_FILE_TEST_IS_EXECUTABLE))
      return g_strdup (places[i]);
  g_test_skip ("systemd-journal-remote (Debian's systemd-journal-remote package) is not installed");
  return NULL;
}

/* Appends the export-format entries to DIR/journal/x.journal, as
 * systemd-journal-remote writes what it receives. */
static gboolean
write_journal (SlTestEnv *env, const gchar *tool, const gchar *entries, gssize len)
{
  g_autofree gchar *dir = sl_test_path (env, "journal");
  g_autofree gchar *input = sl_test_path (env, "entries.export");
  g_autofree gchar *output = g_strdup_printf ("--output=%s/x.journal", dir);
  g_mkdir_with_parents (dir, 0700);
  g_assert_true (g_file_set_contents (input, entries, len, NULL));
  const gchar *argv[] = { "sh", "-c", "exec \"$0\" \"$1\" - < \"$2\"", tool, output, input, NULL };
  g_autofree gchar *err = NULL;
  gint status = sl_test_run_argv (argv, NULL, &err);
  if (status != 0)
    g_test_fail_printf ("systemd-journal-remote failed (%d): %s", status, err);
  return status == 0;
}

/* Entries first..last (numbered from 1) of one program, a second apart. */
static gchar *
numbered_entries (guint first, guint last)
{
  GString *text = g_string_new (NULL);
  for (guint i = first; i <= last; i++)
    g_string_append_printf (text,
                            "__REALTIME_TIMESTAMP=%" G_GINT64_FORMAT "\n__MONOTONIC_TIMESTAMP=%u\n"
                            "_BOOT_ID=0123456789abcdef0123456789abcdef\n_HOSTNAME=box\n"
                            "SYSLOG_IDENTIFIER=app\n_PID=42\nMESSAGE=entry %u\n\n",
                            (gint64) (STAMP_BASE + i) * G_USEC_PER_SEC, i * 1000, i);
  return g_string_free (text, FALSE);
}

static const gchar fields_config[] =
  "@version: 4.0\n"
  "source s_journal { systemd-journal(journal-dir(\"@DIR@/journal\")); };\n"
  "destination d_out { file(\"@DIR@/out.log\" template(\"${PROGRAM}|${PID}|${HOST}|${FACILITY}.${LEVEL}|${UNIXTIME}"
  "|${.journald._PID}|${.journald.SYSLOG_IDENTIFIER}|${.journald._COMM}|${MESSAGE}\\n\")); };\n"
  "log { source(s_journal); destination(d_out); };\n";

/* The fields as syslog-ng names them; PROGRAM from SYSLOG_IDENTIFIER, else
 * _COMM; local0.notice when the entry says nothing else; a value with a
 * newline (the export format's binary form) kept whole. */
static void
test_fields (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *tool = journal_remote ();
  if (!tool)
    return;
  static const gchar entries[] =
    "__REALTIME_TIMESTAMP=1700000000000000\n__MONOTONIC_TIMESTAMP=1000\n"
    "_BOOT_ID=0123456789abcdef0123456789abcdef\n"
    "MESSAGE=hello one\nSYSLOG_IDENTIFIER=app\n_COMM=app-bin\n_PID=42\n_HOSTNAME=box\nPRIORITY=4\nSYSLOG_FACILITY=3\n\n"
    "__REALTIME_TIMESTAMP=1700000001000000\n__MONOTONIC_TIMESTAMP=2000\n"
    "_BOOT_ID=0123456789abcdef0123456789abcdef\n"
    "MESSAGE\n\x09\0\0\0\0\0\0\0two\nlines\n_COMM=daemonx\n_HOSTNAME=box\n\n";
  g_autofree gchar *out = sl_test_path (env, "out.log");
  if (!write_journal (env, tool, entries, sizeof entries - 1) || !sl_test_write_config (env, fields_config, NULL) || !sl_test_daemon_start (env)
      || !sl_test_wait_lines (env, out, 3))
    return;
  g_autofree gchar *got = sl_test_read_file (out);
  g_assert_cmpstr (got, ==,
                   "app|42|box|daemon.warning|1700000000|42|app|app-bin|hello one\n"
                   "daemonx||box|local0.notice|1700000001|||daemonx|two\nlines\n");
}

static const gchar options_config[] =
  "@version: 4.0\n"
  "source s_journal { systemd-journal(journal-dir(\"@DIR@/journal\") prefix(\"j.\") max-field-size(5)\n"
  "                   default-facility(mail) host-override(\"fixed\")); };\n"
  "destination d_out { file(\"@DIR@/out.log\" template(\"${HOST} ${FACILITY} ${j.SYSLOG_IDENTIFIER} ${.journald.MESSAGE}|${MESSAGE}\\n\")); };\n"
  "log { source(s_journal); destination(d_out); };\n";

/* prefix(), max-field-size(), and the common source options. */
static void
test_options (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *tool = journal_remote ();
  if (!tool)
    return;
  g_autofree gchar *entries = numbered_entries (1, 1);
  g_autofree gchar *out = sl_test_path (env, "out.log");
  if (!write_journal (env, tool, entries, -1) || !sl_test_write_config (env, options_config, NULL)
      || !sl_test_daemon_start (env) || !sl_test_wait_lines (env, out, 1))
    return;
  g_autofree gchar *got = sl_test_read_file (out);
  g_assert_cmpstr (got, ==, "fixed mail app |entry\n");
}

static const gchar restart_config[] =
  "@version: 4.0\n"
  "source s_journal { systemd-journal(journal-dir(\"@DIR@/journal\")); };\n"
  "destination d_out { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_journal); destination(d_out); };\n";

static gboolean
check_entries (SlTestEnv *env, const gchar *out, guint last)
{
  if (!sl_test_wait_lines (env, out, last))
    return FALSE;
  g_auto (GStrv) lines = sl_test_read_lines (out);
  g_assert_cmpuint (g_strv_length (lines), ==, last);
  for (guint i = 0; i < last; i++)
    {
      g_autofree gchar *expected = g_strdup_printf ("entry %u", i + 1);
      g_assert_cmpstr (lines[i], ==, expected);
    }
  return TRUE;
}

/* Entries appended while the daemon runs are read as they come; entries
 * appended while it is stopped are read after the restart, from the
 * cursor kept in the persist file: every entry once. */
static void
test_restart (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *tool = journal_remote ();
  if (!tool)
    return;
  g_autofree gchar *out = sl_test_path (env, "out.log");
  g_autofree gchar *first = numbered_entries (1, 3);
  if (!write_journal (env, tool, first, -1) || !sl_test_write_config (env, restart_config, NULL)
      || !sl_test_daemon_start (env) || !check_entries (env, out, 3))
    return;
  g_autofree gchar *while_running = numbered_entries (4, 5);
  if (!write_journal (env, tool, while_running, -1) || !check_entries (env, out, 5))
    return;
  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
  g_autofree gchar *key = g_strdup_printf ("systemd-journal(dir=%s/journal)", env->dir);
  g_autofree gchar *saved = sl_test_persist_value (env->persist, key);
  g_assert_nonnull (saved);

  g_autofree gchar *while_stopped = numbered_entries (6, 8);
  if (!write_journal (env, tool, while_stopped, -1) || !sl_test_daemon_start (env) || !check_entries (env, out, 8))
    return;
  g_autofree gchar *after = numbered_entries (9, 9);
  if (!write_journal (env, tool, after, -1) || !check_entries (env, out, 9))
    return;
  g_assert_cmpint (sl_test_stat (env, "source", "s_journal", "received"), ==, 4);
}

#define KILL_ENTRIES 30000
/* the journal reader saves its cursor after each batch of at most the
 * smallest window (100) */
#define KILL_WINDOW 100

static const gchar kill_config[] =
  "@version: 4.0\n"
  "source s_journal { systemd-journal(journal-dir(\"@DIR@/journal\")); };\n"
  "destination d_out { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_journal); destination(d_out); flags(flow-control); };\n";

/* How many times each entry is in out; entries are numbered from 1. */
static guint *
count_entries (const gchar *out)
{
  guint *seen = g_new0 (guint, KILL_ENTRIES + 1);
  g_auto (GStrv) lines = sl_test_read_lines (out);
  for (guint i = 0; lines && lines[i]; i++)
    {
      guint n = 0;
      if (sscanf (lines[i], "entry %u", &n) == 1 && n >= 1 && n <= KILL_ENTRIES)
        seen[n]++;
    }
  return seen;
}

/* kill -9 at three moments of a run (right after the start, about a
 * third and two thirds in): the cursor saved at each delivered batch
 * survives, so no entry is lost and at most a window is read again per
 * kill. */
static void
test_kill (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *tool = journal_remote ();
  if (!tool)
    return;
  g_autofree gchar *entries = numbered_entries (1, KILL_ENTRIES);
  g_autofree gchar *out = sl_test_path (env, "out.log");
  if (!write_journal (env, tool, entries, -1) || !sl_test_write_config (env, kill_config, NULL))
    return;
  static const guint kill_after[] = { 0, KILL_ENTRIES / 3, 2 * KILL_ENTRIES / 3 };
  for (guint k = 0; k < G_N_ELEMENTS (kill_after); k++)
    {
      if (!sl_test_daemon_start (env))
        return;
      if (kill_after[k] == 0)
        g_usleep (20 * 1000);
      else if (!sl_test_wait_lines (env, out, kill_after[k]))
        return;
      sl_test_daemon_stop (env, SIGKILL);
    }
  /* entries are read in order: the last one comes last */
  g_autofree gchar *last = g_strdup_printf ("entry %u\n", KILL_ENTRIES);
  if (!sl_test_daemon_start (env) || !sl_test_wait_contains (env, out, last))
    return;
  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
  g_autofree guint *seen = count_entries (out);
  guint lost = 0;
  guint repeated = 0;
  for (guint n = 1; n <= KILL_ENTRIES; n++)
    {
      lost += seen[n] == 0;
      repeated += seen[n] > 1 ? seen[n] - 1 : 0;
    }
  g_test_message ("%u entries, 3 kills: %u lost, %u read twice", KILL_ENTRIES, lost, repeated);
  g_assert_cmpuint (lost, ==, 0);
  g_assert_cmpuint (repeated, <=, G_N_ELEMENTS (kill_after) * KILL_WINDOW);
}

static const gchar new_only_config[] =
  "@version: 4.0\n"
  "source s_journal { systemd-journal(journal-dir(\"@DIR@/journal\") read-old-records(no)); };\n"
  "destination d_out { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_journal); destination(d_out); };\n";

/* read-old-records(no): what the journal held before the first start is
 * skipped. */
static void
test_new_only (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *tool = journal_remote ();
  if (!tool)
    return;
  g_autofree gchar *out = sl_test_path (env, "out.log");
  g_autofree gchar *old = numbered_entries (1, 2);
  g_autofree gchar *fresh = numbered_entries (3, 3);
  if (!write_journal (env, tool, old, -1) || !sl_test_write_config (env, new_only_config, NULL)
      || !sl_test_daemon_start (env) || !sl_test_wait_stderr (env, "starting up")
      || !write_journal (env, tool, fresh, -1) || !sl_test_wait_lines (env, out, 1))
    return;
  g_autofree gchar *got = sl_test_read_file (out);
  g_assert_cmpstr (got, ==, "entry 3\n");
}

static const gchar both_config[] =
  "@version: 4.0\n"
  "source s_journal { systemd-journal(journal-dir(\"/tmp\") namespace(\"x\")); };\n"
  "destination d_out { file(\"@DIR@/out.log\"); };\n"
  "log { source(s_journal); destination(d_out); };\n";

static void
test_dir_and_namespace (SlTestEnv *env, gconstpointer data)
{
  if (!sl_test_write_config (env, both_config, NULL))
    return;
  g_autofree gchar *err = NULL;
  gint status = sl_test_run_built ("daemon/sluiced", NULL, &err, "-s", "-f", env->config, "--module-path",
                                   sl_test_module_path (), NULL);
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (err, "reads either a journal-dir() or a namespace(), not both"));
}

static const gchar limit_config[] =
  "@version: 4.0\n"
  "source s_journal { systemd-journal(journal-dir(\"@DIR@/journal\") rate-limit-interval(600)\n"
  "                   rate-limit-burst(5)); };\n"
  "destination d_out { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_journal); destination(d_out); };\n";

/* rate-limit-*(), rsyslog's imjournal Ratelimit.*: one window for every
 * entry, whatever its process; the entries past the burst are dropped and
 * counted, and the position goes past them */
static void
test_rate_limit (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *tool = journal_remote ();
  if (!tool)
    return;
  g_autofree gchar *entries = numbered_entries (1, 12);
  g_autofree gchar *out = sl_test_path (env, "out.log");
  if (!write_journal (env, tool, entries, -1) || !sl_test_write_config (env, limit_config, NULL)
      || !sl_test_daemon_start (env) || !check_entries (env, out, 5))
    return;
  g_assert_true (sl_test_wait_stat (env, "source", "s_journal", "rate_limited", 7));
  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
  /* a restart reads on after the dropped entries: a new window */
  g_autofree gchar *more = numbered_entries (13, 14);
  if (!write_journal (env, tool, more, -1) || !sl_test_daemon_start (env))
    return;
  g_assert_true (sl_test_wait_lines (env, out, 7));
  g_auto (GStrv) lines = sl_test_read_lines (out);
  g_assert_cmpuint (g_strv_length (lines), ==, 7);
  g_assert_cmpstr (lines[5], ==, "entry 13");
  g_assert_cmpstr (lines[6], ==, "entry 14");
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/journal/fields", test_fields);
  SL_TEST_ADD ("/journal/options", test_options);
  SL_TEST_ADD ("/journal/restart", test_restart);
  SL_TEST_ADD ("/journal/kill", test_kill);
  SL_TEST_ADD ("/journal/read-old-records-no", test_new_only);
  SL_TEST_ADD ("/journal/dir-and-namespace", test_dir_and_namespace);
  SL_TEST_ADD ("/journal/rate-limit", test_rate_limit);
  return g_test_run ();
}
