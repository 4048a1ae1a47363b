/* SPDX-License-Identifier: GPL-2.0-or-later */
/* regexp-parser(): named groups into fields, patterns in order, flags,
 * configuration errors, and patterns and lines made to hurt. */
#include "tests/unit/parser-harness.h"
#include "core/config/error.h"
#include "core/compile/loader.h"

#include <string.h>

extern const SlModule sl_module;

static void
test_named_groups (void)
{
  SlTestParser p;
  sl_test_parser_init (&p, "regexp-parser(prefix(\"rx.\") patterns("
                           "\"^(?<user>\\\\w+) logged in from (?P<ip>[0-9.]+)(?: port (?'port'\\\\d+))?\"))");
  SlMessage *msg = sl_test_message ("ada logged in from 10.1.2.3 via ssh");
  g_assert_true (sl_test_parser_process (&p, &msg));
  sl_test_assert_field (msg, "rx.user", "ada");
  sl_test_assert_field (msg, "rx.ip", "10.1.2.3");
  /* a group that took no part is not set */
  sl_test_assert_field (msg, "rx.port", NULL);
  sl_message_unref (msg);

  msg = sl_test_message ("bob logged in from 10.9.9.9 port 2222");
  g_assert_true (sl_test_parser_process (&p, &msg));
  sl_test_assert_field (msg, "rx.port", "2222");
  sl_message_unref (msg);
  sl_test_parser_clear (&p);
}

/* As syslog-ng 3.38 (the cisco-parser() block relies on it): $0 and every
 * group as $1 ..., without the prefix; a group that took no part keeps
 * what $N held, and numbered matches past the pattern's groups go. */
static void
test_numbered_matches (void)
{
  SlTestParser p;
  sl_test_parser_init (&p, "regexp-parser(prefix(\".p.\") patterns(\"^(?'HOST'[^:]+): (x)?(.*)\"))");
  SlMessage *msg = sl_test_message ("router1: *Mar  1 18:48:50");
  sl_message_set (msg, sl_field_handle ("2"), "kept", -1);
  sl_message_set (msg, sl_field_handle ("4"), "stale", -1);
  sl_message_set (msg, sl_field_handle ("255"), "stale", -1);
  g_assert_true (sl_test_parser_process (&p, &msg));
  sl_test_assert_field (msg, "0", "router1: *Mar  1 18:48:50");
  sl_test_assert_field (msg, "1", "router1");
  sl_test_assert_field (msg, "2", "kept");
  sl_test_assert_field (msg, "3", "*Mar  1 18:48:50");
  sl_test_assert_field (msg, "4", NULL);
  sl_test_assert_field (msg, "255", NULL);
  sl_test_assert_field (msg, ".p.HOST", "router1");
  sl_message_unref (msg);
  sl_test_parser_clear (&p);
}

static void
test_patterns_in_order (void)
{
  SlTestParser p;
  sl_test_parser_init (&p, "regexp-parser(patterns(\"^a=(?<a>\\\\d+)\" \"^(?<word>[a-z]+)\" \"(?<any>.*)\"))");
  SlMessage *msg = sl_test_message ("a=42");
  g_assert_true (sl_test_parser_process (&p, &msg));
  sl_test_assert_field (msg, "a", "42");
  sl_test_assert_field (msg, "word", NULL);
  sl_message_unref (msg);

  msg = sl_test_message ("hello world");
  g_assert_true (sl_test_parser_process (&p, &msg));
  sl_test_assert_field (msg, "word", "hello");
  sl_test_assert_field (msg, "any", NULL);
  sl_message_unref (msg);
  g_assert_cmpint (sl_test_parser_counter (&p, "failed"), ==, 0);
  sl_test_parser_clear (&p);
}

static void
test_no_match_fails (void)
{
  SlTestParser p;
  sl_test_parser_init (&p, "regexp-parser(patterns(\"^x(?<n>\\\\d)\"))");
  SlMessage *original = sl_test_message ("y1");
  SlMessage *msg = sl_message_ref (original);
  g_assert_false (sl_test_parser_process (&p, &msg));
  g_assert_true (msg == original);
  g_assert_cmpint (sl_test_parser_counter (&p, "failed"), ==, 1);
  sl_message_unref (msg);
  sl_message_unref (original);
  sl_test_parser_clear (&p);
}

/* Names read from the pattern skip what only looks like a group. */
static void
test_group_names_in_tricky_places (void)
{
  SlTestParser p;
  sl_test_parser_init (&p, "regexp-parser(patterns(\"[(?<no>]\\\\(?<not>x\\\\Q(?<quoted>\\\\E(?<yes>y)\"))");
  SlMessage *msg = sl_test_message ("?(<not>x(?<quoted>y");
  g_assert_true (sl_test_parser_process (&p, &msg));
  sl_test_assert_field (msg, "yes", "y");
  sl_test_assert_field (msg, "no", NULL);
  sl_test_assert_field (msg, "not", NULL);
  sl_test_assert_field (msg, "quoted", NULL);
  sl_message_unref (msg);
  sl_test_parser_clear (&p);
}

