/* SPDX-License-Identifier: GPL-2.0-or-later */
/* date-parser(): a timestamp in the message, read with strptime-like
 * formats tried in order, becomes the message's time (or its receive
 * time with time-stamp(recvd)). The whole text must match a format. A
 * stamp without a zone is read in time-zone(), the local zone by default,
 * or guessed from the clock with flags(guess-timezone); one without a year
 * takes the current one as syslog-ng guesses it (see resolve()). */
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/message/parser-input.h"
#include "core/plugin/plugin.h"
#include "core/stats.h"
#include "core/message/timeutil.h"

#include <string.h>
#include <time.h>

enum
{
  FLAG_GUESS_TIMEZONE = 1 << 0,
};

static const SlOptionWord date_flag_words[] = {
  { "guess-timezone", FLAG_GUESS_TIMEZONE },
  { NULL }
};

enum
{
  TIME_STAMP,
  TIME_RECVD,
};

static const SlOptionWord time_stamp_words[] = {
  { "stamp", TIME_STAMP },
  { "recvd", TIME_RECVD },
  { NULL }
};

typedef enum
{
  ITEM_LITERAL,     /* one byte, matched exactly */
  ITEM_SPACE,       /* any run of whitespace, also none */
  ITEM_WEEKDAY,     /* %a %A */
  ITEM_MONTH_NAME,  /* %b %B %h */
  ITEM_DAY,         /* %d %e */
  ITEM_FRACTION,    /* %f */
  ITEM_HOUR,        /* %H %k */
  ITEM_HOUR12,      /* %I %l */
  ITEM_YEAR_DAY,    /* %j */
  ITEM_MONTH,       /* %m */
  ITEM_MINUTE,      /* %M */
  ITEM_AMPM,        /* %p %P */
  ITEM_EPOCH,       /* %s */
  ITEM_SECOND,      /* %S */
  ITEM_YEAR2,       /* %y */
  ITEM_YEAR,        /* %Y */
  ITEM_OFFSET,      /* %z */
  ITEM_ZONE_NAME,   /* %Z */
} DateItemKind;

typedef struct
{
  DateItemKind kind;
  gchar literal;
} DateItem;

/* Directives that stand for others. */
static const struct
{
  gchar directive;
  const gchar *expansion;
} composites[] = {
  { 'F', "%Y-%m-%d" }, { 'T', "%H:%M:%S" }, { 'D', "%m/%d/%y" }, { 'R', "%H:%M" },
  { 'r', "%I:%M:%S %p" }, { 'C', "%a %b %e %H:%M:%S %Y" }, { 'x', "%m/%d/%y" }, { 'X', "%H:%M:%S" },
  { 'c', "%m/%d/%y %H:%M:%S" }, { 'n', " " }, { 't', " " },
};

static const struct
{
  gchar directive;
  DateItemKind kind;
} directives[] = {
  { 'a', ITEM_WEEKDAY }, { 'A', ITEM_WEEKDAY }, { 'b', ITEM_MONTH_NAME }, { 'B', ITEM_MONTH_NAME },
  { 'h', ITEM_MONTH_NAME }, { 'd', ITEM_DAY }, { 'e', ITEM_DAY }, { 'f', ITEM_FRACTION },
  { 'H', ITEM_HOUR }, { 'k', ITEM_HOUR }, { 'I', ITEM_HOUR12 }, { 'l', ITEM_HOUR12 },
  { 'j', ITEM_YEAR_DAY }, { 'm', ITEM_MONTH }, { 'M', ITEM_MINUTE }, { 'p', ITEM_AMPM },
  { 'P', ITEM_AMPM }, { 's', ITEM_EPOCH }, { 'S', ITEM_SECOND }, { 'y', ITEM_YEAR2 },
  { 'Y', ITEM_YEAR }, { 'z', ITEM_OFFSET }, { 'Z', ITEM_ZONE_NAME },
};

static const gchar *const month_names[12] = {
  "january", "february", "march", "april", "may", "june",
  "july", "august", "september", "october", "november", "december",
};

static const gchar *const weekday_names[7] = {
  "sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
};

