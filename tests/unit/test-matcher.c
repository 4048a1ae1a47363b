/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SlMatcher's contract as filters and rewrites rely on it: what type() and
 * flags() mean, that values are (pointer, length), what replacing appends,
 * when the message is written, and that a runaway regex is bounded. */
#include "core/config/error.h"
#include "core/config/parser.h"
#include "core/message/matcher.h"
#include "core/stats.h"

#include <string.h>

typedef struct
{
  SlCfgNode *root;
  SlOptions *options;
  SlMatcherOptions values;
  SlDriver owner;
  SlMatcher *m;
} Fixture;

static const SlOptionSpec specs[] = {
  SL_MATCHER_OPTIONS (Fixture, values),
  { NULL }
};

static const SlDriverClass owner_class = {
  .kind = SL_DRIVER_FILTER, .name = "owner", .options = specs, .instance_size = sizeof (SlDriver),
};

/* A matcher of pattern with the options written as text ("type(string)"). */
static SlMatcher *
matcher_new (Fixture *f, const gchar *pattern, const gchar *options, GError **error)
{
  gchar *text = g_strdup_printf ("filter f { owner(%s); };", options);
  f->root = sl_cfg_parse_string (text, "m.conf", NULL);
  g_free (text);
  const SlCfgNode *call = g_ptr_array_index (((SlCfgNode *) g_ptr_array_index (f->root->children, 0))->children, 0);
  const SlOptionSpec *tables[] = { specs, NULL };
  f->options = sl_options_new ("owner()", tables, NULL, call, NULL, error);
  if (!f->options)
    {
      f->m = NULL;
      return NULL;
    }
  g_assert_true (sl_options_bind (f->options, specs, f, NULL, error));
  f->owner = (SlDriver) { .klass = &owner_class, .id = "owner#0", .pos = call->pos };
  f->m = sl_matcher_new (&f->owner, &f->values, pattern, call->pos, error);
  return f->m;
}

static void
fixture_free (Fixture *f)
{
  g_assert_nonnull (f->options);
  sl_matcher_free (f->m);
  sl_options_free (f->options);
  sl_cfg_node_free (f->root);
}

static gboolean
matches (const gchar *pattern, const gchar *options, const gchar *value)
{
  Fixture f = { 0 };
  g_assert_nonnull (matcher_new (&f, pattern, options, NULL));
  gboolean m = sl_matcher_match (f.m, value, strlen (value));
  fixture_free (&f);
  return m;
}

static void
test_types_and_flags (void)
{
  g_assert_true (matches ("^a.c$", "", "abc"));
  g_assert_false (matches ("^a.c$", "", "ABC"));
  g_assert_true (matches ("^a.c$", "flags(ignore-case)", "ABC"));
  g_assert_false (matches ("a.c", "type(string)", "abc"));
  g_assert_true (matches ("a.c", "type(string)", "a.c"));
  g_assert_true (matches ("a.c", "type(string) flags(prefix)", "a.cd"));
  g_assert_true (matches ("a.c", "type(string) flags(substring)", "xa.cd"));
  g_assert_true (matches ("a*c", "type(glob)", "abbbc"));
  g_assert_false (matches ("a*c", "type(glob)", "abbbcd"));
  /* utf8 and unicode make . a character */
  g_assert_false (matches ("^.$", "", "\xc3\xa9"));
  g_assert_true (matches ("^.$", "flags(utf8)", "\xc3\xa9"));
  g_assert_true (matches ("^.$", "flags(unicode)", "\xc3\xa9"));
  /* newline: $ knows CRLF */
  g_assert_false (matches ("(?m)a$", "", "a\r\nb"));
  g_assert_true (matches ("(?m)a$", "flags(newline)", "a\r\nb"));
  /* dupnames lets groups share a name; disable-jit still matches */
  g_assert_true (matches ("(?<n>a)|(?<n>b)", "flags(dupnames)", "b"));
  g_assert_true (matches ("b+", "flags(disable-jit)", "abbb"));

  Fixture f = { 0 };
  GError *error = NULL;
  g_assert_null (matcher_new (&f, "(?<n>a)|(?<n>b)", "", &error));
  g_assert_nonnull (strstr (error->message, "m.conf:1:12: invalid regular expression"));
  g_clear_error (&error);
  fixture_free (&f);
  g_assert_null (matcher_new (&f, "x", "type(regexp)", &error));
  g_assert_nonnull (strstr (error->message, "m.conf:1:23: 'regexp' is not a value of type(); expected one of: pcre, string, glob"));
  g_clear_error (&error);
  sl_cfg_node_free (f.root);
}

