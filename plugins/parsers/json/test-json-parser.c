/* SPDX-License-Identifier: GPL-2.0-or-later */
/* json-parser(): fields from JSON objects, the options that shape their
 * names, and input made to hurt: not JSON, nested past jansson's limit,
 * huge keys, invalid UTF-8; and the scanner checked against jansson's
 * tree, the reference, on the texts where they could part. */
#include "plugins/parsers/json/json-check.h"
#include "tests/unit/parser-harness.h"
#include "core/config/error.h"
#include "core/compile/loader.h"

#include <string.h>

extern const SlModule sl_module;

static void
test_scalars_and_nesting (void)
{
  SlTestParser p;
  sl_test_parser_init (&p, "json-parser(prefix(\"json.\"))");
  SlMessage *msg = sl_test_message ("{\"level\":\"error\",\"n\":42,\"neg\":-7,\"r\":1.5,\"tenth\":0.1,"
                            "\"t\":true,\"f\":false,\"z\":null,\"esc\":\"a\\\"b\\u00e9\\n\","
                            "\"arr\":[1,\"two\",{\"three\":3}],"
                            "\"user\":{\"id\":7,\"name\":{\"first\":\"Ada\"},\"empty\":{}}}");
  g_assert_true (sl_test_parser_process (&p, &msg));
  sl_test_assert_field (msg, "json.level", "error");
  sl_test_assert_field (msg, "json.n", "42");
  sl_test_assert_field (msg, "json.neg", "-7");
  sl_test_assert_field (msg, "json.r", "1.500000");
  sl_test_assert_field (msg, "json.tenth", "0.100000");
  sl_test_assert_field (msg, "json.t", "true");
  sl_test_assert_field (msg, "json.f", "false");
  sl_test_assert_field (msg, "json.z", "");
  sl_test_assert_field (msg, "json.esc", "a\"b\xc3\xa9\n");
  sl_test_assert_field (msg, "json.arr", "[1,\"two\",{\"three\":3}]");
  sl_test_assert_field (msg, "json.user.id", "7");
  sl_test_assert_field (msg, "json.user.name.first", "Ada");
  sl_test_assert_field (msg, "json.user", NULL);
  sl_test_assert_field (msg, "json.user.empty", NULL);
  /* the text parsed stays where it was */
  sl_test_assert_field (msg, "MESSAGE", msg->raw);
  g_assert_cmpint (sl_test_parser_counter (&p, "failed"), ==, 0);
  sl_message_unref (msg);
  sl_test_parser_clear (&p);
}

static void
assert_typed (const SlMessage *msg, const gchar *name, const gchar *text, SlValueType type)
{
  gsize len;
  SlValueType got;
  const gchar *v = sl_message_get_typed (msg, sl_field_handle (name), &len, &got);
  g_assert_nonnull (v);
  g_assert_cmpmem (v, len, text, strlen (text));
  g_assert_cmpint (got, ==, type);
}

/* A syslog-ng 4 configuration's json-parser(): what 4.8 stores for each
 * kind of value (tests/differential/test-typed-values compares what it
 * writes with 4.8's own output). */
