/* SPDX-License-Identifier: GPL-2.0-or-later */
/* syslog-ng 4's typed values, side by side with syslog-ng 4.8 (Debian 13's,
 * in the root of tests/peers/trixie-root): every line of
 * typed-values/corpus.jsonl through json-parser() and $(format-json) under
 * @version: 4.8, written by both, compared byte for byte, line by line. A
 * line json-parser() refuses goes on without fields, so every line gives
 * one. The whole nv-pairs scope (TRANSPORT and MSGFORMAT with it) leaves
 * out FILE_NAME, which differs by where each daemon reads. set() copies a field with its type (null when it is
 * unset) under 4.x, takes type hints (int("42"), a bare 42 or 1.5) and
 * the types of the list functions' results. A @version: 3.x
 * configuration keeps its strings, as the host's syslog-ng 3.38 writes
 * them (test_3x_side_by_side). Hints whose text does not cast
 * (int("abc")) go through on-error() (test_on_error), csv-parser()'s
 * typed columns through on-type-error(), a datetime among them. Filter
 * comparisons are type-aware under 4.x and as 3.38's under 3.x
 * (test_filters_4x, test_filters_3x). */
#include "tests/functional/harness.h"

#include <string.h>

static gchar *trixie;   /* the Debian 13 root, or NULL */

static const gchar config[] =
  "@version: @VERSION@\n"
  "source s_in { file(\"@DIR@/in.log\" flags(no-parse) follow-freq(0.1)); };\n"
  "parser p_json { json-parser(prefix(\"j.\")); };\n"
  "rewrite r_copy { set(\"${j.n}\" value(\"c.n\")); set(\"${j.a}\" value(\"c.a\")); set(\"${j.f}\" value(\"c.f\"));\n"
  "                 set(\"${j.missing}\" value(\"c.m\")); set(\"${j.n}s\" value(\"c.s\")); };\n"
  "rewrite r_hint { set(int(\"42\") value(\"h.i\")); set(42 value(\"h.n\")); set(-7 value(\"h.neg\"));\n"
  "                 set(1.5 value(\"h.f\")); set(float(\"2\") value(\"h.f2\")); set(boolean(\"true\") value(\"h.b\"));\n"
  "                 set(list(\"a,b\") value(\"h.l\")); set(json(\"{\\\"x\\\":1}\") value(\"h.j\"));\n"
  "                 set(literal(\"[1,2]\") value(\"h.lit\")); set(null(\"\") value(\"h.z\")); set(int64(\"5\") value(\"h.i64\"));\n"
  "                 set(integer(\"6\") value(\"h.int\")); set(string(\"${j.n}\") value(\"h.s\"));\n"
  "                 set(datetime(\"1700000000\") value(\"h.dt\")); set(datetime(\"1700000000.5+01:00\") value(\"h.dtz\"));\n"
  "                 set(datetime(\"abc\") value(\"h.dtbad\")); };\n"
  "rewrite r_list { set(\"$(list-concat ${j.a} x)\" value(\"l.concat\")); set(\"$(list-append ${j.a} y)\" value(\"l.append\"));\n"
  "                 set(\"$(list-count ${j.a})\" value(\"l.count\")); set(\"$(list-head ${j.a})\" value(\"l.head\"));\n"
  "                 set(\"$(list-nth 1 ${j.a})\" value(\"l.nth\")); set(\"$(list-tail ${j.a})\" value(\"l.tail\"));\n"
  "                 set(\"$(list-slice 1: ${j.a})\" value(\"l.slice\")); set(\"$(explode : ${j.s})\" value(\"l.explode\"));\n"
  "                 set(\"$(implode : ${j.a})\" value(\"l.implode\")); set(\"<$(list-concat ${j.a})>\" value(\"l.text\"));\n"
  "                 set(\"$(list-search x ${j.a} x)\" value(\"l.search\")); };\n"
  "destination d_out { file(\"@DIR@/out.log\" template(\"@TEMPLATE@\\n\")); };\n"
  "log { source(s_in); junction { channel { parser(p_json); rewrite(r_copy); rewrite(r_hint); rewrite(r_list); flags(final); }; channel { flags(final); }; };\n"
  "      destination(d_out); };\n";

