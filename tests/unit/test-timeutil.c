/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "core/config/parser.h"
#include "core/message/timeutil.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static gchar *
format (gint64 usec, gint32 gmtoff, SlTsFormat fmt, gint frac_digits, GTimeZone *zone)
{
  SlTime t = { usec, gmtoff };
  GString *out = g_string_new (NULL);

  sl_time_append (out, &t, fmt, frac_digits, zone);
  return g_string_free (out, FALSE);
}

#define assert_format(usec, gmtoff, fmt, frac, zone, expected) \
  G_STMT_START { \
    gchar *got_ = format ((usec), (gmtoff), (fmt), (frac), (zone)); \
    g_assert_cmpstr (got_, ==, (expected)); \
    g_free (got_); \
  } G_STMT_END

typedef struct
{
  gint format;
} TsHolder;

static const SlOptionSpec ts_specs[] = {
  { "ts-format", SL_CHOICE (TsHolder, format), "rfc3164", "", .words = sl_ts_format_words },
  { NULL }
};

/* The format that ts-format(word) stands for, or -1 when it is refused. */
static gint
ts_format_of (const gchar *word)
{
  gchar *text = g_strdup_printf ("destination d { x(ts-format(%s)); };", word);
  SlCfgNode *root = sl_cfg_parse_string (text, "ts.conf", NULL);
  const SlCfgNode *call = g_ptr_array_index (((SlCfgNode *) g_ptr_array_index (root->children, 0))->children, 0);
  const SlOptionSpec *tables[] = { ts_specs, NULL };
  GError *error = NULL;
  SlOptions *o = sl_options_new ("x()", tables, NULL, call, NULL, &error);
  TsHolder holder = { -1 };
  if (o)
    g_assert_true (sl_options_bind (o, ts_specs, &holder, NULL, NULL));
  else
    g_assert_nonnull (strstr (error->message, "expected one of: rfc3164, bsd, rfc3339, iso, full, unix, unixtime"));
  g_clear_error (&error);
  sl_options_free (o);
  sl_cfg_node_free (root);
  g_free (text);
  return holder.format;
}

static void
test_format_words (void)
{
  static const struct
  {
    const gchar *word;
    SlTsFormat format;
  } words[] = {
    { "rfc3164", SL_TS_RFC3164 }, { "bsd", SL_TS_RFC3164 }, { "BSD", SL_TS_RFC3164 },
    { "rfc3339", SL_TS_ISO }, { "iso", SL_TS_ISO }, { "full", SL_TS_FULL },
    { "unix", SL_TS_UNIX }, { "unixtime", SL_TS_UNIX },
  };
  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    g_assert_cmpint (ts_format_of (words[i].word), ==, words[i].format);
  g_assert_cmpint (ts_format_of ("rfc5424"), ==, -1);
  g_assert_cmpint (ts_format_of ("\"\""), ==, -1);
}

static void
test_formats (void)
{
  const gint64 usec = G_GINT64_CONSTANT (1770118496) * G_USEC_PER_SEC + 123456;

  assert_format (usec, 3600, SL_TS_RFC3164, 0, NULL, "Feb  3 12:34:56");
  assert_format (usec, 3600, SL_TS_ISO, 0, NULL, "2026-02-03T12:34:56+01:00");
  assert_format (usec, 3600, SL_TS_FULL, 0, NULL, "2026 Feb  3 12:34:56");
  assert_format (usec, 3600, SL_TS_UNIX, 0, NULL, "1770118496");
  assert_format (usec, 3600, SL_TS_RFC3164, 2, NULL, "Feb  3 12:34:56.12");
  assert_format (usec, 3600, SL_TS_ISO, 6, NULL, "2026-02-03T12:34:56.123456+01:00");
  assert_format (usec, 3600, SL_TS_ISO, 9, NULL, "2026-02-03T12:34:56.123456+01:00");
  assert_format (usec, 3600, SL_TS_ISO, -1, NULL, "2026-02-03T12:34:56+01:00");
  assert_format (usec, 3600, SL_TS_UNIX, 4, NULL, "1770118496.1234");
  assert_format (usec, -(9 * 3600 + 30 * 60), SL_TS_ISO, 0, NULL, "2026-02-03T02:04:56-09:30");
  assert_format (usec, 14 * 3600, SL_TS_FULL, 0, NULL, "2026 Feb  4 01:34:56");
  assert_format (0, 0, SL_TS_ISO, 3, NULL, "1970-01-01T00:00:00.000+00:00");
  assert_format (-1, 0, SL_TS_ISO, 6, NULL, "1969-12-31T23:59:59.999999+00:00");
  assert_format (-1, 0, SL_TS_UNIX, 3, NULL, "-1.999");
  assert_format (G_GINT64_CONSTANT (951782400) * G_USEC_PER_SEC, 0, SL_TS_RFC3164, 0, NULL,
                 "Feb 29 00:00:00");
}

