/* SPDX-License-Identifier: GPL-2.0-or-later */
/* add-contextual-data() in syslog-ng 3.38 (Debian's
 * syslog-ng-mod-add-contextual-data) and in sluiced, one configuration,
 * the same messages: every output file must be the same, and says what
 * the CSV database holds for each selector. */
#include "tests/functional/harness.h"

#include <string.h>

static const gchar context_csv[] =
  "web01,role,frontend\n"
  "web01,site,\"Budapest, HU\"\n"
  "web01,owner,${PROGRAM}-team\n"
  "\n"
  "db*,role,database\n"
  "db*,site,'DC ''2'''\n"
  "  spaced  ,  role  ,  trimmed  \r\n"
  "unknown,role,unknown-role\n";

static const gchar filters_csv[] =
  "f_db,role,from-db-filter\n"
  "f_web,role,from-web-filter\n"
  "f_web,site,web-site\n";

static const gchar filters_conf[] =
  "# which message is which, by filter\n"
  "filter f_web { host(\"web\") and program(\"app\"); };\n"
  "filter f_db {\n"
  "  message(\"query\");\n"
  "};\n";

static const gchar config[] =
  "@version: 3.38\n"
  "options { keep-hostname(yes); };\n"
  "source s { tcp(ip(\"127.0.0.1\") port(@PORT@)); };\n"
  "template t { template(\"${HOST} role=${ctx.role} site=${ctx.site} owner=${ctx.owner}\\n\"); };\n"
  "log { source(s);\n"
  "  parser { add-contextual-data(selector(\"${HOST}\") database(\"@DIR@/context.csv\")\n"
  "           default-selector(\"unknown\") prefix(\"ctx.\")); };\n"
  "  destination { file(\"@OUT@/value.log\" template(t)); }; };\n"
  "log { source(s);\n"
  "  parser { add-contextual-data(selector(\"${HOST}\") database(\"@DIR@/context.csv\")\n"
  "           prefix(\"ctx.\") ignore-case(yes)); };\n"
  "  destination { file(\"@OUT@/case.log\" template(t)); }; };\n"
  "log { source(s);\n"
  "  parser { add-contextual-data(selector(glob(\"${HOST}\")) database(\"@DIR@/context.csv\") prefix(\"ctx.\")); };\n"
  "  destination { file(\"@OUT@/glob.log\" template(t)); }; };\n"
  "log { source(s);\n"
  "  parser { add-contextual-data(selector(filters(\"@DIR@/filters.conf\")) database(\"@DIR@/filters.csv\")\n"
  "           prefix(\"ctx.\")); };\n"
  "  destination { file(\"@OUT@/filters.log\" template(t)); }; };\n";

static const gchar *const messages[] = {
  "<13>Dec  1 10:00:00 web01 app: hello",
  "<13>Dec  1 10:00:00 WEB01 app: hello",
  "<13>Dec  1 10:00:00 db7 pg: query one",
  "<13>Dec  1 10:00:00 other x: hello",
  "<13>Dec  1 10:00:00 spaced x: hello",
};

static const gchar *const outputs[] = { "value.log", "case.log", "glob.log", "filters.log", NULL };

static gboolean
write_file (SlTestEnv *env, const gchar *name, const gchar *text)
{
  g_autofree gchar *path = sl_test_path (env, name);
  return g_file_set_contents (path, text, -1, NULL);
}

static gchar *
read_output (const gchar *out, const gchar *name)
{
  g_autofree gchar *path = g_build_filename (out, name, NULL);
  return sl_test_read_file (path);
}

