/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog's split of a tag and text into syslogtag and msg, as rsyslogd
 * 8.2302's imuxsock made it for the same lines (tests/functional/
 * test-rsyslog-conf compares whole files with it). */
#include "core/plugin/plugin.h"
#include "core/compile/loader.h"
#include "core/message/template.h"

#include <string.h>

extern const SlModule sl_module;

static void
assert_split (const gchar *text, const gchar *tag, const gchar *msg, const gchar *space)
{
  static const gchar *const functions[] = { "rsyslog-tag", "rsyslog-msg", "rsyslog-msg-space", "rsyslog-tag-msg" };
  g_autofree gchar *joined = g_strconcat (tag, space, msg, NULL);
  const gchar *expected[] = { tag, msg, space, joined };
  SlMessage *message = sl_message_new ("", 0);

  sl_message_set (message, sl_field_handle ("text"), text, -1);
  for (guint i = 0; i < G_N_ELEMENTS (functions); i++)
    {
      GError *error = NULL;
      /* text before and after: the functions work in place in the output */
      g_autofree gchar *source = g_strdup_printf ("<$(%s ${text})>", functions[i]);
      g_autofree gchar *wanted = g_strdup_printf ("<%s>", expected[i]);
      SlTemplate *t = sl_template_compile (source, &error);
      g_autoptr (GString) out = g_string_new (NULL);

      g_assert_no_error (error);
      sl_template_append (t, message, NULL, out);
      g_assert_cmpstr (out->str, ==, wanted);
      sl_template_unref (t);
    }
  sl_message_unref (message);
}

static void
test_split (void)
{
  assert_split ("app[1]: hello world", "app[1]:", " hello world", "");
  assert_split ("tag:  two spaces", "tag:", "  two spaces", "");
  /* the tag is the first word, colon or not */
  assert_split ("fmt:tight", "fmt:tight", "", " ");
  assert_split ("tag:", "tag:", "", " ");
  assert_split ("", "", "", " ");
}

static gchar *
render (const gchar *source, const gchar *text)
{
  GError *error = NULL;
  SlMessage *message = sl_message_new ("", 0);
  SlTemplate *t = sl_template_compile (source, &error);
  GString *out = g_string_new (NULL);

  g_assert_no_error (error);
  sl_message_set (message, sl_field_handle ("text"), text, -1);
  sl_template_append (t, message, NULL, out);
  sl_template_unref (t);
  sl_message_unref (message);
  return g_string_free (out, FALSE);
}

/* what rsyslogd 8.2302 wrote for " a/b\c"d<TAB>e<0x01>f<0x08>g<0x0c>h<0x1f>i<DEL>"
 * with %msg:::json% and in an option.json template */
static void
test_json (void)
{
  g_autofree gchar *whole = render ("$(rsyslog-json ${text})", " a/b\\c\"d\te\001f\bg\fh\037i\177");
  g_autofree gchar *quotes = render ("$(rsyslog-json-quotes ${text})", " a/b\\c\"d\te\001");

  g_assert_cmpstr (whole, ==, " a\\/b\\\\c\\\"d\\te\\u0001f\\bg\\fh\\u001Fi\177");
  g_assert_cmpstr (quotes, ==, " a/b\\\\c\\\"d\te\001");
}

/* rsyslogd 8.2302's date-rfc3339 keeps the precision of each stamp:
 * microseconds for its receive time, none for an RFC 3164 stamp, the
 * digits an RFC 5424 stamp gave */
static void
assert_stamps (const gchar *function, guint8 flags, gint64 stamp, gint64 recvd, const gchar *reported,
               const gchar *generated)
{
  SlMessage *message = sl_message_new ("", 0);
  message->flags = flags;
  message->stamp.usec = stamp;
  message->recvd.usec = recvd;
  g_autofree gchar *of_reported = g_strdup_printf ("$(%s reported)", function);
  g_autofree gchar *of_generated = g_strdup_printf ("$(%s generated)", function);
  const gchar *sources[] = { of_reported, of_generated };
  const gchar *expected[] = { reported, generated };
  for (guint i = 0; i < G_N_ELEMENTS (sources); i++)
    {
      GError *error = NULL;
      SlTemplate *t = sl_template_compile (sources[i], &error);
      g_autoptr (GString) out = g_string_new (NULL);
      g_assert_no_error (error);
      sl_template_append (t, message, NULL, out);
      g_assert_cmpstr (out->str, ==, expected[i]);
      sl_template_unref (t);
    }
  sl_message_unref (message);
}

