/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "tests/unit/plugin-fixture.h"
#include "core/compile/loader.h"

#include <string.h>

extern const SlModule sl_module;

/* Named objects rules may refer to. */
static const gchar objects[] =
  "template t_id { template(\"${HOST}:${PID}\"); };\n"
  "filter f_sshd { \"${PROGRAM}\" eq \"sshd\"; };\n";

typedef struct
{
  SlTestDriver t;
} Rule;

static Rule
rule_new (const gchar *text)
{
  Rule r;
  GError *error = NULL;
  if (!sl_test_driver_new (&r.t, SL_DRIVER_REWRITE, objects, text, &error))
    g_error ("%s: %s", text, error->message);
  return r;
}

static void
rule_free (Rule *r)
{
  sl_test_driver_free (&r->t);
}

static gboolean
append_field (SlHandle field, const gchar *value, gsize len, gpointer data)
{
  g_string_append_printf (data, "%s=%.*s;", sl_field_name (field), (int) len, value);
  return TRUE;
}

/* Everything a destination could see of msg, as text. */
static gchar *
snapshot (const SlMessage *msg)
{
  GString *out = g_string_new (NULL);
  g_string_append_printf (out, "pri=%u;", msg->pri);
  for (SlHandle h = SL_F_NONE + 1; h < SL_F_BUILTIN_MAX; h++)
    {
      gsize len;
      const gchar *value = sl_message_get (msg, h, &len);
      if (value)
        append_field (h, value, len, out);
    }
  sl_message_foreach_dynamic (msg, append_field, out);
  g_string_append (out, "tags=");
  sl_message_append_tags (msg, out);
  return g_string_free (out, FALSE);
}

/* Runs the rule on msg as a path would, with another path holding the
 * same message: that one must never see a change. The message the path
 * goes on with is returned; the caller unrefs it. */
static SlMessage *
run (Rule *r, SlMessage *msg)
{
  SlMessage *other_path = sl_message_ref (msg);
  gchar *before = snapshot (msg);
  g_assert_true (r->t.driver->klass->ops.rewrite->process (r->t.driver, &msg));
  gchar *after = snapshot (other_path);
  g_assert_cmpstr (before, ==, after);
  g_free (before);
  g_free (after);
  sl_message_unref (other_path);
  return msg;
}

#define assert_field(msg, name, expected) \
  G_STMT_START { \
    gchar *value_ = sl_test_message_field ((msg), (name)); \
    g_assert_cmpstr (value_, ==, (expected)); \
    g_free (value_); \
  } G_STMT_END

static gchar *
refusal (const gchar *text)
{
  SlTestDriver t;
  GError *error = NULL;
  g_assert_false (sl_test_driver_new (&t, SL_DRIVER_REWRITE, objects, text, &error));
  g_assert_nonnull (error);
  sl_test_driver_free (&t);
  gchar *message = g_strdup (error->message);
  g_error_free (error);
  return message;
}

#define assert_refused(text, expected) \
  G_STMT_START { \
    gchar *m_ = refusal (text); \
    if (!strstr (m_, (expected))) \
      g_error ("'%s' not in: %s", (expected), m_); \
    g_free (m_); \
  } G_STMT_END

static void
test_set (void)
{
  Rule r = rule_new ("set(\"$HOST/${PROGRAM}\" value(\".app.id\"))");
  SlMessage *msg = run (&r, sl_test_message_new ("HOST", "web1", "PROGRAM", "nginx", NULL));
  assert_field (msg, ".app.id", "web1/nginx");
  sl_message_unref (msg);
  rule_free (&r);

  /* an alias names the field it stands for; a template object is used by name */
  r = rule_new ("set(t_id value(\"MSG\"))");
  msg = run (&r, sl_test_message_new ("HOST", "db", "PID", "7", "MESSAGE", "old", NULL));
  assert_field (msg, "MESSAGE", "db:7");
  sl_message_unref (msg);
  rule_free (&r);

  /* a field set from itself */
  r = rule_new ("set(\"<$MESSAGE>\" value(\"MESSAGE\"))");
  msg = run (&r, sl_test_message_new ("MESSAGE", "text", NULL));
  assert_field (msg, "MESSAGE", "<text>");
  sl_message_unref (msg);
  rule_free (&r);
}