/* The key of the corpus's last line, which every template writes. */
#define LAST_LINE "the broken ones"

static gchar *
corpus (void)
{
  const gchar *top = g_getenv ("SL_TOP_SRCDIR");
  g_autofree gchar *path = g_build_filename (top ? top : ".", "tests/differential/typed-values/corpus.jsonl", NULL);
  gchar *text = sl_test_read_file (path);
  g_assert_nonnull (text);
  return text;
}

static gchar *
config_for (const gchar *version, const gchar *template)
{
  GString *text = g_string_new (config);
  g_string_replace (text, "@VERSION@", version, 0);
  g_string_replace (text, "@TEMPLATE@", template, 0);
  /* integer() is syslog-ng 4's name of the type; 3.38 refuses it, as
   * Sluice does in a 3.x configuration */
  if (g_str_has_prefix (version, "3."))
    g_string_replace (text, "integer(", "int64(", 0);
  return g_string_free (text, FALSE);
}

/* What sluiced writes for input on the configuration text. */
static gchar *
sluiced_output (SlTestEnv *env, const gchar *text, const gchar *input)
{
  g_autofree gchar *in = sl_test_path (env, "in.log");
  g_autofree gchar *out = sl_test_path (env, "out.log");
  if (g_file_set_contents (in, input, -1, NULL) && sl_test_write_config (env, text, NULL)
      && sl_test_daemon_start (env) && sl_test_wait_contains (env, out, LAST_LINE))
    return sl_test_read_file (out);
  return NULL;
}

static void
test_side_by_side (SlTestEnv *env, gconstpointer data)
{
  if (!trixie)
    {
      g_test_skip ("the Debian 13 root could not be made (tests/peers/trixie-root)");
      return;
    }
  g_autofree gchar *input = corpus ();
  g_autofree gchar *text = config_for ("4.8", data);
  g_autofree gchar *expected = sl_test_syslog_ng_48_output (env, trixie, text, input, LAST_LINE);
  g_autofree gchar *got = expected ? sluiced_output (env, text, input) : NULL;
  if (!got)
    return;

  g_auto (GStrv) lines = g_strsplit (input, "\n", -1);
  g_auto (GStrv) want = g_strsplit (expected, "\n", -1);
  g_auto (GStrv) have = g_strsplit (got, "\n", -1);
  guint n = g_strv_length (lines) - 1, same = 0;
  g_assert_cmpuint (g_strv_length (want), ==, n + 1);
  for (guint i = 0; i < n && have[i]; i++)
    {
      if (g_str_equal (want[i], have[i]))
        same++;
      else
        g_test_message ("line %u: %s\n  syslog-ng 4.8: %s\n  sluiced:       %s", i + 1, lines[i], want[i], have[i]);
    }
  g_test_message ("%s: %u of %u lines identical", (const gchar *) data, same, n);
  g_assert_cmpstr (got, ==, expected);
}

/* csv-parser()'s typed columns and each on-type-error(), side by side:
 * values that cast, ones that do not, too few and too many columns. */
static const gchar csv_config[] =
  "@version: 4.8\n"
  "source s_in { file(\"@DIR@/in.log\" flags(no-parse) follow-freq(0.1)); };\n"
  "parser p_csv { csv-parser(columns(int(\"pid\"), \"name\", boolean(\"ok\"), double(\"f\"), datetime(\"t\")) delimiters(\",\") @OPTION@); };\n"
  "destination d_out { file(\"@DIR@/out.log\" template(\"$(format-json --scope nv-pairs --exclude * --key pid "
  "--key name --key ok --key f --key t) $MSG\\n\")); };\n"
  "log { source(s_in); parser(p_csv); destination(d_out); };\n";

