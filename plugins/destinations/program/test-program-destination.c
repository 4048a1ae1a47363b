/* SPDX-License-Identifier: GPL-2.0-or-later */
/* program() on the real daemon with real commands: cat appending to a
 * file, a shell loop that exits after a few lines and is started again
 * without losing what it did not read, the environment it gets, and a
 * program that outlives its stdin being ended at shutdown. */
#include "tests/functional/harness.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
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

static guint16
start_with_port (SlTestEnv *env, const gchar *config)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = g_strdup_printf ("%u", port);
  if (!port || !sl_test_write_config (env, config, "PORT", port_str, NULL) || !sl_test_daemon_start (env))
    return 0;
  return port;
}

/* The processes whose parent is pid, from /proc. */
static GArray *
children_of (pid_t pid)
{
  GArray *kids = g_array_new (FALSE, FALSE, sizeof (pid_t));
  g_autofree gchar *tasks = g_strdup_printf ("/proc/%d/task", (int) pid);
  GDir *dir = g_dir_open (tasks, 0, NULL);
  const gchar *tid;
  while (dir && (tid = g_dir_read_name (dir)))
    {
      g_autofree gchar *path = g_strdup_printf ("%s/%s/children", tasks, tid);
      g_autofree gchar *text = sl_test_read_file (path);
      g_auto (GStrv) words = text ? g_strsplit (g_strstrip (text), " ", -1) : NULL;
      for (guint i = 0; words && words[i]; i++)
        if (*words[i])
          {
            pid_t kid = (pid_t) g_ascii_strtoll (words[i], NULL, 10);
            g_array_append_val (kids, kid);
          }
    }
  if (dir)
    g_dir_close (dir);
  return kids;
}

/* Whether any live process is in process group pgid. */
static gboolean
group_alive (pid_t pgid)
{
  GDir *dir = g_dir_open ("/proc", 0, NULL);
  const gchar *name;
  gboolean alive = FALSE;
  while (dir && !alive && (name = g_dir_read_name (dir)))
    {
      if (!g_ascii_isdigit (*name))
        continue;
      g_autofree gchar *path = g_strdup_printf ("/proc/%s/stat", name);
      g_autofree gchar *text = sl_test_read_file (path);
      const gchar *after = text ? strrchr (text, ')') : NULL;
      gchar state;
      int ppid, pgrp;
      if (after && sscanf (after + 1, " %c %d %d", &state, &ppid, &pgrp) == 3)
        alive = pgrp == (int) pgid && state != 'Z';
    }
  if (dir)
    g_dir_close (dir);
  return alive;
}

static const gchar cat_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_prog { program(\"cat >> '@DIR@/out.txt'\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_net); destination(d_prog); flags(flow-control); };\n";

/* Every message reaches the program's stdin, in order; at shutdown its
 * stdin closes and it exits with nothing left behind. */
static void
test_cat (SlTestEnv *env, gconstpointer data)
{
  guint16 port = start_with_port (env, cat_config);
  g_autofree gchar *out = sl_test_path (env, "out.txt");
  if (!port || !send_lines (port, 1, 500) || !sl_test_wait_lines (env, out, 500))
    return;
  assert_numbered (out, 1, 500);
  g_autoptr (GArray) kids = children_of (env->pid);
  g_assert_cmpuint (kids->len, ==, 1);
  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
  for (guint i = 0; i < kids->len; i++)
    sl_test_wait_gone (g_array_index (kids, pid_t, i));
}

static const gchar restart_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_prog { program(\"i=0; while [ $i -lt 5 ] && IFS= read -r line; do\n"
  "  echo \\\"$line\\\" >> '@DIR@/out.txt'; i=$((i + 1)); done\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_net); destination(d_prog); flags(flow-control); };\n";

/* The program reads five lines and exits: it is started again, one second
 * later, then two, and each time gets what the last one left unread. */
static void
test_restart_keeps_messages (SlTestEnv *env, gconstpointer data)
{
  guint16 port = start_with_port (env, restart_config);
  g_autofree gchar *out = sl_test_path (env, "out.txt");
  if (!port || !send_lines (port, 1, 12) || !sl_test_wait_lines (env, out, 12))
    return;
  assert_numbered (out, 1, 12);
  g_autofree gchar *log = sl_test_daemon_stderr (env);
  g_assert_nonnull (strstr (log, "program exited, restarting it in 1s"));
  g_assert_nonnull (strstr (log, "program exited, restarting it in 2s"));
  g_assert_cmpint (sl_test_stat (env, "destination", "d_prog", "dropped"), ==, 0);
}

static const gchar environment_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_inherit { program(\"echo \\\"[$SLUICE_TEST_MARK]\\\" > '@DIR@/inherit.txt'; cat > /dev/null\"); };\n"
  "destination d_clean { program(\"echo \\\"[$SLUICE_TEST_MARK]\\\" > '@DIR@/clean.txt'; cat > /dev/null\"\n"
  "  inherit-environment(no) keep-alive(yes)); };\n"
  "log { source(s_net); destination(d_inherit); destination(d_clean); };\n";

static void
test_environment (SlTestEnv *env, gconstpointer data)
{
  g_setenv ("SLUICE_TEST_MARK", "from-the-test", TRUE);
  guint16 port = start_with_port (env, environment_config);
  g_unsetenv ("SLUICE_TEST_MARK");
  g_autofree gchar *inherit = sl_test_path (env, "inherit.txt");
  g_autofree gchar *clean = sl_test_path (env, "clean.txt");
  if (!port || !sl_test_wait_lines (env, inherit, 1) || !sl_test_wait_lines (env, clean, 1))
    return;
  g_autofree gchar *inherited = sl_test_read_file (inherit);
  g_autofree gchar *cleaned = sl_test_read_file (clean);
  g_assert_cmpstr (inherited, ==, "[from-the-test]\n");
  g_assert_cmpstr (cleaned, ==, "[]\n");
}

static const gchar stubborn_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_prog { program(\"cat >> '@DIR@/out.txt'; sleep 60\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_net); destination(d_prog); };\n";

/* A program that does not exit when its stdin closes is sent SIGTERM, it
 * and what it started: the daemon does not wait for it. */
static void
test_shutdown_terminates (SlTestEnv *env, gconstpointer data)
{
  guint16 port = start_with_port (env, stubborn_config);
  g_autofree gchar *out = sl_test_path (env, "out.txt");
  if (!port || !send_lines (port, 1, 3) || !sl_test_wait_lines (env, out, 3))
    return;
  g_autoptr (GArray) shells = children_of (env->pid);
  g_assert_cmpuint (shells->len, ==, 1);
  if (shells->len != 1)
    return;
  pid_t shell = g_array_index (shells, pid_t, 0);
  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
  g_assert_true (sl_test_wait_gone (shell));
  g_assert_false (group_alive (shell));
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/program/cat", test_cat);
  SL_TEST_ADD ("/program/restart-keeps-messages", test_restart_keeps_messages);
  SL_TEST_ADD ("/program/environment", test_environment);
  SL_TEST_ADD ("/program/shutdown-terminates", test_shutdown_terminates);
  return g_test_run ();
}