static void
test_rfc3339 (void)
{
  /* 2026-12-01T10:00:00Z */
  const gint64 second = G_GINT64_CONSTANT (1796119200) * G_USEC_PER_SEC;
  assert_stamps ("rsyslog-rfc3339", 0, second + 551900, second + 551900, "2026-12-01T10:00:00.551900+00:00",
                 "2026-12-01T10:00:00.551900+00:00");
  assert_stamps ("rsyslog-rfc3339", 0, second, second + 20, "2026-12-01T10:00:00+00:00",
                 "2026-12-01T10:00:00.000020+00:00");
  assert_stamps ("rsyslog-rfc3339", 0, second + 123000, second + 5, "2026-12-01T10:00:00.123+00:00",
                 "2026-12-01T10:00:00.000005+00:00");
  /* a stamp that came as Z keeps it; the receive time is in its zone */
  assert_stamps ("rsyslog-rfc3339", SL_MSG_STAMP_Z, second + 123000, second + 5, "2026-12-01T10:00:00.123Z",
                 "2026-12-01T10:00:00.000005+00:00");
  /* date-subseconds: the same digits, "0" without a fraction */
  assert_stamps ("rsyslog-subseconds", 0, second + 551900, second + 551900, "551900", "551900");
  assert_stamps ("rsyslog-subseconds", 0, second, second + 20, "0", "000020");
  assert_stamps ("rsyslog-subseconds", 0, second + 123000, second + 5, "123", "000005");

  /* rsyslog's default date: no fraction, whatever the stamp has */
  assert_stamps ("rsyslog-rfc3164", 0, second + 551900, second + G_GINT64_CONSTANT (9 * 86400) * G_USEC_PER_SEC + 20, "Dec  1 10:00:00",
                 "Dec 10 10:00:00");

  GError *error = NULL;
  g_assert_null (sl_template_compile ("$(rsyslog-rfc3339 now)", &error));
  g_assert_nonnull (error);
  g_error_free (error);
}

/* what rsyslogd 8.2302 made of "<11>1 STAMP host app 1234 - - text" and
 * of the same without APP-NAME and PROCID: syslogtag APP-NAME[PROCID],
 * "-" without one, msg the MSG part as it came */
static void
test_rfc5424 (void)
{
  static const gchar *const functions[] = { "rsyslog-tag", "rsyslog-msg", "rsyslog-msg-space", "rsyslog-tag-msg" };
  const gchar *with[] = { "app[1234]", "RFC 5424 with data", " ", "app[1234] RFC 5424 with data" };
  const gchar *without[] = { "-", "nothing", " ", "- nothing" };
  for (guint k = 0; k < 2; k++)
    {
      SlMessage *message = sl_message_new ("", 0);
      message->flags |= SL_MSG_RFC5424;
      if (k == 0)
        {
          sl_message_set (message, SL_F_PROGRAM, "app", -1);
          sl_message_set (message, SL_F_PID, "1234", -1);
        }
      sl_message_set (message, SL_F_MESSAGE, k == 0 ? "RFC 5424 with data" : "nothing", -1);
      for (guint i = 0; i < G_N_ELEMENTS (functions); i++)
        {
          g_autofree gchar *source = g_strdup_printf ("$(%s ${MSGHDR}${MESSAGE})", functions[i]);
          SlTemplate *t = sl_template_compile (source, NULL);
          g_autoptr (GString) out = g_string_new (NULL);
          sl_template_append (t, message, NULL, out);
          g_assert_cmpstr (out->str, ==, k == 0 ? with[i] : without[i]);
          sl_template_unref (t);
        }
      sl_message_unref (message);
    }
}

/* imfile's line, its tag given (rsyslogd 8.2302: syslogtag "ftag:",
 * msg the line without a space before it) */
static void
test_given_tag (void)
{
  SlMessage *message = sl_message_new ("", 0);
  sl_message_set (message, SL_F_PROGRAM, "ftag", -1);
  sl_message_set (message, SL_F_MESSAGE, "a line", -1);
  static const gchar *const functions[] = { "rsyslog-tag", "rsyslog-msg", "rsyslog-msg-space", "rsyslog-tag-msg" };
  const gchar *expected[] = { "ftag:", "a line", " ", "ftag: a line" };
  for (guint i = 0; i < G_N_ELEMENTS (functions); i++)
    {
      g_autofree gchar *source = g_strdup_printf ("$(%s ${MSGHDR}${MESSAGE})", functions[i]);
      SlTemplate *t = sl_template_compile (source, NULL);
      g_autoptr (GString) out = g_string_new (NULL);
      sl_template_append (t, message, NULL, out);
      g_assert_cmpstr (out->str, ==, expected[i]);
      sl_template_unref (t);
    }
  sl_message_unref (message);
}

