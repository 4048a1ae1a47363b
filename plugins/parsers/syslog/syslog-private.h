/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the files of the syslog plugin: the options both drivers parse
 * with, a bounded cursor over the received bytes, and the parsing steps. */
#ifndef SYSLOG_PRIVATE_H
#define SYSLOG_PRIVATE_H

#include <glib.h>
#include <string.h>
#include "core/message/message.h"
#include "core/plugin/plugin.h"

G_BEGIN_DECLS

/* syslog-ng's facility user, severity notice */
#define SYSLOG_DEFAULT_PRI 13

typedef struct
{
  /* RFC 5424 expected: a line without its <PRI>1 is read as RFC 3164, as
   * syslog-ng 3.38 does, or is a parse error under no_rfc3164_fallback */
  gboolean syslog_protocol;
  gboolean no_rfc3164_fallback;
  gboolean detect_syslog_protocol;   /* a well-formed RFC 5424 line as RFC 5424, any other as RFC 3164 */
  gboolean no_parse;          /* MESSAGE is the whole line */
  gboolean store_raw;         /* RAWMSG is the whole line */
  gboolean check_hostname;    /* an RFC 5424 HOSTNAME must be a host name */
  gboolean no_hostname;       /* an RFC 3164 line has no host name: the program follows the stamp */
  gboolean validate_utf8;     /* flag a MESSAGE that is not UTF-8 */
  guint8 default_pri;         /* for lines without <PRI> */
  /* syslog-ng 4.8's reading (@version: 4.x): tags on what was missing or
   * out of place, a bad <PRI> read as a message, an octet count that
   * should not be there skipped */
  gboolean syslog_ng_4;
  gboolean sdata_as_received;   /* $SDATA the text as it came (rsyslog's %structured-data%) */
} SyslogOptions;

/* The unread part of a line. Every read goes through these helpers or
 * checks p < end itself, so no input can make the parser read past it. */
typedef struct
{
  const gchar *p;
  const gchar *end;
} Scan;

typedef guint8 SyslogBytes16 __attribute__ ((vector_size (16)));
typedef guint64 SyslogWords2 __attribute__ ((vector_size (16)));

/* The index of the first byte of an eight-byte lane that is set */
static inline guint
syslog_first_set_byte (guint64 lane)
{
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
  return (guint) __builtin_ctzll (lane) / 8;
#else
  return (guint) __builtin_clzll (lane) / 8;
#endif
}

/* Where the run from p up to the first of the three stop characters (or
 * end) ends: 16 bytes compared at once by the compiler's vector extension
 * (SSE2 on x86-64) while 16 are left, then byte by byte. In a local
 * pointer: s->p written back per character cost the loop a store and a
 * load each, as a char read may alias it (the tag's runs, a host name). */
static inline const gchar *
syslog_run_until (const gchar *p, const gchar *end, gchar a, gchar b, gchar c)
{
  for (; end - p >= 16; p += 16)
    {
      SyslogBytes16 bytes;
      memcpy (&bytes, p, sizeof bytes);
      SyslogWords2 stop = (SyslogWords2) ((bytes == (guint8) a) | (bytes == (guint8) b) | (bytes == (guint8) c));
      if (stop[0])
        return p + syslog_first_set_byte (stop[0]);
      if (stop[1])
        return p + 8 + syslog_first_set_byte (stop[1]);
    }
  while (p < end && *p != a && *p != b && *p != c)
    p++;
  return p;
}

static inline gsize
scan_left (const Scan *s)
{
  return (gsize) (s->end - s->p);
}

static inline gboolean
scan_at (const Scan *s, gchar c)
{
  return s->p < s->end && *s->p == c;
}

static inline gboolean
scan_at_digit (const Scan *s)
{
  return s->p < s->end && g_ascii_isdigit (*s->p);
}

static inline gboolean
scan_skip (Scan *s, gchar c)
{
  if (!scan_at (s, c))
    return FALSE;
  s->p++;
  return TRUE;
}

static inline void
scan_skip_spaces (Scan *s)
{
  while (scan_skip (s, ' '))
    ;
}

