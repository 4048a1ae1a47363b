/* The timestamps syslog senders write: RFC 3339, as RFC 5424 requires, and
 * the BSD form of RFC 3164 with the variations real devices use. */
#include "plugins/parsers/syslog/syslog-private.h"
#include "core/timeutil.h"

#include <string.h>
#include <time.h>

typedef struct
{
  gint year;
  gint month;      /* 1-12 */
  gint day;
  gint hour;
  gint minute;
  gint second;
  gint usec;
} StampParts;

static const gchar month_names[12][4] = {
  "Jan", "Feb", "Mar", "Apr", "May", "Jun",
  "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
};

static gboolean
scan_time_of_day (SlScan *s, StampParts *parts)
{
  return sl_scan_digits (s, 2, &parts->hour) && sl_scan_skip (s, ':')
         && sl_scan_digits (s, 2, &parts->minute) && sl_scan_skip (s, ':')
         && sl_scan_digits (s, 2, &parts->second);
}

/* Microseconds are all SlTime keeps: further digits are read and dropped. */
static void
scan_fraction (SlScan *s, gint *usec)
{
  SlScan t = *s;
  gint digits = 0;
  gint value = 0;

  *usec = 0;
  if (!sl_scan_skip (&t, '.') || !sl_scan_at_digit (&t))
    return;
  for (; sl_scan_at_digit (&t); t.p++)
    if (digits < 6)
      {
        value = value * 10 + (*t.p - '0');
        digits++;
      }
  for (; digits < 6; digits++)
    value *= 10;
  *usec = value;
  *s = t;
}

static gboolean
parts_valid (const StampParts *parts)
{
  return parts->year >= 1970 && parts->month >= 1 && parts->month <= 12
         && parts->day >= 1
         && parts->day <= g_date_get_days_in_month ((GDateMonth) parts->month,
                                                    (GDateYear) parts->year)
         && parts->hour <= 23 && parts->minute <= 59 && parts->second <= 60;
}

/* localtime_r() takes a lock and reads the zone rules on every call; zone
 * offsets change on quarter hours at the finest, so each thread keeps the
 * offset of the last quarter hour it asked about. */
#define ZONE_BLOCK_SECONDS 900

static gint32
local_gmtoff (gint64 utc_sec)
{
  static __thread gint64 cached_block = G_MININT64;
  static __thread gint32 cached_gmtoff;
  gint64 block = utc_sec >= 0 ? utc_sec / ZONE_BLOCK_SECONDS : (utc_sec + 1) / ZONE_BLOCK_SECONDS - 1;
  if (block != cached_block)
    {
      cached_gmtoff = sl_time_local_gmtoff (block * ZONE_BLOCK_SECONDS);
      cached_block = block;
    }
  return cached_gmtoff;
}

static void
parts_to_time (const StampParts *parts, gboolean has_zone, gint32 gmtoff, SlTime *out)
{
  struct tm tm = { 0 };

  tm.tm_year = parts->year - 1900;
  tm.tm_mon = parts->month - 1;
  tm.tm_mday = parts->day;
  tm.tm_hour = parts->hour;
  tm.tm_min = parts->minute;
  /* POSIX time has no leap second: :60 is kept as the second before it */
  tm.tm_sec = MIN (parts->second, 59);

  gint64 wall = sl_time_timegm (&tm);
  if (!has_zone)
    {
      /* The offset looked up at the wall clock read as UTC can be the one
       * from the other side of a DST change; asking again at the instant
       * it gives lands on the right side. */
      gmtoff = local_gmtoff (wall);
      gmtoff = local_gmtoff (wall - gmtoff);
    }
  out->usec = (wall - gmtoff) * G_USEC_PER_SEC + parts->usec;
  out->gmtoff = gmtoff;
}

/* A sender writes the same second on many lines in a row: each thread
 * keeps the last stamp's check and conversion, keyed by everything they
 * read but the fraction, so a repeated second costs a comparison. */
typedef struct
{
  gint year, month, day, hour, minute, second;
  gint32 gmtoff;
  gboolean has_zone;
} StampKey;

static gboolean
stamp_to_time (const StampParts *parts, gboolean has_zone, gint32 gmtoff, SlTime *out)
{
  static __thread StampKey last_key;
  static __thread gboolean last_valid;
  static __thread SlTime last_time;
  StampKey key = { parts->year, parts->month, parts->day, parts->hour, parts->minute, parts->second,
                   gmtoff, has_zone };
  if (memcmp (&key, &last_key, sizeof key) != 0)
    {
      last_key = key;
      last_valid = parts_valid (parts);
      if (last_valid)
        {
          StampParts whole = *parts;
          whole.usec = 0;
          parts_to_time (&whole, has_zone, gmtoff, &last_time);
        }
    }
  if (!last_valid)
    return FALSE;
  out->usec = last_time.usec + parts->usec;
  out->gmtoff = last_time.gmtoff;
  return TRUE;
}

