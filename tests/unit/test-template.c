/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "core/config/error.h"
#include "core/compile/loader.h"
#include "core/message/macros.h"
#include "core/message/message.h"
#include "core/plugin/plugin.h"
#include "core/message/template.h"

#include <string.h>

/* 2026-02-03 12:34:56.123456 +01:00, a Tuesday */
#define STAMP_A_SEC G_GINT64_CONSTANT (1770118496)
/* 2025-12-31 23:59:59.999999 +00:00, a Wednesday */
#define STAMP_B_SEC G_GINT64_CONSTANT (1767225599)

static SlMessage *
message_new (void)
{
  SlMessage *msg = sl_message_new ("raw line", 8);

  msg->pri = SL_PRI_MAKE (19, 4);
  msg->stamp.usec = STAMP_A_SEC * G_USEC_PER_SEC + 123456;
  msg->stamp.gmtoff = 3600;
  msg->recvd.usec = STAMP_B_SEC * G_USEC_PER_SEC + 999999;
  msg->recvd.gmtoff = 0;
  sl_message_set (msg, SL_F_HOST, "web1", -1);
  sl_message_set (msg, SL_F_HOST_FROM, "10.0.0.7", -1);
  sl_message_set (msg, SL_F_PROGRAM, "nginx", -1);
  sl_message_set (msg, SL_F_PID, "4242", -1);
  sl_message_set (msg, SL_F_MSGID, "ID47", -1);
  sl_message_set (msg, SL_F_MESSAGE, "hello world", -1);
  sl_message_set (msg, SL_F_SOURCEIP, "10.0.0.7", -1);
  return msg;
}

static gchar *
render (const gchar *text, const SlMessage *msg, const SlTemplateEnv *env)
{
  GError *error = NULL;
  SlTemplate *t = sl_template_compile (text, &error);

  g_assert_no_error (error);
  g_assert_nonnull (t);
  GString *out = g_string_new ("prefix:");
  sl_template_append (t, msg, env, out);
  sl_template_unref (t);
  g_assert_true (g_str_has_prefix (out->str, "prefix:"));
  g_string_erase (out, 0, strlen ("prefix:"));
  return g_string_free (out, FALSE);
}

#define assert_render(text, msg, env, expected) \
  G_STMT_START { \
    gchar *got_ = render ((text), (msg), (env)); \
    g_assert_cmpstr (got_, ==, (expected)); \
    g_free (got_); \
  } G_STMT_END

static void
assert_compile_error (const gchar *text, gint code, const gchar *message)
{
  GError *error = NULL;
  SlTemplate *t = sl_template_compile (text, &error);

  g_assert_null (t);
  g_assert_error (error, SL_CFG_ERROR, code);
  g_assert_cmpstr (error->message, ==, message);
  g_error_free (error);
}

/* Test-only template functions. */

static void
render_arg (const SlTfCall *call, gint i, const SlMessage *msg,
            const SlTemplateEnv *env, GString *out)
{
  if (i < call->argc)
    sl_template_append (call->arg_templates[i], msg, env, out);
}

static void
upper_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  gsize start = out->len;

  render_arg (call, 0, msg, env, out);
  for (gsize i = start; i < out->len; i++)
    out->str[i] = g_ascii_toupper (out->str[i]);
}

/* every argument rendered, joined by '|' */
static void
echo_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  for (gint i = 0; i < call->argc; i++)
    {
      if (i)
        g_string_append_c (out, '|');
      render_arg (call, i, msg, env, out);
    }
}

/* every argument as written, joined by '|' */
static void
raw_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  gchar *joined = g_strjoinv ("|", call->args);

  g_string_append (out, joined);
  g_free (joined);
  g_assert_null (call->args[call->argc]);
}

/* $(repeat text count): the count is checked and kept once, at compile time */
static gboolean
repeat_prepare (SlTfCall *call, GError **error)
{
  gchar *end = NULL;
  gint64 count = call->argc == 2 ? g_ascii_strtoll (call->args[1], &end, 10) : -1;

  if (count < 0 || !end || *end)
    {
      g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE, "$(repeat) takes a text and a count");
      return FALSE;
    }
  call->state = g_memdup2 (&count, sizeof count);
  return TRUE;
}

static void
repeat_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  for (gint64 i = 0; i < *(gint64 *) call->state; i++)
    render_arg (call, 0, msg, env, out);
}

/* the number of messages the call is rendered over */
static void
context_size_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  guint n;
  const SlMessage *const *context = sl_template_env_context (env, &msg, &n);
  g_assert_true (context[n - 1] == msg);
  g_string_append_printf (out, "%u", n);
}

static gboolean
refuse_prepare (SlTfCall *call, GError **error)
{
  return FALSE;
}

#define TF_CLASS(word, ...) \
  { .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = word, \
    .ops.template_function = &(const SlTemplateFunctionOps) { __VA_ARGS__ } }

static const SlDriverClass upper_class = TF_CLASS ("upper", .eval = upper_eval);
static const SlDriverClass echo_class = TF_CLASS ("echo", .eval = echo_eval);
static const SlDriverClass raw_class = TF_CLASS ("raw", .eval = raw_eval);
static const SlDriverClass repeat_class = TF_CLASS ("repeat", .prepare = repeat_prepare, .eval = repeat_eval,
                                                    .free = g_free);
static const SlDriverClass refuse_class = TF_CLASS ("refuse", .prepare = refuse_prepare, .eval = echo_eval);
static const SlDriverClass context_size_class = TF_CLASS ("context-size", .eval = context_size_eval);

static const SlModule test_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "test-functions",
  .drivers = (const SlDriverClass *[]) {
    &upper_class, &echo_class, &raw_class, &repeat_class, &refuse_class, &context_size_class, NULL,
  },
};

static void
register_test_functions (void)
{
  g_assert_true (sl_plugins_register (&test_module, __FILE__, NULL));
}

/* Tests */

static void
test_literal (void)
{
  SlMessage *msg = message_new ();
  GError *error = NULL;
  SlTemplate *t = sl_template_compile ("plain $$ text", &error);

  g_assert_no_error (error);
  g_assert_true (sl_template_is_literal (t));
  g_assert_cmpstr (sl_template_text (t), ==, "plain $$ text");
  g_assert_true (sl_template_ref (t) == t);
  sl_template_unref (t);
  sl_template_unref (t);

  t = sl_template_compile ("$HOST", NULL);
  g_assert_false (sl_template_is_literal (t));
  sl_template_unref (t);

  assert_render ("", msg, NULL, "");
  assert_render ("plain $$ text", msg, NULL, "plain $ text");
  assert_render ("$$HOST", msg, NULL, "$HOST");
  assert_render ("cost: 5$", msg, NULL, "cost: 5$");
  assert_render ("a $-b $.c $ d", msg, NULL, "a $-b $.c $ d");
  assert_render ("}{)(", msg, NULL, "}{)(");
  sl_message_unref (msg);
}