/* Zone abbreviations that mean one offset wherever they are written. */
static const struct
{
  const gchar *name;
  gint32 gmtoff;
} zone_names[] = {
  { "UTC", 0 }, { "UT", 0 }, { "GMT", 0 }, { "Z", 0 },
  { "EST", -5 * 3600 }, { "EDT", -4 * 3600 }, { "CST", -6 * 3600 }, { "CDT", -5 * 3600 },
  { "MST", -7 * 3600 }, { "MDT", -6 * 3600 }, { "PST", -8 * 3600 }, { "PDT", -7 * 3600 },
  { "AKST", -9 * 3600 }, { "AKDT", -8 * 3600 }, { "HST", -10 * 3600 },
  { "WET", 0 }, { "WEST", 3600 }, { "BST", 3600 }, { "CET", 3600 }, { "CEST", 2 * 3600 },
  { "EET", 2 * 3600 }, { "EEST", 3 * 3600 }, { "MSK", 3 * 3600 }, { "IST", 19800 },
  { "JST", 9 * 3600 }, { "KST", 9 * 3600 }, { "AEST", 10 * 3600 }, { "AEDT", 11 * 3600 },
};

typedef struct
{
  SlDriver base;
  SlTemplate *template;
  GPtrArray *format_texts;
  const gchar *zone_name;
  gint time_stamp;
  guint32 flags;
  GPtrArray *formats;     /* GArray of DateItem, one per format() */
  GTimeZone *zone;
  gboolean set_recvd;
  gboolean guess_zone;
  SlCounter *failed;
} DateParser;

static const SlOptionSpec date_parser_options[] = {
  { "format", SL_LIST (DateParser, format_texts), "%FT%T%z", "strptime-like formats, tried in order" },
  { "template", SL_TEMPLATE (DateParser, template), NULL, "the text to parse; ${MESSAGE} when not given" },
  { "time-zone", SL_STRING (DateParser, zone_name), NULL,
    "the zone of stamps that carry none; the local zone when not given" },
  { "time-stamp", SL_CHOICE (DateParser, time_stamp), "stamp",
    "which time to set: stamp (the message's) or recvd (its arrival)", .words = time_stamp_words },
  { "flags", SL_FLAGS (DateParser, flags), NULL, "guess-timezone: a stamp without a zone is taken as near to now",
    .words = date_flag_words },
  { NULL }
};

/* What a format read out of the text. */
typedef struct
{
  gint year, month, day, year_day;
  gint hour, hour12, minute, second, usec;
  gint pm;                 /* -1: no %p */
  gboolean has_year, has_date, has_year_day, has_epoch, has_zone;
  gint64 epoch;
  gint32 gmtoff;
} DateFields;

static gboolean
compile_into (GArray *items, const gchar *format, guint depth)
{
  for (const gchar *p = format; *p; p++)
    {
      DateItem item = { ITEM_LITERAL, *p };
      if (g_ascii_isspace (*p))
        item.kind = ITEM_SPACE;
      else if (*p == '%')
        {
          gchar d = *++p;
          if (d == '%')
            {
              g_array_append_val (items, item);
              continue;
            }
          gboolean known = FALSE;
          for (guint i = 0; i < G_N_ELEMENTS (composites) && !known; i++)
            if (composites[i].directive == d)
              {
                if (depth || !compile_into (items, composites[i].expansion, depth + 1))
                  return FALSE;
                known = TRUE;
              }
          if (known)
            continue;
          for (guint i = 0; i < G_N_ELEMENTS (directives) && !known; i++)
            if (directives[i].directive == d)
              {
                item.kind = directives[i].kind;
                known = TRUE;
              }
          if (!known)
            return FALSE;
        }
      g_array_append_val (items, item);
    }
  return TRUE;
}

static gboolean
date_parser_init (SlDriver *self, GError **error)
{
  DateParser *parser = (DateParser *) self;
  SlOptions *options = self->options;

  parser->formats = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  GPtrArray *formats = parser->format_texts;
  if (!formats || !formats->len)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (options, "format"),
                        _("date-parser() needs at least one format()"));
      return FALSE;
    }
  for (guint i = 0; i < formats->len; i++)
    {
      const gchar *format = g_ptr_array_index (formats, i);
      GArray *items = g_array_new (FALSE, FALSE, sizeof (DateItem));
      g_ptr_array_add (parser->formats, items);
      if (!compile_into (items, format, 0))
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (options, "format"),
                            _("format '%s' holds a directive date-parser() does not know"), format);
          return FALSE;
        }
    }

  const gchar *zone = parser->zone_name;
  parser->zone = zone ? g_time_zone_new_identifier (zone) : g_time_zone_new_local ();
  if (!parser->zone)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (options, "time-zone"),
                        _("unknown time zone '%s'"), zone);
      return FALSE;
    }

  parser->set_recvd = parser->time_stamp == TIME_RECVD;
  parser->guess_zone = (parser->flags & FLAG_GUESS_TIMEZONE) != 0;
  parser->failed = sl_stats_counter ("parser", self->id, self->klass->name, "failed");
  return TRUE;
}

