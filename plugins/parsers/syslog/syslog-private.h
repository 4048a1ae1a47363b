/* Shared by the files of the syslog plugin: the options both drivers parse
 * with, a bounded cursor over the received bytes, and the parsing steps. */
#ifndef SL_SYSLOG_PRIVATE_H
#define SL_SYSLOG_PRIVATE_H

#include <glib.h>
#include <string.h>
#include "core/message.h"
#include "core/plugin.h"

G_BEGIN_DECLS

/* syslog-ng's facility user, severity notice */
#define SL_SYSLOG_DEFAULT_PRI 13
#define SL_SYSLOG_MAX_PRI 191

typedef struct
{
  /* RFC 5424 expected: a line without its <PRI>1 is read as RFC 3164, as
   * syslog-ng 3.38 does, or is a parse error under no_rfc3164_fallback */
  gboolean syslog_protocol;
  gboolean no_rfc3164_fallback;
  gboolean no_parse;          /* MESSAGE is the whole line */
  gboolean store_raw;         /* RAWMSG is the whole line */
  gboolean check_hostname;    /* an RFC 5424 HOSTNAME must be a host name */
  gboolean validate_utf8;     /* flag a MESSAGE that is not UTF-8 */
  guint8 default_pri;         /* for lines without <PRI> */
} SlSyslogOptions;

/* The unread part of a line. Every read goes through these helpers or
 * checks p < end itself, so no input can make the parser read past it. */
typedef struct
{
  const gchar *p;
  const gchar *end;
} SlScan;

static inline gsize
sl_scan_left (const SlScan *s)
{
  return (gsize) (s->end - s->p);
}

static inline gboolean
sl_scan_at (const SlScan *s, gchar c)
{
  return s->p < s->end && *s->p == c;
}

static inline gboolean
sl_scan_at_digit (const SlScan *s)
{
  return s->p < s->end && g_ascii_isdigit (*s->p);
}

static inline gboolean
sl_scan_skip (SlScan *s, gchar c)
{
  if (!sl_scan_at (s, c))
    return FALSE;
  s->p++;
  return TRUE;
}

static inline void
sl_scan_skip_spaces (SlScan *s)
{
  while (sl_scan_skip (s, ' '))
    ;
}

/* Exactly n decimal digits. */
static inline gboolean
sl_scan_digits (SlScan *s, guint n, gint *out)
{
  if (sl_scan_left (s) < n)
    return FALSE;
  gint value = 0;
  for (guint i = 0; i < n; i++)
    {
      if (!g_ascii_isdigit (s->p[i]))
        return FALSE;
      value = value * 10 + (s->p[i] - '0');
    }
  s->p += n;
  *out = value;
  return TRUE;
}

static inline gboolean
sl_scan_starts_with (const SlScan *s, const gchar *text, gsize len)
{
  return sl_scan_left (s) >= len && memcmp (s->p, text, len) == 0;
}

static inline gboolean
sl_syslog_is_hostname_char (gchar c)
{
  return g_ascii_isalnum (c) || c == '-' || c == '.' || c == '_' || c == ':';
}

/* `<PRI>`: 1 to 3 digits, at most 191. Leaves s alone when it is not one. */
gboolean sl_syslog_scan_pri (SlScan *s, guint8 *pri);

/* 2026-02-03T12:34:56[.frac][Z|+hh:mm]; a stamp without a zone is local time. */
gboolean sl_syslog_scan_iso_stamp (SlScan *s, SlTime *out);
/* Feb  3 12:34:56[.frac] with an optional year after the time or after the
 * day; the year, when missing, is guessed from recvd. */
gboolean sl_syslog_scan_bsd_stamp (SlScan *s, const SlTime *recvd, SlTime *out);

/* Each sets every field it finds; FALSE means the line is malformed and
 * the caller marks it so. */
gboolean sl_syslog_parse_rfc3164 (SlMessage *msg, SlScan *s, const SlSyslogOptions *options);
gboolean sl_syslog_parse_rfc5424 (SlMessage *msg, SlScan *s, const SlSyslogOptions *options);

/* Parses msg->raw in place into msg. */
gboolean sl_syslog_parse (SlMessage *msg, const SlSyslogOptions *options);

extern const SlDriverClass sl_syslog_parser_class;

G_END_DECLS

#endif
