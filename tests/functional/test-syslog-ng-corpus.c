/* SPDX-License-Identifier: GPL-2.0-or-later */
/* syslog-ng 4.x configurations written by others (tests/syslog-ng-corpus,
 * each with its origin in ORIGIN.tsv), and one probe of each SCL block
 * syslog-ng 4.8 ships (tests/syslog-ng-corpus/scl, written for this test),
 * each checked by syslog-ng 4.8.1 (Debian 13's, --syntax-only, in the root
 * of tests/peers/trixie-root) and by sluiced -s reading 4.8's SCL: Sluice's
 * include folder, then 4.8's /usr/share/syslog-ng/include of that root,
 * with 4.8's module folder as module-install-dir (its Python modules).
 * The verdicts must be those of EXPECTED.tsv: a file that loads keeps
 * loading, and a change that makes one more load updates that file in the
 * same commit (SL_SYSLOG_NG_CORPUS_UPDATE=1 rewrites it from this run).
 *
 * Each file is checked as a copy in the test's folder. What syslog-ng
 * refuses only because the host lacks it (a certificate, a key, an
 * included file the author kept beside) is made there, and the copy names
 * it there instead, until syslog-ng has nothing more of the kind to say;
 * sluiced is then given that same copy. */
#include "tests/functional/harness.h"

#include <string.h>

/* A file's verdicts: a NULL-terminated array in EXPECTED.tsv's column order. */
enum
{
  V_SYSLOG_NG,  /* "accepts", "rejects" or "exits with N" */
  V_SLUICED,
  V_ERROR,  /* sluiced's first error, or "" */
  N_VERDICTS
};

static gchar *trixie;         /* the Debian 13 root, or NULL */
static GHashTable *expected;  /* file name -> its verdicts */
static GHashTable *origins;   /* file name -> its other ORIGIN.tsv columns */
static GHashTable *measured;  /* file name -> its verdicts in this run */

/* What syslog-ng 4.8 says of a file the host lacks: the path is the
 * pattern's first group. */
static const gchar *const host_lacks[] = {
  "File \"(/[^\"]+)\" not found",
  "non existing regular file: (/[^ ]+) in ",
  "Include file/directory not found; filename='(/[^']+)'",
};

static gchar *
corpus_path (const gchar *name)
{
  return g_build_filename (g_getenv ("SL_TOP_SRCDIR"), "tests/syslog-ng-corpus", name, NULL);
}

static GHashTable *
read_table (const gchar *name, guint columns)
{
  g_autofree gchar *path = corpus_path (name);
  return sl_test_read_tsv (path, columns);
}

/* A file the host lacks, made at path in the test's folder: empty, or a
 * self-signed certificate or its key when the name says so (openssl). A
 * certificate and a key of the same stem (server.pem, server.key) are
 * made as a pair, whichever is asked for first, so that TLS options that
 * check the pair accept them. */
static gboolean
make_lacking (const gchar *wanted, const gchar *path)
{
  g_autofree gchar *dir = g_path_get_dirname (path);
  if (g_file_test (path, G_FILE_TEST_EXISTS))
    return TRUE;
  if (g_mkdir_with_parents (dir, 0700) != 0)
    return FALSE;
  gboolean key = g_str_has_suffix (wanted, ".key");
  gboolean cert = g_str_has_suffix (wanted, ".pem") || g_str_has_suffix (wanted, ".crt")
                  || g_str_has_suffix (wanted, ".cert");
  if (!key && !cert)
    return g_file_set_contents (path, "", 0, NULL);
  g_autofree gchar *stem = g_strndup (path, strrchr (path, '.') - path);
  g_autofree gchar *pair_key = g_strconcat (stem, ".key", NULL);
  g_autofree gchar *pair_cert = g_strconcat (stem, ".made.pem", NULL);
  const gchar *key_path = key ? path : pair_key;
  const gchar *cert_path = key ? pair_cert : path;
  gboolean have_key = g_file_test (key_path, G_FILE_TEST_EXISTS);
  const gchar *argv[] = { "/usr/bin/openssl", "req", "-x509", "-nodes", "-subj", "/CN=made by the test", "-days", "2",
                          "-out", cert_path, have_key ? "-key" : "-newkey", have_key ? key_path : "ec", "-pkeyopt",
                          "ec_paramgen_curve:prime256v1", "-keyout", key_path, NULL };
  if (have_key)
    argv[12] = NULL;
  return sl_test_run_argv (argv, NULL, NULL) == 0;
}