static void
test_csv_typed_columns (SlTestEnv *env, gconstpointer data)
{
  static const gchar input[] = "5,a,true,1.5,1700000000.5\n0x1f,b,yes,x,abc\n,c,0,2e3,\n7,d\n"
                               "abc,e,F,1,1700000000+01:00,extra\n6,f,t,-0.25,1700000000Z\n"
                               "9,g,1,0,1700000000.1234567891\n10,h,0,0,1700000000.25-05:30\n"
                               "8," LAST_LINE ",1,1,-5.5\n";
  if (!trixie)
    {
      g_test_skip ("the Debian 13 root could not be made (tests/peers/trixie-root)");
      return;
    }
  GString *text = g_string_new (csv_config);
  g_string_replace (text, "@OPTION@", data, 0);
  g_autofree gchar *expected = sl_test_syslog_ng_48_output (env, trixie, text->str, input, LAST_LINE);
  g_autofree gchar *got = expected ? sluiced_output (env, text->str, input) : NULL;
  g_string_free (text, TRUE);
  if (got)
    g_test_message ("%s\nsyslog-ng 4.8:\n%ssluiced:\n%s", (const gchar *) data, expected, got);
  if (got)
    g_assert_cmpstr (got, ==, expected);
}

/* on-error(), global or a destination's, for hints whose text does not
 * cast, side by side: $(format-json) writes nothing (drop-message, the
 * default), leaves the value out or writes it as a string. */
static const gchar on_error_config[] =
  "@version: 4.8\n"
  "options { @GLOBAL@ };\n"
  "source s_in { file(\"@DIR@/in.log\" flags(no-parse) follow-freq(0.1)); };\n"
  "rewrite r_hint { set(int(\"abc\") value(\"h.i\") condition(message(\"int\"))); set(int(\"7\") value(\"h.ok\"));\n"
  "                 set(boolean(\"maybe\") value(\"h.b\") condition(message(\"bool\")));\n"
  "                 set(float(\"x1\") value(\"h.f\") condition(message(\"float\"))); };\n"
  "destination d_out { file(\"@DIR@/out.log\" template(\"$(format-json --scope none --key h.*) "
  "$(format-flat-json --scope none --key h.*) $MSG\\n\") @DESTINATION@); };\n"
  "log { source(s_in); rewrite(r_hint); destination(d_out); };\n";

static void
test_on_error (SlTestEnv *env, gconstpointer data)
{
  static const gchar input[] = "int\nbool\nfloat\nnone\n" LAST_LINE "\n";
  if (!trixie)
    {
      g_test_skip ("the Debian 13 root could not be made (tests/peers/trixie-root)");
      return;
    }
  const gchar *const *options = data;
  GString *text = g_string_new (on_error_config);
  g_string_replace (text, "@GLOBAL@", options[0], 0);
  g_string_replace (text, "@DESTINATION@", options[1], 0);
  g_autofree gchar *expected = sl_test_syslog_ng_48_output (env, trixie, text->str, input, LAST_LINE);
  g_autofree gchar *got = expected ? sluiced_output (env, text->str, input) : NULL;
  g_string_free (text, TRUE);
  if (got)
    g_test_message ("%s | %s\nsyslog-ng 4.8:\n%ssluiced:\n%s", options[0], options[1], expected, got);
  if (got)
    g_assert_cmpstr (got, ==, expected);
}

/* @version: 3.38 side by side with the host's syslog-ng 3.38: every
 * value a string, reals as printf's %f and null empty, in a field, a set()
 * copy and $(format-json). Arrays are left out: 3.38 makes one of
 * scalars a list ([1,"x"] is 1,x) where 4.8 and Sluice keep its JSON text. */
static const gchar config_3x[] =
  "@version: 3.38\n"
  "source s_in { tcp(port(@PORT@) flags(no-parse)); };\n"
  "parser p_json { json-parser(prefix(\"j.\")); };\n"
  "rewrite r_copy { set(\"${j.f}\" value(\"c.f\")); set(\"${j.z}\" value(\"c.z\")); };\n"
  "destination d_out { file(\"@OUT@/out.log\" template(\"f=<${j.f}> z=<${j.z}> r=<${j.o.r}> "
  "$(format-json --scope nv-pairs --exclude * --key j.* --key c.*)\\n\")); };\n"
  "log { source(s_in); parser(p_json); rewrite(r_copy); destination(d_out); };\n";

