/* SPDX-License-Identifier: GPL-2.0-or-later */
/* RFC 3164 as syslog-ng 3.38 reads it (modules/syslogformat/syslog-format.c):
 * every part but the message is optional, so once the PRI is read the
 * parser takes what it recognises and never fails. Under syslog_ng_4, as
 * 4.8 reads it: a bad PRI fails nothing either, and what was missing is
 * tagged (syslog.*). */
#include "plugins/parsers/syslog/syslog-private.h"

static const gchar aix_forwarded[] = "Message forwarded from ";
static const gchar repeated_text[] = "last message repeated";

static SlHandle
sdata_handle (SlHandle *cache, const gchar *name)
{
  SlHandle h = __atomic_load_n (cache, __ATOMIC_RELAXED);
  if (h == SL_F_NONE)
    {
      h = sl_field_handle (name);
      __atomic_store_n (cache, h, __ATOMIC_RELAXED);
    }
  return h;
}

static void
skip_spaces (Scan *s)
{
  while (scan_skip (s, ' '))
    ;
}

/* Cisco's "123: " in front of the stamp, kept as .SDATA.meta.sequenceId. */
static void
parse_cisco_sequence (SlMessage *msg, Scan *s)
{
  static SlHandle sequence_id;
  const gchar *p = s->p;

  while (p < s->end && *p != ':')
    {
      if (!g_ascii_isdigit (*p))
        return;
      p++;
    }
  if (p >= s->end || p + 1 >= s->end || p[1] != ' ')
    return;
  sl_message_set_slice (msg, sdata_handle (&sequence_id, ".SDATA.meta.sequenceId"), s->p, p - s->p);
  s->p = p + 1;
}

/* Cisco marks a stamp from an unsynchronised clock with '*', a
 * synchronised one with '.'. */
static void
parse_cisco_stamp_mark (SlMessage *msg, Scan *s)
{
  static SlHandle is_synced;

  if (scan_at (s, '*') || scan_at (s, '.'))
    {
      sl_message_set (msg, sdata_handle (&is_synced, ".SDATA.timeQuality.isSynced"),
                      *s->p == '*' ? "0" : "1", 1);
      s->p++;
    }
}

/* The tag: a run of program characters, an optional [pid], an optional
 * colon and one space; whatever is there of it. */
static void
parse_program (SlMessage *msg, Scan *s)
{
  const gchar *start = s->p;

  s->p = syslog_run_until (s->p, s->end, ' ', '[', ':');
  sl_message_set_slice (msg, SL_F_PROGRAM, start, s->p - start);

  if (scan_at (s, '['))
    {
      const gchar *pid = s->p + 1;
      s->p = syslog_run_until (pid, s->end, ' ', ']', ':');
      if (s->p < s->end)
        sl_message_set_slice (msg, SL_F_PID, pid, s->p - pid);
      scan_skip (s, ']');
    }
  scan_skip (s, ':');
  scan_skip (s, ' ');
  sl_message_set_slice (msg, SL_F_LEGACY_MSGHDR, start, s->p - start);
}

static void
parse_header (SlMessage *msg, Scan *s, const SyslogOptions *options)
{
  parse_cisco_sequence (msg, s);
  skip_spaces (s);
  parse_cisco_stamp_mark (msg, s);

  if (!syslog_scan_rfc3164_stamp (s, &msg->recvd, options->syslog_ng_4, &msg->stamp))
    {
      /* no stamp: what a local program wrote, "program[pid]: message" */
      msg->stamp = msg->recvd;
      if (options->syslog_ng_4)
        {
          sl_message_set_tag_id (msg, SL_TAG_SYSLOG_MISSING_TIMESTAMP);
          sl_message_set_tag_id (msg, SL_TAG_SYSLOG_RFC3164_MISSING_HEADER);
        }
      parse_program (msg, s);
      return;
    }
  if (s->p[-1] == 'Z')
    msg->flags |= SL_MSG_STAMP_Z;

  const gchar *host = NULL;
  gsize host_len = 0;
  skip_spaces (s);
  /* AIX's syslogd names the host it relays for */
  if (scan_starts_with (s, aix_forwarded, sizeof aix_forwarded - 1))
    {
      s->p += sizeof aix_forwarded - 1;
      host = s->p;
      while (s->p < s->end && *s->p != ':')
        s->p++;
      host_len = s->p - host;
      while (scan_at (s, ' ') || scan_at (s, ':'))
        s->p++;
    }
  /* syslogd's summary of repeats names neither host nor program */
  if (!(scan_left (s) > sizeof repeated_text - 1
        && scan_starts_with (s, repeated_text, sizeof repeated_text - 1)))
    {
      if (!host && !options->no_hostname)
        {
          if (syslog_scan_hostname (s, options->check_hostname, &host, &host_len))
            skip_spaces (s);
          else if (options->syslog_ng_4)
            sl_message_set_tag_id (msg, SL_TAG_SYSLOG_INVALID_HOSTNAME);
        }
      parse_program (msg, s);
    }
  if (host)
    sl_message_set_slice (msg, SL_F_HOST, host, MIN (host_len, SYSLOG_HOSTNAME_MAX));
}

gboolean
syslog_parse_rfc3164 (SlMessage *msg, Scan *s, const SyslogOptions *options, gsize *error_at)
{
  const gchar *start = s->p;

  if (options->syslog_ng_4)
    syslog_scan_unexpected_framing (msg, s);
  gboolean has_pri = scan_at (s, '<');
  if (!syslog_scan_pri (s, options->default_pri, &msg->pri))
    {
      if (!options->syslog_ng_4)
        {
          *error_at = s->p - start;
          return FALSE;
        }
      /* syslog-ng 4.8 takes the line whole as the message */
      sl_message_set_tag_id (msg, SL_TAG_SYSLOG_INVALID_PRI);
      sl_message_set_slice (msg, SL_F_MESSAGE, s->p, scan_left (s));
      return TRUE;
    }
  if (options->syslog_ng_4 && !has_pri)
    sl_message_set_tag_id (msg, SL_TAG_SYSLOG_MISSING_PRI);
  parse_header (msg, s, options);
  sl_message_set_slice (msg, SL_F_MESSAGE, s->p, scan_left (s));
  return TRUE;
}
