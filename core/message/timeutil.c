/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/message/timeutil.h"
#include "core/message/text-append.h"

#include <string.h>
#include <time.h>

static const gchar month_abbrev[12][4] = {
  "Jan", "Feb", "Mar", "Apr", "May", "Jun",
  "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
};

static const gint32 usec_divisor[7] = { 1000000, 100000, 10000, 1000, 100, 10, 1 };

const SlOptionWord sl_ts_format_words[] = {
  { "rfc3164", SL_TS_RFC3164 },
  { "bsd", SL_TS_RFC3164 },
  { "rfc3339", SL_TS_ISO },
  { "iso", SL_TS_ISO },
  { "full", SL_TS_FULL },
  { "unix", SL_TS_UNIX },
  { "unixtime", SL_TS_UNIX },
  { NULL }
};

/* Division rounding towards minus infinity, so that stamps before the epoch
 * still break down into a second and a non-negative fraction. */
static gint64
floor_div (gint64 a, gint64 b)
{
  gint64 q = a / b;
  return (a % b < 0) ? q - 1 : q;
}

/* Days since 1970-01-01 of a proleptic Gregorian date (month 1-12), and its
 * inverse: plain arithmetic, so neither depends on TZ or takes libc's lock. */
static gint64
days_from_civil (gint64 year, guint month, guint day)
{
  year -= month <= 2;
  gint64 era = floor_div (year, 400);
  guint year_of_era = (guint) (year - era * 400);
  guint day_of_year = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
  guint day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + (gint64) day_of_era - 719468;
}

static void
civil_from_days (gint64 days, gint64 *year, guint *month, guint *day)
{
  days += 719468;
  gint64 era = floor_div (days, 146097);
  guint day_of_era = (guint) (days - era * 146097);
  guint year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  guint day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  guint shifted_month = (5 * day_of_year + 2) / 153;

  *day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
  *month = shifted_month < 10 ? shifted_month + 3 : shifted_month - 9;
  *year = (gint64) year_of_era + era * 400 + (*month <= 2);
}

static void
break_down (gint64 local_sec, gint32 gmtoff, struct tm *tm)
{
  gint64 days = floor_div (local_sec, 86400);
  gint64 sec_of_day = local_sec - days * 86400;
  gint64 year;
  guint month, day;

  civil_from_days (days, &year, &month, &day);
  memset (tm, 0, sizeof *tm);
  tm->tm_year = (int) (year - 1900);
  tm->tm_mon = (int) month - 1;
  tm->tm_mday = (int) day;
  tm->tm_hour = (int) (sec_of_day / 3600);
  tm->tm_min = (int) (sec_of_day / 60 % 60);
  tm->tm_sec = (int) (sec_of_day % 60);
  /* 1970-01-01 was a Thursday */
  tm->tm_wday = (int) (days + 4 - floor_div (days + 4, 7) * 7);
  tm->tm_yday = (int) (days - days_from_civil (year, 1, 1));
  tm->tm_gmtoff = gmtoff;
}

/* time-zone() asks g_time_zone_find_interval() for every message, a walk
 * through the zone's transitions: the offset of the last second and zone
 * is kept per thread. The GPrivate holds a reference to that zone, so its
 * address cannot come back as another zone while it is the key. */
static GPrivate zone_ref = G_PRIVATE_INIT ((GDestroyNotify) g_time_zone_unref);
static __thread GTimeZone *cached_zone;
static __thread gint64 cached_zone_sec;
static __thread gint32 cached_zone_offset;

/* The offset t is shown with: its own, or zone's at that instant. */
static gint32
shown_offset (const SlTime *t, gint64 utc_sec, GTimeZone *zone)
{
  if (!zone)
    return t->gmtoff;
  if (zone != cached_zone || utc_sec != cached_zone_sec)
    {
      if (zone != cached_zone)
        {
          g_private_replace (&zone_ref, g_time_zone_ref (zone));
          cached_zone = zone;
        }
      gint interval = g_time_zone_find_interval (zone, G_TIME_TYPE_UNIVERSAL, utc_sec);
      cached_zone_offset = g_time_zone_get_offset (zone, interval);
      cached_zone_sec = utc_sec;
    }
  return cached_zone_offset;
}

void
sl_time_to_tm (const SlTime *t, GTimeZone *zone, struct tm *tm, gint32 *gmtoff)
{
  gint64 sec = floor_div (t->usec, G_USEC_PER_SEC);
  gint32 offset = shown_offset (t, sec, zone);

  /* $YEAR, $MONTH and $DAY of one message, and the messages of one second,
   * break down the same second: once per thread is enough */
  static __thread gint64 cached_local = G_MININT64;
  static __thread gint32 cached_offset;
  static __thread struct tm cached_tm;
  if (sec + offset != cached_local || offset != cached_offset)
    {
      break_down (sec + offset, offset, &cached_tm);
      cached_local = sec + offset;
      cached_offset = offset;
    }
  *tm = cached_tm;
  if (gmtoff)
    *gmtoff = offset;
}