/* Reads 1 to max digits at *pos into *value. */
static gboolean
read_number (const gchar *text, gsize len, gsize *pos, guint max, gint *value)
{
  gsize start = *pos;
  gint n = 0;

  while (*pos < len && *pos - start < max && g_ascii_isdigit (text[*pos]))
    n = n * 10 + (text[(*pos)++] - '0');
  *value = n;
  return *pos > start;
}

/* The index of the name (full or its first three letters) at *pos. */
static gint
read_name (const gchar *text, gsize len, gsize *pos, const gchar *const *names, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      gsize full = strlen (names[i]);
      if (*pos + full <= len && g_ascii_strncasecmp (text + *pos, names[i], full) == 0)
        {
          *pos += full;
          return (gint) i;
        }
    }
  for (guint i = 0; i < n; i++)
    if (*pos + 3 <= len && g_ascii_strncasecmp (text + *pos, names[i], 3) == 0)
      {
        *pos += 3;
        return (gint) i;
      }
  return -1;
}

/* Z, +hh, +hhmm, +hh:mm */
static gboolean
read_offset (const gchar *text, gsize len, gsize *pos, gint32 *gmtoff)
{
  if (*pos < len && (text[*pos] == 'Z' || text[*pos] == 'z'))
    {
      (*pos)++;
      *gmtoff = 0;
      return TRUE;
    }
  if (*pos >= len || (text[*pos] != '+' && text[*pos] != '-'))
    return FALSE;
  gint sign = text[(*pos)++] == '-' ? -1 : 1;
  gsize start = *pos;
  gint hours, minutes = 0;
  if (!read_number (text, len, pos, 2, &hours) || *pos - start != 2)
    return FALSE;
  if (*pos < len && text[*pos] == ':')
    (*pos)++;
  start = *pos;
  if (read_number (text, len, pos, 2, &minutes) && *pos - start != 2)
    return FALSE;
  if (hours > 23 || minutes > 59)
    return FALSE;
  *gmtoff = sign * (hours * 3600 + minutes * 60);
  return TRUE;
}

static gboolean
read_zone_name (const gchar *text, gsize len, gsize *pos, gint32 *gmtoff)
{
  gsize n = 0;
  while (*pos + n < len && g_ascii_isalpha (text[*pos + n]))
    n++;
  for (guint i = 0; i < G_N_ELEMENTS (zone_names); i++)
    if (strlen (zone_names[i].name) == n && g_ascii_strncasecmp (text + *pos, zone_names[i].name, n) == 0)
      {
        *pos += n;
        *gmtoff = zone_names[i].gmtoff;
        return TRUE;
      }
  return FALSE;
}

