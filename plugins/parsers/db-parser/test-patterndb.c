/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The patterndb matcher: every pattern parser, literal text before
 * parsers, parsers in the order added, partial matches, and loading
 * errors. The expected values are what syslog-ng 3.38's `pdbtool match`
 * gives for the same file and messages. */
#include "plugins/parsers/db-parser/patterndb.h"

#include <glib/gstdio.h>
#include <string.h>

static const gchar rules_xml[] =
  "<?xml version='1.0' encoding='UTF-8'?>\n"
  "<patterndb version='4' pub_date='2020-01-01'>\n"
  " <ruleset name='any' id='r0'>\n"
  "  <rules><rule id='anyrule' provider='x'><patterns><pattern>hello @STRING:who@</pattern></patterns></rule></rules>\n"
  " </ruleset>\n"
  " <ruleset name='p' id='r1'>\n"
  "  <pattern>p</pattern>\n"
  "  <rules>\n"
  "   <rule id='estr' class='c'><patterns><pattern>e1 @ESTRING:a: @@ESTRING:b:--@end</pattern></patterns></rule>\n"
  "   <rule id='str' class='c'><patterns><pattern>s1 @STRING:a:.-@ x</pattern></patterns></rule>\n"
  "   <rule id='num' class='c'><patterns><pattern>n1 @NUMBER:a@ @NUMBER:b@ @FLOAT:c@</pattern></patterns></rule>\n"
  "   <rule id='q' class='c'><patterns><pattern>q1 @QSTRING:a:\"@ @QSTRING:b:()@</pattern></patterns></rule>\n"
  "   <rule id='ip' class='c'><patterns><pattern>ip @IPv4:a@ @IPv6:b@ @IPvANY:c@</pattern></patterns></rule>\n"
  "   <rule id='em' class='c'><patterns><pattern>em @EMAIL:a:[]@ @HOSTNAME:b@</pattern></patterns></rule>\n"
  "   <rule id='mac' class='c'><patterns><pattern>mac @MACADDR:a@ @LLADDR:b:3@</pattern></patterns></rule>\n"
  "   <rule id='pcre' class='c'><patterns><pattern>re @PCRE:a:[a-z]+[0-9]@ @SET:b:xyz@@OPTIONALSET:c:.@!</pattern></patterns></rule>\n"
  "   <rule id='nl' class='c'><patterns><pattern>nl @NLSTRING:a@\nnext @ANYSTRING:b@</pattern></patterns></rule>\n"
  "   <rule id='lit' class='c'><patterns><pattern>pref literal</pattern></patterns></rule>\n"
  "   <rule id='par' class='c'><patterns><pattern>pref @STRING:w@</pattern></patterns></rule>\n"
  "   <rule id='at' class='c'><patterns><pattern>mail@@host @NUMBER:n@</pattern></patterns></rule>\n"
  "   <rule id='order1' class='c'><patterns><pattern>o @NUMBER:n@x</pattern></patterns></rule>\n"
  "   <rule id='order2' class='c'><patterns><pattern>o @STRING:s@</pattern></patterns>\n"
  "     <tags><tag>t1</tag></tags><values><value name='v'>got ${s}</value></values></rule>\n"
  "  </rules>\n"
  " </ruleset>\n"
  "</patterndb>\n";

static gchar *
write_file (const gchar *text)
{
  gchar *path = NULL;
  gint fd = g_file_open_tmp ("test-patterndb-XXXXXX.xml", &path, NULL);
  g_assert_cmpint (fd, >=, 0);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  close (fd);
  return path;
}

static PatternDb *
load (const gchar *text, const gchar *prefix, GError **error)
{
  gchar *path = write_file (text);
  PatternDb *db = pattern_db_new (prefix);
  gboolean ok = pattern_db_load (db, path, error);
  g_unlink (path);
  g_free (path);
  if (!ok)
    g_clear_pointer (&db, pattern_db_free);
  return db;
}

/* "rule_id name=value name=value ..." for what matched, or "unknown". */
static gchar *
match (const PatternDb *db, const gchar *program, const gchar *message)
{
  GArray *pm = g_array_new (FALSE, FALSE, sizeof (RadixMatch));
  GArray *m = g_array_new (FALSE, FALSE, sizeof (RadixMatch));
  const PdbRule *rule = pattern_db_lookup (db, program, strlen (program), pm, message, strlen (message), m);
  GString *out = g_string_new (rule ? rule->id : "unknown");
  /* in the order of the pattern, as pdbtool lists them */
  for (guint i = m->len; rule && i-- > 0;)
    {
      const RadixMatch *x = &g_array_index (m, RadixMatch, i);
      g_string_append_printf (out, " %s=%.*s", sl_field_name (x->field), x->len, message + x->ofs);
    }
  g_array_unref (pm);
  g_array_unref (m);
  return g_string_free (out, FALSE);
}

static void
check (const PatternDb *db, const gchar *program, const gchar *message, const gchar *expected)
{
  gchar *got = match (db, program, message);
  g_assert_cmpstr (got, ==, expected);
  g_free (got);
}