static void
test_condition (void)
{
  Rule r = rule_new ("set(\"seen\" value(\"MESSAGE\") condition(filter(f_sshd) and not \"$PID\" == 1))");
  SlMessage *sshd = run (&r, sl_test_message_new ("PROGRAM", "sshd", "PID", "42", "MESSAGE", "x", NULL));
  SlMessage *init = run (&r, sl_test_message_new ("PROGRAM", "sshd", "PID", "1", "MESSAGE", "x", NULL));
  SlMessage *cron = sl_test_message_new ("PROGRAM", "cron", "PID", "42", "MESSAGE", "x", NULL);
  SlMessage *held = cron;
  cron = run (&r, cron);
  assert_field (sshd, "MESSAGE", "seen");
  assert_field (init, "MESSAGE", "x");
  assert_field (cron, "MESSAGE", "x");
  /* a message the rule leaves alone is not copied */
  g_assert_true (cron == held);
  sl_message_unref (sshd);
  sl_message_unref (init);
  sl_message_unref (cron);
  rule_free (&r);

  r = rule_new ("set-tag(\"low\" condition(\"${LEVEL_NUM}\" >= 6 or (\"$PROGRAM\" eq \"debugd\")))");
  SlMessage *info = sl_message_new ("", 0);
  info->pri = SL_PRI_MAKE (1, 6);
  info = run (&r, info);
  SlMessage *err = sl_test_message_new ("PROGRAM", "app", NULL);
  err->pri = SL_PRI_MAKE (1, 3);
  err = run (&r, err);
  g_assert_true (sl_message_has_tag (info, "low"));
  g_assert_false (sl_message_has_tag (err, "low"));
  sl_message_unref (info);
  sl_message_unref (err);
  rule_free (&r);
}

/* groupset(): each matching field rendered with $_ as its own value, as
 * syslog-ng 3.38 writes it; $_ itself does not stay behind */
static void
test_groupset (void)
{
  Rule r = rule_new ("groupset(\"<$_>\" values(\"json.*\" \"PI?\"))");
  SlMessage *msg = sl_test_message_new ("json.a", "x", "json.b.c", "yz", "jsonx", "kept", "PID", "ab",
                                        "PROGRAM", "kept", NULL);
  msg = run (&r, msg);
  assert_field (msg, "json.a", "<x>");
  assert_field (msg, "json.b.c", "<yz>");
  assert_field (msg, "PID", "<ab>");
  assert_field (msg, "jsonx", "kept");
  assert_field (msg, "PROGRAM", "kept");
  assert_field (msg, "_", NULL);
  msg = run (&r, msg);
  assert_field (msg, "json.a", "<<x>>");
  sl_message_unref (msg);
  rule_free (&r);

  r = rule_new ("groupset(\"[$_]\" values(\"*\"))");
  msg = run (&r, sl_test_message_new ("json.a", "x", NULL));
  assert_field (msg, "json.a", "[x]");
  assert_field (msg, "_", NULL);
  sl_message_unref (msg);
  rule_free (&r);
}

static void
test_unset_and_groupunset (void)
{
  Rule r = rule_new ("unset(value(\"PID\"))");
  SlMessage *msg = run (&r, sl_test_message_new ("PID", "42", "PROGRAM", "x", NULL));
  assert_field (msg, "PID", NULL);
  assert_field (msg, "PROGRAM", "x");
  SlMessage *held = msg;
  msg = run (&r, msg);
  g_assert_true (msg == held);
  sl_message_unref (msg);
  rule_free (&r);

  r = rule_new ("groupunset(values(\".SDATA.*\" \"json.*\" \"PI?\"))");
  msg = sl_test_message_new (".SDATA.origin.ip", "1.2.3.4", ".SDATA.meta.seq", "5", "json.user", "bob",
                             "json.a.b", "c", "jsonx", "kept", ".sdata.lower", "kept", "PID", "7",
                             "PROGRAM", "kept", NULL);
  /* more matching fields than one pass collects */
  for (guint i = 0; i < 150; i++)
    {
      gchar name[32];
      g_snprintf (name, sizeof name, "json.many.%u", i);
      sl_message_set (msg, sl_field_handle (name), "v", 1);
    }
  msg = run (&r, msg);
  assert_field (msg, ".SDATA.origin.ip", NULL);
  assert_field (msg, ".SDATA.meta.seq", NULL);
  assert_field (msg, "json.user", NULL);
  assert_field (msg, "json.a.b", NULL);
  assert_field (msg, "json.many.149", NULL);
  assert_field (msg, "PID", NULL);
  assert_field (msg, "jsonx", "kept");
  assert_field (msg, ".sdata.lower", "kept");
  assert_field (msg, "PROGRAM", "kept");
  held = msg;
  msg = run (&r, msg);
  g_assert_true (msg == held);
  sl_message_unref (msg);
  rule_free (&r);
}

