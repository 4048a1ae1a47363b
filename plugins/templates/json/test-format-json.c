/* SPDX-License-Identifier: GPL-2.0-or-later */
/* $(format-json) and $(format-flat-json): what each scope and option
 * selects, how names nest, and that the output is JSON jansson reads back
 * to the same values whatever bytes the message holds. Where a test
 * compares whole text, the expected text is what Debian's syslog-ng 3.38
 * wrote for the same template and values to a file(). */
#include "core/config/error.h"
#include "core/compile/loader.h"
#include "core/plugin/plugin.h"
#include "core/message/template.h"

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
  assert_keys ("$(format-json --scope rfc5424)", "DATE,FACILITY,HOST,MESSAGE,PID,PRIORITY,PROGRAM,_SDATA");
  assert_keys ("$(format-json --scope selected_macros)",
               "DATE,FACILITY,HOST,MESSAGE,PID,PRIORITY,PROGRAM,SEQNUM,SOURCEIP,TAGS");
  assert_keys ("$(format-json --scope nv-pairs)", "HOST,MESSAGE,PID,PROGRAM,empty,json");
  assert_keys ("$(format-json --scope dot-nv-pairs)", "_SDATA,_cee");
  assert_keys ("$(format-json --scope sdata)", "_SDATA");
  assert_keys ("$(format-json --scope all-nv-pairs)", "HOST,MESSAGE,PID,PROGRAM,_SDATA,_cee,empty,json");
  assert_keys ("$(format-json --scope rfc3164,nv-pairs --scope none --scope dot-nv-pairs)", "_SDATA,_cee");
  assert_keys ("$(format-json --scope sdata --leave-initial-dot)", ".SDATA");
  assert_keys ("$(format-json --scope none)", "");

  json_t *root = render_json ("$(format-json --scope selected-macros --scope all-nv-pairs)");
  g_assert_cmpstr (string_at (root, "FACILITY"), ==, "local3");
  g_assert_cmpstr (string_at (root, "PRIORITY"), ==, "err");
  g_assert_cmpstr (string_at (root, "DATE"), ==, "Feb  3 13:34:56");
  g_assert_cmpstr (string_at (root, "TAGS"), ==, "t1,t2");
  g_assert_cmpstr (string_at (root, "SEQNUM"), ==, "42");
  g_assert_cmpstr (string_at (root, "SOURCEIP"), ==, "10.0.0.1");
  g_assert_cmpstr (string_at (root, "json/user/id"), ==, "42");
  g_assert_cmpstr (string_at (root, "_SDATA/origin/ip"), ==, "10.0.0.9");
  g_assert_cmpstr (string_at (root, "_cee/event"), ==, "login");
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
  /* keys in descending byte order */
  assert_renders ("$(format-json --scope none e=4 b.d=3 a=1 b.c=2)", "{\"e\":\"4\",\"b\":{\"d\":\"3\",\"c\":\"2\"},\"a\":\"1\"}");
  assert_renders ("$(format-json --scope none x.y.z=1 x.y2=2 x.y.w=0)",
                  "{\"x\":{\"y2\":\"2\",\"y\":{\"z\":\"1\",\"w\":\"0\"}}}");
  assert_renders ("$(format-flat-json --scope none b.c=2 a=1)", "{\"b.c\":\"2\",\"a\":\"1\"}");
  assert_renders ("$(format-json --scope none)", "{}");
  assert_renders ("$(format-json --key json.user.*)", "{\"json\":{\"user\":{\"name\":\"Ada\",\"id\":\"42\"}}}");
  /* syslog-ng's walker keeps "a" open for the value a, and matches open
   * objects by byte prefix */
  assert_renders ("$(format-json --scope none a=1 a.b=2 ab.c=3)", "{\"ab\":{\"c\":\"3\"},\"a\":{\"b\":\"2\",\"a\":\"1\"}}");
  /* an SD-ID's enterprise number stays one name; a leading dot becomes _ */
  assert_renders ("$(format-json --scope none .SDATA.ex@32473.1.2.k=v .SDATA.origin.ip=1)",
                  "{\"_SDATA\":{\"origin\":{\"ip\":\"1\"},\"ex@32473.1.2\":{\"k\":\"v\"}}}");
  assert_renders ("$(format-json --scope none --leave-initial-dot --pair .x.y=1 ..z=2)",
                  "{\".x\":{\"y\":\"1\"},\".\":{\"z\":\"2\"}}");
  assert_renders ("$(format-json --scope none .x=1 ..y=2)", "{\"_x\":\"1\",\"_\":{\"y\":\"2\"}}");
  assert_renders ("$(format-json --key-delimiter / --pair a/b.c=1 --pair a/d=2)", "{\"a\":{\"d\":\"2\",\"b.c\":\"1\"}}");
  assert_renders ("$(format-json -s none -p a=1 --key=HOST --pair=b=2)", "{\"b\":\"2\",\"a\":\"1\",\"HOST\":\"web1\"}");
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

  root = render_json ("$(format-json --scope sdata --rekey .SDATA.* --shift-levels 2)");
  g_assert_cmpstr (string_at (root, "origin/ip"), ==, "10.0.0.9");
  json_decref (root);

  assert_keys ("$(format-json --scope nv-pairs --exclude json.* --omit-empty-values)", "HOST,MESSAGE,PID,PROGRAM");
  assert_renders ("$(format-json --scope none e= --omit-empty-values)", "{}");
  assert_renders ("$(format-json --key .SDATA.* --shift 7)", "{\"origin\":{\"ip\":\"10.0.0.9\"}}");
  assert_renders ("$(format-json --key HOST --subkeys .SDATA.origin.)", "{\"ip\":\"10.0.0.9\",\"HOST\":\"web1\"}");
  assert_renders ("$(format-json --scope none --pair \"a=x y\" --pair b=int(3) --omit-empty-values --pair c=)",
                  "{\"b\":3,\"a\":\"x y\"}");
}

