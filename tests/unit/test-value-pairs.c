/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The value-pairs walk: what it selects and names, in which order, with
 * which type, from the command line and from a value-pairs() block. */
#include "core/config/error.h"
#include "core/config/parser.h"
#include "core/config/syntax-version.h"
#include "core/message/message.h"
#include "core/message/value-pairs.h"

#include <string.h>

static SlMessage *
message_new (void)
{
  SlMessage *msg = sl_message_new ("raw line", 8);
  msg->pri = SL_PRI_MAKE (19, 4);
  sl_message_set (msg, SL_F_HOST, "web1", -1);
  sl_message_set (msg, SL_F_PROGRAM, "nginx", -1);
  sl_message_set (msg, SL_F_PID, "4242", -1);
  sl_message_set (msg, SL_F_MESSAGE, "hello world", -1);
  sl_message_set (msg, sl_field_handle ("app.user"), "ann", -1);
  sl_message_set (msg, sl_field_handle ("app.empty"), "", -1);
  sl_message_set (msg, sl_field_handle (".SDATA.meta.seq"), "7", -1);
  sl_message_set (msg, sl_field_handle ("with\nnul"), "a\0b", 3);
  return msg;
}

static gboolean
append_pair (const gchar *name, SlValueType type, const gchar *value, gsize len, gpointer user_data)
{
  GString *out = user_data;
  g_string_append_printf (out, "%s%s=", out->len ? " " : "", name);
  for (gsize i = 0; i < len; i++)
    g_string_append_c (out, value[i] ? value[i] : '@');
  if (type != SL_VALUE_STRING)
    g_string_append_printf (out, ":%d", type);
  return TRUE;
}

/* The pairs of a walk as "name=value[:type] ...", a NUL as '@'. */
static gchar *
walk (SlValuePairs *vp, SlValuePairsOrder order)
{
  SlMessage *msg = message_new ();
  GString *out = g_string_new (NULL);
  g_assert_true (sl_value_pairs_foreach (vp, msg, NULL, order, append_pair, out));
  sl_message_unref (msg);
  return g_string_free (out, FALSE);
}

