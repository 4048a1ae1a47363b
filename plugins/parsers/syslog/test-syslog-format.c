/* SPDX-License-Identifier: GPL-2.0-or-later */
/* format("syslog") and syslog-parser(): each line shape with every field,
 * the priority and the timestamp it must give. */
#include "plugins/parsers/syslog/syslog-private.h"
#include "core/config/error.h"
#include "core/compile/loader.h"
#include "core/plugin/plugin.h"
#include "tests/unit/plugin-fixture.h"
#include "core/plugin/registry.h"
#include "core/stats.h"
#include "core/message/template.h"

#include <string.h>
#include <time.h>

extern const SlModule sl_module;

/* Central European time, with its DST rule spelled out so the expected
 * offsets hold whatever the test machine's zone database has. */
#define TEST_TZ "CET-1CEST,M3.5.0,M10.5.0/3"
#define CET 3600
#define CEST 7200

static const SlDriverClass *format_class;
static const SlDriverClass *parser_class;

/* 2026-02-10 10:00:00 UTC, as a source in CET would stamp its arrival */
static const SlTime default_recvd = { G_GINT64_CONSTANT (1770717600) * G_USEC_PER_SEC, CET };

typedef struct
{
  const gchar *host;
  const gchar *program;
  const gchar *pid;
  const gchar *msgid;
  const gchar *msghdr;
  const gchar *message;
} Fields;

static SlParseOptions
default_options (void)
{
  return (SlParseOptions) { .default_pri = 13 };
}

static void assert_parsed_in_place (const SlMessage *msg);

static SlMessage *
parse_with (const gchar *line, gsize len, const SlParseOptions *options,
            const SlTime *recvd, gboolean *ok)
{
  SlMessage *msg = sl_message_new (line, len);
  msg->recvd = *recvd;
  *ok = format_class->ops.format->parse (msg, options);
  /* an error record is text of its own */
  if (!(msg->flags & SL_MSG_PARSE_ERROR))
    assert_parsed_in_place (msg);
  return msg;
}

/* "<PRI>1 " lines are read as a syslog() source reads them, the others as
 * tcp() does. */
static gboolean
is_rfc5424 (const gchar *line)
{
  const gchar *p = line;
  if (*p++ != '<')
    return FALSE;
  while (g_ascii_isdigit (*p))
    p++;
  return p[0] == '>' && p[1] == '1' && p[2] == ' ';
}

static SlMessage *
parse (const gchar *line, gboolean expect_ok)
{
  SlParseOptions options = default_options ();
  options.syslog_protocol = is_rfc5424 (line);
  gboolean ok;
  SlMessage *msg = parse_with (line, strlen (line), &options, &default_recvd, &ok);
  g_assert_cmpint (ok, ==, expect_ok);
  g_assert_cmpint (!!(msg->flags & SL_MSG_PARSE_ERROR), ==, !expect_ok);
  return msg;
}

/* NULL expected means the field must be unset. */
static void
assert_field (const SlMessage *msg, SlHandle field, const gchar *expected)
{
  gsize len;
  const gchar *value = sl_message_get (msg, field, &len);

  if (!expected)
    {
      if (value)
        g_error ("%s: expected unset, got '%.*s'", sl_field_name (field), (int) len, value);
      return;
    }
  if (!value)
    g_error ("%s: expected '%s', got unset", sl_field_name (field), expected);
  if (len != strlen (expected) || memcmp (value, expected, len) != 0)
    g_error ("%s: expected '%s', got '%.*s'", sl_field_name (field), expected, (int) len, value);
}

static void
assert_sdata (const SlMessage *msg, const gchar *name, const gchar *expected)
{
  assert_field (msg, sl_field_handle (name), expected);
}

/* Parsing in place: a value that is a range of the line is not copied. */
static void
assert_slice (const SlMessage *msg, SlHandle field)
{
  gsize len;
  const gchar *value = sl_message_get (msg, field, &len);

  g_assert_nonnull (value);
  g_assert_true (value >= msg->raw && value + len <= msg->raw + msg->raw_len);
}

static void
assert_fields (const SlMessage *msg, const Fields *expected)
{
  assert_field (msg, SL_F_HOST, expected->host);
  assert_field (msg, SL_F_PROGRAM, expected->program);
  assert_field (msg, SL_F_PID, expected->pid);
  assert_field (msg, SL_F_MSGID, expected->msgid);
  assert_field (msg, SL_F_LEGACY_MSGHDR, expected->msghdr);
  assert_field (msg, SL_F_MESSAGE, expected->message);
  assert_field (msg, SL_F_RAWMSG, NULL);
}

static void
assert_parsed_in_place (const SlMessage *msg)
{
  for (SlHandle field = SL_F_NONE + 1; field < SL_F_BUILTIN_MAX; field++)
    if (sl_message_has (msg, field))
      assert_slice (msg, field);
}

static gint64
utc_usec (gint year, gint month, gint day, gint hour, gint minute, gint second)
{
  GDateTime *dt = g_date_time_new_utc (year, month, day, hour, minute, second);
  gint64 usec = g_date_time_to_unix (dt) * G_USEC_PER_SEC;
  g_date_time_unref (dt);
  return usec;
}

/* The stamp as written: wall clock fields in the zone gmtoff. */
static void
assert_stamp (const SlMessage *msg, gint year, gint month, gint day, gint hour,
              gint minute, gint second, gint usec, gint32 gmtoff)
{
  gint64 expected = utc_usec (year, month, day, hour, minute, second)
                    - (gint64) gmtoff * G_USEC_PER_SEC + usec;
  g_assert_cmpint (msg->stamp.usec, ==, expected);
  g_assert_cmpint (msg->stamp.gmtoff, ==, gmtoff);
}

static void
assert_stamp_is_recvd (const SlMessage *msg)
{
  g_assert_cmpint (msg->stamp.usec, ==, msg->recvd.usec);
  g_assert_cmpint (msg->stamp.gmtoff, ==, msg->recvd.gmtoff);
}

/* RFC 3164 */

static void
test_rfc3164_full (void)
{
  SlMessage *msg = parse ("<34>Feb  3 12:34:56 myhost su[1234]: 'su root' failed on /dev/pts/8", TRUE);
  g_assert_cmpint (msg->pri, ==, 34);
  g_assert_cmpint (SL_PRI_FACILITY (msg->pri), ==, 4);
  g_assert_cmpint (SL_PRI_SEVERITY (msg->pri), ==, 2);
  assert_stamp (msg, 2026, 2, 3, 12, 34, 56, 0, CET);
  assert_fields (msg, &(Fields) { .host = "myhost", .program = "su", .pid = "1234",
                                  .msghdr = "su[1234]: ",
                                  .message = "'su root' failed on /dev/pts/8" });
  sl_message_unref (msg);
}

static void
test_rfc3164_without_pri (void)
{
  SlParseOptions options = default_options ();
  options.default_pri = SL_PRI_MAKE (3, 6);
  const gchar *line = "Feb  3 12:34:56 myhost prog: text";
  gboolean ok;
  SlMessage *msg = parse_with (line, strlen (line), &options, &default_recvd, &ok);

  g_assert_true (ok);
  g_assert_cmpint (msg->pri, ==, 30);
  assert_stamp (msg, 2026, 2, 3, 12, 34, 56, 0, CET);
  assert_fields (msg, &(Fields) { .host = "myhost", .program = "prog", .msghdr = "prog: ",
                                  .message = "text" });
  sl_message_unref (msg);
}

/* What glibc's syslog(3) writes to /dev/log: no host name. */
static void
test_rfc3164_glibc (void)
{
  SlMessage *msg = parse ("<13>Feb  3 12:34:56 prog[12]: text", TRUE);
  g_assert_cmpint (msg->pri, ==, 13);
  assert_stamp (msg, 2026, 2, 3, 12, 34, 56, 0, CET);
  assert_fields (msg, &(Fields) { .program = "prog", .pid = "12", .msghdr = "prog[12]: ",
                                  .message = "text" });
  sl_message_unref (msg);

  msg = parse ("<38>Feb  3 12:34:56 sshd: Accepted publickey", TRUE);
  g_assert_cmpint (msg->pri, ==, 38);
  assert_fields (msg, &(Fields) { .program = "sshd", .msghdr = "sshd: ",
                                  .message = "Accepted publickey" });
  sl_message_unref (msg);
}

/* logger --rfc3164 */
static void
test_rfc3164_logger (void)
{
  SlTime recvd = { utc_usec (2026, 11, 29, 19, 25, 58), CET };
  SlParseOptions options = default_options ();
  const gchar *line = "<13>Nov 29 20:25:57 myhost user: hello";
  gboolean ok;
  SlMessage *msg = parse_with (line, strlen (line), &options, &recvd, &ok);

  g_assert_true (ok);
  g_assert_cmpint (msg->pri, ==, 13);
  assert_stamp (msg, 2026, 11, 29, 20, 25, 57, 0, CET);
  assert_fields (msg, &(Fields) { .host = "myhost", .program = "user", .msghdr = "user: ",
                                  .message = "hello" });
  sl_message_unref (msg);
}

