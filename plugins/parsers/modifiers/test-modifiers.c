/* SPDX-License-Identifier: GPL-2.0-or-later */
/* utf8-fix(), anonymize-ip() and split-fields() on the texts whose
 * results rsyslogd 8.2302's mmutf8fix, mmanon and mmfields wrote. */
#include "plugins/parsers/modifiers/modifiers.h"
#include "tests/unit/parser-harness.h"
#include "core/config/error.h"
#include "core/compile/loader.h"

#include <string.h>

extern const SlModule sl_module;

static void
assert_parsed (const gchar *parser, const gchar *text, const gchar *expected)
{
  SlTestParser p;
  sl_test_parser_init (&p, parser);
  SlMessage *msg = sl_test_message (text);
  g_assert_true (sl_test_parser_process (&p, &msg));
  sl_test_assert_field (msg, "MESSAGE", expected);
  sl_message_unref (msg);
  sl_test_parser_clear (&p);
}

static void
test_utf8 (void)
{
  assert_parsed ("utf8-fix()", "ok caf\xc3\xa9 a\xc3(b end\xe2\x82", "ok caf\xc3\xa9 a (b end  ");
  assert_parsed ("utf8-fix()", "over \xc0\xaf sur \xed\xa0\x80 big \xf4\x90\x80\x80 lone \x80 ff \xff x",
                 "over    sur     big      lone   ff   x");
  assert_parsed ("utf8-fix(replacement(\"?\"))", "e\xe2\x82\xac \xf0\x9f\x98\x80 \xe2\x82\xe2\x82\xac",
                 "e\xe2\x82\xac \xf0\x9f\x98\x80 ??\xe2\x82\xac");
}

/* text that needs no fix is not copied: a shared message stays shared */
static void
test_utf8_unchanged (void)
{
  SlTestParser p;
  sl_test_parser_init (&p, "utf8-fix()");
  SlMessage *original = sl_test_message ("caf\xc3\xa9 \xf0\x9f\x98\x80 \xef\xbf\xbf");
  SlMessage *mine = sl_message_ref (original);
  g_assert_true (sl_test_parser_process (&p, &mine));
  g_assert_true (mine == original);
  sl_message_unref (mine);
  sl_message_unref (original);
  sl_test_parser_clear (&p);
}

static void
test_control_characters (void)
{
  assert_parsed ("utf8-fix(mode(control-characters) replacement(\"?\"))", "del\x7f bell\x07 e\xe2\x82\xac ~",
                 "del? bell? e??? ~");
}

static void
test_anonymize_zero (void)
{
  assert_parsed ("anonymize-ip()", "from 10.1.2.3 and 192.168.100.200, 1.2.3.4.5 256.1.1.1 x1.2.3.4 01.02.03.04",
                 "from 10.1.0.0 and 192.168.0.0, 1.2.0.0.5 256.1.0.0 x1.2.0.0 1.2.0.0");
  assert_parsed ("anonymize-ip(bits(8))", "1.2.3 300.300.300.300 9.9.9.9a 1.2.3.4:80 1.2.3.256 999.1.1.1 12.1.1.1.1.1.1",
                 "1.2.3 300.300.300.300 9.9.9.0a 1.2.3.0:80 1.2.3.256 999.1.1.0 12.1.1.0.1.1.1");
  assert_parsed ("anonymize-ip(bits(12))", "1.2.3.0444 0001.2.3.4 10.1.255.3 111.222.123.234",
                 "1.2.3.0444 01.2.0.0 10.1.240.0 111.222.112.0");
  assert_parsed ("anonymize-ip(bits(32))", "1.2.3.4", "0.0.0.0");
}

/* IPv6 and embedded IPv4 as rsyslogd wrote them: every group, placed as
 * mmanon places them (its embedded "::" one group early) */
