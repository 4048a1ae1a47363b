/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Positions across kill -9: a file() or wildcard-file() source reads a
 * file of numbered lines into a file() destination under flow control;
 * sluiced is killed with SIGKILL at one moment of the run (within its
 * first 100 ms, half way, near the end) and started again on the same
 * persist file. Every line arrives, and at most the source's window
 * (log-iw-size(), 100 by default) arrives twice.
 *
 * A run without a kill reads every line exactly once; with
 * SL_FILE_CRASH_FULL=1 it prints its rate and the daemon's CPU time per
 * line, what saving a position every window costs.
 *
 * 200,000 lines in `make check`; SL_FILE_CRASH_FULL=1 (bench/file-crash)
 * reads 1,000,000 and prints the figures. */
#include "tests/functional/harness.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* the digits of the number, a space, padding, the newline */
#define LINE_SIZE 150
#define NUMBER_DIGITS 7
#define WINDOW 100
/* how long the output may stay the same before the run is stuck */
#define STUCK_USEC (SL_TEST_DEADLINE_MS * 1000)

static guint total_lines;
static gboolean full;

static const gchar config[] =
  "@version: 4.0\n"
  "source s_in { @SOURCE@ };\n"
  "destination d_out { file(\"@DIR@/out.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_in); destination(d_out); flags(flow-control); };\n";


typedef enum
{
  KILL_EARLY,     /* 50 ms after the daemon answers */
  KILL_MIDDLE,
  KILL_LATE,
} KillMoment;

typedef struct
{
  gboolean wildcard;
  KillMoment moment;
} Case;

static gboolean
write_input (SlTestEnv *env)
{
  g_autofree gchar *dir = sl_test_path (env, "in");
  g_autofree gchar *path = sl_test_path (env, "in/in.log");
  if (g_mkdir (dir, 0755) != 0)
    return FALSE;
  FILE *f = fopen (path, "w");
  if (!f)
    return FALSE;
  gchar line[LINE_SIZE + 1];
  memset (line, 'x', LINE_SIZE);
  line[LINE_SIZE - 1] = '\n';
  line[LINE_SIZE] = '\0';
  for (guint i = 1; i <= total_lines; i++)
    {
      gchar number[NUMBER_DIGITS + 2];
      g_snprintf (number, sizeof number, "%0*u ", NUMBER_DIGITS, i);
      memcpy (line, number, NUMBER_DIGITS + 1);
      fputs (line, f);
    }
  return fclose (f) == 0;
}

static gboolean
prepare (SlTestEnv *env, const Case *c)
{
  g_autofree gchar *source =
    c->wildcard ? g_strdup_printf ("wildcard-file(base-dir(\"%s/in\") filename-pattern(\"*.log\") follow-freq(0.1) "
                                   "flags(no-parse));", env->dir)
                : g_strdup_printf ("file(\"%s/in/in.log\" follow-freq(0.1) flags(no-parse));", env->dir);
  if (!write_input (env) || !sl_test_write_config (env, config, "SOURCE", source, NULL))
    {
      g_test_fail_printf ("cannot prepare the input");
      return FALSE;
    }
  return TRUE;
}

static gint64
file_size (const gchar *path)
{
  struct stat st;
  return stat (path, &st) == 0 ? st.st_size : 0;
}

/* Waits until out holds at least size bytes; FALSE when it stops growing
 * for STUCK_USEC first. */
static gboolean
wait_size (const gchar *out, gint64 size)
{
  gint64 last = -1;
  gint64 changed = g_get_monotonic_time ();
  for (;;)
    {
      gint64 now_size = file_size (out);
      if (now_size >= size)
        return TRUE;
      if (now_size != last)
        {
          last = now_size;
          changed = g_get_monotonic_time ();
        }
      else if (g_get_monotonic_time () - changed > STUCK_USEC)
        {
          g_test_fail_printf ("%s stopped growing at %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT " bytes", out,
                              now_size, size);
          return FALSE;
        }
      g_usleep (2000);
    }
}

/* Waits until every line arrived and nothing more comes. */
static gboolean
wait_settled (const gchar *out)
{
  if (!wait_size (out, (gint64) total_lines * LINE_SIZE))
    return FALSE;
  gint64 size = -1;
  while (file_size (out) != size)
    {
      size = file_size (out);
      g_usleep (300 * 1000);
    }
  return TRUE;
}

/* Counts each number in out: lost ones (never there) and repeated ones
 * (each copy after the first). A kill can cut the destination's write of
 * a line short (the kernel stops a write for a fatal signal); the line
 * written after the restart then follows the cut one: torn counts those. */
