/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sdata-parser(): the fields it makes from structured data are the ones
 * syslog-parser() makes from the same data in an RFC 5424 line (names,
 * escapes, empty elements), under another prefix() too; text that is no
 * structured data does not pass and is counted. */
#include "tests/unit/parser-harness.h"
#include "core/config/error.h"
#include "core/compile/loader.h"

#include <string.h>

extern const SlModule sl_module;

static const gchar *const structured[] = {
  "[origin ip=\"10.0.0.9\" software=\"app\"]",
  "[ex@32473 iut=\"3\" eventSource=\"Application\"][meta sequenceId=\"7\"]",
  "[esc a=\"q\\\"uote\" b=\"back\\\\slash\" c=\"br\\]acket\" d=\"other\\n\"]",
  "[empty][x y=\"\"]",
  "[u v=\"h\xc3\xa9llo w\xc3\xb6rld\"]",
};

static gboolean
append_field (SlHandle h, const gchar *value, gsize len, gpointer user_data)
{
  g_string_append_printf (user_data, "%s=%.*s\n", sl_field_name (h), (gint) len, value);
  return TRUE;
}

static gchar *
fields_of (const SlMessage *msg)
{
  GString *text = g_string_new (NULL);
  sl_message_foreach_dynamic (msg, append_field, text);
  return g_string_free (text, FALSE);
}

static void
test_same_fields_as_syslog_parser (void)
{
  SlTestParser syslog, sdata, sdata_msg;
  sl_test_parser_init (&syslog, "syslog-parser(flags(syslog-protocol))");
  sl_test_parser_init (&sdata, "sdata-parser(template(\"${sd}\") prefix(\".SDATA.\"))");
  sl_test_parser_init (&sdata_msg, "sdata-parser()");
  for (guint i = 0; i < G_N_ELEMENTS (structured); i++)
    {
      g_autofree gchar *line = g_strdup_printf ("<13>1 2026-12-01T20:00:00Z host app - - %s text", structured[i]);
      SlMessage *by_syslog = sl_test_message (line);
      g_assert_true (sl_test_parser_process (&syslog, &by_syslog));

      SlMessage *by_sdata = sl_test_message ("unrelated");
      sl_message_set (by_sdata, sl_field_handle ("sd"), structured[i], -1);
      g_assert_true (sl_test_parser_process (&sdata, &by_sdata));
      SlMessage *in_message = sl_test_message (structured[i]);
      g_assert_true (sl_test_parser_process (&sdata_msg, &in_message));

      g_autofree gchar *expected = fields_of (by_syslog);
      g_autofree gchar *got = fields_of (by_sdata);
      g_autofree gchar *got_msg = fields_of (in_message);
      g_test_message ("%s:\n%s", structured[i], got);
      g_assert_nonnull (strstr (got, expected));
      g_assert_cmpstr (got_msg, ==, expected);
      sl_message_unref (by_syslog);
      sl_message_unref (by_sdata);
      sl_message_unref (in_message);
    }
  sl_test_parser_clear (&syslog);
  sl_test_parser_clear (&sdata);
  sl_test_parser_clear (&sdata_msg);
}

static void
test_prefix (void)
{
  SlTestParser p;
  sl_test_parser_init (&p, "sdata-parser(prefix(\"sd.\"))");
  SlMessage *msg = sl_test_message ("[a@1 k=\"v\"][b]");
  g_assert_true (sl_test_parser_process (&p, &msg));
  sl_test_assert_field (msg, "sd.a@1.k", "v");
  sl_test_assert_field (msg, "sd.b", "");
  sl_test_assert_field (msg, ".SDATA.a@1.k", NULL);
  sl_message_unref (msg);
  sl_test_parser_clear (&p);

  GError *error = NULL;
  g_autofree gchar *long_prefix = g_strnfill (129, 'p');
  g_autofree gchar *text = g_strdup_printf ("sdata-parser(prefix(\"%s\"))", long_prefix);
  g_assert_false (sl_test_parser_new (&p, text, &error));
  g_assert_nonnull (strstr (error->message, "128"));
  g_assert_nonnull (strstr (error->message, "test.conf:2:"));
  g_error_free (error);
  sl_test_parser_clear (&p);
}

static void
test_lowercase_names (void)
{
  SlTestParser p;
  sl_test_parser_init (&p, "sdata-parser(prefix(\"sd.\") lowercase-names(yes))");
  SlMessage *msg = sl_test_message ("[Ex@1 iUT=\"V\"][B]");
  g_assert_true (sl_test_parser_process (&p, &msg));
  sl_test_assert_field (msg, "sd.ex@1.iut", "V");
  sl_test_assert_field (msg, "sd.b", "");
  sl_test_assert_field (msg, "sd.Ex@1.iUT", NULL);
  sl_message_unref (msg);
  sl_test_parser_clear (&p);
}

