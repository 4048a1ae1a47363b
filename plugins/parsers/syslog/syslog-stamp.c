/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The timestamps syslog senders write, read as syslog-ng 3.38 reads them
 * (lib/timeutils/scan-timestamp.c): RFC 3339, as RFC 5424 requires, and
 * the BSD form of RFC 3164 with the variations real devices use. Fields
 * are not range-checked: an hour of 25 rolls over into the next day. */
#include "plugins/parsers/syslog/syslog-private.h"
#include "core/message/timeutil.h"

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
  "jan", "feb", "mar", "apr", "may", "jun",
  "jul", "aug", "sep", "oct", "nov", "dec",
};

/* syslog-ng's scan_positive_int(): a field of exactly width characters,
 * leading spaces and then digits. */
static gboolean
scan_field (Scan *s, guint width, gint *out)
{
  if (scan_left (s) < width)
    return FALSE;
  guint i = 0;
  gint value = 0;
  while (i < width && s->p[i] == ' ')
    i++;
  for (; i < width; i++)
    {
      if (!g_ascii_isdigit (s->p[i]))
        return FALSE;
      value = value * 10 + (s->p[i] - '0');
    }
  s->p += width;
  *out = value;
  return TRUE;
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


/* Microseconds are all SlTime keeps: further digits are read and dropped.
 * Aruba writes a comma. */
static void
scan_fraction (Scan *s, gint *usec)
{
  gint digits = 0;
  gint value = 0;

  *usec = 0;
  if (!scan_at (s, '.') && !scan_at (s, ','))
    return;
  s->p++;
  for (; scan_at_digit (s); s->p++)
    if (digits < 6)
      {
        value = value * 10 + (*s->p - '0');
        digits++;
      }
  for (; digits < 6; digits++)
    value *= 10;
  *usec = value;
}

static gboolean
at_iso_zone (const Scan *s)
{
  const gchar *p = s->p;
  gsize left = scan_left (s);
  return left >= 6 && (p[0] == '+' || p[0] == '-') && g_ascii_isdigit (p[1]) && g_ascii_isdigit (p[2])
         && p[3] == ':' && g_ascii_isdigit (p[4]) && g_ascii_isdigit (p[5])
         && (left == 6 || !g_ascii_isdigit (p[6]));
}

static gboolean
looks_like_iso (const Scan *s)
{
  const gchar *p = s->p;
  return scan_left (s) >= 19 && p[4] == '-' && p[7] == '-' && (p[10] == 'T' || p[10] == ' ')
         && p[13] == ':' && p[16] == ':';
}

static gint
two_digits (const gchar *p)
{
  return (p[0] - '0') * 10 + p[1] - '0';
}

/* The form senders write, 2026-12-07T21:02:25 with a digit at each place
 * of one, read at those places: what scan_field() reads of it, at a sixth
 * of its cost. */
static gboolean
scan_plain_iso_fields (Scan *s, StampParts *parts)
{
  static const guint8 digit_at[] = { 0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18 };
  const gchar *p = s->p;

  if (!looks_like_iso (s))
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (digit_at); i++)
    if (!g_ascii_isdigit (p[digit_at[i]]))
      return FALSE;
  parts->year = two_digits (p) * 100 + two_digits (p + 2);
  parts->month = two_digits (p + 5);
  parts->day = two_digits (p + 8);
  parts->hour = two_digits (p + 11);
  parts->minute = two_digits (p + 14);
  parts->second = two_digits (p + 17);
  s->p += 19;
  return TRUE;
}

