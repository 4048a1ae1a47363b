/* RFC 3164 as senders really write it: every part but the message is
 * optional, so this parser reads what it recognises and never fails. */
#include "plugins/parsers/syslog/syslog-private.h"

static const gchar repeated_text[] = "last message repeated";

static gboolean
is_program_char (gchar c)
{
  return c != ' ' && c != '[' && c != ':';
}

static gboolean
is_ipv6_char (gchar c)
{
  return g_ascii_isxdigit (c) || c == ':' || c == '.';
}

/* The word after the timestamp is a host name when it is made of host name
 * characters and a space follows it. A tag ("prog:", "prog[12]:") fails
 * that test, which is how glibc's lines without a host name are told apart.
 * A colon inside the word is only taken for an IPv6 address. */
static void
parse_hostname (SlMessage *msg, SlScan *s)
{
  const gchar *start = s->p;
  const gchar *p = start;
  gboolean has_colon = FALSE;
  gboolean ipv6_like = TRUE;

  for (; p < s->end && sl_syslog_is_hostname_char (*p); p++)
    {
      has_colon |= *p == ':';
      ipv6_like &= is_ipv6_char (*p);
    }
  gsize len = p - start;
  if (len == 0 || len > 255 || p >= s->end || *p != ' ' || p[-1] == ':'
      || (has_colon && !ipv6_like))
    return;
  sl_message_set_slice (msg, SL_F_HOST, start, len);
  s->p = p;
  sl_scan_skip_spaces (s);
}

/* syslog-ng's reading of the tag: a run of program characters, an optional
 * [pid], an optional colon and one space; whatever is there of it. */
static void
parse_program (SlMessage *msg, SlScan *s)
{
  const gchar *start = s->p;

  while (s->p < s->end && is_program_char (*s->p))
    s->p++;
  if (s->p > start)
    sl_message_set_slice (msg, SL_F_PROGRAM, start, s->p - start);

  if (sl_scan_at (s, '['))
    {
      const gchar *pid = s->p + 1;
      const gchar *p = pid;
      while (p < s->end && *p != ']' && *p != ' ' && *p != ':')
        p++;
      if (p < s->end && *p == ']')
        {
          if (p > pid)
            sl_message_set_slice (msg, SL_F_PID, pid, p - pid);
          s->p = p + 1;
        }
    }
  sl_scan_skip (s, ':');
  sl_scan_skip (s, ' ');
  if (s->p > start)
    sl_message_set_slice (msg, SL_F_LEGACY_MSGHDR, start, s->p - start);
}

static gboolean
scan_stamp (SlScan *s, const SlTime *recvd, SlTime *stamp)
{
  SlScan t = *s;

  if (!sl_syslog_scan_iso_stamp (&t, stamp) && !sl_syslog_scan_bsd_stamp (&t, recvd, stamp))
    return FALSE;
  /* Cisco ends the stamp with a colon */
  sl_scan_skip (&t, ':');
  if (t.p < t.end && *t.p != ' ')
    return FALSE;
  *s = t;
  return TRUE;
}

gboolean
sl_syslog_parse_rfc3164 (SlMessage *msg, SlScan *s, const SlSyslogOptions *options)
{
  guint8 pri;

  msg->pri = sl_syslog_scan_pri (s, &pri) ? pri : options->default_pri;
  sl_scan_skip_spaces (s);

  /* Without a timestamp the line is what a local program wrote, with no
   * host name in it. */
  if (scan_stamp (s, &msg->recvd, &msg->stamp))
    {
      sl_scan_skip_spaces (s);
      /* syslogd's summary of repeats names neither host nor program */
      if (!sl_scan_starts_with (s, repeated_text, sizeof repeated_text - 1))
        {
          parse_hostname (msg, s);
          parse_program (msg, s);
        }
    }
  else
    {
      msg->stamp = msg->recvd;
      parse_program (msg, s);
    }

  sl_message_set_slice (msg, SL_F_MESSAGE, s->p, sl_scan_left (s));
  return TRUE;
}
