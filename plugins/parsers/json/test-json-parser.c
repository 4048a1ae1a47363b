/* json-parser(): fields from JSON objects, the options that shape their
 * names, and input made to hurt: not JSON, nested past jansson's limit,
 * huge keys, invalid UTF-8. */
#include "core/config-private.h"
#include "core/config/error.h"
#include "core/config/parser.h"
#include "core/plugin.h"
#include "core/stats.h"

#include <string.h>

extern const SlModule sl_module;

typedef struct
{
  SlConfig *cfg;
  SlCfgNode *tree;
  SlDriver *driver;
  gint64 failed_before;        /* counters are kept by name across tests */
  gint64 skipped_before;
} Parser;

static gint64
counter_now (Parser *p, const gchar *name)
{
  return sl_counter_get (sl_stats_counter ("parser", p->driver->id, "json-parser", name));
}

/* Makes the parser written as text ("json-parser(prefix(\"j.\"))"). */
static gboolean
parser_new (Parser *p, const gchar *text, GError **error)
{
  gchar *conf = g_strdup_printf ("parser p {\n  %s;\n};\n", text);
  p->tree = sl_cfg_parse_string (conf, "test.conf", error);
  g_free (conf);
  g_assert_nonnull (p->tree);
  const SlCfgNode *object = g_ptr_array_index (p->tree->children, 0);
  p->cfg = sl_config_new_empty ();
  p->driver = sl_config_new_driver (p->cfg, SL_DRIVER_PARSER, g_ptr_array_index (object->children, 0),
                                    NULL, error);
  if (!p->driver)
    return FALSE;
  p->failed_before = counter_now (p, "failed");
  p->skipped_before = counter_now (p, "skipped-keys");
  return TRUE;
}

