/* json-parser(): fields from JSON objects, the options that shape their
 * names, and input made to hurt: not JSON, nested past jansson's limit,
 * huge keys, invalid UTF-8. */
#include "tests/unit/parser-harness.h"
#include "core/config/error.h"

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
  sl_test_assert_field (msg, "json.r", "1.5");
  sl_test_assert_field (msg, "json.tenth", "0.1");
  sl_test_assert_field (msg, "json.t", "true");
  sl_test_assert_field (msg, "json.f", "false");
  sl_test_assert_field (msg, "json.z", "null");
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
      g_assert_null (msg->dynamic);
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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_assert_true (sl_plugins_register (&sl_module, __FILE__, NULL));
  g_test_add_func ("/json-parser/scalars-and-nesting", test_scalars_and_nesting);
  g_test_add_func ("/json-parser/default-prefix-is-empty", test_default_prefix_is_empty);
  g_test_add_func ("/json-parser/not-json", test_not_json_is_counted_and_changes_nothing);
  g_test_add_func ("/json-parser/marker", test_marker);
  g_test_add_func ("/json-parser/extract-prefix", test_extract_prefix);
  g_test_add_func ("/json-parser/key-delimiter-and-template", test_key_delimiter_and_template);
  g_test_add_func ("/json-parser/config-errors", test_config_errors);
  g_test_add_func ("/json-parser/copy-on-write", test_copy_on_write);
  g_test_add_func ("/json-parser/hostile/nesting", test_hostile_nesting);
  g_test_add_func ("/json-parser/hostile/keys-and-bytes", test_hostile_keys_and_bytes);
  return g_test_run ();
}
