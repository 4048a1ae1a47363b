/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Configuration errors: the exact position, wording, quoted line and caret
 * users see. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "core/config/error.h"
#include "core/config/parser.h"

static void
assert_error (const gchar *text, SlCfgErrorCode code, const gchar *expected)
{
  g_autoptr (GError) error = NULL;
  SlCfgNode *root = sl_cfg_parse_string (text, "test.conf", &error);

  g_assert_null (root);
  g_assert_error (error, SL_CFG_ERROR, (gint) code);
  g_assert_cmpstr (error->message, ==, expected);
}

/* Only the first line: "test.conf:L:C: message". */
static void
assert_error_line (const gchar *text, SlCfgErrorCode code, const gchar *expected)
{
  g_autoptr (GError) error = NULL;
  SlCfgNode *root = sl_cfg_parse_string (text, "test.conf", &error);

  g_assert_null (root);
  g_assert_error (error, SL_CFG_ERROR, (gint) code);
  g_autofree gchar *first = g_strndup (error->message, strcspn (error->message, "\n"));
  g_assert_cmpstr (first, ==, expected);
}

static void
test_unclosed_paren (void)
{
  assert_error ("source s_net {\n"
                "  tcp(ip(\"0.0.0.0\") port(514);\n"
                "};\n",
                SL_CFG_ERROR_SYNTAX,
                "test.conf:2:30: expected ')' to close 'tcp(' opened at 2:3, found ';'\n"
                "    tcp(ip(\"0.0.0.0\") port(514);\n"
                "                               ^");
}

static void
test_end_of_file_in_block (void)
{
  assert_error ("@version: 4.0\n"
                "source s_net {\n"
                "  tcp();\n"
                "# the end\n",
                SL_CFG_ERROR_SYNTAX,
                "test.conf:3:9: unexpected end of file in 'source s_net {' opened at 2:1\n"
                "    tcp();\n"
                "          ^");
  assert_error_line ("log { source(s);\n  if (level(err)",
                     SL_CFG_ERROR_SYNTAX, "test.conf:2:17: unexpected end of file in 'if (' opened at 2:3");
  assert_error_line ("destination d { file(\"/x\"",
                     SL_CFG_ERROR_SYNTAX, "test.conf:1:26: unexpected end of file in 'file(' opened at 1:17");
  assert_error_line ("filter f { level(err) and",
                     SL_CFG_ERROR_SYNTAX, "test.conf:1:26: unexpected end of file in 'filter f {' opened at 1:1");
  assert_error_line ("source", SL_CFG_ERROR_SYNTAX, "test.conf:1:7: expected a name after 'source', found end of file");
}

static void
test_unknown_statement (void)
{
  assert_error ("sorce s_net { tcp(); };", SL_CFG_ERROR_UNKNOWN,
                "test.conf:1:1: unknown statement 'sorce'; did you mean 'source'?\n"
                "  sorce s_net { tcp(); };\n"
                "  ^");
  assert_error_line ("\n  destinaton d { };", SL_CFG_ERROR_UNKNOWN,
                     "test.conf:2:3: unknown statement 'destinaton'; did you mean 'destination'?");
  assert_error_line ("frobnicate { };", SL_CFG_ERROR_UNKNOWN, "test.conf:1:1: unknown statement 'frobnicate'");
  assert_error_line ("};", SL_CFG_ERROR_SYNTAX,
                     "test.conf:1:1: expected a statement such as 'source', 'log' or 'options', found '}'");
}

static void
test_unterminated_string (void)
{
  assert_error ("destination d { file(\"/var/log/x); };\n", SL_CFG_ERROR_SYNTAX,
                "test.conf:1:22: unterminated string\n"
                "  destination d { file(\"/var/log/x); };\n"
                "                       ^");
}

