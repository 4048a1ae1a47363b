/* SPDX-License-Identifier: GPL-2.0-or-later */
/* RFC 5424: <PRI>1 TIMESTAMP HOSTNAME APP-NAME PROCID MSGID SD [SP MSG],
 * read as syslog-ng 3.38 reads it (modules/syslogformat/syslog-format.c):
 * a line without "<PRI>1 " is RFC 3164; after that anything out of place
 * is a parse error, and the place is reported. Under syslog_ng_4 also as
 * 4.8 reads it: a digit before the first space is an octet count, and a
 * param value may come without quotes. */
#include "plugins/parsers/syslog/syslog-private.h"

#include <string.h>

/* syslog-ng's limits: header fields cut to these */
#define APP_NAME_MAX 48
#define PROCID_MAX 128
#define MSGID_MAX 32

static const gchar utf8_bom[] = "\xEF\xBB\xBF";

static gboolean
scan_version (Scan *s)
{
  Scan t = *s;
  gint version = 0;

  while (t.p < t.end && *t.p != ' ')
    {
      if (!g_ascii_isdigit (*t.p))
        return FALSE;
      version = MIN (version * 10 + (*t.p - '0'), 1000);
      t.p++;
    }
  if (version != 1)
    return FALSE;
  *s = t;
  return TRUE;
}

/* APP-NAME, PROCID, MSGID: up to the next space, "-" for none, cut to max. */
static void
parse_column (SlMessage *msg, Scan *s, SlHandle field, gsize max)
{
  const gchar *space = memchr (s->p, ' ', scan_left (s));
  if (!space)
    {
      s->p = s->end;
      return;
    }
  gsize len = space - s->p;
  if (len > 1 || *s->p != '-')
    sl_message_set_slice (msg, field, s->p, MIN (len, max));
  s->p = space;
}

/* A sender can fill the field-name registry: the structured data of a
 * message with names it refused is kept whole (a slice of the message), so
 * that $SDATA still carries everything received; so is every message's
 * under flags(sdata-as-received). Anything else than '-' or '[' is no
 * structured data and is left for the message. */
static gboolean
parse_structured_data (SlMessage *msg, Scan *s, gboolean syslog_ng_4, gboolean as_received)
{
  if (scan_skip (s, '-') || !scan_at (s, '['))
    return TRUE;
  static const SyslogSdTarget sdata = { SYSLOG_SDATA_PREFIX, sizeof SYSLOG_SDATA_PREFIX - 1, TRUE, FALSE, FALSE, FALSE };
  static const SyslogSdTarget sdata_4 = { SYSLOG_SDATA_PREFIX, sizeof SYSLOG_SDATA_PREFIX - 1, TRUE, FALSE, TRUE, FALSE };
  const gchar *start = s->p;
  gboolean refused = FALSE;
  if (!syslog_sd_parse_elements (msg, s, syslog_ng_4 ? &sdata_4 : &sdata, &refused))
    return FALSE;
  if (refused || as_received)
    sl_message_keep_sdata (msg, start, s->p - start);
  return TRUE;
}

static gboolean
parse_after_version (SlMessage *msg, Scan *s, const SyslogOptions *options)
{
  if (!scan_skip (s, ' '))
    return FALSE;
  if (scan_skip (s, '-'))
    {
      msg->stamp = msg->recvd;
      if (options->syslog_ng_4)
        sl_message_set_tag_id (msg, SL_TAG_SYSLOG_MISSING_TIMESTAMP);
    }
  else if (!syslog_scan_iso_stamp (s, &msg->stamp))
    return FALSE;
  else if (s->p[-1] == 'Z')
    msg->flags |= SL_MSG_STAMP_Z;
  if (!scan_skip (s, ' '))
    return FALSE;

  const gchar *host;
  gsize host_len;
  if (!syslog_scan_hostname (s, options->check_hostname, &host, &host_len))
    {
      /* syslog-ng points past the character that is not a space */
      if (s->p < s->end)
        s->p++;
      return FALSE;
    }
  s->p++;
  if (host_len != 1 || *host != '-')
    sl_message_set_slice (msg, SL_F_HOST, host, host_len);

  parse_column (msg, s, SL_F_PROGRAM, APP_NAME_MAX);
  if (!scan_skip (s, ' '))
    return FALSE;
  parse_column (msg, s, SL_F_PID, PROCID_MAX);
  if (!scan_skip (s, ' '))
    return FALSE;
  parse_column (msg, s, SL_F_MSGID, MSGID_MAX);
  if (!scan_skip (s, ' ') || !parse_structured_data (msg, s, options->syslog_ng_4, options->sdata_as_received))
    return FALSE;

  /* MSG is optional; when it is there a space separates it */
  if (s->p < s->end)
    {
      if (!scan_skip (s, ' '))
        return FALSE;
      if (scan_starts_with (s, utf8_bom, sizeof utf8_bom - 1))
        s->p += sizeof utf8_bom - 1;
    }
  sl_message_set_slice (msg, SL_F_MESSAGE, s->p, scan_left (s));
  return TRUE;
}

gboolean
syslog_parse_rfc5424 (SlMessage *msg, Scan *s, const SyslogOptions *options, gsize *error_at)
{
  const gchar *start = s->p;
  Scan t = *s;

  /* 4.8 takes a leading "1 " for an octet count, never for a version */
  if (options->syslog_ng_4)
    syslog_scan_unexpected_framing (msg, &t);
  if (!syslog_scan_pri (&t, options->default_pri, &msg->pri) || !scan_version (&t))
    {
      if (!options->no_rfc3164_fallback)
        return syslog_parse_rfc3164 (msg, s, options, error_at);
      *error_at = t.p - start;
      return FALSE;
    }
  *s = t;
  msg->flags |= SL_MSG_RFC5424;
  if (parse_after_version (msg, s, options))
    return TRUE;
  *error_at = s->p - start;
  return FALSE;
}