static gboolean
read_item (const DateItem *item, const gchar *text, gsize len, gsize *pos, DateFields *f)
{
  gint n;

  switch (item->kind)
    {
    case ITEM_LITERAL:
      return *pos < len && text[(*pos)++] == item->literal;
    case ITEM_SPACE:
      while (*pos < len && g_ascii_isspace (text[*pos]))
        (*pos)++;
      return TRUE;
    case ITEM_WEEKDAY:
      return read_name (text, len, pos, weekday_names, G_N_ELEMENTS (weekday_names)) >= 0;
    case ITEM_MONTH_NAME:
      f->month = read_name (text, len, pos, month_names, G_N_ELEMENTS (month_names)) + 1;
      f->has_date = TRUE;
      return f->month > 0;
    case ITEM_DAY:
      if (*pos < len && text[*pos] == ' ')
        (*pos)++;
      f->has_date = TRUE;
      return read_number (text, len, pos, 2, &f->day) && f->day >= 1 && f->day <= 31;
    case ITEM_FRACTION:
      {
        gsize start = *pos;
        if (!read_number (text, len, pos, 6, &f->usec))
          return FALSE;
        for (gsize digits = *pos - start; digits < 6; digits++)
          f->usec *= 10;
        while (*pos < len && g_ascii_isdigit (text[*pos]))
          (*pos)++;
        return TRUE;
      }
    case ITEM_HOUR:
      if (*pos < len && text[*pos] == ' ')
        (*pos)++;
      return read_number (text, len, pos, 2, &f->hour) && f->hour <= 23;
    case ITEM_HOUR12:
      if (*pos < len && text[*pos] == ' ')
        (*pos)++;
      return read_number (text, len, pos, 2, &f->hour12) && f->hour12 >= 1 && f->hour12 <= 12;
    case ITEM_YEAR_DAY:
      f->has_year_day = TRUE;
      return read_number (text, len, pos, 3, &f->year_day) && f->year_day >= 1 && f->year_day <= 366;
    case ITEM_MONTH:
      f->has_date = TRUE;
      return read_number (text, len, pos, 2, &f->month) && f->month >= 1 && f->month <= 12;
    case ITEM_MINUTE:
      return read_number (text, len, pos, 2, &f->minute) && f->minute <= 59;
    case ITEM_SECOND:
      /* a leap second is read as the last one of its minute */
      if (!read_number (text, len, pos, 2, &f->second) || f->second > 60)
        return FALSE;
      f->second = MIN (f->second, 59);
      return TRUE;
    case ITEM_AMPM:
      if (*pos + 2 > len || g_ascii_tolower (text[*pos + 1]) != 'm')
        return FALSE;
      f->pm = g_ascii_tolower (text[*pos]) == 'p' ? 1 : g_ascii_tolower (text[*pos]) == 'a' ? 0 : -1;
      *pos += 2;
      return f->pm >= 0;
    case ITEM_EPOCH:
      {
        gboolean negative = *pos < len && text[*pos] == '-';
        gsize start = *pos += negative;
        gint64 value = 0;
        while (*pos < len && *pos - start < 12 && g_ascii_isdigit (text[*pos]))
          value = value * 10 + (text[(*pos)++] - '0');
        f->epoch = negative ? -value : value;
        f->has_epoch = TRUE;
        return *pos > start;
      }
    case ITEM_YEAR2:
      if (!read_number (text, len, pos, 2, &n))
        return FALSE;
      f->year = n < 69 ? 2000 + n : 1900 + n;
      f->has_year = TRUE;
      return TRUE;
    case ITEM_YEAR:
      f->has_year = TRUE;
      return read_number (text, len, pos, 4, &f->year);
    case ITEM_OFFSET:
      f->has_zone = TRUE;
      return read_offset (text, len, pos, &f->gmtoff);
    case ITEM_ZONE_NAME:
      /* as syslog-ng's %Z: a name or an offset (the kubernetes SCL reads
       * "+01:00" with it) */
      f->has_zone = TRUE;
      if (*pos < len && (text[*pos] == '+' || text[*pos] == '-'))
        return read_offset (text, len, pos, &f->gmtoff);
      return read_zone_name (text, len, pos, &f->gmtoff);
    }
  return FALSE;
}

/* Seconds since the epoch of a wall-clock time read as if in UTC. */
static gint64
wall_seconds (const DateFields *f, gint year)
{
  struct tm tm = { 0 };
  tm.tm_year = year - 1900;
  tm.tm_hour = f->hour;
  tm.tm_min = f->minute;
  tm.tm_sec = f->second;
  if (f->has_year_day && !f->has_date)
    tm.tm_mday = f->year_day;
  else
    {
      tm.tm_mon = f->month - 1;
      tm.tm_mday = f->day;
    }
  return sl_time_timegm (&tm);
}

/* The offset of zone at a wall-clock time: the one in force then, or the
 * one after the gap when the clock skipped it. */
static gint32
zone_offset (GTimeZone *zone, gint64 wall)
{
  gint64 adjusted = wall;
  gint interval = g_time_zone_adjust_time (zone, G_TIME_TYPE_STANDARD, &adjusted);
  return g_time_zone_get_offset (zone, interval);
}

static gint32
offset_for (const DateParser *parser, const DateFields *f, gint64 wall, gint64 now)
{
  if (f->has_zone)
    return f->gmtoff;
  if (parser->guess_zone)
    {
      /* zones are whole quarters of an hour from UTC, and no more than 14
       * hours away */
      gint64 quarters = (wall - now + (wall >= now ? 450 : -450)) / 900;
      if (ABS (quarters) <= 14 * 4)
        return (gint32) (quarters * 900);
    }
  return zone_offset (parser->zone, wall);
}

