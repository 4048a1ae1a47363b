/* SPDX-License-Identifier: GPL-2.0-or-later */
/* doc/rsyslog.md's verdicts on the names of the rsyslog corpus, tried one
 * by one. Each name tests/rsyslog-corpus/inventory lists (a module,
 * directive, parameter or function a file of the corpus uses) has a probe
 * in tests/rsyslog-corpus/probes.tsv: a minimal configuration that uses
 * it. sluiced -s must accept the probe when the table "Every name of the
 * corpus" says taken, and refuse it with file:line:column on a line that
 * names it when the table says refused (doc-check --verdicts reads the
 * table); rsyslogd 8.2302 -N1 must judge it as the probe's rsyslogd column
 * says, so that the table can tell where rsyslogd refuses a name too.
 *
 * A probe is one line: "\n" in it starts a new line, "\\" is a backslash,
 * @DIR@ the test's folder, which holds a CA certificate (ca.pem), a
 * certificate and its key (cert.pem, key.pem), a lookup table
 * (lookup.json) and a file to read (in.log). A line that writes every
 * message to a file follows the probe, as rsyslogd refuses a configuration
 * without an action. */
#include "tests/functional/harness.h"

#include <stdio.h>
#include <string.h>

enum
{
  P_KIND,
  P_NAME,
  P_PARAMETER,  /* "-" for a name that is no parameter */
  P_RSYSLOGD,   /* "accepts" or "rejects" */
  P_PROBE,
  N_COLUMNS
};

static gchar *root;           /* the unpacked rsyslog, or NULL */
static gchar *fixtures;       /* the certificates, made once */
static GPtrArray *probes;     /* each a GStrv of N_COLUMNS */
static GHashTable *verdicts;  /* lower-case "kind\tname[\tparameter]" -> "taken", "refused" or "" */

static gchar *
corpus_path (const gchar *name)
{
  return g_build_filename (g_getenv ("SL_TOP_SRCDIR"), "tests/rsyslog-corpus", name, NULL);
}

/* The key of an inventory line or probe, as doc-check compares names:
 * case aside. */
static gchar *
name_key (const gchar *kind, const gchar *name, const gchar *parameter)
{
  g_autofree gchar *key = parameter && !g_str_equal (parameter, "-")
                            ? g_strjoin ("\t", kind, name, parameter, NULL)
                            : g_strjoin ("\t", kind, name, NULL);
  return g_ascii_strdown (key, -1);
}

/* The lines a script of tests/rsyslog-corpus prints, or NULL. */
static gchar **
corpus_script_lines (const gchar *script, const gchar *argument)
{
  g_autofree gchar *path = corpus_path (script);
  const gchar *argv[] = { "sh", path, argument, NULL };
  g_autofree gchar *out = NULL;
  g_autofree gchar *err = NULL;

  if (sl_test_run_argv (argv, &out, &err) != 0)
    {
      g_printerr ("%s failed: %s\n", path, err ? err : "");
      return NULL;
    }
  g_strchomp (out);
  return *out ? g_strsplit (out, "\n", -1) : g_new0 (gchar *, 1);
}

static gboolean
read_verdicts (void)
{
  g_auto (GStrv) lines = corpus_script_lines ("doc-check", "--verdicts");
  if (!lines)
    return FALSE;
  verdicts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  for (guint i = 0; lines[i]; i++)
    {
      g_auto (GStrv) f = g_strsplit (lines[i], "\t", -1);
      guint n = g_strv_length (f);
      if (n < 3)
        continue;
      g_hash_table_replace (verdicts, name_key (f[0], f[1], n == 4 ? f[2] : NULL), g_strdup (f[n - 1]));
    }
  return TRUE;
}

static gboolean
read_probes (void)
{
  g_autofree gchar *path = corpus_path ("probes.tsv");
  g_auto (GStrv) lines = sl_test_read_lines (path);
  if (!lines)
    return FALSE;
  probes = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  for (guint i = 1; lines[0] && lines[i]; i++)
    {
      gchar **f = g_strsplit (lines[i], "\t", N_COLUMNS);
      if (g_strv_length (f) == N_COLUMNS)
        g_ptr_array_add (probes, f);
      else
        {
          g_printerr ("%s:%u: not %d columns\n", path, i + 1, N_COLUMNS);
          g_strfreev (f);
          return FALSE;
        }
    }
  return TRUE;
}

/* Every name of the inventory has a probe, and every probe is a name of
 * the inventory. */