static void
test_typed_values (void)
{
  SlTestParser p;
  sl_test_parser_init_version (&p, "4.8", "json-parser(prefix(\"j.\"))");
  SlMessage *msg = sl_test_message ("{\"n\":-0,\"big\":9223372036854775808,\"r\":0.1,\"inf\":1e400,"
                                    "\"t\":TRUE,\"z\":null,\"s\":\"a\\u0000b\",\"l\":[\"x\",\"y z\"],"
                                    "\"a\":[1.0,\"/\",{}],\"o\":{\"k\":1},\"o\":{\"m\":2},\"dup\":1,\"dup\":2,"
                                    "\"lz\":007,\"neg\":-12,\"zero\":0} tail");
  g_assert_true (sl_test_parser_process (&p, &msg));
  assert_typed (msg, "j.n", "0", SL_VALUE_INT64);
  /* an integer is written again: the text as received only where it is the same */
  assert_typed (msg, "j.lz", "7", SL_VALUE_INT64);
  assert_typed (msg, "j.neg", "-12", SL_VALUE_INT64);
  assert_typed (msg, "j.zero", "0", SL_VALUE_INT64);
  assert_typed (msg, "j.big", "9223372036854775807", SL_VALUE_INT64);
  assert_typed (msg, "j.r", "0.100000", SL_VALUE_DOUBLE);
  assert_typed (msg, "j.inf", "inf", SL_VALUE_DOUBLE);
  assert_typed (msg, "j.t", "true", SL_VALUE_BOOLEAN);
  assert_typed (msg, "j.z", "", SL_VALUE_NULL);
  assert_typed (msg, "j.s", "a", SL_VALUE_STRING);
  assert_typed (msg, "j.l", "x,\"y z\"", SL_VALUE_LIST);
  assert_typed (msg, "j.a", "[1.0,\"\\/\",{}]", SL_VALUE_JSON);
  assert_typed (msg, "j.o.m", "2", SL_VALUE_INT64);
  sl_test_assert_field (msg, "j.o.k", NULL);
  assert_typed (msg, "j.dup", "2", SL_VALUE_INT64);
  sl_message_unref (msg);

  /* a wide object finds its repeated keys too, and costs no time per
   * pair of members: 50,000 of them, inside an array (no field each) */
  GString *wide = g_string_new ("{");
  for (guint i = 0; i < 40; i++)
    g_string_append_printf (wide, "\"w%u\":%u,", i, i);
  g_string_append (wide, "\"w5\":\"last\",\"big\":[{");
  for (guint i = 0; i < 50000; i++)
    g_string_append_printf (wide, "%s\"k%u\":%u", i ? "," : "", i % 49999, i);
  g_string_append (wide, "}]}");
  msg = sl_test_message (wide->str);
  g_assert_true (sl_test_parser_process (&p, &msg));
  assert_typed (msg, "j.w5", "last", SL_VALUE_STRING);
  assert_typed (msg, "j.w39", "39", SL_VALUE_INT64);
  gsize len;
  SlValueType type;
  const gchar *big = sl_message_get_typed (msg, sl_field_handle ("j.big"), &len, &type);
  g_assert_cmpint (type, ==, SL_VALUE_JSON);
  g_assert_true (g_str_has_prefix (big, "[{\"k0\":49999,\"k1\":1,"));
  sl_message_unref (msg);
  g_string_free (wide, TRUE);

  /* a top-level array is $1, $2, ... and unsets the matches past it */
  msg = sl_test_message ("[7,\"s\",[1]]");
  sl_message_set (msg, sl_field_handle ("4"), "old", -1);
  g_assert_true (sl_test_parser_process (&p, &msg));
  assert_typed (msg, "1", "7", SL_VALUE_INT64);
  assert_typed (msg, "2", "s", SL_VALUE_STRING);
  assert_typed (msg, "3", "[1]", SL_VALUE_JSON);
  sl_test_assert_field (msg, "4", NULL);
  sl_message_unref (msg);

  static const gchar *const refused[] = { "\"text\"", "42", "{\"a\":", "{\"a\" 1}", "[1,]", "" };
  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      msg = sl_test_message (refused[i]);
      g_assert_false (sl_test_parser_process (&p, &msg));
      sl_message_unref (msg);
    }
  g_assert_cmpint (sl_test_parser_counter (&p, "failed"), ==, G_N_ELEMENTS (refused));
  sl_test_parser_clear (&p);
}

/* A real is stored as printf's %f writes it, also where it is not read
 * into a double first: random reals of every length around the limits of
 * that shortcut (9 digits before the point, 6 after) against
 * g_ascii_formatd() of g_ascii_strtod(). */