static gboolean
valid_day (const DateFields *f, gint year)
{
  if (f->has_year_day && !f->has_date)
    return f->year_day <= (g_date_is_leap_year (year) ? 366 : 365);
  return g_date_valid_dmy (f->day, f->month, year);
}

/* The message's time from what a format read; FALSE for a date that does
 * not exist. */
static gboolean
resolve (const DateParser *parser, DateFields *f, SlTime *out)
{
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;

  if (f->pm >= 0)
    f->hour = f->hour12 % 12 + (f->pm ? 12 : 0);
  else if (f->hour12)
    f->hour = f->hour12;

  if (f->has_epoch)
    {
      gint32 gmtoff = f->has_zone ? f->gmtoff : g_time_zone_get_offset (
        parser->zone, g_time_zone_find_interval (parser->zone, G_TIME_TYPE_UNIVERSAL, f->epoch));
      *out = (SlTime) { f->epoch * G_USEC_PER_SEC + f->usec, gmtoff };
      return TRUE;
    }

  if (!f->has_date && !f->has_year_day)
    {
      /* a time alone is today's, in the zone it is read in */
      struct tm tm;
      gint32 gmtoff;
      SlTime today = { now * G_USEC_PER_SEC, 0 };
      sl_time_to_tm (&today, parser->zone, &tm, &gmtoff);
      f->year = tm.tm_year + 1900;
      f->month = tm.tm_mon + 1;
      f->day = tm.tm_mday;
      f->has_year = f->has_date = TRUE;
    }

  gint64 wall = 0;
  gint32 gmtoff = 0;
  if (f->has_year)
    {
      if (!valid_day (f, f->year))
        return FALSE;
      wall = wall_seconds (f, f->year);
      gmtoff = offset_for (parser, f, wall, now);
    }
  else
    {
      /* syslog-ng's guess: this year, but December's stamps read in
       * January are last year's and January's read in December next year's */
      struct tm tm;
      gint32 unused;
      SlTime today = { now * G_USEC_PER_SEC, 0 };
      sl_time_to_tm (&today, parser->zone, &tm, &unused);
      gint year = tm.tm_year + 1900;
      if (f->has_date && f->month == 12 && tm.tm_mon == 0)
        year--;
      else if (f->has_date && f->month == 1 && tm.tm_mon == 11)
        year++;
      if (!valid_day (f, year))
        return FALSE;
      wall = wall_seconds (f, year);
      gmtoff = offset_for (parser, f, wall, now);
    }
  *out = (SlTime) { (wall - gmtoff) * G_USEC_PER_SEC + f->usec, gmtoff };
  return TRUE;
}

static gboolean
parse_with (const DateParser *parser, const GArray *items, const gchar *text, gsize len, SlTime *out)
{
  DateFields f = { .pm = -1 };
  gsize pos = 0;

  for (guint i = 0; i < items->len; i++)
    if (!read_item (&g_array_index (items, DateItem, i), text, len, &pos, &f))
      return FALSE;
  return pos == len && resolve (parser, &f, out);
}

static gboolean
date_parser_process (SlDriver *self, SlMessage **msg)
{
  DateParser *parser = (DateParser *) self;
  gsize len;
  const gchar *input = sl_parser_input (parser->template, *msg, &len);
  SlTime t;

  for (guint i = 0; i < parser->formats->len; i++)
    if (parse_with (parser, g_ptr_array_index (parser->formats, i), input, len, &t))
      {
        sl_message_make_writable (msg);
        if (parser->set_recvd)
          (*msg)->recvd = t;
        else
          (*msg)->stamp = t;
        return TRUE;
      }
  sl_counter_add (parser->failed, 1);
  return FALSE;
}

static void
date_parser_free (SlDriver *self)
{
  DateParser *parser = (DateParser *) self;

  if (parser->formats)
    g_ptr_array_unref (parser->formats);
  if (parser->zone)
    g_time_zone_unref (parser->zone);
}

static const SlParserOps date_parser_ops = { .process = date_parser_process };

static const SlDriverClass date_parser_class = {
  .kind = SL_DRIVER_PARSER,
  .name = "date-parser",
  .summary = "sets the message's time from a timestamp in it",
  .options = date_parser_options,
  .instance_size = sizeof (DateParser),
  .init = date_parser_init,
  .free = date_parser_free,
  .ops.parser = &date_parser_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "date-parser",
  .drivers = (const SlDriverClass *const[]) { &date_parser_class, NULL },
};
