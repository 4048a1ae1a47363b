/* SPDX-License-Identifier: GPL-2.0-or-later */
/* RainerScript's functions and operators: the values are those rsyslogd
 * 8.2302 gave for the same calls (tests/functional/test-rsyslog-script
 * compares whole outputs with it). */
#include "core/plugin/plugin.h"
#include "core/compile/loader.h"
#include "core/message/template.h"

#include <string.h>

extern const SlModule sl_module;

static void
assert_renders (const gchar *source, const gchar *text, const gchar *expected)
{
  GError *error = NULL;
  SlMessage *message = sl_message_new ("", 0);
  SlTemplate *t = sl_template_compile (source, &error);
  g_autoptr (GString) out = g_string_new (NULL);

  g_assert_no_error (error);
  sl_message_set (message, sl_field_handle ("text"), text, -1);
  sl_template_append (t, message, NULL, out);
  g_assert_cmpstr (out->str, ==, expected);
  sl_template_unref (t);
  sl_message_unref (message);
}

static void
assert_refused (const gchar *source, const gchar *part)
{
  GError *error = NULL;
  SlTemplate *t = sl_template_compile (source, &error);

  g_assert_null (t);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, part));
  g_error_free (error);
}

static void
test_numbers (void)
{
  assert_renders ("$(rsyslog-num ${text})", "42abc", "42");
  assert_renders ("$(rsyslog-num ${text})", "-17", "-17");
  assert_renders ("$(rsyslog-num ${text})", "abc", "0");
  assert_renders ("$(rsyslog-bool ${text})", "abc", "0");
  assert_renders ("$(rsyslog-bool ${text})", "2", "1");
  assert_renders ("$(rsyslog-calc + ${text} 3)", "4", "7");
  assert_renders ("$(rsyslog-calc - 3 ${text})", "x", "3");
  assert_renders ("$(rsyslog-calc * ${text} -3)", "4", "-12");
  assert_renders ("$(rsyslog-calc / ${text} 2)", "-7", "-3");
  assert_renders ("$(rsyslog-calc / ${text} 0)", "7", "0");
  assert_renders ("$(rsyslog-calc % ${text} 4)", "-7", "-3");
  assert_renders ("$(rsyslog-calc % ${text} 0)", "7", "0");
  assert_refused ("$(rsyslog-calc ^ 1 2)", "'^'");
}

static void
test_compare (void)
{
  /* strings compare as text, a string and a number as numbers when the
   * string is one */
  assert_renders ("$(rsyslog-cmp eq ss ${text} 5)", "05", "0");
  assert_renders ("$(rsyslog-cmp eq sn ${text} 5)", "05", "1");
  assert_renders ("$(rsyslog-cmp eq sn ${text} 5)", "5x", "0");
  assert_renders ("$(rsyslog-cmp ne ns 0 ${text})", "", "0");
  assert_renders ("$(rsyslog-cmp lt ss ${text} 10)", "9", "1");
  assert_renders ("$(rsyslog-cmp lt ss ${text} 10)", "9a", "0");
  assert_renders ("$(rsyslog-cmp ge nn ${text} -3)", "-3", "1");
  assert_renders ("$(rsyslog-cmp contains_i ss ${text} bC)", "aBc", "1");
  assert_renders ("$(rsyslog-cmp startswith ss ${text} aB)", "abc", "0");
  assert_renders ("$(rsyslog-cmp startswith_i ss ${text} \" H\")", "", "1");
  assert_renders ("$(rsyslog-cmp startswith ss ${text} \" H\")", "", "0");
  assert_refused ("$(rsyslog-cmp eq xx 1 2)", "'xx'");
  assert_refused ("$(rsyslog-cmp eq ss 1)", "takes");
}

