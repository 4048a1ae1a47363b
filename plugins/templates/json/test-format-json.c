/* $(format-json) and $(format-flat-json): what each scope and option
 * selects, how names nest, and that the output is JSON jansson reads back
 * to the same values whatever bytes the message holds. */
#include "core/config/error.h"
#include "core/plugin.h"
#include "core/template.h"

#include <jansson.h>
#include <string.h>

extern const SlModule sl_module;

static SlMessage *
test_message_with_raw (const gchar *raw, gsize len)
{
  SlMessage *msg = sl_message_new (raw, len);
  msg->pri = SL_PRI_MAKE (19, 3);   /* local3.err */
  msg->stamp = (SlTime) { G_GINT64_CONSTANT (1770122096) * G_USEC_PER_SEC, 3600 };
  msg->recvd = msg->stamp;
  msg->seqnum = 42;
  /* only a message the daemon made numbers itself, as in syslog-ng */
  msg->flags |= SL_MSG_LOCAL;
  sl_message_set (msg, SL_F_HOST, "web1", -1);
  sl_message_set (msg, SL_F_PROGRAM, "nginx", -1);
  sl_message_set (msg, SL_F_PID, "123", -1);
  sl_message_set (msg, SL_F_MESSAGE, "hello", -1);
  sl_message_set (msg, SL_F_SOURCEIP, "10.0.0.1", -1);
  sl_message_set (msg, sl_field_handle ("json.level"), "error", -1);
  sl_message_set (msg, sl_field_handle ("json.user.id"), "42", -1);
  sl_message_set (msg, sl_field_handle ("json.user.name"), "Ada", -1);
  sl_message_set (msg, sl_field_handle (".SDATA.origin.ip"), "10.0.0.9", -1);
  sl_message_set (msg, sl_field_handle (".cee.event"), "login", -1);
  sl_message_set (msg, sl_field_handle ("empty"), "", -1);
  sl_message_set_tag (msg, "t1");
  sl_message_set_tag (msg, "t2");
  return msg;
}

static SlMessage *
test_message (void)
{
  return test_message_with_raw ("", 0);
}

static gchar *
render (const gchar *text, SlMessage *msg)
{
  GError *error = NULL;
  SlTemplate *t = sl_template_compile (text, &error);
  g_assert_no_error (error);
  GString *out = g_string_new (NULL);
  sl_template_append (t, msg, NULL, out);
  sl_template_unref (t);
  return g_string_free (out, FALSE);
}

/* Renders text for the test message and reads it back with jansson. */
static json_t *
render_json (const gchar *text)
{
  SlMessage *msg = test_message ();
  gchar *out = render (text, msg);
  sl_message_unref (msg);
  json_error_t error;
  json_t *root = json_loads (out, 0, &error);
  if (!root)
    g_error ("'%s' gave '%s', no JSON: %s", text, out, error.text);
  g_free (out);
  g_assert_true (json_is_object (root));
  return root;
}

static gint
compare_keys (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const gchar *const *) a, *(const gchar *const *) b);
}

/* The object's keys, sorted, joined by commas; "" as (empty). */
static gchar *
keys_of (json_t *object)
{
  GPtrArray *keys = g_ptr_array_new ();
  const gchar *key;
  json_t *value;
  json_object_foreach (object, key, value)
    g_ptr_array_add (keys, (gpointer) (*key ? key : "(empty)"));
  g_ptr_array_sort (keys, compare_keys);
  GString *out = g_string_new (NULL);
  for (guint i = 0; i < keys->len; i++)
    {
      g_string_append_printf (out, "%s%s", i ? "," : "", (const gchar *) g_ptr_array_index (keys, i));
    }
  g_ptr_array_unref (keys);
  return g_string_free (out, FALSE);
}

static void
assert_keys (const gchar *text, const gchar *expected)
{
  json_t *root = render_json (text);
  gchar *keys = keys_of (root);
  g_assert_cmpstr (keys, ==, expected);
  g_free (keys);
  json_decref (root);
}

static const gchar *
string_at (json_t *root, const gchar *path)
{
  json_t *node = root;
  gchar **parts = g_strsplit (path, "/", -1);
  for (guint i = 0; parts[i] && node; i++)
    node = json_object_get (node, parts[i]);
  g_strfreev (parts);
  return json_is_string (node) ? json_string_value (node) : NULL;
}

static void
assert_renders (const gchar *text, const gchar *expected)
{
  SlMessage *msg = test_message ();
  gchar *out = render (text, msg);
  g_assert_cmpstr (out, ==, expected);
  g_free (out);
  sl_message_unref (msg);
}