static void
test_missing_semicolon (void)
{
  assert_error ("log { source(s); }\nlog { };", SL_CFG_ERROR_SYNTAX,
                "test.conf:1:19: expected ';' after '}'\n"
                "  log { source(s); }\n"
                "                    ^");
  assert_error_line ("options { }", SL_CFG_ERROR_SYNTAX, "test.conf:1:12: expected ';' after '}'");
  assert_error_line ("source s { tcp() udp(); };", SL_CFG_ERROR_SYNTAX, "test.conf:1:17: expected ';' after ')'");
  assert_error_line ("log { source(s) };", SL_CFG_ERROR_SYNTAX, "test.conf:1:16: expected ';' after ')'");
  assert_error_line ("log { if (a()) { } else { } };", SL_CFG_ERROR_SYNTAX, "test.conf:1:28: expected ';' after '}'");
  assert_error_line ("log { junction { channel { } }; };", SL_CFG_ERROR_SYNTAX, "test.conf:1:29: expected ';' after '}'");
  assert_error_line ("template t \"x\"\nlog { };", SL_CFG_ERROR_SYNTAX,
                     "test.conf:2:1: expected ';' after the template text, found 'log'");
}

static void
test_caret_under_tabs (void)
{
  assert_error ("source s {\n\t\ttcp(port(1) };", SL_CFG_ERROR_SYNTAX,
                "test.conf:2:15: expected ')' to close 'tcp(' opened at 2:3, found '}'\n"
                "  \t\ttcp(port(1) };\n"
                "  \t\t            ^");
}

static void
test_caret_after_utf8 (void)
{
  /* columns count bytes, the caret counts characters */
  assert_error ("destination d { file(\"é\") x; };", SL_CFG_ERROR_SYNTAX,
                "test.conf:1:27: expected ';' after ')'\n"
                "  destination d { file(\"é\") x; };\n"
                "                           ^");
}

static void
test_crlf_lines (void)
{
  assert_error ("source s {\r\n  tcp(;\r\n};\r\n", SL_CFG_ERROR_SYNTAX,
                "test.conf:2:7: expected ')' to close 'tcp(' opened at 2:3, found ';'\n"
                "    tcp(;\n"
                "        ^");
}

static void
test_log_path_errors (void)
{
  assert_error ("log { sorce(s); };", SL_CFG_ERROR_UNKNOWN,
                "test.conf:1:7: unknown log path element 'sorce'; did you mean 'source'?\n"
                "  log { sorce(s); };\n"
                "        ^");
  assert_error_line ("log { else { }; };", SL_CFG_ERROR_SYNTAX, "test.conf:1:7: 'else' must follow the '}' of an 'if'");
  assert_error_line ("log { if destination(d); };", SL_CFG_ERROR_SYNTAX,
                     "test.conf:1:10: expected '(' or '{' after 'if', found 'destination'");
  assert_error_line ("log { if (a()) destination(d); };", SL_CFG_ERROR_SYNTAX,
                     "test.conf:1:16: expected '{' after the condition of 'if', found 'destination'");
  assert_error_line ("log { if (a()) { } else destination(d); };", SL_CFG_ERROR_SYNTAX,
                     "test.conf:1:25: expected '{' after 'else', found 'destination'");
  assert_error_line ("log { flags { }; };", SL_CFG_ERROR_SYNTAX, "test.conf:1:13: expected '(' after 'flags', found '{'");
  assert_error_line ("log { log(x); };", SL_CFG_ERROR_SYNTAX, "test.conf:1:10: expected '{' after 'log', found '('");
  assert_error_line ("log { source; };", SL_CFG_ERROR_SYNTAX, "test.conf:1:13: expected '(' or '{' after 'source', found ';'");
  assert_error_line ("log { \"s\"; };", SL_CFG_ERROR_SYNTAX,
                     "test.conf:1:7: expected a log path element such as 'source(...)' or '}', found \"s\"");
  assert_error_line ("log { junction { destination(d); }; };", SL_CFG_ERROR_SYNTAX,
                     "test.conf:1:18: expected 'channel { ... }' or '}', found 'destination'");
  assert_error_line ("log s { };", SL_CFG_ERROR_SYNTAX, "test.conf:1:5: expected '{' after 'log', found 's'");
}