/* Values are (pointer, length): a match never reads past the length. */
static void
test_lengths (void)
{
  Fixture f = { 0 };
  const gchar *value = "sshd-and-more";
  const gchar *options[] = { "", "type(string)", "type(glob)" };
  const gchar *patterns[] = { "^sshd$", "sshd", "sshd" };
  for (guint i = 0; i < G_N_ELEMENTS (options); i++)
    {
      g_assert_nonnull (matcher_new (&f, patterns[i], options[i], NULL));
      g_assert_true (sl_matcher_match (f.m, value, 4));
      g_assert_false (sl_matcher_match (f.m, value, 5));
      g_assert_false (sl_matcher_match (f.m, value, 3));
      fixture_free (&f);
    }
}

static void
test_replace (void)
{
  Fixture f = { 0 };
  g_assert_nonnull (matcher_new (&f, "o", "flags(global)", NULL));
  SlTemplate *literal = sl_template_compile ("0", NULL);
  SlMessage *msg = sl_message_new ("", 0);
  SlMessage *other = sl_message_ref (msg);
  GString *out = g_string_new ("kept:");

  /* a literal replacement writes nothing into the message */
  g_assert_true (sl_matcher_replace (f.m, msg, "foo boo", 7, literal, out));
  g_assert_cmpstr (out->str, ==, "kept:f00 b00");
  g_assert_null (sl_message_get (other, sl_field_handle ("0"), NULL));
  /* nothing matched: FALSE, and out is as it was */
  g_string_assign (out, "kept:");
  g_assert_false (sl_matcher_replace (f.m, msg, "xyz", 3, literal, out));
  g_assert_cmpstr (out->str, ==, "kept:");
  sl_message_unref (other);
  fixture_free (&f);

  /* a template replacement sees the match as $0, $1 */
  g_assert_nonnull (matcher_new (&f, "(\\d)(\\d)", "", NULL));
  SlTemplate *swap = sl_template_compile ("$2$1", NULL);
  g_string_truncate (out, 0);
  g_assert_true (sl_matcher_replace (f.m, msg, "a12b34", 6, swap, out));
  g_assert_cmpstr (out->str, ==, "a21b34");
  gsize len;
  g_assert_cmpstr (sl_message_get (msg, sl_field_handle ("0"), &len), ==, "12");
  fixture_free (&f);

  sl_template_unref (swap);
  sl_template_unref (literal);
  sl_message_unref (msg);
  g_string_free (out, TRUE);
}

static void
test_store (void)
{
  Fixture f = { 0 };
  g_assert_nonnull (matcher_new (&f, "(?P<word>\\w+)(x)?", "flags(store-matches)", NULL));
  SlMessage *msg = sl_message_new ("", 0);
  sl_message_set (msg, sl_field_handle ("2"), "stale", -1);
  sl_message_set (msg, sl_field_handle ("200"), "stale", -1);
  SlMessage *other = sl_message_ref (msg);
  g_assert_true (sl_matcher_match_store (f.m, &msg, "  hello", 7));
  g_assert_true (msg != other);
  gsize len;
  g_assert_cmpstr (sl_message_get (msg, sl_field_handle ("0"), &len), ==, "hello");
  g_assert_cmpstr (sl_message_get (msg, sl_field_handle ("word"), &len), ==, "hello");
  /* a group that took no part, and matches of an earlier pattern, are unset */
  g_assert_false (sl_message_has (msg, sl_field_handle ("2")));
  g_assert_false (sl_message_has (msg, sl_field_handle ("200")));
  g_assert_true (sl_message_has (other, sl_field_handle ("200")));
  sl_message_unref (msg);
  sl_message_unref (other);
  fixture_free (&f);

  /* without the flag nothing is stored and nothing copied */
  g_assert_nonnull (matcher_new (&f, "(\\w+)", "", NULL));
  msg = sl_message_new ("", 0);
  other = sl_message_ref (msg);
  g_assert_true (sl_matcher_match_store (f.m, &msg, "hello", 5));
  g_assert_true (msg == other);
  g_assert_false (sl_message_has (msg, sl_field_handle ("1")));
  sl_message_unref (msg);
  sl_message_unref (other);
  fixture_free (&f);
}

static void
test_runaway_is_bounded (void)
{
  const gchar *options[] = { "", "flags(disable-jit)" };
  for (guint i = 0; i < G_N_ELEMENTS (options); i++)
    {
      Fixture f = { 0 };
      g_assert_nonnull (matcher_new (&f, "(a+)+$", options[i], NULL));
      SlCounter *errors = sl_stats_counter ("filter", "owner#0", "owner", "match-errors");
      gint64 before = sl_counter_get (errors);
      gchar *line = g_strnfill (30000, 'a');
      line[29999] = 'b';
      g_assert_false (sl_matcher_match (f.m, line, 30000));
      g_assert_cmpint (sl_counter_get (errors), ==, before + 1);
      g_free (line);
      fixture_free (&f);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/matcher/types-and-flags", test_types_and_flags);
  g_test_add_func ("/matcher/lengths", test_lengths);
  g_test_add_func ("/matcher/replace", test_replace);
  g_test_add_func ("/matcher/store", test_store);
  g_test_add_func ("/matcher/runaway", test_runaway_is_bounded);
  return g_test_run ();
}