static void
parser_init (Parser *p, const gchar *text)
{
  GError *error = NULL;
  gboolean ok = parser_new (p, text, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
}

static void
parser_clear (Parser *p)
{
  sl_config_free (p->cfg);
  sl_cfg_node_free (p->tree);
}

/* What the parser counted since it was made. */
static gint64
counter (Parser *p, const gchar *name)
{
  return counter_now (p, name) - (g_str_equal (name, "failed") ? p->failed_before : p->skipped_before);
}

static SlMessage *
message (const gchar *text)
{
  SlMessage *msg = sl_message_new (text, strlen (text));
  sl_message_set_slice (msg, SL_F_MESSAGE, msg->raw, msg->raw_len);
  return msg;
}

static gboolean
process (Parser *p, SlMessage **msg)
{
  return p->driver->klass->process (p->driver, msg);
}

static void
assert_field (const SlMessage *msg, const gchar *name, const gchar *expected)
{
  gsize len;
  const gchar *value = sl_message_get (msg, sl_field_handle (name), &len);
  gchar *copy = value ? g_strndup (value, len) : NULL;
  g_assert_cmpstr (copy, ==, expected);
  g_free (copy);
}

static void
test_scalars_and_nesting (void)
{
  Parser p;
  parser_init (&p, "json-parser(prefix(\"json.\"))");
  SlMessage *msg = message ("{\"level\":\"error\",\"n\":42,\"neg\":-7,\"r\":1.5,\"tenth\":0.1,"
                            "\"t\":true,\"f\":false,\"z\":null,\"esc\":\"a\\\"b\\u00e9\\n\","
                            "\"arr\":[1,\"two\",{\"three\":3}],"
                            "\"user\":{\"id\":7,\"name\":{\"first\":\"Ada\"},\"empty\":{}}}");
  g_assert_true (process (&p, &msg));
  assert_field (msg, "json.level", "error");
  assert_field (msg, "json.n", "42");
  assert_field (msg, "json.neg", "-7");
  assert_field (msg, "json.r", "1.5");
  assert_field (msg, "json.tenth", "0.1");
  assert_field (msg, "json.t", "true");
  assert_field (msg, "json.f", "false");
  assert_field (msg, "json.z", "null");
  assert_field (msg, "json.esc", "a\"b\xc3\xa9\n");
  assert_field (msg, "json.arr", "[1,\"two\",{\"three\":3}]");
  assert_field (msg, "json.user.id", "7");
  assert_field (msg, "json.user.name.first", "Ada");
  assert_field (msg, "json.user", NULL);
  assert_field (msg, "json.user.empty", NULL);
  /* the text parsed stays where it was */
  assert_field (msg, "MESSAGE", msg->raw);
  g_assert_cmpint (counter (&p, "failed"), ==, 0);
  sl_message_unref (msg);
  parser_clear (&p);
}

static void
test_default_prefix_is_empty (void)
{
  Parser p;
  parser_init (&p, "json-parser()");
  SlMessage *msg = message ("{\"app\":{\"name\":\"web\"},\"PROGRAM\":\"nginx\"}");
  g_assert_true (process (&p, &msg));
  assert_field (msg, "app.name", "web");
  assert_field (msg, "PROGRAM", "nginx");
  sl_message_unref (msg);
  parser_clear (&p);
}

static void
test_not_json_is_counted_and_changes_nothing (void)
{
  static const gchar *const inputs[] = {
    "hello world", "", "{\"a\":", "[1,2,3]", "\"just a string\"", "42", "{\"a\":1} trailing",
    "{'single':'quotes'}", "{\"nul\":\"a\\u0000b\"}",
  };
  Parser p;
  parser_init (&p, "json-parser(prefix(\"j.\"))");
  for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
    {
      SlMessage *msg = message (inputs[i]);
      SlMessage *before = msg;
      g_assert_false (process (&p, &msg));
      g_assert_true (msg == before);
      g_assert_null (msg->dynamic);
      sl_message_unref (msg);
    }
  g_assert_cmpint (counter (&p, "failed"), ==, G_N_ELEMENTS (inputs));
  parser_clear (&p);
}

static void
test_marker (void)
{
  Parser p;
  parser_init (&p, "json-parser(marker(\"@cee:\") prefix(\".cee.\"))");
  SlMessage *msg = message ("@cee: {\"event\":\"login\"}");
  g_assert_true (process (&p, &msg));
  assert_field (msg, ".cee.event", "login");
  sl_message_unref (msg);

  msg = message ("{\"event\":\"login\"}");
  g_assert_false (process (&p, &msg));
  sl_message_unref (msg);
  msg = message ("@ce");
  g_assert_false (process (&p, &msg));
  sl_message_unref (msg);
  g_assert_cmpint (counter (&p, "failed"), ==, 2);
  parser_clear (&p);
}

static void
test_extract_prefix (void)
{
  Parser p;
  parser_init (&p, "json-parser(extract-prefix(\"foo.bar[1]\"))");
  SlMessage *msg = message ("{\"foo\":{\"bar\":[{\"x\":0},{\"x\":1,\"y\":{\"z\":2}}]},\"other\":3}");
  g_assert_true (process (&p, &msg));
  assert_field (msg, "x", "1");
  assert_field (msg, "y.z", "2");
  assert_field (msg, "other", NULL);
  sl_message_unref (msg);
  /* the path leads nowhere, or to something that is no object */
  msg = message ("{\"foo\":{\"bar\":[{\"x\":0}]}}");
  g_assert_false (process (&p, &msg));
  sl_message_unref (msg);
  msg = message ("{\"foo\":{\"bar\":[1,2]}}");
  g_assert_false (process (&p, &msg));
  sl_message_unref (msg);
  parser_clear (&p);

  parser_init (&p, "json-parser(extract-prefix(\"[2]\") prefix(\"item.\"))");
  msg = message ("[{}, {}, {\"k\":\"v\"}]");
  g_assert_true (process (&p, &msg));
  assert_field (msg, "item.k", "v");
  sl_message_unref (msg);
  parser_clear (&p);
}

static void
test_key_delimiter_and_template (void)
{
  Parser p;
  parser_init (&p, "json-parser(key-delimiter(\"~\") template(\"${payload}\"))");
  SlMessage *msg = message ("not json");
  sl_message_set (msg, sl_field_handle ("payload"), "{\"a\":{\"b\":\"c\"}}", -1);
  g_assert_true (process (&p, &msg));
  assert_field (msg, "a~b", "c");
  sl_message_unref (msg);
  parser_clear (&p);
}

static void
assert_config_error (const gchar *text, const gchar *needle)
{
  Parser p;
  GError *error = NULL;
  g_assert_false (parser_new (&p, text, &error));
  g_assert_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE);
  g_assert_nonnull (strstr (error->message, "test.conf:2:"));
  g_assert_nonnull (strstr (error->message, needle));
  g_error_free (error);
  parser_clear (&p);
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
  Parser p;
  parser_init (&p, "json-parser()");
  SlMessage *original = message ("{\"k\":\"v\"}");
  SlMessage *mine = sl_message_ref (original);
  g_assert_true (process (&p, &mine));
  g_assert_true (mine != original);
  assert_field (mine, "k", "v");
  assert_field (original, "k", NULL);
  sl_message_unref (mine);
  sl_message_unref (original);
  parser_clear (&p);
}