static void
test_3x_side_by_side (SlTestEnv *env, gconstpointer data)
{
  static const gchar input[] =
    "{\"n\":42,\"f\":1.5,\"t\":true,\"z\":null,\"s\":\"x\",\"o\":{\"r\":3.25,\"zz\":null}}\n"
    "{\"f\":2e3,\"g\":-0.25,\"h\":0.1,\"i\":1.0,\"j\":-0.0,\"k\":1E-7,\"l\":3.141592653589793,\"m\":1e300,"
    "\"o\":{\"r\":-1.5e2}}\n"
    "{\"z\":null,\"f\":0,\"o\":{\"r\":null}}\n";
  static const gchar *const outputs[] = { "out.log", NULL };
  g_autofree gchar *sl_out = NULL, *ng_out = NULL;
  if (!sl_test_side_by_side (env, config_3x, input, outputs, 3, &sl_out, &ng_out, NULL))
    return;
  g_autofree gchar *ng_path = g_build_filename (ng_out, "out.log", NULL);
  g_autofree gchar *sl_path = g_build_filename (sl_out, "out.log", NULL);
  g_autofree gchar *expected = sl_test_read_file (ng_path);
  g_autofree gchar *got = sl_test_read_file (sl_path);
  g_test_message ("syslog-ng 3.38:\n%s", expected);
  g_assert_cmpstr (got, ==, expected);
}

/* Comparisons in filters, side by side: each of filter_comparisons is one
 * $(if) of the template, so each input line gives one line of 1s and 0s,
 * which must be the peer's. Under @version: 4.8 ==, <, ... are type-aware
 * (json-parser()'s numbers, strings that look like numbers, booleans,
 * null, lists and objects, datetime() hints, missing fields); under 3.38
 * they compare numbers, as the host's syslog-ng 3.38 does. */
static const gchar *const filter_comparisons[] = {
  "'${j.v}' == 10", "'${j.v}' == '10'", "'${j.v}' < '9'", "'${j.v}' > 9", "'${j.v}' != 10", "'${j.v}' == 0",
  "'${j.v}' != 0", "'${j.v}' <= 0", "'${j.v}' >= 0", "'${j.v}' == 1", "'${j.v}' == 1.5", "'${j.v}' >= 1.5",
  "'${j.v}' == '${j.w}'", "'${j.v}' != '${j.w}'", "'${j.v}' < '${j.w}'", "'${j.v}' == '${j.missing}'",
  "'${j.v}' != '${j.missing}'", "'${j.v}' < 1", "'${j.v}' eq '10'", "'${j.v}' lt '9'", "'x${j.v}' == 'x10'",
  "'x${j.v}' < 'x9'", "'${j.v}' == 'abc'", "'${j.v}' != 'abc'", "5 > '${j.v}'", "'${j.v}' == -3",
  "'${j.v}' == '1,2'", "'${j.v}' == '[1,2]'", "'${j.v}' == 1000", "'${dt}' > 1700000000000",
  "'${dt}' == 1700000000000", "'${dt}' == 1700000000500", "'${dt}' > 0", "'${dt}' == '${j.ts}'",
  "'${dt}' != '${j.missing}'",
};

static const gchar filter_config[] =
  "@version: @VERSION@\n"
  "source s_in { @SOURCE@ };\n"
  "parser p_json { json-parser(prefix(\"j.\")); };\n"
  "rewrite r_dt { set(@DATETIME@(\"${j.ts}\") value(\"dt\") condition(\"${j.ts}\" ne \"\")); };\n"
  "destination d_out { file(\"@OUT@/out.log\" template(\"@TEMPLATE@ $MSG\\n\")); };\n"
  "log { source(s_in); junction { channel { parser(p_json); flags(final); }; channel { flags(final); }; };\n"
  "      rewrite(r_dt); destination(d_out); };\n";