static void
test_scopes (void)
{
  assert_keys ("$(format-json --scope rfc3164)", "DATE,FACILITY,HOST,MESSAGE,PID,PRIORITY,PROGRAM");
  assert_keys ("$(format-json --scope core)", "DATE,FACILITY,HOST,MESSAGE,PID,PRIORITY,PROGRAM");
  assert_keys ("$(format-json --scope rfc5424)", "(empty),DATE,FACILITY,HOST,MESSAGE,PID,PRIORITY,PROGRAM");
  assert_keys ("$(format-json --scope selected_macros)",
               "DATE,FACILITY,HOST,MESSAGE,PID,PRIORITY,PROGRAM,SEQNUM,SOURCEIP,TAGS");
  assert_keys ("$(format-json --scope nv-pairs)", "HOST,MESSAGE,PID,PROGRAM,empty,json");
  assert_keys ("$(format-json --scope dot-nv-pairs)", "(empty)");
  assert_keys ("$(format-json --scope sdata)", "(empty)");
  assert_keys ("$(format-json --scope all-nv-pairs)", "(empty),HOST,MESSAGE,PID,PROGRAM,empty,json");
  assert_keys ("$(format-json --scope rfc3164,nv-pairs --scope none --scope dot-nv-pairs)", "(empty)");
  assert_keys ("$(format-json --scope none)", "");

  json_t *root = render_json ("$(format-json --scope selected-macros --scope all-nv-pairs)");
  g_assert_cmpstr (string_at (root, "FACILITY"), ==, "local3");
  g_assert_cmpstr (string_at (root, "PRIORITY"), ==, "err");
  g_assert_cmpstr (string_at (root, "DATE"), ==, "Feb  3 13:34:56");
  g_assert_cmpstr (string_at (root, "TAGS"), ==, "t1,t2");
  g_assert_cmpstr (string_at (root, "SEQNUM"), ==, "42");
  g_assert_cmpstr (string_at (root, "SOURCEIP"), ==, "10.0.0.1");
  g_assert_cmpstr (string_at (root, "json/user/id"), ==, "42");
  g_assert_cmpstr (string_at (root, "/SDATA/origin/ip"), ==, "10.0.0.9");
  g_assert_cmpstr (string_at (root, "/cee/event"), ==, "login");
  json_decref (root);

  root = render_json ("$(format-json --scope everything)");
  g_assert_cmpstr (string_at (root, "ISODATE"), ==, "2026-02-03T13:34:56+01:00");
  g_assert_cmpstr (string_at (root, "R_YEAR"), ==, "2026");
  g_assert_cmpstr (string_at (root, "LEVEL_NUM"), ==, "3");
  g_assert_cmpstr (string_at (root, "MSG"), ==, "hello");
  g_assert_cmpstr (string_at (root, "json/level"), ==, "error");
  json_decref (root);
}

static void
test_keys_excludes_and_pairs (void)
{
  assert_keys ("$(format-json --scope nv-pairs --key json.*)", "HOST,MESSAGE,PID,PROGRAM,empty,json");
  assert_keys ("$(format-json --key json.*)", "json");
  assert_keys ("$(format-json json.user.* HOST)", "HOST,json");
  assert_keys ("$(format-json --scope nv-pairs --exclude json.* --exclude P*)", "HOST,MESSAGE,empty");
  /* the last pattern that matches decides */
  assert_keys ("$(format-json --scope rfc3164 --exclude * --key PID)", "PID");
  assert_keys ("$(format-json --key ISODATE --key R_YEAR)", "ISODATE,R_YEAR");

  json_t *root = render_json ("$(format-json --scope none --pair MSGHDR=\"${PROGRAM}[${PID}]: \" a.b.c=1 e=)");
  g_assert_cmpstr (string_at (root, "MSGHDR"), ==, "nginx[123]: ");
  g_assert_cmpstr (string_at (root, "a/b/c"), ==, "1");
  g_assert_cmpstr (string_at (root, "e"), ==, "");
  json_decref (root);

  /* a pair wins over the field of its name */
  root = render_json ("$(format-json --scope nv-pairs HOST=mine)");
  g_assert_cmpstr (string_at (root, "HOST"), ==, "mine");
  json_decref (root);
}

static void
test_nesting_and_order (void)
{
  assert_renders ("$(format-json --scope none e=4 b.d=3 a=1 b.c=2)", "{\"a\":\"1\",\"b\":{\"c\":\"2\",\"d\":\"3\"},\"e\":\"4\"}");
  assert_renders ("$(format-json --scope none x.y.z=1 x.y2=2 x.y.w=0)",
                  "{\"x\":{\"y\":{\"w\":\"0\",\"z\":\"1\"},\"y2\":\"2\"}}");
  assert_renders ("$(format-flat-json --scope none b.c=2 a=1)", "{\"a\":\"1\",\"b.c\":\"2\"}");
  assert_renders ("$(format-json --scope none)", "{}");
  assert_renders ("$(format-json --key json.user.*)", "{\"json\":{\"user\":{\"id\":\"42\",\"name\":\"Ada\"}}}");
  /* a name that is both a value and an object is written twice; jansson
   * still reads it */
  json_t *root = render_json ("$(format-json --scope none a=1 a.b=2)");
  json_decref (root);
}