static void
test_reals_as_printf_writes_them (void)
{
  SlTestParser p;
  sl_test_parser_init_version (&p, "4.8", "json-parser(prefix(\"j.\"))");
  GRand *rand = g_rand_new_with_seed (34);
  for (guint i = 0; i < 20000; i++)
    {
      GString *number = g_string_new (g_rand_boolean (rand) ? "-" : "");
      guint int_digits = g_rand_int_range (rand, 1, 12);
      for (guint k = 0; k < int_digits; k++)
        g_string_append_c (number, (gchar) ('0' + g_rand_int_range (rand, k ? 0 : (i % 7 ? 1 : 0), 10)));
      guint frac_digits = g_rand_int_range (rand, 0, 9);
      gboolean exponent = !(i % 11);
      /* a point or an exponent makes it a real */
      if (frac_digits || !exponent)
        g_string_append_c (number, '.');
      for (guint k = 0; k < frac_digits; k++)
        g_string_append_c (number, (gchar) ('0' + g_rand_int_range (rand, 0, 10)));
      if (number->str[number->len - 1] == '.')
        g_string_append_c (number, '0');
      if (exponent)
        g_string_append_printf (number, "e%d", g_rand_int_range (rand, -5, 6));
      gchar expected[G_ASCII_DTOSTR_BUF_SIZE + 320];
      g_ascii_formatd (expected, sizeof expected, "%f", g_ascii_strtod (number->str, NULL));
      gchar *json = g_strdup_printf ("{\"x\":%s}", number->str);
      SlMessage *msg = sl_test_message (json);
      g_assert_true (sl_test_parser_process (&p, &msg));
      assert_typed (msg, "j.x", expected, SL_VALUE_DOUBLE);
      sl_message_unref (msg);
      g_free (json);
      g_string_free (number, TRUE);
    }
  g_rand_free (rand);
  sl_test_parser_clear (&p);
}

/* types(rsyslog), mmjsonparse's: what rsyslogd 8.2302 keeps (its bytes
 * are compared in tests/functional/test-rsyslog-props) */
static void
test_rsyslog_types (void)
{
  SlTestParser p;
  sl_test_parser_init (&p, "json-parser(prefix(\"!\") types(rsyslog))");
  SlMessage *msg = sl_test_message ("{\"e\":2.5E-3,\"h\":100.0,\"big\":99999999999999999999,\"t\":true,"
                                    "\"z\":null,\"a\":[1,\"x y\",{\"k\":[]},{}],\"o\":{\"k\":1},\"eo\":{}} \t");
  g_assert_true (sl_test_parser_process (&p, &msg));
  assert_typed (msg, "!e", "2.5E-3", SL_VALUE_DOUBLE);
  assert_typed (msg, "!h", "100.0", SL_VALUE_DOUBLE);
  assert_typed (msg, "!big", "9223372036854775807", SL_VALUE_INT64);
  assert_typed (msg, "!t", "true", SL_VALUE_BOOLEAN);
  assert_typed (msg, "!z", "", SL_VALUE_NULL);
  assert_typed (msg, "!a", "[ 1, \"x y\", { \"k\": [ ] }, { } ]", SL_VALUE_JSON);
  assert_typed (msg, "!o.k", "1", SL_VALUE_INT64);
  assert_typed (msg, "!eo", "{ }", SL_VALUE_JSON);
  sl_message_unref (msg);

  /* a key's own dot and backslash are escaped: one member of rsyslog's tree */
  msg = sl_test_message ("{\"a.b\":{\"c\\\\d\":1},\"a\":2}");
  g_assert_true (sl_test_parser_process (&p, &msg));
  assert_typed (msg, "!a\\.b.c\\\\d", "1", SL_VALUE_INT64);
  assert_typed (msg, "!a", "2", SL_VALUE_INT64);
  sl_message_unref (msg);

  /* an object alone, with nothing but blanks after it */
  static const gchar *const refused[] = { "[1,2]", "{\"a\":1} tail", "5" };
  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      msg = sl_test_message (refused[i]);
      g_assert_false (sl_test_parser_process (&p, &msg));
      sl_message_unref (msg);
    }
  sl_test_parser_clear (&p);
}

static void
test_default_prefix_is_empty (void)
{
  SlTestParser p;
  sl_test_parser_init (&p, "json-parser()");
  SlMessage *msg = sl_test_message ("{\"app\":{\"name\":\"web\"},\"PROGRAM\":\"nginx\"}");
  g_assert_true (sl_test_parser_process (&p, &msg));
  sl_test_assert_field (msg, "app.name", "web");
  sl_test_assert_field (msg, "PROGRAM", "nginx");
  sl_message_unref (msg);
  sl_test_parser_clear (&p);
}