/* rsyslog's mmpstrucdata writes an element without params as { } */
static void
test_empty_objects (void)
{
  SlTestParser p;
  sl_test_parser_init (&p, "sdata-parser(prefix(\"sd.\") empty-objects(yes))");
  SlMessage *msg = sl_test_message ("[empty][a@1 x=\"y\"]");
  g_assert_true (sl_test_parser_process (&p, &msg));
  gsize len;
  SlValueType type;
  g_assert_cmpstr (sl_message_get_typed (msg, sl_field_handle ("sd.empty"), &len, &type), ==, "{ }");
  g_assert_cmpint (type, ==, SL_VALUE_JSON);
  sl_test_assert_field (msg, "sd.a@1.x", "y");
  sl_message_unref (msg);
  sl_test_parser_clear (&p);
}

/* rsyslog's member names keep their dots: escape-dots(yes) escapes a
 * name's own '.' and '\\', so that x after x.y is a member of its own */
static void
test_escape_dots (void)
{
  SlTestParser p;
  sl_test_parser_init (&p, "sdata-parser(prefix(\"sd.\") lowercase-names(yes) empty-objects(yes) escape-dots(yes))");
  SlMessage *msg = sl_test_message ("[a.b@1 x.y=\"1\" x=\"2\"][c\\d e=\"3\"]");
  g_assert_true (sl_test_parser_process (&p, &msg));
  sl_test_assert_field (msg, "sd.a\\.b@1.x\\.y", "1");
  sl_test_assert_field (msg, "sd.a\\.b@1.x", "2");
  sl_test_assert_field (msg, "sd.c\\\\d.e", "3");
  sl_message_unref (msg);
  sl_test_parser_clear (&p);
}

/* The same element and param, read in turn by parsers whose names differ
 * (prefix, case, escaped dots), each time under the parser's own names:
 * a thread remembers names by their parser's style (sd-names.c) */
static void
test_names_of_each_parser (void)
{
  SlTestParser plain, other, lower, escaped;
  sl_test_parser_init (&plain, "sdata-parser(prefix(\"a.\"))");
  sl_test_parser_init (&other, "sdata-parser(prefix(\"b.\"))");
  sl_test_parser_init (&lower, "sdata-parser(prefix(\"a.\") lowercase-names(yes))");
  sl_test_parser_init (&escaped, "sdata-parser(prefix(\"a.\") escape-dots(yes))");
  for (guint round = 0; round < 3; round++)
    {
      SlMessage *msg = sl_test_message ("[Ex.1 K.y=\"v\"]");
      g_assert_true (sl_test_parser_process (&plain, &msg));
      g_assert_true (sl_test_parser_process (&other, &msg));
      g_assert_true (sl_test_parser_process (&lower, &msg));
      g_assert_true (sl_test_parser_process (&escaped, &msg));
      g_autofree gchar *fields = fields_of (msg);
      g_assert_cmpstr (fields, ==, "a.Ex.1.K.y=v\nb.Ex.1.K.y=v\na.ex.1.k.y=v\na.Ex\\.1.K\\.y=v\n");
      sl_message_unref (msg);
    }
  sl_test_parser_clear (&plain);
  sl_test_parser_clear (&other);
  sl_test_parser_clear (&lower);
  sl_test_parser_clear (&escaped);
}

static void
test_not_structured_data (void)
{
  static const gchar *const bad[] = {
    "", "plain text", "[", "[id", "[id a=\"open", "[id a=unquoted]", "[id a=\"x]\"]", "[ id]", "[id  a=\"1\"]",
    "[id a=\"1\"b=\"2\"]",
  };
  SlTestParser p;
  sl_test_parser_init (&p, "sdata-parser()");
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      SlMessage *msg = sl_test_message (bad[i]);
      g_assert_false (sl_test_parser_process (&p, &msg));
      sl_message_unref (msg);
    }
  g_assert_cmpint (sl_test_parser_counter (&p, "invalid"), ==, G_N_ELEMENTS (bad));
  /* "-" is no structured data, and fine; what follows the last element is not read */
  SlMessage *none = sl_test_message ("- whatever");
  g_assert_true (sl_test_parser_process (&p, &none));
  SlMessage *trailing = sl_test_message ("[id a=\"1\"] and the message");
  g_assert_true (sl_test_parser_process (&p, &trailing));
  sl_test_assert_field (trailing, ".SDATA.id.a", "1");
  g_assert_cmpint (sl_test_parser_counter (&p, "invalid"), ==, G_N_ELEMENTS (bad));
  sl_message_unref (none);
  sl_message_unref (trailing);
  sl_test_parser_clear (&p);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_assert_true (sl_plugins_register (&sl_module, __FILE__, NULL));
  g_test_add_func ("/sdata-parser/same-fields-as-syslog-parser", test_same_fields_as_syslog_parser);
  g_test_add_func ("/sdata-parser/prefix", test_prefix);
  g_test_add_func ("/sdata-parser/lowercase-names", test_lowercase_names);
  g_test_add_func ("/sdata-parser/empty-objects", test_empty_objects);
  g_test_add_func ("/sdata-parser/escape-dots", test_escape_dots);
  g_test_add_func ("/sdata-parser/names-of-each-parser", test_names_of_each_parser);
  g_test_add_func ("/sdata-parser/not-structured-data", test_not_structured_data);
  return g_test_run ();
}
