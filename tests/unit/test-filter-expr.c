/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Filter expressions: comparisons as syslog-ng spells them, and, or, not,
 * parentheses, filter() references, and filter functions that look or, by
 * offering process(), store what they found. */
#include "core/compile/config-private.h"
#include "core/compile/config-run.h"
#include "core/compile/filter-expr-compile.h"
#include "core/compile/loader.h"
#include "core/config/syntax-version.h"
#include "core/plugin/plugin.h"

#include <string.h>

/* remember(): passes every message and stores "seen" in .remembered;
 * look(): passes when .remembered is set, and only reads. */
static gboolean
remember_process (SlDriver *d, SlMessage **msg)
{
  sl_message_make_writable (msg);
  sl_message_set (*msg, sl_field_handle (".remembered"), "seen", -1);
  return TRUE;
}

static gboolean
look_match (SlDriver *d, const SlMessage *msg)
{
  return sl_message_has (msg, sl_field_handle (".remembered"));
}

static const SlOptionSpec no_options[] = { { NULL } };

static const SlDriverClass remember_class = {
  .kind = SL_DRIVER_FILTER, .name = "remember", .options = no_options, .instance_size = sizeof (SlDriver),
  .ops.filter = &(const SlFilterOps) { .match = look_match, .process = remember_process },
};
static const SlDriverClass look_class = {
  .kind = SL_DRIVER_FILTER, .name = "look", .options = no_options, .instance_size = sizeof (SlDriver),
  .ops.filter = &(const SlFilterOps) { .match = look_match },
};
static const SlModule test_module = {
  SL_ABI_VERSION, "filter-expr-test",
  (const SlDriverClass *const[]) { &remember_class, &look_class, NULL },
};

typedef struct
{
  SlConfig *cfg;
  SlFilterExpr *expr;
} Compiled;

/* Whether compile() compiles for syslog-ng 4 */
static gboolean compile_version_4;

/* Compiles the body of filter f in a configuration of objects. */
static gboolean
compile (Compiled *c, const gchar *objects, GError **error)
{
  c->expr = NULL;
  c->cfg = sl_config_load_string (objects, "test.conf", error);
  if (!c->cfg)
    return FALSE;
  const SlCfgNode *f = sl_config_find_object (c->cfg, "filter", "f");
  g_assert_nonnull (f);
  sl_cfg_set_compiling_version_4 (compile_version_4);
  c->expr = sl_filter_expr_compile (c->cfg, g_ptr_array_index (f->children, 0), error);
  sl_cfg_set_compiling_version_4 (FALSE);
  return c->expr != NULL;
}

static void
compiled_free (Compiled *c)
{
  sl_filter_expr_free (c->expr);
  if (c->cfg)
    sl_config_free (c->cfg);
}

static SlMessage *
message (const gchar *program, const gchar *pid, guint level)
{
  SlMessage *msg = sl_message_new ("", 0);
  sl_message_set (msg, SL_F_PROGRAM, program, -1);
  sl_message_set (msg, SL_F_PID, pid, -1);
  msg->pri = SL_PRI_MAKE (1, level);
  return msg;
}

static gboolean
passes (const gchar *body, const gchar *program, const gchar *pid, guint level)
{
  Compiled c;
  GError *error = NULL;
  gchar *text = g_strdup_printf ("filter f_sshd { \"$PROGRAM\" eq \"sshd\"; };\nfilter f { %s; };\n", body);
  if (!compile (&c, text, &error))
    g_error ("%s: %s", body, error->message);
  SlMessage *msg = message (program, pid, level);
  gboolean pass = sl_filter_expr_eval (c.expr, &msg);
  sl_message_unref (msg);
  compiled_free (&c);
  g_free (text);
  return pass;
}

static void
test_numeric_comparisons (void)
{
  g_assert_true (passes ("\"$PID\" == 42", "a", "42", 6));
  g_assert_true (passes ("\"$PID\" == \"42.0\"", "a", "42", 6));
  g_assert_false (passes ("\"$PID\" != 42", "a", "42", 6));
  g_assert_true (passes ("\"$PID\" != 43", "a", "42", 6));
  /* as numbers, 9 is less than 10 */
  g_assert_true (passes ("\"$PID\" < 10", "a", "9", 6));
  g_assert_false (passes ("\"$PID\" < 9", "a", "9", 6));
  g_assert_true (passes ("\"$PID\" <= 9", "a", "9", 6));
  g_assert_true (passes ("\"$PID\" > 8", "a", "9", 6));
  g_assert_false (passes ("\"$PID\" > 9", "a", "9", 6));
  g_assert_true (passes ("\"$PID\" >= 9", "a", "9", 6));
  g_assert_true (passes ("\"${LEVEL_NUM}\" <= 3", "a", "1", 3));
  g_assert_false (passes ("\"${LEVEL_NUM}\" <= 3", "a", "1", 4));
}