/* What the rule makes of MESSAGE = input. */
static gchar *
subst (const gchar *rule, const gchar *input)
{
  Rule r = rule_new (rule);
  SlMessage *msg = run (&r, sl_test_message_new ("MESSAGE", input, NULL));
  gchar *out = sl_test_message_field (msg, "MESSAGE");
  sl_message_unref (msg);
  rule_free (&r);
  return out;
}

#define assert_subst(rule, input, expected) \
  G_STMT_START { \
    gchar *out_ = subst ((rule), (input)); \
    g_assert_cmpstr (out_, ==, (expected)); \
    g_free (out_); \
  } G_STMT_END

static void
test_subst (void)
{
  assert_subst ("subst(\"secret=\\\\S+\" \"secret=***\")", "a secret=x1 b secret=y2", "a secret=*** b secret=y2");
  assert_subst ("subst(\"secret=\\\\S+\" \"secret=***\" flags(global))", "a secret=x1 b secret=y2",
                "a secret=*** b secret=***");
  assert_subst ("subst(\"(\\\\d+)\\\\.(\\\\d+)\" \"$2.$1\" flags(global))", "v1.2 and 30.40", "v2.1 and 40.30");
  assert_subst ("subst(\"(?<user>[a-z]+)@\" \"${user} at \")", "mail bob@host", "mail bob at host");
  assert_subst ("subst(\"ERROR\" \"error\" flags(ignore-case, global))", "Error, error, ERROR", "error, error, error");
  assert_subst ("subst(\"nothing\" \"x\")", "unchanged", "unchanged");
  assert_subst ("subst(\"^\" \"> \")", "quoted", "> quoted");
  assert_subst ("subst(\"$\" \"!\" flags(global))", "end", "end!");
  assert_subst ("subst(\"x\" \"[$MESSAGE]\")", "axb", "a[axb]b");

  /* literal strings: no regex characters, exact, prefix or anywhere */
  assert_subst ("subst(\"a.b\" \"X\" type(string) flags(substring, global))", "a.b aab a.b", "X aab X");
  assert_subst ("subst(\"A.B\" \"X\" type(string) flags(substring, ignore-case))", "xa.by", "xXy");
  assert_subst ("subst(\"whole\" \"X\" type(string))", "whole", "X");
  assert_subst ("subst(\"whole\" \"X\" type(string))", "whole thing", "whole thing");
  assert_subst ("subst(\"ab\" \"X\" type(string) flags(prefix))", "abcab", "Xcab");
  assert_subst ("subst(\"a\" \"[$0]\" type(string) flags(substring, global))", "banana", "b[a]n[a]n[a]");
  assert_subst ("subst(\"\" \"X\" type(string) flags(substring, global))", "ab", "Xab");

  /* empty matches move on as GLib's own replace does */
  const gchar *input = "baaac";
  GRegex *re = g_regex_new ("a*", G_REGEX_RAW, 0, NULL);
  gchar *expected = g_regex_replace_literal (re, input, -1, 0, "?", 0, NULL);
  assert_subst ("subst(\"a*\" \"?\" flags(global))", input, expected);
  g_free (expected);
  g_regex_unref (re);

  /* value() picks the field; $1 stays set afterwards, as after any match */
  Rule r = rule_new ("subst(\"^(\\\\w+)\\\\.example$\" \"$1\" value(\"HOST\"))");
  SlMessage *msg = run (&r, sl_test_message_new ("HOST", "web1.example", "MESSAGE", "m", NULL));
  assert_field (msg, "HOST", "web1");
  assert_field (msg, "1", "web1");
  assert_field (msg, "MESSAGE", "m");
  sl_message_unref (msg);
  rule_free (&r);

  /* a field that is unset stays unset when nothing matches */
  r = rule_new ("subst(\"x\" \"y\" value(\"PID\"))");
  msg = sl_test_message_new ("MESSAGE", "m", NULL);
  SlMessage *held = msg;
  msg = run (&r, msg);
  g_assert_true (msg == held);
  assert_field (msg, "PID", NULL);
  sl_message_unref (msg);
  rule_free (&r);
}