static void
test_fields (void)
{
  SlMessage *msg = message_new ();

  assert_render ("$HOST ${HOST} $HOST_FROM $FULLHOST $FULLHOST_FROM", msg, NULL,
                 "web1 web1 10.0.0.7 web1 10.0.0.7");
  assert_render ("$PROGRAM/$PID/$MSGID/$SOURCEIP", msg, NULL, "nginx/4242/ID47/10.0.0.7");
  assert_render ("$MESSAGE|$MSG|$MSGONLY|${MSG}", msg, NULL,
                 "hello world|hello world|hello world|hello world");
  assert_render ("<$HOSTx>", msg, NULL, "<>");
  assert_render ("<${HOST}x>", msg, NULL, "<web1x>");
  assert_render ("[$RAWMSG][$LEGACY_MSGHDR_X][${json.user.id}]", msg, NULL, "[][][]");

  sl_message_set (msg, sl_field_handle ("json.user.id"), "u-17", -1);
  sl_message_set (msg, sl_field_handle (".SDATA.a@1.b"), "sd value", -1);
  sl_message_set (msg, SL_F_RAWMSG, "<13>raw", -1);
  assert_render ("[${json.user.id}][${.SDATA.a@1.b}][$RAWMSG]", msg, NULL,
                 "[u-17][sd value][<13>raw]");
  sl_message_unset (msg, SL_F_HOST);
  assert_render ("[$HOST]", msg, NULL, "[]");
  sl_message_unref (msg);
}

/* As syslog-ng builds them: $LEGACY_MSGHDR is the tag an RFC 3164 parser
 * found, $MSGHDR that or else PROGRAM[PID]: . */
static void
test_msghdr (void)
{
  SlMessage *msg = message_new ();

  assert_render ("$MSGHDR$MSG", msg, NULL, "nginx[4242]: hello world");
  assert_render ("[$LEGACY_MSGHDR]$MSG", msg, NULL, "[]hello world");
  sl_message_set (msg, SL_F_LEGACY_MSGHDR, "nginx ", -1);
  assert_render ("$LEGACY_MSGHDR$MSG", msg, NULL, "nginx hello world");
  assert_render ("$MSGHDR$MSG", msg, NULL, "nginx hello world");
  sl_message_unset (msg, SL_F_LEGACY_MSGHDR);
  sl_message_unset (msg, SL_F_PID);
  assert_render ("$MSGHDR$MSG", msg, NULL, "nginx: hello world");
  sl_message_unset (msg, SL_F_PROGRAM);
  sl_message_set (msg, SL_F_PID, "1", -1);
  assert_render ("[$MSGHDR][$LEGACY_MSGHDR]$MSG", msg, NULL, "[][]hello world");
  sl_message_unref (msg);
}

static void
test_priority (void)
{
  SlMessage *msg = message_new ();
  const gchar *all = "$FACILITY $FACILITY_NUM $LEVEL $SEVERITY $PRIORITY $LEVEL_NUM $SEVERITY_NUM $PRI $TAG";

  assert_render (all, msg, NULL, "local3 19 warning warning warning 4 4 156 9c");
  msg->pri = SL_PRI_MAKE (0, 0);
  assert_render (all, msg, NULL, "kern 0 emerg emerg emerg 0 0 0 00");
  msg->pri = SL_PRI_MAKE (15, 7);
  assert_render (all, msg, NULL, "solaris-cron 15 debug debug debug 7 7 127 7f");
  msg->pri = SL_PRI_MAKE (10, 3);
  assert_render (all, msg, NULL, "authpriv 10 err err err 3 3 83 53");
  msg->pri = SL_PRI_MAKE (23, 6);
  assert_render ("$FACILITY $LEVEL", msg, NULL, "local7 info");
  msg->pri = SL_PRI_MAKE (31, 6);
  /* a facility without a name in hex, $BSDTAG as severity and a letter, as syslog-ng writes them */
  assert_render ("$FACILITY $PRI $TAG $BSDTAG", msg, NULL, "1f 254 fe 6`");

  static const gchar *const facilities[] = {
    "kern", "user", "mail", "daemon", "auth", "syslog", "lpr", "news", "uucp", "cron",
    "authpriv", "ftp", "ntp", "security", "console", "solaris-cron",
  };
  static const gchar *const levels[] = {
    "emerg", "alert", "crit", "err", "warning", "notice", "info", "debug",
  };
  for (guint f = 0; f < G_N_ELEMENTS (facilities); f++)
    {
      msg->pri = SL_PRI_MAKE (f, f % 8);
      gchar *expected = g_strdup_printf ("%s.%s", facilities[f], levels[f % 8]);
      assert_render ("$FACILITY.$LEVEL", msg, NULL, expected);
      g_free (expected);
    }
  sl_message_unref (msg);
}

static void
test_date_macros (void)
{
  SlMessage *msg = message_new ();

  assert_render ("$DATE|$FULLDATE|$ISODATE|$STAMP|$UNIXTIME", msg, NULL,
                 "Feb  3 12:34:56|2026 Feb  3 12:34:56|2026-02-03T12:34:56+01:00|"
                 "Feb  3 12:34:56|1770118496");
  assert_render ("$YEAR-$MONTH-$DAY $HOUR:$MIN:$SEC.$MSEC $USEC", msg, NULL,
                 "2026-02-03 12:34:56.123 123456");
  assert_render ("$MONTH_ABBREV $MONTHNAME $MONTH_NAME $YEAR_DAY", msg, NULL,
                 "Feb Feb February 034");
  assert_render ("$WEEKDAY $WEEK_DAY_ABBREV $WEEK_DAY $WEEK_DAY_NAME", msg, NULL,
                 "Tue Tue 3 Tuesday");
  assert_render ("$TZOFFSET $TZ $HOUR12 $AMPM", msg, NULL, "+01:00 +01:00 12 PM");

  /* S_ is the stamp too */
  assert_render ("$S_DATE|$S_ISODATE|$S_YEAR|$S_DAY|$S_TZ|$S_UNIXTIME|$S_WEEK_DAY", msg, NULL,
                 "Feb  3 12:34:56|2026-02-03T12:34:56+01:00|2026|03|+01:00|1770118496|3");

  /* R_ is the reception time */
  assert_render ("$R_DATE|$R_FULLDATE|$R_ISODATE|$R_STAMP|$R_UNIXTIME", msg, NULL,
                 "Dec 31 23:59:59|2025 Dec 31 23:59:59|2025-12-31T23:59:59+00:00|"
                 "Dec 31 23:59:59|1767225599");
  assert_render ("$R_YEAR-$R_MONTH-$R_DAY $R_HOUR:$R_MIN:$R_SEC.$R_MSEC $R_USEC", msg, NULL,
                 "2025-12-31 23:59:59.999 999999");
  assert_render ("$R_MONTH_ABBREV $R_MONTHNAME $R_MONTH_NAME $R_YEAR_DAY", msg, NULL,
                 "Dec Dec December 365");
  assert_render ("$R_WEEKDAY $R_WEEK_DAY $R_WEEK_DAY_NAME $R_TZOFFSET $R_TZ $R_HOUR12 $R_AMPM",
                 msg, NULL, "Wed 4 Wednesday +00:00 +00:00 11 PM");

  /* a negative offset, midnight, and a leap day */
  msg->stamp.usec = G_GINT64_CONSTANT (1709179200) * G_USEC_PER_SEC + 5000;   /* 2024-02-29T04:00:00Z */
  msg->stamp.gmtoff = -4 * 3600;
  assert_render ("$ISODATE $DATE $HOUR12 $AMPM $YEAR_DAY $WEEKDAY $WEEK_DAY $MSEC $USEC", msg, NULL,
                 "2024-02-29T00:00:00-04:00 Feb 29 00:00:00 12 AM 060 Thu 5 005 005000");
  /* a Sunday is day 1 */
  msg->stamp.usec = G_GINT64_CONSTANT (1770552000) * G_USEC_PER_SEC;   /* 2026-02-08T12:00:00Z */
  msg->stamp.gmtoff = 0;
  assert_render ("$WEEKDAY $WEEK_DAY $WEEK_DAY_NAME $HOUR12 $AMPM", msg, NULL, "Sun 1 Sunday 12 PM");
  /* before the epoch */
  msg->stamp.usec = -1;
  msg->stamp.gmtoff = 0;
  assert_render ("$ISODATE $UNIXTIME $USEC", msg, NULL, "1969-12-31T23:59:59+00:00 -1 999999");
  sl_message_unref (msg);
}

