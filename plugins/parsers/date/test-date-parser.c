/* SPDX-License-Identifier: GPL-2.0-or-later */
/* date-parser(): the time a stamp names, in the zone it names or is read
 * in; formats in order, stamps without a year or a zone, and text that is
 * no stamp. */
#include "tests/unit/parser-harness.h"
#include "core/config/error.h"
#include "core/compile/loader.h"

#include <string.h>

extern const SlModule sl_module;

/* Central European time, its DST rule spelled out so that the expected
 * offsets hold whatever zone database the machine has. */
#define TEST_TZ "CET-1CEST,M3.5.0,M10.5.0/3"

#define SEC(s) ((gint64) (s) * G_USEC_PER_SEC)

/* Parses text with the parser written as spec; the stamp it must give. */
static void
check (const gchar *spec, const gchar *text, gint64 usec, gint32 gmtoff)
{
  SlTestParser p;
  sl_test_parser_init (&p, spec);
  SlMessage *msg = sl_test_message (text);
  g_assert_true (sl_test_parser_process (&p, &msg));
  g_assert_cmpint (msg->stamp.usec, ==, usec);
  g_assert_cmpint (msg->stamp.gmtoff, ==, gmtoff);
  sl_message_unref (msg);
  sl_test_parser_clear (&p);
}

static void
check_fails (const gchar *spec, const gchar *text)
{
  SlTestParser p;
  sl_test_parser_init (&p, spec);
  SlMessage *original = sl_test_message (text);
  SlMessage *msg = sl_message_ref (original);
  g_assert_false (sl_test_parser_process (&p, &msg));
  g_assert_true (msg == original);
  g_assert_cmpint (msg->stamp.usec, ==, 0);
  g_assert_cmpint (sl_test_parser_counter (&p, "failed"), ==, 1);
  sl_message_unref (msg);
  sl_message_unref (original);
  sl_test_parser_clear (&p);
}

/* 2026-02-03T12:34:56Z */
#define FEB3 G_GINT64_CONSTANT (1770122096)

static void
test_default_format_and_offsets (void)
{
  check ("date-parser()", "2026-02-03T12:34:56+01:00", SEC (FEB3 - 3600), 3600);
  check ("date-parser()", "2026-02-03T12:34:56Z", SEC (FEB3), 0);
  check ("date-parser()", "2026-02-03T12:34:56-0530", SEC (FEB3 + 5 * 3600 + 1800), -5 * 3600 - 1800);
  check ("date-parser()", "2026-02-03T12:34:56+09", SEC (FEB3 - 9 * 3600), 9 * 3600);
  check_fails ("date-parser()", "2026-02-03T12:34:56");
  check_fails ("date-parser()", "2026-02-03T12:34:56+01:00 and more");
  check_fails ("date-parser()", "2026-02-30T12:34:56Z");
  check_fails ("date-parser()", "2026-02-03T24:00:00Z");
  check_fails ("date-parser()", "2026-02-03T12:34:56+1");
  check_fails ("date-parser()", "");
}

static void
test_zone_names_and_names_of_things (void)
{
  /* 2016-01-01T13:05:05 in PST is 21:05:05Z */
  check ("date-parser(format(\"%d/%b/%Y:%H:%M:%S %Z\"))", "01/Jan/2016:13:05:05 PST",
         SEC (1451682305), -8 * 3600);
  check ("date-parser(format(\"%A, %B %e %Y %r %Z\"))", "Tuesday, February  3 2026 12:34:56 PM UTC",
         SEC (FEB3), 0);
  check ("date-parser(format(\"%a %b %d %I:%M:%S %p %Y %Z\"))", "tue FEB 03 12:34:56 am 2026 GMT",
         SEC (FEB3 - 12 * 3600), 0);
  check ("date-parser(format(\"%C %z\"))", "Tue Feb  3 12:34:56 2026 +0000", SEC (FEB3), 0);
  check ("date-parser(format(\"%Y %j %T %z\"))", "2026 034 12:34:56 +00:00", SEC (FEB3), 0);
  /* the kubernetes SCL's format: nanoseconds, and %Z taking an offset */
  check ("date-parser(format(\"%FT%H:%M:%S.%f%Z\"))", "2026-02-03T13:34:56.219493781+01:00",
         SEC (FEB3) + 219493, 3600);
  check_fails ("date-parser(format(\"%d/%b/%Y:%H:%M:%S %Z\"))", "01/Jan/2016:13:05:05 XYZ");
  check_fails ("date-parser(format(\"%b %d %Y\"))", "Foo 03 2026");
}

