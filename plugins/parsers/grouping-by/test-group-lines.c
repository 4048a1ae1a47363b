/* SPDX-License-Identifier: GPL-2.0-or-later */
/* group-lines() on the real daemon against syslog-ng 4.8 (Debian 13's, in
 * the root of tests/peers/trixie-root) on the same file: each line of it a
 * message of its own, grouped by the file's name, in smart and indented
 * multi-line modes. syslog-ng 4.8.1 dies of a segmentation fault when a
 * group-lines() context expires, so the groups compared are those the
 * lines close; sluiced then sends the group still open on its timeout. */
#include "tests/functional/harness.h"

#include <string.h>

static gchar *trixie;   /* the Debian 13 root, or NULL */

static const gchar config[] =
  "@version: 4.8\n"
  "source s_in { file(\"@DIR@/in.log\" flags(no-parse) follow-freq(0.1)); };\n"
  "parser p_lines { group-lines(key(\"$FILE_NAME\") multi-line-mode(\"@MODE@\") timeout(1)); };\n"
  "destination d_out { file(\"@DIR@/out.log\" template(\"<${MSG}>\\n\")); };\n"
  "log { source(s_in); parser(p_lines); destination(d_out); };\n";

/* stack traces of five languages among plain lines; the last one closes
 * the group before it and is a group alone, closed at once */
static const gchar smart_input[] =
  "starting\n"
  "java.lang.IllegalStateException: first\n"
  "\tat a.B.c(B.java:1)\n"
  "Caused by: java.lang.NullPointerException\n"
  "\tat a.B.d(B.java:2)\n"
  "Traceback (most recent call last):\n"
  "  File \"x.py\", line 1, in <module>\n"
  "KeyError: 'k'\n"
  "plain\twith a tab\n"
  "panic: boom\n"
  "\n"
  "goroutine 1 [running]:\n"
  "main.main()\n"
  "\t/tmp/main.go:5 +0x1d\n"
  "NoMethodError (undefined method `x' for nil:NilClass):\n"
  "  app/models/a.rb:4:in `b'\n"
  "ending\n";

/* the last line opens a group nothing closes but the timeout */
static const gchar indented_input[] = "a\n  b\n\tc\nd\n e\nlast\n";

static void
compare (SlTestEnv *env, const gchar *mode, const gchar *input, const gchar *closed, const gchar *open)
{
  if (!trixie)
    {
      g_test_skip ("the Debian 13 root could not be made (tests/peers/trixie-root)");
      return;
    }
  GString *text = g_string_new (config);
  g_string_replace (text, "@MODE@", mode, 0);
  g_autofree gchar *expected = sl_test_syslog_ng_48_output (env, trixie, text->str, input, closed);
  g_autofree gchar *in = sl_test_path (env, "in.log");
  g_autofree gchar *out = sl_test_path (env, "out.log");
  if (expected && g_file_set_contents (in, input, -1, NULL) && sl_test_write_config (env, text->str, NULL)
      && sl_test_daemon_start (env) && sl_test_wait_contains (env, out, closed))
    {
      g_test_message ("syslog-ng 4.8 wrote:\n%s", expected);
      g_autofree gchar *all = g_strconcat (expected, open, NULL);
      if (*open)
        sl_test_wait_contains (env, out, open);
      g_autofree gchar *got = sl_test_read_file (out);
      g_assert_cmpstr (got, ==, all);
    }
  g_string_free (text, TRUE);
}

static void
test_smart (SlTestEnv *env, gconstpointer data)
{
  compare (env, "smart", smart_input, "<ending>\n", "");
}

static void
test_indented (SlTestEnv *env, gconstpointer data)
{
  compare (env, "indented", indented_input, "<d\n e>\n", "<last>\n");
}

static void
test_refused (SlTestEnv *env, gconstpointer data)
{
  static const struct
  {
    const gchar *options, *error;
  } cases[] = {
    { "key(\"$FILE_NAME\") timeout(5)", "group-lines() needs multi-line-mode()" },
    { "key(\"$FILE_NAME\") multi-line-mode(smart)", "timeout" },
    { "multi-line-mode(smart) timeout(5)", "key" },
    { "key(\"$FILE_NAME\") multi-line-mode(smart) timeout(0)", "timeout" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree gchar *text = g_strdup_printf ("source s { file(\"@DIR@/in.log\"); };\n"
                                                "parser p { group-lines(%s); };\n"
                                                "log { source(s); parser(p); };\n", cases[i].options);
      g_autofree gchar *err = sl_test_refused_config (env, text, NULL);
      g_assert_nonnull (err);
      g_test_message ("%s: %s", cases[i].options, err);
      g_assert_nonnull (strstr (err, cases[i].error));
    }
}

int
main (int argc, char **argv)
{
  sl_test_init (&argc, &argv);
  trixie = sl_test_trixie_root ();
  SL_TEST_ADD ("/group-lines/smart", test_smart);
  SL_TEST_ADD ("/group-lines/indented", test_indented);
  SL_TEST_ADD ("/group-lines/refused", test_refused);
  gint result = g_test_run ();
  g_free (trixie);
  return result;
}