/* syslog-ng takes the first word for the program even without a colon. */
static void
test_rfc3164_no_tag (void)
{
  SlMessage *msg = parse ("<13>Feb  3 12:34:56 host text without tag", TRUE);
  assert_stamp (msg, 2026, 2, 3, 12, 34, 56, 0, CET);
  assert_fields (msg, &(Fields) { .host = "host", .program = "text", .msghdr = "text ",
                                  .message = "without tag" });
  sl_message_unref (msg);

  msg = parse ("<13>Feb  3 12:34:56 host : only a colon", TRUE);
  assert_fields (msg, &(Fields) { .host = "host", .program = "", .msghdr = ": ", .message = "only a colon" });
  sl_message_unref (msg);

  msg = parse ("<13>Feb  3 12:34:56 host prog[12 unclosed", TRUE);
  assert_fields (msg, &(Fields) { .host = "host", .program = "prog", .pid = "12", .msghdr = "prog[12 ",
                                  .message = "unclosed" });
  sl_message_unref (msg);

  msg = parse ("<13>Feb  3 12:34:56 host prog[]: empty pid", TRUE);
  assert_fields (msg, &(Fields) { .host = "host", .program = "prog", .pid = "", .msghdr = "prog[]: ",
                                  .message = "empty pid" });
  sl_message_unref (msg);
}

static void
test_rfc3164_no_timestamp (void)
{
  SlMessage *msg = parse ("<13>prog[5]: hello", TRUE);
  g_assert_cmpint (msg->pri, ==, 13);
  assert_stamp_is_recvd (msg);
  assert_fields (msg, &(Fields) { .program = "prog", .pid = "5", .msghdr = "prog[5]: ",
                                  .message = "hello" });
  sl_message_unref (msg);

  /* without a stamp there is no host name: the first word is the program */
  msg = parse ("hello world", TRUE);
  g_assert_cmpint (msg->pri, ==, 13);
  assert_stamp_is_recvd (msg);
  assert_fields (msg, &(Fields) { .program = "hello", .msghdr = "hello ", .message = "world" });
  sl_message_unref (msg);

  /* almost a stamp */
  msg = parse ("<13>Feb  3 12:34:5x host prog: m", TRUE);
  assert_stamp_is_recvd (msg);
  assert_fields (msg, &(Fields) { .program = "Feb", .msghdr = "Feb ",
                                  .message = " 3 12:34:5x host prog: m" });
  sl_message_unref (msg);

  /* fields out of range roll over, as in syslog-ng */
  msg = parse ("<13>Feb 30 12:34:56 host prog: no such day", TRUE);
  assert_stamp (msg, 2026, 3, 2, 12, 34, 56, 0, CET);
  assert_field (msg, SL_F_HOST, "host");
  sl_message_unref (msg);
}

static void
test_rfc3164_iso_timestamp (void)
{
  SlMessage *msg = parse ("<13>2026-02-03T12:34:56.123+01:00 host prog: msg", TRUE);
  assert_stamp (msg, 2026, 2, 3, 12, 34, 56, 123000, 3600);
  assert_fields (msg, &(Fields) { .host = "host", .program = "prog", .msghdr = "prog: ",
                                  .message = "msg" });
  sl_message_unref (msg);

  msg = parse ("<13>2026-02-03T12:34:56Z host prog: msg", TRUE);
  assert_stamp (msg, 2026, 2, 3, 12, 34, 56, 0, 0);
  sl_message_unref (msg);

  msg = parse ("<13>2026-07-03T12:34:56.1234567-05:30 host prog: msg", TRUE);
  assert_stamp (msg, 2026, 7, 3, 12, 34, 56, 123456, -(5 * 3600 + 30 * 60));
  sl_message_unref (msg);

  /* no zone: local time, on either side of DST */
  msg = parse ("<13>2026-02-03T12:34:56 host prog: msg", TRUE);
  assert_stamp (msg, 2026, 2, 3, 12, 34, 56, 0, CET);
  sl_message_unref (msg);
  msg = parse ("<13>2026-07-03T12:34:56.5 host prog: msg", TRUE);
  assert_stamp (msg, 2026, 7, 3, 12, 34, 56, 500000, CEST);
  sl_message_unref (msg);

  /* syslog-ng reads each number of the stamp after leading spaces */
  msg = parse ("<13>2026-07- 3T 2:34: 6Z host prog: msg", TRUE);
  assert_stamp (msg, 2026, 7, 3, 2, 34, 6, 0, 0);
  assert_fields (msg, &(Fields) { .host = "host", .program = "prog", .msghdr = "prog: ", .message = "msg" });
  sl_message_unref (msg);
}

static void
test_rfc3164_year_forms (void)
{
  SlMessage *msg = parse ("<13>Feb  3 12:34:56 2025 host prog: after the time", TRUE);
  assert_stamp (msg, 2025, 2, 3, 12, 34, 56, 0, CET);
  assert_fields (msg, &(Fields) { .host = "host", .program = "prog", .msghdr = "prog: ",
                                  .message = "after the time" });
  sl_message_unref (msg);

  msg = parse ("<13>Feb  3 2025 12:34:56 host prog: after the day", TRUE);
  assert_stamp (msg, 2025, 2, 3, 12, 34, 56, 0, CET);
  assert_fields (msg, &(Fields) { .host = "host", .program = "prog", .msghdr = "prog: ",
                                  .message = "after the day" });
  sl_message_unref (msg);

  /* four digits glued to more text are no year */
  msg = parse ("<13>Feb  3 12:34:56 2025x prog: m", TRUE);
  assert_stamp (msg, 2026, 2, 3, 12, 34, 56, 0, CET);
  assert_fields (msg, &(Fields) { .host = "2025x", .program = "prog", .msghdr = "prog: ",
                                  .message = "m" });
  sl_message_unref (msg);
}

static void
test_rfc3164_day_forms (void)
{
  static const gchar *const lines[] = {
    "<13>Feb 03 12:34:56 host prog: m",
    "<13>Feb  3 12:34:56 host prog: m",
  };

  for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
    {
      SlMessage *msg = parse (lines[i], TRUE);
      assert_stamp (msg, 2026, 2, 3, 12, 34, 56, 0, CET);
      assert_fields (msg, &(Fields) { .host = "host", .program = "prog", .msghdr = "prog: ",
                                      .message = "m" });
      sl_message_unref (msg);
    }

  SlMessage *msg = parse ("<13>Feb 13 12:34:56.789 host prog: m", TRUE);
  assert_stamp (msg, 2026, 2, 13, 12, 34, 56, 789000, CET);
  sl_message_unref (msg);

  msg = parse ("<13>Jul  4 2026 10:00:00 host prog: summer time", TRUE);
  assert_stamp (msg, 2026, 7, 4, 10, 0, 0, 0, CEST);
  sl_message_unref (msg);
}

static gint
stamp_year (const SlMessage *msg)
{
  GDateTime *dt = g_date_time_new_from_unix_utc (msg->stamp.usec / G_USEC_PER_SEC
                                                 + msg->stamp.gmtoff);
  gint year = g_date_time_get_year (dt);
  g_date_time_unref (dt);
  return year;
}

static gint
parse_year (const gchar *line, const SlTime *recvd)
{
  SlParseOptions options = default_options ();
  gboolean ok;
  SlMessage *msg = parse_with (line, strlen (line), &options, recvd, &ok);
  g_assert_true (ok);
  gint year = stamp_year (msg);
  sl_message_unref (msg);
  return year;
}

/* The last plain stamp is kept per thread: the same text read on another
 * day, with a fraction after it, or with a year after it is read anew. */
static void
test_rfc3164_stamp_memo (void)
{
  SlTime new_year = { utc_usec (2026, 1, 1, 0, 0, 5), CET };
  SlTime new_years_eve = { utc_usec (2026, 12, 31, 22, 59, 50), CET };

  for (guint round = 0; round < 2; round++)
    {
      g_assert_cmpint (parse_year ("<13>Jan  1 00:00:01 host prog: m", &new_year), ==, 2026);
      g_assert_cmpint (parse_year ("<13>Jan  1 00:00:01 host prog: m", &new_year), ==, 2026);
      g_assert_cmpint (parse_year ("<13>Jan  1 00:00:01 host prog: m", &new_years_eve), ==, 2027);
    }

  SlMessage *msg = parse ("<13>Feb  3 12:34:56 host prog: m", TRUE);
  assert_stamp (msg, 2026, 2, 3, 12, 34, 56, 0, CET);
  sl_message_unref (msg);
  msg = parse ("<13>Feb  3 12:34:56.789 host prog: m", TRUE);
  assert_stamp (msg, 2026, 2, 3, 12, 34, 56, 789000, CET);
  sl_message_unref (msg);
  msg = parse ("<13>Feb  3 12:34:56 2025 host prog: after the time", TRUE);
  assert_stamp (msg, 2025, 2, 3, 12, 34, 56, 0, CET);
  assert_fields (msg, &(Fields) { .host = "host", .program = "prog", .msghdr = "prog: ",
                                  .message = "after the time" });
  sl_message_unref (msg);
  msg = parse ("<13>Feb  3 12:34:56 host prog: m", TRUE);
  assert_stamp (msg, 2026, 2, 3, 12, 34, 56, 0, CET);
  assert_fields (msg, &(Fields) { .host = "host", .program = "prog", .msghdr = "prog: ", .message = "m" });
  sl_message_unref (msg);
  msg = parse ("<13>Feb  3 12:34:57 host prog: m", TRUE);
  assert_stamp (msg, 2026, 2, 3, 12, 34, 57, 0, CET);
  sl_message_unref (msg);
}

