/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lognorm-parser(): fields of the rule that matches, named and written as
 * rsyslogd's mmnormalize leaves them (tags, numbers, nested JSON), what a
 * message no rule matches gets, and rulebases refused at start. */
#include "tests/unit/parser-harness.h"
#include "core/config/error.h"
#include "core/compile/loader.h"

#include <glib/gstdio.h>
#include <string.h>

extern const SlModule sl_module;

#define RULES "rules(" \
  "\"rule=login,auth: user %user:word% logged in from %ip:ipv4% port %port:number%\", " \
  "\"rule=: disk %dev:word% at %pct:number{\\\"format\\\":\\\"number\\\"}% percent full\", " \
  "\"rule=: kv %data:json%\", \"rule=: pairs %.:name-value-list%\")"

static void
test_fields_of_the_matching_rule (void)
{
  SlTestParser p;
  sl_test_parser_init (&p, "lognorm-parser(" RULES ")");
  SlMessage *msg = sl_test_message (" user bob logged in from 10.1.2.3 port 22");
  g_assert_true (sl_test_parser_process (&p, &msg));
  sl_test_assert_field (msg, "user", "bob");
  sl_test_assert_field (msg, "ip", "10.1.2.3");
  sl_test_assert_field (msg, "port", "22");
  sl_test_assert_field (msg, "event.tags", "[ \"login\", \"auth\" ]");
  sl_test_assert_field (msg, "unparsed-data", NULL);
  sl_message_unref (msg);

  msg = sl_test_message (" disk sda at 95 percent full");
  g_assert_true (sl_test_parser_process (&p, &msg));
  sl_test_assert_field (msg, "pct", "95");
  sl_test_assert_field (msg, "event.tags", NULL);
  sl_message_unref (msg);

  msg = sl_test_message (" pairs k=v k2=v2");
  g_assert_true (sl_test_parser_process (&p, &msg));
  sl_test_assert_field (msg, "k", "v");
  sl_test_assert_field (msg, "k2", "v2");
  sl_message_unref (msg);
  g_assert_cmpint (sl_test_parser_counter (&p, "unmatched"), ==, 0);
  sl_test_parser_clear (&p);
}

/* the texts rsyslogd 8.2302 writes for %$!data%, %$!data!y% and the rest,
 * with the types its tree writes them with */
static void
assert_type (SlMessage *msg, const gchar *name, SlValueType expected)
{
  SlValueType type;
  gsize len;
  g_assert_nonnull (sl_message_get_typed (msg, sl_field_handle (name), &len, &type));
  g_assert_cmpint (type, ==, expected);
}

/* escape-dots(yes), mmnormalize's: a name's own dot is escaped, so that
 * event.tags is one member of rsyslog's tree */
static void
test_escape_dots (void)
{
  SlTestParser p;
  sl_test_parser_init (&p, "lognorm-parser(" RULES " prefix(\"!\") escape-dots(yes))");
  SlMessage *msg = sl_test_message (" user bob logged in from 10.1.2.3 port 22");
  g_assert_true (sl_test_parser_process (&p, &msg));
  sl_test_assert_field (msg, "!event\\.tags", "[ \"login\", \"auth\" ]");
  sl_test_assert_field (msg, "!event.tags", NULL);
  sl_message_unref (msg);
  msg = sl_test_message (" kv {\"a.b\": {\"c\": 1}}");
  g_assert_true (sl_test_parser_process (&p, &msg));
  sl_test_assert_field (msg, "!data.a\\.b.c", "1");
  sl_message_unref (msg);
  sl_test_parser_clear (&p);
}

