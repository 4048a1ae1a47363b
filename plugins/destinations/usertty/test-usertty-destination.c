/* SPDX-License-Identifier: GPL-2.0-or-later */
/* usertty() on the real daemon with real pseudo-terminals: the test logs
 * two users in on two ptys in a utmp file of its own, and reads from the
 * master side what the daemon wrote on the terminals. */
#include "tests/functional/harness.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <utmpx.h>

typedef struct
{
  gint master;
  gint slave;     /* kept open by the test, so the terminal stays up */
  gchar *line;    /* "pts/N" */
} Pty;

static gboolean
pty_open (Pty *p)
{
  p->master = posix_openpt (O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (p->master < 0 || grantpt (p->master) < 0 || unlockpt (p->master) < 0)
    {
      g_test_fail_printf ("cannot make a pseudo-terminal: %s", g_strerror (errno));
      return FALSE;
    }
  const gchar *name = ptsname (p->master);
  p->slave = name ? open (name, O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK) : -1;
  if (p->slave < 0 || !g_str_has_prefix (name, "/dev/"))
    {
      g_test_fail_printf ("cannot open the pseudo-terminal's slave");
      return FALSE;
    }
  p->line = g_strdup (name + strlen ("/dev/"));
  return TRUE;
}

static void
pty_close (Pty *p)
{
  if (p->master > 0)
    close (p->master);
  if (p->slave > 0)
    close (p->slave);
  g_free (p->line);
}

/* Logs user in on line in the utmp file at path. */
static gboolean
utmp_login (const gchar *path, const gchar *user, const gchar *line, pid_t pid)
{
  struct utmpx u = { 0 };
  u.ut_type = USER_PROCESS;
  u.ut_pid = pid;
  g_strlcpy (u.ut_user, user, sizeof u.ut_user);
  strncpy (u.ut_line, line, sizeof u.ut_line);
  strncpy (u.ut_id, line + strlen (line) - MIN (strlen (line), sizeof u.ut_id), sizeof u.ut_id);
  u.ut_tv.tv_sec = (gint32) (g_get_real_time () / G_USEC_PER_SEC);
  if (utmpxname (path) < 0)
    return FALSE;
  setutxent ();
  gboolean ok = pututxline (&u) != NULL;
  endutxent ();
  if (!ok)
    g_test_fail_printf ("cannot write %s: %s", path, g_strerror (errno));
  return ok;
}

/* Reads the master side until it shows needle, or the deadline. */
static gboolean
pty_wait_for (Pty *p, GString *seen, const gchar *needle)
{
  gint64 deadline = g_get_monotonic_time () + SL_TEST_DEADLINE_MS * 1000;
  while (!strstr (seen->str, needle))
    {
      gint64 left = (deadline - g_get_monotonic_time ()) / 1000;
      struct pollfd pfd = { .fd = p->master, .events = POLLIN };
      if (left <= 0 || poll (&pfd, 1, (gint) left) <= 0)
        {
          g_test_fail_printf ("the terminal %s never showed '%s'; it showed '%s'", p->line, needle, seen->str);
          return FALSE;
        }
      gchar buf[4096];
      gssize n = read (p->master, buf, sizeof buf);
      if (n > 0)
        g_string_append_len (seen, buf, n);
    }
  return TRUE;
}

static const gchar config[] =
  "@version: 4.0\n"
  "source s_one { tcp(ip(\"127.0.0.1\") port(@ONE@) keep-hostname(yes)); };\n"
  "source s_all { tcp(ip(\"127.0.0.1\") port(@ALL@)); };\n"
  "destination d_one { usertty(\"testuser\" utmp-file(\"@DIR@/utmp\")); };\n"
  "destination d_all { usertty(\"*\" utmp-file(\"@DIR@/utmp\") template(\"to all: ${MESSAGE}\\r\\n\")); };\n"
  "log { source(s_one); destination(d_one); };\n"
  "log { source(s_all); destination(d_all); };\n";

static void
run (SlTestEnv *env, Pty *mine, Pty *theirs)
{
  g_autofree gchar *utmp = sl_test_path (env, "utmp");
  guint16 one = sl_test_free_port (SOCK_STREAM);
  guint16 all = sl_test_free_port (SOCK_STREAM);
  g_autofree gchar *one_str = g_strdup_printf ("%u", one);
  g_autofree gchar *all_str = g_strdup_printf ("%u", all);
  if (!pty_open (mine) || !pty_open (theirs) || !g_file_set_contents (utmp, "", 0, NULL)
      || !utmp_login (utmp, "testuser", mine->line, getpid ())
      || !utmp_login (utmp, "otheruser", theirs->line, getpid ()) || !one || !all
      || !sl_test_write_config (env, config, "ONE", one_str, "ALL", all_str, NULL) || !sl_test_daemon_start (env))
    return;

  /* to one user: only that user's terminal shows it, in syslogd's form */
  g_autoptr (GString) seen = g_string_new (NULL);
  if (!sl_test_tcp_send (one, "<8>Oct 11 22:14:15 myhost one[7]: the disk is on fire\n")
      || !pty_wait_for (mine, seen, "the disk is on fire"))
    return;
  g_assert_true (g_regex_match_simple ("^Oct 11 22:14:15 myhost one\\[7\\]: the disk is on fire\\r",
                                       seen->str, 0, 0));
  /* to everyone: both terminals */
  g_autoptr (GString) also = g_string_new (NULL);
  g_string_truncate (seen, 0);
  if (!sl_test_tcp_send (all, "<8>Oct 11 22:14:16 myhost all[7]: going down\n")
      || !pty_wait_for (mine, seen, "to all: going down") || !pty_wait_for (theirs, also, "to all: going down"))
    return;
  /* the first message never reached the other user */
  g_assert_null (strstr (also->str, "the disk is on fire"));

  /* a terminal that cannot take more (nobody reads it) is skipped: the
   * other one still gets every message */
  gchar block[4096];
  memset (block, '.', sizeof block);
  while (write (mine->slave, block, sizeof block) > 0)
    ;
  g_string_truncate (also, 0);
  for (guint i = 0; i < 3; i++)
    {
      g_autofree gchar *line = g_strdup_printf ("<8>Oct 11 22:14:17 myhost all[7]: round %u\n", i);
      g_autofree gchar *needle = g_strdup_printf ("to all: round %u", i);
      if (!sl_test_tcp_send (all, line) || !pty_wait_for (theirs, also, needle))
        return;
    }
  g_assert_true (sl_test_daemon_alive (env));
  /* the terminal has the text before the writer counts it */
  g_assert_true (sl_test_wait_stat (env, "destination", "d_all", "written", 4));
}

static void
test_usertty (SlTestEnv *env, gconstpointer data)
{
  Pty mine = { -1, -1, NULL }, theirs = { -1, -1, NULL };
  run (env, &mine, &theirs);
  pty_close (&mine);
  pty_close (&theirs);
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  SL_TEST_ADD ("/usertty/terminals", test_usertty);
  return g_test_run ();
}