static void
test_anonymize_ipv6 (void)
{
  assert_parsed ("anonymize-ip(ipv4(no))",
                 "2001:db8::1 fe80::1:2:3:4 ::ffff:10.1.2.3 1:2:3:4:5:6:7:8 "
                 "A:B:C:D:E:F:1:2 2001:0DB8:0000::0001 x2001:db8::1 2001:db8::1x ::1 :: fe80:: a::b "
                 "12:30:45 00:11:22:33:44:55 1:2:3:4:5:6:7:8:9 12345::1 1::2::3 g::1 ::g "
                 "1:2:3:4:5:6:7::8 1:2:3:4:5:6:7 [2001:db8::5]:80 2001:db8::1.2.3.4 ::1.2.3.4 1::ffff:1.2.3.4:80 "
                 "abc:: ::abc :::1 1:::2 1:2:3:4:5:6:1.2.3.4 1:2:3:4:5:1.2.3.4 ffff::10.1.2.3.4",
                 "2001:db8:0:0:0:0:0:0 fe80:0:0:0:0:0:0:0 0:0:0:0:0:0:0.0.0.0 1:2:0:0:0:0:0:0 "
                 "a:b:0:0:0:0:0:0 2001:db8:0:0:0:0:0:0 x2001:db8:0:0:0:0:0:0 2001:db8:0:0:0:0:0:0x 0:0:0:0:0:0:0:0 "
                 "0:0:0:0:0:0:0:0 fe80:0:0:0:0:0:0:0 a:0:0:0:0:0:0:0 "
                 "12:30:45 00:11:22:33:44:55 1:2:0:0:0:0:0:0:9 12345:0:0:0:0:0:0:0 1::2:0:0:0:0:0:0:0 "
                 "g0:0:0:0:0:0:0:0 0:0:0:0:0:0:0:0g "
                 "1:2:3:0:0:0:0:0:0 1:2:3:4:5:6:7 [2001:db8:0:0:0:0:0:0]:80 2001:db8:0:0:0:0:0.0.0.0 "
                 "0:0:0:0:0:0:0.0.0.0 1:0:0:0:0:0:0.0.0.0:80 "
                 "abc:0:0:0:0:0:0:0 0:0:0:0:0:0:0:0 :0:0:0:0:0:0:0:0 1:0:0:0:0:0:0:0:0 1:2:0:0:0:0:0.0.0.0 "
                 "1:2:3:4:5:1.2.3.4 ffff:0:0:0:0:0:0.0.0.0.4");
  assert_parsed ("anonymize-ip(bits(8) ipv6-bits(20) embedded-ipv4(no))",
                 "::ffff:10.1.2.3 ::1.2.3 2001:db8:1:2:3:4:5:6 2001:db8:1:2:3:4:5:ffff 1.2.3.4",
                 "0:0:0:0:0:0:fff0:0.1.2.3 0:0:0:0:0:0:0:0.2.3 2001:db8:1:2:3:4:0:0 2001:db8:1:2:3:4:0:0 1.2.3.0");
  assert_parsed ("anonymize-ip(ipv4(no) ipv6(no) embedded-ipv4-bits(1))",
                 "::ffff:10.1.2.3 1::2:3:1.2.3.4 ::1.2.3.4 1:2::1.2.3.4 1:2:3:4:5::1.2.3.4 a::b:c:d:1.2.3.4 "
                 "1:2:3:4::5:1.2.3.4 ::a:b:c:d:e:1.2.3.4 1.2.3.4",
                 "0:0:0:0:ffff:0:10.1.2.2 1:0:0:2:3:0:1.2.3.4 0:0:0:0:0:0:1.2.3.4 1:2:0:0:0:0:1.2.3.4 "
                 "1:2:3:4:5:0:1.2.3.4 a:0:b:c:d:0:1.2.3.4 1:2:3:4:5:0:1.2.3.4 a:b:c:d:e:0:1.2.3.4 1.2.3.4");
  assert_parsed ("anonymize-ip(bits(8) ipv6-bits(1) embedded-ipv4-bits(1))", "::ffff:10.1.2.3 1::2:3",
                 "0:0:0:0:ffff:0:10.1.2.2 1:0:0:0:0:0:2:2");
}

static void
test_anonymize_simple (void)
{
  assert_parsed ("anonymize-ip(mode(simple))", "1.2.3.4 111.222.123.234 01.02.03.04",
                 "1.2.x.x 111.222.xxx.xxx 01.02.xx.xx");
  assert_parsed ("anonymize-ip(mode(simple) bits(32) replacement(\"*\"))", "10.1.2.3", "**.*.*.*");
}

static gchar *
anonymized (SlTestParser *p, const gchar *text)
{
  SlMessage *msg = sl_test_message (text);
  g_assert_true (sl_test_parser_process (p, &msg));
  gchar *out = g_strdup (sl_message_get (msg, SL_F_MESSAGE, NULL));
  sl_message_unref (msg);
  return out;
}