static gboolean
scan_zone (SlScan *s, gboolean *has_zone, gint32 *gmtoff)
{
  *has_zone = TRUE;
  *gmtoff = 0;
  if (sl_scan_skip (s, 'Z') || sl_scan_skip (s, 'z'))
    return TRUE;
  if (!sl_scan_at (s, '+') && !sl_scan_at (s, '-'))
    {
      *has_zone = FALSE;
      return TRUE;
    }

  gint sign = *s->p == '-' ? -1 : 1;
  gint hours, minutes;
  s->p++;
  if (!sl_scan_digits (s, 2, &hours) || !sl_scan_skip (s, ':')
      || !sl_scan_digits (s, 2, &minutes) || hours > 23 || minutes > 59)
    return FALSE;
  *gmtoff = sign * (hours * 3600 + minutes * 60);
  return TRUE;
}

gboolean
sl_syslog_scan_iso_stamp (SlScan *s, SlTime *out)
{
  SlScan t = *s;
  StampParts parts = { 0 };
  gboolean has_zone;
  gint32 gmtoff;

  if (!(sl_scan_digits (&t, 4, &parts.year) && sl_scan_skip (&t, '-')
        && sl_scan_digits (&t, 2, &parts.month) && sl_scan_skip (&t, '-')
        && sl_scan_digits (&t, 2, &parts.day)
        && (sl_scan_skip (&t, 'T') || sl_scan_skip (&t, 't'))
        && scan_time_of_day (&t, &parts)))
    return FALSE;
  scan_fraction (&t, &parts.usec);
  if (!scan_zone (&t, &has_zone, &gmtoff) || !stamp_to_time (&parts, has_zone, gmtoff, out))
    return FALSE;
  *s = t;
  return TRUE;
}

static gboolean
scan_month (SlScan *s, gint *month)
{
  if (sl_scan_left (s) < 3)
    return FALSE;
  for (gint i = 0; i < 12; i++)
    if (memcmp (s->p, month_names[i], 3) == 0)
      {
        *month = i + 1;
        s->p += 3;
        return TRUE;
      }
  return FALSE;
}

/* " 3" as RFC 3164 pads it, "03", and the "3" some senders write. */
static gboolean
scan_day (SlScan *s, gint *day)
{
  if (sl_scan_skip (s, ' '))
    return sl_scan_digits (s, 1, day);
  return sl_scan_digits (s, 2, day) || sl_scan_digits (s, 1, day);
}

/* Cisco and PIX write "Feb  3 2026 12:34:56". */
static gboolean
scan_year_before_time (SlScan *s, gint *year)
{
  SlScan t = *s;
  if (!sl_scan_digits (&t, 4, year) || !sl_scan_skip (&t, ' '))
    return FALSE;
  *s = t;
  return TRUE;
}

/* "12:34:56 2026": the four digits must stand alone as a word. */
static gboolean
scan_year_after_time (SlScan *s, gint *year)
{
  SlScan t = *s;
  if (!sl_scan_skip (&t, ' ') || !sl_scan_digits (&t, 4, year))
    return FALSE;
  if (t.p < t.end && *t.p != ' ')
    return FALSE;
  *s = t;
  return TRUE;
}

/* A BSD stamp has no year: it is the year the line arrived in, unless that
 * puts the stamp more than a month ahead, which is a line from last
 * December read in January; the other way round, a January line read on
 * the 31st of December by a sender whose clock runs ahead is next year's. */
static gint
guess_year (gint month, const SlTime *recvd)
{
  /* the receive day changes once a day: break it down once per day and thread */
  static __thread gint64 cached_day = G_MININT64;
  static __thread gint cached_year, cached_month;
  gint64 local_now = recvd->usec / G_USEC_PER_SEC + recvd->gmtoff;
  gint64 day = local_now >= 0 ? local_now / 86400 : (local_now + 1) / 86400 - 1;
  if (day != cached_day)
    {
      time_t when = (time_t) local_now;
      struct tm now;
      gmtime_r (&when, &now);
      cached_year = now.tm_year + 1900;
      cached_month = now.tm_mon + 1;
      cached_day = day;
    }
  gint year = cached_year;
  gint ahead = month - cached_month;
  if (ahead > 1)
    return year - 1;
  if (ahead < -10)
    return year + 1;
  return year;
}

gboolean
sl_syslog_scan_bsd_stamp (SlScan *s, const SlTime *recvd, SlTime *out)
{
  SlScan t = *s;
  StampParts parts = { 0 };

  if (!scan_month (&t, &parts.month) || !sl_scan_skip (&t, ' ')
      || !scan_day (&t, &parts.day) || !sl_scan_skip (&t, ' '))
    return FALSE;
  gboolean has_year = scan_year_before_time (&t, &parts.year);
  if (!scan_time_of_day (&t, &parts))
    return FALSE;
  scan_fraction (&t, &parts.usec);
  if (!has_year && !scan_year_after_time (&t, &parts.year))
    parts.year = guess_year (parts.month, recvd);
  if (!stamp_to_time (&parts, FALSE, 0, out))
    return FALSE;
  *s = t;
  return TRUE;
}
