/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog configurations written by others (tests/rsyslog-corpus, each
 * with its origin in ORIGIN.tsv), each checked by the real rsyslogd 8.2302
 * (-N1), by rsyslogd 8.2504 (Debian 13's, in the root of
 * tests/peers/trixie-root) and by sluiced (-s --config-format rsyslog).
 * The verdicts must be those of EXPECTED.tsv: a file that loads keeps loading, and a change
 * that makes one more load updates that file in the same commit
 * (SL_RSYSLOG_CORPUS_UPDATE=1 rewrites it from this run).
 *
 * Each file is checked as a copy in the test's folder with the folders a
 * package creates moved there: the include folder (so that the host's own
 * /etc/rsyslog.d is not read), the work folders and a file a service
 * writes. A snippet is checked where it is meant to be, in the include
 * folder of a main file (with the snippets it needs), and a main file whose
 * rules are in a snippet with that snippet (TOGETHER.tsv). What rsyslogd
 * then still refuses only because of the host (a user the distribution
 * creates, a data file shipped beside), or with a warning only, is counted
 * as accepted; the test's log shows what it printed. sluiced stops at its
 * first error: a line naming an account the host lacks is passed over and
 * the rest checked. */
#include "tests/functional/harness.h"

#include <string.h>

/* what a path of the corpus becomes in the test's folder: a folder, or an
 * empty file that a service writes before rsyslogd starts */
static const struct
{
  const gchar *path;
  const gchar *moved;
  gboolean file;
} moved_paths[] = {
  { "/etc/rsyslog.d", "rsyslog.d", FALSE },
  { "/var/spool/rsyslog", "spool", FALSE },
  { "/var/lib/rsyslog", "lib", FALSE },
  { "/run/rsyslog/additional-log-sockets.conf", "additional-log-sockets.conf", TRUE }, /* openSUSE's */
};

/* what rsyslogd -N1 prints, failing, that does not refuse the file: the
 * host's lacks, and warnings (rsyslogd runs the file) */
static const gchar *const tolerated[] = {
  "ID for user '",                          /* a user the distribution creates */
  "ID for group '",
  "lookup table file '",                    /* a data file shipped beside */
  "could not be accessed: No such file",    /* a certificate fetched at install */
  "probably does not exist - directive ignored", /* a work folder made by hand */
  "DNS error",                              /* an example host name */
  "WON'T be added to ACL",
  "adding allowed sender entry",
  "warnings occurred in file",
  "config validation run",                  /* the banner */
};

/* A file's verdicts: a NULL-terminated array in EXPECTED.tsv's column order. */
enum
{
  V_RSYSLOGD,  /* 8.2302's: "accepts" or "rejects" */
  V_SLUICED,
  V_ERROR,  /* sluiced's first error, or "" */
  V_RSYSLOGD_2504,
  N_VERDICTS
};

static gchar *root;           /* the unpacked rsyslog, or NULL */
static gchar *trixie;         /* the Debian 13 root, or NULL */
static GHashTable *expected;  /* file name -> its verdicts */
static GHashTable *origins;   /* file name -> its other ORIGIN.tsv columns */
static GHashTable *together;  /* file name -> { MAIN, SNIPPET..., NULL }: what it is checked as */
static GHashTable *measured;  /* file name -> its verdicts in this run */

static gchar *
corpus_path (const gchar *name)
{
  return g_build_filename (g_getenv ("SL_TOP_SRCDIR"), "tests/rsyslog-corpus", name, NULL);
}

static GHashTable *
read_table (const gchar *name, guint columns)
{
  g_autofree gchar *path = corpus_path (name);
  return sl_test_read_tsv (path, columns);
}

/* The corpus file name with the moved folders, written as the test's
 * folder's file target. */
