/* SPDX-License-Identifier: GPL-2.0-or-later */
/* $(slog) read by syslog-ng 4.8's own tools (Debian 13's
 * syslog-ng-mod-slog in the root of tests/peers/trixie-root): slogkey
 * makes the host key, sluiced writes the log with it across a restart,
 * and slogverify, given the first host key and the MAC file, restores
 * every message and finds the log whole; a line changed afterwards it
 * finds. With a key file that is not one, messages are written in clear
 * text, as syslog-ng writes them. */
#include "tests/functional/harness.h"

#include <stdio.h>
#include <string.h>

static gchar *trixie;   /* the Debian 13 root, or NULL */

static const gchar config[] =
  "@version: 4.8\n"
  "source s_in { file(\"@DIR@/in.log\" flags(no-parse) follow-freq(0.1)); };\n"
  "destination d_out { file(\"@SLOG@/out.log\"\n"
  "  template(\"$(slog --key-file @SLOG@/host.key --mac-file @SLOG@/mac.dat $MSG)\\n\")); };\n"
  "log { source(s_in); destination(d_out); flags(flow-control); };\n";

/* A tool of syslog-ng 4.8 in the root on files of the folder inside it;
 * its exit status. */
static gint
run_in_root (const gchar *const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (gpointer) "chroot");
  g_ptr_array_add (argv, trixie);
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_autofree gchar *out = NULL;
  g_autofree gchar *err = NULL;
  gint status = sl_test_run_argv ((const gchar *const *) argv->pdata, &out, &err);
  g_test_message ("%s: exit %d\n%s%s", args[0], status, out ? out : "", err ? err : "");
  return status;
}

/* text at the end of in.log, the file staying the same file */
static gboolean
append (SlTestEnv *env, const gchar *text)
{
  g_autofree gchar *path = sl_test_path (env, "in.log");
  FILE *f = fopen (path, "a");
  gboolean ok = f && fputs (text, f) >= 0;
  return f && fclose (f) == 0 && ok;
}

/* The lines of in.log sent through sluiced until out.log has n lines. */
static gboolean
log_through (SlTestEnv *env, const gchar *slog, const gchar *text, guint n)
{
  g_autofree gchar *out = g_build_filename (slog, "out.log", NULL);
  gboolean ok = append (env, text) && sl_test_write_config (env, config, "SLOG", slog, NULL)
                && sl_test_daemon_start (env) && sl_test_wait_lines (env, out, n);
  if (ok)
    g_assert_cmpint (sl_test_daemon_stop (env, SIGTERM), ==, 0);
  return ok;
}

static void
test_verified (SlTestEnv *env, gconstpointer data)
{
  if (!trixie)
    {
      g_test_skip ("the Debian 13 root could not be made (tests/peers/trixie-root)");
      return;
    }
  g_autofree gchar *slog = g_build_filename (trixie, "tmp", "sluice-slog-XXXXXX", NULL);
  g_assert_nonnull (g_mkdtemp (slog));
  const gchar *inside = slog + strlen (trixie);
  g_autofree gchar *master = g_build_filename (inside, "master.key", NULL);
  g_autofree gchar *host = g_build_filename (inside, "host.key", NULL);
  g_autofree gchar *first = g_build_filename (inside, "host.key.0", NULL);
  g_autofree gchar *mac = g_build_filename (inside, "mac.dat", NULL);
  g_autofree gchar *out = g_build_filename (inside, "out.log", NULL);
  g_autofree gchar *plain = g_build_filename (inside, "plain.log", NULL);
  const gchar *make_master[] = { "/usr/bin/slogkey", "-m", master, NULL };
  const gchar *derive[] = { "/usr/bin/slogkey", "-d", master, "00:16:3e:12:34:56", "SN-0815", host, NULL };
  const gchar *keep_first[] = { "/bin/cp", host, first, NULL };
  const gchar *verify[] = { "/usr/bin/slogverify", "-k", first, "-m", mac, out, plain, NULL };

  if (run_in_root (make_master) == 0 && run_in_root (derive) == 0 && run_in_root (keep_first) == 0
      && log_through (env, slog, "first message\nsecond, with ünïcode and a\ttab\nthird\n", 3)
      && log_through (env, slog, "fourth, after a restart\nfifth\n", 5))
    {
      g_assert_cmpint (run_in_root (verify), ==, 0);
      g_autofree gchar *path = g_build_filename (slog, "plain.log", NULL);
      g_autofree gchar *restored = sl_test_read_file (path);
      g_assert_cmpstr (restored, ==,
                       "00000000000000000000: first message\n"
                       "00000000000000000001: second, with ünïcode and a\ttab\n"
                       "00000000000000000002: third\n"
                       "00000000000000000003: fourth, after a restart\n"
                       "00000000000000000004: fifth\n");

      /* one changed character in the third line */
      g_autofree gchar *log_path = g_build_filename (slog, "out.log", NULL);
      g_autofree gchar *text = sl_test_read_file (log_path);
      gchar *third = strchr (strchr (text, '\n') + 1, '\n') + 1;
      gchar *colon = strchr (third, ':');
      colon[5] = colon[5] == 'A' ? 'B' : 'A';
      g_assert_true (g_file_set_contents (log_path, text, -1, NULL));
      g_assert_cmpint (run_in_root (verify), !=, 0);
    }
  g_assert_true (sl_test_peer_stop (0, slog));
}

/* A key file that is not a host key: syslog-ng 4.8 warns and writes each
 * message in clear text, and so does sluiced */
static void
test_bad_key_clear_text (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *key = sl_test_path (env, "host.key");
  g_autofree gchar *in = sl_test_path (env, "in.log");
  g_autofree gchar *out = sl_test_path (env, "out.log");
  g_assert_true (g_file_set_contents (key, "not a key", -1, NULL));
  g_assert_true (g_file_set_contents (in, "first\nsecond\n", -1, NULL));
  g_assert_true (sl_test_write_config (env, config, "SLOG", env->dir, NULL));
  g_assert_true (sl_test_daemon_start (env));
  g_assert_true (sl_test_wait_stderr (env, "messages are written in clear text"));
  g_assert_true (sl_test_wait_lines (env, out, 2));
  g_autofree gchar *text = sl_test_read_file (out);
  g_assert_cmpstr (text, ==, "first\nsecond\n");
}

static void
test_usage_refused (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *err = sl_test_refused_config (env,
                                                  "source s { file(\"@DIR@/in.log\"); };\n"
                                                  "destination d { file(\"@DIR@/o\" template(\"$(slog $MSG)\")); };\n"
                                                  "log { source(s); destination(d); };\n", NULL);
  g_assert_nonnull (err);
  g_assert_nonnull (strstr (err, "$(slog) takes --key-file FILE --mac-file FILE"));
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  trixie = sl_test_trixie_root ();
  SL_TEST_ADD ("/slog/verified-by-slogverify", test_verified);
  SL_TEST_ADD ("/slog/bad-key-clear-text", test_bad_key_clear_text);
  SL_TEST_ADD ("/slog/usage-refused", test_usage_refused);
  gint result = g_test_run ();
  g_free (trixie);
  return result;
}
