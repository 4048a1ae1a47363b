/* SPDX-License-Identifier: GPL-2.0-or-later */
/* csv-parser(): columns as syslog-ng splits them: delimiters of characters
 * and strings, quote pairs and their escapes, the flags, null(), and lines
 * made to hurt. */
#include "tests/unit/parser-harness.h"
#include "tests/unit/plugin-fixture.h"
#include "core/config/error.h"
#include "core/compile/loader.h"

#include <string.h>

extern const SlModule sl_module;

/* Parses line with the parser written as text, whose columns are named
 * c1, c2, ...; expected lists the values (NULL-terminated; a column past
 * them must be unset), or is NULL when the line must not parse. */
static void
check (const gchar *text, const gchar *line, const gchar *const *expected)
{
  SlTestParser p;
  sl_test_parser_init (&p, text);
  SlMessage *msg = sl_test_message (line);
  gboolean ok = sl_test_parser_process (&p, &msg);
  g_assert_cmpint (ok, ==, expected != NULL);
  g_assert_cmpint (sl_test_parser_counter (&p, "failed"), ==, expected ? 0 : 1);
  guint i = 0;
  for (; expected && expected[i]; i++)
    {
      gchar *name = g_strdup_printf ("c%u", i + 1);
      sl_test_assert_field (msg, name, expected[i]);
      g_free (name);
    }
  gchar *next = g_strdup_printf ("c%u", i + 1);
  sl_test_assert_field (msg, next, NULL);
  g_free (next);
  sl_message_unref (msg);
  sl_test_parser_clear (&p);
}

#define COLUMNS2 "columns(\"c1\" \"c2\")"
#define COLUMNS3 "columns(\"c1\" \"c2\" \"c3\")"
#define VALUES(...) ((const gchar *const[]) { __VA_ARGS__, NULL })

static void
test_delimiters (void)
{
  check ("csv-parser(" COLUMNS3 ")", "PTHREAD support initialized", VALUES ("PTHREAD", "support", "initialized"));
  check ("csv-parser(" COLUMNS3 " delimiters(\",;\"))", "a,b;c", VALUES ("a", "b", "c"));
  check ("csv-parser(" COLUMNS3 " delimiters(chars(\"\\t\")))", "a\tb c\td", VALUES ("a", "b c", "d"));
  /* a string delimiter wins over a character at the same place */
  check ("csv-parser(" COLUMNS3 " delimiters(chars(\" \") strings(\" :\")))",
         "PTHREAD support :initialized", VALUES ("PTHREAD", "support", "initialized"));
  check ("csv-parser(" COLUMNS3 " delimiters(chars(\"\") strings(\"::\" \"=>\")))",
         "a b::c d=>e", VALUES ("a b", "c d", "e"));
  /* consecutive delimiters make empty columns */
  check ("csv-parser(" COLUMNS3 " delimiters(\",\"))", "a,,c", VALUES ("a", "", "c"));
}