/* When syslog-ng's err says the host lacks a file, that file is made in
 * the test's folder and the copy conf names it there; FALSE otherwise. */
static gboolean
provide_lacking (SlTestEnv *env, const gchar *conf, const gchar *err)
{
  for (guint i = 0; i < G_N_ELEMENTS (host_lacks); i++)
    {
      g_autoptr (GRegex) pattern = g_regex_new (host_lacks[i], 0, 0, NULL);
      g_autoptr (GMatchInfo) match = NULL;
      if (!g_regex_match (pattern, err, 0, &match))
        continue;
      g_autofree gchar *wanted = g_match_info_fetch (match, 1);
      g_autofree gchar *moved = g_strconcat (env->dir, wanted, NULL);
      g_autofree gchar *text = NULL;
      if (g_str_has_prefix (wanted, env->dir) || !g_file_get_contents (conf, &text, NULL, NULL)
          || !strstr (text, wanted) || !make_lacking (wanted, moved))
        return FALSE;
      GString *copy = g_string_new (text);
      g_string_replace (copy, wanted, moved, 0);
      gboolean written = g_file_set_contents (conf, copy->str, -1, NULL);
      g_string_free (copy, TRUE);
      g_test_message ("made %s, which the host lacks", moved);
      return written;
    }
  return FALSE;
}

/* syslog-ng 4.8 --syntax-only runs in the Debian 13 root, on a copy of the
 * test's folder at the same path there, so that the paths of the copy
 * are right inside the root too. */
static gchar *
syslog_ng_run (SlTestEnv *env, const gchar *conf, gchar **err)
{
  g_autofree gchar *inside = g_build_filename (trixie, env->dir, NULL);
  g_autofree gchar *parent = g_path_get_dirname (inside);
  const gchar *copy[] = { "cp", "-a", env->dir, parent, NULL };
  const gchar *argv[] = { "chroot", trixie, "/usr/sbin/syslog-ng", "--syntax-only", "-f", conf, NULL };
  gchar *verdict = NULL;

  *err = NULL;
  if (g_mkdir_with_parents (parent, 0755) == 0 && sl_test_run_argv (copy, NULL, NULL) == 0)
    {
      gint status = sl_test_run_argv (argv, NULL, err);
      verdict = status == 0 ? g_strdup ("accepts")
                : status == 1 ? g_strdup ("rejects") : g_strdup_printf ("exits with %d", status);
    }
  else
    {
      g_test_fail_printf ("the test's folder could not be copied into %s", parent);
      verdict = g_strdup ("rejects");
    }
  if (!sl_test_peer_stop (0, inside))
    g_test_fail_printf ("%s could not be removed", inside);
  return verdict;
}

static gchar *
syslog_ng_verdict (SlTestEnv *env, const gchar *conf)
{
  for (guint round = 0;; round++)
    {
      g_autofree gchar *err = NULL;
      gchar *verdict = syslog_ng_run (env, conf, &err);
      if (g_str_equal (verdict, "accepts") || round == 8 || !err || !provide_lacking (env, conf, err))
        {
          g_auto (GStrv) lines = g_strsplit (err ? err : "", "\n", 12);
          for (guint i = 0; lines[i] && i < 11; i++)
            if (*lines[i])
              g_test_message ("syslog-ng 4.8: %s", lines[i]);
          return verdict;
        }
      g_free (verdict);
    }
}