static void
test_rfc3164_year_guess (void)
{
  SlTime new_year = { utc_usec (2026, 1, 1, 0, 0, 5), CET };
  SlTime new_years_eve = { utc_usec (2026, 12, 31, 22, 59, 50), CET };
  SlTime march = { utc_usec (2026, 3, 10, 12, 0, 0), CET };

  g_assert_cmpint (parse_year ("<13>Dec 31 23:59:59 host prog: m", &new_year), ==, 2025);
  g_assert_cmpint (parse_year ("<13>Jan  1 00:00:01 host prog: m", &new_year), ==, 2026);
  g_assert_cmpint (parse_year ("<13>Jan  1 00:00:01 host prog: m", &new_years_eve), ==, 2027);
  g_assert_cmpint (parse_year ("<13>Apr  1 00:00:01 host prog: m", &march), ==, 2026);
  /* only December read in January and January read in December change
   * the year, as syslog-ng guesses */
  g_assert_cmpint (parse_year ("<13>May  1 00:00:01 host prog: m", &march), ==, 2026);

  static const gchar *const months[] = {
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  };
  for (guint m = 2; m <= 11; m++)
    {
      gchar *line = g_strdup_printf ("<13>%s  1 00:00:00 host prog: m", months[m - 1]);
      g_assert_cmpint (parse_year (line, &march), ==, 2026);
      g_free (line);
    }
}

static void
test_rfc3164_hostnames (void)
{
  SlMessage *msg = parse ("<13>Feb  3 12:34:56 fe80::1 prog: over IPv6", TRUE);
  assert_fields (msg, &(Fields) { .host = "fe80::1", .program = "prog", .msghdr = "prog: ",
                                  .message = "over IPv6" });
  sl_message_unref (msg);

  msg = parse ("<13>Feb  3 12:34:56 web-01.example_net prog: m", TRUE);
  assert_field (msg, SL_F_HOST, "web-01.example_net");
  sl_message_unref (msg);

  /* a colon in a word that is no IPv6 address makes it a tag */
  msg = parse ("<13>Feb  3 12:34:56 app:x text", TRUE);
  assert_fields (msg, &(Fields) { .program = "app", .msghdr = "app:", .message = "x text" });
  sl_message_unref (msg);

  /* a tag of hex letters reads as IPv6, as syslog-ng reads it */
  msg = parse ("<13>Feb  3 12:34:56 dead: beef", TRUE);
  assert_fields (msg, &(Fields) { .host = "dead:", .program = "beef", .msghdr = "beef", .message = "" });
  sl_message_unref (msg);

  msg = parse ("<13>Feb  3 12:34:56 user@host prog: m", TRUE);
  assert_fields (msg, &(Fields) { .host = "user@host", .program = "prog", .msghdr = "prog: ",
                                  .message = "m" });
  sl_message_unref (msg);

  msg = parse ("<13>Feb  3 12:34:56 fe80::1%eth0 prog: zone", TRUE);
  assert_field (msg, SL_F_HOST, "fe80::1%eth0");
  sl_message_unref (msg);
}

static void
test_rfc3164_device_quirks (void)
{
  SlMessage *msg = parse ("<189>Feb  3 12:34:56: %SYS-5-CONFIG_I: Configured from console", TRUE);
  g_assert_cmpint (msg->pri, ==, 189);
  assert_stamp (msg, 2026, 2, 3, 12, 34, 56, 0, CET);
  assert_fields (msg, &(Fields) { .program = "%SYS-5-CONFIG_I", .msghdr = "%SYS-5-CONFIG_I: ",
                                  .message = "Configured from console" });
  sl_message_unref (msg);

  msg = parse ("<189>123: *Mar  1 00:04:12.123: %LINK-3-UPDOWN: up", TRUE);
  assert_sdata (msg, ".SDATA.meta.sequenceId", "123");
  assert_sdata (msg, ".SDATA.timeQuality.isSynced", "0");
  assert_fields (msg, &(Fields) { .program = "%LINK-3-UPDOWN", .msghdr = "%LINK-3-UPDOWN: ", .message = "up" });
  sl_message_unref (msg);

  msg = parse ("<13>Feb  3 12:34:56 Message forwarded from aix1: prog[1]: m", TRUE);
  assert_fields (msg, &(Fields) { .host = "aix1", .program = "prog", .pid = "1", .msghdr = "prog[1]: ",
                                  .message = "m" });
  sl_message_unref (msg);

  msg = parse ("<13>Feb  3 12:34:56 last message repeated 3 times", TRUE);
  assert_fields (msg, &(Fields) { .message = "last message repeated 3 times" });
  sl_message_unref (msg);
}

/* syslog-ng reads any number of digits and keeps 8 bits of them here;
 * anything else than a digit before '>' is a parse error. */
static void
test_rfc3164_bad_pri (void)
{
  SlMessage *msg = parse ("<999>", TRUE);
  g_assert_cmpint (msg->pri, ==, 999 & 255);
  assert_stamp_is_recvd (msg);
  assert_fields (msg, &(Fields) { .program = "", .msghdr = "", .message = "" });
  sl_message_unref (msg);

  msg = parse ("<192>Feb  3 12:34:56 host prog: m", TRUE);
  g_assert_cmpint (msg->pri, ==, 192);
  assert_fields (msg, &(Fields) { .host = "host", .program = "prog", .msghdr = "prog: ", .message = "m" });
  sl_message_unref (msg);

  msg = parse ("<0034>Feb  3 12:34:56 host prog: m", TRUE);
  g_assert_cmpint (msg->pri, ==, 34);
  sl_message_unref (msg);

  msg = parse ("<0>Feb  3 12:34:56 host kernel: m", TRUE);
  g_assert_cmpint (msg->pri, ==, 0);
  assert_field (msg, SL_F_HOST, "host");
  sl_message_unref (msg);

  msg = parse ("<>x", TRUE);
  g_assert_cmpint (msg->pri, ==, 0);
  assert_fields (msg, &(Fields) { .program = "x", .msghdr = "x", .message = "" });
  sl_message_unref (msg);

  msg = parse ("", TRUE);
  g_assert_cmpint (msg->pri, ==, 13);
  assert_stamp_is_recvd (msg);
  assert_fields (msg, &(Fields) { .program = "", .msghdr = "", .message = "" });
  sl_message_unref (msg);

  msg = parse ("<1a>Feb  3 12:34:56 host prog: m", FALSE);
  g_assert_cmpint (msg->pri, ==, SL_PRI_MAKE (5, 3));
  assert_field (msg, SL_F_PROGRAM, "syslog-ng");
  assert_field (msg, SL_F_MESSAGE, "Error processing log message: <1a>Feb  3 12:34:56 host prog: m");
  sl_message_unref (msg);
}

/* RFC 5424 */

static void
test_rfc5424_logger (void)
{
  SlMessage *msg = parse ("<13>1 2026-11-29T20:25:57.123456+00:00 myhost user - - "
                          "[timeQuality tzKnown=\"1\" isSynced=\"0\"] hello", TRUE);
  g_assert_cmpint (msg->pri, ==, 13);
  assert_stamp (msg, 2026, 11, 29, 20, 25, 57, 123456, 0);
  assert_fields (msg, &(Fields) { .host = "myhost", .program = "user", .message = "hello" });
  assert_sdata (msg, ".SDATA.timeQuality.tzKnown", "1");
  assert_sdata (msg, ".SDATA.timeQuality.isSynced", "0");
  assert_sdata (msg, ".SDATA.timeQuality", NULL);
  sl_message_unref (msg);
}

static void
test_rfc5424_rfc_example (void)
{
  SlMessage *msg = parse ("<165>1 2003-10-11T22:14:15.003Z mymachine.example.com evntslog - ID47 "
                          "[exampleSDID@32473 iut=\"3\" eventSource=\"Application\" eventID=\"1011\"]"
                          "[examplePriority@32473 class=\"high\"] "
                          "\xEF\xBB\xBF" "An application event log entry...", TRUE);
  g_assert_cmpint (msg->pri, ==, 165);
  assert_stamp (msg, 2003, 10, 11, 22, 14, 15, 3000, 0);
  assert_fields (msg, &(Fields) { .host = "mymachine.example.com", .program = "evntslog",
                                  .msgid = "ID47",
                                  .message = "An application event log entry..." });
  assert_sdata (msg, ".SDATA.exampleSDID@32473.iut", "3");
  assert_sdata (msg, ".SDATA.exampleSDID@32473.eventSource", "Application");
  assert_sdata (msg, ".SDATA.exampleSDID@32473.eventID", "1011");
  assert_sdata (msg, ".SDATA.examplePriority@32473.class", "high");
  sl_message_unref (msg);

  msg = parse ("<34>1 2003-10-11T22:14:15.003-07:00 host su 8710 ID47 - 'su root' failed", TRUE);
  g_assert_cmpint (msg->pri, ==, 34);
  assert_stamp (msg, 2003, 10, 11, 22, 14, 15, 3000, -7 * 3600);
  assert_fields (msg, &(Fields) { .host = "host", .program = "su", .pid = "8710", .msgid = "ID47",
                                  .message = "'su root' failed" });
  sl_message_unref (msg);
}