static void
test_fractions_and_epoch (void)
{
  check ("date-parser(format(\"%F %T.%f%z\"))", "2026-02-03 12:34:56.123456789+00:00", SEC (FEB3) + 123456, 0);
  check ("date-parser(format(\"%F %T.%f%z\"))", "2026-02-03 12:34:56.5Z", SEC (FEB3) + 500000, 0);
  check ("date-parser(format(\"%s\") time-zone(\"UTC\"))", "1770122096", SEC (FEB3), 0);
  check ("date-parser(format(\"%s.%f\") time-zone(\"Asia/Kolkata\"))", "1770122096.25", SEC (FEB3) + 250000, 19800);
  check ("date-parser(format(\"%s %z\"))", "1770122096 -01:00", SEC (FEB3), -3600);
}

/* A stamp without a zone is read in time-zone(), or the local zone. */
static void
test_time_zone (void)
{
  check ("date-parser(format(\"%F %T\") time-zone(\"Europe/Budapest\"))", "2026-02-03 12:34:56",
         SEC (FEB3 - 3600), 3600);
  check ("date-parser(format(\"%F %T\") time-zone(\"Europe/Budapest\"))", "2026-07-03 12:34:56",
         SEC (FEB3 + 150 * 86400 - 7200), 7200);
  check ("date-parser(format(\"%F %T\"))", "2026-07-03 12:34:56", SEC (FEB3 + 150 * 86400 - 7200), 7200);
  check ("date-parser(format(\"%F %T\"))", "2026-02-03 12:34:56", SEC (FEB3 - 3600), 3600);
  /* a zone in the stamp wins over time-zone() */
  check ("date-parser(format(\"%F %T%z\") time-zone(\"Europe/Budapest\"))", "2026-02-03 12:34:56Z",
         SEC (FEB3), 0);
}

static gchar *
format_utc (gint64 sec, const gchar *format)
{
  GDateTime *t = g_date_time_new_from_unix_utc (sec);
  gchar *text = g_date_time_format (t, format);
  g_date_time_unref (t);
  return text;
}

/* Without a year, the stamp is of this year as syslog-ng guesses it (last
 * or next only across a new year); with guess-timezone, without a zone, its
 * offset is what makes it now. */
static void
test_year_and_zone_guessing (void)
{
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;
  static const gchar *const months[] = {
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  };
  gint64 hour_ago = now - 3600;
  GDateTime *t = g_date_time_new_from_unix_utc (hour_ago);
  gchar *day_and_time = format_utc (hour_ago, "%d %H:%M:%S");
  gchar *text = g_strdup_printf ("%s %s", months[g_date_time_get_month (t) - 1], day_and_time);
  g_date_time_unref (t);
  g_free (day_and_time);
  check ("date-parser(format(\"%b %d %H:%M:%S\") time-zone(\"UTC\"))", text, SEC (hour_ago), 0);
  g_free (text);

  /* four months ahead is still this year, however near next year's is */
  t = g_date_time_new_from_unix_utc (now);
  gint year = g_date_time_get_year (t);
  gint month = (g_date_time_get_month (t) + 3) % 12 + 1;
  g_date_time_unref (t);
  text = g_strdup_printf ("%s 01 12:00:00", months[month - 1]);
  t = g_date_time_new_utc (year, month, 1, 12, 0, 0);
  check ("date-parser(format(\"%b %d %H:%M:%S\") time-zone(\"UTC\"))", text, SEC (g_date_time_to_unix (t)), 0);
  g_date_time_unref (t);
  g_free (text);

  /* a stamp written two hours east of UTC, a minute ago */
  gint64 minute_ago = now - 60;
  text = format_utc (minute_ago + 7200, "%Y-%m-%d %H:%M:%S");
  check ("date-parser(format(\"%F %T\") flags(guess-timezone))", text, SEC (minute_ago), 7200);
  g_free (text);

  /* a time alone is of today */
  SlTestParser p;
  sl_test_parser_init (&p, "date-parser(format(\"%H:%M\") time-zone(\"UTC\"))");
  text = format_utc (now, "%H:%M");
  SlMessage *msg = sl_test_message (text);
  g_assert_true (sl_test_parser_process (&p, &msg));
  g_assert_cmpint (msg->stamp.usec / G_USEC_PER_SEC, ==, now - now % 60);
  sl_message_unref (msg);
  g_free (text);
  sl_test_parser_clear (&p);
}

