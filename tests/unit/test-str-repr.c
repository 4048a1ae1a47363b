/* SPDX-License-Identifier: GPL-2.0-or-later */
/* core/str-repr: values read and written as syslog-ng's str-repr reads and
 * writes them (cases from its own tests and from runs of syslog-ng 3.38). */
#include "core/message/str-repr.h"

#include <string.h>

static void
check_decode (const gchar *input, gboolean ok, const gchar *value, const gchar *rest)
{
  static const SlStrReprDecode commas = { ",", NULL, NULL };
  GString *out = g_string_new ("stale");
  const gchar *end;

  g_assert_cmpint (sl_str_repr_decode (out, input, &end, &commas), ==, ok);
  g_assert_cmpstr (out->str, ==, value);
  g_assert_cmpstr (end, ==, rest);
  g_string_free (out, TRUE);
}

static void
test_decode (void)
{
  check_decode ("", TRUE, "", "");
  check_decode ("a,b", TRUE, "a", "b");
  check_decode ("a b,c", TRUE, "a b", "c");
  check_decode (",b", TRUE, "", "b");
  check_decode ("\"a,b\",c", TRUE, "a,b", "c");
  check_decode ("'it''s'", FALSE, "'it''s'", "");
  check_decode ("\"\\b\\f\\n\\r\\t\\\\\\\"\\q\"", TRUE, "\b\f\n\r\t\\\"\\q", "");
  check_decode ("'\\\"'", TRUE, "\\\"", "");
  check_decode ("\"open", FALSE, "\"open", "");
  check_decode ("\"a\"junk,b", FALSE, "\"a\"junk,", "b");
}

static gboolean
space_then_word (const gchar *cur, const gchar **next, gpointer user_data)
{
  /* a space ends a value only before a '+' */
  if (cur[1] != '+')
    return FALSE;
  *next = cur + 2;
  return TRUE;
}

static void
test_decode_with_matcher (void)
{
  SlStrReprDecode options = { " ", space_then_word, NULL };
  GString *out = g_string_new ("");
  const gchar *end;

  g_assert_true (sl_str_repr_decode (out, "a b +c", &end, &options));
  g_assert_cmpstr (out->str, ==, "a b");
  g_assert_cmpstr (end, ==, "c");
  g_string_free (out, TRUE);
}

static void
check_encode (const gchar *item, gssize len, const gchar *forbidden, const gchar *expected)
{
  GString *out = g_string_new ("x,");
  sl_str_repr_encode_append (out, item, len < 0 ? strlen (item) : (gsize) len, forbidden);
  g_assert_cmpstr (out->str + 2, ==, expected);
  g_string_free (out, TRUE);
}

static void
test_encode (void)
{
  check_encode ("plain", -1, ",", "plain");
  check_encode ("", -1, ",", "\"\"");
  check_encode ("a,b", -1, ",", "\"a,b\"");
  check_encode ("a,b", -1, NULL, "a,b");
  check_encode ("two words", -1, NULL, "\"two words\"");
  check_encode ("it's", -1, NULL, "\"it's\"");
  check_encode ("say \"hi\"", -1, NULL, "'say \"hi\"'");
  check_encode ("'a' \"b\"", -1, NULL, "\"'a' \\\"b\\\"\"");
  check_encode ("tab\there\\", -1, NULL, "\"tab\\there\\\\\"");
  check_encode ("bad \xff\x01", -1, NULL, "\"bad \\xff\\x01\"");
  check_encode ("caf\xc3\xa9 x", -1, NULL, "\"caf\xc3\xa9 x\"");
}

static void
check_escape (const gchar *text, gsize len, const SlStrReprEscape *escape, const gchar *expected)
{
  g_autoptr (GString) out = g_string_new ("<");
  sl_str_repr_escape_append (out, text, len, escape);
  g_assert_cmpstr (out->str, ==, expected);
}

/* The two styles of syslog-ng's append_unsafe_utf8_as_escaped_*() and
 * CEF's: names, unsafe characters, control characters (NUL among them)
 * and bytes that are not UTF-8 each by their own rule. */
static void
test_escape (void)
{
  const SlStrReprEscape binary = { "\b\f\n\r\t", NULL, "\\x", 2, "\\x" };
  const SlStrReprEscape text = { "\b\f\n\r\t", "'", "\\u", 4, "\\\\x" };
  const SlStrReprEscape cef = { "\n\r", "=", "\\u", 4, "\\x" };
  const gchar mixed[] = "a\tb\\c'd=e\x01\0f\xff\xc3\xa9";
  gsize len = sizeof mixed - 1;

  check_escape (mixed, len, &binary, "<a\\tb\\\\c'd=e\\x01\\x00f\\xff\xc3\xa9");
  check_escape (mixed, len, &text, "<a\\tb\\\\c\\'d=e\\u0001\\u0000f\\\\xff\xc3\xa9");
  check_escape (mixed, len, &cef, "<a\\u0009b\\\\c'd\\=e\\u0001\\u0000f\\xff\xc3\xa9");
  check_escape ("plain", 5, &binary, "<plain");
  check_escape ("", 0, &cef, "<");
  /* a character cut short by the end is not UTF-8 */
  check_escape ("x\xc3\xa9", 2, &binary, "<x\\xc3");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/str-repr/decode", test_decode);
  g_test_add_func ("/str-repr/decode-with-matcher", test_decode_with_matcher);
  g_test_add_func ("/str-repr/encode", test_encode);
  g_test_add_func ("/str-repr/escape", test_escape);
  return g_test_run ();
}
