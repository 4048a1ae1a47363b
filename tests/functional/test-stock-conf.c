/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Debian's stock /etc/syslog-ng/syslog-ng.conf, unchanged, run by the real
 * syslog-ng and by sluiced: the same messages to /dev/log must end in the
 * same files with the same lines.
 *
 * Each daemon runs in a private mount namespace in which /dev, /var/log
 * and /run are the test's own: /dev a folder of the test with /dev/null
 * and the /dev/xconsole pipe (the daemon makes /dev/log there, so the test
 * sends to it from outside), /var/log another, /run an empty tmpfs (no
 * journald to take the logs from, no systemd, no utmp whose terminals
 * usertty("root") would write to), and /proc/kmsg an empty file, so that
 * neither daemon reads the host's kernel log. */
#include "tests/functional/harness.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#define STOCK_CONF "/etc/syslog-ng/syslog-ng.conf"
/* what the test's lines have and the daemons' own internal() ones lack;
 * both write the sender's pid in place of the one in the message */
#define TAG " stocktest["

static const gchar *const facilities[] = {
  "kern", "user", "mail", "daemon", "auth", "syslog", "lpr", "news", "uucp", "cron", "authpriv", "ftp",
  "ntp", "security", "console", "solaris-cron", "local0", "local1", "local2", "local3", "local4",
  "local5", "local6", "local7"
};
static const gchar *const levels[] = { "emerg", "alert", "crit", "err", "warning", "notice", "info", "debug" };

/* The last messages, one for each file that the stock configuration
 * writes: when a file has its own, everything sent before it was written
 * there too. */
typedef struct
{
  guint facility;
  guint level;
  const gchar *file;   /* under /var/log, or "xconsole" for the pipe */
} Marker;

static const Marker markers[] = {
  { 4, 6, "auth.log" }, { 9, 6, "cron.log" }, { 3, 6, "daemon.log" }, { 0, 6, "kern.log" },
  { 6, 6, "lpr.log" }, { 2, 6, "mail.log" }, { 1, 6, "user.log" }, { 1, 6, "syslog" },
  { 1, 6, "messages" }, { 8, 6, "uucp.log" }, { 7, 2, "news/news.crit" }, { 7, 3, "news/news.err" },
  { 7, 5, "news/news.notice" }, { 1, 7, "debug" }, { 1, 3, "error" }, { 1, 3, "xconsole" },
};

/* One daemon's private folders, seen from outside its namespace. */
typedef struct
{
  const gchar *label;
  gchar *dev;          /* its /dev */
  gchar *log;          /* its /var/log */
  gchar *kmsg;         /* its /proc/kmsg */
  gint xconsole;       /* the read end of its /dev/xconsole, held open so that it may write */
  GString *console;    /* what came through the pipe */
} Box;

static gboolean
private_mounts_work (void)
{
  const gchar *argv[] = { "unshare", "-m", "true", NULL };
  g_autofree gchar *unshare = g_find_program_in_path ("unshare");
  if (geteuid () == 0 && unshare && sl_test_run_argv (argv, NULL, NULL) == 0)
    return TRUE;
  g_test_skip ("no private mount namespace here (unshare -m needs root and util-linux)");
  return FALSE;
}

/* Debian installs it in /usr/sbin, which a user's PATH may lack. */
static gchar *
find_syslog_ng (void)
{
  gchar *path = g_find_program_in_path ("syslog-ng");
  if (!path && g_file_test ("/usr/sbin/syslog-ng", G_FILE_TEST_IS_EXECUTABLE))
    path = g_strdup ("/usr/sbin/syslog-ng");
  return path;
}