/* sluiced -s's verdict and its first error, without the test's folder. */
static gchar *
sluiced_verdict (SlTestEnv *env, const gchar *conf, gchar **first_error)
{
  g_autofree gchar *err = NULL;
  g_autofree gchar *scl = g_build_filename (trixie, "usr/share/syslog-ng/include", NULL);
  g_autofree gchar *include_path = g_strdup_printf ("%s/config/include:%s", g_getenv ("SL_TOP_SRCDIR"), scl);
  g_autofree gchar *modules = g_build_filename (trixie, "usr/lib/syslog-ng/4.8", NULL);
  gint status = sl_test_run_built ("daemon/sluiced", NULL, &err, "-s", "-f", conf, "--include-path", include_path,
                                   "--module-path", sl_test_module_path (), "--module-install-dir", modules, NULL);
  *first_error = g_strdup ("");
  if (status == 0)
    return g_strdup ("accepts");
  g_auto (GStrv) lines = g_strsplit (err, "\n", -1);
  g_autofree gchar *prefix = g_strconcat (env->dir, "/", NULL);
  g_autofree gchar *root_prefix = g_strconcat (trixie, "/", NULL);
  for (guint i = 0; lines[i]; i++)
    {
      const gchar *error = strstr (lines[i], "error: ");
      if (!error)
        continue;
      GString *line = g_string_new (error + strlen ("error: "));
      g_string_replace (line, prefix, "", 0);
      g_string_replace (line, root_prefix, "4.8:/", 0);
      g_string_replace (line, "\t", " ", 0);
      g_free (*first_error);
      *first_error = g_string_free (line, FALSE);
      break;
    }
  return status == 1 ? g_strdup ("rejects") : g_strdup_printf ("exits with %d", status);
}

static void
test_file (SlTestEnv *env, gconstpointer data)
{
  const gchar *name = data;

  if (!g_str_has_prefix (name, "scl/"))
    g_assert_true (g_hash_table_contains (origins, name));
  if (!trixie)
    {
      g_test_skip ("the Debian 13 root could not be made (tests/peers/trixie-root)");
      return;
    }
  g_autofree gchar *source = corpus_path (name);
  g_autofree gchar *base = g_path_get_basename (name);
  g_autofree gchar *conf = sl_test_path (env, base);
  g_autofree gchar *text = NULL;
  if (!g_file_get_contents (source, &text, NULL, NULL) || !g_file_set_contents (conf, text, -1, NULL))
    {
      g_test_fail_printf ("%s could not be copied", name);
      return;
    }

  gchar **now = g_new0 (gchar *, N_VERDICTS + 1);
  now[V_SYSLOG_NG] = syslog_ng_verdict (env, conf);
  now[V_SLUICED] = sluiced_verdict (env, conf, &now[V_ERROR]);
  g_hash_table_replace (measured, g_strdup (name), now);
  if (*now[V_ERROR])
    g_test_message ("sluiced: %s", now[V_ERROR]);
  if (g_getenv ("SL_SYSLOG_NG_CORPUS_UPDATE"))
    return;

  gchar **was = g_hash_table_lookup (expected, name);
  if (!was)
    {
      g_test_fail_printf ("%s has no row in tests/syslog-ng-corpus/EXPECTED.tsv (syslog-ng 4.8 %s, sluiced %s: %s)",
                          name, now[V_SYSLOG_NG], now[V_SLUICED], now[V_ERROR]);
      return;
    }
  if (g_strcmp0 (was[V_ERROR], now[V_ERROR]) != 0)
    g_test_message ("sluiced's first error was: %s", was[V_ERROR]);
  if (g_strcmp0 (was[V_SYSLOG_NG], now[V_SYSLOG_NG]) != 0 || g_strcmp0 (was[V_SLUICED], now[V_SLUICED]) != 0)
    g_test_fail_printf ("%s: syslog-ng 4.8 %s and sluiced %s, where EXPECTED.tsv has syslog-ng 4.8 %s and sluiced %s "
                        "(%s)", name, now[V_SYSLOG_NG], now[V_SLUICED], was[V_SYSLOG_NG], was[V_SLUICED], now[V_ERROR]);
}

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const gchar *const *) a, *(const gchar *const *) b);
}