static void
test_parsers (void)
{
  PatternDb *db = load (rules_xml, NULL, NULL);
  g_assert_nonnull (db);
  check (db, "p", "e1 foo bar--end", "estr a=foo b=bar");
  check (db, "p", "s1 a.b-c x", "str a=a.b-c");
  check (db, "p", "n1 0x1F -12 -3.5e-2", "num a=0x1F b=-12 c=-3.5e-2");
  check (db, "p", "q1 \"hi there\" (a(b)c)", "q a=hi there b=a(b");
  check (db, "p", "ip 10.1.2.3 ::1 fe80::1:2", "ip a=10.1.2.3 b=::1 c=fe80::1:2");
  check (db, "p", "ip 10.1.2.300 ::1 1.2.3.4", "unknown");
  check (db, "p", "em [john.doe@example.com] host.example.org", "em a=john.doe@example.com b=host.example.org");
  check (db, "p", "mac 00:11:22:33:44:55 aa:bb:cc", "mac a=00:11:22:33:44:55 b=aa:bb:cc");
  check (db, "p", "re abc1 yyx.!", "pcre a=abc1 b=yyx c=.");
  check (db, "p", "re abc1 yyx!", "pcre a=abc1 b=yyx c=");
  check (db, "p", "nl one\r\nnext rest of it", "nl a=one b=rest of it");
  check (db, "p", "mail@host 5", "at n=5");
  pattern_db_free (db);
}

static void
test_literal_first_then_order (void)
{
  PatternDb *db = load (rules_xml, NULL, NULL);
  check (db, "p", "pref literal", "lit");
  check (db, "p", "pref literally", "par w=literally");
  check (db, "p", "o 12x", "order1 n=12");
  check (db, "p", "o 12", "order2 s=12");
  pattern_db_free (db);
}

/* As syslog-ng: when no pattern takes the whole message, one that took a
 * part of it does. */
static void
test_partial_match (void)
{
  PatternDb *db = load (rules_xml, NULL, NULL);
  check (db, "p", "s1 a.b x tail", "str a=a.b");
  pattern_db_free (db);
}

/* A ruleset without a program pattern serves programs no ruleset names;
 * a named program without a matching rule does not fall back to it. */
static void
test_programs (void)
{
  PatternDb *db = load (rules_xml, NULL, NULL);
  check (db, "other", "hello bob", "anyrule who=bob");
  check (db, "p", "hello bob", "unknown");
  pattern_db_free (db);
}

static void
test_rule_contents (void)
{
  PatternDb *db = load (rules_xml, ".p.", NULL);
  GArray *m = g_array_new (FALSE, FALSE, sizeof (RadixMatch));
  const PdbRule *rule = pattern_db_lookup (db, "p", 1, NULL, "o abc", 5, m);
  g_assert_nonnull (rule);
  g_assert_cmpstr (rule->class, ==, "c");
  g_assert_cmpuint (m->len, ==, 1);
  g_assert_cmpstr (sl_field_name (g_array_index (m, RadixMatch, 0).field), ==, ".p.s");
  g_assert_cmpuint (rule->tags->len, ==, 2);
  g_assert_cmpstr (sl_tag_name (g_array_index (rule->tags, SlTag, 0)), ==, ".classifier.c");
  g_assert_cmpstr (sl_tag_name (g_array_index (rule->tags, SlTag, 1)), ==, "t1");
  g_assert_cmpuint (rule->values->len, ==, 1);
  g_assert_cmpstr (sl_field_name (g_array_index (rule->values, PdbValue, 0).field), ==, ".p.v");
  rule = pattern_db_lookup (db, "other", 5, NULL, "hello x", 7, NULL);
  g_assert_cmpstr (rule->class, ==, "system");
  g_array_unref (m);
  pattern_db_free (db);
}

static void
expect_error (const gchar *rules, const gchar *fragment)
{
  gchar *xml = g_strdup_printf ("<patterndb version='4'><ruleset name='x' id='x'><pattern>p</pattern>"
                                "<rules>%s</rules></ruleset></patterndb>", rules);
  GError *error = NULL;
  PatternDb *db = load (xml, NULL, &error);
  g_assert_null (db);
  g_assert_nonnull (error);
  if (!strstr (error->message, fragment))
    g_error ("'%s' does not say '%s'", error->message, fragment);
  g_error_free (error);
  g_free (xml);
}

static void
test_errors (void)
{
  expect_error ("<rule id='a'><patterns><pattern>x @FOO:y@</pattern></patterns></rule>", "unknown pattern parser @FOO@");
  expect_error ("<rule id='a'><patterns><pattern>x @ESTRING:y@</pattern></patterns></rule>", "needs a parameter");
  expect_error ("<rule id='a'><patterns><pattern>x</pattern></patterns></rule>"
                "<rule id='b'><patterns><pattern>x</pattern></patterns></rule>", "rule b: its pattern 'x' is rule a's");
  expect_error ("<rule id='a'><patterns><pattern>a@b</pattern></patterns></rule>", "opens no parser");
  expect_error ("<rule id='a' context-id='k'><patterns><pattern>x</pattern></patterns></rule>",
                "does not correlate messages (context-id)");
  expect_error ("<rule id='a'><patterns><pattern>x</pattern></patterns><actions/></rule>", "does not run <actions>");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/patterndb/parsers", test_parsers);
  g_test_add_func ("/patterndb/literal-first-then-order", test_literal_first_then_order);
  g_test_add_func ("/patterndb/partial-match", test_partial_match);
  g_test_add_func ("/patterndb/programs", test_programs);
  g_test_add_func ("/patterndb/rule-contents", test_rule_contents);
  g_test_add_func ("/patterndb/errors", test_errors);
  return g_test_run ();
}