static gboolean
moved_copy (SlTestEnv *env, const gchar *name, const gchar *target)
{
  g_autofree gchar *source = corpus_path (name);
  g_autofree gchar *text = NULL;

  if (!g_file_get_contents (source, &text, NULL, NULL))
    return FALSE;
  GString *copy = g_string_new (text);
  for (guint i = 0; i < G_N_ELEMENTS (moved_paths); i++)
    {
      g_autofree gchar *moved = sl_test_path (env, moved_paths[i].moved);
      if (moved_paths[i].file)
        g_file_set_contents (moved, "", 0, NULL);
      else
        g_mkdir_with_parents (moved, 0755);
      g_string_replace (copy, moved_paths[i].path, moved, 0);
    }
  g_autofree gchar *path = sl_test_path (env, target);
  gboolean written = g_file_set_contents (path, copy->str, -1, NULL);
  g_string_free (copy, TRUE);
  return written;
}

/* The file both daemons are given: the corpus file alone, or a main file
 * with snippets in its include folder (TOGETHER.tsv). */
static gchar *
prepare (SlTestEnv *env, const gchar *name)
{
  gchar **files = g_hash_table_lookup (together, name);
  if (!files)
    return moved_copy (env, name, name) ? sl_test_path (env, name) : NULL;
  if (!moved_copy (env, files[0], files[0]))
    return NULL;
  for (guint i = 1; files[i]; i++)
    {
      g_autofree gchar *included = g_build_filename ("rsyslog.d", files[i], NULL);
      if (!moved_copy (env, files[i], included))
        return NULL;
    }
  return sl_test_path (env, files[0]);
}

static gboolean
is_tolerated (const gchar *line)
{
  for (guint i = 0; i < G_N_ELEMENTS (tolerated); i++)
    if (strstr (line, tolerated[i]))
      return TRUE;
  return FALSE;
}

/* The verdict of an rsyslogd -N1 run by argv; what it prints goes to the
 * test's log after who (the version). */
static gchar *
rsyslogd_verdict (const gchar *who, const gchar *const *argv)
{
  g_autofree gchar *out = NULL;
  g_autofree gchar *err = NULL;

  gint status = sl_test_run_argv (argv, &out, &err);
  if (status == 0)
    return g_strdup ("accepts");
  if (status != 1)
    {
      g_test_fail_printf ("rsyslogd %s -N1 exited with %d:\n%s", who, status, err);
      return g_strdup ("rejects");
    }
  gboolean refused = FALSE;
  g_auto (GStrv) lines = g_strsplit (err, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      if (!*lines[i])
        continue;
      if (!is_tolerated (lines[i]))
        refused = TRUE;
      g_test_message ("rsyslogd %s: %s", who, lines[i]);
    }
  return g_strdup (refused ? "rejects" : "accepts");
}

static gchar *
verdict_8_2302 (SlTestEnv *env, const gchar *conf)
{
  g_autofree gchar *rsyslogd = g_build_filename (root, "usr/sbin/rsyslogd", NULL);
  g_autofree gchar *modules = g_build_filename (root, "usr/lib/x86_64-linux-gnu/rsyslog", NULL);
  g_autofree gchar *pid = sl_test_path (env, "rsyslogd.pid");
  const gchar *argv[] = { rsyslogd, "-M", modules, "-N1", "-f", conf, "-i", pid, NULL };
  return rsyslogd_verdict ("8.2302", argv);
}

/* rsyslogd 8.2504 runs in the Debian 13 root, on a copy of the test's
 * folder at the same path there, so that the paths the copied files name
 * are right inside the root too. */