/* The per-thread cache is keyed on the second and the offset shown: the
 * same second in another zone, or the next second, must not reuse it. */
static void
test_cache_keys (void)
{
  const gint64 usec = G_GINT64_CONSTANT (1770118496) * G_USEC_PER_SEC;

  for (guint round = 0; round < 3; round++)
    {
      assert_format (usec, 3600, SL_TS_ISO, 0, NULL, "2026-02-03T12:34:56+01:00");
      assert_format (usec + 1, 3600, SL_TS_ISO, 6, NULL, "2026-02-03T12:34:56.000001+01:00");
      assert_format (usec, 0, SL_TS_ISO, 0, NULL, "2026-02-03T11:34:56+00:00");
      assert_format (usec + G_USEC_PER_SEC, 0, SL_TS_ISO, 0, NULL, "2026-02-03T11:34:57+00:00");
      assert_format (usec, 3600, SL_TS_RFC3164, 0, NULL, "Feb  3 12:34:56");
      assert_format (usec, 3600, SL_TS_UNIX, 0, NULL, "1770118496");
    }
}

static void
test_zone (void)
{
  const gint64 usec = G_GINT64_CONSTANT (1770118496) * G_USEC_PER_SEC;
  GTimeZone *utc = g_time_zone_new_utc ();
  GTimeZone *india = g_time_zone_new_identifier ("+05:30");
  SlTime t = { usec, 3600 };
  struct tm tm;
  gint32 gmtoff = 1;

  assert_format (usec, 3600, SL_TS_ISO, 0, utc, "2026-02-03T11:34:56+00:00");
  assert_format (usec, 3600, SL_TS_ISO, 0, india, "2026-02-03T17:04:56+05:30");
  sl_time_to_tm (&t, utc, &tm, &gmtoff);
  g_assert_cmpint (gmtoff, ==, 0);
  g_assert_cmpint (tm.tm_hour, ==, 11);
  sl_time_to_tm (&t, india, &tm, &gmtoff);
  g_assert_cmpint (gmtoff, ==, 19800);
  g_assert_cmpint (tm.tm_hour, ==, 17);
  g_assert_cmpint (tm.tm_min, ==, 4);
  sl_time_to_tm (&t, NULL, &tm, NULL);
  g_assert_cmpint (tm.tm_hour, ==, 12);
  g_assert_cmpint (tm.tm_gmtoff, ==, 3600);
  g_time_zone_unref (utc);
  g_time_zone_unref (india);

  GTimeZone *berlin = g_time_zone_new_identifier ("Europe/Berlin");
  if (!berlin)
    {
      g_test_message ("no tzdata for Europe/Berlin; daylight saving not checked");
      return;
    }
  /* 2026-03-29 01:00 UTC is when Berlin moves to summer time */
  const gint64 change = G_GINT64_CONSTANT (1774746000) * G_USEC_PER_SEC;
  assert_format (change - G_USEC_PER_SEC, 0, SL_TS_ISO, 0, berlin, "2026-03-29T01:59:59+01:00");
  assert_format (change, 0, SL_TS_ISO, 0, berlin, "2026-03-29T03:00:00+02:00");
  g_time_zone_unref (berlin);
}