static void
test_flags_and_template (void)
{
  SlTestParser p;
  sl_test_parser_init (&p, "regexp-parser(patterns(\"^(?<v>ERROR)\") flags(ignore-case) template(\"${level}\"))");
  SlMessage *msg = sl_test_message ("message");
  sl_message_set (msg, sl_field_handle ("level"), "error", -1);
  g_assert_true (sl_test_parser_process (&p, &msg));
  sl_test_assert_field (msg, "v", "error");
  sl_message_unref (msg);
  sl_test_parser_clear (&p);

  /* disable-jit (syslog-ng 4's, in its Jellyfin SCL) matches the same */
  sl_test_parser_init (&p, "regexp-parser(patterns(\"^(?<v>ERROR)\") flags(ignore-case, disable-jit))");
  msg = sl_test_message ("error: disk full");
  g_assert_true (sl_test_parser_process (&p, &msg));
  sl_test_assert_field (msg, "v", "error");
  sl_message_unref (msg);
  sl_test_parser_clear (&p);

  /* bytes by default, characters with utf8 */
  sl_test_parser_init (&p, "regexp-parser(patterns(\"^(?<first>.)\"))");
  msg = sl_test_message ("\xc3\xa9t\xc3\xa9");
  g_assert_true (sl_test_parser_process (&p, &msg));
  sl_test_assert_field (msg, "first", "\xc3");
  sl_message_unref (msg);
  msg = sl_test_message ("\xff\xfe invalid");
  g_assert_true (sl_test_parser_process (&p, &msg));
  sl_message_unref (msg);
  sl_test_parser_clear (&p);

  sl_test_parser_init (&p, "regexp-parser(patterns(\"^(?<first>.)\") flags(utf8))");
  msg = sl_test_message ("\xc3\xa9t\xc3\xa9");
  g_assert_true (sl_test_parser_process (&p, &msg));
  sl_test_assert_field (msg, "first", "\xc3\xa9");
  sl_message_unref (msg);
  /* invalid UTF-8 under utf8 is no match, not a crash */
  msg = sl_test_message ("\xff\xfe invalid");
  g_assert_false (sl_test_parser_process (&p, &msg));
  sl_message_unref (msg);
  sl_test_parser_clear (&p);
}

/* (a+)+$ on "aaa...ab" backtracks exponentially: the match limit ends it,
 * and the line counts as not matching. */
static void
test_catastrophic_pattern (void)
{
  SlTestParser p;
  sl_test_parser_init (&p, "regexp-parser(patterns(\"^(?<a>(a+)+)$\" \"^(?<fallback>a)\"))");
  gchar *as = g_strnfill (64, 'a');
  gchar *line = g_strconcat (as, "b", NULL);
  SlMessage *msg = sl_test_message (line);
  g_assert_true (sl_test_parser_process (&p, &msg));
  sl_test_assert_field (msg, "a", NULL);
  sl_test_assert_field (msg, "fallback", "a");
  g_assert_cmpint (sl_test_parser_counter (&p, "match-limit"), ==, 1);
  sl_message_unref (msg);
  g_free (line);
  g_free (as);
  sl_test_parser_clear (&p);
}

static void
assert_config_error (const gchar *text, const gchar *needle)
{
  SlTestParser p;
  GError *error = NULL;
  g_assert_false (sl_test_parser_new (&p, text, &error));
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "test.conf:2:"));
  g_assert_nonnull (strstr (error->message, needle));
  g_error_free (error);
  sl_test_parser_clear (&p);
}

static void
test_config_errors (void)
{
  assert_config_error ("regexp-parser()", "needs patterns(");
  assert_config_error ("regexp-parser(patterns(\"(?<open>x\"))", "(?<open>x");
  assert_config_error ("regexp-parser(patterns(\"ok\" \"[z-a]\"))", "[z-a]");
  assert_config_error ("regexp-parser(patterns(\"ok\") flags(caseless))",
                       "unknown flag 'caseless' in flags(); expected any of: ignore-case, utf8");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_assert_true (sl_plugins_register (&sl_module, __FILE__, NULL));
  g_test_add_func ("/regexp-parser/named-groups", test_named_groups);
  g_test_add_func ("/regexp-parser/numbered-matches", test_numbered_matches);
  g_test_add_func ("/regexp-parser/patterns-in-order", test_patterns_in_order);
  g_test_add_func ("/regexp-parser/no-match-fails", test_no_match_fails);
  g_test_add_func ("/regexp-parser/group-names-in-tricky-places", test_group_names_in_tricky_places);
  g_test_add_func ("/regexp-parser/flags-and-template", test_flags_and_template);
  g_test_add_func ("/regexp-parser/catastrophic-pattern", test_catastrophic_pattern);
  g_test_add_func ("/regexp-parser/config-errors", test_config_errors);
  return g_test_run ();
}