static gchar *
verdict_8_2504 (SlTestEnv *env, const gchar *conf)
{
  g_autofree gchar *inside = g_build_filename (trixie, env->dir, NULL);
  g_autofree gchar *parent = g_path_get_dirname (inside);
  const gchar *copy[] = { "cp", "-a", env->dir, parent, NULL };
  g_autofree gchar *pid = sl_test_path (env, "rsyslogd-8.2504.pid");
  const gchar *argv[] = { "chroot", trixie, "/usr/sbin/rsyslogd", "-N1", "-f", conf, "-i", pid, NULL };
  gchar *verdict = NULL;

  if (g_mkdir_with_parents (parent, 0755) == 0 && sl_test_run_argv (copy, NULL, NULL) == 0)
    verdict = rsyslogd_verdict ("8.2504", argv);
  else
    {
      g_test_fail_printf ("the test's folder could not be copied into %s", parent);
      verdict = g_strdup ("rejects");
    }
  if (!sl_test_peer_stop (0, inside))
    g_test_fail_printf ("%s could not be removed", inside);
  return verdict;
}

/* what sluiced -s refuses, as rsyslogd -N1 does, only because of the
 * host: an account the distribution creates (Ubuntu's "syslog") */
static const gchar *const host_lacks[] = { "unknown user '", "unknown group '", "no user named '",
                                           "no group named '" };

/* When error (FILE:LINE:COLUMN: ...) says the host lacks what the line
 * names, that line of the copy in the test's folder is emptied, as the
 * tolerated lines of rsyslogd's are passed over; FALSE otherwise. */
static gboolean
pass_over_host_line (SlTestEnv *env, const gchar *error)
{
  gboolean host = FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (host_lacks); i++)
    host = host || strstr (error, host_lacks[i]);
  g_auto (GStrv) place = g_strsplit (error, ":", 3);
  if (!host || g_strv_length (place) < 3)
    return FALSE;
  g_autofree gchar *path = sl_test_path (env, place[0]);
  guint64 line = g_ascii_strtoull (place[1], NULL, 10);
  g_autofree gchar *text = NULL;
  if (!line || !g_file_get_contents (path, &text, NULL, NULL))
    return FALSE;
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  if (line > g_strv_length (lines))
    return FALSE;
  g_test_message ("sluiced: passed over, as the host lacks it: %s", error);
  lines[line - 1][0] = '\0';
  g_autofree gchar *joined = g_strjoinv ("\n", lines);
  return g_file_set_contents (path, joined, -1, NULL);
}

/* When error says a certificate or key named in the file is not on the
 * host (one fetched at install, as rsyslogd's "could not be accessed" is
 * passed over), a self-signed one is made there by openssl; FALSE
 * otherwise. */