static void
test_strings (void)
{
  assert_renders ("$(rsyslog-substring ${text} 2 3)", "abcdefg", "cde");
  assert_renders ("$(rsyslog-substring ${text} 2 -2)", "abcdefg", "cdefg");
  assert_renders ("$(rsyslog-substring ${text} 9 3)", "abcdefg", "");
  assert_renders ("$(rsyslog-substring ${text} 5 99)", "abcdefg", "fg");
  assert_renders ("$(rsyslog-field ${text} , 2)", "a,b,c", "b");
  assert_renders ("$(rsyslog-field ${text} ab 3)", "1ab2ab3", "3");
  assert_renders ("$(rsyslog-field ${text} , 4)", "a,b,c", "***FIELD NOT FOUND***");
  assert_renders ("$(rsyslog-field-char ${text} 44 3)", "a,b,", "");
  assert_renders ("$(rsyslog-field-char ${text} 32 0)", "a b", "***FIELD NOT FOUND***");
  assert_renders ("$(rsyslog-replace ${text} aa b)", "aaaxaa", "baxb");
  assert_renders ("$(rsyslog-replace ${text} \"\" X)", "abc", "X");
  assert_renders ("$(rsyslog-strlen ${text})", "h\303\251", "3");
  assert_renders ("$(rsyslog-upper ${text})", "ab\303\251", "AB\303\251");
  assert_renders ("$(rsyslog-lower ${text})", "AbC", "abc");
  assert_renders ("$(rsyslog-ltrim ${text})", "  a \t", "a \t");
  assert_renders ("$(rsyslog-rtrim ${text})", " a  ", " a");
  assert_renders ("$(rsyslog-rtrim ${text})", "   ", "");
}

static void
test_regex (void)
{
  assert_renders ("$(rsyslog-re-match case \"b+c\" ${text})", "abbc", "1");
  assert_renders ("$(rsyslog-re-match case \"B+C\" ${text})", "abbc", "0");
  assert_renders ("$(rsyslog-re-match icase \"B+C\" ${text})", "abbc", "1");
  assert_renders ("$(rsyslog-re-extract case \"([a-z]+)=([0-9]+)\" ${text} 1 2 none)", "a=1 b=22 c=3", "22");
  assert_renders ("$(rsyslog-re-extract case \"([a-z]+)=([0-9]+)\" ${text} 5 2 none)", "a=1 b=22 c=3", "none");
  assert_refused ("$(rsyslog-re-match case \"(\" ${text})", "cannot compile");
}

static void
test_conversions (void)
{
  assert_renders ("$(rsyslog-int2hex ${text})", "255", "ff");
  assert_renders ("$(rsyslog-int2hex ${text})", "-1", "ffffffffffffffff");
  assert_renders ("$(rsyslog-int2hex ${text})", "12x", "NAN");
  assert_renders ("$(rsyslog-ipv42num ${text})", "10.0.0.1", "167772161");
  assert_renders ("$(rsyslog-ipv42num ${text})", " 1.2.3.4 ", "16909060");
  assert_renders ("$(rsyslog-ipv42num ${text})", "1.2.3", "-1");
  assert_renders ("$(rsyslog-ipv42num ${text})", "1..2.3", "-1");
  assert_renders ("$(rsyslog-num2ipv4 ${text})", "167772161", "10.0.0.1");
  assert_renders ("$(rsyslog-num2ipv4 ${text})", "4294967296", "-1");
  assert_renders ("$(rsyslog-num2ipv4 ${text})", "x", "-1");
}

static void
test_time (void)
{
  assert_renders ("$(rsyslog-format-time ${text} date-rfc3164)", "1700000000", "Nov 14 22:13:20");
  assert_renders ("$(rsyslog-format-time ${text} date-rfc3339)", "1700000000", "2023-11-14T22:13:20Z");
  assert_renders ("$(rsyslog-format-time ${text} date-rfc3339)", "soon", "soon");
  assert_renders ("$(rsyslog-parse-time ${text})", "2023-11-14T22:13:20Z", "1700000000");
  assert_renders ("$(rsyslog-parse-time ${text})", "2023-11-14T23:13:20+01:00", "1700000000");
  assert_renders ("$(rsyslog-parse-time ${text})", "yesterday", "0");
  assert_renders ("$(rsyslog-is-time ${text})", "1700000000", "1");
  assert_renders ("$(rsyslog-is-time ${text} date-rfc3339)", "1700000000", "0");
  assert_renders ("$(rsyslog-is-time ${text})", "Nov 14 22:13:20", "1");
  assert_renders ("$(rsyslog-is-time ${text})", "later", "0");
}

