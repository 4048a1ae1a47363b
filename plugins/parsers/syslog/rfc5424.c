/* RFC 5424: <PRI>1 TIMESTAMP HOSTNAME APP-NAME PROCID MSGID SD [SP MSG].
 * Its header has one shape, so anything out of place is a parse error. */
#include "plugins/parsers/syslog/syslog-private.h"

#include <string.h>

#define SD_NAME_MAX 32
#define SDATA_PREFIX ".SDATA."

static const gchar utf8_bom[] = "\xEF\xBB\xBF";

/* A header field is a word followed by a space. */
static gboolean
scan_field (SlScan *s, const gchar **start, gsize *len)
{
  const gchar *p = s->p;

  while (p < s->end && *p != ' ')
    p++;
  if (p == s->p || p >= s->end)
    return FALSE;
  *start = s->p;
  *len = p - s->p;
  s->p = p + 1;
  return TRUE;
}

static gboolean
is_nil (const gchar *start, gsize len)
{
  return len == 1 && *start == '-';
}

static gboolean
is_hostname (const gchar *start, gsize len)
{
  for (gsize i = 0; i < len; i++)
    if (!sl_syslog_is_hostname_char (start[i]))
      return FALSE;
  return TRUE;
}

static gboolean
parse_header_field (SlMessage *msg, SlScan *s, SlHandle field, gboolean check_hostname)
{
  const gchar *start;
  gsize len;

  if (!scan_field (s, &start, &len))
    return FALSE;
  if (is_nil (start, len))
    return TRUE;
  if (check_hostname && !is_hostname (start, len))
    return FALSE;
  sl_message_set_slice (msg, field, start, len);
  return TRUE;
}

/* SD-NAME: 1 to 32 printable US-ASCII characters but = ] " and space. */
static gboolean
scan_sd_name (SlScan *s, const gchar **start, gsize *len)
{
  const gchar *p = s->p;

  while (p < s->end && *p > ' ' && *p < 127 && *p != '=' && *p != ']' && *p != '"')
    p++;
  if (p == s->p || p - s->p > SD_NAME_MAX)
    return FALSE;
  *start = s->p;
  *len = p - s->p;
  s->p = p;
  return TRUE;
}

static gboolean
is_escaped (gchar c)
{
  return c == '"' || c == '\\' || c == ']';
}

/* PARAM-VALUE in quotes: \" \\ and \] stand for the character itself, any
 * other backslash is kept as RFC 5424 says. Only a value with escapes in
 * it has to be copied. */
static gboolean
parse_sd_value (SlMessage *msg, SlHandle field, SlScan *s)
{
  if (!sl_scan_skip (s, '"'))
    return FALSE;

  const gchar *start = s->p;
  const gchar *p = start;
  gboolean has_escapes = FALSE;
  while (p < s->end && *p != '"')
    {
      if (*p == '\\' && p + 1 < s->end && is_escaped (p[1]))
        {
          has_escapes = TRUE;
          p++;
        }
      p++;
    }
  if (p >= s->end)
    return FALSE;
  s->p = p + 1;

  if (!has_escapes)
    {
      sl_message_set_slice (msg, field, start, p - start);
      return TRUE;
    }
  gchar *value = g_malloc (p - start);
  gsize len = 0;
  for (const gchar *q = start; q < p; q++)
    {
      if (*q == '\\' && q + 1 < p && is_escaped (q[1]))
        q++;
      value[len++] = *q;
    }
  sl_message_set (msg, field, value, len);
  g_free (value);
  return TRUE;
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

/* [id name="value" ...], each param stored as .SDATA.id.name; an element
 * without params is kept as an empty .SDATA.id so that it is seen. */
static gboolean
parse_sd_element (SlMessage *msg, SlScan *s, gboolean *refused)
{
  gchar name[sizeof SDATA_PREFIX + 2 * SD_NAME_MAX + 1];
  const gchar *id;
  gsize id_len;

  if (!sl_scan_skip (s, '[') || !scan_sd_name (s, &id, &id_len))
    return FALSE;
  /* names are built with copies, not printf: this runs for every param of
   * every message; scan_sd_name() bounds both parts to SD_NAME_MAX */
  gsize prefix_len = sizeof SDATA_PREFIX - 1 + id_len;
  memcpy (name, SDATA_PREFIX, sizeof SDATA_PREFIX - 1);
  memcpy (name + sizeof SDATA_PREFIX - 1, id, id_len);
  name[prefix_len] = '\0';
  if (sl_scan_at (s, ']'))
    sl_message_set_slice (msg, sd_handle (name, refused), s->p, 0);

  while (sl_scan_skip (s, ' '))
    {
      const gchar *param;
      gsize param_len;
      if (!scan_sd_name (s, &param, &param_len) || !sl_scan_skip (s, '='))
        return FALSE;
      name[prefix_len] = '.';
      memcpy (name + prefix_len + 1, param, param_len);
      name[prefix_len + 1 + param_len] = '\0';
      if (!parse_sd_value (msg, sd_handle (name, refused), s))
        return FALSE;
    }
  return sl_scan_skip (s, ']');
}

/* A sender can fill the field-name registry: the structured data of a
 * message with names it refused is kept whole (a slice of the message), so
 * that $SDATA still carries everything received. */
static gboolean
parse_structured_data (SlMessage *msg, SlScan *s)
{
  if (sl_scan_skip (s, '-'))
    return TRUE;
  if (!sl_scan_at (s, '['))
    return FALSE;
  const gchar *start = s->p;
  gboolean refused = FALSE;
  while (sl_scan_at (s, '['))
    if (!parse_sd_element (msg, s, &refused))
      return FALSE;
  if (refused)
    sl_message_keep_sdata (msg, start, s->p - start);
  return TRUE;
}

gboolean
sl_syslog_parse_rfc5424 (SlMessage *msg, SlScan *s, const SlSyslogOptions *options)
{
  guint8 pri;

  if (!sl_syslog_scan_pri (s, &pri))
    return FALSE;
  msg->pri = pri;
  if (!sl_scan_skip (s, '1') || !sl_scan_skip (s, ' '))
    return FALSE;

  if (!sl_scan_skip (s, '-') && !sl_syslog_scan_iso_stamp (s, &msg->stamp))
    return FALSE;
  if (!sl_scan_skip (s, ' '))
    return FALSE;

  if (!parse_header_field (msg, s, SL_F_HOST, options->check_hostname)
      || !parse_header_field (msg, s, SL_F_PROGRAM, FALSE)
      || !parse_header_field (msg, s, SL_F_PID, FALSE)
      || !parse_header_field (msg, s, SL_F_MSGID, FALSE)
      || !parse_structured_data (msg, s))
    return FALSE;

  /* MSG is optional; when it is there a space separates it */
  if (s->p < s->end && !sl_scan_skip (s, ' '))
    return FALSE;
  if (sl_scan_starts_with (s, utf8_bom, sizeof utf8_bom - 1))
    s->p += sizeof utf8_bom - 1;
  sl_message_set_slice (msg, SL_F_MESSAGE, s->p, sl_scan_left (s));
  return TRUE;
}