static void
test_block_errors (void)
{
  assert_error_line ("source s_net tcp();", SL_CFG_ERROR_SYNTAX,
                     "test.conf:1:14: expected '{' after 'source s_net', found 'tcp'");
  assert_error_line ("source { tcp(); };", SL_CFG_ERROR_SYNTAX, "test.conf:1:8: expected a name after 'source', found '{'");
  assert_error_line ("source s { tcp; };", SL_CFG_ERROR_SYNTAX, "test.conf:1:15: expected '(' after 'tcp', found ';'");
  assert_error_line ("source s { \"x\"; };", SL_CFG_ERROR_SYNTAX, "test.conf:1:12: expected a driver or '}', found \"x\"");
  assert_error_line ("options { ; };", SL_CFG_ERROR_SYNTAX, "test.conf:1:11: expected an option or '}', found ';'");
  assert_error_line ("parser p { ) };", SL_CFG_ERROR_SYNTAX, "test.conf:1:12: expected a parser or '}', found ')'");
  assert_error_line ("rewrite r { { };", SL_CFG_ERROR_SYNTAX, "test.conf:1:13: expected a rewrite rule or '}', found '{'");
  assert_error_line ("source s { tcp(port(1) { ); };", SL_CFG_ERROR_SYNTAX,
                     "test.conf:1:24: expected ')' to close 'tcp(' opened at 1:12, found '{'");
  assert_error_line ("source s { \"0123456789012345678901234567890123456789012345\" };", SL_CFG_ERROR_SYNTAX,
                     "test.conf:1:12: expected a driver or '}', found \"0123456789012345678901234567890123456...\"");
}

static void
test_filter_errors (void)
{
  assert_error_line ("filter f { };", SL_CFG_ERROR_SYNTAX, "test.conf:1:12: expected a filter expression, found '}'");
  assert_error_line ("filter f { level(err) facility(mail); };", SL_CFG_ERROR_SYNTAX,
                     "test.conf:1:23: expected 'and', 'or' or '}' to close 'filter f {', found 'facility'");
  assert_error_line ("filter f { \"a\" == ; };", SL_CFG_ERROR_SYNTAX,
                     "test.conf:1:19: expected a value to compare after '==', found ';'");
  assert_error_line ("filter f { \"a\" };", SL_CFG_ERROR_SYNTAX,
                     "test.conf:1:16: expected a comparison operator such as '==' or 'eq' after a string, found '}'");
  assert_error_line ("filter f { f_other; };", SL_CFG_ERROR_SYNTAX,
                     "test.conf:1:19: expected '(' or a comparison operator after 'f_other', found ';'");
  assert_error_line ("filter f { (level(err) or level(info); };", SL_CFG_ERROR_SYNTAX,
                     "test.conf:1:38: expected ')' to close '(' opened at 1:12, found ';'");
  assert_error_line ("filter f { level(err) and and };", SL_CFG_ERROR_SYNTAX,
                     "test.conf:1:31: expected '(' or a comparison operator after 'and', found '}'");
  assert_error_line ("filter f { a() ! b() };", SL_CFG_ERROR_SYNTAX,
                     "test.conf:1:16: unexpected character '!'; write 'not' to negate a filter, '!=' to compare");
}