/* the kept bits stay; random-consistent gives one address one replacement */
static void
test_anonymize_random (void)
{
  SlTestParser p;
  sl_test_parser_init (&p, "anonymize-ip(mode(random-consistent) bits(24))");
  g_autofree gchar *first = anonymized (&p, "10.1.2.3");
  g_autofree gchar *again = anonymized (&p, "10.1.2.3");
  g_assert_true (g_str_has_prefix (first, "10."));
  g_assert_cmpstr (first, ==, again);
  sl_test_parser_clear (&p);

  sl_test_parser_init (&p, "anonymize-ip(ipv6-mode(random-consistent) embedded-ipv4-mode(random))");
  g_autofree gchar *first6 = anonymized (&p, "2001:db8::1");
  g_autofree gchar *again6 = anonymized (&p, "2001:db8::1");
  g_assert_true (g_str_has_prefix (first6, "2001:db8:"));
  g_assert_cmpstr (first6, ==, again6);
  g_autoptr (GRegex) embedded = g_regex_new ("^0:0(:[0-9a-f]{1,4}){4}:\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}$",
                                             0, 0, NULL);
  g_autofree gchar *random6 = anonymized (&p, "::ffff:10.1.2.3");
  g_assert_true (g_regex_match (embedded, random6, 0, NULL));
  sl_test_parser_clear (&p);

  sl_test_parser_init (&p, "anonymize-ip(mode(random))");
  g_autoptr (GRegex) shape = g_regex_new ("^at 192\\.168\\.\\d{1,3}\\.\\d{1,3}$", 0, 0, NULL);
  g_autofree gchar *random = anonymized (&p, "at 192.168.100.200");
  g_assert_true (g_regex_match (shape, random, 0, NULL));
  sl_test_parser_clear (&p);
}

static void
assert_fields (const gchar *parser, const gchar *text, const gchar *const *expected)
{
  SlTestParser p;
  sl_test_parser_init (&p, parser);
  SlMessage *msg = sl_test_message (text);
  g_assert_true (sl_test_parser_process (&p, &msg));
  guint n = 0;
  for (; expected[n]; n++)
    {
      g_autofree gchar *name = g_strdup_printf ("f%u", n + 1);
      sl_test_assert_field (msg, name, expected[n]);
    }
  g_autofree gchar *past = g_strdup_printf ("f%u", n + 1);
  sl_test_assert_field (msg, past, NULL);
  sl_message_unref (msg);
  sl_test_parser_clear (&p);
}

static void
test_split_fields (void)
{
  assert_fields ("split-fields()", " a,b,,c d", (const gchar *[]) { " a", "b", "", "c d", NULL });
  assert_fields ("split-fields(separator(\";\"))", " ;x;", (const gchar *[]) { " ", "x", NULL });
  assert_fields ("split-fields()", " none", (const gchar *[]) { " none", NULL });
  assert_fields ("split-fields()", "", (const gchar *[]) { NULL });

  /* the object as rsyslogd 8.2302 wrote %$!x% */
  SlTestParser p;
  sl_test_parser_init (&p, "split-fields(prefix(\"x.f\") json-field(\"x\"))");
  SlMessage *msg = sl_test_message (" a\"q\\b/c,x#011y\n");
  g_assert_true (sl_test_parser_process (&p, &msg));
  sl_test_assert_field (msg, "x.f1", " a\"q\\b/c");
  sl_test_assert_field (msg, "x", "{ \"f1\": \" a\\\"q\\\\b\\/c\", \"f2\": \"x#011y\\n\" }");
  sl_message_unref (msg);
  sl_test_parser_clear (&p);
}

static void
assert_config_error (const gchar *text, const gchar *needle)
{
  SlTestParser p;
  GError *error = NULL;
  g_assert_false (sl_test_parser_new (&p, text, &error));
  g_assert_nonnull (strstr (error->message, "test.conf:2:"));
  g_assert_nonnull (strstr (error->message, needle));
  g_error_free (error);
  sl_test_parser_clear (&p);
}

static void
test_config_errors (void)
{
  assert_config_error ("utf8-fix(replacement(\"ab\"))", "replacement() takes one character");
  assert_config_error ("anonymize-ip(mode(simple) bits(12))", "bits() takes 8, 16, 24 or 32");
  assert_config_error ("anonymize-ip(bits(33))", "bits");
  assert_config_error ("anonymize-ip(ipv6-mode(simple))", "ipv6-mode() is zero, random or random-consistent");
  assert_config_error ("split-fields(separator(\";;\"))", "separator() takes one character");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_assert_true (sl_plugins_register (&sl_module, __FILE__, NULL));
  g_test_add_func ("/modifiers/utf8-fix/utf-8", test_utf8);
  g_test_add_func ("/modifiers/utf8-fix/unchanged", test_utf8_unchanged);
  g_test_add_func ("/modifiers/utf8-fix/control-characters", test_control_characters);
  g_test_add_func ("/modifiers/anonymize-ip/zero", test_anonymize_zero);
  g_test_add_func ("/modifiers/anonymize-ip/ipv6", test_anonymize_ipv6);
  g_test_add_func ("/modifiers/anonymize-ip/simple", test_anonymize_simple);
  g_test_add_func ("/modifiers/anonymize-ip/random", test_anonymize_random);
  g_test_add_func ("/modifiers/split-fields", test_split_fields);
  g_test_add_func ("/modifiers/config-errors", test_config_errors);
  return g_test_run ();
}
