/* SPDX-License-Identifier: GPL-2.0-or-later */
/* RFC 5424: <PRI>1 TIMESTAMP HOSTNAME APP-NAME PROCID MSGID SD [SP MSG],
 * read as syslog-ng 3.38 reads it (modules/syslogformat/syslog-format.c):
 * a line without "<PRI>1 " is RFC 3164; after that anything out of place
 * is a parse error, and the place is reported. */
#include "plugins/parsers/syslog/syslog-private.h"

#include <string.h>

#define SDATA_PREFIX ".SDATA."
/* syslog-ng's limits: names up to 255 bytes, header fields cut to these */
#define SD_NAME_BUF 256
#define APP_NAME_MAX 48
#define PROCID_MAX 128
#define MSGID_MAX 32
/* an escaped value is unescaped here; only a longer one is allocated */
#define SD_VALUE_STACK 1024

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

static gboolean
is_sd_name_char (gchar c)
{
  return (guchar) c < 128 && c != '=' && c != ' ' && c != ']' && c != '"';
}

/* The handle of name; *refused is set when the registry is full. */
static SlHandle
sd_handle (const gchar *name, gboolean *refused)
{
  SlHandle h = sl_field_handle (name);
  if (h == SL_F_NONE)
    *refused = TRUE;
  return h;
}

/* PARAM-VALUE after its opening quote: \" \\ and \] stand for the character,
 * any other backslash is kept; an unescaped ']' is an error. Only a value
 * with escapes in it is copied. */
static gboolean
parse_sd_value (SlMessage *msg, SlHandle field, Scan *s)
{
  const gchar *start = s->p;
  gboolean quote = FALSE, has_escapes = FALSE;

  for (; s->p < s->end && (*s->p != '"' || quote); s->p++)
    {
      if (!quote && *s->p == '\\')
        quote = has_escapes = TRUE;
      else if (!quote && *s->p == ']')
        {
          s->p++;
          return FALSE;
        }
      else
        quote = FALSE;
    }
  if (!scan_at (s, '"'))
    return FALSE;
  const gchar *end = s->p++;

  if (!has_escapes)
    {
      sl_message_set_slice (msg, field, start, end - start);
      return TRUE;
    }
  gchar stack[SD_VALUE_STACK];
  gchar *value = end - start <= SD_VALUE_STACK ? stack : g_malloc (end - start);
  gsize len = 0;
  quote = FALSE;
  for (const gchar *q = start; q < end; q++)
    {
      if (!quote && *q == '\\')
        {
          quote = TRUE;
          continue;
        }
      if (quote && *q != '"' && *q != ']' && *q != '\\')
        value[len++] = '\\';
      value[len++] = *q;
      quote = FALSE;
    }
  sl_message_set (msg, field, value, len);
  if (value != stack)
    g_free (value);
  return TRUE;
}

/* One [id name="value" ...] after its '[', each param stored as
 * .SDATA.id.name; an element without params is kept as an empty .SDATA.id
 * so that it is seen. */
static gboolean
parse_sd_element (SlMessage *msg, Scan *s, gboolean *refused)
{
  gchar name[SD_NAME_BUF];
  const gsize prefix_len = sizeof SDATA_PREFIX - 1;
  gsize id_len = 0;

  memcpy (name, SDATA_PREFIX, prefix_len);
  if (s->p >= s->end || !is_sd_name_char (*s->p))
    return FALSE;
  for (; s->p < s->end && *s->p != ' ' && *s->p != ']'; s->p++)
    {
      if (id_len >= SD_NAME_BUF - 1 - prefix_len || !is_sd_name_char (*s->p))
        return FALSE;
      name[prefix_len + id_len++] = *s->p;
    }
  gsize element_len = prefix_len + id_len;
  name[element_len] = '\0';
  if (scan_at (s, ']'))
    sl_message_set_slice (msg, sd_handle (name, refused), s->p, 0);
  name[element_len] = '.';

  while (s->p < s->end && *s->p != ']')
    {
      if (!scan_skip (s, ' ') || s->p >= s->end || !is_sd_name_char (*s->p))
        return FALSE;
      gsize len = element_len + 1;
      for (; s->p < s->end && *s->p != '='; s->p++)
        {
          if (len >= SD_NAME_BUF - 1 || !is_sd_name_char (*s->p))
            return FALSE;
          name[len++] = *s->p;
        }
      name[len] = '\0';
      if (!scan_skip (s, '=') || !scan_skip (s, '"'))
        return FALSE;
      if (!parse_sd_value (msg, sd_handle (name, refused), s))
        return FALSE;
    }
  return scan_skip (s, ']');
}

/* A sender can fill the field-name registry: the structured data of a
 * message with names it refused is kept whole (a slice of the message), so
 * that $SDATA still carries everything received. Anything else than '-'
 * or '[' is no structured data and is left for the message. */
static gboolean
parse_structured_data (SlMessage *msg, Scan *s)
{
  if (scan_skip (s, '-') || !scan_at (s, '['))
    return TRUE;
  const gchar *start = s->p;
  gboolean refused = FALSE;
  while (scan_skip (s, '['))
    if (!parse_sd_element (msg, s, &refused))
      return FALSE;
  if (refused)
    sl_message_keep_sdata (msg, start, s->p - start);
  return TRUE;
}

static gboolean
parse_after_version (SlMessage *msg, Scan *s, const SyslogOptions *options)
{
  if (!scan_skip (s, ' '))
    return FALSE;
  if (scan_skip (s, '-'))
    msg->stamp = msg->recvd;
  else if (!syslog_scan_iso_stamp (s, &msg->stamp))
    return FALSE;
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
  if (!scan_skip (s, ' ') || !parse_structured_data (msg, s))
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

  if (!syslog_scan_pri (&t, options->default_pri, &msg->pri) || !scan_version (&t))
    {
      if (!options->no_rfc3164_fallback)
        return syslog_parse_rfc3164 (msg, s, options, error_at);
      *error_at = t.p - start;
      return FALSE;
    }
  *s = t;
  if (parse_after_version (msg, s, options))
    return TRUE;
  *error_at = s->p - start;
  return FALSE;
}