gboolean
syslog_scan_iso_stamp (Scan *s, SlTime *out)
{
  Scan t = *s;
  StampParts parts = { 0 };
  gboolean has_zone = TRUE;
  gint32 gmtoff = 0;

  if (!scan_plain_iso_fields (&t, &parts)
      && !(scan_field (&t, 4, &parts.year) && scan_skip (&t, '-')
           && scan_field (&t, 2, &parts.month) && scan_skip (&t, '-')
           && scan_field (&t, 2, &parts.day)
           && (scan_skip (&t, 'T') || scan_skip (&t, ' '))
           && scan_field (&t, 2, &parts.hour) && scan_skip (&t, ':')
           && scan_field (&t, 2, &parts.minute) && scan_skip (&t, ':')
           && scan_field (&t, 2, &parts.second)))
    return FALSE;
  scan_fraction (&t, &parts.usec);
  if (scan_skip (&t, 'Z'))
    gmtoff = 0;
  else if (at_iso_zone (&t))
    {
      gint sign = *t.p == '-' ? -1 : 1;
      gmtoff = sign * (two_digits (t.p + 1) * 3600 + two_digits (t.p + 4) * 60);
      t.p += 6;
    }
  else
    has_zone = FALSE;

  parts_to_time (&parts, has_zone, gmtoff, out);
  *s = t;
  return TRUE;
}

static gboolean
scan_month (Scan *s, gint *month)
{
  /* syslog-ng wants the first letter in upper case, the others in any */
  if (scan_left (s) < 3 || !g_ascii_isupper (*s->p))
    return FALSE;
  gchar lower[3] = { g_ascii_tolower (s->p[0]), g_ascii_tolower (s->p[1]), g_ascii_tolower (s->p[2]) };
  for (gint i = 0; i < 12; i++)
    if (memcmp (lower, month_names[i], 3) == 0)
      {
        *month = i + 1;
        s->p += 3;
        return TRUE;
      }
  return FALSE;
}

/* A stamp without a year is of the year the line arrived in, except a
 * December line read in January (last year's) and a January line read in
 * December (next year's), as syslog-ng guesses. */
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
  if (month == 12 && cached_month == 1)
    return cached_year - 1;
  if (month == 1 && cached_month == 12)
    return cached_year + 1;
  return cached_year;
}

/* The shapes syslog-ng tells apart by where the spaces and colons are. */
static gboolean
looks_like_pix (const Scan *s)
{
  const gchar *p = s->p;
  return scan_left (s) >= 21 && p[3] == ' ' && p[6] == ' ' && p[11] == ' ' && p[14] == ':' && p[17] == ':'
         && (p[20] == ':' || p[20] == ' ') && g_ascii_isdigit (p[7]) && g_ascii_isdigit (p[8])
         && g_ascii_isdigit (p[9]) && g_ascii_isdigit (p[10]);
}

static gboolean
looks_like_linksys (const Scan *s)
{
  const gchar *p = s->p;
  return scan_left (s) >= 21 && p[3] == ' ' && p[6] == ' ' && p[9] == ':' && p[12] == ':' && p[15] == ' '
         && g_ascii_isdigit (p[16]) && g_ascii_isdigit (p[17]) && g_ascii_isdigit (p[18])
         && g_ascii_isdigit (p[19]) && g_ascii_isspace (p[20]);
}

static gboolean
looks_like_bsd (const Scan *s)
{
  const gchar *p = s->p;
  return scan_left (s) >= 15 && p[3] == ' ' && p[6] == ' ' && p[9] == ':' && p[12] == ':';
}

/* syslog-ng 4.8's "Mmm d hh:mm:ss", a day below 10 without its padding */
static gboolean
looks_like_bsd_nopad_day (const Scan *s)
{
  const gchar *p = s->p;
  return scan_left (s) >= 14 && p[3] == ' ' && g_ascii_isdigit (p[4]) && p[5] == ' ' && p[8] == ':' && p[11] == ':';
}

static gboolean
scan_time_of_day (Scan *s, StampParts *parts)
{
  return scan_field (s, 2, &parts->hour) && scan_skip (s, ':')
         && scan_field (s, 2, &parts->minute) && scan_skip (s, ':')
         && scan_field (s, 2, &parts->second);
}