static void
test_rfc5424_nil_values (void)
{
  SlMessage *msg = parse ("<14>1 - - - - - -", TRUE);
  g_assert_cmpint (msg->pri, ==, 14);
  assert_stamp_is_recvd (msg);
  assert_fields (msg, &(Fields) { .message = "" });
  sl_message_unref (msg);

  msg = parse ("<14>1 - - - - - - just text", TRUE);
  assert_stamp_is_recvd (msg);
  assert_fields (msg, &(Fields) { .message = "just text" });
  sl_message_unref (msg);

  msg = parse ("<14>1 - -host -app -1 -id - m", TRUE);
  assert_fields (msg, &(Fields) { .host = "-host", .program = "-app", .pid = "-1", .msgid = "-id",
                                  .message = "m" });
  sl_message_unref (msg);

  msg = parse ("<14>1 2026-02-03T12:34:56Z host app 1 id [id]", TRUE);
  assert_fields (msg, &(Fields) { .host = "host", .program = "app", .pid = "1", .msgid = "id",
                                  .message = "" });
  assert_sdata (msg, ".SDATA.id", "");
  sl_message_unref (msg);

  /* a line that ends with the space before MSG has an empty one */
  msg = parse ("<14>1 - - - - - - ", TRUE);
  assert_fields (msg, &(Fields) { .message = "" });
  sl_message_unref (msg);
}

static void
test_rfc5424_sd_escapes (void)
{
  SlMessage *msg = parse ("<13>1 - - - - - [esc quote=\"say \\\"hi\\\"\" back=\"a\\\\b\" "
                          "bracket=\"[x\\]\" other=\"keep\\n\" plain=\"as is\" empty=\"\"] m", TRUE);
  assert_sdata (msg, ".SDATA.esc.quote", "say \"hi\"");
  assert_sdata (msg, ".SDATA.esc.back", "a\\b");
  assert_sdata (msg, ".SDATA.esc.bracket", "[x]");
  assert_sdata (msg, ".SDATA.esc.other", "keep\\n");
  assert_sdata (msg, ".SDATA.esc.plain", "as is");
  assert_sdata (msg, ".SDATA.esc.empty", "");
  assert_slice (msg, sl_field_handle (".SDATA.esc.plain"));
  assert_field (msg, SL_F_MESSAGE, "m");
  sl_message_unref (msg);

  msg = parse ("<13>1 - - - - - [a x=\"1\"][b y=\"2\"][a z=\"3\"]", TRUE);
  assert_sdata (msg, ".SDATA.a.x", "1");
  assert_sdata (msg, ".SDATA.b.y", "2");
  assert_sdata (msg, ".SDATA.a.z", "3");
  sl_message_unref (msg);

  msg = parse ("<13>1 - - - - - [a x=\"ends in backslash\\\\\"] m", TRUE);
  assert_sdata (msg, ".SDATA.a.x", "ends in backslash\\");
  sl_message_unref (msg);

  /* past the first 16 bytes of a value, which are read 16 at a time */
  msg = parse ("<13>1 - - - - - [a x=\"sixteen bytes in: \\\"quoted\\\" \\] and \\\\\" y=\"0123456789abcdefg\"] m", TRUE);
  assert_sdata (msg, ".SDATA.a.x", "sixteen bytes in: \"quoted\" ] and \\");
  assert_sdata (msg, ".SDATA.a.y", "0123456789abcdefg");
  sl_message_unref (msg);
}

static void
test_rfc5424_bom (void)
{
  SlMessage *msg = parse ("<13>1 - - - - - - \xEF\xBB\xBF" "caf\xC3\xA9", TRUE);
  assert_field (msg, SL_F_MESSAGE, "caf\xC3\xA9");
  sl_message_unref (msg);

  /* only a BOM right at the start of MSG is one */
  msg = parse ("<13>1 - - - - - -  \xEF\xBB\xBF", TRUE);
  assert_field (msg, SL_F_MESSAGE, " \xEF\xBB\xBF");
  sl_message_unref (msg);
}

/* syslog-ng's error record, quoting the line with ">@<" where parsing
 * stopped (error_at bytes in, 0 for none). */
static void
assert_parse_error (const gchar *line, gsize error_at)
{
  SlMessage *msg = parse (line, FALSE);
  g_assert_cmpint (msg->pri, ==, SL_PRI_MAKE (5, 3));
  g_autofree gchar *expected = error_at
    ? g_strdup_printf ("Error processing log message: %.*s>@<%s", (int) error_at - 1, line, line + error_at - 1)
    : g_strdup_printf ("Error processing log message: %s", line);
  assert_field (msg, SL_F_MESSAGE, expected);
  assert_field (msg, SL_F_PROGRAM, "syslog-ng");
  assert_field (msg, SL_F_HOST, "");
  assert_stamp_is_recvd (msg);
  g_assert_true (msg->flags & SL_MSG_LOCAL);
  sl_message_unref (msg);
}

static void
test_rfc5424_malformed (void)
{
  static const gchar *const lines[] = {
    "<13>1 - - - - - [id a=\"b\"",
    "<13>1 - - - - - [id a=\"b]",
    "<13>1 - - - - - [id a=b]",
    "<13>1 - - - - - [id a]",
    "<13>1 - - - - - [id  a=\"b\"]",
    "<13>1 - - - - - []",
    "<13>1 - - - - - [id=x]",
    "<13>1 - - - - - [id a=\"b\"]m",
    "<13>1 - - - - - x",
    "<13>1 - - - - -x",
    "<13>1 - - - - ",
    "<13>1 2026-02-03T12:34:56+1:00 host app - - - m",
    "<13>1 Feb  3 12:34:56 host app - - - m",
    "<165>1 -",
  };
  for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
    {
      SlMessage *msg = parse (lines[i], FALSE);
      g_assert_true (g_str_has_prefix (sl_message_get (msg, SL_F_MESSAGE, NULL), "Error processing log message: "));
      sl_message_unref (msg);
    }
  assert_parse_error ("<13>1 - - - - - [id a=\"b\"]m", 26);
  assert_parse_error ("<13>1 - - - - - [id a=\"b]\"]", 25);
  assert_parse_error ("<13>1 - - - - - [id a=\"0123456789abcdef\\\"]\"]", 42);
  assert_parse_error ("<13>1 - - - - - [id a=\"0123456789abcdef\\", 40);
  assert_parse_error ("<13>1 yesterday host app - - - m", 6);

  /* syslog-ng takes SD-NAMEs longer than 32, a space for the T and an
   * empty APP-NAME */
  SlMessage *msg = parse ("<13>1 - - - - - [abcdefghijabcdefghijabcdefghijabcdefghij x=\"1\"]", TRUE);
  assert_sdata (msg, ".SDATA.abcdefghijabcdefghijabcdefghijabcdefghij.x", "1");
  sl_message_unref (msg);
  msg = parse ("<13>1 2026-02-03 12:34:56Z host app - - - m", TRUE);
  assert_stamp (msg, 2026, 2, 3, 12, 34, 56, 0, 0);
  sl_message_unref (msg);
  msg = parse ("<13>1 - host  app - - m", TRUE);
  assert_fields (msg, &(Fields) { .host = "host", .program = "", .pid = "app", .message = "m" });
  sl_message_unref (msg);

  /* the header fields are cut to RFC 5424's lengths */
  msg = parse ("<13>1 - host abcdefghijabcdefghijabcdefghijabcdefghijabcdefghij - "
               "abcdefghijabcdefghijabcdefghijabcdefghij - m", TRUE);
  assert_field (msg, SL_F_PROGRAM, "abcdefghijabcdefghijabcdefghijabcdefghijabcdefgh");
  assert_field (msg, SL_F_MSGID, "abcdefghijabcdefghijabcdefghijab");
  sl_message_unref (msg);
}

/* Each thread remembers the handles of the names it read (sd-names.c): a
 * name seen before must give the same fields, and a line in error the
 * same place of error, as the first time; so must many ids, more than
 * are remembered at once. */