static void
test_frac_digits (void)
{
  SlMessage *msg = message_new ();
  SlTemplateEnv env = sl_template_env_default;

  env.frac_digits = 3;
  assert_render ("$ISODATE|$R_ISODATE|$UNIXTIME|$DATE|$FULLDATE", msg, &env,
                 "2026-02-03T12:34:56.123+01:00|2025-12-31T23:59:59.999+00:00|"
                 "1770118496.123|Feb  3 12:34:56.123|2026 Feb  3 12:34:56.123");
  env.frac_digits = 6;
  assert_render ("$ISODATE|$R_UNIXTIME", msg, &env,
                 "2026-02-03T12:34:56.123456+01:00|1767225599.999999");
  env.frac_digits = 1;
  assert_render ("$ISODATE", msg, &env, "2026-02-03T12:34:56.1+01:00");
  env.frac_digits = 0;
  assert_render ("$ISODATE", msg, &env, "2026-02-03T12:34:56+01:00");

  /* leading zeros of the fraction are kept */
  msg->stamp.usec = STAMP_A_SEC * G_USEC_PER_SEC + 7;
  env.frac_digits = 6;
  assert_render ("$ISODATE", msg, &env, "2026-02-03T12:34:56.000007+01:00");
  env.frac_digits = 3;
  assert_render ("$ISODATE $MSEC", msg, &env, "2026-02-03T12:34:56.000+01:00 000");
  sl_message_unref (msg);
}

static void
test_stamp_format (void)
{
  SlMessage *msg = message_new ();
  SlTemplateEnv env = sl_template_env_default;

  assert_render ("$STAMP", msg, &env, "Feb  3 12:34:56");
  env.ts_format = SL_TS_ISO;
  assert_render ("$STAMP|$S_STAMP|$R_STAMP", msg, &env,
                 "2026-02-03T12:34:56+01:00|2026-02-03T12:34:56+01:00|2025-12-31T23:59:59+00:00");
  env.ts_format = SL_TS_FULL;
  assert_render ("$STAMP", msg, &env, "2026 Feb  3 12:34:56");
  env.ts_format = SL_TS_UNIX;
  env.frac_digits = 2;
  assert_render ("$STAMP|$R_STAMP", msg, &env, "1770118496.12|1767225599.99");
  sl_message_unref (msg);
}

static void
test_zone (void)
{
  SlMessage *msg = message_new ();
  SlTemplateEnv env = sl_template_env_default;

  env.zone = g_time_zone_new_identifier ("UTC");
  g_assert_nonnull (env.zone);
  assert_render ("$ISODATE|$DATE|$HOUR|$TZOFFSET|$TZ|$UNIXTIME", msg, &env,
                 "2026-02-03T11:34:56+00:00|Feb  3 11:34:56|11|+00:00|+00:00|1770118496");
  g_time_zone_unref (env.zone);

  env.zone = g_time_zone_new_identifier ("+05:30");
  g_assert_nonnull (env.zone);
  env.frac_digits = 3;
  assert_render ("$ISODATE|$DATE|$FULLDATE|$HOUR:$MIN|$TZ", msg, &env,
                 "2026-02-03T17:04:56.123+05:30|Feb  3 17:04:56.123|2026 Feb  3 17:04:56.123|17:04|+05:30");
  /* the reception time crosses into the next year in that zone */
  assert_render ("$R_ISODATE|$R_YEAR-$R_MONTH-$R_DAY|$R_WEEK_DAY_NAME|$R_HOUR12 $R_AMPM|$R_YEAR_DAY", msg, &env,
                 "2026-01-01T05:29:59.999+05:30|2026-01-01|Thursday|05 AM|001");
  g_time_zone_unref (env.zone);

  /* without a zone, each message keeps its own */
  env.zone = NULL;
  env.frac_digits = 0;
  assert_render ("$ISODATE $R_ISODATE", msg, &env,
                 "2026-02-03T12:34:56+01:00 2025-12-31T23:59:59+00:00");
  sl_message_unref (msg);
}

/* A memo says "same" only when the template renders the same text; each
 * call is checked against a fresh render, and against what was expected. */
typedef struct
{
  SlTemplate *t;
  SlTemplateMemo *memo;
  gchar *last;
} MemoCheck;

static void
memo_check_init (MemoCheck *c, const gchar *text)
{
  GError *error = NULL;
  c->t = sl_template_compile (text, &error);
  g_assert_no_error (error);
  c->memo = sl_template_memo_new (c->t);
  c->last = NULL;
}

static void
memo_check_clear (MemoCheck *c)
{
  sl_template_memo_free (c->memo);
  sl_template_unref (c->t);
  g_free (c->last);
}

static void
memo_expect (MemoCheck *c, const SlMessage *msg, const SlTemplateEnv *env, gboolean same)
{
  GString *out = g_string_new (NULL);
  gboolean said = sl_template_memo_same (c->memo, msg, env);
  sl_template_append (c->t, msg, env, out);
  if (said)
    g_assert_cmpstr (out->str, ==, c->last);
  g_assert_cmpint (said, ==, same);
  g_free (c->last);
  c->last = g_string_free (out, FALSE);
}

