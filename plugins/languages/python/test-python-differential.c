/* SPDX-License-Identifier: GPL-2.0-or-later */
/* syslog-ng 3.38 (with Debian's syslog-ng-mod-python) and sluiced run the
 * same configuration (tests/differential.conf) and the same unchanged
 * plugin file (tests/sngtest.py) side by side: a fetcher's numbered
 * messages through a parser into destinations that write what they get,
 * syslog lines a fetcher parses with LogMessage.parse(),
 * batch with flush(), raise, answer ERROR for a while, block, and into
 * $(python) template functions; and a python() source that keeps its
 * place in a Persist through an ack tracker, across a restart of both.
 * What the two write must be equal. */
#include "tests/functional/harness.h"
#include <signal.h>
#include <stdio.h>
#include <string.h>

#define MESSAGES 30

static const struct
{
  const gchar *name;
  guint lines;
} outputs[] = {
  { "write", MESSAGES }, { "batches", MESSAGES }, { "raises", MESSAGES }, { "fails", MESSAGES },
  { "slow", MESSAGES }, { "functions", MESSAGES }, { "fields", 3 },
};

static gchar *
source_path (const gchar *relative)
{
  return g_build_filename (g_getenv ("SL_TOP_SRCDIR"), "plugins/languages/python", relative, NULL);
}

static gboolean
peer_installed (void)
{
  return g_file_test ("/usr/sbin/syslog-ng", G_FILE_TEST_IS_EXECUTABLE)
         && g_file_test ("/usr/lib/syslog-ng/3.38/python/syslogng/__init__.py", G_FILE_TEST_EXISTS);
}

static GPid
start_syslog_ng (SlTestEnv *env, const gchar *config)
{
  g_autofree gchar *persist = sl_test_path (env, "syslog-ng.persist");
  g_autofree gchar *pidfile = sl_test_path (env, "syslog-ng.pid");
  g_autofree gchar *control = sl_test_path (env, "syslog-ng.ctl");
  g_autofree gchar *err = sl_test_path (env, "syslog-ng.stderr");
  const gchar *argv[] = {
    "/usr/sbin/syslog-ng", "-F", "--no-caps", "-f", config, "--persist-file", persist,
    "--pidfile", pidfile, "--control", control, NULL
  };
  return sl_test_spawn_argv (argv, err);
}

static void
stop_syslog_ng (SlTestEnv *env, GPid pid)
{
  if (!pid)
    return;
  kill (pid, SIGTERM);
  if (sl_test_child_wait (pid, SL_TEST_DEADLINE_MS * 1000) != 0 || g_test_failed ())
    {
      g_autofree gchar *path = sl_test_path (env, "syslog-ng.stderr");
      g_autofree gchar *err = sl_test_read_file (path);
      g_test_message ("syslog-ng stderr:\n%s", err ? err : "");
    }
}

static gchar *
output_path (SlTestEnv *env, const gchar *daemon, const gchar *name)
{
  g_autofree gchar *file = g_strdup_printf ("%s-%s.txt", daemon, name);
  return sl_test_path (env, file);
}

static guint
count_in (const gchar *haystack, const gchar *needle)
{
  guint n = 0;
  for (const gchar *p = haystack; p && (p = strstr (p, needle)); p += strlen (needle))
    n++;
  return n;
}

static void
test_side_by_side (SlTestEnv *env, gconstpointer data)
{
  if (!peer_installed ())
    {
      g_test_skip ("syslog-ng with syslog-ng-mod-python is not installed (quickstart check_packages)");
      return;
    }
  g_autofree gchar *conf_path = source_path ("tests/differential.conf");
  g_autofree gchar *conf = sl_test_read_file (conf_path);
  g_autofree gchar *ng_prefix = sl_test_path (env, "syslog-ng-");
  g_autofree gchar *sl_prefix = sl_test_path (env, "sluiced-");
  g_autofree gchar *ng_config = sl_test_path (env, "syslog-ng.conf");
  GPid ng = 0;

  if (conf && sl_test_write_config (env, conf, "OUT", ng_prefix, NULL) && rename (env->config, ng_config) == 0
      && sl_test_write_config (env, conf, "OUT", sl_prefix, NULL) && sl_test_daemon_start (env)
      && (ng = start_syslog_ng (env, ng_config)))
    {
      for (guint i = 0; i < G_N_ELEMENTS (outputs); i++)
        {
          g_autofree gchar *ng_out = output_path (env, "syslog-ng", outputs[i].name);
          g_autofree gchar *sl_out = output_path (env, "sluiced", outputs[i].name);
          if (!sl_test_wait_lines (env, ng_out, outputs[i].lines) || !sl_test_wait_lines (env, sl_out, outputs[i].lines))
            break;
          g_autofree gchar *ng_text = sl_test_read_file (ng_out);
          g_autofree gchar *sl_text = sl_test_read_file (sl_out);
          g_assert_cmpstr (sl_text, ==, ng_text);
        }
      /* Raises raised three times; its traceback is logged once */
      g_autofree gchar *err = sl_test_daemon_stderr (env);
      g_assert_cmpuint (count_in (err, "Traceback (most recent call last)"), ==, 1);
      g_assert_nonnull (strstr (err, "RuntimeError: refusing 10 once"));
      g_assert_cmpint (sl_test_stat (env, "destination", "d_raises", "written"), ==, MESSAGES);
      g_assert_cmpint (sl_test_stat (env, "destination", "d_fails", "dropped"), ==, 0);
      g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
    }
  stop_syslog_ng (env, ng);
}

