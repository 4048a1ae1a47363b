/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The scanners both RFC parsers and syslog-parser() share: below them, so
 * that neither parser calls the other's file for them. */
#include "plugins/parsers/syslog/syslog-private.h"

gboolean
syslog_scan_pri (Scan *s, guint8 default_pri, guint8 *pri)
{
  Scan t = *s;
  guint value = 0;

  if (!scan_skip (&t, '<'))
    {
      *pri = default_pri;
      return TRUE;
    }
  for (; t.p < t.end && *t.p != '>'; t.p++)
    {
      if (!g_ascii_isdigit (*t.p))
        return FALSE;
      value = value * 10 + (*t.p - '0');
    }
  scan_skip (&t, '>');
  *pri = (guint8) value;
  *s = t;
  return TRUE;
}

/* syslog-ng 4.8 skips an octet count (RFC 6587, up to 10 digits and a
 * space) that the transport should have taken, and tags the message */
void
syslog_scan_unexpected_framing (SlMessage *msg, Scan *s)
{
  const gchar *p = s->p;

  while (p < s->end && g_ascii_isdigit (*p) && p - s->p <= 10)
    p++;
  if (p == s->p || p - s->p > 10 || p >= s->end || *p != ' ')
    return;
  sl_message_set_tag_id (msg, SL_TAG_SYSLOG_UNEXPECTED_FRAMING);
  s->p = p;
}

/* syslog-ng's guess whether a word with colons is an IPv6 address: hex
 * digits, at most 4 in a group, fewer than 8 colons. */
typedef struct
{
  gint groups;
  gint digits;
  gboolean failed;
} Ipv6Guess;

static void
ipv6_guess_feed (Ipv6Guess *g, gchar c)
{
  if (g->failed)
    return;
  if (c != ':' && !g_ascii_isxdigit (c))
    g->failed = TRUE;
  else if (c != ':' && ++g->digits > 4)
    g->failed = TRUE;
  else if (c == ':')
    {
      g->digits = 0;
      g->failed = ++g->groups >= 8;
    }
}

static gboolean
is_checked_hostname_char (gchar c)
{
  return g_ascii_isalnum (c) || c == '-' || c == '_' || c == '.' || c == ':' || c == '@' || c == '/';
}

/* The word from s->p to p, when a space follows it */
static gboolean
hostname_ends (Scan *s, const gchar *p, const gchar **start, gsize *len)
{
  if (p >= s->end || *p != ' ')
    return FALSE;
  *start = s->p;
  *len = p - s->p;
  s->p = p;
  return TRUE;
}

/* The word up to a space is a host name when a space follows it; a '['
 * ends it (a tag), and so does a colon unless the word reads as IPv6. */
gboolean
syslog_scan_hostname (Scan *s, gboolean check_hostname, const gchar **start, gsize *len)
{
  Ipv6Guess guess = { 0 };
  const gchar *p = s->p;
  const gchar *limit = s->p + MIN (scan_left (s), SYSLOG_HOSTNAME_MAX);

  /* Unchecked, a word without a colon ends where the loop below would end
   * it, as the IPv6 guess only decides what a colon does: found 16 bytes
   * at a time. A word with a colon takes the loop. */
  if (!check_hostname)
    {
      const gchar *stop = syslog_run_until (p, limit, ' ', '[', ':');
      if (stop == limit || *stop != ':')
        return hostname_ends (s, stop, start, len);
    }
  for (; p < limit && *p != ' ' && *p != '['; p++)
    {
      if (!guess.failed)
        ipv6_guess_feed (&guess, *p);
      if ((*p == ':' && guess.failed) || (check_hostname && !is_checked_hostname_char (*p)))
        break;
    }
  return hostname_ends (s, p, start, len);
}