static void
test_memo (void)
{
  SlMessage *msg = message_new ();
  SlTemplateEnv env = sl_template_env_default;
  SlTemplateEnv other = sl_template_env_default;
  MemoCheck c;
  const gint64 second = STAMP_A_SEC * G_USEC_PER_SEC;

  memo_check_init (&c, "$HOST/$YEAR-$MONTH-$DAY.log");
  memo_expect (&c, msg, &env, FALSE);
  memo_expect (&c, msg, &env, TRUE);
  /* another fraction of the same second */
  msg->stamp.usec = second + 999999;
  memo_expect (&c, msg, &env, TRUE);
  /* a new second, even of the same day, is looked at again */
  msg->stamp.usec = second + G_USEC_PER_SEC;
  memo_expect (&c, msg, &env, FALSE);
  memo_expect (&c, msg, &env, TRUE);
  /* a second before the one seen, by one µs */
  msg->stamp.usec = second + G_USEC_PER_SEC - 1;
  memo_expect (&c, msg, &env, FALSE);
  /* a new host, then one as long as the old */
  sl_message_set (msg, SL_F_HOST, "db22", -1);
  memo_expect (&c, msg, &env, FALSE);
  sl_message_set (msg, SL_F_HOST, "db23", -1);
  memo_expect (&c, msg, &env, FALSE);
  /* values that differ in one byte anywhere, at every length the
   * comparison treats apart */
  static const gchar *const pairs[][2] = {
    { "ab", "aB" }, { "abcde", "abXde" }, { "host-a-0001", "host-b-0001" },
    { "0123456789abcdef", "0123456789abcdeF" }, { "a-long-host-name.example", "a-long-host-nXme.example" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (pairs); i++)
    {
      sl_message_set (msg, SL_F_HOST, pairs[i][0], -1);
      memo_expect (&c, msg, &env, FALSE);
      memo_expect (&c, msg, &env, TRUE);
      sl_message_set (msg, SL_F_HOST, pairs[i][1], -1);
      memo_expect (&c, msg, &env, FALSE);
    }
  sl_message_unset (msg, SL_F_HOST);
  memo_expect (&c, msg, &env, FALSE);
  memo_expect (&c, msg, &env, TRUE);
  sl_message_set (msg, SL_F_HOST, "web1", -1);
  memo_expect (&c, msg, &env, FALSE);
  /* the same instant in a zone with another offset */
  msg->stamp.gmtoff = -36000;
  memo_expect (&c, msg, &env, FALSE);
  memo_expect (&c, msg, &env, TRUE);
  /* another environment */
  other.zone = g_time_zone_new_identifier ("+05:30");
  memo_expect (&c, msg, &other, FALSE);
  memo_expect (&c, msg, &other, TRUE);
  memo_expect (&c, msg, &env, FALSE);
  /* fields and macros the template does not show change nothing */
  sl_message_set (msg, SL_F_PROGRAM, "sshd", -1);
  msg->pri = SL_PRI_MAKE (4, 2);
  msg->recvd.usec += 7 * G_USEC_PER_SEC;
  memo_expect (&c, msg, &env, TRUE);
  memo_check_clear (&c);

  /* $SEC, $MSEC and $USEC: the second, or the fraction, counts */
  msg->stamp.usec = second + 123456;
  memo_check_init (&c, "$HOUR:$MIN:$SEC");
  memo_expect (&c, msg, &env, FALSE);
  msg->stamp.usec = second + 654321;
  memo_expect (&c, msg, &env, TRUE);
  msg->stamp.usec = second + G_USEC_PER_SEC;
  memo_expect (&c, msg, &env, FALSE);
  memo_check_clear (&c);
  for (guint k = 0; k < 2; k++)
    {
      memo_check_init (&c, k ? "$USEC" : "$SEC.$MSEC");
      msg->stamp.usec = second + 123456;
      memo_expect (&c, msg, &env, FALSE);
      memo_expect (&c, msg, &env, TRUE);
      msg->stamp.usec = second + 123457;
      memo_expect (&c, msg, &env, FALSE);
      msg->stamp.usec = second + 124000;
      memo_expect (&c, msg, &env, FALSE);
      memo_check_clear (&c);
    }

  /* stamps: the fraction counts only when frac-digits() shows one */
  memo_check_init (&c, "$ISODATE $R_STAMP");
  env.frac_digits = 3;
  msg->stamp.usec = second + 100000;
  memo_expect (&c, msg, &env, FALSE);
  msg->stamp.usec = second + 200000;
  memo_expect (&c, msg, &env, FALSE);
  memo_expect (&c, msg, &env, TRUE);
  env.frac_digits = 0;
  memo_expect (&c, msg, &env, FALSE);
  msg->stamp.usec = second + 300000;
  memo_expect (&c, msg, &env, TRUE);
  msg->recvd.usec += G_USEC_PER_SEC;
  memo_expect (&c, msg, &env, FALSE);
  memo_check_clear (&c);

  /* the priority, a fallback's field, MSGHDR's parts */
  memo_check_init (&c, "$FACILITY ${MSGID:-$SOURCEIP} $MSGHDR");
  memo_expect (&c, msg, &env, FALSE);
  memo_expect (&c, msg, &env, TRUE);
  msg->pri = SL_PRI_MAKE (5, 2);
  memo_expect (&c, msg, &env, FALSE);
  sl_message_unset (msg, SL_F_MSGID);
  memo_expect (&c, msg, &env, FALSE);
  sl_message_set (msg, SL_F_SOURCEIP, "10.0.0.8", -1);
  memo_expect (&c, msg, &env, FALSE);
  sl_message_set (msg, SL_F_PID, "4243", -1);
  memo_expect (&c, msg, &env, FALSE);
  memo_expect (&c, msg, &env, TRUE);
  memo_check_clear (&c);

  /* what the memo cannot see is never the same */
  const gchar *opaque[] = { "$SDATA", "$TAGS", "$SEQNUM", "${HOST}@1", "$(echo $HOST)" };
  for (guint i = 0; i < G_N_ELEMENTS (opaque); i++)
    {
      GError *error = NULL;
      SlTemplate *t = sl_template_compile (opaque[i], &error);
      if (!t)
        {
          /* no template functions loaded in this test */
          g_clear_error (&error);
          continue;
        }
      SlTemplateMemo *m = sl_template_memo_new (t);
      g_assert_false (sl_template_memo_same (m, msg, &env));
      g_assert_false (sl_template_memo_same (m, msg, &env));
      sl_template_memo_free (m);
      sl_template_unref (t);
    }

  /* a literal path is the same from the second message on */
  memo_check_init (&c, "/var/log/messages");
  memo_expect (&c, msg, &env, FALSE);
  memo_expect (&c, msg, &env, TRUE);
  memo_check_clear (&c);

  g_time_zone_unref (other.zone);
  sl_message_unref (msg);
}

/* The zone's offset is kept per second and zone: a new zone, a zone freed
 * and another made, and a daylight-saving change a second apart. */
static void
test_zone_cache (void)
{
  SlMessage *msg = message_new ();
  SlTemplateEnv env = sl_template_env_default;

  env.zone = g_time_zone_new_identifier ("+05:30");
  assert_render ("$ISODATE $HOUR", msg, &env, "2026-02-03T17:04:56+05:30 17");
  g_time_zone_unref (env.zone);
  env.zone = g_time_zone_new_identifier ("-03:00");
  assert_render ("$ISODATE $HOUR", msg, &env, "2026-02-03T08:34:56-03:00 08");
  assert_render ("$ISODATE", msg, &env, "2026-02-03T08:34:56-03:00");
  g_time_zone_unref (env.zone);

  env.zone = g_time_zone_new_identifier ("Europe/Berlin");
  if (env.zone)
    {
      /* 2026-03-29 01:00 UTC is when Berlin moves to summer time */
      msg->stamp.usec = G_GINT64_CONSTANT (1774745999) * G_USEC_PER_SEC;
      assert_render ("$ISODATE $HOUR $TZOFFSET", msg, &env, "2026-03-29T01:59:59+01:00 01 +01:00");
      msg->stamp.usec += G_USEC_PER_SEC;
      assert_render ("$ISODATE $HOUR $TZOFFSET", msg, &env, "2026-03-29T03:00:00+02:00 03 +02:00");
      g_time_zone_unref (env.zone);
    }
  else
    g_test_message ("no tzdata for Europe/Berlin; daylight saving not checked");
  sl_message_unref (msg);
}

static void
test_escape (void)
{
  SlMessage *msg = message_new ();
  SlTemplateEnv env = sl_template_env_default;

  register_test_functions ();
  sl_message_set (msg, SL_F_MESSAGE, "it's \"quoted\" \\ here", -1);
  assert_render ("'$MSG'", msg, &env, "'it's \"quoted\" \\ here'");
  env.escape = TRUE;
  assert_render ("'$MSG' \"$HOST\" \\", msg, &env,
                 "'it\\'s \\\"quoted\\\" \\\\ here' \"web1\" \\");
  assert_render ("${X:-'$MSG'}", msg, &env, "'it\\'s \\\"quoted\\\" \\\\ here'");
  assert_render ("$(upper $MSG)", msg, &env, "IT\\'S \\\"QUOTED\\\" \\\\ HERE");
  sl_message_set (msg, SL_F_MESSAGE, "\"", -1);
  assert_render ("$MSG$MSG", msg, &env, "\\\"\\\"");
  sl_message_unref (msg);
}

/* env.file_name: '/' and control characters of values, NUL included,
 * become '_'; the template's own text and a fallback's text are kept. */
static void
test_file_name (void)
{
  /* as a parser sets it: a slice of the received bytes, which may hold
   * a NUL (sl_message_set copies up to one) */
  static const gchar host[] = "a/b\n\0c\x7f\td";
  SlMessage *msg = sl_message_new (host, sizeof host - 1);
  SlTemplateEnv env = sl_template_env_default;

  register_test_functions ();
  sl_message_set_slice (msg, SL_F_HOST, msg->raw, sizeof host - 1);
  sl_message_set (msg, SL_F_PROGRAM, "nginx", -1);
  env.file_name = TRUE;
  assert_render ("/logs/$HOST/${PROGRAM}.log", msg, &env, "/logs/a_b__c__d/nginx.log");
  assert_render ("/logs/${NOPE:-x/y}/$(upper $HOST)", msg, &env, "/logs/x/y/A_B__C__D");
  sl_message_set (msg, SL_F_PROGRAM, "..", -1);
  assert_render ("/logs/$PROGRAM", msg, &env, "/logs/..");
  sl_message_unref (msg);
}

static void
test_default (void)
{
  SlMessage *msg = message_new ();

  register_test_functions ();
  assert_render ("${PROGRAM:-none}", msg, NULL, "nginx");
  assert_render ("${NOPE:-none}", msg, NULL, "none");
  assert_render ("${NOPE:-}", msg, NULL, "");
  assert_render ("${NOPE:-a b $$ c}", msg, NULL, "a b $ c");
  assert_render ("${NOPE:-$HOST/${NOPE2:-${PROGRAM}}}!", msg, NULL, "web1/nginx!");
  assert_render ("${NOPE:-$(upper $HOST)}", msg, NULL, "WEB1");
  sl_message_set (msg, SL_F_MSGID, "", 0);
  assert_render ("${MSGID:-empty}", msg, NULL, "empty");
  sl_message_unset (msg, SL_F_PROGRAM);
  assert_render ("${MSGHDR:-no header}|${SEQNUM:-no seqnum}", msg, NULL, "no header|no seqnum");
  sl_message_unref (msg);
}

static void
test_sdata (void)
{
  SlMessage *msg = message_new ();

  assert_render ("[$SDATA]${SDATA:--}", msg, NULL, "[]-");

  /* syslog-ng's order: as the fields were set, a new element when the id
   * changes, an id without params as [id] */
  SlHandle ab = sl_field_handle (".SDATA.a@1.b");
  SlHandle origin = sl_field_handle (".SDATA.origin.ip");
  SlHandle other = sl_field_handle ("sdata.test.other");
  SlHandle ac = sl_field_handle (".SDATA.a@1.c");
  SlHandle meta = sl_field_handle (".SDATA.meta.x");
  SlHandle bare = sl_field_handle (".SDATA.bare");

  sl_message_set (msg, meta, "q\"u\\o]te", -1);
  sl_message_set (msg, ac, "3", -1);
  sl_message_set (msg, other, "not sd", -1);
  sl_message_set (msg, bare, "", -1);
  sl_message_set (msg, origin, "10.0.0.1", -1);
  sl_message_set (msg, ab, "1", -1);
  assert_render ("$SDATA", msg, NULL,
                 "[meta x=\"q\\\"u\\\\o\\]te\"][a@1 c=\"3\"][bare][origin ip=\"10.0.0.1\"][a@1 b=\"1\"]");
  assert_render ("${.SDATA.meta.x}", msg, NULL, "q\"u\\o]te");

  /* a field set again keeps its place */
  sl_message_unset (msg, meta);
  sl_message_set (msg, ac, "4", -1);
  assert_render ("$SDATA", msg, NULL,
                 "[a@1 c=\"4\"][bare][origin ip=\"10.0.0.1\"][a@1 b=\"1\"]");
  sl_message_unref (msg);

  /* more params than fit on the stack */
  msg = message_new ();
  GString *expected = g_string_new ("[many");
  for (guint i = 0; i < 100; i++)
    {
      gchar *name = g_strdup_printf (".SDATA.many.p%u", i);
      gchar *value = g_strdup_printf ("v%u", i);
      sl_message_set (msg, sl_field_handle (name), value, -1);
      g_string_append_printf (expected, " p%u=\"v%u\"", i, i);
      g_free (name);
      g_free (value);
    }
  g_string_append (expected, "]");
  assert_render ("$SDATA", msg, NULL, expected->str);
  g_string_free (expected, TRUE);
  sl_message_unref (msg);
}

static void
test_seqnum_loghost (void)
{
  SlMessage *msg = message_new ();
  const gchar *host = g_get_host_name ();
  gchar *short_host = g_strndup (host, strcspn (host, "."));

  /* a received message has the number its sender put in [meta sequenceId] */
  assert_render ("[$SEQNUM]", msg, NULL, "[]");
  msg->seqnum = 42;
  assert_render ("[$SEQNUM]", msg, NULL, "[]");
  sl_message_set (msg, sl_field_handle (".SDATA.meta.sequenceId"), "7", 1);
  assert_render ("[$SEQNUM]", msg, NULL, "[7]");
  sl_message_unset (msg, sl_field_handle (".SDATA.meta.sequenceId"));
  /* one the daemon made has its own */
  msg->flags |= SL_MSG_LOCAL;
  assert_render ("[$SEQNUM][$SDATA]", msg, NULL, "[42][[meta sequenceId=\"42\"]]");
  assert_render ("$LOGHOST", msg, NULL, short_host);
  g_assert_cmpstr (sl_macro_loghost (), ==, short_host);
  g_assert_null (strchr (sl_macro_loghost (), '.'));
  /* options { local-hostname() use-fqdn() } */
  sl_macro_set_loghost ("relay7.example.net", FALSE);
  assert_render ("$LOGHOST", msg, NULL, "relay7.example.net");
  sl_macro_set_loghost (NULL, TRUE);
  g_assert_cmpstr (sl_macro_loghost (), ==, sl_macro_local_fqdn ());
  g_assert_true (g_str_has_prefix (sl_macro_local_fqdn (), short_host));
  sl_macro_set_loghost (NULL, FALSE);
  g_assert_cmpstr (sl_macro_loghost (), ==, short_host);
  g_free (short_host);
  sl_message_unref (msg);
}

static void
test_macro_lookup (void)
{
  g_assert_cmpuint (sl_macro_lookup ("HOST"), ==, 0);
  g_assert_cmpuint (sl_macro_lookup ("MESSAGE"), ==, 0);
  g_assert_cmpuint (sl_macro_lookup ("R_HOST"), ==, 0);
  g_assert_cmpuint (sl_macro_lookup ("S_MSGHDR"), ==, 0);
  g_assert_cmpuint (sl_macro_lookup ("isodate"), ==, 0);
  g_assert_cmpuint (sl_macro_lookup ("ISODATE"), >, 0);
  g_assert_cmpuint (sl_macro_lookup ("ISODATE"), ==, sl_macro_lookup ("S_ISODATE"));
  g_assert_cmpuint (sl_macro_lookup ("ISODATE"), !=, sl_macro_lookup ("R_ISODATE"));
  g_assert_cmpuint (sl_macro_lookup ("LEVEL"), ==, sl_macro_lookup ("SEVERITY"));
  g_assert_cmpuint (sl_macro_lookup ("SDATA"), >, 0);
}

static void
test_functions_none_loaded (void)
{
  if (g_test_subprocess ())
    {
      assert_compile_error ("$(upper x)", SL_CFG_ERROR_UNKNOWN,
                            "unknown template function 'upper'; none are loaded");
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

static void
test_functions (void)
{
  SlMessage *msg = message_new ();

  register_test_functions ();
  assert_render ("<$(upper ${HOST})>", msg, NULL, "<WEB1>");
  assert_render ("$(upper $(upper ${HOST}))", msg, NULL, "WEB1");
  assert_render ("$(upper x$(echo a $(upper b) c)y)", msg, NULL, "XA|B|CY");
  assert_render ("$(echo)|$(upper)", msg, NULL, "|");
  assert_render ("$(echo   a\t  b  )", msg, NULL, "a|b");
  assert_render ("$(echo a \"b c\" 'd e' (f g) ${NOPE:-h i} $(upper j) \"\" '$HOST' \"$$\")",
                 msg, NULL, "a|b c|d e|(f g)|h i|J||web1|$");
  assert_render ("$(echo \"a)b\" 'c(d' \"e\\\"f\\\\g\")", msg, NULL, "a)b|c(d|e\"f\\g");
  assert_render ("$(echo \"}\")${NOPE:-x}", msg, NULL, "}x");
  assert_render ("$(raw \"a b\" $(upper \"x y\") (p \"q\") ${A:-b c})", msg, NULL,
                 "a b|$(upper \"x y\")|(p \"q\")|${A:-b c}");
  assert_render ("$(upper $(raw \"x y\"))", msg, NULL, "X Y");
  assert_render ("$(repeat ab 3)|$(repeat $HOST 0)|$(repeat \"$(upper $PROGRAM) \" 2)", msg, NULL,
                 "ababab||NGINX NGINX ");

  GError *error = NULL;
  SlTemplate *t = sl_template_compile ("$(upper $HOST) and $MSG", &error);
  g_assert_no_error (error);
  g_assert_false (sl_template_is_literal (t));
  sl_template_unref (t);

  assert_compile_error ("$(nope x)", SL_CFG_ERROR_UNKNOWN,
                        "unknown template function 'nope'; the 6 loaded are listed in sluice.conf(5)");
  assert_compile_error ("$(upper $(nope))", SL_CFG_ERROR_UNKNOWN,
                        "unknown template function 'nope'; the 6 loaded are listed in sluice.conf(5)");
  assert_compile_error ("$(uper x)", SL_CFG_ERROR_UNKNOWN, "unknown template function 'uper'; did you mean 'upper'?");
  /* the offset of the unknown name, where the configuration's caret goes */
  gsize at = 0;
  g_assert_null (sl_template_compile_located ("${HOST} $(upper \"$(uper x)\")", &at, &error));
  g_assert_cmpuint (at, ==, 19);
  g_clear_error (&error);
  g_assert_null (sl_template_compile_located ("${HOST", &at, &error));
  g_assert_cmpuint (at, ==, G_MAXSIZE);
  g_clear_error (&error);
  assert_compile_error ("$(repeat x)", SL_CFG_ERROR_VALUE, "$(repeat) takes a text and a count");
  assert_compile_error ("$(repeat $(upper x) 2 3)", SL_CFG_ERROR_VALUE,
                        "$(repeat) takes a text and a count");
  assert_compile_error ("$(refuse x)", SL_CFG_ERROR_VALUE,
                        "template function 'refuse' refused its arguments");
  assert_compile_error ("$(echo ${HOST)", SL_CFG_ERROR_SYNTAX,
                        "unterminated '$(' in template at offset 0");
  assert_compile_error ("ab $(echo x ${HOST)", SL_CFG_ERROR_SYNTAX,
                        "unterminated '$(' in template at offset 3");
  /* offsets inside arguments count from the start of the whole template */
  assert_compile_error ("$(echo a ${})", SL_CFG_ERROR_SYNTAX,
                        "empty name in '${}' in template at offset 9");
  assert_compile_error ("$(upper \"ab${X\")", SL_CFG_ERROR_SYNTAX,
                        "unterminated '${' in template at offset 11");
  sl_message_unref (msg);
}

static void
test_errors (void)
{
  assert_compile_error ("${HOST", SL_CFG_ERROR_SYNTAX, "unterminated '${' in template at offset 0");
  assert_compile_error ("abc ${HOST:-x", SL_CFG_ERROR_SYNTAX,
                        "unterminated '${' in template at offset 4");
  assert_compile_error ("ab${X:-${Y}", SL_CFG_ERROR_SYNTAX,
                        "unterminated '${' in template at offset 2");
  assert_compile_error ("${X:-ab${Y}", SL_CFG_ERROR_SYNTAX,
                        "unterminated '${' in template at offset 0");
  assert_compile_error ("${X:-ab${Y:-${Z}", SL_CFG_ERROR_SYNTAX,
                        "unterminated '${' in template at offset 0");
  assert_compile_error ("x $(upper abc", SL_CFG_ERROR_SYNTAX,
                        "unterminated '$(' in template at offset 2");
  assert_compile_error ("$(upper $(upper x)", SL_CFG_ERROR_SYNTAX,
                        "unterminated '$(' in template at offset 0");
  assert_compile_error ("$(upper (x)", SL_CFG_ERROR_SYNTAX,
                        "unterminated '$(' in template at offset 0");
  assert_compile_error ("12$(upper \"abc)", SL_CFG_ERROR_SYNTAX,
                        "unterminated quote in template at offset 10");
  assert_compile_error ("$(upper 'abc)", SL_CFG_ERROR_SYNTAX,
                        "unterminated quote in template at offset 8");
  assert_compile_error ("a ${}", SL_CFG_ERROR_SYNTAX, "empty name in '${}' in template at offset 2");
  assert_compile_error ("${:-x}", SL_CFG_ERROR_SYNTAX, "empty name in '${}' in template at offset 0");
  assert_compile_error ("abcd${X:-${}}", SL_CFG_ERROR_SYNTAX,
                        "empty name in '${}' in template at offset 9");
  assert_compile_error ("a $()", SL_CFG_ERROR_SYNTAX, "empty '$()' in template at offset 2");
  assert_compile_error ("$(  )", SL_CFG_ERROR_SYNTAX, "empty '$()' in template at offset 0");
}

/* Each thread renders its own message; a stamp cache shared between
 * threads, or keyed on too little, would mix their seconds and zones up. */
typedef struct
{
  SlTemplate *template;
  SlMessage *msg;
  const SlTemplateEnv *env;
  const gchar *expected;
  guint mismatches;
} ThreadJob;

static gpointer
render_loop (gpointer data)
{
  ThreadJob *job = data;
  GString *out = g_string_sized_new (256);

  for (guint i = 0; i < 20000; i++)
    {
      g_string_truncate (out, 0);
      sl_template_append (job->template, job->msg, job->env, out);
      if (strcmp (out->str, job->expected) != 0)
        job->mismatches++;
    }
  g_string_free (out, TRUE);
  return NULL;
}

static void
test_single_field_and_peek (void)
{
  SlMessage *msg = message_new ();
  static const struct
  {
    const gchar *text;
    SlHandle field;
    const gchar *value;
  } cases[] = {
    { "$HOST", SL_F_HOST, "web1" },
    { "${PROGRAM}", SL_F_PROGRAM, "nginx" },
    { "$MSG", SL_F_MESSAGE, "hello world" },
    { "${HOST:-none}", SL_F_NONE, "web1" },
    { "$HOST ", SL_F_NONE, "web1 " },
    { "$FACILITY", SL_F_NONE, "local3" },
    { "plain text", SL_F_NONE, "plain text" },
    { "", SL_F_NONE, "" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      SlTemplate *t = sl_template_compile (cases[i].text, NULL);
      g_assert_cmpuint (sl_template_single_field (t), ==, cases[i].field);
      gsize len;
      const gchar *value = sl_template_peek (t, msg, &len);
      g_assert_cmpuint (len, ==, strlen (cases[i].value));
      g_assert_true (memcmp (value, cases[i].value, len) == 0);
      sl_template_unref (t);
    }

  /* a single field is the field itself, not a copy; unset, it is empty */
  SlTemplate *host = sl_template_compile ("$HOST", NULL);
  gsize len;
  g_assert_true (sl_template_peek (host, msg, &len) == sl_message_get (msg, SL_F_HOST, NULL));
  sl_template_unref (host);
  SlTemplate *unset = sl_template_compile ("${.app.unset}", NULL);
  g_assert_cmpuint (sl_template_single_field (unset), ==, sl_field_handle (".app.unset"));
  g_assert_cmpstr (sl_template_peek (unset, msg, &len), ==, "");
  g_assert_cmpuint (len, ==, 0);
  sl_template_unref (unset);

  SlTemplate *named = sl_template_compile_name (".SDATA.origin.ip", NULL);
  g_assert_cmpuint (sl_template_single_field (named), ==, sl_field_handle (".SDATA.origin.ip"));
  sl_template_unref (named);
  named = sl_template_compile_name ("MSG", NULL);
  g_assert_cmpuint (sl_template_single_field (named), ==, SL_F_MESSAGE);
  sl_template_unref (named);
  named = sl_template_compile_name ("LEVEL", NULL);
  g_assert_cmpuint (sl_template_single_field (named), ==, SL_F_NONE);
  g_assert_cmpstr (sl_template_peek (named, msg, &len), ==, "warning");
  sl_template_unref (named);
  const gchar *bad[] = { "", "$HOST", "${HOST}", "a:-b", "$(echo x)" };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      GError *error = NULL;
      g_assert_null (sl_template_compile_name (bad[i], &error));
      g_assert_nonnull (strstr (error->message, "is not a field or macro name"));
      g_error_free (error);
    }
  sl_message_unref (msg);
}

static void
test_threads (void)
{
  SlTemplate *t = sl_template_compile ("$ISODATE|$DATE|$FULLDATE|$UNIXTIME|$STAMP|$R_ISODATE|$HOUR", NULL);
  SlTemplateEnv env = sl_template_env_default;
  SlMessage *a = message_new ();
  SlMessage *b = message_new ();

  env.frac_digits = 3;
  env.ts_format = SL_TS_ISO;
  b->stamp.usec = (STAMP_A_SEC + 1) * G_USEC_PER_SEC + 654321;
  b->stamp.gmtoff = -7 * 3600;
  b->recvd = b->stamp;

  ThreadJob jobs[2] = {
    { t, a, &env, "2026-02-03T12:34:56.123+01:00|Feb  3 12:34:56.123|2026 Feb  3 12:34:56.123|"
      "1770118496.123|2026-02-03T12:34:56.123+01:00|2025-12-31T23:59:59.999+00:00|12" },
    { t, b, &env, "2026-02-03T04:34:57.654-07:00|Feb  3 04:34:57.654|2026 Feb  3 04:34:57.654|"
      "1770118497.654|2026-02-03T04:34:57.654-07:00|2026-02-03T04:34:57.654-07:00|04" },
  };

  /* one thread alternating between them must not be served a stale second */
  for (guint i = 0; i < 4; i++)
    assert_render (sl_template_text (t), jobs[i % 2].msg, &env, jobs[i % 2].expected);

  GThread *threads[2];
  for (guint i = 0; i < 2; i++)
    threads[i] = g_thread_new ("render", render_loop, &jobs[i]);
  for (guint i = 0; i < 2; i++)
    g_thread_join (threads[i]);
  g_assert_cmpuint (jobs[0].mismatches, ==, 0);
  g_assert_cmpuint (jobs[1].mismatches, ==, 0);

  sl_message_unref (a);
  sl_message_unref (b);
  sl_template_unref (t);
}

static void
test_shared_template (void)
{
  GError *error = NULL;
  SlMessage *msg = message_new ();

  register_test_functions ();
  SlTemplate *t = sl_template_compile ("$HOST $(upper $PROGRAM)", &error);
  g_assert_no_error (error);
  SlTemplate *again = sl_template_ref (t);
  sl_template_unref (t);
  assert_render (sl_template_text (again), msg, NULL, "web1 NGINX");
  GString *out = g_string_new (NULL);
  sl_template_append (again, msg, NULL, out);
  g_assert_cmpstr (out->str, ==, "web1 NGINX");
  g_string_free (out, TRUE);
  sl_template_unref (again);
  sl_message_unref (msg);
}

static void
note_macro (const gchar *name, guint scopes, gpointer user_data)
{
  GHashTable *seen = user_data;
  g_assert_false (g_hash_table_contains (seen, name));
  g_hash_table_insert (seen, g_strdup (name), GUINT_TO_POINTER (scopes));
  /* each is a computed macro or a field the message stores */
  if (!sl_macro_lookup (name))
    {
      gchar *text = g_strdup_printf ("${%s}", name);
      SlTemplate *t = sl_template_compile (text, NULL);
      g_assert_cmpuint (sl_template_single_field (t), !=, 0);
      sl_template_unref (t);
      g_free (text);
    }
}

/* The names $(format-json)'s scopes list come from the table the template
 * compiler reads. */
static void
test_macro_scopes (void)
{
  GHashTable *seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  sl_macro_foreach (note_macro, seen);
  guint rfc3164 = SL_MACRO_SCOPE_ALL | SL_MACRO_SCOPE_RFC3164 | SL_MACRO_SCOPE_RFC5424 | SL_MACRO_SCOPE_SELECTED;
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (seen, "DATE")), ==, rfc3164);
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (seen, "HOST")), ==, rfc3164);
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (seen, "R_DATE")), ==, SL_MACRO_SCOPE_ALL);
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (seen, "MSGID")), ==,
                    SL_MACRO_SCOPE_ALL | SL_MACRO_SCOPE_RFC5424);
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (seen, "SEQNUM")), ==,
                    SL_MACRO_SCOPE_ALL | SL_MACRO_SCOPE_SELECTED);
  /* names all-macros does not list are macros all the same */
  g_assert_false (g_hash_table_contains (seen, "MONTHNAME"));
  g_assert_false (g_hash_table_contains (seen, "LEGACY_MSGHDR"));
  g_assert_true (sl_macro_lookup ("MONTHNAME") && sl_macro_lookup ("LEGACY_MSGHDR"));
  g_hash_table_unref (seen);
}
/* syslog-ng drops a backslash outside quotes in a function's arguments
 * and keeps the character after it as it is ($(format-welf b=x\ty) is
 * b=xty there); inside quotes it stays. */