static void
test_rfc5424_sd_names_remembered (void)
{
  for (guint round = 0; round < 2; round++)
    {
      SlMessage *msg = parse ("<13>1 - - - - - [origin ip=\"10.0.0.1\" zone=\"eu\"][meta tier=\"gold\"] m", TRUE);
      assert_sdata (msg, ".SDATA.origin.ip", "10.0.0.1");
      assert_sdata (msg, ".SDATA.origin.zone", "eu");
      assert_sdata (msg, ".SDATA.meta.tier", "gold");
      sl_message_unref (msg);
      /* the same param names under another element are its own */
      msg = parse ("<13>1 - - - - - [meta ip=\"x\"][origin tier=\"y\"] m", TRUE);
      assert_sdata (msg, ".SDATA.meta.ip", "x");
      assert_sdata (msg, ".SDATA.origin.tier", "y");
      sl_message_unref (msg);

      /* a remembered name followed by what no name has */
      assert_parse_error ("<13>1 - - - - - [origin ip zone=\"eu\"] m", 26);
      assert_parse_error ("<13>1 - - - - - [origin ip", 26);
      assert_parse_error ("<13>1 - - - - - [origin ip\"=\"1\"] m", 26);
      assert_parse_error ("<13>1 - - - - - [origin\" ip=\"1\"] m", 23);
      assert_parse_error ("<13>1 - - - - - [origin", 23);
    }

  /* names that do not fit in 255 bytes with .SDATA. and the dot: where
   * the first byte too many is, as syslog-ng */
  g_autofree gchar *id = g_strnfill (300, 'i');
  g_autofree gchar *long_id = g_strdup_printf ("<13>1 - - - - - [%s a=\"1\"] m", id);
  g_autofree gchar *long_param = g_strdup_printf ("<13>1 - - - - - [origin %s=\"1\"] m", id);
  for (guint round = 0; round < 2; round++)
    {
      assert_parse_error (long_id, 17 + 248);
      assert_parse_error (long_param, 24 + 241);
    }

  for (guint round = 0; round < 2; round++)
    for (guint i = 0; i < 500; i++)
      {
        g_autofree gchar *line = g_strdup_printf ("<13>1 - - - - - [e%u k=\"%u\" l=\"%u\"] m", i, i, round);
        g_autofree gchar *k = g_strdup_printf (".SDATA.e%u.k", i);
        g_autofree gchar *l = g_strdup_printf (".SDATA.e%u.l", i);
        g_autofree gchar *k_value = g_strdup_printf ("%u", i);
        g_autofree gchar *l_value = g_strdup_printf ("%u", round);
        SlMessage *msg = parse (line, TRUE);
        assert_sdata (msg, k, k_value);
        assert_sdata (msg, l, l_value);
        sl_message_unref (msg);
      }
}

/* Every prefix of a valid line, with the rest of the line still in memory
 * after raw_len: reading past the end would find it and change the result,
 * so each prefix must parse as the same bytes alone do. */
static void
check_every_prefix (const gchar *line, gboolean syslog_protocol)
{
  SlParseOptions options = default_options ();
  options.syslog_protocol = syslog_protocol;
  gsize full = strlen (line);

  for (gsize len = 0; len <= full; len++)
    {
      SlMessage *msg = sl_message_new (line, full);
      msg->raw_len = len;
      msg->recvd = default_recvd;
      gboolean ok = format_class->ops.format->parse (msg, &options);
      gchar *alone_text = g_strndup (line, len);
      SlMessage *alone = sl_message_new (alone_text, len);
      alone->recvd = default_recvd;
      gboolean alone_ok = format_class->ops.format->parse (alone, &options);

      g_assert_cmpint (ok, ==, alone_ok);
      g_assert_cmpint (!!(msg->flags & SL_MSG_PARSE_ERROR), ==, !ok);
      g_assert_cmpint (msg->pri, ==, alone->pri);
      for (SlHandle field = SL_F_NONE + 1; field < SL_F_BUILTIN_MAX; field++)
        {
          gsize a_len, b_len;
          const gchar *a = sl_message_get (msg, field, &a_len);
          const gchar *b = sl_message_get (alone, field, &b_len);
          g_assert_cmpint (!a, ==, !b);
          if (a && field != SL_F_PID)
            g_assert_cmpmem (a, a_len, b, b_len);
        }
      sl_message_unref (alone);
      g_free (alone_text);
      sl_message_unref (msg);
    }
}

static void
test_truncated_lines (void)
{
  check_every_prefix ("<13>1 2026-11-29T20:25:57.123456+00:00 myhost user 42 ID7 "
                      "[timeQuality tzKnown=\"1\" isSynced=\"0\" e=\"a\\\"b\"] hello", TRUE);
  check_every_prefix ("<34>Feb  3 12:34:56 2026 myhost su[1234]: 'su root' failed", FALSE);
  check_every_prefix ("<189>123: *Mar  1 00:04:12.123: %LINK-3-UPDOWN: up", FALSE);
}

/* Random lines made of the characters the grammar cares about. */
static void
test_random_lines (void)
{
  static const gchar alphabet[] = "<>0123456789 -:.[]\"\\=TZ+FebJanDcx\xEF\xBB\xBF";
  SlParseOptions options = default_options ();
  gchar line[80];

  for (guint round = 0; round < 20000; round++)
    {
      gsize len = g_test_rand_int_range (0, sizeof line);
      for (gsize i = 0; i < len; i++)
        line[i] = alphabet[g_test_rand_int_range (0, sizeof alphabet - 1)];
      if (len >= 6 && round % 2)
        memcpy (line, "<13>1 ", 6);
      options.syslog_protocol = round % 3 == 0;
      gboolean ok;
      SlMessage *msg = parse_with (line, len, &options, &default_recvd, &ok);
      g_assert_cmpint (!!(msg->flags & SL_MSG_PARSE_ERROR), ==, !ok);
      g_assert_true (sl_message_has (msg, SL_F_MESSAGE));
      sl_message_unref (msg);
    }
}

/* Options of the format */

/* flags(no-hostname), as on a local socket: the word after the stamp is
 * the program even when it reads as a host name */
static void
test_no_hostname (void)
{
  SlParseOptions options = default_options ();
  gboolean ok;

  options.no_hostname = TRUE;
  SlMessage *msg = parse_with ("<13>Dec  1 10:00:00 a: plain", 28, &options, &default_recvd, &ok);
  g_assert_true (ok);
  assert_field (msg, SL_F_HOST, NULL);
  assert_field (msg, SL_F_PROGRAM, "a");
  assert_field (msg, SL_F_MESSAGE, "plain");
  sl_message_unref (msg);
}

static void
test_no_parse (void)
{
  SlParseOptions options = default_options ();
  options.no_parse = TRUE;
  options.default_pri = 30;
  const gchar *line = "<34>Feb  3 12:34:56 myhost su[1234]: text";
  gboolean ok;
  SlMessage *msg = parse_with (line, strlen (line), &options, &default_recvd, &ok);

  g_assert_true (ok);
  g_assert_cmpint (msg->pri, ==, 30);
  assert_stamp_is_recvd (msg);
  assert_fields (msg, &(Fields) { .message = line });
  sl_message_unref (msg);
}

static void
test_store_raw (void)
{
  SlParseOptions options = default_options ();
  options.store_raw = TRUE;
  const gchar *line = "<34>Feb  3 12:34:56 myhost su[1234]: text";
  gboolean ok;
  SlMessage *msg = parse_with (line, strlen (line), &options, &default_recvd, &ok);

  g_assert_true (ok);
  assert_field (msg, SL_F_RAWMSG, line);
  assert_slice (msg, SL_F_RAWMSG);
  assert_field (msg, SL_F_MESSAGE, "text");
  sl_message_unref (msg);

  /* syslog-ng's error record stands for a line that does not parse */
  line = "<13>1 - - - - - [broken";
  options.syslog_protocol = TRUE;
  msg = parse_with (line, strlen (line), &options, &default_recvd, &ok);
  g_assert_false (ok);
  assert_field (msg, SL_F_PROGRAM, "syslog-ng");
  sl_message_unref (msg);

  options.no_parse = TRUE;
  msg = parse_with (line, strlen (line), &options, &default_recvd, &ok);
  g_assert_true (ok);
  assert_field (msg, SL_F_RAWMSG, line);
  assert_field (msg, SL_F_MESSAGE, line);
  sl_message_unref (msg);
}

static void
test_syslog_protocol (void)
{
  SlParseOptions options = default_options ();
  options.syslog_protocol = TRUE;
  gboolean ok;

  const gchar *line = "<13>1 - host app - - - m";
  SlMessage *msg = parse_with (line, strlen (line), &options, &default_recvd, &ok);
  g_assert_true (ok);
  assert_fields (msg, &(Fields) { .host = "host", .program = "app", .message = "m" });
  sl_message_unref (msg);

  /* a line without "<PRI>1 " is read as RFC 3164, as syslog-ng falls back */
  line = "<13>Feb  3 12:34:56 host prog: m";
  msg = parse_with (line, strlen (line), &options, &default_recvd, &ok);
  g_assert_true (ok);
  assert_fields (msg, &(Fields) { .host = "host", .program = "prog", .msghdr = "prog: ", .message = "m" });
  sl_message_unref (msg);
  line = "<13>2 - host app - - - m";
  msg = parse_with (line, strlen (line), &options, &default_recvd, &ok);
  g_assert_true (ok);
  assert_field (msg, SL_F_PROGRAM, "2");
  sl_message_unref (msg);

  /* without the flag a well-formed RFC 5424 line is RFC 3164, as syslog-ng
   * reads it: program "1", the header in the message */
  msg = parse_with ("<13>1 - host app - - - m", 24, &(SlParseOptions) { .default_pri = 13 },
                    &default_recvd, &ok);
  g_assert_true (ok);
  assert_fields (msg, &(Fields) { .program = "1", .msghdr = "1 ", .message = "- host app - - - m" });
  sl_message_unref (msg);

  /* flags(detect-syslog-protocol) reads it as RFC 5424, a broken one as
   * RFC 3164 */
  msg = parse_with ("<13>1 - host app - - - m", 24,
                    &(SlParseOptions) { .default_pri = 13, .detect_syslog_protocol = TRUE }, &default_recvd, &ok);
  g_assert_true (ok);
  assert_fields (msg, &(Fields) { .host = "host", .program = "app", .message = "m" });
  sl_message_unref (msg);
  msg = parse_with ("<13>1 - host app - - [x", 23,
                    &(SlParseOptions) { .default_pri = 13, .detect_syslog_protocol = TRUE }, &default_recvd, &ok);
  g_assert_true (ok);
  assert_fields (msg, &(Fields) { .program = "1", .msghdr = "1 ", .message = "- host app - - [x" });
  sl_message_unref (msg);

  /* no-rfc3164-fallback keeps the strict reading: such a line fails */
  options.no_rfc3164_fallback = TRUE;
  line = "<13>Feb  3 12:34:56 host prog: m";
  msg = parse_with (line, strlen (line), &options, &default_recvd, &ok);
  g_assert_false (ok);
  sl_message_unref (msg);
  options.no_rfc3164_fallback = FALSE;

  /* without the flag a version other than 1 is read as RFC 3164 */
  msg = parse ("<13>2 - host app - - - m", TRUE);
  assert_fields (msg, &(Fields) { .program = "2", .msghdr = "2 ", .message = "- host app - - - m" });
  sl_message_unref (msg);
  msg = parse ("<13>12 x", TRUE);
  assert_fields (msg, &(Fields) { .program = "12", .msghdr = "12 ", .message = "x" });
  sl_message_unref (msg);
}

