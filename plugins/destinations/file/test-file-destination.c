/* SPDX-License-Identifier: GPL-2.0-or-later */
/* file() on the real daemon: modes and owners of what it creates, logrotate
 * with SIGHUP and with sluicectl reopen, rotation by size, idle files let
 * go of, batches, and a full disk that holds messages until space returns. */
#include "tests/functional/harness.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

/* "<13>Oct 11 22:14:15 host PROGRAM[1]: line NNNN" lines first..first+count-1;
 * pad makes every message that many bytes longer. */
static gchar *
numbered_lines (const gchar *program, guint first, guint count, guint pad)
{
  GString *out = g_string_new (NULL);
  g_autofree gchar *padding = g_strnfill (pad, 'x');
  for (guint i = first; i < first + count; i++)
    g_string_append_printf (out, "<13>Oct 11 22:14:15 host %s[1]: line %04u%s\n", program, i, padding);
  return g_string_free (out, FALSE);
}

static gboolean
send_lines (guint16 port, const gchar *program, guint first, guint count, guint pad)
{
  g_autofree gchar *text = numbered_lines (program, first, count, pad);
  return sl_test_tcp_send (port, text);
}

/* Checks that path holds exactly the messages "line first" .. "line
 * first+count-1" with pad bytes of padding, each whole, in order. */
static void
assert_numbered_padded (const gchar *path, guint first, guint count, guint pad)
{
  g_auto (GStrv) lines = sl_test_read_lines (path);
  g_assert_nonnull (lines);
  if (!lines)
    return;
  g_assert_cmpuint (g_strv_length (lines), ==, count);
  g_autofree gchar *padding = g_strnfill (pad, 'x');
  for (guint i = 0; lines[i] && i < count; i++)
    {
      g_autofree gchar *want = g_strdup_printf ("line %04u%s", first + i, padding);
      g_assert_cmpstr (lines[i], ==, want);
    }
}

static void
assert_numbered (const gchar *path, guint first, guint count)
{
  assert_numbered_padded (path, first, count, 0);
}

/* Whether process pid holds a descriptor open on path. */
static gboolean
holds_open (pid_t pid, const gchar *path)
{
  g_autofree gchar *fd_dir = g_strdup_printf ("/proc/%d/fd", (int) pid);
  GDir *dir = g_dir_open (fd_dir, 0, NULL);
  const gchar *name;
  gboolean found = FALSE;
  while (dir && !found && (name = g_dir_read_name (dir)))
    {
      g_autofree gchar *link = g_build_filename (fd_dir, name, NULL);
      g_autofree gchar *target = g_file_read_link (link, NULL);
      found = target && strcmp (target, path) == 0;
    }
  if (dir)
    g_dir_close (dir);
  return found;
}

static gboolean
wait_released (SlTestEnv *env, const gchar *path)
{
  gint64 deadline = g_get_monotonic_time () + SL_TEST_DEADLINE_MS * 1000;
  while (holds_open (env->pid, path) && g_get_monotonic_time () < deadline)
    g_usleep (20 * 1000);
  if (!holds_open (env->pid, path))
    return TRUE;
  g_test_fail_printf ("sluiced still holds %s open", path);
  return FALSE;
}

static gchar *
port_text (guint16 port)
{
  return g_strdup_printf ("%u", port);
}

/* Starts the daemon on config with a free TCP port as @PORT@. */
static guint16
start_with_port (SlTestEnv *env, const gchar *config)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = port_text (port);
  if (!port || !sl_test_write_config (env, config, "PORT", port_str, NULL) || !sl_test_daemon_start (env))
    return 0;
  return port;
}

static guint
count_occurrences (const gchar *text, const gchar *needle)
{
  guint n = 0;
  for (const gchar *p = text; (p = strstr (p, needle)); p += strlen (needle))
    n++;
  return n;
}