static void
test_environment (void)
{
  g_setenv ("SL_TEST_SCRIPT_VAR", "value 1", TRUE);
  assert_renders ("$(rsyslog-getenv ${text})", "SL_TEST_SCRIPT_VAR", "value 1");
  assert_renders ("$(rsyslog-getenv ${text})", "SL_TEST_SCRIPT_UNSET", "");
  for (guint i = 0; i < 50; i++)
    {
      SlMessage *message = sl_message_new ("", 0);
      SlTemplate *t = sl_template_compile ("$(rsyslog-random 3)", NULL);
      g_autoptr (GString) out = g_string_new (NULL);
      sl_template_append (t, message, NULL, out);
      g_assert_true (g_str_equal (out->str, "0") || g_str_equal (out->str, "1") || g_str_equal (out->str, "2"));
      sl_template_unref (t);
      sl_message_unref (message);
    }
  assert_renders ("$(rsyslog-random ${text})", "x", "0");
}

/* what rsyslogd 8.2302's parse_json() took (json-c 0.16) */
static void
test_json_prefix (void)
{
  assert_renders ("$(rsyslog-json-prefix kind ${text})", "{\"a\":1} trailing", "object");
  assert_renders ("$(rsyslog-json-prefix object ${text})", " {\"a\":1} trailing", "{\"a\":1}");
  assert_renders ("$(rsyslog-json-prefix value ${text})", " {\"a\":1}", "");
  assert_renders ("$(rsyslog-json-prefix kind ${text})", "-17abc", "value");
  assert_renders ("$(rsyslog-json-prefix value ${text})", "-17abc", "-17");
  assert_renders ("$(rsyslog-json-prefix kind ${text})", " 42", "");
  assert_renders ("$(rsyslog-json-prefix kind ${text})", "null", "");
  assert_renders ("$(rsyslog-json-prefix kind ${text})", "{bad", "");
  assert_renders ("$(rsyslog-json-prefix kind ${text})", "", "");
  assert_renders ("$(rsyslog-json-prefix value ${text})", "[1, \"x/y\"]", "[ 1, \"x\\/y\" ]");
  assert_renders ("$(rsyslog-json-prefix text ${text})", "{\"a\":{\"b\":[]}}", "{ \"a\": { \"b\": [ ] } }");
  assert_renders ("$(rsyslog-json-prefix kind ${text})", "true", "");
  assert_renders ("$(rsyslog-json-prefix value ${text})", "true ", "true");
  /* an object as written, its reals' digits kept; an empty one apart */
  assert_renders ("$(rsyslog-json-prefix object ${text})", "{\"f\": 2.50, \"e\": 1.5e3} x", "{\"f\": 2.50, \"e\": 1.5e3}");
  assert_renders ("$(rsyslog-json-prefix kind ${text})", " {} x", "empty");
  assert_renders ("$(rsyslog-json-prefix text ${text})", " {} x", "{ }");
  assert_renders ("$(rsyslog-json-prefix value ${text})", " 1.5e3,", "1.5e3");
  assert_renders ("$(rsyslog-json-prefix value ${text})", "\"a b\" x", "\"a b\"");
}

static void
test_exists (void)
{
  SlMessage *message = sl_message_new ("", 0);
  SlTemplate *t = sl_template_compile ("$(rsyslog-exists a)$(rsyslog-exists a.b)$(rsyslog-exists e)$(rsyslog-exists ab)",
                                       NULL);
  g_autoptr (GString) out = g_string_new (NULL);

  sl_message_set (message, sl_field_handle ("a.b"), "x", -1);
  sl_message_set (message, sl_field_handle ("e"), "", 0);
  sl_template_append (t, message, NULL, out);
  g_assert_cmpstr (out->str, ==, "1110");
  sl_template_unref (t);
  sl_message_unref (message);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_assert_true (sl_plugins_register (&sl_module, __FILE__, NULL));
  g_test_add_func ("/rsyslog-script/numbers", test_numbers);
  g_test_add_func ("/rsyslog-script/compare", test_compare);
  g_test_add_func ("/rsyslog-script/strings", test_strings);
  g_test_add_func ("/rsyslog-script/regex", test_regex);
  g_test_add_func ("/rsyslog-script/conversions", test_conversions);
  g_test_add_func ("/rsyslog-script/time", test_time);
  g_test_add_func ("/rsyslog-script/environment", test_environment);
  g_test_add_func ("/rsyslog-script/exists", test_exists);
  g_test_add_func ("/rsyslog-script/json-prefix", test_json_prefix);
  return g_test_run ();
}