static void
test_pragma_errors (void)
{
  assert_error ("@inclde \"x.conf\"", SL_CFG_ERROR_UNKNOWN,
                "test.conf:1:1: unknown pragma '@inclde'; did you mean '@include'?\n"
                "  @inclde \"x.conf\"\n"
                "  ^");
  assert_error_line ("@frobnicate", SL_CFG_ERROR_UNKNOWN, "test.conf:1:1: unknown pragma '@frobnicate'");
  assert_error_line ("@version 4.0", SL_CFG_ERROR_SYNTAX, "test.conf:1:10: expected ':' after '@version', found '4.0'");
  assert_error_line ("@version: {", SL_CFG_ERROR_SYNTAX, "test.conf:1:11: expected a version number after '@version:', found '{'");
  assert_error_line ("@include ;", SL_CFG_ERROR_SYNTAX, "test.conf:1:10: expected a file name or pattern after '@include', found ';'");
  assert_error_line ("@define\n", SL_CFG_ERROR_SYNTAX, "test.conf:1:8: expected a name after '@define', found end of file");
  assert_error_line ("@define x {", SL_CFG_ERROR_SYNTAX, "test.conf:1:11: expected a value after '@define x', found '{'");
  assert_error_line ("@module\n", SL_CFG_ERROR_SYNTAX, "test.conf:1:8: expected a module name after '@module', found end of file");
  assert_error_line ("source s { @module x };", SL_CFG_ERROR_SYNTAX,
                     "test.conf:1:12: '@module' is only allowed at the top level");
}

static void
test_backtick_errors (void)
{
  g_unsetenv ("SL_TEST_ERRORS_UNDEFINED");
  assert_error ("source s { tcp(port(`SL_TEST_ERRORS_UNDEFINED`)); };", SL_CFG_ERROR_REFERENCE,
                "test.conf:1:21: undefined `SL_TEST_ERRORS_UNDEFINED`: neither @define nor environment variable\n"
                "  source s { tcp(port(`SL_TEST_ERRORS_UNDEFINED`)); };\n"
                "                      ^");
  assert_error_line ("@define a \"``a``\"\nsource s { tcp(port(`a`)); };", SL_CFG_ERROR_REFERENCE,
                     "test.conf:2:21: `a` refers to itself: substitutions nested more than 16 deep");
  /* an error in substituted text points at the backtick */
  assert_error_line ("@define bad \"tcp(\"\n\nsource s { `bad`; };", SL_CFG_ERROR_SYNTAX,
                     "test.conf:3:17: expected ')' to close 'tcp(' opened at 3:12, found ';'");
}

static void
test_nesting_limit (void)
{
  GString *parens = g_string_new ("filter f { ");
  GString *calls = g_string_new ("source s { ");

  for (gint i = 0; i < 300; i++)
    {
      g_string_append_c (parens, '(');
      g_string_append (calls, "a(");
    }
  assert_error_line (parens->str, SL_CFG_ERROR_SYNTAX, "test.conf:1:212: nested more than 200 levels deep");
  assert_error_line (calls->str, SL_CFG_ERROR_SYNTAX, "test.conf:1:412: nested more than 200 levels deep");
  g_string_free (parens, TRUE);
  g_string_free (calls, TRUE);
}

static gchar *
write_file (const gchar *dir, const gchar *name, const gchar *text)
{
  gchar *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  return path;
}