gint32
sl_time_local_gmtoff (gint64 utc_sec)
{
  time_t when = (time_t) utc_sec;
  struct tm tm;

  if (!localtime_r (&when, &tm))
    return 0;
  return (gint32) tm.tm_gmtoff;
}

gint64
sl_time_timegm (const struct tm *tm)
{
  gint64 year = (gint64) tm->tm_year + 1900;
  gint64 month = tm->tm_mon;

  year += floor_div (month, 12);
  month -= floor_div (month, 12) * 12;
  gint64 days = days_from_civil (year, (guint) month + 1, 1) + tm->tm_mday - 1;
  return days * 86400 + (gint64) tm->tm_hour * 3600 + (gint64) tm->tm_min * 60 + tm->tm_sec;
}

/* "+01:00" into buf, which holds at least 6 bytes; returns the length. */
static gsize
format_offset (gchar *buf, gint32 gmtoff)
{
  gint64 magnitude = ABS ((gint64) gmtoff);
  guint hours = (guint) (magnitude / 3600 % 100);
  guint minutes = (guint) (magnitude / 60 % 60);

  buf[0] = gmtoff < 0 ? '-' : '+';
  buf[1] = '0' + hours / 10;
  buf[2] = '0' + hours % 10;
  buf[3] = ':';
  buf[4] = '0' + minutes / 10;
  buf[5] = '0' + minutes % 10;
  return 6;
}

void
sl_time_append_offset (GString *out, gint32 gmtoff)
{
  gchar buf[6];

  g_string_append_len (out, buf, format_offset (buf, gmtoff));
}

/* What a stamp looks like up to its second (head) and after its fraction
 * (tail, the zone of ISO stamps), remembered per format and thread: messages
 * come in bursts within one second, so most calls only format the fraction.
 * The key is the offset actually shown, not the GTimeZone pointer: a freed
 * zone's address may come back as another zone. */
typedef struct
{
  gboolean valid;
  gint64 sec;
  gint32 offset;
  guint8 head_len;
  guint8 tail_len;
  gchar head[48];
  gchar tail[8];
} SlStampCache;

static __thread SlStampCache stamp_cache[SL_TS_UNIX + 1];

static void
stamp_cache_fill (SlStampCache *c, gint64 sec, gint32 offset, SlTsFormat format)
{
  struct tm tm;
  gint len = 0;

  break_down (sec + offset, offset, &tm);
  switch (format)
    {
    case SL_TS_RFC3164:
      len = g_snprintf (c->head, sizeof c->head, "%s %2d %02d:%02d:%02d",
                        month_abbrev[tm.tm_mon], tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
      break;
    case SL_TS_ISO:
      len = g_snprintf (c->head, sizeof c->head, "%04d-%02d-%02dT%02d:%02d:%02d",
                        tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                        tm.tm_hour, tm.tm_min, tm.tm_sec);
      break;
    case SL_TS_FULL:
      len = g_snprintf (c->head, sizeof c->head, "%04d %s %2d %02d:%02d:%02d",
                        tm.tm_year + 1900, month_abbrev[tm.tm_mon], tm.tm_mday,
                        tm.tm_hour, tm.tm_min, tm.tm_sec);
      break;
    case SL_TS_UNIX:
      len = g_snprintf (c->head, sizeof c->head, "%" G_GINT64_FORMAT, sec);
      break;
    }
  c->head_len = (guint8) MIN ((gsize) len, sizeof c->head - 1);

  c->tail_len = format == SL_TS_ISO ? (guint8) format_offset (c->tail, offset) : 0;

  c->sec = sec;
  c->offset = offset;
  c->valid = TRUE;
}

static void
append_fraction (GString *out, gint64 frac_usec, gint frac_digits)
{
  gchar digits[7];
  guint32 value;

  if (frac_digits <= 0)
    return;
  frac_digits = MIN (frac_digits, 6);
  value = (guint32) (frac_usec / usec_divisor[frac_digits]);
  digits[0] = '.';
  for (gint i = frac_digits; i > 0; i--)
    {
      digits[i] = '0' + value % 10;
      value /= 10;
    }
  sl_text_append (out, digits, frac_digits + 1);
}

void
sl_time_append (GString *out, const SlTime *t, SlTsFormat format,
                gint frac_digits, GTimeZone *zone)
{
  g_return_if_fail (format <= SL_TS_UNIX);

  gint64 sec = floor_div (t->usec, G_USEC_PER_SEC);
  gint32 offset = shown_offset (t, sec, zone);
  SlStampCache *c = &stamp_cache[format];

  if (!c->valid || c->sec != sec || c->offset != offset)
    stamp_cache_fill (c, sec, offset, format);
  sl_text_append (out, c->head, c->head_len);
  append_fraction (out, t->usec - sec * G_USEC_PER_SEC, frac_digits);
  sl_text_append (out, c->tail, c->tail_len);
}