static void
test_quotes_and_escapes (void)
{
  check ("csv-parser(" COLUMNS3 ")", "\"PTHREAD support\" \"initialized\"",
         VALUES ("PTHREAD support", "initialized"));
  /* a quote opens only at a column's start; what follows the closing one
   * is text of the same column up to a delimiter (syslog-ng 3.38 on these
   * lines wrote the same) */
  check ("csv-parser(" COLUMNS3 ")", "\"PTHREAD\"+\"support\" \"initialized\"",
         VALUES ("PTHREAD+\"support\"", "initialized"));
  check ("csv-parser(" COLUMNS3 ")", "'x y' \"z w\" q", VALUES ("x y", "z w", "q"));
  check ("csv-parser(" COLUMNS2 " quotes(\"|\"))", "|a b| 'c d'", VALUES ("a b", "'c"));
  check ("csv-parser(" COLUMNS3 ")", "\"PTHREAD support initialized", VALUES ("PTHREAD support initialized"));
  check ("csv-parser(" COLUMNS3 " quote-pairs(\"''\") delimiters(chars(\" \") strings(\" :\"))"
         " flags(escape-backslash))",
         "'PTHRE\\'AD' 'support' :'initialized'", VALUES ("PTHRE'AD", "support", "initialized"));
  check ("csv-parser(" COLUMNS3 " quote-pairs(\"''\") delimiters(chars(\";,\") strings(\" :\"))"
         " dialect(escape-double-char))",
         "'PTHREAD','sup''port' :'initialized'", VALUES ("PTHREAD", "sup'port", "initialized"));
  /* without an escape dialect a backslash is text and a doubled quote
   * closes the quote and opens none */
  check ("csv-parser(" COLUMNS3 ")", "\"a\\\"b\" c", VALUES ("a\\b\"", "c"));
  check ("csv-parser(" COLUMNS3 " flags(escape-backslash))", "\"PTHREAD \\\"support initialized\"",
         VALUES ("PTHREAD \"support initialized"));
  check ("csv-parser(" COLUMNS3 " flags(escape-double-char))", "\"PTHREAD \"\"support initialized\"",
         VALUES ("PTHREAD \"support initialized"));
  /* syslog-ng 4's escape-backslash-with-sequences (its SCL's Apache
   * parsers): C's letters, \xHH as a byte, anything else as itself */
  check ("csv-parser(" COLUMNS3 " dialect(escape-backslash-with-sequences))",
         "\"a\\tb\\x41\\\"\\q\\\\\\xZZ\" c", VALUES ("a\tbA\"q\\xZZ", "c"));
}

static void
test_flags_and_null (void)
{
  check ("csv-parser(" COLUMNS3 " flags(strip-whitespace))", "\"  PTHREAD  \" \" support\" \"initialized \"",
         VALUES ("PTHREAD", "support", "initialized"));
  check ("csv-parser(" COLUMNS3 " delimiters(\",\") flags(strip-whitespace))", " a , b ,c ",
         VALUES ("a", "b", "c"));
  /* without flags() blanks are stripped, and a leading one is skipped
   * before the column is read: a space delimiter there is no column */
  check ("csv-parser(" COLUMNS3 " delimiters(\",\"))", " a , b ,c ", VALUES ("a", "b", "c"));
  check ("csv-parser(" COLUMNS3 ")", " a , b ,c", VALUES ("a", ",", "b"));
  check ("csv-parser(" COLUMNS3 " delimiters(\",\") flags(greedy))", " a , b ,c ", VALUES (" a ", " b ", "c "));
  check ("csv-parser(" COLUMNS3 " null(\"support\"))", "PTHREAD support initialized",
         VALUES ("PTHREAD", "", "initialized"));
  /* more columns than named: the rest is ignored, or kept whole by greedy */
  check ("csv-parser(" COLUMNS2 ")", "PTHREAD support initialized", VALUES ("PTHREAD", "support"));
  check ("csv-parser(" COLUMNS2 " flags(greedy))", "PTHREAD support initialized",
         VALUES ("PTHREAD", "support initialized"));
  check ("csv-parser(" COLUMNS2 " flags(greedy, escape-double-char))", "\"PTHREAD\" \"support\" \"initialized\"",
         VALUES ("PTHREAD", "\"support\" \"initialized\""));
  /* fewer: the columns found are set */
  check ("csv-parser(" COLUMNS3 ")", "only", VALUES ("only"));
}

static void
test_drop_invalid (void)
{
  check ("csv-parser(" COLUMNS2 " flags(drop-invalid))", "PTHREAD support initialized", NULL);
  check ("csv-parser(" COLUMNS3 " flags(drop-invalid))", "PTHREAD support", NULL);
  check ("csv-parser(" COLUMNS3 " flags(drop-invalid))", "a b c", VALUES ("a", "b", "c"));
  check ("csv-parser(" COLUMNS2 " delimiters(\"/\") flags(greedy, drop-invalid))", "postfix/smtpd/ququ",
         VALUES ("postfix", "smtpd/ququ"));
  check ("csv-parser(" COLUMNS3 " delimiters(\"/\") flags(greedy, drop-invalid))", "postfix", NULL);
  check ("csv-parser(" COLUMNS2 " delimiters(\",\") drop-invalid(yes))", "a,b,", VALUES ("a", "b"));
  check ("csv-parser(" COLUMNS2 " delimiters(\",\") drop-invalid(yes))", "a,b,c", NULL);
  /* the greedy column may be empty */
  check ("csv-parser(" COLUMNS3 " flags(greedy, drop-invalid))", "a b", VALUES ("a", "b", ""));
}