static void
test_errors_across_includes (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GError) inner_error = NULL;
  g_autofree gchar *dir = g_dir_make_tmp ("sluice-errors-XXXXXX", NULL);
  g_autofree gchar *main_path = write_file (dir, "main.conf", "source s {\n@include \"inc.conf\"\n};\n");
  g_autofree gchar *inc = write_file (dir, "inc.conf", "tcp(port(1)\n");
  g_autofree gchar *outer = write_file (dir, "outer.conf", "log { };\n@include \"inner.conf\"\n");
  g_autofree gchar *inner = write_file (dir, "inner.conf", "\nsource s { tcp() };\n");
  g_autofree gchar *expected = g_strdup_printf ("%s:3:1: expected ')' to close 'tcp(' opened at %s:1:1, found '}'\n"
                                                "  };\n"
                                                "  ^", main_path, inc);
  g_autofree gchar *inner_expected = g_strdup_printf ("%s:2:17: expected ';' after ')'\n"
                                                      "  source s { tcp() };\n"
                                                      "                  ^", inner);

  /* an opener in another file is named with its file */
  g_assert_null (sl_cfg_parse_file (main_path, &error));
  g_assert_cmpstr (error->message, ==, expected);

  /* an error in an included file quotes that file */
  g_assert_null (sl_cfg_parse_file (outer, &inner_error));
  g_assert_cmpstr (inner_error->message, ==, inner_expected);

  g_assert_cmpint (g_remove (main_path), ==, 0);
  g_assert_cmpint (g_remove (inc), ==, 0);
  g_assert_cmpint (g_remove (outer), ==, 0);
  g_assert_cmpint (g_remove (inner), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

static void
test_error_set (void)
{
  g_autoptr (GError) known = NULL;
  g_autoptr (GError) unknown_file = NULL;
  g_autoptr (GError) no_file = NULL;
  g_autoptr (GError) past_end = NULL;
  g_autoptr (GError) past_line = NULL;
  SlCfgPos pos = { sl_cfg_intern_file ("set.conf"), 2, 5 };
  SlCfgPos nowhere = { NULL, 0, 0 };
  SlCfgPos other = { sl_cfg_intern_file ("never-remembered.conf"), 1, 1 };

  sl_cfg_source_remember ("set.conf", "first\nsecond line\n");
  sl_cfg_error_set (&known, SL_CFG_ERROR_VALUE, pos, "bad value %d", 42);
  g_assert_error (known, SL_CFG_ERROR, SL_CFG_ERROR_VALUE);
  g_assert_cmpstr (known->message, ==, "set.conf:2:5: bad value 42\n  second line\n      ^");

  sl_cfg_error_set (&unknown_file, SL_CFG_ERROR_TYPE, other, "no source");
  g_assert_cmpstr (unknown_file->message, ==, "never-remembered.conf:1:1: no source");

  sl_cfg_error_set (&no_file, SL_CFG_ERROR_REFERENCE, nowhere, "no position");
  g_assert_error (no_file, SL_CFG_ERROR, SL_CFG_ERROR_REFERENCE);
  g_assert_cmpstr (no_file->message, ==, "no position");

  pos.column = 9;
  pos.line = 1;
  sl_cfg_error_set (&past_end, SL_CFG_ERROR_SYNTAX, pos, "after the end");
  g_assert_cmpstr (past_end->message, ==, "set.conf:1:9: after the end\n  first\n          ^");

  pos.line = 7;
  sl_cfg_error_set (&past_line, SL_CFG_ERROR_SYNTAX, pos, "no such line");
  g_assert_cmpstr (past_line->message, ==, "set.conf:7:9: no such line");

  /* a caller that does not want the error */
  sl_cfg_error_set (NULL, SL_CFG_ERROR_SYNTAX, pos, "ignored");
}

static void
test_suggest (void)
{
  static const gchar *const statements[] = { "options", "source", "destination", "filter", "log" };
  static const gchar *const options[] = { "flow-control", "flush-lines", "port" };

  g_assert_cmpstr (sl_cfg_suggest ("sorce", statements, G_N_ELEMENTS (statements)), ==, "source");
  g_assert_cmpstr (sl_cfg_suggest ("destinaton", statements, G_N_ELEMENTS (statements)), ==, "destination");
  g_assert_cmpstr (sl_cfg_suggest ("dstinaton", statements, G_N_ELEMENTS (statements)), ==, "destination");
  g_assert_cmpstr (sl_cfg_suggest ("lg", statements, G_N_ELEMENTS (statements)), ==, "log");
  g_assert_cmpstr (sl_cfg_suggest ("flow_contrl", options, G_N_ELEMENTS (options)), ==, "flow-control");
  /* a swap of neighbours is one edit */
  g_assert_cmpstr (sl_cfg_suggest ("prot", options, G_N_ELEMENTS (options)), ==, "port");
  g_assert_cmpstr (sl_cfg_suggest ("soruce", statements, G_N_ELEMENTS (statements)), ==, "source");
  /* too far: more than max(1, length / 3) edits */
  g_assert_null (sl_cfg_suggest ("xyz", statements, G_N_ELEMENTS (statements)));
  g_assert_null (sl_cfg_suggest ("srce", statements, G_N_ELEMENTS (statements)));
  g_assert_null (sl_cfg_suggest ("ab", options, G_N_ELEMENTS (options)));
  g_assert_null (sl_cfg_suggest ("source", statements, 0));
}


/* An error in a block's text points into its definition and then at the
 * reference that used it, each with its line and caret. */
static void
test_block_error_positions (void)
{
  assert_error ("block destination d(path(\"/x\")) {\n"
                "  file(\"`path`\" perm(0640);\n"
                "};\n"
                "destination x {\n"
                "  d(path(\"/tmp/x\"));\n"
                "};\n",
                SL_CFG_ERROR_SYNTAX,
                "test.conf:2:27: expected ')' to close 'file(' opened at 2:3, found ';'\n"
                "    file(\"`path`\" perm(0640);\n"
                "                            ^\n"
                "test.conf:5:3: in 'd' used here\n"
                "    d(path(\"/tmp/x\"));\n"
                "    ^");
  /* through two blocks: the inner definition, the outer one's use of it,
   * the use of the outer one */
  assert_error ("block source inner() { tcp(port(514) = 1); };\n"
                "block source outer() { inner(); };\n"
                "source s { outer(); };\n",
                SL_CFG_ERROR_SYNTAX,
                "test.conf:1:38: unexpected character '='; did you mean '=='?\n"
                "  block source inner() { tcp(port(514) = 1); };\n"
                "                                       ^\n"
                "test.conf:2:24: in 'inner' used here\n"
                "  block source outer() { inner(); };\n"
                "                         ^\n"
                "test.conf:3:12: in 'outer' used here\n"
                "  source s { outer(); };\n"
                "             ^");
  /* a substituted value is reported at its backtick */
  assert_error_line ("block filter f(l(err)) { level(`l`) };\n"
                     "filter x { f(l(\"err\" |)) };\n",
                     SL_CFG_ERROR_SYNTAX, "test.conf:1:32: unexpected character '|'");
}

static void
test_block_reference_errors (void)
{
  assert_error ("block destination d(path(\"/x\")) { file(\"`path`\"); };\n"
                "destination x { d(pth(\"/y\")); };\n",
                SL_CFG_ERROR_UNKNOWN,
                "test.conf:2:19: block 'd' (defined at test.conf:1:1) has no parameter 'pth'\n"
                "  destination x { d(pth(\"/y\")); };\n"
                "                    ^");
  assert_error_line ("block destination d(path()) { file(\"`path`\"); };\n"
                     "destination x { d(); };\n",
                     SL_CFG_ERROR_REFERENCE,
                     "test.conf:2:17: block 'd' (defined at test.conf:1:1) needs 'path()': it has no default");
  assert_error ("block destination d() { file(\"`nowhere_defined_x`\"); };\n"
                "destination x { d(); };\n",
                SL_CFG_ERROR_REFERENCE,
                "test.conf:1:31: undefined `nowhere_defined_x` in block 'd': neither a parameter, @define nor "
                "environment variable\n"
                "  block destination d() { file(\"`nowhere_defined_x`\"); };\n"
                "                                ^\n"
                "test.conf:2:17: in 'd' used here\n"
                "  destination x { d(); };\n"
                "                  ^");
  assert_error_line ("block destination d() { file(\"/x\"); };\n"
                     "destination x { d(path \"/y\"); };\n",
                     SL_CFG_ERROR_SYNTAX, "test.conf:2:24: expected '(' after 'path'");
  assert_error_line ("block source loop() { loop(); };\nsource s { loop(); };\n",
                     SL_CFG_ERROR_REFERENCE,
                     "test.conf:1:23: blocks used inside each other more than 64 deep: does 'loop' use itself?");
}

static void
test_block_definition_errors (void)
{
  assert_error_line ("block sink d() { };\n", SL_CFG_ERROR_UNKNOWN,
                     "test.conf:1:7: unknown block context 'sink'");
  assert_error_line ("block destination d { file(\"/x\"); };\n", SL_CFG_ERROR_SYNTAX,
                     "test.conf:1:21: expected '(' after 'block destination d', found '{'");
  assert_error_line ("block destination d(path(\"/x\") path()) { };\n", SL_CFG_ERROR_SYNTAX,
                     "test.conf:1:32: parameter 'path' of block 'd' is declared twice");
  assert_error_line ("block destination d(path(\"/x\")) {\n  file(\"x\");\n", SL_CFG_ERROR_SYNTAX,
                     "test.conf:1:33: no '}' closes this '{'");
  assert_error_line ("application a { };\n", SL_CFG_ERROR_SYNTAX,
                     "test.conf:1:15: expected '[' and a context after the application's name, found '{'");
  assert_error_line ("@module confgen name(x) exec(\"true\")\n", SL_CFG_ERROR_SYNTAX,
                     "test.conf:1:1: @module confgen needs context(), name() and exec()");
}

static void
test_confgen_failure (void)
{
  assert_error ("@module confgen context(source) name(gen) exec(\"exit 3\")\n"
                "source s { gen(); };\n",
                SL_CFG_ERROR_VALUE,
                "test.conf:2:12: 'exit 3' for gen() exited with status 3\n"
                "  source s { gen(); };\n"
                "             ^");
}

static void
test_pair_errors (void)
{
  assert_error_line ("destination k { kafka(config(\"acks\" => )); };\n", SL_CFG_ERROR_SYNTAX,
                     "test.conf:1:40: expected a value after 'acks =>', found ')'");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/config-errors/unclosed-paren", test_unclosed_paren);
  g_test_add_func ("/config-errors/end-of-file", test_end_of_file_in_block);
  g_test_add_func ("/config-errors/unknown-statement", test_unknown_statement);
  g_test_add_func ("/config-errors/unterminated-string", test_unterminated_string);
  g_test_add_func ("/config-errors/missing-semicolon", test_missing_semicolon);
  g_test_add_func ("/config-errors/caret/tabs", test_caret_under_tabs);
  g_test_add_func ("/config-errors/caret/utf8", test_caret_after_utf8);
  g_test_add_func ("/config-errors/caret/crlf", test_crlf_lines);
  g_test_add_func ("/config-errors/log-path", test_log_path_errors);
  g_test_add_func ("/config-errors/blocks", test_block_errors);
  g_test_add_func ("/config-errors/filters", test_filter_errors);
  g_test_add_func ("/config-errors/pragmas", test_pragma_errors);
  g_test_add_func ("/config-errors/backticks", test_backtick_errors);
  g_test_add_func ("/config-errors/nesting-limit", test_nesting_limit);
  g_test_add_func ("/config-errors/includes", test_errors_across_includes);
  g_test_add_func ("/config-errors/error-set", test_error_set);
  g_test_add_func ("/config-errors/suggest", test_suggest);
  g_test_add_func ("/config-errors/block/positions", test_block_error_positions);
  g_test_add_func ("/config-errors/block/references", test_block_reference_errors);
  g_test_add_func ("/config-errors/block/definitions", test_block_definition_errors);
  g_test_add_func ("/config-errors/block/confgen", test_confgen_failure);
  g_test_add_func ("/config-errors/pairs", test_pair_errors);

  return g_test_run ();
}