static gboolean
count_output (const gchar *out, guint *lost, guint *repeated, guint *torn)
{
  gchar **lines = sl_test_read_lines (out);
  if (!lines)
    return FALSE;
  guint8 *seen = g_new0 (guint8, total_lines + 1);
  gboolean ok = TRUE;
  *repeated = 0;
  *torn = 0;
  for (guint i = 0; lines[i] && ok; i++)
    {
      const gchar *line = lines[i];
      gsize len = strlen (line);
      if (!len && !lines[i + 1])
        break;
      if (len != LINE_SIZE - 1)
        {
          (*torn)++;
          if (len < LINE_SIZE - 1)
            continue;
          line += len - (LINE_SIZE - 1);
        }
      guint64 n = g_ascii_strtoull (line, NULL, 10);
      ok = n >= 1 && n <= total_lines && line[NUMBER_DIGITS] == ' ';
      if (!ok)
        g_test_fail_printf ("line %u of %s is not one of the input: \"%.20s\"", i + 1, out, line);
      else if (seen[n]++)
        (*repeated)++;
    }
  *lost = 0;
  for (guint n = 1; n <= total_lines; n++)
    *lost += seen[n] == 0;
  g_free (seen);
  g_strfreev (lines);
  return ok;
}

static void
test_kill (SlTestEnv *env, gconstpointer data)
{
  const Case *c = data;
  g_autofree gchar *out = sl_test_path (env, "out.log");
  if (!prepare (env, c))
    return;
  if (!sl_test_daemon_start (env))
    return;
  if (c->moment == KILL_EARLY)
    g_usleep (50 * 1000);
  else if (!wait_size (out, (gint64) (c->moment == KILL_MIDDLE ? total_lines / 2 : total_lines - total_lines / 50)
                                * LINE_SIZE))
    return;
  pid_t killed = env->pid;
  sl_test_daemon_stop (env, SIGKILL);
  guint before = file_size (out) / LINE_SIZE;
  if (!sl_test_wait_gone (killed) || !sl_test_daemon_start (env) || !wait_settled (out))
    return;
  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);

  guint lost = 0;
  guint repeated = 0;
  guint torn = 0;
  if (!count_output (out, &lost, &repeated, &torn))
    return;
  if (full)
    g_printerr ("%s: killed after %u of %u lines written: %u lost, %u written twice, %u cut by the kill\n",
                g_test_get_path (), before, total_lines, lost, repeated, torn);
  g_assert_cmpuint (lost, ==, 0);
  g_assert_cmpuint (repeated, <=, WINDOW);
  g_assert_cmpuint (torn, <=, 1);
}

/* utime + stime of pid, in seconds */
static gdouble
cpu_seconds (pid_t pid)
{
  g_autofree gchar *path = g_strdup_printf ("/proc/%d/stat", (int) pid);
  g_autofree gchar *text = sl_test_read_file (path);
  const gchar *p = text ? strrchr (text, ')') : NULL;
  unsigned long utime = 0;
  unsigned long stime = 0;
  if (!p || sscanf (p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime, &stime) != 2)
    return 0;
  return (gdouble) (utime + stime) / sysconf (_SC_CLK_TCK);
}

static void
test_no_kill (SlTestEnv *env, gconstpointer data)
{
  const Case *c = data;
  g_autofree gchar *out = sl_test_path (env, "out.log");
  if (!prepare (env, c))
    return;
  gint64 start = g_get_monotonic_time ();
  if (!sl_test_daemon_start (env) || !wait_size (out, (gint64) total_lines * LINE_SIZE))
    return;
  gdouble seconds = (g_get_monotonic_time () - start) / 1e6;
  gdouble cpu = cpu_seconds (env->pid);
  if (!wait_settled (out))
    return;
  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
  guint lost = 0;
  guint repeated = 0;
  guint torn = 0;
  if (!count_output (out, &lost, &repeated, &torn))
    return;
  if (full)
    g_printerr ("%s: %u lines in %.2f s: %.0f lines/s, %.2f us of CPU per line\n", g_test_get_path (), total_lines,
                seconds, total_lines / seconds, cpu * 1e6 / total_lines);
  g_assert_cmpuint (lost, ==, 0);
  g_assert_cmpuint (repeated, ==, 0);
  g_assert_cmpuint (torn, ==, 0);
}

static const Case cases[] = {
  { FALSE, KILL_EARLY },
  { FALSE, KILL_MIDDLE },
  { FALSE, KILL_LATE },
  { TRUE, KILL_EARLY },
  { TRUE, KILL_MIDDLE },
  { TRUE, KILL_LATE },
};

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  full = g_strcmp0 (g_getenv ("SL_FILE_CRASH_FULL"), "1") == 0;
  total_lines = full ? 1000000 : 200000;
  static const gchar *const names[] = { "early", "middle", "late" };
  static const Case plain = { FALSE, KILL_EARLY };
  g_test_add ("/file-crash/file/no-kill", SlTestEnv, &plain, sl_test_env_setup, test_no_kill, sl_test_env_teardown);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gchar *path = g_strdup_printf ("/file-crash/%s/%s", cases[i].wildcard ? "wildcard-file" : "file",
                                     names[cases[i].moment]);
      g_test_add (path, SlTestEnv, &cases[i], sl_test_env_setup, test_kill, sl_test_env_teardown);
      g_free (path);
    }
  return g_test_run ();
}