static const gchar perm_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_new { file(\"@DIR@/made/sub/${PROGRAM}.log\" create-dirs(yes)\n"
  "  perm(0664) dir-perm(0775) owner(65534) group(65534) dir-owner(65534) dir-group(65534)); };\n"
  "destination d_old { file(\"@DIR@/existing.log\" perm(0664) owner(65534) group(65534)); };\n"
  "log { source(s_net); destination(d_new); destination(d_old); };\n";

static void
assert_mode_owner (const gchar *path, guint mode, uid_t uid, gid_t gid)
{
  struct stat st;
  g_assert_cmpint (stat (path, &st), ==, 0);
  g_assert_cmpuint (st.st_mode & 07777, ==, mode);
  g_assert_cmpuint (st.st_uid, ==, uid);
  g_assert_cmpuint (st.st_gid, ==, gid);
}

/* New files and folders get exactly the configured mode (the umask does not
 * narrow it) and owner; a file that was there keeps its own. */
static void
test_perm_owner (SlTestEnv *env, gconstpointer data)
{
  if (geteuid () != 0)
    {
      g_test_skip ("changing owners needs root");
      return;
    }
  g_autofree gchar *existing = sl_test_path (env, "existing.log");
  if (!g_file_set_contents (existing, "", 0, NULL) || chmod (existing, 0604) < 0)
    {
      g_test_fail_printf ("cannot make %s", existing);
      return;
    }
  mode_t old_umask = umask (022);
  guint16 port = start_with_port (env, perm_config);
  umask (old_umask);
  if (!port || !send_lines (port, "app", 1, 2, 0))
    return;
  g_autofree gchar *made = sl_test_path (env, "made/sub/app.log");
  if (!sl_test_wait_lines (env, made, 2) || !sl_test_wait_lines (env, existing, 2))
    return;
  assert_mode_owner (made, 0664, 65534, 65534);
  g_autofree gchar *sub = sl_test_path (env, "made/sub");
  g_autofree gchar *top = sl_test_path (env, "made");
  assert_mode_owner (sub, 0775, 65534, 65534);
  assert_mode_owner (top, 0775, 65534, 65534);
  assert_mode_owner (existing, 0604, 0, 0);
}

static const gchar plain_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_file { file(\"@DIR@/messages\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_net); destination(d_file); };\n";

/* logrotate's way: the file is renamed, the daemon keeps writing to it
 * until SIGHUP, then starts a new one at the old path; nothing is lost. */
static void
test_rename_and_sighup (SlTestEnv *env, gconstpointer data)
{
  guint16 port = start_with_port (env, plain_config);
  g_autofree gchar *path = sl_test_path (env, "messages");
  g_autofree gchar *rotated = sl_test_path (env, "messages.1");
  if (!port || !send_lines (port, "app", 1, 5, 0) || !sl_test_wait_lines (env, path, 5))
    return;
  g_assert_cmpint (rename (path, rotated), ==, 0);
  if (!send_lines (port, "app", 6, 3, 0) || !sl_test_wait_lines (env, rotated, 8))
    return;
  kill (env->pid, SIGHUP);
  if (!sl_test_wait_stderr (env, "configuration reloaded") || !sl_test_wait_tcp (env, port)
      || !send_lines (port, "app", 9, 4, 0) || !sl_test_wait_lines (env, path, 4))
    return;
  assert_numbered (rotated, 1, 8);
  assert_numbered (path, 9, 4);
  g_assert_false (holds_open (env->pid, rotated));
}

/* sluicectl reopen lets go of the renamed file and starts the new one at
 * once, before any message comes. */
static void
test_rename_and_reopen (SlTestEnv *env, gconstpointer data)
{
  guint16 port = start_with_port (env, plain_config);
  g_autofree gchar *path = sl_test_path (env, "messages");
  g_autofree gchar *rotated = sl_test_path (env, "messages.1");
  if (!port || !send_lines (port, "app", 1, 5, 0) || !sl_test_wait_lines (env, path, 5))
    return;
  g_assert_true (holds_open (env->pid, path));
  g_assert_cmpint (rename (path, rotated), ==, 0);
  g_autofree gchar *out = NULL;
  g_autofree gchar *err = NULL;
  gint status = sl_test_run_built ("tools/sluicectl", &out, &err, "-c", env->control, "reopen", NULL);
  g_assert_cmpint (status, ==, 0);
  if (!wait_released (env, rotated))
    return;
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  g_assert_true (holds_open (env->pid, path));
  if (!send_lines (port, "app", 6, 3, 0) || !sl_test_wait_lines (env, path, 3))
    return;
  assert_numbered (rotated, 1, 5);
  assert_numbered (path, 6, 3);
}

static const gchar rotate_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_file { file(\"@DIR@/big.log\" template(\"${MESSAGE}\\n\")\n"
  "  logrotate(enable(yes), size(1k), rotations(3))); };\n"
  "log { source(s_net); destination(d_file); };\n";

/* Every message is 50 bytes, so 20 fit into 1 KiB: 100 messages make five
 * files, of which the current one and three old ones are kept. */
static void
test_size_rotation (SlTestEnv *env, gconstpointer data)
{
  guint16 port = start_with_port (env, rotate_config);
  g_autofree gchar *path = sl_test_path (env, "big.log");
  if (!port || !send_lines (port, "app", 1, 100, 40) || !sl_test_wait_contains (env, path, "line 0100"))
    return;
  assert_numbered_padded (path, 81, 20, 40);
  for (guint k = 1; k <= 3; k++)
    {
      g_autofree gchar *old = g_strdup_printf ("%s.%u", path, k);
      assert_numbered_padded (old, 81 - 20 * k, 20, 40);
      struct stat st;
      g_assert_cmpint (stat (old, &st), ==, 0);
      g_assert_cmpint (st.st_size, <=, 1024);
    }
  g_autofree gchar *gone = g_strdup_printf ("%s.4", path);
  g_assert_false (g_file_test (gone, G_FILE_TEST_EXISTS));
}

static const gchar max_size_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_cap { file(\"@DIR@/cap.log\" template(\"${MESSAGE}\\n\") max-size(20)\n"
  "  size-command(\"@DIR@/move-aside @DIR@/cap.log\")); };\n"
  "destination d_stuck { file(\"@DIR@/stuck.log\" template(\"${MESSAGE}\\n\") max-size(20) size-command(\"true\")); };\n"
  "log { source(s_net); destination(d_cap); destination(d_stuck); };\n";

/* max-size() as rsyslog's $outchannel: the message written to a file
 * that already had 20 bytes is its last (each message is 10 bytes); the
 * command (a program and one argument) moves it away; a command that leaves
 * the file as large stops the writing into it, the messages kept. */
static void
test_max_size (SlTestEnv *env, gconstpointer data)
{
  /* moves the file of its argument aside as FILE.N, N counting up */
  g_autofree gchar *script = sl_test_path (env, "move-aside");
  g_assert_true (g_file_set_contents (script, "#!/bin/sh\nn=0\nwhile [ -e \"$1.$n\" ]; do n=$((n+1)); done\n"
                                              "mv \"$1\" \"$1.$n\"\n", -1, NULL));
  g_assert_cmpint (chmod (script, 0700), ==, 0);
  guint16 port = start_with_port (env, max_size_config);
  g_autofree gchar *path = sl_test_path (env, "cap.log");
  g_autofree gchar *stuck = sl_test_path (env, "stuck.log");
  for (guint i = 1; port && i <= 7; i++)
    {
      g_autofree gchar *line = g_strdup_printf ("<13>Oct 11 22:14:15 host app[1]: line %04u\n", i);
      g_assert_true (sl_test_tcp_send (port, line));
      g_autofree gchar *want = g_strdup_printf ("line %04u", i);
      /* every third message is the last of its file, moved away */
      g_autofree gchar *into = i % 3 == 0 ? g_strdup_printf ("%s.%u", path, i / 3 - 1) : g_strdup (path);
      if (!sl_test_wait_contains (env, into, want))
        return;
    }
  for (guint k = 0; k < 2; k++)
    {
      g_autofree gchar *old = g_strdup_printf ("%s.%u", path, k);
      g_autofree gchar *text = sl_test_read_file (old);
      g_autofree gchar *want = g_strdup_printf ("line %04u\nline %04u\nline %04u\n", 3 * k + 1, 3 * k + 2, 3 * k + 3);
      g_assert_cmpstr (text, ==, want);
    }
  g_autofree gchar *current = sl_test_read_file (path);
  g_assert_cmpstr (current, ==, "line 0007\n");
  g_assert_true (sl_test_wait_stderr (env, "File too large"));
  g_autofree gchar *held = sl_test_read_file (stuck);
  g_assert_cmpstr (held, ==, "line 0001\nline 0002\nline 0003\n");
  (void) data;
}

static const gchar reap_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_file { file(\"@DIR@/${PROGRAM}.log\" template(\"${MESSAGE}\\n\") time-reap(2)); };\n"
  "log { source(s_net); destination(d_file); };\n";

/* A file of a templated path that takes no message for time-reap() is
 * closed, with no message needed to notice; the next message opens it
 * again and appends. */
static void
test_time_reap (SlTestEnv *env, gconstpointer data)
{
  guint16 port = start_with_port (env, reap_config);
  g_autofree gchar *path = sl_test_path (env, "idle.log");
  if (!port || !send_lines (port, "idle", 1, 1, 0) || !sl_test_wait_lines (env, path, 1))
    return;
  g_assert_true (holds_open (env->pid, path));
  if (!wait_released (env, path) || !send_lines (port, "idle", 2, 1, 0) || !sl_test_wait_lines (env, path, 2))
    return;
  assert_numbered (path, 1, 2);
}

static const gchar refused_config[] =
  "@version: 4.0\n"
  "options { create-dirs(yes); };\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_refusing { file(\"@DIR@/logs/${PROGRAM}/app.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_net); destination(d_refusing); };\n";

/* A message whose path leads out of the folder, or whose path cannot be
 * opened and never will, is dropped and counted as such, not as written;
 * create-dirs() comes from options {}. */
static void
test_refused_paths (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *logs = sl_test_path (env, "logs");
  g_autofree gchar *blocker = sl_test_path (env, "logs/blocker");
  g_assert_cmpint (g_mkdir_with_parents (logs, 0700), ==, 0);
  g_assert_true (g_file_set_contents (blocker, "a file where a folder would go\n", -1, NULL));
  guint16 port = start_with_port (env, refused_config);
  if (!port || !sl_test_tcp_send (port, "<13>Oct 11 22:14:15 host ..[1]: out of the folder\n"
                                        "<13>Oct 11 22:14:15 host blocker[1]: under a file\n"
                                        "<13>Oct 11 22:14:15 host good[1]: kept\n"))
    return;
  g_autofree gchar *good = sl_test_path (env, "logs/good/app.log");
  if (!sl_test_wait_lines (env, good, 1) || !sl_test_wait_stat (env, "destination", "d_refusing", "dropped", 2))
    return;
  g_assert_cmpint (sl_test_stat (env, "destination", "d_refusing", "written"), ==, 1);
  g_assert_cmpint (sl_test_stat (env, "destination", "d_refusing", "spurious_paths"), ==, 1);
  g_assert_cmpint (sl_test_stat (env, "destination", "d_refusing", "unwritable_paths"), ==, 1);
}

/* octet-counted, so that a value may hold a newline */
static const gchar macro_path_config[] =
  "@version: 4.0\n"
  "source s_net { network(ip(\"127.0.0.1\") port(@PORT@) transport(\"framed\")); };\n"
  "rewrite r_host { set(\"${MESSAGE}\" value(\"HOST\")); };\n"
  "destination d_hosts { file(\"@DIR@/logs/${HOST}/${PROGRAM}.log\" create-dirs(yes)\n"
  "  template(\"${PROGRAM} hit\\n\")); };\n"
  "log { source(s_net); rewrite(r_host); destination(d_hosts); };\n";

/* Appends one RFC 6587 octet-counted frame: it may hold a newline or a
 * NUL, which newline framing would end the frame at. */
static void
append_frame (GString *out, const gchar *frame, gsize len)
{
  g_string_append_printf (out, "%zu ", len);
  g_string_append_len (out, frame, len);
}

#define FRAME(text) text, sizeof text - 1

/* Whatever a sender puts into $HOST (here through a rewrite of its
 * message, since the syslog parser refuses such host names) or $PROGRAM
 * stays one name in the folder the template names: '/' and a newline in
 * a value become '_' (a NUL too: test-template's /template/file-name), the
 * template's own '/' still makes folders, and a value of ".." is refused. */
static void
test_macro_values_in_paths (SlTestEnv *env, gconstpointer data)
{
  guint16 port = start_with_port (env, macro_path_config);
  if (!port)
    return;
  g_autoptr (GString) frames = g_string_new (NULL);
  append_frame (frames, FRAME ("<13>Oct 11 22:14:15 sender slash: a/b"));
  append_frame (frames, FRAME ("<13>Oct 11 22:14:15 sender newline: new\nline"));
  append_frame (frames, FRAME ("<13>Oct 11 22:14:15 sender x/../../y: h"));
  append_frame (frames, FRAME ("<13>Oct 11 22:14:15 sender dots: .."));
  append_frame (frames, FRAME ("<13>Oct 11 22:14:15 sender last: h"));
  gint fd = sl_test_tcp_connect (port);
  if (fd < 0)
    return;
  gboolean sent = sl_test_send_all (fd, frames->str, frames->len);
  close (fd);
  g_autofree gchar *last = sl_test_path (env, "logs/h/last.log");
  if (!sent || !sl_test_wait_lines (env, last, 1))
    return;
  const gchar *expected[][2] = {
    { "logs/a_b/slash.log", "slash hit\n" },
    { "logs/new_line/newline.log", "newline hit\n" },
    { "logs/h/x_.._.._y.log", "x/../../y hit\n" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_autofree gchar *path = sl_test_path (env, expected[i][0]);
      g_autofree gchar *text = sl_test_read_file (path);
      if (!text)
        g_test_fail_printf ("%s was not written", expected[i][0]);
      else
        g_assert_cmpstr (text, ==, expected[i][1]);
    }
  /* nothing else was made: one folder per host, no nested one */
  g_autofree gchar *logs = sl_test_path (env, "logs");
  GDir *dir = g_dir_open (logs, 0, NULL);
  g_assert_nonnull (dir);
  guint entries = 0;
  for (const gchar *name; dir && (name = g_dir_read_name (dir));)
    entries++;
  if (dir)
    g_dir_close (dir);
  g_assert_cmpuint (entries, ==, 3);
  g_assert_cmpint (sl_test_stat (env, "destination", "d_hosts", "spurious_paths"), ==, 1);
  g_assert_cmpint (sl_test_stat (env, "destination", "d_hosts", "written"), ==, 4);
}

static const gchar dated_config[] =
  "@version: 4.0\n"
  "options { keep-hostname(yes); };\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "rewrite r_bad { set(\"..\" value(\"HOST\") condition(program(\"bad\"))); };\n"
  "destination d_dated { file(\"@DIR@/dated/$HOST/$YEAR-$MONTH-$DAY.log\" create-dirs(yes)\n"
  "  template(\"$ISODATE $HOST $PROGRAM[$PID]: $MSG\\n\")); };\n"
  "log { source(s_net); rewrite(r_bad); destination(d_dated); };\n";

/* file() renders a path again only when what it is made from changes
 * (host, date, zone): messages of one second, the next day, another host,
 * the same local day in another zone, and a refused host twice in a row
 * each land where the path names. */
static void
test_dated_paths (SlTestEnv *env, gconstpointer data)
{
  guint16 port = start_with_port (env, dated_config);
  if (!port)
    return;
  if (!sl_test_tcp_send (port,
                         "<13>2026-10-11T23:59:59+00:00 a p[1]: one\n"
                         "<13>2026-10-11T23:59:59.500+00:00 a p[1]: two\n"
                         "<13>2026-10-12T00:00:00+00:00 a p[1]: three\n"
                         "<13>2026-10-12T00:00:00+00:00 b p[1]: four\n"
                         "<13>2026-10-12T00:00:00.250+00:00 a p[1]: five\n"
                         "<13>2026-10-12T00:00:00+02:00 a p[1]: six\n"
                         "<13>2026-10-12T00:00:00+02:00 a bad[1]: refused\n"
                         "<13>2026-10-12T00:00:00+02:00 a bad[1]: refused again\n"
                         "<13>2026-10-12T00:00:00+02:00 a p[2]: seven\n"
                         "<13>2026-10-12T00:00:01+00:00 b p[1]: last\n"))
    return;
  g_autofree gchar *last = sl_test_path (env, "dated/b/2026-10-12.log");
  if (!sl_test_wait_lines (env, last, 2))
    return;
  const gchar *expected[][2] = {
    { "dated/a/2026-10-11.log", "2026-10-11T23:59:59+00:00 a p[1]: one\n"
                                "2026-10-11T23:59:59+00:00 a p[1]: two\n" },
    { "dated/a/2026-10-12.log", "2026-10-12T00:00:00+00:00 a p[1]: three\n"
                                "2026-10-12T00:00:00+00:00 a p[1]: five\n"
                                "2026-10-12T00:00:00+02:00 a p[1]: six\n"
                                "2026-10-12T00:00:00+02:00 a p[2]: seven\n" },
    { "dated/b/2026-10-12.log", "2026-10-12T00:00:00+00:00 b p[1]: four\n"
                                "2026-10-12T00:00:01+00:00 b p[1]: last\n" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_autofree gchar *path = sl_test_path (env, expected[i][0]);
      g_autofree gchar *text = sl_test_read_file (path);
      if (!text)
        g_test_fail_printf ("%s was not written", expected[i][0]);
      else
        g_assert_cmpstr (text, ==, expected[i][1]);
    }
  g_assert_cmpint (sl_test_stat (env, "destination", "d_dated", "spurious_paths"), ==, 2);
  g_assert_cmpint (sl_test_stat (env, "destination", "d_dated", "written"), ==, 8);
}

static const gchar flush_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_wide { file(\"@DIR@/wide.log\" template(\"${MESSAGE}\\n\")\n"
  "  flush-lines(1000) flush-timeout(60000) fsync(yes)); };\n"
  "destination d_narrow { file(\"@DIR@/narrow.log\" template(\"${MESSAGE}\\n\") flush-lines(7)); };\n"
  "log { source(s_net); destination(d_wide); };\n"
  "log { source(s_net); destination(d_narrow); };\n";

/* flush-lines() bounds a batch but never holds a message back waiting for
 * more; small batches keep every message, in order. */
static void
test_flush_lines (SlTestEnv *env, gconstpointer data)
{
  guint16 port = start_with_port (env, flush_config);
  g_autofree gchar *wide = sl_test_path (env, "wide.log");
  g_autofree gchar *narrow = sl_test_path (env, "narrow.log");
  if (!port || !send_lines (port, "app", 1, 1, 0) || !sl_test_wait_lines (env, wide, 1))
    return;
  if (!send_lines (port, "app", 2, 2999, 0) || !sl_test_wait_lines (env, narrow, 3000)
      || !sl_test_wait_lines (env, wide, 3000))
    return;
  assert_numbered (narrow, 1, 3000);
  assert_numbered (wide, 1, 3000);
}

static const gchar gzip_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_file { file(\"@DIR@/zipped.gz\" template(\"${MESSAGE}\\n\") gzip-level(6)); };\n"
  "log { source(s_net); destination(d_file); };\n";

/* The text of a file of gzip members, as zcat reads it, and how many
 * whole members it holds; NULL when it is not gzip. */
static gchar *
gunzip_members (const gchar *path, guint *members)
{
  g_autofree gchar *data = NULL;
  gsize len = 0;
  z_stream z = { 0 };
  GString *out = g_string_new (NULL);
  gchar chunk[4096];

  *members = 0;
  if (!g_file_get_contents (path, &data, &len, NULL) || inflateInit2 (&z, 15 + 16) != Z_OK)
    {
      g_string_free (out, TRUE);
      return NULL;
    }
  z.next_in = (Bytef *) data;
  z.avail_in = len;
  while (z.avail_in)
    {
      z.next_out = (Bytef *) chunk;
      z.avail_out = sizeof chunk;
      gint ret = inflate (&z, Z_NO_FLUSH);
      g_string_append_len (out, chunk, (gssize) (sizeof chunk - z.avail_out));
      if (ret == Z_STREAM_END)
        {
          (*members)++;
          inflateReset (&z);
        }
      else if (ret != Z_OK)
        break;
    }
  inflateEnd (&z);
  return g_string_free (out, z.avail_in != 0);
}

static gboolean
wait_gunzipped (const gchar *path, const gchar *needle)
{
  gint64 deadline = g_get_monotonic_time () + SL_TEST_DEADLINE_MS * 1000;
  while (g_get_monotonic_time () < deadline)
    {
      guint members;
      g_autofree gchar *text = gunzip_members (path, &members);
      if (text && strstr (text, needle))
        return TRUE;
      g_usleep (20 * 1000);
    }
  g_test_fail_printf ("%s never held '%s' once unzipped", path, needle);
  return FALSE;
}

/* gzip-level(): each batch a whole gzip member, so that the file reads
 * to its last message while it is written, the members one after another
 * the text the plain file would hold. */
static void
test_gzip_level (SlTestEnv *env, gconstpointer data)
{
  guint16 port = start_with_port (env, gzip_config);
  g_autofree gchar *path = sl_test_path (env, "zipped.gz");
  if (!port || !send_lines (port, "app", 1, 5, 0) || !wait_gunzipped (path, "line 0005\n"))
    return;
  if (!send_lines (port, "app", 6, 3, 0) || !wait_gunzipped (path, "line 0008\n"))
    return;
  guint members = 0;
  g_autofree gchar *text = gunzip_members (path, &members);
  g_assert_cmpstr (text, ==, "line 0001\nline 0002\nline 0003\nline 0004\nline 0005\nline 0006\nline 0007\nline 0008\n");
  g_assert_cmpuint (members, >=, 2);
}

static const gchar disk_full_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_file { file(\"@DIR@/full/out.log\" template(\"${MESSAGE}\\n\") time-reopen(1)); };\n"
  "log { source(s_net); destination(d_file); flags(flow-control); };\n";

/* Fills the file system at path until a write fails, then frees room
 * bytes again; FALSE when it was not full afterwards. */
static gboolean
fill_up (const gchar *path, gsize room)
{
  gint fd = open (path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0)
    return FALSE;
  gchar block[4096];
  memset (block, 'f', sizeof block);
  gssize n;
  while ((n = write (fd, block, sizeof block)) > 0)
    ;
  gboolean full = n < 0 && errno == ENOSPC;
  struct stat st;
  full = full && fstat (fd, &st) == 0 && ftruncate (fd, st.st_size - (off_t) room) == 0;
  close (fd);
  return full;
}

static void
disk_full_on (SlTestEnv *env, const gchar *mountpoint)
{
  g_autofree gchar *filler = g_build_filename (mountpoint, "filler", NULL);
  g_autofree gchar *path = g_build_filename (mountpoint, "out.log", NULL);
  /* one page free: the first messages fit, one is cut, the rest wait */
  if (!fill_up (filler, 4096))
    {
      g_test_fail_printf ("cannot fill %s", mountpoint);
      return;
    }
  guint16 port = start_with_port (env, disk_full_config);
  if (!port || !send_lines (port, "app", 1, 200, 70) || !sl_test_wait_stderr (env, "destination cannot write now"))
    return;
  /* a few retries, time-reopen(1) apart, while the disk stays full */
  g_usleep (2500 * 1000);
  g_assert_true (sl_test_daemon_alive (env));
  g_assert_cmpint (sl_test_stat (env, "destination", "d_file", "dropped"), ==, 0);
  g_assert_cmpint (sl_test_stat (env, "destination", "d_file", "written"), <, 200);
  unlink (filler);
  if (!sl_test_wait_lines (env, path, 200) || !sl_test_wait_stderr (env, "destination writes again"))
    return;
  assert_numbered_padded (path, 1, 200, 70);
  g_autofree gchar *log = sl_test_daemon_stderr (env);
  g_autofree gchar *reason = g_strdup_printf ("reason='cannot write to %s: ", path);
  g_assert_cmpuint (count_occurrences (log, "destination cannot write now"), ==, 1);
  g_assert_cmpuint (count_occurrences (log, reason), ==, 1);
  g_assert_cmpuint (count_occurrences (log, "destination writes again"), ==, 1);
}

static const gchar heal_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_file { file(\"@DIR@/full/out.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_net); destination(d_file); flags(flow-control); };\n";

/* With the default time-reopen() (a minute), room that comes back is used
 * within the first few retries of the back-off; the fault and its end are
 * logged once each, the end with what waited. */
static void
disk_heals_on (SlTestEnv *env, const gchar *mountpoint)
{
  g_autofree gchar *filler = g_build_filename (mountpoint, "filler", NULL);
  g_autofree gchar *path = g_build_filename (mountpoint, "out.log", NULL);
  if (!fill_up (filler, 4096))
    {
      g_test_fail_printf ("cannot fill %s", mountpoint);
      return;
    }
  guint16 port = start_with_port (env, heal_config);
  if (!port || !send_lines (port, "app", 1, 200, 70) || !sl_test_wait_stderr (env, "destination cannot write now"))
    return;
  unlink (filler);
  if (!sl_test_wait_lines (env, path, 200) || !sl_test_wait_stderr (env, "destination writes again"))
    return;
  assert_numbered_padded (path, 1, 200, 70);
  g_assert_cmpint (sl_test_stat (env, "destination", "d_file", "dropped"), ==, 0);
  g_autofree gchar *log = sl_test_daemon_stderr (env);
  g_autofree gchar *reason = g_strdup_printf ("reason='cannot write to %s: ", path);
  g_assert_cmpuint (count_occurrences (log, reason), ==, 1);
  g_assert_cmpuint (count_occurrences (log, "destination cannot write now"), ==, 1);
  g_assert_cmpuint (count_occurrences (log, "destination writes again"), ==, 1);
  const gchar *healed = strstr (log, "destination writes again");
  g_test_message ("%.*s", (gint) strcspn (healed, "\n"), healed);
  g_assert_null (strstr (healed, "queued='0'"));
}

/* A real full disk: a 64 KiB tmpfs. */
static void
on_small_tmpfs (SlTestEnv *env, void (*body) (SlTestEnv *env, const gchar *mountpoint))
{
  g_autofree gchar *mountpoint = sl_test_path (env, "full");
  if (mkdir (mountpoint, 0700) < 0)
    {
      g_test_fail_printf ("cannot make %s", mountpoint);
      return;
    }
  if (mount ("tmpfs", mountpoint, "tmpfs", 0, "size=64k") < 0)
    {
      g_test_skip ("cannot mount a tmpfs here (root and mount rights needed); /file/dev-full covers the error path");
      return;
    }
  body (env, mountpoint);
  if (env->pid)
    sl_test_daemon_stop (env, SIGTERM);
  if (umount2 (mountpoint, MNT_DETACH) < 0)
    g_test_fail_printf ("cannot unmount %s: %s", mountpoint, g_strerror (errno));
}

/* Messages under flow control are held, the error is logged once, none is
 * torn or lost when space returns. */
static void
test_disk_full (SlTestEnv *env, gconstpointer data)
{
  on_small_tmpfs (env, disk_full_on);
}

static void
test_disk_full_heals (SlTestEnv *env, gconstpointer data)
{
  on_small_tmpfs (env, disk_heals_on);
}

static const gchar dev_full_config[] =
  "@version: 4.0\n"
  "source s_flow { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "source s_lossy { tcp(ip(\"127.0.0.1\") port(@PORT2@)); };\n"
  "destination d_held { file(\"/dev/full\" time-reopen(1)); };\n"
  "destination d_dropped { file(\"/dev/full\" time-reopen(1) log-fifo-size(50) flush-lines(10) stall-timeout(0)); };\n"
  "destination d_fine { file(\"@DIR@/fine.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_flow); destination(d_held); destination(d_fine); flags(flow-control); };\n"
  "log { source(s_lossy); destination(d_dropped); };\n";

/* /dev/full fails every write with ENOSPC. With flow control messages are
 * held; without it the queue fills and the rest is dropped and counted.
 * The daemon keeps running, other destinations keep writing, and the
 * error is logged once per destination. */
static void
test_dev_full (SlTestEnv *env, gconstpointer data)
{
  guint16 port = sl_test_free_port (SOCK_STREAM);
  guint16 port2 = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *port_str = port_text (port);
  g_autofree gchar *port2_str = port_text (port2);
  if (!port || !port2 || !sl_test_write_config (env, dev_full_config, "PORT", port_str, "PORT2", port2_str, NULL)
      || !sl_test_daemon_start (env))
    return;
  g_autofree gchar *fine = sl_test_path (env, "fine.log");
  if (!send_lines (port, "app", 1, 100, 0) || !send_lines (port2, "app", 1, 200, 0)
      || !sl_test_wait_lines (env, fine, 100)
      || !sl_test_wait_stat (env, "destination", "d_dropped", "processed", 200))
    return;
  g_usleep (2500 * 1000);
  g_assert_true (sl_test_daemon_alive (env));
  g_assert_cmpint (sl_test_stat (env, "destination", "d_held", "written"), ==, 0);
  g_assert_cmpint (sl_test_stat (env, "destination", "d_held", "dropped"), ==, 0);
  g_assert_cmpint (sl_test_stat (env, "destination", "d_held", "queued"), ==, 100);
  /* what the queue and the batch being tried hold stays; the rest is counted */
  gint64 dropped = sl_test_stat (env, "destination", "d_dropped", "dropped");
  g_assert_cmpint (dropped, >=, 200 - 50 - 10);
  g_assert_cmpint (dropped + sl_test_stat (env, "destination", "d_dropped", "queued"), ==, 200);
  g_assert_cmpint (sl_test_stat (env, "destination", "d_dropped", "written"), ==, 0);
  g_autofree gchar *log = sl_test_daemon_stderr (env);
  g_assert_cmpuint (count_occurrences (log, "destination cannot write now"), ==, 2);
  g_assert_cmpuint (count_occurrences (log, "reason='cannot write to /dev/full: "), ==, 2);
  g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
}

static const gchar throttle_config[] =
  "@version: 4.0\n"
  "source s_net { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "destination d_slow { file(\"@DIR@/slow.log\" template(\"${MESSAGE}\\n\") throttle(20)); };\n"
  "destination d_fast { file(\"@DIR@/fast.log\" template(\"${MESSAGE}\\n\")); };\n"
  "log { source(s_net); destination(d_slow); destination(d_fast); flags(flow-control); };\n";

/* throttle(20) lets a second's worth through at once and then 20 a
 * second: 60 messages take at least two seconds there (a lower bound a
 * slow machine cannot break), none is lost, and the destination next to
 * it is not slowed. */
static void
test_throttle (SlTestEnv *env, gconstpointer data)
{
  guint16 port = start_with_port (env, throttle_config);
  g_autofree gchar *slow = sl_test_path (env, "slow.log");
  g_autofree gchar *fast = sl_test_path (env, "fast.log");
  gint64 start = g_get_monotonic_time ();
  if (!port || !send_lines (port, "app", 1, 60, 0) || !sl_test_wait_lines (env, fast, 60)
      || !sl_test_wait_lines (env, slow, 60))
    return;
  gint64 took = g_get_monotonic_time () - start;
  g_assert_cmpint (took, >=, 1900 * 1000);
  assert_numbered (slow, 1, 60);
  assert_numbered (fast, 1, 60);
}

/* logrotate()'s own options are checked like any driver's, with the
 * place they were written. */
static void
test_logrotate_errors (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *zero = sl_test_refused_config (env,
    "@version: 4.0\n"
    "destination d { file(\"@DIR@/x.log\"\n"
    "  logrotate(enable(yes) size(0))); };\n"
    "log { destination(d); };\n", NULL);
  g_assert_nonnull (strstr (zero, "sluice.conf:3:"));
  g_assert_nonnull (strstr (zero, "option 'size' of logrotate() must be at least 1 byte, got '0'"));
  g_autofree gchar *typo = sl_test_refused_config (env,
    "@version: 4.0\n"
    "destination d { file(\"@DIR@/x.log\" logrotate(enable(yes) sise(1M))); };\n"
    "log { destination(d); };\n", NULL);
  g_assert_nonnull (strstr (typo, "sluice.conf:2:"));
  g_assert_nonnull (strstr (typo, "unknown option 'sise' in logrotate(); did you mean 'size'?"));
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/file/perm-owner", test_perm_owner);
  SL_TEST_ADD ("/file/macro-values-in-paths", test_macro_values_in_paths);
  SL_TEST_ADD ("/file/dated-paths", test_dated_paths);
  SL_TEST_ADD ("/file/gzip-level", test_gzip_level);
  SL_TEST_ADD ("/file/rename-sighup", test_rename_and_sighup);
  SL_TEST_ADD ("/file/rename-reopen", test_rename_and_reopen);
  SL_TEST_ADD ("/file/size-rotation", test_size_rotation);
  SL_TEST_ADD ("/file/max-size", test_max_size);
  SL_TEST_ADD ("/file/time-reap", test_time_reap);
  SL_TEST_ADD ("/file/flush-lines", test_flush_lines);
  SL_TEST_ADD ("/file/disk-full", test_disk_full);
  SL_TEST_ADD ("/file/disk-full-heals", test_disk_full_heals);
  SL_TEST_ADD ("/file/dev-full", test_dev_full);
  SL_TEST_ADD ("/file/throttle", test_throttle);
  SL_TEST_ADD ("/file/logrotate-errors", test_logrotate_errors);
  SL_TEST_ADD ("/file/refused-paths", test_refused_paths);
  return g_test_run ();
}