static void
test_not_json_is_counted_and_changes_nothing (void)
{
  static const gchar *const inputs[] = {
    "hello world", "", "{\"a\":", "[1,2,3]", "\"just a string\"", "42", "{\"a\":1} trailing",
    "{'single':'quotes'}", "{\"nul\":\"a\\u0000b\"}",
  };
  SlTestParser p;
  sl_test_parser_init (&p, "json-parser(prefix(\"j.\"))");
  for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
    {
      SlMessage *msg = sl_test_message (inputs[i]);
      SlMessage *before = msg;
      g_assert_false (sl_test_parser_process (&p, &msg));
      g_assert_true (msg == before);
      g_assert_cmpuint (msg->n_fields, ==, 0);
      sl_message_unref (msg);
    }
  g_assert_cmpint (sl_test_parser_counter (&p, "failed"), ==, G_N_ELEMENTS (inputs));
  sl_test_parser_clear (&p);
}

static void
test_marker (void)
{
  SlTestParser p;
  sl_test_parser_init (&p, "json-parser(marker(\"@cee:\") prefix(\".cee.\"))");
  SlMessage *msg = sl_test_message ("@cee: {\"event\":\"login\"}");
  g_assert_true (sl_test_parser_process (&p, &msg));
  sl_test_assert_field (msg, ".cee.event", "login");
  sl_message_unref (msg);

  msg = sl_test_message ("{\"event\":\"login\"}");
  g_assert_false (sl_test_parser_process (&p, &msg));
  sl_message_unref (msg);
  msg = sl_test_message ("@ce");
  g_assert_false (sl_test_parser_process (&p, &msg));
  sl_message_unref (msg);
  g_assert_cmpint (sl_test_parser_counter (&p, "failed"), ==, 2);
  sl_test_parser_clear (&p);
}

static void
test_extract_prefix (void)
{
  SlTestParser p;
  sl_test_parser_init (&p, "json-parser(extract-prefix(\"foo.bar[1]\"))");
  SlMessage *msg = sl_test_message ("{\"foo\":{\"bar\":[{\"x\":0},{\"x\":1,\"y\":{\"z\":2}}]},\"other\":3}");
  g_assert_true (sl_test_parser_process (&p, &msg));
  sl_test_assert_field (msg, "x", "1");
  sl_test_assert_field (msg, "y.z", "2");
  sl_test_assert_field (msg, "other", NULL);
  sl_message_unref (msg);
  /* the path leads nowhere, or to something that is no object */
  msg = sl_test_message ("{\"foo\":{\"bar\":[{\"x\":0}]}}");
  g_assert_false (sl_test_parser_process (&p, &msg));
  sl_message_unref (msg);
  msg = sl_test_message ("{\"foo\":{\"bar\":[1,2]}}");
  g_assert_false (sl_test_parser_process (&p, &msg));
  sl_message_unref (msg);
  sl_test_parser_clear (&p);

  sl_test_parser_init (&p, "json-parser(extract-prefix(\"[2]\") prefix(\"item.\"))");
  msg = sl_test_message ("[{}, {}, {\"k\":\"v\"}]");
  g_assert_true (sl_test_parser_process (&p, &msg));
  sl_test_assert_field (msg, "item.k", "v");
  sl_message_unref (msg);
  sl_test_parser_clear (&p);
}

static void
test_key_delimiter_and_template (void)
{
  SlTestParser p;
  sl_test_parser_init (&p, "json-parser(key-delimiter(\"~\") template(\"${payload}\"))");
  SlMessage *msg = sl_test_message ("not json");
  sl_message_set (msg, sl_field_handle ("payload"), "{\"a\":{\"b\":\"c\"}}", -1);
  g_assert_true (sl_test_parser_process (&p, &msg));
  sl_test_assert_field (msg, "a~b", "c");
  sl_message_unref (msg);
  sl_test_parser_clear (&p);
}

static void
assert_config_error (const gchar *text, const gchar *needle)
{
  SlTestParser p;
  GError *error = NULL;
  g_assert_false (sl_test_parser_new (&p, text, &error));
  g_assert_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE);
  g_assert_nonnull (strstr (error->message, "test.conf:2:"));
  g_assert_nonnull (strstr (error->message, needle));
  g_error_free (error);
  sl_test_parser_clear (&p);
}