/* Under @version: 4.x, as syslog-ng 4.8 reads (the differential test
 * compares with 4.8 itself): syslog.* tags, a bad PRI read as a message,
 * an octet count skipped; the same lines untagged under 3.x */
static void
test_syslog_ng_4 (void)
{
  SlParseOptions v4 = { .default_pri = 13, .syslog_ng_4 = TRUE };
  SlParseOptions v4_proto = { .default_pri = 13, .syslog_ng_4 = TRUE, .syslog_protocol = TRUE };
  gboolean ok;

  SlMessage *msg = parse_with ("app: no stamp", 13, &v4, &default_recvd, &ok);
  g_assert_true (ok);
  g_assert_true (sl_message_has_tag_id (msg, SL_TAG_SYSLOG_MISSING_PRI));
  g_assert_true (sl_message_has_tag_id (msg, SL_TAG_SYSLOG_MISSING_TIMESTAMP));
  g_assert_true (sl_message_has_tag_id (msg, SL_TAG_SYSLOG_RFC3164_MISSING_HEADER));
  g_assert_cmpstr (sl_tag_name (SL_TAG_SYSLOG_RFC3164_MISSING_HEADER), ==, "syslog.rfc3164_missing_header");
  sl_message_unref (msg);

  msg = parse_with ("<1x3>text", 9, &v4, &default_recvd, &ok);
  g_assert_true (ok);
  g_assert_true (sl_message_has_tag_id (msg, SL_TAG_SYSLOG_INVALID_PRI));
  g_assert_cmpint (msg->pri, ==, 13);
  assert_fields (msg, &(Fields) { .message = "<1x3>text" });
  sl_message_unref (msg);

  /* "1 " is an octet count, so no RFC 5424 version follows a missing PRI */
  const gchar *line = "1 2026-02-03T12:34:56Z host app 1 - - m";
  msg = parse_with (line, strlen (line), &v4_proto, &default_recvd, &ok);
  g_assert_true (ok);
  g_assert_true (sl_message_has_tag_id (msg, SL_TAG_SYSLOG_UNEXPECTED_FRAMING));
  assert_fields (msg, &(Fields) { .host = "host", .program = "app", .msghdr = "app ", .message = "1 - - m" });
  sl_message_unref (msg);

  msg = parse_with ("<13>1 - - - - - -", 17, &v4_proto, &default_recvd, &ok);
  g_assert_true (ok);
  g_assert_true (sl_message_has_tag_id (msg, SL_TAG_SYSLOG_MISSING_TIMESTAMP));
  sl_message_unref (msg);

  /* an unquoted param value; a day without its padding */
  line = "<13>1 2026-02-03T12:34:56Z host app 1 - [a@1 x=1 y=\"2\"] m";
  msg = parse_with (line, strlen (line), &v4_proto, &default_recvd, &ok);
  g_assert_true (ok);
  gsize len = 0;
  const gchar *value = sl_message_get (msg, sl_field_handle (".SDATA.a@1.x"), &len);
  g_assert_cmpmem (value, len, "1", 1);
  assert_fields (msg, &(Fields) { .host = "host", .program = "app", .pid = "1", .message = "m" });
  sl_message_unref (msg);
  line = "<13>Feb 3 12:34:56 host prog: m";
  msg = parse_with (line, strlen (line), &v4, &default_recvd, &ok);
  g_assert_true (ok);
  assert_fields (msg, &(Fields) { .host = "host", .program = "prog", .msghdr = "prog: ", .message = "m" });
  sl_message_unref (msg);

  /* 3.x: 3.38's reading, nothing tagged */
  msg = parse_with ("<1x3>text", 9, &(SlParseOptions) { .default_pri = 13 }, &default_recvd, &ok);
  g_assert_false (ok);
  g_assert_false (sl_message_has_tag_id (msg, SL_TAG_SYSLOG_INVALID_PRI));
  sl_message_unref (msg);
}

/* syslog-parser() */

typedef SlTestDriver ParserFixture;

/* flags NULL-terminated or NULL; template NULL for the default. */
static gboolean
parser_new (ParserFixture *f, const gchar *const *flags, const gchar *template, GError **error)
{
  GString *text = g_string_new ("syslog-parser(");
  if (flags)
    {
      gchar *words = g_strjoinv (" ", (gchar **) flags);
      g_string_append_printf (text, " flags(%s)", words);
      g_free (words);
    }
  if (template)
    g_string_append_printf (text, " template(\"%s\")", template);
  g_string_append_c (text, ')');
  gboolean ok = sl_test_driver_new (f, SL_DRIVER_PARSER, NULL, text->str, error);
  g_string_free (text, TRUE);
  return ok;
}

static void
parser_free (ParserFixture *f)
{
  sl_test_driver_free (f);
}

static SlMessage *
wrapped_message (const gchar *outer, const gchar *inner)
{
  SlMessage *msg = sl_message_new (outer, strlen (outer));
  msg->recvd = default_recvd;
  msg->stamp = default_recvd;
  sl_message_set_slice (msg, SL_F_HOST_FROM, msg->raw, 5);
  sl_message_set (msg, SL_F_MESSAGE, inner, -1);
  return msg;
}

static void
test_parser_rfc3164 (void)
{
  ParserFixture f;
  g_assert_true (parser_new (&f, NULL, NULL, NULL));

  SlMessage *msg = wrapped_message ("relay text", "<34>Feb  3 12:34:56 myhost su[1234]: failed");
  sl_message_set (msg, SL_F_MSGID, "outer", -1);
  SlMessage *shared = sl_message_ref (msg);
  g_assert_true (parser_class->ops.parser->process (f.driver, &msg));

  /* the shared message was copied, not changed */
  g_assert_true (msg != shared);
  assert_field (shared, SL_F_MESSAGE, "<34>Feb  3 12:34:56 myhost su[1234]: failed");
  assert_field (shared, SL_F_HOST, NULL);
  sl_message_unref (shared);

  g_assert_cmpint (msg->pri, ==, 34);
  assert_stamp (msg, 2026, 2, 3, 12, 34, 56, 0, CET);
  g_assert_cmpint (msg->recvd.usec, ==, default_recvd.usec);
  assert_fields (msg, &(Fields) { .host = "myhost", .program = "su", .pid = "1234",
                                  .msghdr = "su[1234]: ", .message = "failed" });
  assert_field (msg, SL_F_HOST_FROM, "relay");
  sl_message_unref (msg);
  parser_free (&f);
}

static void
test_parser_rfc5424 (void)
{
  ParserFixture f;
  g_assert_true (parser_new (&f, (const gchar *[]) { "syslog-protocol", NULL }, "$MSG", NULL));

  SlMessage *msg = wrapped_message ("relay text", "<165>1 2003-10-11T22:14:15.003Z inner app - ID1 "
                                    "[meta a=\"x\\\"y\"] body");
  sl_message_set (msg, SL_F_HOST, "relay", -1);
  sl_message_set (msg, SL_F_PID, "99", -1);
  sl_message_set (msg, SL_F_LEGACY_MSGHDR, "fwd[99]: ", -1);
  g_assert_true (parser_class->ops.parser->process (f.driver, &msg));

  g_assert_cmpint (msg->pri, ==, 165);
  assert_stamp (msg, 2003, 10, 11, 22, 14, 15, 3000, 0);
  /* the outer line's PID belongs to the relay, not to app */
  assert_field (msg, SL_F_PID, NULL);
  assert_field (msg, SL_F_LEGACY_MSGHDR, NULL);
  assert_field (msg, SL_F_HOST, "inner");
  assert_field (msg, SL_F_PROGRAM, "app");
  assert_field (msg, SL_F_MSGID, "ID1");
  assert_field (msg, SL_F_MESSAGE, "body");
  assert_sdata (msg, ".SDATA.meta.a", "x\"y");
  assert_field (msg, SL_F_HOST_FROM, "relay");
  sl_message_unref (msg);

  /* an inner line without a host keeps the outer one */
  msg = wrapped_message ("relay text", "<13>Feb  3 12:34:56 prog[1]: m");
  sl_message_set (msg, SL_F_HOST, "relay", -1);
  g_assert_true (parser_class->ops.parser->process (f.driver, &msg));
  assert_field (msg, SL_F_HOST, "relay");
  assert_field (msg, SL_F_PROGRAM, "prog");
  sl_message_unref (msg);
  parser_free (&f);
}