static void
test_rekey_and_omit_empty (void)
{
  json_t *root = render_json ("$(format-json --rekey .cee.* --shift 5 --add-prefix events. --key .cee.*)");
  g_assert_cmpstr (string_at (root, "events/event"), ==, "login");
  json_decref (root);

  root = render_json ("$(format-json --key json.* --replace-prefix json.=app.)");
  g_assert_cmpstr (string_at (root, "app/level"), ==, "error");
  g_assert_null (json_object_get (root, "json"));
  json_decref (root);

  root = render_json ("$(format-json --scope sdata --shift-levels 2)");
  g_assert_cmpstr (string_at (root, "origin/ip"), ==, "10.0.0.9");
  json_decref (root);

  assert_keys ("$(format-json --scope nv-pairs --exclude json.* --omit-empty-values)", "HOST,MESSAGE,PID,PROGRAM");
  assert_renders ("$(format-json --scope none e= --omit-empty-values)", "{}");
}

static void
test_hostile_values (void)
{
  /* a NUL inside a value can only be a slice of the received bytes */
  SlMessage *msg = test_message_with_raw ("a\0b", 3);
  static const gchar nasty[] = "q\"b\\s/\x01\x1f\n\t\x7f \xc3\xa9 \xc3 \xff\xfe \xe2\x82 \xf0\x9f\x98\x80 end";
  sl_message_set (msg, SL_F_MESSAGE, nasty, sizeof nasty - 1);
  sl_message_set_slice (msg, sl_field_handle ("nul"), msg->raw, 3);
  sl_message_set (msg, sl_field_handle ("k\xff\"ey"), "v", -1);
  gchar *out = render ("$(format-json --scope nv-pairs)", msg);
  sl_message_unref (msg);

  json_error_t error;
  json_t *root = json_loads (out, JSON_ALLOW_NUL, &error);
  if (!root)
    g_error ("no JSON: %s in %s", error.text, out);
  const gchar *message = string_at (root, "MESSAGE");
  g_assert_cmpstr (message, ==,
                   "q\"b\\s/\x01\x1f\n\t\x7f \xc3\xa9 \\xc3 \\xff\\xfe \\xe2\\x82 \xf0\x9f\x98\x80 end");
  json_t *nul = json_object_get (root, "nul");
  g_assert_cmpuint (json_string_length (nul), ==, 3);
  g_assert_true (memcmp (json_string_value (nul), "a\0b", 3) == 0);
  g_assert_cmpstr (string_at (root, "k\\xff\"ey"), ==, "v");
  json_decref (root);
  g_free (out);
}

static void
assert_refused (const gchar *text, const gchar *needle)
{
  GError *error = NULL;
  SlTemplate *t = sl_template_compile (text, &error);
  g_assert_null (t);
  g_assert_true (error->domain == SL_CFG_ERROR);
  g_test_message ("%s: %s", text, error->message);
  g_assert_nonnull (strstr (error->message, needle));
  g_error_free (error);
}

static void
test_refused_arguments (void)
{
  assert_refused ("$(format-json --scope rfc9999)", "unknown scope 'rfc9999'");
  assert_refused ("$(format-json --frobnicate)", "unknown option '--frobnicate'");
  assert_refused ("$(format-json --key)", "'--key' in $(format-json) needs a value");
  assert_refused ("$(format-json =value)", "NAME=VALUE");
  assert_refused ("$(format-json --shift x)", "--shift");
  assert_refused ("$(format-json --replace-prefix nothing)", "--replace-prefix");
  assert_refused ("$(format-flat-json --pair 'a=${unclosed')", "unterminated");
}

int
main (int argc, char **argv)
{
  g_setenv ("TZ", "CET-1CEST,M3.5.0,M10.5.0/3", TRUE);
  g_test_init (&argc, &argv, NULL);
  g_assert_true (sl_plugins_register (&sl_module, __FILE__, NULL));
  g_test_add_func ("/format-json/scopes", test_scopes);
  g_test_add_func ("/format-json/keys-excludes-and-pairs", test_keys_excludes_and_pairs);
  g_test_add_func ("/format-json/nesting-and-order", test_nesting_and_order);
  g_test_add_func ("/format-json/rekey-and-omit-empty", test_rekey_and_omit_empty);
  g_test_add_func ("/format-json/hostile-values", test_hostile_values);
  g_test_add_func ("/format-json/refused-arguments", test_refused_arguments);
  return g_test_run ();
}