static void
test_config_errors (void)
{
  assert_config_error ("json-parser(key-delimiter(\"::\"))", "key-delimiter() takes one character");
  assert_config_error ("json-parser(extract-prefix(\"a..b\"))", "extract-prefix()");
  assert_config_error ("json-parser(extract-prefix(\"a[x]\"))", "extract-prefix()");
  assert_config_error ("json-parser(template(\"${unclosed\"))", "unterminated");
}

/* A shared message is copied before it is changed: the other paths that
 * hold it see it as it came. */
static void
test_copy_on_write (void)
{
  SlTestParser p;
  sl_test_parser_init (&p, "json-parser()");
  SlMessage *original = sl_test_message ("{\"k\":\"v\"}");
  SlMessage *mine = sl_message_ref (original);
  g_assert_true (sl_test_parser_process (&p, &mine));
  g_assert_true (mine != original);
  sl_test_assert_field (mine, "k", "v");
  sl_test_assert_field (original, "k", NULL);
  sl_message_unref (mine);
  sl_message_unref (original);
  sl_test_parser_clear (&p);
}

static void
test_hostile_nesting (void)
{
  SlTestParser p;
  sl_test_parser_init (&p, "json-parser(prefix(\"n.\"))");

  /* past jansson's depth limit: refused, not recursed into */
  GString *deep = g_string_new (NULL);
  for (guint i = 0; i < 100000; i++)
    g_string_append (deep, "{\"a\":");
  SlMessage *msg = sl_test_message (deep->str);
  g_assert_false (sl_test_parser_process (&p, &msg));
  sl_message_unref (msg);

  /* deep but within the limit: the names grow past the bound and are
   * skipped, the shallow members still arrive */
  g_string_assign (deep, "{\"top\":1,\"d\":");
  for (guint i = 0; i < 2000; i++)
    g_string_append (deep, "{\"a\":");
  g_string_append (deep, "1");
  for (guint i = 0; i < 2001; i++)
    g_string_append_c (deep, '}');
  msg = sl_test_message (deep->str);
  g_assert_true (sl_test_parser_process (&p, &msg));
  sl_test_assert_field (msg, "n.top", "1");
  sl_test_assert_field (msg, "n.d.a.a.a", NULL);
  sl_message_unref (msg);
  g_assert_cmpint (sl_test_parser_counter (&p, "skipped-keys"), ==, 1);
  g_assert_cmpint (sl_test_parser_counter (&p, "failed"), ==, 1);
  g_string_free (deep, TRUE);
  sl_test_parser_clear (&p);
}

static void
test_hostile_keys_and_bytes (void)
{
  SlTestParser p;
  sl_test_parser_init (&p, "json-parser()");
  gchar *huge_key = g_strnfill (100000, 'k');
  gchar *text = g_strdup_printf ("{\"%s\":\"v\",\"ok\":\"yes\",\"\":\"empty\"}", huge_key);
  SlMessage *msg = sl_test_message (text);
  g_assert_true (sl_test_parser_process (&p, &msg));
  sl_test_assert_field (msg, "ok", "yes");
  g_assert_cmpint (sl_field_lookup (huge_key), ==, SL_F_NONE);
  g_assert_cmpint (sl_test_parser_counter (&p, "skipped-keys"), ==, 2);
  sl_message_unref (msg);
  g_free (text);
  g_free (huge_key);

  /* invalid UTF-8 is no JSON text: refused whole */
  msg = sl_test_message ("{\"k\":\"\xc3\x28\xff\"}");
  g_assert_false (sl_test_parser_process (&p, &msg));
  sl_message_unref (msg);
  /* a lone surrogate escape neither */
  msg = sl_test_message ("{\"k\":\"\\ud800\"}");
  g_assert_false (sl_test_parser_process (&p, &msg));
  sl_message_unref (msg);
  g_assert_cmpint (sl_test_parser_counter (&p, "failed"), ==, 2);
  sl_test_parser_clear (&p);
}