static void
test_types (void)
{
  assert_renders ("$(format-json --pair n=int(42) --pair s=string(7) --pair l=literal({\"a\":1}) --pair j=json([1,2]) "
                  "--pair f=double(1.5) --pair b=boolean(false) --pair t=boolean(True) --pair z=boolean(0) "
                  "--pair i64=int64(-5) --pair nn=null(x) --pair li=list(a,\"b c\",d) --pair dt=datetime(123) "
                  "--pair e=list())",
                  "{\"z\":false,\"t\":true,\"s\":\"7\",\"nn\":null,\"n\":42,\"li\":[\"a\",\"b c\",\"d\"],"
                  "\"l\":{\"a\":1},\"j\":[1,2],\"i64\":-5,\"f\":1.5,\"e\":[],\"dt\":\"123\",\"b\":false}");
  assert_renders ("$(format-json --pair n=int( 42) --pair e=literal() --pair x=int32(${PID}))",
                  "{\"x\":123,\"n\": 42,\"e\":}");
  /* a value that does not cast empties the output (on-error(drop-message)) */
  assert_renders ("[$(format-json --pair n=int($HOST) --key HOST)]", "[]");
  assert_renders ("[$(format-json --pair b=boolean(yes))]", "[]");
  assert_renders ("[$(format-json --pair d=double(1e999))]", "[]");
  /* macros keep their type only under --no-cast, as in a 3.x configuration */
  assert_renders ("$(format-json --no-cast --key LEVEL_NUM --key FACILITY_NUM --key PID)",
                  "{\"PID\":\"123\",\"LEVEL_NUM\":3,\"FACILITY_NUM\":19}");
  assert_renders ("$(format-json --auto-cast --key LEVEL_NUM --pair n=int(5))", "{\"n\":5,\"LEVEL_NUM\":\"3\"}");
  assert_renders ("$(format-json --cast --key LEVEL_NUM)", "{\"LEVEL_NUM\":\"3\"}");
}

/* on-error() of the destination's environment: a value that does not
 * cast is left out, or written as a string */