static const gchar filter_input[] =
  "{\"v\":10}\n{\"v\":9}\n{\"v\":\"10\"}\n{\"v\":\"9\"}\n{\"v\":\"abc\"}\n{\"v\":\"\"}\n{\"v\":true}\n"
  "{\"v\":false}\n{\"v\":null}\n{\"v\":{\"a\":1}}\n{\"v\":1.5}\n{\"v\":\"1.5\"}\n{\"v\":-3}\n"
  "{\"v\":\"true\"}\n{\"v\":\" 7\"}\n{\"v\":\"0x10\"}\n{\"v\":1e3}\n{\"v\":\"nan\"}\n{\"v\":\"-0\"}\n"
  "{\"v\":\"1e400\"}\n{\"v\":\"10abc\"}\n{\"ts\":\"1700000000\"}\n{\"ts\":\"1700000000.5\"}\n{}\nplain\n"
  "{\"v\":10,\"w\":\"10\"}\n{\"v\":\"10\",\"w\":\"9\"}\n{\"v\":9,\"w\":\"10\"}\n{\"v\":true,\"w\":1}\n"
  "{\"v\":null,\"w\":null}\n{\"v\":{\"a\":1},\"w\":{\"a\":1}}\n@ARRAYS@"
  "{\"v\":5,\"k\":\"" LAST_LINE "\"}\n";

/* The configuration for version, with source, its output in out_dir. */
static gchar *
filter_text (const gchar *version, const gchar *source, const gchar *out_dir)
{
  GString *template = g_string_new ("");
  for (guint i = 0; i < G_N_ELEMENTS (filter_comparisons); i++)
    g_string_append_printf (template, "$(if (%s) 1 0)", filter_comparisons[i]);
  GString *text = g_string_new (filter_config);
  g_string_replace (text, "@VERSION@", version, 0);
  g_string_replace (text, "@SOURCE@", source, 0);
  g_string_replace (text, "@OUT@", out_dir, 0);
  /* 3.38's values have no types: its datetime() would be a string's */
  g_string_replace (text, "@DATETIME@", g_str_has_prefix (version, "3.") ? "string" : "datetime", 0);
  g_string_replace (text, "@TEMPLATE@", template->str, 0);
  g_string_free (template, TRUE);
  return g_string_free (text, FALSE);
}

static gchar *
filter_input_for (const gchar *version)
{
  GString *input = g_string_new (filter_input);
  /* 3.38 makes an array of scalars a list of their texts, where 4.8 and
   * Sluice keep its JSON text (see test_3x_side_by_side) */
  g_string_replace (input, "@ARRAYS@", g_str_has_prefix (version, "3.") ? ""
                    : "{\"v\":[1,2]}\n{\"v\":[1,2],\"w\":[1,2]}\n{\"v\":[1,2],\"w\":{\"a\":1}}\n", 0);
  return g_string_free (input, FALSE);
}

static void
test_filters_4x (SlTestEnv *env, gconstpointer data)
{
  if (!trixie)
    {
      g_test_skip ("the Debian 13 root could not be made (tests/peers/trixie-root)");
      return;
    }
  g_autofree gchar *text = filter_text ("4.8", "file(\"@DIR@/in.log\" flags(no-parse) follow-freq(0.1));", "@DIR@");
  g_autofree gchar *input = filter_input_for ("4.8");
  g_autofree gchar *expected = sl_test_syslog_ng_48_output (env, trixie, text, input, LAST_LINE);
  g_autofree gchar *got = expected ? sluiced_output (env, text, input) : NULL;
  if (!got)
    return;
  g_test_message ("syslog-ng 4.8:\n%ssluiced:\n%s", expected, got);
  g_assert_cmpstr (got, ==, expected);
}