static void
test_subst_hostile (void)
{
  /* a catastrophic pattern stops at PCRE's limit; the field is left alone */
  Rule r = rule_new ("subst(\"(a+)+$\" \"X\")");
  gsize n = 50000;
  gchar *line = g_malloc (n + 1);
  memset (line, 'a', n);
  line[n - 1] = 'b';
  line[n] = '\0';
  gint64 errors = sl_test_driver_counter (&r.t, "match-errors");
  SlMessage *msg = run (&r, sl_test_message_new ("MESSAGE", line, NULL));
  assert_field (msg, "MESSAGE", line);
  g_assert_cmpint (sl_test_driver_counter (&r.t, "match-errors"), ==, errors + 1);
  sl_message_unref (msg);
  rule_free (&r);
  g_free (line);

  /* a huge value, every match replaced */
  gsize big = 1 << 20;
  gchar *huge = g_malloc (big + 1);
  for (gsize i = 0; i < big; i++)
    huge[i] = (i % 2) ? 'x' : '\xff';
  huge[big] = '\0';
  gchar *out = subst ("subst(\"x\" \"yy\" flags(global))", huge);
  g_assert_cmpuint (strlen (out), ==, big + big / 2);
  g_assert_true (g_str_has_prefix (out, "\xffyy\xffyy"));
  g_free (out);
  /* under utf8, bytes that are not UTF-8 are counted and left alone */
  out = subst ("subst(\"x\" \"y\" flags(utf8))", huge);
  g_assert_cmpstr (out, ==, huge);
  g_free (out);
  g_free (huge);

  /* a replacement that refers to the group it replaces in a stored match */
  r = rule_new ("subst(\"(.)\" \"<$1>\" value(\"1\") flags(global))");
  msg = run (&r, sl_test_message_new ("1", "ab", NULL));
  assert_field (msg, "1", "<a><b>");
  sl_message_unref (msg);
  rule_free (&r);
}

static void
test_tags (void)
{
  Rule set = rule_new ("set-tag(\"audit\")");
  Rule templated = rule_new ("set-tag(\"app-$PROGRAM\")");
  Rule clear = rule_new ("clear-tag(\"audit\")");
  SlMessage *msg = run (&set, sl_test_message_new ("PROGRAM", "sshd", NULL));
  msg = run (&templated, msg);
  g_assert_true (sl_message_has_tag (msg, "audit"));
  g_assert_true (sl_message_has_tag (msg, "app-sshd"));
  SlMessage *held = msg;
  msg = run (&set, msg);
  g_assert_true (msg == held);
  msg = run (&clear, msg);
  g_assert_false (sl_message_has_tag (msg, "audit"));
  g_assert_true (sl_message_has_tag (msg, "app-sshd"));
  held = msg;
  msg = run (&clear, msg);
  g_assert_true (msg == held);
  sl_message_unref (msg);
  rule_free (&set);
  rule_free (&templated);
  rule_free (&clear);
}

static guint8
pri_after (const gchar *rule, guint8 pri, const gchar *level_field)
{
  Rule r = rule_new (rule);
  SlMessage *msg = level_field ? sl_test_message_new ("LVL", level_field, NULL) : sl_message_new ("", 0);
  msg->pri = pri;
  msg = run (&r, msg);
  guint8 out = msg->pri;
  sl_message_unref (msg);
  rule_free (&r);
  return out;
}

static void
test_priority (void)
{
  guint8 user_notice = SL_PRI_MAKE (1, 5);
  g_assert_cmpuint (pri_after ("set-facility(\"local3\")", user_notice, NULL), ==, SL_PRI_MAKE (19, 5));
  g_assert_cmpuint (pri_after ("set-facility(\"4\")", user_notice, NULL), ==, SL_PRI_MAKE (4, 5));
  g_assert_cmpuint (pri_after ("set-facility(\"AUTHPRIV\")", user_notice, NULL), ==, SL_PRI_MAKE (10, 5));
  g_assert_cmpuint (pri_after ("set-severity(\"err\")", user_notice, NULL), ==, SL_PRI_MAKE (1, 3));
  g_assert_cmpuint (pri_after ("set-severity(\"warn\")", user_notice, NULL), ==, SL_PRI_MAKE (1, 4));
  g_assert_cmpuint (pri_after ("set-severity(\"7\")", user_notice, NULL), ==, SL_PRI_MAKE (1, 7));
  g_assert_cmpuint (pri_after ("set-pri(\"92\")", user_notice, NULL), ==, 92);
  /* templates are read per message; what names nothing is left alone */
  g_assert_cmpuint (pri_after ("set-severity(\"$LVL\")", user_notice, "crit"), ==, SL_PRI_MAKE (1, 2));
  g_assert_cmpuint (pri_after ("set-severity(\"$LVL\")", user_notice, "loud"), ==, user_notice);
  g_assert_cmpuint (pri_after ("set-severity(\"$LVL\")", user_notice, "8"), ==, user_notice);
  g_assert_cmpuint (pri_after ("set-facility(\"$LVL\")", user_notice, "local7"), ==, SL_PRI_MAKE (23, 5));
  g_assert_cmpuint (pri_after ("set-pri(\"$LVL\")", user_notice, "9999999999999999999999"), ==, user_notice);

  Rule r = rule_new ("set-severity(\"$LVL\")");
  gint64 invalid = sl_test_driver_counter (&r.t, "invalid-values");
  SlMessage *msg = run (&r, sl_test_message_new ("LVL", "", NULL));
  g_assert_cmpint (sl_test_driver_counter (&r.t, "invalid-values"), ==, invalid + 1);
  sl_message_unref (msg);
  rule_free (&r);
}