static void
test_hostile_nesting (void)
{
  Parser p;
  parser_init (&p, "json-parser(prefix(\"n.\"))");

  /* past jansson's depth limit: refused, not recursed into */
  GString *deep = g_string_new (NULL);
  for (guint i = 0; i < 100000; i++)
    g_string_append (deep, "{\"a\":");
  SlMessage *msg = message (deep->str);
  g_assert_false (process (&p, &msg));
  sl_message_unref (msg);

  /* deep but within the limit: the names grow past the bound and are
   * skipped, the shallow members still arrive */
  g_string_assign (deep, "{\"top\":1,\"d\":");
  for (guint i = 0; i < 2000; i++)
    g_string_append (deep, "{\"a\":");
  g_string_append (deep, "1");
  for (guint i = 0; i < 2001; i++)
    g_string_append_c (deep, '}');
  msg = message (deep->str);
  g_assert_true (process (&p, &msg));
  assert_field (msg, "n.top", "1");
  assert_field (msg, "n.d.a.a.a", NULL);
  sl_message_unref (msg);
  g_assert_cmpint (counter (&p, "skipped-keys"), ==, 1);
  g_assert_cmpint (counter (&p, "failed"), ==, 1);
  g_string_free (deep, TRUE);
  parser_clear (&p);
}

static void
test_hostile_keys_and_bytes (void)
{
  Parser p;
  parser_init (&p, "json-parser()");
  gchar *huge_key = g_strnfill (100000, 'k');
  gchar *text = g_strdup_printf ("{\"%s\":\"v\",\"ok\":\"yes\",\"\":\"empty\"}", huge_key);
  SlMessage *msg = message (text);
  g_assert_true (process (&p, &msg));
  assert_field (msg, "ok", "yes");
  g_assert_cmpint (sl_field_lookup (huge_key), ==, SL_F_NONE);
  g_assert_cmpint (counter (&p, "skipped-keys"), ==, 2);
  sl_message_unref (msg);
  g_free (text);
  g_free (huge_key);

  /* invalid UTF-8 is no JSON text: refused whole */
  msg = message ("{\"k\":\"\xc3\x28\xff\"}");
  g_assert_false (process (&p, &msg));
  sl_message_unref (msg);
  /* a lone surrogate escape neither */
  msg = message ("{\"k\":\"\\ud800\"}");
  g_assert_false (process (&p, &msg));
  sl_message_unref (msg);
  g_assert_cmpint (counter (&p, "failed"), ==, 2);
  parser_clear (&p);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  sl_plugins_register (&sl_module);
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