/* Exactly n decimal digits. */
static inline gboolean
scan_digits (Scan *s, guint n, gint *out)
{
  if (scan_left (s) < n)
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
scan_starts_with (const Scan *s, const gchar *text, gsize len)
{
  return scan_left (s) >= len && memcmp (s->p, text, len) == 0;
}

/* `<PRI>` as syslog-ng reads it: any number of digits up to '>' (or the
 * end), kept in 8 bits. FALSE (s left alone) when something else than a
 * digit comes before the '>'; *pri is default_pri when there is no '<'. */
gboolean syslog_scan_pri (Scan *s, guint8 default_pri, guint8 *pri);

/* syslog-ng 4.8's check for an RFC 6587 octet count the transport should
 * have taken: up to 10 digits before a space are skipped (the space is
 * not) and the message tagged syslog.unexpected_framing. */
void syslog_scan_unexpected_framing (SlMessage *msg, Scan *s);

/* RFC 3339 with 'T' or a space between date and time, an optional fraction
 * and an optional zone ('Z' or +hh:mm); without a zone the stamp is local
 * time. Numbers out of range roll over, as syslog-ng's do. */
gboolean syslog_scan_iso_stamp (Scan *s, SlTime *out);
/* What syslog-ng reads as an RFC 3164 stamp: an ISO one, "Feb  3 2026
 * 12:34:56" (PIX, ASA), "Feb  3 12:34:56 2026" (Linksys), or "Feb  3
 * 12:34:56[.frac]" with the year guessed from recvd, with nopad_day
 * (syslog-ng 4.8) also "Feb 3 12:34:56"; then an optional colon. */
gboolean syslog_scan_rfc3164_stamp (Scan *s, const SlTime *recvd, gboolean nopad_day, SlTime *out);

/* The longest host name kept. */
#define SYSLOG_HOSTNAME_MAX 255
/* A host name as syslog-ng reads it: the word before a space, not cut by
 * '[', with colons only in what reads as IPv6; check_hostname limits it to
 * letters, digits and - _ . : @ /. FALSE (s left alone) when it is none. */
gboolean syslog_scan_hostname (Scan *s, gboolean check_hostname, const gchar **start, gsize *len);

/* Each sets every field it finds. FALSE means the line is malformed:
 * *error_at is where the parser stopped (0: at the start). */
gboolean syslog_parse_rfc3164 (SlMessage *msg, Scan *s, const SyslogOptions *options,
                                  gsize *error_at);
gboolean syslog_parse_rfc5424 (SlMessage *msg, Scan *s, const SyslogOptions *options,
                                  gsize *error_at);

/* Where structured data goes: each param as PREFIXid.param (prefix_len
 * bytes of prefix, at most SYSLOG_SD_PREFIX_MAX; prefix a literal or an
 * interned string, as long-lived as the process, for sd-names.c).
 * in_place: the text lies in msg->raw, and values are slices of it rather
 * than copies. lowercase: id and param in lower case (rsyslog's
 * mmpstrucdata's sd_name.lowercase). */
#define SYSLOG_SDATA_PREFIX ".SDATA."
#define SYSLOG_SD_PREFIX_MAX 128
typedef struct
{
  const gchar *prefix;
  gsize prefix_len;
  gboolean in_place;
  gboolean lowercase;
  gboolean unquoted_values;   /* syslog-ng 4.8's: a value without quotes runs to ' ' or ']' */
  gboolean empty_objects;     /* rsyslog's mmpstrucdata: an element without params is the JSON { } */
  gboolean escape_dots;       /* rsyslog's mmpstrucdata: a name's '.' is its own (core/message/member-name.h) */
} SyslogSdTarget;

/* The [id param="value" ...] elements at s, one after another, as long as
 * one begins there: FALSE at the first thing out of place (the fields
 * stored before it stay). *refused is set when the field registry refused
 * a name. */
gboolean syslog_sd_parse_elements (SlMessage *msg, Scan *s, const SyslogSdTarget *target, gboolean *refused);

/* sd-names.c: this thread's memory of the handles of names. The number of
 * the element with raw id id for target, 0 when not remembered; a new
 * number for it, remembered from now on (0 when too long to remember); the
 * handle of that element's param with raw name name, SL_F_NONE when not
 * remembered; remembering it. */
guint32 syslog_sd_names_element (const SyslogSdTarget *target, const gchar *id, gsize len);
guint32 syslog_sd_names_add_element (const SyslogSdTarget *target, const gchar *id, gsize len);
SlHandle syslog_sd_names_param (guint32 element, const gchar *name, gsize len);
void syslog_sd_names_add_param (guint32 element, const gchar *name, gsize len, SlHandle handle);

/* Parses msg->raw in place into msg; FALSE (and *error_at) as above. */
gboolean syslog_parse (SlMessage *msg, const SyslogOptions *options, gsize *error_at);

extern const SlDriverClass syslog_format_class;
extern const SlDriverClass syslog_parser_class;
extern const SlDriverClass syslog_sdata_parser_class;
/* rsyslog's mmpstrucdata, served by sdata-parser() */
extern const SlRsModule syslog_mmpstrucdata;

G_END_DECLS

#endif