/* What jansson writes for numbers, escapes and arrays, and so the scanner. */
static void
test_values_as_the_tree_writes_them (void)
{
  SlTestParser p;
  sl_test_parser_init (&p, "json-parser()");
  static const gchar text[] = "{\"mz\":-0,\"e\":1e2,\"E\":1E-7,\"big\":-9223372036854775808,"
                               "\"pi\":3.141592653589793,\"one\":1.0,\"rz\":-0.0,"
                               "\"s\":\"\\ud83d\\ude00 \\u00e9\\/\\b\\f\\r\\t\",\"raw\":\"\xe2\x82\xac\","
                               "\"a\":[ -0 , 1.0, 1e100, 2.5e-7, \"q\\\"\\\\\\u0001/\\u007f\", true, null,"
                               " {\"k\" : [ ]}, {} ]}";
  json_check_against_tree (&p, text, sizeof text - 1);
  SlMessage *msg = sl_test_message (text);
  g_assert_true (sl_test_parser_process (&p, &msg));
  sl_test_assert_field (msg, "mz", "0");
  sl_test_assert_field (msg, "e", "100.000000");
  sl_test_assert_field (msg, "E", "0.000000");
  sl_test_assert_field (msg, "big", "-9223372036854775808");
  sl_test_assert_field (msg, "pi", "3.141593");
  sl_test_assert_field (msg, "one", "1.000000");
  sl_test_assert_field (msg, "rz", "-0.000000");
  sl_test_assert_field (msg, "s", "\xf0\x9f\x98\x80 \xc3\xa9/\b\f\r\t");
  sl_test_assert_field (msg, "raw", "\xe2\x82\xac");
  sl_test_assert_field (msg, "a", "[0,1.0,1e100,2.4999999999999999e-7,\"q\\\"\\\\\\u0001/\x7f\",true,null,"
                        "{\"k\":[]},{}]");
  sl_message_unref (msg);
  sl_test_parser_clear (&p);
}

/* A key that repeats: the last value counts, where the first stood. */
static void
test_repeated_keys (void)
{
  SlTestParser p;
  sl_test_parser_init (&p, "json-parser()");
  SlMessage *msg = sl_test_message ("{\"a\":{\"x\":1},\"b\":2,\"a\":{\"y\":3},\"l\":[{\"k\":1,\"k\":2}]}");
  g_assert_true (sl_test_parser_process (&p, &msg));
  sl_test_assert_field (msg, "a.x", NULL);
  sl_test_assert_field (msg, "a.y", "3");
  sl_test_assert_field (msg, "b", "2");
  sl_test_assert_field (msg, "l", "[{\"k\":2}]");
  sl_message_unref (msg);
  sl_test_parser_clear (&p);
}