static void
test_filters_3x (SlTestEnv *env, gconstpointer data)
{
  g_autofree gchar *text = filter_text ("3.38", "tcp(port(@PORT@) flags(no-parse));", "@OUT@");
  g_autofree gchar *input = filter_input_for ("3.38");
  static const gchar *const outputs[] = { "out.log", NULL };
  g_autofree gchar *sl_out = NULL, *ng_out = NULL;
  guint n_lines = 0;
  for (const gchar *p = input; *p; p++)
    n_lines += *p == '\n';
  if (!sl_test_side_by_side (env, text, input, outputs, n_lines, &sl_out, &ng_out, NULL))
    return;
  g_autofree gchar *ng_path = g_build_filename (ng_out, "out.log", NULL);
  g_autofree gchar *sl_path = g_build_filename (sl_out, "out.log", NULL);
  g_autofree gchar *expected = sl_test_read_file (ng_path);
  g_autofree gchar *got = sl_test_read_file (sl_path);
  g_test_message ("syslog-ng 3.38:\n%ssluiced:\n%s", expected, got);
  g_assert_cmpstr (got, ==, expected);
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  trixie = sl_test_trixie_root ();
  /* the top-level arrays of the corpus set $1 to $6 */
  static const gchar *const templates[] = {
    "$(format-json --scope nv-pairs --exclude * --key j.* --key 1 --key 2 --key 3 --key 4 --key 5 --key 6)",
    "$(format-json --scope nv-pairs --exclude FILE_NAME)",
    "$(format-flat-json --scope nv-pairs --exclude * --key j.* --key 1 --key 2 --key 3 --key 4 --key 5 --key 6)",
    "$(format-json --cast --scope nv-pairs --exclude * --key j.* --key 1 --key 2 --key 3 --key 4 --key 5 --key 6)",
    "$(format-json --scope nv-pairs --exclude * --key c.* --key j.after)",
    "$(format-json --scope nv-pairs --exclude * --key h.* --key l.* --key j.after)",
  };
  static const gchar *const names[] = { "format-json-keys", "format-json-nv-pairs", "format-flat-json",
                                        "format-json-cast", "set-copies-types",
                                        "set-type-hints-and-list-functions" };
  for (guint i = 0; i < G_N_ELEMENTS (templates); i++)
    {
      g_autofree gchar *path = g_strconcat ("/typed-values/", names[i], NULL);
      g_test_add (path, SlTestEnv, templates[i], sl_test_env_setup, test_side_by_side, sl_test_env_teardown);
    }
  SL_TEST_ADD ("/typed-values/version-3-side-by-side", test_3x_side_by_side);
  SL_TEST_ADD ("/typed-values/filter-comparisons/version-4", test_filters_4x);
  SL_TEST_ADD ("/typed-values/filter-comparisons/version-3", test_filters_3x);
  static const gchar *const on_error[][2] = {
    { "", "" },
    { "on-error(\"drop-property\");", "" },
    { "on-error(\"fallback-to-string\");", "" },
    { "on-error(\"silently-drop-property\");", "" },
    { "", "on-error(\"fallback-to-string\")" },
    { "on-error(\"fallback-to-string\");", "on-error(\"drop-message\")" },
  };
  static const gchar *const on_error_names[] = { "default", "global-drop-property", "global-fallback-to-string",
                                                 "global-silently-drop-property", "destination-fallback-to-string",
                                                 "destination-over-global" };
  for (guint i = 0; i < G_N_ELEMENTS (on_error); i++)
    {
      g_autofree gchar *path = g_strconcat ("/typed-values/on-error/", on_error_names[i], NULL);
      g_test_add (path, SlTestEnv, on_error[i], sl_test_env_setup, test_on_error, sl_test_env_teardown);
    }
  static const gchar *const on_type_error[] = { "", "on-type-error(\"drop-property\")",
                                                "on-type-error(\"fallback-to-string\")",
                                                "on-type-error(\"drop-message\")", "drop-invalid(yes)",
                                                "on-type-error(\"silently-drop-message\")" };
  static const gchar *const on_type_error_names[] = { "default", "drop-property", "fallback-to-string",
                                                      "drop-message", "drop-invalid", "silently-drop-message" };
  for (guint i = 0; i < G_N_ELEMENTS (on_type_error); i++)
    {
      g_autofree gchar *path = g_strconcat ("/typed-values/csv-typed-columns/", on_type_error_names[i], NULL);
      g_test_add (path, SlTestEnv, on_type_error[i], sl_test_env_setup, test_csv_typed_columns, sl_test_env_teardown);
    }
  gint result = g_test_run ();
  g_free (trixie);
  return result;
}