static void
test_parser_failure (void)
{
  ParserFixture f;
  const gchar *inner = "<13>Feb  3 12:34:56 host prog: m";

  /* syslog-protocol alone falls back to RFC 3164, as syslog-ng 3.38 does;
   * a broken RFC 5424 line fails and leaves the message alone */
  g_assert_true (parser_new (&f, (const gchar *[]) { "syslog-protocol", NULL }, NULL, NULL));
  SlMessage *msg = wrapped_message ("relay text", inner);
  g_assert_true (parser_class->ops.parser->process (f.driver, &msg));
  assert_field (msg, SL_F_PROGRAM, "prog");
  sl_message_unref (msg);
  const gchar *broken = "<13>1 - host app - - [broken";
  msg = wrapped_message ("relay text", broken);
  SlMessage *before = msg;
  g_assert_false (parser_class->ops.parser->process (f.driver, &msg));
  g_assert_true (msg == before);
  assert_field (msg, SL_F_MESSAGE, broken);
  sl_message_unref (msg);
  parser_free (&f);

  g_assert_true (parser_new (&f, (const gchar *[]) { "syslog-protocol", "no-rfc3164-fallback", NULL }, NULL, NULL));
  msg = wrapped_message ("relay text", inner);
  before = msg;
  g_assert_false (parser_class->ops.parser->process (f.driver, &msg));
  g_assert_true (msg == before);
  g_assert_cmpint (msg->flags & SL_MSG_PARSE_ERROR, ==, 0);
  assert_field (msg, SL_F_MESSAGE, inner);
  assert_field (msg, SL_F_HOST, NULL);
  assert_stamp_is_recvd (msg);
  sl_message_unref (msg);

  /* a message without MESSAGE is an empty line, which is no RFC 5424 one */
  msg = sl_message_new ("", 0);
  g_assert_false (parser_class->ops.parser->process (f.driver, &msg));
  sl_message_unref (msg);
  parser_free (&f);
}

/* syslog-ng's flags(no-header), as the cisco-parser() and
 * fortigate-parser() blocks use it: <PRI> and MESSAGE, nothing else. */
static void
test_parser_no_header (void)
{
  ParserFixture f;
  g_assert_true (parser_new (&f, (const gchar *[]) { "no-header", NULL }, "$MSG", NULL));

  SlMessage *msg = wrapped_message ("relay text", "<189>date=2021-01-15 time=12:58:59 devname=\"F\"");
  sl_message_set (msg, SL_F_PROGRAM, "outer", -1);
  g_assert_true (parser_class->ops.parser->process (f.driver, &msg));
  g_assert_cmpint (msg->pri, ==, 189);
  assert_field (msg, SL_F_MESSAGE, "date=2021-01-15 time=12:58:59 devname=\"F\"");
  assert_field (msg, SL_F_PROGRAM, "outer");
  assert_stamp_is_recvd (msg);
  sl_message_unref (msg);

  /* no <PRI>: the default one, and the text untouched, leading space too */
  msg = wrapped_message ("relay text", " Feb  3 12:34:56 host prog: m");
  msg->pri = 0;
  g_assert_true (parser_class->ops.parser->process (f.driver, &msg));
  g_assert_cmpint (msg->pri, ==, 13);
  assert_field (msg, SL_F_MESSAGE, " Feb  3 12:34:56 host prog: m");
  assert_field (msg, SL_F_HOST, NULL);
  sl_message_unref (msg);

  msg = sl_message_new ("", 0);
  g_assert_true (parser_class->ops.parser->process (f.driver, &msg));
  assert_field (msg, SL_F_MESSAGE, "");
  sl_message_unref (msg);
  parser_free (&f);
}

static void
test_parser_flags (void)
{
  ParserFixture f;
  g_assert_true (parser_new (&f, (const gchar *[]) { "no-parse", "store-raw-message",
                                                     "validate-utf8", NULL }, NULL, NULL));
  const gchar *inner = "<34>Feb  3 12:34:56 myhost su: caf\xC3";
  SlMessage *msg = wrapped_message ("relay text", inner);
  msg->pri = 0;
  g_assert_true (parser_class->ops.parser->process (f.driver, &msg));
  g_assert_cmpint (msg->pri, ==, 13);
  assert_field (msg, SL_F_MESSAGE, inner);
  assert_field (msg, SL_F_RAWMSG, inner);
  assert_field (msg, SL_F_PROGRAM, NULL);
  g_assert_true (msg->flags & SL_MSG_UTF8_BAD);
  sl_message_unref (msg);
  parser_free (&f);

  g_assert_true (parser_new (&f, (const gchar *[]) { "validate-utf8", NULL }, NULL, NULL));
  msg = wrapped_message ("relay text", "<34>Feb  3 12:34:56 myhost su: caf\xC3\xA9");
  g_assert_true (parser_class->ops.parser->process (f.driver, &msg));
  g_assert_cmpint (msg->flags & SL_MSG_UTF8_BAD, ==, 0);
  sl_message_unref (msg);
  msg = wrapped_message ("relay text", "<34>Feb  3 12:34:56 myhost su: caf\xC3");
  g_assert_true (parser_class->ops.parser->process (f.driver, &msg));
  g_assert_true (msg->flags & SL_MSG_UTF8_BAD);
  sl_message_unref (msg);
  parser_free (&f);

  /* assume-utf8 says the check is not wanted */
  g_assert_true (parser_new (&f, (const gchar *[]) { "validate-utf8", "assume-utf8", NULL }, NULL, NULL));
  msg = wrapped_message ("relay text", "<34>Feb  3 12:34:56 myhost su: caf\xC3");
  g_assert_true (parser_class->ops.parser->process (f.driver, &msg));
  g_assert_cmpint (msg->flags & SL_MSG_UTF8_BAD, ==, 0);
  sl_message_unref (msg);
  parser_free (&f);

  /* RFC 3164 unless told: an RFC 5424 line is read as syslog-ng reads it,
   * and as RFC 5424 with detect-syslog-protocol */
  const gchar *rfc5424 = "<34>1 - myhost su - - - m";
  g_assert_true (parser_new (&f, NULL, NULL, NULL));
  msg = wrapped_message ("relay text", rfc5424);
  g_assert_true (parser_class->ops.parser->process (f.driver, &msg));
  assert_field (msg, SL_F_PROGRAM, "1");
  sl_message_unref (msg);
  parser_free (&f);
  g_assert_true (parser_new (&f, (const gchar *[]) { "detect-syslog-protocol", NULL }, NULL, NULL));
  msg = wrapped_message ("relay text", rfc5424);
  g_assert_true (parser_class->ops.parser->process (f.driver, &msg));
  assert_field (msg, SL_F_PROGRAM, "su");
  assert_field (msg, SL_F_HOST, "myhost");
  sl_message_unref (msg);
  parser_free (&f);
}

static void
test_parser_check_hostname (void)
{
  const gchar *inner = "<13>1 - bad%host app - - - m";
  ParserFixture f;

  g_assert_true (parser_new (&f, (const gchar *[]) { "syslog-protocol", NULL }, NULL, NULL));
  SlMessage *msg = wrapped_message ("relay text", inner);
  g_assert_true (parser_class->ops.parser->process (f.driver, &msg));
  assert_field (msg, SL_F_HOST, "bad%host");
  sl_message_unref (msg);
  parser_free (&f);

  g_assert_true (parser_new (&f, (const gchar *[]) { "syslog-protocol", "check-hostname", NULL }, NULL, NULL));
  msg = wrapped_message ("relay text", inner);
  g_assert_false (parser_class->ops.parser->process (f.driver, &msg));
  sl_message_unref (msg);
  msg = wrapped_message ("relay text", "<13>1 - good-host.example app - - - m");
  g_assert_true (parser_class->ops.parser->process (f.driver, &msg));
  assert_field (msg, SL_F_HOST, "good-host.example");
  sl_message_unref (msg);
  parser_free (&f);
}

static void
test_parser_template (void)
{
  ParserFixture f;
  GError *error = NULL;

  g_assert_false (parser_new (&f, NULL, "$HOST $MSG", &error));
  g_assert_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE);
  g_assert_nonnull (strstr (error->message, "test.conf:1:27:"));
  g_assert_nonnull (strstr (error->message, "'$HOST $MSG'"));
  g_error_free (error);
  parser_free (&f);

  g_assert_true (parser_new (&f, NULL, "${MESSAGE}", NULL));
  parser_free (&f);
}

static void
test_parser_unknown_flag (void)
{
  ParserFixture f;
  GError *error = NULL;

  g_assert_false (parser_new (&f, (const gchar *[]) { "kernel", NULL }, NULL, &error));
  g_assert_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE);
  g_assert_nonnull (strstr (error->message, "unknown flag 'kernel' in flags(); expected any of: syslog-protocol, "
                                            "no-parse, store-raw-message, assume-utf8, validate-utf8, check-hostname"));
  g_error_free (error);
  parser_free (&f);
}