static void
test_formats_in_order_template_and_recvd (void)
{
  SlTestParser p;
  sl_test_parser_init (&p, "date-parser(format(\"%F %T%z\", \"%d/%m/%Y %H:%M:%S %z\") template(\"${when}\")"
                           " time-stamp(recvd))");
  SlMessage *msg = sl_test_message ("not a date");
  sl_message_set (msg, sl_field_handle ("when"), "03/02/2026 12:34:56 +0000", -1);
  g_assert_true (sl_test_parser_process (&p, &msg));
  g_assert_cmpint (msg->recvd.usec, ==, SEC (FEB3));
  g_assert_cmpint (msg->stamp.usec, ==, 0);
  sl_message_unref (msg);
  sl_test_parser_clear (&p);
}

static void
test_hostile_text (void)
{
  check_fails ("date-parser(format(\"%s\"))", "99999999999999999999999999999999");
  check_fails ("date-parser(format(\"%Y-%m-%d\"))", "99999-01-01");
  check_fails ("date-parser(format(\"%F %T.%f%z\"))", "2026-02-03 12:34:56.Z");
  gchar *huge = g_strnfill (1 << 20, '9');
  check_fails ("date-parser(format(\"%F %T.%f%z\"))", huge);
  check_fails ("date-parser()", huge);
  g_free (huge);
  check_fails ("date-parser()", "\xff\xfe\xfd");
}

static void
assert_config_error (const gchar *text, const gchar *needle)
{
  SlTestParser p;
  GError *error = NULL;
  g_assert_false (sl_test_parser_new (&p, text, &error));
  g_assert_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "test.conf:2:"));
  g_assert_nonnull (strstr (error->message, needle));
  g_error_free (error);
  sl_test_parser_clear (&p);
}

static void
test_config_errors (void)
{
  assert_config_error ("date-parser(format(\"%Y %Q\"))", "'%Y %Q'");
  assert_config_error ("date-parser(format(\"%Y %\"))", "'%Y %'");
  assert_config_error ("date-parser(time-zone(\"Mars/Olympus\"))", "unknown time zone");
  assert_config_error ("date-parser(time-stamp(sent))",
                       "'sent' is not a value of time-stamp(); expected one of: stamp, recvd");
}

int
main (int argc, char **argv)
{
  g_setenv ("TZ", TEST_TZ, TRUE);
  g_test_init (&argc, &argv, NULL);
  g_assert_true (sl_plugins_register (&sl_module, __FILE__, NULL));
  g_test_add_func ("/date-parser/default-format-and-offsets", test_default_format_and_offsets);
  g_test_add_func ("/date-parser/zone-names-and-names-of-things", test_zone_names_and_names_of_things);
  g_test_add_func ("/date-parser/fractions-and-epoch", test_fractions_and_epoch);
  g_test_add_func ("/date-parser/time-zone", test_time_zone);
  g_test_add_func ("/date-parser/year-and-zone-guessing", test_year_and_zone_guessing);
  g_test_add_func ("/date-parser/formats-in-order-template-and-recvd", test_formats_in_order_template_and_recvd);
  g_test_add_func ("/date-parser/hostile-text", test_hostile_text);
  g_test_add_func ("/date-parser/config-errors", test_config_errors);
  return g_test_run ();
}