static void
test_config_errors (void)
{
  assert_refused ("set(\"x\")", "test.conf:3:13: set() needs value(\"FIELD\")");
  assert_refused ("set(value(\"X\"))", "set() needs the new value");
  assert_refused ("set(\"x\" value(\"FACILITY\"))", "test.conf:3:21: 'FACILITY' is a macro, computed from the message");
  assert_refused ("set(\"$(nosuch)\" value(\"X\"))", "unknown template function 'nosuch'");
  assert_refused ("set(foo(\"x\") value(\"X\"))", "test.conf:3:21: unknown type hint 'foo'");
  /* 4.x's name of the type; this configuration is 3.x, as 3.38 refuses it */
  assert_refused ("set(integer(\"1\") value(\"X\"))", "unknown type hint 'integer'");
  assert_refused ("unset(value(\"\"))", "'' is not a field or macro name");
  assert_refused ("groupunset()", "groupunset() needs values()");
  assert_refused ("groupset(values(\"json.*\"))", "groupset() needs the new value");
  assert_refused ("groupset(\"x\")", "groupset() needs values()");
  assert_refused ("set(\"x\" value(\"X\") condition(filter(f_missing)))", "there is no filter named 'f_missing'");
  assert_refused ("set(\"x\" value(\"X\") condition())", "expected a filter expression");
  assert_refused ("set(\"x\" value(\"X\") condition(\"$A\" eq))", "a value to compare after 'eq'");
  assert_refused ("subst(\"only-pattern\")", "subst() takes a pattern and a replacement");
  assert_refused ("subst(\"a\" \"b\" \"c\")", "subst() takes a pattern and a replacement");
  assert_refused ("subst(\"ab\\\\\" \"x\")", "test.conf:3:19: invalid regular expression");
  assert_refused ("subst(\"a\" \"${unterminated\")", "test.conf:3:23: unterminated '${'");
  assert_refused ("subst(\"a*\" \"b\" type(glob))", "subst() cannot replace what a glob matches");
  assert_refused ("subst(\"a\" \"b\" type(posix))", "'posix' is not a value of type(); expected one of: pcre, string, glob");
  assert_refused ("subst(\"a\" \"b\" value(\"LEVEL\"))", "'LEVEL' is a macro");
  assert_refused ("set-tag()", "set-tag() needs a tag");
  assert_refused ("set-facility(\"local9\")", "test.conf:3:26: unknown facility 'local9'");
  assert_refused ("set-severity(\"loud\")", "unknown severity 'loud'");
  assert_refused ("set-pri(\"192\")", "'192' is no priority");
  assert_refused ("set-pri()", "set-pri() needs a value");

  /* a mistake in the condition of a rule no path uses is still found */
  SlTestDriver t;
  GError *error = NULL;
  g_assert_false (sl_test_driver_new (&t, SL_DRIVER_REWRITE,
                                      "rewrite r_unused { set(\"x\" value(\"X\") condition(nosuch(1))); };\n",
                                      "unset(value(\"X\"))", &error));
  g_assert_nonnull (strstr (error->message, "test.conf:1:49: unknown filter driver 'nosuch'"));
  g_error_free (error);
  sl_test_driver_free (&t);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_assert_true (sl_plugins_register (&sl_module, __FILE__, NULL));
  g_test_add_func ("/rewrites/set", test_set);
  g_test_add_func ("/rewrites/condition", test_condition);
  g_test_add_func ("/rewrites/unset-groupunset", test_unset_and_groupunset);
  g_test_add_func ("/rewrites/groupset", test_groupset);
  g_test_add_func ("/rewrites/subst", test_subst);
  g_test_add_func ("/rewrites/subst-hostile", test_subst_hostile);
  g_test_add_func ("/rewrites/tags", test_tags);
  g_test_add_func ("/rewrites/priority", test_priority);
  g_test_add_func ("/rewrites/config-errors", test_config_errors);
  return g_test_run ();
}