static void
test_to_tm_matches_libc (void)
{
  static const gint32 offsets[] = { 0, 3600, -18000, 19800, 50400, -43200 };
  GRand *rand = g_rand_new_with_seed (42);

  for (guint i = 0; i < 20000; i++)
    {
      gint64 sec = g_rand_int_range (rand, -2000000000, 2000000000) * G_GINT64_CONSTANT (2);
      gint32 offset = offsets[i % G_N_ELEMENTS (offsets)];
      SlTime t = { sec * G_USEC_PER_SEC + g_rand_int_range (rand, 0, 1000000), offset };
      time_t local = (time_t) (sec + offset);
      struct tm got, want;

      sl_time_to_tm (&t, NULL, &got, NULL);
      g_assert_nonnull (gmtime_r (&local, &want));
      g_assert_cmpint (got.tm_year, ==, want.tm_year);
      g_assert_cmpint (got.tm_mon, ==, want.tm_mon);
      g_assert_cmpint (got.tm_mday, ==, want.tm_mday);
      g_assert_cmpint (got.tm_hour, ==, want.tm_hour);
      g_assert_cmpint (got.tm_min, ==, want.tm_min);
      g_assert_cmpint (got.tm_sec, ==, want.tm_sec);
      g_assert_cmpint (got.tm_wday, ==, want.tm_wday);
      g_assert_cmpint (got.tm_yday, ==, want.tm_yday);
      g_assert_cmpint (got.tm_gmtoff, ==, offset);

      want.tm_gmtoff = 0;
      g_assert_cmpint (sl_time_timegm (&want), ==, sec + offset);
    }
  g_rand_free (rand);
}

static void
test_timegm (void)
{
  struct tm tm = { 0 };

  tm.tm_year = 126;
  tm.tm_mon = 1;
  tm.tm_mday = 3;
  tm.tm_hour = 11;
  tm.tm_min = 34;
  tm.tm_sec = 56;
  g_assert_cmpint (sl_time_timegm (&tm), ==, G_GINT64_CONSTANT (1770118496));

  /* out-of-range fields carry over the way timegm() does */
  tm.tm_mon = 13;
  tm.tm_mday = 0;
  g_assert_cmpint (sl_time_timegm (&tm), ==, G_GINT64_CONSTANT (1801395296));
  tm.tm_mon = -1;
  tm.tm_mday = 1;
  g_assert_cmpint (sl_time_timegm (&tm), ==, G_GINT64_CONSTANT (1764588896));

  memset (&tm, 0, sizeof tm);
  tm.tm_year = 70;
  tm.tm_mday = 1;
  g_assert_cmpint (sl_time_timegm (&tm), ==, 0);
  tm.tm_sec = -1;
  g_assert_cmpint (sl_time_timegm (&tm), ==, -1);
}

static void
test_offsets (void)
{
  static const struct
  {
    gint32 gmtoff;
    const gchar *text;
  } cases[] = {
    { 0, "+00:00" }, { 3600, "+01:00" }, { -3600, "-01:00" }, { 19800, "+05:30" },
    { -(3 * 3600 + 30 * 60), "-03:30" }, { 14 * 3600, "+14:00" }, { 45 * 60, "+00:45" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      GString *out = g_string_new ("x");
      sl_time_append_offset (out, cases[i].gmtoff);
      g_assert_cmpstr (out->str + 1, ==, cases[i].text);
      g_string_free (out, TRUE);
    }
}

static void
test_local_gmtoff (void)
{
  gchar *saved = g_strdup (g_getenv ("TZ"));

  g_setenv ("TZ", "UTC0", TRUE);
  tzset ();
  g_assert_cmpint (sl_time_local_gmtoff (1770118496), ==, 0);
  g_setenv ("TZ", "IST-5:30", TRUE);
  tzset ();
  g_assert_cmpint (sl_time_local_gmtoff (1770118496), ==, 19800);
  /* POSIX rule: UTC-5 in winter, UTC-4 from the second Sunday in March */
  g_setenv ("TZ", "EST5EDT,M3.2.0,M11.1.0", TRUE);
  tzset ();
  g_assert_cmpint (sl_time_local_gmtoff (1770118496), ==, -18000);
  g_assert_cmpint (sl_time_local_gmtoff (1781956800), ==, -14400);

  if (saved)
    g_setenv ("TZ", saved, TRUE);
  else
    g_unsetenv ("TZ");
  tzset ();
  g_free (saved);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/timeutil/format-parse", test_format_words);
  g_test_add_func ("/timeutil/formats", test_formats);
  g_test_add_func ("/timeutil/cache-keys", test_cache_keys);
  g_test_add_func ("/timeutil/zone", test_zone);
  g_test_add_func ("/timeutil/to-tm-matches-libc", test_to_tm_matches_libc);
  g_test_add_func ("/timeutil/timegm", test_timegm);
  g_test_add_func ("/timeutil/offsets", test_offsets);
  g_test_add_func ("/timeutil/local-gmtoff", test_local_gmtoff);

  return g_test_run ();
}
