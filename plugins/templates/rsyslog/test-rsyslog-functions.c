/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog's split of a tag and text into syslogtag and msg, as rsyslogd
 * 8.2302's imuxsock made it for the same lines (tests/functional/
 * test-rsyslog-conf compares whole files with it). */
#include "core/plugin.h"
#include "core/template.h"

#include <string.h>

extern const SlModule sl_module;

static void
assert_split (const gchar *text, const gchar *tag, const gchar *msg, const gchar *space)
{
  static const gchar *const functions[] = { "rsyslog-tag", "rsyslog-msg", "rsyslog-msg-space" };
  const gchar *expected[] = { tag, msg, space };
  SlMessage *message = sl_message_new ("", 0);

  sl_message_set (message, sl_field_handle ("text"), text, -1);
  for (guint i = 0; i < G_N_ELEMENTS (functions); i++)
    {
      GError *error = NULL;
      g_autofree gchar *source = g_strdup_printf ("$(%s ${text})", functions[i]);
      SlTemplate *t = sl_template_compile (source, &error);
      g_autoptr (GString) out = g_string_new (NULL);

      g_assert_no_error (error);
      sl_template_append (t, message, NULL, out);
      g_assert_cmpstr (out->str, ==, expected[i]);
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
assert_rfc3339 (gint64 stamp, gint64 recvd, const gchar *reported, const gchar *generated)
{
  SlMessage *message = sl_message_new ("", 0);
  message->stamp.usec = stamp;
  message->recvd.usec = recvd;
  const gchar *sources[] = { "$(rsyslog-rfc3339 reported)", "$(rsyslog-rfc3339 generated)" };
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
  assert_rfc3339 (second + 551900, second + 551900, "2026-12-01T10:00:00.551900+00:00",
                  "2026-12-01T10:00:00.551900+00:00");
  assert_rfc3339 (second, second + 20, "2026-12-01T10:00:00+00:00", "2026-12-01T10:00:00.000020+00:00");
  assert_rfc3339 (second + 123000, second + 5, "2026-12-01T10:00:00.123+00:00", "2026-12-01T10:00:00.000005+00:00");

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
  static const gchar *const functions[] = { "rsyslog-tag", "rsyslog-msg", "rsyslog-msg-space" };
  const gchar *with[] = { "app[1234]", "RFC 5424 with data", " " };
  const gchar *without[] = { "-", "nothing", " " };
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
  return g_test_run ();
}