/* Counts, apart for the configurations and the SCL probes, and with
 * SL_SYSLOG_NG_CORPUS_UPDATE the new EXPECTED.tsv. */
static void
summarize (GPtrArray *names)
{
  guint files[2] = { 0 }, by_ng[2] = { 0 }, by_both[2] = { 0 }, by_sluiced_only[2] = { 0 };
  GString *table = g_string_new ("file\tsyslog-ng 4.8\tsluiced\tsluiced's first error\n");

  for (guint i = 0; i < names->len; i++)
    {
      const gchar *name = g_ptr_array_index (names, i);
      gchar **v = g_hash_table_lookup (measured, name);
      if (!v)
        continue;
      guint probe = g_str_has_prefix (name, "scl/");
      gboolean ng = g_str_equal (v[V_SYSLOG_NG], "accepts");
      gboolean sl = g_str_equal (v[V_SLUICED], "accepts");
      files[probe]++;
      by_ng[probe] += ng;
      by_both[probe] += ng && sl;
      by_sluiced_only[probe] += !ng && sl;
      g_string_append_printf (table, "%s\t%s\t%s\t%s\n", name, v[V_SYSLOG_NG], v[V_SLUICED], v[V_ERROR]);
    }
  for (guint probe = 0; probe < 2; probe++)
    if (files[probe])
      g_print ("# syslog-ng corpus, %s: %u files, syslog-ng 4.8 accepts %u, sluiced accepts %u of those; "
               "sluiced accepts %u that syslog-ng 4.8 refuses\n", probe ? "SCL probes" : "configurations",
               files[probe], by_ng[probe], by_both[probe], by_sluiced_only[probe]);
  if (files[0] + files[1] && g_getenv ("SL_SYSLOG_NG_CORPUS_UPDATE"))
    {
      g_autofree gchar *path = corpus_path ("EXPECTED.tsv");
      if (!g_file_set_contents (path, table->str, -1, NULL))
        g_printerr ("cannot write %s\n", path);
    }
  g_string_free (table, TRUE);
}

/* The .conf files of folder (relative to the corpus), as folder/name. */
static void
list_files (GPtrArray *names, const gchar *folder)
{
  g_autofree gchar *path = corpus_path (folder);
  GDir *dir = g_dir_open (path, 0, NULL);
  const gchar *entry;
  while (dir && (entry = g_dir_read_name (dir)))
    if (g_str_has_suffix (entry, ".conf"))
      g_ptr_array_add (names, *folder ? g_build_filename (folder, entry, NULL) : g_strdup (entry));
  if (dir)
    g_dir_close (dir);
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  /* the corpus has python {} blocks, which sluiced -s runs */
  sl_test_python_leaks_suppressed ();
  trixie = sl_test_trixie_root ();
  g_autofree gchar *kubeconfig = corpus_path ("kubeconfig");
  g_setenv ("KUBECONFIG", kubeconfig, TRUE);
  expected = read_table ("EXPECTED.tsv", N_VERDICTS + 1);
  origins = read_table ("ORIGIN.tsv", 2);
  measured = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_strfreev);

  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  list_files (names, "");
  list_files (names, "scl");
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree gchar *path = g_strconcat ("/syslog-ng-corpus/", (const gchar *) g_ptr_array_index (names, i), NULL);
      g_test_add (path, SlTestEnv, g_ptr_array_index (names, i), sl_test_env_setup, test_file, sl_test_env_teardown);
    }
  gint result = g_test_run ();
  summarize (names);

  g_ptr_array_unref (names);
  g_hash_table_unref (measured);
  g_hash_table_unref (origins);
  g_hash_table_unref (expected);
  g_free (trixie);
  return result;
}