static void
test_module (void)
{
  g_assert_cmpint (sl_module.abi_version, ==, SL_ABI_VERSION);
  g_assert_cmpstr (sl_module.name, ==, "syslog");
  g_assert_nonnull (format_class);
  g_assert_cmpint (format_class->kind, ==, SL_DRIVER_FORMAT);
  g_assert_nonnull (format_class->ops.format->parse);
  g_assert_true (parser_class == &syslog_parser_class);
  g_assert_true (sl_plugins_lookup (SL_DRIVER_PARSER, "syslog_parser") == parser_class);

  gchar *help = sl_plugins_help (parser_class);
  g_assert_nonnull (strstr (help, "syslog-protocol, no-parse, store-raw-message"));
  g_assert_nonnull (strstr (help, "template(template) = ${MESSAGE}"));
  g_free (help);
}

static gchar *
render_sdata (const SlMessage *msg)
{
  SlTemplate *t = sl_template_compile ("$SDATA", NULL);
  GString *out = g_string_new (NULL);
  sl_template_append (t, msg, &sl_template_env_default, out);
  sl_template_unref (t);
  return g_string_free (out, FALSE);
}

/* Once a sender has filled the field-name registry, structured data with
 * new names is kept whole, so $SDATA still has all of it; names interned
 * before are still fields. Runs last: it fills the process's registry. */
static void
test_sdata_kept_when_names_full (void)
{
  SlHandle known = sl_field_handle (".SDATA.meta.known");
  SlCounter *refused = sl_stats_counter ("fields", "registry", "names", "refused");
  gint64 refused_before = sl_counter_get (refused);
  for (guint i = 0;; i++)
    {
      gchar name[64];
      g_snprintf (name, sizeof name, ".SDATA.fill.p%u", i);
      if (sl_field_handle (name) == SL_F_NONE)
        break;
    }

  static const gchar sd[] = "[meta known=\"1\" unknown=\"a\\\"b\"][new@1 x=\"y\"]";
  g_autofree gchar *line = g_strconcat ("<165>1 2003-10-11T22:14:15.003Z host app - ID1 ", sd, " body", NULL);
  SlMessage *msg = parse (line, TRUE);
  assert_field (msg, known, "1");
  assert_field (msg, SL_F_MESSAGE, "body");
  g_assert_cmpuint (msg->n_fields, ==, 1);
  gsize kept_len;
  const gchar *kept = sl_message_kept_sdata (msg, &kept_len);
  g_assert_true (kept > msg->raw && kept + kept_len < msg->raw + msg->raw_len);
  g_autofree gchar *rendered = render_sdata (msg);
  g_assert_cmpstr (rendered, ==, sd);
  g_assert_cmpint (sl_counter_get (refused), >, refused_before);

  /* a copy keeps it, rebased onto its own bytes */
  SlMessage *copy = sl_message_clone (msg);
  sl_message_unref (msg);
  g_autofree gchar *copied = render_sdata (copy);
  g_assert_cmpstr (copied, ==, sd);
  sl_message_unref (copy);

  /* syslog-parser() carries it over from the line it parsed */
  ParserFixture f;
  g_assert_true (parser_new (&f, (const gchar *[]) { "syslog-protocol", NULL }, NULL, NULL));
  msg = wrapped_message ("relay text", line);
  g_assert_true (parser_class->ops.parser->process (f.driver, &msg));
  assert_field (msg, known, "1");
  g_autofree gchar *reparsed = render_sdata (msg);
  g_assert_cmpstr (reparsed, ==, sd);
  sl_message_unref (msg);
  parser_free (&f);

  /* a message whose names all have handles is rendered from its fields */
  msg = parse ("<165>1 - host app - - [meta known=\"2\"] m", TRUE);
  g_assert_null (sl_message_kept_sdata (msg, &kept_len));
  g_autofree gchar *from_fields = render_sdata (msg);
  g_assert_cmpstr (from_fields, ==, "[meta known=\"2\"]");
  sl_message_unref (msg);
}

/* A param name with a dot: $SDATA written from the params parts id from
 * param at the last dot, as syslog-ng does; flags(sdata-as-received)
 * keeps the text as it came, as rsyslogd's %structured-data% */
static void
test_sdata_as_received (void)
{
  static const gchar line[] = "<165>1 - host app - - [a.b@1 x.y=\"1\" x=\"2\"] m";
  gboolean ok;
  SlParseOptions options = default_options ();
  options.syslog_protocol = TRUE;
  SlMessage *msg = parse_with (line, strlen (line), &options, &default_recvd, &ok);
  g_assert_true (ok);
  g_autofree gchar *rebuilt = render_sdata (msg);
  g_assert_cmpstr (rebuilt, ==, "[a.b@1.x y=\"1\"][a.b@1 x=\"2\"]");
  sl_message_unref (msg);

  options.sdata_as_received = TRUE;
  msg = parse_with (line, strlen (line), &options, &default_recvd, &ok);
  g_assert_true (ok);
  g_autofree gchar *received = render_sdata (msg);
  g_assert_cmpstr (received, ==, "[a.b@1 x.y=\"1\" x=\"2\"]");
  assert_field (msg, sl_field_handle (".SDATA.a.b@1.x.y"), "1");
  sl_message_unref (msg);
}

int
main (int argc, char **argv)
{
  g_setenv ("TZ", TEST_TZ, TRUE);
  tzset ();
  g_test_init (&argc, &argv, NULL);

  g_assert_true (sl_plugins_register (&sl_module, __FILE__, NULL));
  format_class = sl_plugins_lookup (SL_DRIVER_FORMAT, "syslog");
  parser_class = sl_plugins_lookup (SL_DRIVER_PARSER, "syslog-parser");

  g_test_add_func ("/syslog/module", test_module);
  g_test_add_func ("/syslog/rfc3164/full", test_rfc3164_full);
  g_test_add_func ("/syslog/syslog-ng-4", test_syslog_ng_4);
  g_test_add_func ("/syslog/rfc3164/without-pri", test_rfc3164_without_pri);
  g_test_add_func ("/syslog/rfc3164/glibc", test_rfc3164_glibc);
  g_test_add_func ("/syslog/rfc3164/stamp-memo", test_rfc3164_stamp_memo);
  g_test_add_func ("/syslog/rfc3164/logger", test_rfc3164_logger);
  g_test_add_func ("/syslog/rfc3164/no-tag", test_rfc3164_no_tag);
  g_test_add_func ("/syslog/rfc3164/no-timestamp", test_rfc3164_no_timestamp);
  g_test_add_func ("/syslog/rfc3164/iso-timestamp", test_rfc3164_iso_timestamp);
  g_test_add_func ("/syslog/rfc3164/year-forms", test_rfc3164_year_forms);
  g_test_add_func ("/syslog/rfc3164/day-forms", test_rfc3164_day_forms);
  g_test_add_func ("/syslog/rfc3164/year-guess", test_rfc3164_year_guess);
  g_test_add_func ("/syslog/rfc3164/hostnames", test_rfc3164_hostnames);
  g_test_add_func ("/syslog/rfc3164/device-quirks", test_rfc3164_device_quirks);
  g_test_add_func ("/syslog/rfc3164/bad-pri", test_rfc3164_bad_pri);
  g_test_add_func ("/syslog/rfc5424/logger", test_rfc5424_logger);
  g_test_add_func ("/syslog/rfc5424/rfc-example", test_rfc5424_rfc_example);
  g_test_add_func ("/syslog/rfc5424/nil-values", test_rfc5424_nil_values);
  g_test_add_func ("/syslog/rfc5424/sd-escapes", test_rfc5424_sd_escapes);
  g_test_add_func ("/syslog/rfc5424/bom", test_rfc5424_bom);
  g_test_add_func ("/syslog/rfc5424/malformed", test_rfc5424_malformed);
  g_test_add_func ("/syslog/rfc5424/sd-names-remembered", test_rfc5424_sd_names_remembered);
  g_test_add_func ("/syslog/truncated-lines", test_truncated_lines);
  g_test_add_func ("/syslog/random-lines", test_random_lines);
  g_test_add_func ("/syslog/options/no-parse", test_no_parse);
  g_test_add_func ("/syslog/options/no-hostname", test_no_hostname);
  g_test_add_func ("/syslog/options/store-raw", test_store_raw);
  g_test_add_func ("/syslog/options/syslog-protocol", test_syslog_protocol);
  g_test_add_func ("/syslog/parser/rfc3164", test_parser_rfc3164);
  g_test_add_func ("/syslog/parser/rfc5424", test_parser_rfc5424);
  g_test_add_func ("/syslog/parser/failure", test_parser_failure);
  g_test_add_func ("/syslog/parser/flags", test_parser_flags);
  g_test_add_func ("/syslog/parser/no-header", test_parser_no_header);
  g_test_add_func ("/syslog/parser/check-hostname", test_parser_check_hostname);
  g_test_add_func ("/syslog/parser/template", test_parser_template);
  g_test_add_func ("/syslog/parser/unknown-flag", test_parser_unknown_flag);
  g_test_add_func ("/syslog/names-full/sdata-kept", test_sdata_kept_when_names_full);
  g_test_add_func ("/syslog/sdata-as-received", test_sdata_as_received);
  return g_test_run ();
}