static void
test_nested_json_as_rsyslogd_writes_it (void)
{
  SlTestParser p;
  sl_test_parser_init (&p, "lognorm-parser(" RULES " prefix(\"n.\"))");
  SlMessage *msg = sl_test_message (" kv {\"x\": 1, \"y\": [1,2], \"z\": {\"a\": \"b\"}, \"s\": \"q/\", \"f\": 1.5, "
                                    "\"t\": true, \"n\": null}");
  g_assert_true (sl_test_parser_process (&p, &msg));
  sl_test_assert_field (msg, "n.data", "{ \"x\": 1, \"y\": [ 1, 2 ], \"z\": { \"a\": \"b\" }, \"s\": \"q\\/\", "
                                       "\"f\": 1.5, \"t\": true, \"n\": null }");
  sl_test_assert_field (msg, "n.data.x", "1");
  sl_test_assert_field (msg, "n.data.y", "[ 1, 2 ]");
  sl_test_assert_field (msg, "n.data.z", "{ \"a\": \"b\" }");
  sl_test_assert_field (msg, "n.data.z.a", "b");
  sl_test_assert_field (msg, "n.data.s", "q/");
  sl_test_assert_field (msg, "n.data.f", "1.5");
  sl_test_assert_field (msg, "n.data.t", "true");
  sl_test_assert_field (msg, "n.data.n", "");
  assert_type (msg, "n.data", SL_VALUE_JSON);
  assert_type (msg, "n.data.x", SL_VALUE_INT64);
  assert_type (msg, "n.data.y", SL_VALUE_JSON);
  assert_type (msg, "n.data.s", SL_VALUE_STRING);
  assert_type (msg, "n.data.f", SL_VALUE_DOUBLE);
  assert_type (msg, "n.data.t", SL_VALUE_BOOLEAN);
  assert_type (msg, "n.data.n", SL_VALUE_NULL);
  sl_test_assert_field (msg, "n", "{ \"data\": { \"x\": 1, \"y\": [ 1, 2 ], \"z\": { \"a\": \"b\" }, "
                                  "\"s\": \"q\\/\", \"f\": 1.5, \"t\": true, \"n\": null } }");
  sl_message_unref (msg);
  sl_test_parser_clear (&p);
}

/* liblognorm's originalmsg and unparsed-data; the message goes on */
static void
test_unmatched (void)
{
  SlTestParser p;
  sl_test_parser_init (&p, "lognorm-parser(" RULES ")");
  SlMessage *msg = sl_test_message (" nothing here");
  g_assert_true (sl_test_parser_process (&p, &msg));
  sl_test_assert_field (msg, "originalmsg", " nothing here");
  sl_test_assert_field (msg, "unparsed-data", "nothing here");
  sl_test_assert_field (msg, "user", NULL);
  g_assert_cmpint (sl_test_parser_counter (&p, "unmatched"), ==, 1);
  sl_message_unref (msg);
  sl_test_parser_clear (&p);
}

static void
test_rulebase_file_and_template (void)
{
  g_autofree gchar *dir = g_dir_make_tmp ("lognorm-XXXXXX", NULL);
  g_autofree gchar *path = g_build_filename (dir, "test.rb", NULL);
  g_assert_true (g_file_set_contents (path, "version=2\nrule=:%word:word% is %rest:rest%\n", -1, NULL));
  g_autofree gchar *text = g_strdup_printf ("lognorm-parser(rulebase(\"%s\") template(\"${PROGRAM} ${MESSAGE}\"))",
                                            path);
  SlTestParser p;
  sl_test_parser_init (&p, text);
  SlMessage *msg = sl_test_message ("is here");
  sl_message_set (msg, SL_F_PROGRAM, "sky", -1);
  g_assert_true (sl_test_parser_process (&p, &msg));
  sl_test_assert_field (msg, "word", "sky");
  sl_test_assert_field (msg, "rest", "here");
  sl_message_unref (msg);
  sl_test_parser_clear (&p);
  g_unlink (path);
  g_rmdir (dir);
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
  assert_config_error ("lognorm-parser()", "either rulebase() or rules()");
  assert_config_error ("lognorm-parser(rulebase(\"/x\") rules(\"rule=:a\"))", "only one of them");
  assert_config_error ("lognorm-parser(rulebase(\"/nonexistent/x.rb\"))", "'/nonexistent/x.rb' is not a readable file");
  assert_config_error ("lognorm-parser(rules(\"rule=:%x:nosuchtype%\"))",
                       "liblognorm refused the rulebase: ");
  assert_config_error ("lognorm-parser(rules(\"rule=:%x:regex:a+%\"))",
                       "liblognorm refused the rulebase: ");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_assert_true (sl_plugins_register (&sl_module, __FILE__, NULL));
  g_test_add_func ("/lognorm-parser/fields", test_fields_of_the_matching_rule);
  g_test_add_func ("/lognorm-parser/escape-dots", test_escape_dots);
  g_test_add_func ("/lognorm-parser/nested-json", test_nested_json_as_rsyslogd_writes_it);
  g_test_add_func ("/lognorm-parser/unmatched", test_unmatched);
  g_test_add_func ("/lognorm-parser/rulebase-file-and-template", test_rulebase_file_and_template);
  g_test_add_func ("/lognorm-parser/config-errors", test_config_errors);
  return g_test_run ();
}