static void
test_string_comparisons (void)
{
  g_assert_true (passes ("\"$PROGRAM\" eq \"sshd\"", "sshd", "1", 6));
  g_assert_false (passes ("\"$PROGRAM\" eq \"sshd\"", "SSHD", "1", 6));
  g_assert_true (passes ("\"$PROGRAM\" ne \"sshd\"", "cron", "1", 6));
  /* as text, "10" sorts before "9" */
  g_assert_true (passes ("\"$PID\" lt \"9\"", "a", "10", 6));
  g_assert_false (passes ("\"$PID\" gt \"9\"", "a", "10", 6));
  g_assert_true (passes ("\"$PID\" le \"10\"", "a", "10", 6));
  g_assert_true (passes ("\"$PID\" ge \"10\"", "a", "10", 6));
  g_assert_true (passes ("\"$PROGRAM\" gt \"cron\"", "sshd", "1", 6));
  g_assert_true (passes ("\"$PROGRAM/$PID\" eq 'sshd/7'", "sshd", "7", 6));
}

static void
test_boolean_operators (void)
{
  const gchar *body = "filter(f_sshd) and (\"$PID\" == 1 or not \"${LEVEL_NUM}\" > 3)";
  g_assert_true (passes (body, "sshd", "1", 7));
  g_assert_true (passes (body, "sshd", "2", 3));
  g_assert_false (passes (body, "sshd", "2", 7));
  g_assert_false (passes (body, "cron", "1", 3));
  /* not binds tighter than and, and than or */
  g_assert_true (passes ("not \"$PID\" == 1 and \"$PID\" == 2 or \"$PID\" == 3", "a", "3", 6));
  g_assert_false (passes ("not (\"$PID\" == 1 or \"$PID\" == 3)", "a", "3", 6));
  /* a ';' between expressions is a looser and */
  g_assert_false (passes ("\"$PID\" == 1 or \"$PID\" == 3; \"$PROGRAM\" eq \"x\"", "a", "3", 6));
  g_assert_true (passes ("\"$PID\" == 1 or \"$PID\" == 3; \"$PROGRAM\" eq \"a\"", "a", "3", 6));
}

/* Whether body passes, compiled for syslog-ng 4 (version_4) or 3.x, on a
 * message whose fields carry syslog-ng 4's types. */
static gboolean
passes_typed (const gchar *body, gboolean version_4)
{
  static const struct
  {
    const gchar *name, *value;
    SlValueType type;
  } fields[] = {
    { ".i", "10", SL_VALUE_INT64 }, { ".i32", "10", SL_VALUE_INT32 }, { ".s", "9", SL_VALUE_STRING },
    { ".s10", "10", SL_VALUE_STRING }, { ".d", "1.5", SL_VALUE_DOUBLE }, { ".b", "true", SL_VALUE_BOOLEAN },
    { ".f", "false", SL_VALUE_BOOLEAN }, { ".z", "", SL_VALUE_NULL }, { ".j", "{\"a\":1}", SL_VALUE_JSON },
    { ".l", "a,b", SL_VALUE_LIST }, { ".t", "1700000000.5", SL_VALUE_DATETIME }, { ".w", "abc", SL_VALUE_STRING },
  };
  Compiled c;
  GError *error = NULL;
  g_autofree gchar *text = g_strdup_printf ("filter f { %s; };\n", body);
  compile_version_4 = version_4;
  gboolean compiled = compile (&c, text, &error);
  compile_version_4 = FALSE;
  if (!compiled)
    g_error ("%s: %s", body, error->message);
  SlMessage *msg = sl_message_new ("", 0);
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    sl_message_set_typed (msg, sl_field_handle (fields[i].name), fields[i].value, -1, fields[i].type);
  gboolean pass = sl_filter_expr_eval (c.expr, &msg);
  sl_message_unref (msg);
  compiled_free (&c);
  return pass;
}

/* syslog-ng 4.8's type-aware operators (_evaluate_typed()); under 3.x
 * atoi()'s numbers, but a bare number makes them type-aware with every
 * value a string, as in the host's syslog-ng 3.38 */