/* A tag a parser found, as $(rsyslog-tag-msg ${MSGHDR}${MESSAGE}) reads it
 * without rendering its argument: what the three functions write */
static void
test_parsed_tag (void)
{
  static const gchar *const parsed[][2] = {
    { "app[1]: ", "hello world" }, { "fmt:tight", "" }, { "tag:", "x" }, { "a b", "c" }, { "", "no tag" },
  };
  SlTemplate *one = sl_template_compile ("<$(rsyslog-tag-msg ${MSGHDR}${MESSAGE})>", NULL);
  SlTemplate *three = sl_template_compile ("<$(rsyslog-tag ${MSGHDR}${MESSAGE})$(rsyslog-msg-space ${MSGHDR}${MESSAGE})"
                                           "$(rsyslog-msg ${MSGHDR}${MESSAGE})>", NULL);
  SlTemplateEnv escaping = sl_template_env_default;
  escaping.escape = TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (parsed); i++)
    for (guint e = 0; e < 2; e++)
      {
        const SlTemplateEnv *env = e ? &escaping : NULL;
        SlMessage *message = sl_message_new ("", 0);
        sl_message_set (message, SL_F_LEGACY_MSGHDR, parsed[i][0], -1);
        sl_message_set (message, SL_F_MESSAGE, parsed[i][1], -1);
        sl_message_set (message, SL_F_PROGRAM, "app", -1);
        g_autoptr (GString) got = g_string_new (NULL);
        g_autoptr (GString) wanted = g_string_new (NULL);
        sl_template_append (one, message, env, got);
        sl_template_append (three, message, env, wanted);
        g_assert_cmpstr (got->str, ==, wanted->str);
        sl_message_unref (message);
      }
  sl_template_unref (one);
  sl_template_unref (three);
}

static void
test_inputname (void)
{
  g_autofree gchar *named = render ("$(rsyslog-inputname ${text})", "rs0_s3:imuxsock");
  g_autofree gchar *own = render ("$(rsyslog-inputname ${text})", "rs0_s4:my:input");
  g_autofree gchar *other = render ("$(rsyslog-inputname ${text})", "s_local");

  g_assert_cmpstr (named, ==, "imuxsock");
  g_assert_cmpstr (own, ==, "my:input");
  g_assert_cmpstr (other, ==, "s_local");
}

static void
assert_renders (const gchar *source, const gchar *text, const gchar *expected)
{
  g_autofree gchar *got = render (source, text);
  g_assert_cmpstr (got, ==, expected);
}

/* rsyslogd 8.2302's output for the same options and values
 * (tests/functional/test-rsyslog-props runs them side by side) */
static void
test_property (void)
{
  const gchar *msg = " hello  world 42 \"quoted\" a/b";

  assert_renders ("$(rsyslog-property from=2,to=5 \"\" \"\" ${text})", msg, "hell");
  assert_renders ("$(rsyslog-property from=4,to=2,relative \"\" \"\" ${text})", msg, " a/");
  assert_renders ("$(rsyslog-property from=1,to=40,fixed \"\" \"\" ${text})", msg,
                  " hello  world 42 \"quoted\" a/b           ");
  assert_renders ("$(rsyslog-property ere,submatch=1 \"\" \"([0-9]+) ([a-z]+)\" ${text})", msg, "**NO MATCH**");
  assert_renders ("$(rsyslog-property ere,submatch=1,nomatch=BLANK \"\" \"([0-9]+)\" ${text})", msg, "42");
  assert_renders ("$(rsyslog-property ere,match=1 \"\" \"[a-z]+\" ${text})", msg, "world");
  assert_renders ("$(rsyslog-property field=2,delimiter=32 \"\" \"\" ${text})", msg, "hello");
  assert_renders ("$(rsyslog-property field=9,delimiter=44 \"\" \"\" ${text})", msg, "**FIELD NOT FOUND**");
  assert_renders ("$(rsyslog-property case=u,compress \"\" \"\" ${text})", msg, " HELLO WORLD 42 \"QUOTED\" A/B");
  assert_renders ("$(rsyslog-property format=csv \"\" \"\" ${text})", msg, "\" hello  world 42 \"\"quoted\"\" a/b\"");
  assert_renders ("$(rsyslog-property sp1 \"\" \"\" ${text})", msg, "");
  assert_renders ("$(rsyslog-property secpath=r \"\" \"\" ${text})", "..", "_.");
  assert_renders ("$(rsyslog-property secpath=d \"\" \"\" ${text})", "a/b", "ab");
  assert_renders ("$(rsyslog-property cc=e \"\" \"\" ${text})", "a\tb", "a#009b");
  assert_renders ("$(rsyslog-property format=jsonf \"c/d\" \"\" ${text})", "a/\"b", "\"c/d\":\"a\\/\\\"b\"");
  assert_renders ("$(rsyslog-property format=jsonf,datatype=number \"n\" \"\" ${text})", "", "\"n\":0");
  assert_renders ("$(rsyslog-property format=jsonf,datatype=auto \"n\" \"\" ${text})", "50", "\"n\":50");
  assert_renders ("$(rsyslog-property format=jsonf,onempty=skip \"n\" \"\" ${text})", "", "");
  assert_renders ("$(rsyslog-property badregex \"\" \"\" ${text})", msg, "**NO MATCH** **BAD REGULAR EXPRESSION**");
  assert_renders ("$(rsyslog-property format=jsonr \"\" \"\" ${text})", "a\\\"b\\c", "a\\\"b\\\\c");
}