static SlValuePairs *
compile (const gchar *line, SlValuePairsFlags flags)
{
  gchar **argv = NULL;
  gint argc = 0;
  g_assert_true (g_shell_parse_argv (line, &argc, &argv, NULL));
  GError *error = NULL;
  SlValuePairs *vp = sl_value_pairs_new (argc, (const gchar *const *) argv, "test", flags, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_strfreev (argv);
  return vp;
}

#define assert_walk(line, flags, order, expected) \
  G_STMT_START { \
    SlValuePairs *vp_ = compile ((line), (flags)); \
    gchar *got_ = walk (vp_, (order)); \
    g_assert_cmpstr (got_, ==, (expected)); \
    g_free (got_); \
    sl_value_pairs_free (vp_); \
  } G_STMT_END

static gchar *
walk_fields (SlValuePairs *vp, SlValuePairsOrder order, const gchar *const *names)
{
  SlMessage *msg = sl_message_new ("raw", 3);
  for (guint i = 0; names[i]; i++)
    sl_message_set (msg, sl_field_handle (names[i]), "v", -1);
  GString *out = g_string_new (NULL);
  g_assert_true (sl_value_pairs_foreach (vp, msg, NULL, order, append_pair, out));
  sl_message_unref (msg);
  return g_string_free (out, FALSE);
}

/* A walk that collects the keys of the last one takes the order found then;
 * other keys, another order or another value-pairs sort anew. */
static void
test_order_of_walks_alike (void)
{
  static const gchar *const abc[] = { "o.c", "o.a", "o.b", NULL };
  static const gchar *const ac[] = { "o.a", "o.c", NULL };
  static const gchar *const abcd[] = { "o.d", "o.b", "o.a", "o.c", NULL };
  static const struct
  {
    const gchar *const *names;
    SlValuePairsOrder order;
    const gchar *expected;
  } walks[] = {
    { abc, SL_VALUE_PAIRS_ASCENDING, "o.a=v o.b=v o.c=v" },
    { abc, SL_VALUE_PAIRS_ASCENDING, "o.a=v o.b=v o.c=v" },
    { ac, SL_VALUE_PAIRS_ASCENDING, "o.a=v o.c=v" },
    { abc, SL_VALUE_PAIRS_DESCENDING, "o.c=v o.b=v o.a=v" },
    { abc, SL_VALUE_PAIRS_ASCENDING, "o.a=v o.b=v o.c=v" },
    { abcd, SL_VALUE_PAIRS_DESCENDING, "o.d=v o.c=v o.b=v o.a=v" },
    { abcd, SL_VALUE_PAIRS_DESCENDING, "o.d=v o.c=v o.b=v o.a=v" },
  };
  for (guint round = 0; round < 2; round++)
    {
      /* the second value-pairs renames the keys: an order kept from the
       * first would hand out its keys */
      SlValuePairs *vp = compile (round ? "--key o.* --rekey o.* --replace-prefix o=p" : "--key o.*", 0);
      for (guint i = 0; i < G_N_ELEMENTS (walks); i++)
        {
          gchar *got = walk_fields (vp, walks[i].order, walks[i].names);
          gchar *expected = round ? g_strdelimit (g_strdup (walks[i].expected), "o", 'p') : g_strdup (walks[i].expected);
          g_assert_cmpstr (got, ==, expected);
          g_free (expected);
          g_free (got);
        }
      sl_value_pairs_free (vp);
    }
}

static void
test_selection (void)
{
  assert_walk ("--scope nv-pairs", 0, SL_VALUE_PAIRS_ASCENDING,
               "HOST=web1 MESSAGE=hello world PID=4242 PROGRAM=nginx app.empty= app.user=ann with\nnul=a@b");
  assert_walk ("--scope nv-pairs --exclude app.* --exclude with*", 0, SL_VALUE_PAIRS_DESCENDING,
               "PROGRAM=nginx PID=4242 MESSAGE=hello world HOST=web1");
  assert_walk ("--scope sdata --key HOST", 0, SL_VALUE_PAIRS_ASCENDING, ".SDATA.meta.seq=7 HOST=web1");
  assert_walk ("--scope sdata --key HOST", SL_VALUE_PAIRS_DOT_UNDERSCORE, SL_VALUE_PAIRS_ASCENDING,
               "HOST=web1 _SDATA.meta.seq=7");
  assert_walk ("--key app.* --omit-empty-values", 0, SL_VALUE_PAIRS_ASCENDING, "app.user=ann");
  assert_walk ("--scope none --key PROGRAM --exclude PROGRAM", 0, SL_VALUE_PAIRS_ASCENDING, "");
}

static void
test_rekey_and_pairs (void)
{
  assert_walk ("--key app.* --rekey app.* --shift 4 --add-prefix x_", 0, SL_VALUE_PAIRS_ASCENDING,
               "x_empty= x_user=ann");
  assert_walk ("--subkeys app. --omit-empty-values", 0, SL_VALUE_PAIRS_ASCENDING, "user=ann");
  assert_walk ("--key app.user --rekey app.* --replace-prefix app=my --shift-levels 0", 0, SL_VALUE_PAIRS_ASCENDING,
               "my.user=ann");
  /* a pair is kept empty, and goes before the field of its name */
  assert_walk ("--key PROGRAM --pair PROGRAM=${PID} --pair empty=", 0, SL_VALUE_PAIRS_ASCENDING,
               "PROGRAM=4242 empty=");
}

static void
test_types (void)
{
  assert_walk ("n=int($PID) f=double(1.5) b=boolean(T) j=json({}) l=list(a,b) z=null() s=string(x) d=datetime(1)",
               0, SL_VALUE_PAIRS_ASCENDING,
               "b=T:6 d=1 f=1.5:5 j={}:1 l=a,b:2 n=4242:3 s=x z=:7");
  /* datetime() is a type of syslog-ng 4's only */
  sl_cfg_set_compiling_version_4 (TRUE);
  assert_walk ("d=datetime(1.5) i=integer(2)", 0, SL_VALUE_PAIRS_ASCENDING, "d=1.5:8 i=2:4");
  sl_cfg_set_compiling_version_4 (FALSE);
  /* --no-cast: the macros syslog-ng types (the *UNIXTIME ones 4.8's datetimes) */
  assert_walk ("--key FACILITY_NUM --no-cast", 0, SL_VALUE_PAIRS_ASCENDING, "FACILITY_NUM=19:3");
  assert_walk ("--key R_UNIXTIME --no-cast", 0, SL_VALUE_PAIRS_ASCENDING, "R_UNIXTIME=0:8");
  assert_walk ("--key FACILITY_NUM", 0, SL_VALUE_PAIRS_ASCENDING, "FACILITY_NUM=19");
}

static gboolean
stop_after_one (const gchar *name, SlValueType type, const gchar *value, gsize len, gpointer user_data)
{
  (*(guint *) user_data)++;
  return FALSE;
}

static void
test_stop (void)
{
  SlValuePairs *vp = compile ("--scope nv-pairs", 0);
  SlMessage *msg = message_new ();
  guint calls = 0;
  g_assert_false (sl_value_pairs_foreach (vp, msg, NULL, SL_VALUE_PAIRS_ASCENDING, stop_after_one, &calls));
  g_assert_cmpuint (calls, ==, 1);
  sl_message_unref (msg);
  sl_value_pairs_free (vp);
}

static gboolean
take_option (const gchar *name, const gchar *value, gpointer user_data, GError **error)
{
  g_string_append_printf (user_data, "%s=%s;", name, value ? value : "(none)");
  return TRUE;
}

static void
assert_refused (const gchar *line, SlValuePairsFlags flags, const gchar *message)
{
  gchar **argv = NULL;
  gint argc = 0;
  g_assert_true (g_shell_parse_argv (line, &argc, &argv, NULL));
  GError *error = NULL;
  g_assert_null (sl_value_pairs_new (argc, (const gchar *const *) argv, "$(t)", flags, NULL, NULL, NULL, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, message));
  g_error_free (error);
  g_strfreev (argv);
}

static void
test_options (void)
{
  static const SlValuePairsOption extra[] = { { "timestamp", 't', TRUE }, { "flag", 0, FALSE }, { NULL, 0, FALSE } };
  const gchar *argv[] = { "-t", "$UNIXTIME", "--flag", "--key", "HOST", "--timestamp=x" };
  GString *seen = g_string_new (NULL);
  GError *error = NULL;
  SlValuePairs *vp = sl_value_pairs_new (G_N_ELEMENTS (argv), argv, "test", 0, extra, take_option, seen, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (seen->str, ==, "timestamp=$UNIXTIME;flag=(none);timestamp=x;");
  gchar *got = walk (vp, SL_VALUE_PAIRS_ASCENDING);
  g_assert_cmpstr (got, ==, "HOST=web1");
  g_free (got);
  sl_value_pairs_free (vp);
  g_string_free (seen, TRUE);

  vp = compile ("--key-delimiter / --scope sdata", SL_VALUE_PAIRS_DOT_UNDERSCORE | SL_VALUE_PAIRS_JSON_OPTIONS);
  g_assert_cmpint (sl_value_pairs_key_delimiter (vp), ==, '/');
  got = walk (vp, SL_VALUE_PAIRS_ASCENDING);
  g_assert_cmpstr (got, ==, ".SDATA.meta.seq=7");
  g_free (got);
  sl_value_pairs_free (vp);

  assert_refused ("--scope rfc9999", 0, "unknown scope 'rfc9999' in $(t)");
  assert_refused ("--leave-initial-dot", 0, "unknown option '--leave-initial-dot' in $(t)");
  assert_refused ("--key", 0, "'--key' in $(t) needs a value");
  assert_refused ("--shift 2", 0, "needs a --key or --rekey before it");
  assert_refused ("n=integer(1)", 0, "unknown type 'integer'");
  assert_refused ("--rekey x --shift two", 0, "--shift in $(t) does not take 'two'");
}

/* text: drivers d(value-pairs(...)) of a destination's body */
static SlCfgNode *
parse_blocks (const gchar *text)
{
  GError *error = NULL;
  gchar *conf = g_strconcat ("destination x {\n", text, "\n};\n", NULL);
  SlCfgNode *root = sl_cfg_parse_string (conf, "vp.conf", &error);
  g_assert_no_error (error);
  g_free (conf);
  return root;
}

/* The value-pairs() block of the destination's driver i. */
static const SlCfgNode *
block_at (const SlCfgNode *root, guint i)
{
  const SlCfgNode *destination = g_ptr_array_index (root->children, 0);
  const SlCfgNode *driver = g_ptr_array_index (destination->children, i);
  return g_ptr_array_index (driver->children, 0);
}

static void
test_block (void)
{
  SlCfgNode *root = parse_blocks ("d(value-pairs(scope(\"nv-pairs\") exclude(\"with*\" \"app.*\") key(\"app.user\")\n"
                                  "  pair(\"fixed\" \"x-${PID}\") pair(\"arrow\" => \"y\") who(\"me\")\n"
                                  "  rekey(\"app.*\" shift-levels(1) add-prefix(\"a_\")) omit-empty-values()));");
  const SlCfgNode *block = block_at (root, 0);
  const gchar *const more[] = { "--exclude", "HOST", NULL };
  GError *error = NULL;
  SlValuePairs *vp = sl_value_pairs_new_from_block (block, block->pos, "d() value-pairs()",
                                                    SL_VALUE_PAIRS_NAMED_PAIRS, more, &error);
  g_assert_no_error (error);
  gchar *got = walk (vp, SL_VALUE_PAIRS_ASCENDING);
  g_assert_cmpstr (got, ==, "MESSAGE=hello world PID=4242 PROGRAM=nginx a_user=ann arrow=y fixed=x-4242 who=me");
  g_free (got);
  sl_value_pairs_free (vp);

  /* no block: syslog-ng's default scopes */
  vp = sl_value_pairs_new_from_block (NULL, block->pos, "d() value-pairs()", 0, NULL, &error);
  g_assert_no_error (error);
  got = walk (vp, SL_VALUE_PAIRS_ASCENDING);
  g_assert_nonnull (strstr (got, ".SDATA.meta.seq=7 "));
  g_assert_nonnull (strstr (got, " FACILITY=local3 "));
  g_assert_nonnull (strstr (got, " app.user=ann "));
  g_free (got);
  sl_value_pairs_free (vp);

  /* without NAMED_PAIRS, who() is no option */
  g_assert_null (sl_value_pairs_new_from_block (block, block->pos, "d() value-pairs()", 0, NULL, &error));
  g_assert_nonnull (strstr (error->message, "vp.conf:3:49: d() value-pairs() has no who()"));
  g_clear_error (&error);
  sl_cfg_node_free (root);

  root = parse_blocks ("d(value-pairs(rekey(\"*\" upcase())));\nd(value-pairs(scope(\"bogus\")));");
  block = block_at (root, 0);
  g_assert_null (sl_value_pairs_new_from_block (block, block->pos, "d() value-pairs()", 0, NULL, &error));
  g_assert_nonnull (strstr (error->message, "vp.conf:2:25: d() value-pairs(): rekey() has no upcase()"));
  g_clear_error (&error);
  block = block_at (root, 1);
  g_assert_null (sl_value_pairs_new_from_block (block, block->pos, "d() value-pairs()", 0, NULL, &error));
  g_assert_nonnull (strstr (error->message, "vp.conf:3:3: unknown scope 'bogus' in d() value-pairs()"));
  g_clear_error (&error);
  sl_cfg_node_free (root);
}

/* pair()'s type hints, as syslog-ng 4.8's block takes them (its python()
 * destination's dict: plugins/languages/python/test-python-typed) */
static void
test_block_typed_pairs (void)
{
  SlCfgNode *root = parse_blocks ("d(value-pairs(scope(\"none\") pair(\"i\" int(\"$PID\")) pair(\"c\", float(\"1.5\"))\n"
                                  "  pair(\"n\" 8) pair(\"r\" -2.5) pair(\"w\" nine) pair(\"s\" \"int(9)\")"
                                  " pair(\"k\" => \"list(a)\")));\n"
                                  "d(value-pairs(pair(\"x\" int(\"1\") \"2\")));\n"
                                  "d(value-pairs(pair(\"x\" foo(\"1\"))));\n"
                                  "d(value-pairs(pair(\"x\")));");
  const SlCfgNode *block = block_at (root, 0);
  GError *error = NULL;
  SlValuePairs *vp = sl_value_pairs_new_from_block (block, block->pos, "d() value-pairs()", 0, NULL, &error);
  g_assert_no_error (error);
  gchar *got = walk (vp, SL_VALUE_PAIRS_ASCENDING);
  g_assert_cmpstr (got, ==, "c=1.5:5 i=4242:3 k=list(a) n=8:4 r=-2.5:5 s=int(9) w=nine");
  g_free (got);
  sl_value_pairs_free (vp);

  static const gchar *const refused[] = { "vp.conf:4:15: d() value-pairs(): pair() takes a name and one template",
                                          "unknown type 'foo' in d() value-pairs()",
                                          "vp.conf:6:15: d() value-pairs(): pair() takes a name and one template" };
  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      block = block_at (root, i + 1);
      g_assert_null (sl_value_pairs_new_from_block (block, block->pos, "d() value-pairs()", 0, NULL, &error));
      g_assert_nonnull (strstr (error->message, refused[i]));
      g_clear_error (&error);
    }
  sl_cfg_node_free (root);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/value-pairs/selection", test_selection);
  g_test_add_func ("/value-pairs/order-of-walks-alike", test_order_of_walks_alike);
  g_test_add_func ("/value-pairs/rekey-and-pairs", test_rekey_and_pairs);
  g_test_add_func ("/value-pairs/types", test_types);
  g_test_add_func ("/value-pairs/stop", test_stop);
  g_test_add_func ("/value-pairs/options", test_options);
  g_test_add_func ("/value-pairs/block", test_block);
  g_test_add_func ("/value-pairs/block-typed-pairs", test_block_typed_pairs);
  return g_test_run ();
}
