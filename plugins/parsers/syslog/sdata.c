/* SPDX-License-Identifier: GPL-2.0-or-later */
/* RFC 5424 STRUCTURED-DATA elements, read as syslog-ng 3.38 reads them
 * (modules/syslogformat/syslog-format.c): for the SD column of a line
 * and for sdata-parser(). */
#include "plugins/parsers/syslog/syslog-private.h"

/* syslog-ng's limit: names up to 255 bytes */
#define SD_NAME_BUF 256
/* an escaped value is unescaped here; only a longer one is allocated */
#define SD_VALUE_STACK 1024

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

static void
store (SlMessage *msg, const SyslogSdTarget *target, SlHandle field, const gchar *value, gsize len)
{
  if (target->in_place)
    sl_message_set_slice (msg, field, value, len);
  else
    sl_message_set (msg, field, value, len);
}

/* PARAM-VALUE after its opening quote: \" \\ and \] stand for the character,
 * any other backslash is kept; an unescaped ']' is an error. Only a value
 * with escapes in it is copied. */
static gboolean
parse_sd_value (SlMessage *msg, const SyslogSdTarget *target, SlHandle field, Scan *s)
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
      store (msg, target, field, start, end - start);
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

/* A name's character at name[*len], in lower case for target->lowercase,
 * a '.' or '\' escaped for target->escape_dots; FALSE when it does not fit */
static gboolean
put_name_char (gchar *name, gsize *len, gchar c, const SyslogSdTarget *target)
{
  gboolean escape = target->escape_dots && (c == '.' || c == '\\');

  if (*len + escape >= SD_NAME_BUF - 1)
    return FALSE;
  if (escape)
    name[(*len)++] = '\\';
  name[(*len)++] = target->lowercase ? g_ascii_tolower (c) : c;
  return TRUE;
}

/* One [id name="value" ...] after its '[', each param stored as
 * PREFIXid.name; an element without params is kept as an empty PREFIXid
 * so that it is seen (the JSON { } for target->empty_objects). */
static gboolean
parse_sd_element (SlMessage *msg, Scan *s, const SyslogSdTarget *target, gboolean *refused)
{
  gchar name[SD_NAME_BUF];
  const gsize prefix_len = target->prefix_len;
  gsize element_len = prefix_len;

  memcpy (name, target->prefix, prefix_len);
  if (s->p >= s->end || !is_sd_name_char (*s->p))
    return FALSE;
  for (; s->p < s->end && *s->p != ' ' && *s->p != ']'; s->p++)
    if (!is_sd_name_char (*s->p) || !put_name_char (name, &element_len, *s->p, target))
      return FALSE;
  name[element_len] = '\0';
  if (scan_at (s, ']') && target->empty_objects)
    sl_message_set_typed (msg, sd_handle (name, refused), "{ }", 3, SL_VALUE_JSON);
  else if (scan_at (s, ']'))
    store (msg, target, sd_handle (name, refused), s->p, 0);
  name[element_len] = '.';

  while (s->p < s->end && *s->p != ']')
    {
      if (!scan_skip (s, ' ') || s->p >= s->end || !is_sd_name_char (*s->p))
        return FALSE;
      gsize len = element_len + 1;
      for (; s->p < s->end && *s->p != '='; s->p++)
        if (!is_sd_name_char (*s->p) || !put_name_char (name, &len, *s->p, target))
          return FALSE;
      name[len] = '\0';
      if (!scan_skip (s, '='))
        return FALSE;
      if (scan_skip (s, '"'))
        {
          if (!parse_sd_value (msg, target, sd_handle (name, refused), s))
            return FALSE;
        }
      else if (target->unquoted_values && s->p < s->end)
        {
          const gchar *start = s->p;
          while (s->p < s->end && *s->p != ' ' && *s->p != ']')
            s->p++;
          store (msg, target, sd_handle (name, refused), start, s->p - start);
        }
      else
        return FALSE;
    }
  return scan_skip (s, ']');
}

gboolean
syslog_sd_parse_elements (SlMessage *msg, Scan *s, const SyslogSdTarget *target, gboolean *refused)
{
  while (scan_skip (s, '['))
    if (!parse_sd_element (msg, s, target, refused))
      return FALSE;
  return TRUE;
}