static gboolean
provide_certificate (SlTestEnv *env, const gchar *error)
{
  g_autoptr (GRegex) missing = g_regex_new ("(ca-file|cert-file|key-file)\\(\\) '([^']+)': no such file", 0, 0,
                                            NULL);
  g_autoptr (GMatchInfo) match = NULL;
  if (!g_regex_match (missing, error, 0, &match))
    return FALSE;
  g_autofree gchar *option = g_match_info_fetch (match, 1);
  g_autofree gchar *name = g_match_info_fetch (match, 2);
  g_autofree gchar *path = g_path_is_absolute (name) ? g_strdup (name) : sl_test_path (env, name);
  g_autofree gchar *dir = g_path_get_dirname (path);
  g_autofree gchar *scratch = sl_test_path (env, "made-here.pem");
  gboolean key = g_str_equal (option, "key-file");
  const gchar *argv[] = { "/usr/bin/openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                          "ec_paramgen_curve:prime256v1", "-nodes", "-subj", "/CN=made by the test", "-days", "2",
                          "-keyout", key ? path : scratch, "-out", key ? scratch : path, NULL };
  gint status = -1;
  if (g_mkdir_with_parents (dir, 0700) != 0
      || !g_spawn_sync (NULL, (gchar **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL, NULL,
                        NULL, NULL, NULL, &status, NULL)
      || !g_spawn_check_wait_status (status, NULL))
    return FALSE;
  g_test_message ("sluiced: made %s, which the host lacks: %s", path, error);
  return TRUE;
}

/* sluiced -s's verdict and its first error, without the test's folder. */
static gchar *
sluiced_verdict (SlTestEnv *env, const gchar *conf, gchar **first_error)
{
  g_autofree gchar *err = NULL;
  gint status = sl_test_run_built ("daemon/sluiced", NULL, &err, "-s", "--config-format", "rsyslog", "-f", conf,
                                   "--module-path", sl_test_module_path (), NULL);
  *first_error = g_strdup ("");
  if (status == 0)
    return g_strdup ("accepts");
  g_auto (GStrv) lines = g_strsplit (err, "\n", -1);
  g_autofree gchar *prefix = g_strconcat (env->dir, "/", NULL);
  for (guint i = 0; lines[i]; i++)
    {
      const gchar *error = strstr (lines[i], "error: ");
      if (!error)
        continue;
      GString *line = g_string_new (error + strlen ("error: "));
      g_string_replace (line, prefix, "", 0);
      g_free (*first_error);
      *first_error = g_string_free (line, FALSE);
      break;
    }
  if (status == 1 && (pass_over_host_line (env, *first_error) || provide_certificate (env, *first_error)))
    {
      g_free (*first_error);
      return sluiced_verdict (env, conf, first_error);
    }
  return status == 1 ? g_strdup ("rejects") : g_strdup_printf ("exits with %d", status);
}

static void
test_file (SlTestEnv *env, gconstpointer data)
{
  const gchar *name = data;

  g_assert_true (g_hash_table_contains (origins, name));
  if (!root || !trixie)
    {
      g_test_skip (!root ? "rsyslog could not be unpacked (tests/peers/rsyslog-root)"
                         : "the Debian 13 root could not be made (tests/peers/trixie-root)");
      return;
    }
  g_autofree gchar *conf = prepare (env, name);
  if (!conf)
    {
      g_test_fail_printf ("%s (or the files TOGETHER.tsv names with it) could not be copied", name);
      return;
    }

  gchar **now = g_new0 (gchar *, N_VERDICTS + 1);
  now[V_RSYSLOGD] = verdict_8_2302 (env, conf);
  now[V_RSYSLOGD_2504] = verdict_8_2504 (env, conf);
  now[V_SLUICED] = sluiced_verdict (env, conf, &now[V_ERROR]);
  g_hash_table_replace (measured, g_strdup (name), now);
  if (*now[V_ERROR])
    g_test_message ("sluiced: %s", now[V_ERROR]);
  if (g_getenv ("SL_RSYSLOG_CORPUS_UPDATE"))
    return;

  gchar **was = g_hash_table_lookup (expected, name);
  if (!was)
    {
      g_test_fail_printf ("%s has no row in tests/rsyslog-corpus/EXPECTED.tsv (rsyslogd %s, 8.2504 %s, sluiced %s: %s)",
                          name, now[V_RSYSLOGD], now[V_RSYSLOGD_2504], now[V_SLUICED], now[V_ERROR]);
      return;
    }
  if (g_strcmp0 (was[V_ERROR], now[V_ERROR]) != 0)
    g_test_message ("sluiced's first error was: %s", was[V_ERROR]);
  if (g_strcmp0 (was[V_RSYSLOGD], now[V_RSYSLOGD]) != 0 || g_strcmp0 (was[V_RSYSLOGD_2504], now[V_RSYSLOGD_2504]) != 0
      || g_strcmp0 (was[V_SLUICED], now[V_SLUICED]) != 0)
    g_test_fail_printf ("%s: rsyslogd %s, 8.2504 %s and sluiced %s, where EXPECTED.tsv has rsyslogd %s, 8.2504 %s and "
                        "sluiced %s (%s)", name, now[V_RSYSLOGD], now[V_RSYSLOGD_2504], now[V_SLUICED], was[V_RSYSLOGD],
                        was[V_RSYSLOGD_2504], was[V_SLUICED], now[V_ERROR]);
}

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const gchar *const *) a, *(const gchar *const *) b);
}