static const gchar *const tricky_texts[] = {
  /* accepted */
  "{}", " \t\r\n{ \"a\" : 1 } \n", "{\"a\":{\"b\":{\"c\":\"d\"}},\"a.b.c\":\"e\"}", "{\"a.b.c\":\"e\",\"a\":{\"b\":{\"c\":\"d\"}}}",
  "{\"n\":9223372036854775807,\"m\":-9223372036854775808,\"z\":0,\"f\":0.5e+3,\"g\":1E400}",
  "{\"r\":0.007,\"s\":0.0001,\"t\":0.00001,\"u\":12345678901234.5,\"v\":123456789012345.6,\"w\":-0.5,"
  "\"x\":1.10,\"y\":100.25,\"z\":0.1,\"a\":0.30000000000000004,\"b\":999999999999999.9,\"c\":-0.000123}",
  "{\"tiny\":1e-400,\"den\":4.9e-324,\"max\":1.7976931348623157e308,\"x\":123456789012345678}",
  "{\"r\":[1e17,1e16,1.5e-5,0.0001,-1e-300,100000000000000000000.0,[[[]]],[{\"a\":{\"b\":null}}]]}",
  "{\"esc\":\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\\u00FF\\uFFFF\\uDBFF\\uDFFF\\u0800\"}",
  "{\"\\u0061\\u0062\":\"key escaped\",\"\":{\"\":\"empty keys\"},\"MESSAGE\":\"replaced\"}",
  "{\"ctl\":[\"\\u001f\\u0000x\"]}", "{\"ctl\":[\"\\u001f \\u007F \\u0080\"]}",
  "{\"utf\":\"\xc2\x80\xdf\xbf\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80\xf0\x90\x80\x80\xf4\x8f\xbf\xbf\"}",
  "{\"a\":[1,2],\"a\":3}", "{\"a\":1,\"a\":{\"x\":1}}", "{\"x\":{\"a\":1},\"x\":{\"a\":2,\"b\":3},\"a.b\":0}",
  "[{\"a\":1}]", "[1,{\"a\":{\"b\":1}},{\"c\":2}]", "[[],[{\"d\":4}]]",
  "{\"foo\":{\"bar\":[{},{\"x\":1}]},\"foo\":{\"bar\":[{},{\"y\":2}]}}", "{\"foo\":{\"bar\":[0,{\"x\":1}]}}",
  "{\"foo\":{\"bar\":5}}", "{\"foo\":[{\"bar\":[0,{\"x\":1}]}]}", "{\"foo\":{\"bar\":{\"1\":{\"x\":1}}}}",
  /* refused */
  "", " ", "[", "{", "}", "{\"a\"}", "{\"a\":}", "{\"a\":1,}", "[1,]", "{,}", "{\"a\":1 \"b\":2}", "{\"a\" 1}",
  "{a:1}", "{\"a\":01}", "{\"a\":-}", "{\"a\":+1}", "{\"a\":.5}", "{\"a\":1.}", "{\"a\":1e}", "{\"a\":1e+}",
  "{\"a\":-01}", "{\"a\":0x1}", "{\"a\":9223372036854775808}", "{\"a\":-9223372036854775809}",
  "{\"a\":99999999999999999999}", "{\"a\":1e309}", "{\"a\":-1e400}", "{\"a\":NaN}", "{\"a\":Infinity}",
  "{\"a\":tru}", "{\"a\":truex}", "{\"a\":nul}", "{\"a\":True}", "{\"a\":\"x}", "{\"a\":\"\\x\"}",
  "{\"a\":\"\\u12\"}", "{\"a\":\"\\u12g4\"}", "{\"a\":\"\\udc00\"}", "{\"a\":\"\\ud800\\u0041\"}",
  "{\"a\":\"\\ud800x\"}", "{\"a\":\"\\ud800\\\\\"}", "{\"a\":\"\\u0000\"}", "{\"\\u0000\":1}",
  "{\"a\":\"tab\there\"}", "{\"a\":\"\x7f\x80\"}", "{\"a\":\"\xc0\xaf\"}", "{\"a\":\"\xc1\xbf\"}",
  "{\"a\":\"\xe0\x9f\xbf\"}", "{\"a\":\"\xed\xa0\x80\"}", "{\"a\":\"\xf0\x8f\xbf\xbf\"}", "{\"a\":\"\xf4\x90\x80\x80\"}",
  "{\"a\":\"\xf5\x80\x80\x80\"}", "{\"a\":\"\xe2\x82\"}", "{\"a\":\"\xe2\x82", "{\"a\":1}{}", "{\"a\":1} x",
  "{\"a\":1}\x0b", "\xef\xbb\xbf{\"bom\":1}", "{\"a\":[1,2}", "{\"a\":{\"b\":1]}", "{\"a\":1,\"a\":}",
  "\"string\"", "1", "true", "null", "{\"a\":1}\"", "{\"a\":[\"\\ud800\"]}", "{\"a\":[1e400]}",
  "{\"a\":[-01]}", "{\"a\":[truex]}", "{\"a\":[\"\\u0000\"]}",
};

static const gchar *const check_configs[] = {
  "json-parser()",
  "json-parser(prefix(\"json.\") key-delimiter(\"/\"))",
  "json-parser(marker(\"@cee:\"))",
  "json-parser(extract-prefix(\"foo.bar[1]\") prefix(\"e.\"))",
  "json-parser(extract-prefix(\"[0]\"))",
  "json-parser(extract-prefix(\"[1].a\"))",
  "json-parser(extract-prefix(\"x\"))",
};