static void
test_typed_comparisons (void)
{
  static const struct
  {
    const gchar *body;
    gboolean v4, v3;
  } cases[] = {
    /* two strings compare as text, a quoted "10" being a string */
    { "\"${.s}\" < \"10\"", FALSE, TRUE },
    { "\"${.s}\" == \"09\"", FALSE, TRUE },
    { "\"${.s}\" == \"9\"", TRUE, TRUE },
    /* a bare number is an int64: a string beside it compares as a number */
    { "\"${.s}\" < 10", TRUE, TRUE },
    { "\"${.s10}\" == 10.0", TRUE, TRUE },
    { "\"${.i}\" > \"9\"", TRUE, TRUE },
    { "\"${.i}\" == \"${.i32}\"", TRUE, TRUE },
    { "\"${.d}\" == 1.5", TRUE, TRUE },
    { "\"${.d}\" > 1", TRUE, TRUE },
    /* text around a field makes a string */
    { "\"x${.i}\" == \"x10\"", TRUE, TRUE },
    { "\"x${.i}\" < \"x9\"", TRUE, FALSE },
    /* not a number: false, but != is true */
    { "\"${.w}\" == 0", FALSE, FALSE },
    { "\"${.w}\" != 0", TRUE, TRUE },
    { "\"${.w}\" < 1", FALSE, FALSE },
    { "\"${.j}\" == 1", FALSE, FALSE },
    { "\"${.j}\" != 1", TRUE, TRUE },
    { "\"${.j}\" != \"${.l}\"", TRUE, FALSE },
    { "\"${.j}\" == \"${.l}\"", FALSE, TRUE },
    /* two JSON values or two lists compare as text */
    { "\"${.j}\" == \"${.j}\"", TRUE, TRUE },
    { "\"${.l}\" >= \"${.l}\"", TRUE, TRUE },
    /* null equals null alone, and is 0 to < and > */
    { "\"${.z}\" == \"${.missing}\"", TRUE, TRUE },
    { "\"${.z}\" == 0", FALSE, FALSE },
    { "\"${.z}\" != 0", TRUE, TRUE },
    { "\"${.missing}\" <= 0", TRUE, FALSE },
    { "\"${.missing}\" < 1", TRUE, FALSE },
    /* a boolean is 0 or 1 */
    { "\"${.b}\" == 1", TRUE, FALSE },
    { "\"${.f}\" == 0", TRUE, FALSE },
    { "\"${.b}\" > \"${.f}\"", TRUE, FALSE },
    /* a datetime is its milliseconds */
    { "\"${.t}\" == 1700000000500", TRUE, FALSE },
    { "\"${.t}\" > 1700000000", TRUE, TRUE },
    /* the string operators stay string operators */
    { "\"${.i}\" lt \"9\"", TRUE, TRUE },
    { "\"${.z}\" eq \"\"", TRUE, TRUE },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      if (passes_typed (cases[i].body, TRUE) != cases[i].v4)
        g_error ("%s under 4.x: expected %d", cases[i].body, cases[i].v4);
      if (passes_typed (cases[i].body, FALSE) != cases[i].v3)
        g_error ("%s under 3.x: expected %d", cases[i].body, cases[i].v3);
    }
}

static void
assert_refused (const gchar *objects, const gchar *expected)
{
  Compiled c;
  GError *error = NULL;
  g_assert_false (compile (&c, objects, &error));
  g_assert_nonnull (error);
  if (!strstr (error->message, expected))
    g_error ("'%s' not in: %s", expected, error->message);
  g_error_free (error);
  compiled_free (&c);
}

static void
test_references (void)
{
  assert_refused ("filter f { filter(f_missing); };\n", "test.conf:1:12: there is no filter named 'f_missing'");
  assert_refused ("filter f { filter(f_b); };\nfilter f_b { filter(f); };\n", "filter 'f_b' refers to itself");
  assert_refused ("filter f { \"$A\" ~~ \"b\"; };\n", "test.conf:1:17: unexpected character '~'");
}

/* A function that offers process() is called with the message, and its
 * change is a copy the other holders never see; the next function in the
 * expression reads the changed message. */
static void
test_functions_that_store (void)
{
  Compiled c;
  GError *error = NULL;
  g_assert_true (compile (&c, "filter f { remember() and look(); };\n", &error));
  g_assert_no_error (error);
  SlMessage *msg = message ("a", "1", 6);
  SlMessage *other = sl_message_ref (msg);
  g_assert_true (sl_filter_expr_eval (c.expr, &msg));
  g_assert_true (msg != other);
  g_assert_true (sl_message_has (msg, sl_field_handle (".remembered")));
  g_assert_false (sl_message_has (other, sl_field_handle (".remembered")));
  sl_message_unref (msg);
  sl_message_unref (other);
  compiled_free (&c);

  /* one that only reads leaves the message as it is */
  g_assert_true (compile (&c, "filter f { not look(); };\n", &error));
  msg = message ("a", "1", 6);
  SlMessage *held = msg;
  g_assert_true (sl_filter_expr_eval (c.expr, &msg));
  g_assert_true (msg == held);
  sl_message_unref (msg);
  compiled_free (&c);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_assert_true (sl_plugins_register (&test_module, __FILE__, NULL));
  g_test_add_func ("/filter-expr/numeric", test_numeric_comparisons);
  g_test_add_func ("/filter-expr/string", test_string_comparisons);
  g_test_add_func ("/filter-expr/typed", test_typed_comparisons);
  g_test_add_func ("/filter-expr/boolean", test_boolean_operators);
  g_test_add_func ("/filter-expr/references", test_references);
  g_test_add_func ("/filter-expr/functions-that-store", test_functions_that_store);
  return g_test_run ();
}