static void
test_on_error (void)
{
  static const gchar text[] = "[$(format-json --pair a=int(x) --pair b=int(7) --pair c=boolean(yes))]";
  SlTemplateEnv env = sl_template_env_default;
  SlMessage *msg = test_message ();
  GError *error = NULL;
  SlTemplate *t = sl_template_compile (text, &error);
  g_assert_no_error (error);
  static const struct
  {
    SlOnError on_error;
    const gchar *expected;
  } cases[] = {
    { SL_ON_ERROR_DROP_MESSAGE, "[]" },
    { SL_ON_ERROR_DROP_MESSAGE | SL_ON_ERROR_SILENT, "[]" },
    { SL_ON_ERROR_DROP_PROPERTY, "[{\"b\":7}]" },
    { SL_ON_ERROR_FALLBACK_TO_STRING, "[{\"c\":\"yes\",\"b\":7,\"a\":\"x\"}]" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      env.on_error = cases[i].on_error;
      GString *out = g_string_new (NULL);
      sl_template_append (t, msg, &env, out);
      g_assert_cmpstr (out->str, ==, cases[i].expected);
      g_string_free (out, TRUE);
    }
  sl_template_unref (t);
  sl_message_unref (msg);
}

static void
test_welf_and_cef (void)
{
  SlMessage *msg = test_message ();
  sl_message_set (msg, SL_F_MESSAGE, "hello \"quoted\" world=x\ny", -1);
  static const struct
  {
    const gchar *text;
    const gchar *expected;
  } cases[] = {
    { "$(format-welf --key PROGRAM --key MSG* id=7 b=x\\ty c=z\\\\ e= a=\"x y\")",
      "id=7 MSG=\"hello \\\"quoted\\\" world=x\\ny\" MSGHDR=\"nginx[123]: \" PROGRAM=nginx a=\"x y\" b=xty c=z\\\\ e=" },
    { "$(format-welf --key .SDATA.*)", ".SDATA.origin.ip=10.0.0.9" },
    { "$(format-cef-extension --key PROGRAM --key MSG a=x=y c=z\\\\)",
      "MSG=hello \"quoted\" world\\=x\\ny PROGRAM=nginx a=x\\=y c=z\\\\" },
    /* a key CEF cannot carry empties the output */
    { "[$(format-cef-extension --key PROGRAM --pair x.y=1)]", "[]" },
    { "[$(format-cef-extension --key .SDATA.*)]", "[]" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gchar *out = render (cases[i].text, msg);
      g_assert_cmpstr (out, ==, cases[i].expected);
      g_free (out);
    }
  sl_message_unref (msg);
}

/* Over a correlation context, one object per message, as syslog-ng. */
static void
test_context (void)
{
  const SlMessage *context[3];
  for (guint i = 0; i < 3; i++)
    context[i] = test_message ();
  sl_message_set ((SlMessage *) context[1], SL_F_PID, "2", -1);
  GError *error = NULL;
  SlTemplate *t = sl_template_compile ("$(format-json --key PID)|${PID}@1", &error);
  g_assert_no_error (error);
  GString *out = g_string_new (NULL);
  sl_template_append_context (t, context, 3, NULL, out);
  g_assert_cmpstr (out->str, ==, "{\"PID\":\"123\"}{\"PID\":\"2\"}{\"PID\":\"123\"}|2");
  g_string_free (out, TRUE);
  sl_template_unref (t);
  for (guint i = 0; i < 3; i++)
    sl_message_unref ((SlMessage *) context[i]);
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

/* Every byte that needs escaping, and its neighbours that do not, at every
 * place of a 24-byte value: the JSON reads back to the value. */
static void
test_escapes_at_every_place (void)
{
  static const gchar *const pieces[] = {
    "\"", "\\", "\n", "\x01", "\x1f", "\t", " ", "!", "#", "[", "]", "\x7f", "\xc3\xa9", "\xf0\x9f\x98\x80",
  };
  for (guint k = 0; k < G_N_ELEMENTS (pieces); k++)
    for (guint at = 0; at <= 24; at++)
      {
        GString *value = g_string_new (NULL);
        for (guint i = 0; i < 24; i++)
          {
            if (i == at)
              g_string_append (value, pieces[k]);
            g_string_append_c (value, (gchar) ('a' + i));
          }
        if (at == 24)
          g_string_append (value, pieces[k]);
        SlMessage *msg = test_message ();
        sl_message_set (msg, sl_field_handle ("v"), value->str, value->len);
        gchar *out = render ("$(format-json --scope none --key v)", msg);
        sl_message_unref (msg);
        json_error_t error;
        json_t *root = json_loads (out, 0, &error);
        if (!root)
          g_error ("no JSON: %s in %s", error.text, out);
        g_assert_cmpstr (string_at (root, "v"), ==, value->str);
        json_decref (root);
        g_free (out);
        g_string_free (value, TRUE);
      }
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
  assert_refused ("$(format-json --scope sdata --shift 7)", "needs a --key or --rekey");
  assert_refused ("$(format-json --key HOST --pair a=b --shift 1)", "needs a --key or --rekey");
  assert_refused ("$(format-json --pair n=integer(1))", "unknown type 'integer'");
  assert_refused ("$(format-json --subkeys '')", "--subkeys");
  assert_refused ("$(format-welf --leave-initial-dot)", "unknown option");
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
  g_test_add_func ("/format-json/escapes-at-every-place", test_escapes_at_every_place);
  g_test_add_func ("/format-json/types", test_types);
  g_test_add_func ("/format-json/on-error", test_on_error);
  g_test_add_func ("/format-json/context", test_context);
  g_test_add_func ("/format-json/welf-and-cef", test_welf_and_cef);
  g_test_add_func ("/format-json/refused-arguments", test_refused_arguments);
  return g_test_run ();
}