/* option.jsonf, option.sql and option.stdsql */
static void
test_template_options (void)
{
  assert_renders ("$(rsyslog-jsonf \"\\\"a\\\":1\" ${text} \"\\\"b\\\":2\")", "", "{\"a\":1, \"b\":2}\n");
  assert_renders ("$(rsyslog-sql-quotes ${text})", "it's a\\b", "it\\'s a\\\\b");
  assert_renders ("$(rsyslog-stdsql-quotes ${text})", "it's a\\b", "it''s a\\b");
}

/* rsyslogd's own day of the year and week: 2026-02-03 is a Tuesday */
static void
test_date (void)
{
  assert_renders ("$(rsyslog-date ordinal 2026 02 03 04 05 06 ${text})", "+00:00", "034");
  assert_renders ("$(rsyslog-date week 2026 02 03 04 05 06 ${text})", "+00:00", "06");
  assert_renders ("$(rsyslog-date wday 2026 02 03 04 05 06 ${text})", "+00:00", "2");
  assert_renders ("$(rsyslog-date ordinal 2026 12 31 23 59 59 ${text})", "+00:00", "366");
  assert_renders ("$(rsyslog-date week 2026 01 01 00 00 01 ${text})", "+00:00", "00");
  assert_renders ("$(rsyslog-date isoweekyear 2027 01 01 00 00 01 ${text})", "+00:00", "2026");
}

/* a tree of $! fields as json-c writes it */
static void
test_tree (void)
{
  SlMessage *message = sl_message_new ("", 0);
  g_autoptr (GString) out = g_string_new (NULL);
  GError *error = NULL;
  SlTemplate *t = sl_template_compile ("$(rsyslog-tree tree !)|$(rsyslog-tree all-json-plain !)|"
                                       "$(rsyslog-tree tree /)|$(rsyslog-tree all-json /)", &error);

  g_assert_no_error (error);
  sl_message_set (message, sl_field_handle ("!a"), "x/y", -1);
  sl_message_set (message, sl_field_handle ("!b.c"), "\"q\"", -1);
  sl_message_set (message, sl_field_handle (".l"), "local", -1);
  sl_template_append (t, message, NULL, out);
  g_assert_cmpstr (out->str, ==, "{ \"a\": \"x\\/y\", \"b\": { \"c\": \"\\\"q\\\"\" } }|"
                                 "{\"a\":\"x\\/y\",\"b\":{\"c\":\"\\\"q\\\"\"}}||{}");
  sl_template_unref (t);
  sl_message_unref (message);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_assert_true (sl_plugins_register (&sl_module, __FILE__, NULL));
  g_test_add_func ("/rsyslog-functions/split", test_split);
  g_test_add_func ("/rsyslog-functions/json", test_json);
  g_test_add_func ("/rsyslog-functions/rfc3339", test_rfc3339);
  g_test_add_func ("/rsyslog-functions/inputname", test_inputname);
  g_test_add_func ("/rsyslog-functions/rfc5424", test_rfc5424);
  g_test_add_func ("/rsyslog-functions/given-tag", test_given_tag);
  g_test_add_func ("/rsyslog-functions/parsed-tag", test_parsed_tag);
  g_test_add_func ("/rsyslog-functions/property", test_property);
  g_test_add_func ("/rsyslog-functions/template-options", test_template_options);
  g_test_add_func ("/rsyslog-functions/date", test_date);
  g_test_add_func ("/rsyslog-functions/tree", test_tree);
  return g_test_run ();
}