static void
test_argument_backslash (void)
{
  register_test_functions ();
  SlMessage *msg = message_new ();
  assert_render ("$(raw a\\ b c\\\\d \\) x\\ty)", msg, NULL, "a b|c\\d|)|xty");
  assert_render ("$(raw 'a\\tb')", msg, NULL, "a\\tb");
  sl_message_unref (msg);
}

/* A correlation context as grouping-by()'s aggregate() renders it: names
 * read the newest message, @K the K-th before it, functions get the
 * whole context (or one message with @K); expected values as syslog-ng
 * 3.38 writes them (checked against it for a one-message context). */
static void
test_context (void)
{
  register_test_functions ();
  const gchar *hosts[] = { "a", "b", "c" };
  const SlMessage *context[3];
  for (guint i = 0; i < 3; i++)
    {
      SlMessage *m = message_new ();
      sl_message_set (m, SL_F_HOST, hosts[i], -1);
      context[i] = m;
    }
  static const struct
  {
    const gchar *text;
    const gchar *in_context;
    const gchar *alone;   /* the newest message rendered by itself */
  } cases[] = {
    { "${HOST}|${HOST}@0|${HOST}@1|${HOST}@2|[${HOST}@3]", "c|c|b|a|[]", "c|c|||[]" },
    { "${HOST}@@x ${HOST}@x $HOST@1 ${HOST}@", "c@x c@x c@1 c@", "c@x c@x c@1 c@" },
    { "$(echo ${HOST}@1 $HOST)", "b|c", "|c" },
    { "$(context-size) $(context-size)@1 [$(context-size)@3]", "3 1 []", "1  []" },
    { "$(echo $HOST)@2", "a", "" },
    { "${nope:-dflt}@1", "dflt", "" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      SlTemplate *t = sl_template_compile (cases[i].text, NULL);
      g_assert_nonnull (t);
      GString *out = g_string_new (NULL);
      sl_template_append_context (t, context, 3, NULL, out);
      g_assert_cmpstr (out->str, ==, cases[i].in_context);
      g_string_truncate (out, 0);
      sl_template_append (t, context[2], NULL, out);
      g_assert_cmpstr (out->str, ==, cases[i].alone);
      g_string_free (out, TRUE);
      sl_template_unref (t);
    }

  SlTemplate *t = sl_template_compile ("${HOST}@1", NULL);
  g_assert_cmpuint (sl_template_single_field (t), ==, SL_F_NONE);
  sl_template_unref (t);
  for (guint i = 0; i < 3; i++)
    sl_message_unref ((SlMessage *) context[i]);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/template/literal", test_literal);
  g_test_add_func ("/template/fields", test_fields);
  g_test_add_func ("/template/msghdr", test_msghdr);
  g_test_add_func ("/template/priority", test_priority);
  g_test_add_func ("/template/date-macros", test_date_macros);
  g_test_add_func ("/template/macro-scopes", test_macro_scopes);
  g_test_add_func ("/template/frac-digits", test_frac_digits);
  g_test_add_func ("/template/stamp-format", test_stamp_format);
  g_test_add_func ("/template/zone", test_zone);
  g_test_add_func ("/template/default", test_default);
  g_test_add_func ("/template/sdata", test_sdata);
  g_test_add_func ("/template/seqnum-loghost", test_seqnum_loghost);
  g_test_add_func ("/template/macro-lookup", test_macro_lookup);
  g_test_add_func ("/template/errors", test_errors);
  g_test_add_func ("/template/functions-none-loaded", test_functions_none_loaded);
  g_test_add_func ("/template/functions", test_functions);
  g_test_add_func ("/template/memo", test_memo);
  g_test_add_func ("/template/zone-cache", test_zone_cache);
  g_test_add_func ("/template/escape", test_escape);
  g_test_add_func ("/template/file-name", test_file_name);
  g_test_add_func ("/template/shared", test_shared_template);
  g_test_add_func ("/template/single-field-and-peek", test_single_field_and_peek);
  g_test_add_func ("/template/threads", test_threads);
  g_test_add_func ("/template/context", test_context);
  g_test_add_func ("/template/argument-backslash", test_argument_backslash);

  return g_test_run ();
}