/* Counts, and with SL_RSYSLOG_CORPUS_UPDATE the new EXPECTED.tsv. A file
 * counts as accepted by rsyslogd when 8.2302 accepts it, as before 8.2504
 * was asked; the files the two versions judge apart are listed. 8.2504's
 * column is the last one, so that a row still starts with what
 * test-rsyslog-differential reads: rsyslogd's and sluiced's verdicts. */
static void
summarize (GPtrArray *names)
{
  guint files = 0, by_rsyslogd = 0, by_both = 0, by_sluiced_only = 0, by_2504 = 0;
  GString *table = g_string_new ("file\trsyslogd\tsluiced\tsluiced's first error\trsyslogd 8.2504\n");
  GString *apart = g_string_new ("");

  for (guint i = 0; i < names->len; i++)
    {
      gchar **v = g_hash_table_lookup (measured, g_ptr_array_index (names, i));
      if (!v)
        continue;
      files++;
      gboolean rs = g_str_equal (v[V_RSYSLOGD], "accepts");
      gboolean sl = g_str_equal (v[V_SLUICED], "accepts");
      by_rsyslogd += rs;
      by_both += rs && sl;
      by_sluiced_only += !rs && sl;
      by_2504 += g_str_equal (v[V_RSYSLOGD_2504], "accepts");
      if (!g_str_equal (v[V_RSYSLOGD], v[V_RSYSLOGD_2504]))
        g_string_append_printf (apart, " %s (8.2302 %s)", (const gchar *) g_ptr_array_index (names, i), v[V_RSYSLOGD]);
      g_string_append_printf (table, "%s\t%s\t%s\t%s\t%s\n", (const gchar *) g_ptr_array_index (names, i),
                              v[V_RSYSLOGD], v[V_SLUICED], v[V_ERROR], v[V_RSYSLOGD_2504]);
    }
  if (files)
    g_print ("# rsyslog corpus: %u files, rsyslogd accepts %u, sluiced accepts %u of those (%.0f%%); "
             "sluiced accepts %u that rsyslogd refuses\n", files, by_rsyslogd, by_both,
             by_rsyslogd ? 100.0 * by_both / by_rsyslogd : 0.0, by_sluiced_only);
  if (files)
    g_print ("# rsyslog corpus: rsyslogd 8.2504 accepts %u; the versions differ on%s\n", by_2504,
             apart->len ? apart->str : " none");
  if (files && g_getenv ("SL_RSYSLOG_CORPUS_UPDATE"))
    {
      g_autofree gchar *path = corpus_path ("EXPECTED.tsv");
      if (!g_file_set_contents (path, table->str, -1, NULL))
        g_printerr ("cannot write %s\n", path);
    }
  g_string_free (table, TRUE);
  g_string_free (apart, TRUE);
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  root = sl_test_rsyslog_root ();
  trixie = sl_test_trixie_root ();
  expected = read_table ("EXPECTED.tsv", N_VERDICTS + 1);
  origins = read_table ("ORIGIN.tsv", 2);
  together = read_table ("TOGETHER.tsv", 3);
  measured = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_strfreev);

  g_autofree gchar *folder = corpus_path (NULL);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  GDir *dir = g_dir_open (folder, 0, NULL);
  const gchar *entry;
  while (dir && (entry = g_dir_read_name (dir)))
    if (g_str_has_suffix (entry, ".conf"))
      g_ptr_array_add (names, g_strdup (entry));
  if (dir)
    g_dir_close (dir);
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree gchar *path = g_strconcat ("/rsyslog-corpus/", (const gchar *) g_ptr_array_index (names, i), NULL);
      g_test_add (path, SlTestEnv, g_ptr_array_index (names, i), sl_test_env_setup, test_file, sl_test_env_teardown);
    }
  gint result = g_test_run ();
  summarize (names);

  g_ptr_array_unref (names);
  g_hash_table_unref (measured);
  g_hash_table_unref (together);
  g_hash_table_unref (origins);
  g_hash_table_unref (expected);
  g_free (root);
  g_free (trixie);
  return result;
}
