/* SPDX-License-Identifier: GPL-2.0-or-later */
/* geoip2() and $(geoip2) in syslog-ng 3.38 (Debian's syslog-ng-mod-geoip2)
 * and in sluiced, one configuration and a database the test writes with
 * MaxMind's writer (make-test-mmdb): the same files from both. */
#include "tests/functional/harness.h"

#include <string.h>

static const gchar config[] =
  "@version: 3.38\n"
  "options { keep-hostname(yes); };\n"
  "source s { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "log { source(s); parser { geoip2(\"${HOST}\" database(\"@DIR@/test.mmdb\") prefix(\"geo.\")); };\n"
  "  destination { file(\"@OUT@/fields.log\" template(\"$(format-flat-json --key geo.*)\\n\")); }; };\n"
  "log { source(s); parser { geoip2(template(\"${HOST}\") database(\"@DIR@/test.mmdb\")); };\n"
  "  destination { file(\"@OUT@/default.log\" template(\"${.geoip2.country.iso_code} ${.geoip2.city.names.en}"
  " ${.geoip2.location.latitude} ${.geoip2.traits.offset} ${.geoip2.traits.ratio}\\n\")); }; };\n"
  "log { source(s); destination { file(\"@OUT@/function.log\" template(\"$(geoip2 --database @DIR@/test.mmdb ${HOST})"
  " $(geoip2 --database=@DIR@/test.mmdb --field location.longitude ${HOST})"
  " $(geoip2 -d @DIR@/test.mmdb -f subdivisions.0.iso_code ${HOST})"
  " $(geoip2 --database @DIR@/test.mmdb --field country.is_in_european_union ${HOST})\\n\")); }; };\n";

/* the last two again from records seen: what the parser keeps of them */
static const gchar *const hosts[] = { "192.0.2.7", "2001:db8::1", "198.51.100.1", "not-an-address", "192.0.2.200",
                                      "2001:db8::ff" };
static const gchar *const outputs[] = { "fields.log", "default.log", "function.log", NULL };

static gchar *
read_output (const gchar *out, const gchar *name)
{
  g_autofree gchar *path = g_build_filename (out, name, NULL);
  return sl_test_read_file (path);
}

static void
test_same_as_syslog_ng (SlTestEnv *env, gconstpointer data)
{
  const gchar *srcdir = g_getenv ("SL_TOP_SRCDIR");
  g_autofree gchar *maker = g_build_filename (srcdir, "plugins/parsers/geoip2/make-test-mmdb", NULL);
  g_autofree gchar *database = sl_test_path (env, "test.mmdb");
  const gchar *make[] = { "perl", maker, database, NULL };
  g_autofree gchar *err = NULL;
  if (sl_test_run_argv (make, NULL, &err) != 0)
    {
      g_test_fail_printf ("make-test-mmdb failed (quickstart installs libmaxmind-db-writer-perl):\n%s", err);
      return;
    }
  GString *text = g_string_new (NULL);
  for (guint i = 0; i < G_N_ELEMENTS (hosts); i++)
    g_string_append_printf (text, "<13>Dec  1 10:00:00 %s app: hello\n", hosts[i]);
  g_autofree gchar *sl_out = NULL, *ng_out = NULL;
  gboolean ran = sl_test_side_by_side (env, config, text->str, outputs, G_N_ELEMENTS (hosts), &sl_out, &ng_out, NULL);
  g_string_free (text, TRUE);
  if (!ran)
    return;
  for (guint i = 0; outputs[i]; i++)
    {
      g_autofree gchar *ng_text = read_output (ng_out, outputs[i]);
      g_autofree gchar *sl_text = read_output (sl_out, outputs[i]);
      g_test_message ("%s:\n%s", outputs[i], sl_text);
      g_assert_cmpstr (sl_text, ==, ng_text);
    }
  g_autofree gchar *fields = read_output (sl_out, "fields.log");
  g_assert_nonnull (strstr (fields, "\"geo.country.names.en\":\"Hungary\""));
  g_assert_nonnull (strstr (fields, "\"geo.subdivisions.1.iso_code\":\"X1\""));
  g_assert_null (strstr (fields, "Ungarn"));
  g_autofree gchar *function = read_output (sl_out, "function.log");
  g_assert_nonnull (strstr (function, "HU 19.040400 BU true\nDE 13.405000  \n"));
  /* the text that is no address was counted, twice: one per parser */
  g_assert_true (sl_test_wait_stat (env, "parser", NULL, "lookup_errors", 2));
}

static void
test_bad_database (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *junk = sl_test_path (env, "junk.mmdb");
  g_assert_true (g_file_set_contents (junk, "not a database", -1, NULL));
  g_assert_true (sl_test_write_config (env,
                                       "@version: 4.0\n"
                                       "source s { stdin(); };\n"
                                       "log { source(s); parser { geoip2(\"$HOST\" database(\"@DIR@/junk.mmdb\")); };\n"
                                       "  destination { file(\"@DIR@/x\"); }; };\n", NULL));
  g_autofree gchar *err = NULL;
  g_assert_cmpint (sl_test_run_built ("daemon/sluiced", NULL, &err, "-s", "-f", env->config, NULL), ==, 1);
  g_assert_nonnull (strstr (err, "junk.mmdb"));
  g_assert_nonnull (strstr (err, ":3:42: geoip2(): cannot open"));
  g_assert_true (sl_test_write_config (env,
                                       "@version: 4.0\n"
                                       "source s { stdin(); };\n"
                                       "destination d { file(\"@DIR@/x\" template(\"$(geoip2 --database)\")); };\n"
                                       "log { source(s); destination(d); };\n", NULL));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (sl_test_run_built ("daemon/sluiced", NULL, &err, "-s", "-f", env->config, NULL), ==, 1);
  g_assert_nonnull (strstr (err, "$(geoip2) takes"));
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  g_setenv ("TZ", "UTC", TRUE);
  SL_TEST_ADD ("/geoip2/same-as-syslog-ng", test_same_as_syslog_ng);
  SL_TEST_ADD ("/geoip2/bad-database", test_bad_database);
  return g_test_run ();
}