static gboolean
scan_bsd_stamp (Scan *s, const SlTime *recvd, gboolean nopad_day, StampParts *parts)
{
  gboolean ok;
  if (looks_like_pix (s))
    {
      ok = scan_month (s, &parts->month) && scan_skip (s, ' ') && scan_field (s, 2, &parts->day)
           && scan_skip (s, ' ') && scan_field (s, 4, &parts->year) && scan_skip (s, ' ')
           && scan_time_of_day (s, parts);
      if (ok)
        scan_skip (s, ':');
      return ok;
    }
  if (looks_like_linksys (s))
    return scan_month (s, &parts->month) && scan_skip (s, ' ') && scan_field (s, 2, &parts->day)
           && scan_skip (s, ' ') && scan_time_of_day (s, parts) && scan_skip (s, ' ')
           && scan_field (s, 4, &parts->year);
  gboolean nopad = !looks_like_bsd (s) && nopad_day && looks_like_bsd_nopad_day (s);
  if (!looks_like_bsd (s) && !nopad)
    return FALSE;
  ok = scan_month (s, &parts->month) && scan_skip (s, ' ') && scan_field (s, nopad ? 1 : 2, &parts->day)
       && scan_skip (s, ' ') && scan_time_of_day (s, parts);
  if (ok)
    {
      scan_fraction (s, &parts->usec);
      parts->year = guess_year (parts->month, recvd);
    }
  return ok;
}

/* The lines of a burst carry the same second: each thread keeps the last
 * plain "Mmm dd hh:mm:ss" stamp it read (no fraction, neither the PIX nor
 * the Linksys shape), the receive day its year was guessed on, and what
 * it came to. */
#define BSD_STAMP_LEN 15

typedef struct
{
  gboolean valid;
  gint64 day;
  gchar text[BSD_STAMP_LEN];
  SlTime time;
} BsdStampMemo;

static __thread BsdStampMemo bsd_memo;

static gint64
receive_day (const SlTime *recvd)
{
  gint64 local_now = recvd->usec / G_USEC_PER_SEC + recvd->gmtoff;
  return local_now >= 0 ? local_now / 86400 : (local_now + 1) / 86400 - 1;
}

/* A plain BSD stamp with nothing after its second that scan_fraction() reads. */
static gboolean
is_plain_bsd (const Scan *s)
{
  return looks_like_bsd (s) && !looks_like_pix (s) && !looks_like_linksys (s)
         && (scan_left (s) == BSD_STAMP_LEN || (s->p[BSD_STAMP_LEN] != '.' && s->p[BSD_STAMP_LEN] != ','));
}

gboolean
syslog_scan_rfc3164_stamp (Scan *s, const SlTime *recvd, gboolean nopad_day, SlTime *out)
{
  Scan t = *s;

  if (looks_like_iso (&t))
    {
      if (!syslog_scan_iso_stamp (&t, out))
        return FALSE;
    }
  else
    {
      gboolean plain = is_plain_bsd (&t);
      gint64 day = plain ? receive_day (recvd) : 0;
      if (plain && bsd_memo.valid && bsd_memo.day == day && memcmp (t.p, bsd_memo.text, BSD_STAMP_LEN) == 0)
        {
          *out = bsd_memo.time;
          t.p += BSD_STAMP_LEN;
        }
      else
        {
          StampParts parts = { 0 };
          const gchar *start = t.p;
          if (!scan_bsd_stamp (&t, recvd, nopad_day, &parts))
            return FALSE;
          parts_to_time (&parts, FALSE, 0, out);
          if (plain && t.p == start + BSD_STAMP_LEN)
            {
              memcpy (bsd_memo.text, start, BSD_STAMP_LEN);
              bsd_memo.day = day;
              bsd_memo.time = *out;
              bsd_memo.valid = TRUE;
            }
        }
    }
  /* Cisco ends the stamp with a colon */
  scan_skip (&t, ':');
  *s = t;
  return TRUE;
}