static void
test_apache_line (void)
{
  check ("csv-parser(columns(\"c1\" \"c2\" \"c3\" \"c4\" \"c5\" \"c6\" \"c7\" \"c8\" \"c9\" \"c10\" \"c11\")"
         " quote-pairs('\"\"[]') null(\"-\") flags(escape-backslash, drop-invalid))",
         "10.100.20.1 - - [31/Dec/2007:00:17:10 +0100] \"GET /buglist.cgi?k=public HTTP/1.1\" 200 2708 \"-\""
         " \"curl/7.15.5 (i486-pc-linux-gnu)\" 2 bugzilla.balabit",
         VALUES ("10.100.20.1", "", "", "31/Dec/2007:00:17:10 +0100", "GET /buglist.cgi?k=public HTTP/1.1",
                 "200", "2708", "", "curl/7.15.5 (i486-pc-linux-gnu)", "2", "bugzilla.balabit"));
}

static void
test_prefix_and_template (void)
{
  SlTestParser p;
  sl_test_parser_init (&p, "csv-parser(columns(\"user\" \"action\") prefix(\".csv.\") delimiters(\",\")"
                           " template(\"${PROGRAM},${MESSAGE}\"))");
  SlMessage *original = sl_test_message ("login");
  sl_message_set (original, SL_F_PROGRAM, "ada", -1);
  SlMessage *msg = sl_message_ref (original);
  g_assert_true (sl_test_parser_process (&p, &msg));
  g_assert_true (msg != original);
  sl_test_assert_field (msg, ".csv.user", "ada");
  sl_test_assert_field (msg, ".csv.action", "login");
  sl_test_assert_field (original, ".csv.user", NULL);
  sl_message_unref (msg);
  sl_message_unref (original);
  sl_test_parser_clear (&p);
}

static void
test_hostile_lines (void)
{
  static const gchar fills[] = { ' ', '"', '\\', '[', '\xff' };
  GString *columns = g_string_new ("csv-parser(flags(escape-backslash) quote-pairs('\"\"[]') columns(");
  for (guint i = 0; i < 4096; i++)
    g_string_append_printf (columns, "\"c%u\" ", i + 1);
  g_string_append (columns, "))");
  SlTestParser p;
  sl_test_parser_init (&p, columns->str);
  for (guint i = 0; i < G_N_ELEMENTS (fills); i++)
    {
      gchar *line = g_strnfill (1 << 20, fills[i]);
      SlMessage *msg = sl_test_message (line);
      g_assert_true (sl_test_parser_process (&p, &msg));
      g_assert_true (sl_message_has (msg, sl_field_handle ("c1")));
      sl_message_unref (msg);
      g_free (line);
    }
  /* a line that ends right after a delimiter has no column after it, as
   * syslog-ng reads it */
  SlMessage *msg = sl_test_message (" ");
  g_assert_true (sl_test_parser_process (&p, &msg));
  sl_test_assert_field (msg, "c1", "");
  sl_test_assert_field (msg, "c2", NULL);
  sl_message_unref (msg);
  sl_test_parser_clear (&p);
  g_string_free (columns, TRUE);
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
  assert_config_error ("csv-parser()", "needs columns(");
  assert_config_error ("csv-parser(" COLUMNS2 " quote-pairs(\"\\\"\"))", "odd length");
  assert_config_error ("csv-parser(" COLUMNS2 " delimiters(chars(\"\")))", "no delimiter");
  assert_config_error ("csv-parser(" COLUMNS2 " delimiters(strings(\"\")))", "cannot be empty");
  assert_config_error ("csv-parser(" COLUMNS2 " delimiters(char(\",\")))", "did you mean 'chars'");
  assert_config_error ("csv-parser(" COLUMNS2 " dialect(escape-quotes))",
                       "'escape-quotes' is not a value of dialect(); expected one of: "
                       "escape-none, escape-backslash, escape-double-char, escape-backslash-with-sequences");
  assert_config_error ("csv-parser(" COLUMNS2 " flags(greedier))", "unknown flag");
  /* typed columns are syslog-ng 4's, which 3.38 refuses */
  assert_config_error ("csv-parser(columns(\"c1\" int(\"c2\")))", "needs @version: 4.0");
}