static gboolean
box_init (SlTestEnv *env, Box *b, const gchar *label)
{
  g_autofree gchar *news = NULL;
  g_autofree gchar *null = NULL;
  g_autofree gchar *pipe = NULL;

  b->label = label;
  b->dev = g_strdup_printf ("%s/%s-dev", env->dir, label);
  b->log = g_strdup_printf ("%s/%s-log", env->dir, label);
  b->kmsg = g_strdup_printf ("%s/%s-kmsg", env->dir, label);
  b->xconsole = -1;
  b->console = g_string_new (NULL);
  /* Debian's inn2 makes /var/log/news; neither daemon creates folders
   * here (create-dirs(no)) */
  news = g_build_filename (b->log, "news", NULL);
  null = g_build_filename (b->dev, "null", NULL);
  pipe = g_build_filename (b->dev, "xconsole", NULL);
  if (g_mkdir (b->dev, 0755) < 0 || g_mkdir_with_parents (news, 0755) < 0
      || !g_file_set_contents (b->kmsg, "", 0, NULL) || !g_file_set_contents (null, "", 0, NULL)
      || mkfifo (pipe, 0600) < 0 || (b->xconsole = open (pipe, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0)
    {
      g_test_fail_printf ("cannot prepare %s's folders: %s", label, g_strerror (errno));
      return FALSE;
    }
  return TRUE;
}

static void
box_clear (Box *b)
{
  if (b->xconsole >= 0)
    close (b->xconsole);
  g_free (b->dev);
  g_free (b->log);
  g_free (b->kmsg);
  if (b->console)
    g_string_free (b->console, TRUE);
}

/* The unshare(1) command line that mounts the box and execs the rest of
 * the command line, followed by tail (already quoted for sh). */
static GPtrArray *
box_wrapper (Box *b, const gchar *tail)
{
  g_autofree gchar *dev = g_shell_quote (b->dev);
  g_autofree gchar *log = g_shell_quote (b->log);
  g_autofree gchar *kmsg = g_shell_quote (b->kmsg);
  GPtrArray *argv = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (argv, g_strdup ("unshare"));
  g_ptr_array_add (argv, g_strdup ("-m"));
  g_ptr_array_add (argv, g_strdup ("--propagation=private"));
  g_ptr_array_add (argv, g_strdup ("sh"));
  g_ptr_array_add (argv, g_strdup ("-c"));
  g_ptr_array_add (argv, g_strdup_printf ("mount --bind /dev/null %s/null && mount --rbind %s /dev && "
                                          "mount --bind %s /var/log && mount -t tmpfs sluice-test /run && "
                                          "mount --bind %s /proc/kmsg && exec \"$0\" \"$@\" %s",
                                          dev, dev, log, kmsg, tail));
  return argv;
}

static void
drain_console (Box *b)
{
  gchar buf[4096];
  gssize n;
  while ((n = read (b->xconsole, buf, sizeof buf)) > 0)
    g_string_append_len (b->console, buf, n);
}

static gchar *
format_message (guint facility, guint level, const gchar *text)
{
  return g_strdup_printf ("<%u>Dec  1 12:34:56" TAG "4242]: %s.%s %s", facility * 8 + level, facilities[facility],
                          levels[level], text);
}

/* Every facility at every level, then the markers. */
static gboolean
send_all (Box *b)
{
  g_autofree gchar *path = g_build_filename (b->dev, "log", NULL);
  gint fd = sl_test_unix_connect (path, SOCK_DGRAM);
  gboolean ok = fd >= 0;
  for (guint f = 0; ok && f < G_N_ELEMENTS (facilities); f++)
    for (guint l = 0; ok && l < G_N_ELEMENTS (levels); l++)
      {
        g_autofree gchar *msg = format_message (f, l, "routed");
        ok = sl_test_send_all (fd, msg, strlen (msg));
      }
  for (guint i = 0; ok && i < G_N_ELEMENTS (markers); i++)
    {
      g_autofree gchar *msg = format_message (markers[i].facility, markers[i].level, "end");
      ok = sl_test_send_all (fd, msg, strlen (msg));
    }
  if (fd >= 0)
    close (fd);
  return ok;
}

static gboolean
marker_arrived (Box *b, const Marker *m)
{
  g_autofree gchar *tail = g_strdup_printf ("]: %s.%s end", facilities[m->facility], levels[m->level]);
  if (g_str_equal (m->file, "xconsole"))
    return strstr (b->console->str, tail) != NULL;
  g_autofree gchar *path = g_build_filename (b->log, m->file, NULL);
  g_autofree gchar *text = sl_test_read_file (path);
  return text && strstr (text, tail);
}

/* Until every marker is where the stock configuration sends it; a daemon
 * that lost one is not failed here: the comparison shows what differs. */
static void
wait_markers (Box *b)
{
  gint64 deadline = g_get_monotonic_time () + SL_TEST_DEADLINE_MS * 1000;
  for (;;)
    {
      drain_console (b);
      guint missing = 0;
      for (guint i = 0; i < G_N_ELEMENTS (markers); i++)
        missing += !marker_arrived (b, &markers[i]);
      if (!missing)
        return;
      if (g_get_monotonic_time () > deadline)
        {
          g_test_message ("%s: %u markers did not arrive", b->label, missing);
          return;
        }
      g_usleep (20000);
    }
}

/* The test's lines in text (the daemon's own internal() messages differ),
 * one string. */
static gchar *
test_lines (const gchar *text)
{
  GString *out = g_string_new (NULL);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (strstr (lines[i], TAG))
      g_string_append_printf (out, "%s\n", lines[i]);
  return g_string_free (out, FALSE);
}

/* name (relative to the log folder) -> "mode 0640 gid 4\n" then its lines,
 * for every file under dir. */
static void
collect (GHashTable *files, const gchar *root, const gchar *rel)
{
  g_autofree gchar *dir_path = g_build_filename (root, rel, NULL);
  g_autoptr (GDir) dir = g_dir_open (dir_path, 0, NULL);
  const gchar *name;
  while (dir && (name = g_dir_read_name (dir)))
    {
      gchar *sub = *rel ? g_build_filename (rel, name, NULL) : g_strdup (name);
      g_autofree gchar *path = g_build_filename (root, sub, NULL);
      struct stat st;
      if (lstat (path, &st) == 0 && S_ISDIR (st.st_mode))
        {
          collect (files, root, sub);
          g_free (sub);
          continue;
        }
      g_autofree gchar *text = sl_test_read_file (path);
      g_autofree gchar *lines = test_lines (text ? text : "");
      g_hash_table_insert (files, sub, g_strdup_printf ("mode %04o gid %u\n%s", (guint) (st.st_mode & 07777),
                                                        (guint) st.st_gid, lines));
    }
}

static GHashTable *
box_files (Box *b)
{
  GHashTable *files = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  collect (files, b->log, "");
  drain_console (b);
  g_autofree gchar *console = test_lines (b->console->str);
  g_hash_table_insert (files, g_strdup ("/dev/xconsole"), g_strdup_printf ("pipe\n%s", console));
  return files;
}

static void
compare (GHashTable *ng, GHashTable *sl)
{
  GHashTableIter iter;
  gpointer key, value;
  GString *report = g_string_new (NULL);
  guint routed = 0;

  g_hash_table_iter_init (&iter, ng);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const gchar *other = g_hash_table_lookup (sl, key);
      if (strstr (value, TAG))
        routed++;
      if (g_strcmp0 (value, other) != 0)
        g_string_append_printf (report, "%s\n  syslog-ng:\n%s  sluiced:\n%s", (gchar *) key, (gchar *) value,
                                other ? other : "(no such file)\n");
    }
  g_hash_table_iter_init (&iter, sl);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (!g_hash_table_contains (ng, key))
      g_string_append_printf (report, "%s: only sluiced wrote it:\n%s", (gchar *) key, (gchar *) value);
  if (report->len)
    g_test_fail_printf ("the stock configuration routes differently:\n%s", report->str);
  /* every file of the stock configuration's log paths got some */
  g_assert_cmpuint (routed, ==, G_N_ELEMENTS (markers));
  g_string_free (report, TRUE);
}

/* The stock file unchanged but elsewhere, so that sluiced finds scl.conf
 * only through its include path. */
static gboolean
copy_stock (const gchar *path)
{
  g_autofree gchar *text = sl_test_read_file (STOCK_CONF);
  if (text && g_file_set_contents (path, text, -1, NULL))
    return TRUE;
  g_test_fail_printf ("cannot copy %s to %s", STOCK_CONF, path);
  return FALSE;
}

static gboolean
run_syslog_ng (SlTestEnv *env, Box *b, const gchar *program)
{
  g_autofree gchar *config = sl_test_path (env, "syslog-ng.conf");
  g_autofree gchar *persist = sl_test_path (env, "syslog-ng.persist");
  g_autofree gchar *pidfile = sl_test_path (env, "syslog-ng.pid");
  g_autofree gchar *control = sl_test_path (env, "syslog-ng.ctl");
  g_autofree gchar *err = sl_test_path (env, "syslog-ng.stderr");
  g_autofree gchar *log_socket = g_build_filename (b->dev, "log", NULL);
  g_autoptr (GPtrArray) argv = box_wrapper (b, "");
  const gchar *args[] = {
    program, "-F", "--no-caps", "-f", config, "--persist-file", persist, "--pidfile", pidfile,
    "--control", control
  };
  for (guint i = 0; i < G_N_ELEMENTS (args); i++)
    g_ptr_array_add (argv, g_strdup (args[i]));
  g_ptr_array_add (argv, NULL);
  if (!copy_stock (config))
    return FALSE;
  /* env->pid, so that the harness's waits watch it and its teardown
   * kills it */
  env->pid = sl_test_spawn_argv ((const gchar *const *) argv->pdata, err);
  if (!env->pid || !sl_test_wait_socket (env, log_socket) || !send_all (b))
    return FALSE;
  wait_markers (b);
  gint status = sl_test_daemon_stop (env, SIGTERM);
  g_autofree gchar *stderr_text = sl_test_read_file (err);
  if (status != 0)
    g_test_fail_printf ("syslog-ng exited with status %d:\n%s", status, stderr_text ? stderr_text : "");
  return status == 0;
}

static gboolean
run_sluiced (SlTestEnv *env, Box *b)
{
  g_autofree gchar *path = sl_test_scl_include_path ();
  if (!path)
    return FALSE;
  g_autofree gchar *quoted = g_shell_quote (path);
  g_autofree gchar *tail = g_strdup_printf ("--include-path %s", quoted);
  g_autoptr (GPtrArray) argv = box_wrapper (b, tail);
  g_ptr_array_add (argv, NULL);
  if (!copy_stock (env->config)
      || !sl_test_daemon_start_wrapped (env, (const gchar *const *) argv->pdata) || !send_all (b))
    return FALSE;
  wait_markers (b);
  return sl_test_daemon_stop (env, SIGTERM) == 0;
}

static void
test_stock_conf (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *syslog_ng = find_syslog_ng ();
  if (!syslog_ng || !g_file_test (STOCK_CONF, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("Debian's syslog-ng-core is not installed");
      return;
    }
  if (!private_mounts_work ())
    return;
  Box ng = { 0 }, sl = { 0 };
  ng.xconsole = sl.xconsole = -1;
  if (box_init (env, &ng, "syslog-ng") && box_init (env, &sl, "sluiced") && run_syslog_ng (env, &ng, syslog_ng)
      && run_sluiced (env, &sl))
    {
      g_autoptr (GHashTable) ng_files = box_files (&ng);
      g_autoptr (GHashTable) sl_files = box_files (&sl);
      compare (ng_files, sl_files);
    }
  box_clear (&ng);
  box_clear (&sl);
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  /* the daemons' local time is UTC, so that stamps without a zone read alike */
  g_setenv ("TZ", "UTC", TRUE);
  SL_TEST_ADD ("/stock-conf/debian", test_stock_conf);
  return g_test_run ();
}