static void
test_same_as_tree (void)
{
  for (guint c = 0; c < G_N_ELEMENTS (check_configs); c++)
    {
      SlTestParser p;
      sl_test_parser_init (&p, check_configs[c]);
      for (guint i = 0; i < G_N_ELEMENTS (tricky_texts); i++)
        {
          gchar *text = g_strconcat (strstr (check_configs[c], "marker") ? "@cee:" : "", tricky_texts[i], NULL);
          json_check_against_tree (&p, text, strlen (text));
          g_free (text);
        }
      /* bytes past a NUL count: a NUL is no JSON anywhere */
      static const gchar with_nul[] = "{\"a\":\"x\0y\"}";
      json_check_against_tree (&p, with_nul, sizeof with_nul - 1);
      static const gchar nul_after[] = "{\"a\":1}\0";
      json_check_against_tree (&p, nul_after, sizeof nul_after - 1);
      /* but jansson loses one NUL right after a number or a word */
      static const gchar nul_lost[] = "{\"a\":[1\0,true\0],\"b\":-2.5\0,\"c\":null\0}";
      json_check_against_tree (&p, nul_lost, sizeof nul_lost - 1);
      static const gchar nuls[] = "{\"a\":1\0\0}";
      json_check_against_tree (&p, nuls, sizeof nuls - 1);
      sl_test_parser_clear (&p);
    }
}

/* Around jansson's depth limit of 2048 values, and objects wider than the
 * scanner compares keys in. */
static void
test_same_as_tree_at_the_limits (void)
{
  SlTestParser p;
  sl_test_parser_init (&p, "json-parser()");
  for (guint depth = 2045; depth <= 2050; depth++)
    for (guint kind = 0; kind < 4; kind++)
      {
        GString *text = g_string_new ("{\"a\":");
        for (guint i = 1; i < depth; i++)
          g_string_append (text, kind & 1 ? "[" : "{\"k\":");
        g_string_append (text, kind & 2 ? "1" : "[]");
        for (guint i = 1; i < depth; i++)
          g_string_append_c (text, kind & 1 ? ']' : '}');
        g_string_append_c (text, '}');
        json_check_against_tree (&p, text->str, text->len);
        g_string_free (text, TRUE);
      }
  for (guint width = 60; width <= 70; width += 5)
    for (guint repeat = 0; repeat < 2; repeat++)
      {
        GString *text = g_string_new ("{");
        for (guint i = 0; i < width; i++)
          g_string_append_printf (text, "\"k%u\":{\"v\":%u},", repeat && i == width - 1 ? 0 : i, i);
        g_string_append (text, "\"end\":[{\"x\":1,\"x\":2}]}");
        json_check_against_tree (&p, text->str, text->len);
        g_string_free (text, TRUE);
      }
  sl_test_parser_clear (&p);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_assert_true (sl_plugins_register (&sl_module, __FILE__, NULL));
  g_test_add_func ("/json-parser/scalars-and-nesting", test_scalars_and_nesting);
  g_test_add_func ("/json-parser/default-prefix-is-empty", test_default_prefix_is_empty);
  g_test_add_func ("/json-parser/typed-values", test_typed_values);
  g_test_add_func ("/json-parser/rsyslog-types", test_rsyslog_types);
  g_test_add_func ("/json-parser/reals-as-printf-writes-them", test_reals_as_printf_writes_them);
  g_test_add_func ("/json-parser/not-json", test_not_json_is_counted_and_changes_nothing);
  g_test_add_func ("/json-parser/marker", test_marker);
  g_test_add_func ("/json-parser/extract-prefix", test_extract_prefix);
  g_test_add_func ("/json-parser/key-delimiter-and-template", test_key_delimiter_and_template);
  g_test_add_func ("/json-parser/config-errors", test_config_errors);
  g_test_add_func ("/json-parser/copy-on-write", test_copy_on_write);
  g_test_add_func ("/json-parser/hostile/nesting", test_hostile_nesting);
  g_test_add_func ("/json-parser/hostile/keys-and-bytes", test_hostile_keys_and_bytes);
  g_test_add_func ("/json-parser/values-as-the-tree-writes-them", test_values_as_the_tree_writes_them);
  g_test_add_func ("/json-parser/repeated-keys", test_repeated_keys);
  g_test_add_func ("/json-parser/same-as-tree", test_same_as_tree);
  g_test_add_func ("/json-parser/same-as-tree-at-the-limits", test_same_as_tree_at_the_limits);
  return g_test_run ();
}