/* columns("c1", int("c2"), "c3") under @version: 4.x: the names in the
 * order written, each column with its type. */
static void
test_typed_columns (void)
{
  SlTestParser p;
  sl_test_parser_init_version (&p, "4.8", "csv-parser(columns(\"c1\", int(\"c2\"), \"c3\", boolean(\"c4\")) "
                                          "delimiters(\",\"))");
  SlMessage *msg = sl_test_message ("x,0x10,z,yes");
  g_assert_true (sl_test_parser_process (&p, &msg));
  SlValueType type;
  gsize len;
  g_assert_cmpstr (sl_message_get_typed (msg, sl_field_handle ("c1"), &len, &type), ==, "x");
  g_assert_cmpint (type, ==, SL_VALUE_STRING);
  g_assert_cmpstr (sl_message_get_typed (msg, sl_field_handle ("c2"), &len, &type), ==, "0x10");
  g_assert_cmpint (type, ==, SL_VALUE_INT32);
  sl_test_assert_field (msg, "c3", "z");
  /* "yes" is no boolean to syslog-ng 4: the field is not set */
  sl_test_assert_field (msg, "c4", NULL);
  sl_message_unref (msg);
  sl_test_parser_clear (&p);
}

/* A source's flags() in options {} are not csv-parser()'s: its own flags()
 * is a different option and inherits nothing. */
static void
test_global_flags_not_inherited (void)
{
  SlTestDriver t;
  GError *error = NULL;
  g_assert_true (sl_test_driver_new (&t, SL_DRIVER_PARSER, "options { flags(no-parse); };\n",
                                     "csv-parser(" COLUMNS2 " delimiters(\",\") flags(strip-whitespace))", &error));
  g_assert_no_error (error);
  SlMessage *msg = sl_test_message (" a , b ");
  g_assert_true (t.driver->klass->ops.parser->process (t.driver, &msg));
  sl_test_assert_field (msg, "c1", "a");
  sl_test_assert_field (msg, "c2", "b");
  sl_message_unref (msg);
  sl_test_driver_free (&t);

  g_assert_true (sl_test_driver_new (&t, SL_DRIVER_PARSER, "options { flags(no-parse); };\n",
                                     "csv-parser(" COLUMNS2 ")", &error));
  g_assert_no_error (error);
  msg = sl_test_message ("a b");
  g_assert_true (t.driver->klass->ops.parser->process (t.driver, &msg));
  sl_test_assert_field (msg, "c1", "a");
  sl_test_assert_field (msg, "c2", "b");
  sl_message_unref (msg);
  sl_test_driver_free (&t);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_assert_true (sl_plugins_register (&sl_module, __FILE__, NULL));
  g_test_add_func ("/csv-parser/delimiters", test_delimiters);
  g_test_add_func ("/csv-parser/quotes-and-escapes", test_quotes_and_escapes);
  g_test_add_func ("/csv-parser/flags-and-null", test_flags_and_null);
  g_test_add_func ("/csv-parser/drop-invalid", test_drop_invalid);
  g_test_add_func ("/csv-parser/apache-line", test_apache_line);
  g_test_add_func ("/csv-parser/prefix-and-template", test_prefix_and_template);
  g_test_add_func ("/csv-parser/hostile-lines", test_hostile_lines);
  g_test_add_func ("/csv-parser/config-errors", test_config_errors);
  g_test_add_func ("/csv-parser/typed-columns", test_typed_columns);
  g_test_add_func ("/csv-parser/global-flags-not-inherited", test_global_flags_not_inherited);
  return g_test_run ();
}