static void
test_inventory (void)
{
  g_auto (GStrv) names = corpus_script_lines ("inventory", NULL);
  g_autoptr (GHashTable) probed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) named = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  if (!names)
    {
      g_test_fail_printf ("tests/rsyslog-corpus/inventory failed");
      return;
    }
  for (guint i = 0; i < probes->len; i++)
    {
      gchar **p = g_ptr_array_index (probes, i);
      g_hash_table_add (probed, name_key (p[P_KIND], p[P_NAME], p[P_PARAMETER]));
    }
  for (guint i = 0; names[i]; i++)
    {
      g_auto (GStrv) f = g_strsplit (names[i], "\t", -1);
      gchar *key = name_key (f[0], f[1], f[1] ? f[2] : NULL); /* f[2]: a parameter's name, else NULL */
      if (!g_hash_table_contains (probed, key))
        g_test_fail_printf ("%s has no probe in tests/rsyslog-corpus/probes.tsv", names[i]);
      g_hash_table_add (named, key);
    }
  GHashTableIter iter;
  gpointer key;
  g_hash_table_iter_init (&iter, probed);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (!g_hash_table_contains (named, key))
      g_test_fail_printf ("the probe of %s names nothing the corpus uses", (const gchar *) key);
}

/* The probe's configuration, as the file sluiced and rsyslogd read. */
static gchar *
probe_text (SlTestEnv *env, const gchar *probe)
{
  GString *text = g_string_new (NULL);

  for (const gchar *p = probe; *p; p++)
    {
      if (*p == '\\' && (p[1] == 'n' || p[1] == '\\'))
        {
          p++;
          g_string_append_c (text, *p == 'n' ? '\n' : '\\');
        }
      else
        g_string_append_c (text, *p);
    }
  g_string_append (text, "\n*.* @DIR@/all.log\n");
  g_string_replace (text, "@DIR@", env->dir, 0);
  return g_string_free (text, FALSE);
}

static gboolean
write_fixtures (SlTestEnv *env)
{
  static const gchar *const certificates[] = { "ca.pem", "cert.pem", "key.pem" };
  g_autofree gchar *lookup = sl_test_path (env, "lookup.json");
  g_autofree gchar *input = sl_test_path (env, "in.log");

  for (guint i = 0; i < G_N_ELEMENTS (certificates); i++)
    {
      g_autofree gchar *from = g_build_filename (fixtures, certificates[i], NULL);
      g_autofree gchar *to = sl_test_path (env, certificates[i]);
      g_autofree gchar *pem = sl_test_read_file (from);
      if (!pem || !g_file_set_contents (to, pem, -1, NULL))
        return FALSE;
    }
  return g_file_set_contents (lookup,
                              "{ \"version\": 1, \"nomatch\": \"\", \"type\": \"string\",\n"
                              "  \"table\": [ { \"index\": \"db01\", \"value\": \"db\" } ] }\n", -1, NULL)
         && g_file_set_contents (input, "", 0, NULL);
}

/* Whether sluiced's error places the refusal on a line of the probe that
 * names what is probed: the name itself, or for a parameter its module. */
static gboolean
refused_where_named (const gchar *err, const gchar *text, gchar **p, gchar **where)
{
  const gchar *at = strstr (err, "probe.conf:");
  guint line = 0, column = 0;

  *where = NULL;
  if (!at || sscanf (at, "probe.conf:%u:%u:", &line, &column) != 2 || !line || !column)
    return FALSE;
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  if (line > g_strv_length (lines))
    return FALSE;
  *where = g_strdup (lines[line - 1]);
  g_autofree gchar *lower = g_ascii_strdown (lines[line - 1], -1);
  g_autofree gchar *name = g_ascii_strdown (p[P_NAME], -1);
  g_autofree gchar *parameter = g_ascii_strdown (p[P_PARAMETER], -1);
  return strstr (lower, name) || (!g_str_equal (parameter, "-") && strstr (lower, parameter));
}