static void
test_same_as_syslog_ng (SlTestEnv *env, gconstpointer data)
{
  g_assert_true (write_file (env, "context.csv", context_csv));
  g_assert_true (write_file (env, "filters.csv", filters_csv));
  g_assert_true (write_file (env, "filters.conf", filters_conf));
  GString *text = g_string_new (NULL);
  for (guint i = 0; i < G_N_ELEMENTS (messages); i++)
    g_string_append_printf (text, "%s\n", messages[i]);
  g_autofree gchar *sl_out = NULL, *ng_out = NULL;
  gboolean ran = sl_test_side_by_side (env, config, text->str, outputs, G_N_ELEMENTS (messages), &sl_out, &ng_out, NULL);
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
  g_autofree gchar *value = read_output (sl_out, "value.log");
  g_assert_nonnull (strstr (value, "web01 role=frontend site=Budapest, HU owner=app-team\n"));
  g_assert_nonnull (strstr (value, "other role=unknown-role site= owner=\n"));
  g_assert_nonnull (strstr (value, "spaced role=trimmed site= owner=\n"));
  g_autofree gchar *by_case = read_output (sl_out, "case.log");
  g_assert_nonnull (strstr (by_case, "WEB01 role=frontend"));
  g_autofree gchar *by_glob = read_output (sl_out, "glob.log");
  g_assert_nonnull (strstr (by_glob, "db7 role=database site=DC '2' owner=\n"));
  g_autofree gchar *by_filter = read_output (sl_out, "filters.log");
  g_assert_nonnull (strstr (by_filter, "web01 role=from-web-filter site=web-site"));
  g_assert_nonnull (strstr (by_filter, "db7 role=from-db-filter site= owner=\n"));
}

static void
expect_refused (SlTestEnv *env, const gchar *csv, const gchar *parser, const gchar *needle)
{
  g_assert_true (write_file (env, "bad.csv", csv));
  g_autofree gchar *text = g_strdup_printf ("@version: 4.0\n"
                                            "source s { stdin(); };\n"
                                            "log { source(s); parser { %s }; destination { file(\"@DIR@/x\"); }; };\n",
                                            parser);
  g_assert_true (sl_test_write_config (env, text, NULL));
  g_autofree gchar *err = NULL;
  g_assert_cmpint (sl_test_run_built ("daemon/sluiced", NULL, &err, "-s", "-f", env->config, NULL), ==, 1);
  if (!strstr (err, needle))
    g_test_fail_printf ("expected '%s' in:\n%s", needle, err);
}

static void
test_bad_database (SlTestEnv *env, gconstpointer data)
{
  expect_refused (env, "a,b\n", "add-contextual-data(selector(\"$HOST\") database(\"@DIR@/bad.csv\"));",
                  "bad.csv:1: a line needs three columns (selector, name, value), it has 2");
  expect_refused (env, "a,b,c\nx,y,z,w\n", "add-contextual-data(selector(\"$HOST\") database(\"@DIR@/bad.csv\"));",
                  "bad.csv:2: a line needs three columns (selector, name, value), it has more");
  expect_refused (env, "a,b,$(nosuchfunction)\n",
                  "add-contextual-data(selector(\"$HOST\") database(\"@DIR@/bad.csv\"));", "nosuchfunction");
  expect_refused (env, "a,b,c\n", "add-contextual-data(selector(\"$HOST\") database(\"@DIR@/bad.txt\"));",
                  "only CSV files");
  expect_refused (env, "a,b,c\n", "add-contextual-data(selector(\"$HOST\"));", "needs database()");
  expect_refused (env, "a,b,c\n",
                  "add-contextual-data(selector(regexp(\"x\")) database(\"@DIR@/bad.csv\"));",
                  "selector() takes a template, glob(\"TEMPLATE\") or filters(\"FILE\"), not regexp()");
  g_autofree gchar *filters = sl_test_path (env, "bad-filters.conf");
  g_assert_true (g_file_set_contents (filters, "filter f { host(\"a\") };\nsource s { };\n", -1, NULL));
  expect_refused (env, "f,b,c\n",
                  "add-contextual-data(selector(filters(\"@DIR@/bad-filters.conf\")) database(\"@DIR@/bad.csv\"));",
                  "bad-filters.conf:2:1: a filters() file holds only filter NAME { ... }; statements");
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  g_setenv ("TZ", "UTC", TRUE);
  SL_TEST_ADD ("/add-contextual-data/same-as-syslog-ng", test_same_as_syslog_ng);
  SL_TEST_ADD ("/add-contextual-data/bad-database", test_bad_database);
  return g_test_run ();
}