/* Waits for the persist file to hold the bookmark value "l<next>" of a
 * "...##next" entry: bytes in the file, as a restart finds them. */
static gboolean
wait_bookmark (SlTestEnv *env, guint next)
{
  g_autofree gchar *value = g_strdup_printf ("l%u", next);
  gint64 deadline = g_get_monotonic_time () + SL_TEST_DEADLINE_MS * 1000;
  while (g_get_monotonic_time () < deadline)
    {
      g_autofree gchar *data = NULL;
      gsize len = 0;
      if (g_file_get_contents (env->persist, &data, &len, NULL) && memmem (data, len, "##next", 6)
          && memmem (data, len, value, strlen (value) + 1))
        return TRUE;
      g_usleep (20 * 1000);
    }
  g_test_fail_printf ("the persist file never held the bookmark %s", value);
  return FALSE;
}

static gboolean
run_both (SlTestEnv *env, const gchar *ng_config, const gchar *ng_out, const gchar *sl_out, guint lines)
{
  GPid ng = 0;
  gboolean ok = sl_test_daemon_start (env) && (ng = start_syslog_ng (env, ng_config))
                && sl_test_wait_lines (env, ng_out, lines) && sl_test_wait_lines (env, sl_out, lines)
                /* the bookmark of the last delivered message is saved */
                && wait_bookmark (env, lines + 1);
  stop_syslog_ng (env, ng);
  return sl_test_daemon_stop (env, SIGTERM) == 0 && ok;
}

static void
test_persist_restart (SlTestEnv *env, gconstpointer data)
{
  if (!peer_installed ())
    {
      g_test_skip ("syslog-ng with syslog-ng-mod-python is not installed (quickstart check_packages)");
      return;
    }
  g_autofree gchar *conf_path = source_path ("tests/persist.conf");
  g_autofree gchar *conf = sl_test_read_file (conf_path);
  g_autofree gchar *ng_prefix = sl_test_path (env, "syslog-ng-");
  g_autofree gchar *sl_prefix = sl_test_path (env, "sluiced-");
  g_autofree gchar *ng_config = sl_test_path (env, "syslog-ng.conf");
  g_autofree gchar *ng_out = output_path (env, "syslog-ng", "counted");
  g_autofree gchar *sl_out = output_path (env, "sluiced", "counted");

  if (!conf || !sl_test_write_config (env, conf, "OUT", ng_prefix, NULL) || rename (env->config, ng_config) != 0
      || !sl_test_write_config (env, conf, "OUT", sl_prefix, NULL))
    return;
  /* each run posts five messages from where the last delivered one was */
  if (!run_both (env, ng_config, ng_out, sl_out, 5) || !run_both (env, ng_config, ng_out, sl_out, 10))
    return;
  g_autofree gchar *ng_text = sl_test_read_file (ng_out);
  g_autofree gchar *sl_text = sl_test_read_file (sl_out);
  g_assert_cmpstr (sl_text, ==, ng_text);
  g_assert_cmpuint (sl_test_count_lines (sl_out), ==, 10);
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  /* both daemons' local time is UTC, and both find the plugin file */
  g_setenv ("TZ", "UTC", TRUE);
  g_autofree gchar *tests = source_path ("tests");
  g_autofree gchar *pylib = source_path ("pylib");
  g_setenv ("PYTHONPATH", tests, TRUE);
  g_setenv ("SLUICE_PYTHON_DIR", pylib, TRUE);
  sl_test_python_leaks_suppressed ();
  SL_TEST_ADD ("/python/side-by-side", test_side_by_side);
  SL_TEST_ADD ("/python/persist-restart", test_persist_restart);
  return g_test_run ();
}