static void
test_probe (SlTestEnv *env, gconstpointer data)
{
  gchar **p = (gchar **) data;
  g_autofree gchar *key = name_key (p[P_KIND], p[P_NAME], p[P_PARAMETER]);
  const gchar *verdict = g_hash_table_lookup (verdicts, key);
  g_autofree gchar *conf = sl_test_path (env, "probe.conf");
  g_autofree gchar *text = probe_text (env, p[P_PROBE]);
  g_autofree gchar *what = g_strdelimit (g_strdup (key), "\t", ' ');
  g_autofree gchar *probe = g_ascii_strdown (p[P_PROBE], -1);
  g_autofree gchar *named = g_ascii_strdown (g_str_equal (p[P_PARAMETER], "-") ? p[P_NAME] : p[P_PARAMETER], -1);

  g_test_message ("probe: %s", p[P_PROBE]);
  if (!strstr (probe, named))
    {
      g_test_fail_printf ("the probe of %s does not name it", what);
      return;
    }
  if (!verdict || !*verdict)
    {
      g_test_fail_printf ("doc/rsyslog.md gives no verdict on %s", what);
      return;
    }
  if (!write_fixtures (env) || !g_file_set_contents (conf, text, -1, NULL))
    {
      g_test_fail_printf ("the probe's files could not be written into %s", env->dir);
      return;
    }

  /* rsyslogd checks the probe while sluiced does */
  GPid rsyslogd = 0;
  g_autofree gchar *rs_err = sl_test_path (env, "rsyslogd.stderr");
  if (root)
    {
      g_autofree gchar *program = g_build_filename (root, "usr/sbin/rsyslogd", NULL);
      g_autofree gchar *modules = g_build_filename (root, "usr/lib/x86_64-linux-gnu/rsyslog", NULL);
      g_autofree gchar *pid = sl_test_path (env, "rsyslogd.pid");
      const gchar *argv[] = { program, "-M", modules, "-N1", "-f", conf, "-i", pid, NULL };
      rsyslogd = sl_test_spawn_argv (argv, rs_err);
    }

  g_autofree gchar *err = NULL;
  gint status = sl_test_run_built ("daemon/sluiced", NULL, &err, "-s", "--config-format", "rsyslog", "-f", conf,
                                   "--module-path", sl_test_module_path (), NULL);
  g_autofree gchar *where = NULL;
  if (g_str_equal (verdict, "taken") && status != 0)
    g_test_fail_printf ("doc/rsyslog.md says %s is taken, but sluiced -s refuses its probe (%d):\n%s", what, status,
                        err);
  else if (g_str_equal (verdict, "refused") && status != 1)
    g_test_fail_printf ("doc/rsyslog.md says %s is refused, but sluiced -s %s its probe:\n%s", what,
                        status == 0 ? "accepts" : "fails on", err);
  else if (g_str_equal (verdict, "refused") && !refused_where_named (err, text, p, &where))
    g_test_fail_printf ("sluiced -s refuses the probe of %s, but not with file:line:column on a line naming it "
                        "(%s):\n%s", what, where ? where : "no place", err);
  else if (*err)
    g_test_message ("sluiced: %s", err);

  if (!rsyslogd)
    {
      g_test_message ("rsyslogd's verdict not checked: %s",
                      root ? "it could not start" : "rsyslog could not be unpacked (tests/peers/rsyslog-root)");
      return;
    }
  gint rs_status = sl_test_child_wait (rsyslogd, SL_TEST_DEADLINE_MS * G_TIME_SPAN_MILLISECOND);
  const gchar *rs_verdict = rs_status == 0 ? "accepts" : "rejects";
  g_autofree gchar *rs_said = sl_test_read_file (rs_err);
  if (!g_str_equal (rs_verdict, p[P_RSYSLOGD]))
    g_test_fail_printf ("rsyslogd 8.2302 -N1 %s the probe of %s, where probes.tsv says it %s:\n%s", rs_verdict, what,
                        p[P_RSYSLOGD], rs_said ? rs_said : "");
  else if (rs_said && *rs_said)
    g_test_message ("rsyslogd: %s", rs_said);
}

/* A self-signed certificate for the TLS probes, made once by openssl: the
 * CA, the certificate and its key. */
static gboolean
make_fixtures (void)
{
  fixtures = sl_test_peer_dir ("rsyslog-probes");
  if (!fixtures)
    return FALSE;
  g_autofree gchar *key = g_build_filename (fixtures, "key.pem", NULL);
  g_autofree gchar *cert = g_build_filename (fixtures, "cert.pem", NULL);
  g_autofree gchar *ca = g_build_filename (fixtures, "ca.pem", NULL);
  const gchar *argv[] = { "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                          "-nodes", "-subj", "/CN=probe", "-days", "2", "-keyout", key, "-out", cert, NULL };
  g_autofree gchar *pem = NULL;
  return sl_test_run_argv (argv, NULL, NULL) == 0 && (pem = sl_test_read_file (cert))
         && g_file_set_contents (ca, pem, -1, NULL);
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  if (!read_probes () || !read_verdicts () || !make_fixtures ())
    {
      g_printerr ("the probes, doc/rsyslog.md's verdicts or the certificates could not be had\n");
      return 1;
    }
  root = sl_test_rsyslog_root ();

  g_test_add_func ("/rsyslog-probes/inventory", test_inventory);
  for (guint i = 0; i < probes->len; i++)
    {
      gchar **p = g_ptr_array_index (probes, i);
      /* a module named by its path is one step of the test's path */
      g_autofree gchar *name = g_strdelimit (g_strdup (p[P_NAME]), "/", '_');
      g_autofree gchar *path = g_str_equal (p[P_PARAMETER], "-")
                                 ? g_strdup_printf ("/rsyslog-probes/%s/%s", p[P_KIND], name)
                                 : g_strdup_printf ("/rsyslog-probes/%s/%s/%s", p[P_KIND], name, p[P_PARAMETER]);
      g_test_add (path, SlTestEnv, p, sl_test_env_setup, test_probe, sl_test_env_teardown);
    }
  gint result = g_test_run ();

  if (!sl_test_peer_stop (0, fixtures))
    result = 1;
  g_free (fixtures);
  g_free (root);
  g_hash_table_unref (verdicts);
  g_ptr_array_unref (probes);
  return result;
}
