/* SPDX-License-Identifier: GPL-2.0-or-later */
/* RFC 5424 STRUCTURED-DATA elements, read as syslog-ng 3.38 reads them
 * (modules/syslogformat/syslog-format.c): for the SD column of a line
 * and for sdata-parser(). */
#include "plugins/parsers/syslog/syslog-private.h"

/* syslog-ng's limit: names up to 255 bytes */
#define SD_NAME_BUF 256
/* an escaped value is unescaped here; only a longer one is allocated */
#define SD_VALUE_STACK 1024

/* The bytes syslog-ng takes into an SD name: ASCII but '=', ' ', ']' and
 * '"'. A table: names are most of what an element's bytes are, and five
 * comparisons a byte were a sixth of reading one. */
static const guint8 sd_name_chars[256] = {
  [0x00 ... 0x1f] = TRUE, ['!'] = TRUE, ['#' ... '<'] = TRUE, ['>' ... '\\'] = TRUE, ['^' ... 0x7f] = TRUE,
};

static gboolean
is_sd_name_char (gchar c)
{
  return sd_name_chars[(guchar) c];
}

/* Where the name starting at p ends */
static const gchar *
sd_name_end (const gchar *p, const gchar *end)
{
  while (p < end && is_sd_name_char (*p))
    p++;
  return p;
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
  const gchar *start = s->p, *p = s->p;
  gboolean has_escapes = FALSE;

  for (;;)
    {
      p = syslog_run_until (p, s->end, '"', '\\', ']');
      if (p == s->end || *p != '\\')
        break;
      /* the backslash and the byte it quotes, whatever that is */
      has_escapes = TRUE;
      p = s->end - p > 2 ? p + 2 : s->end;
    }
  if (p < s->end && *p == ']')
    {
      s->p = p + 1;
      return FALSE;
    }
  s->p = p;
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
  gboolean quote = FALSE;
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

/* Appends len bytes of raw to name at *name_len as put_name_char() does:
 * the first that does not fit, or NULL */
static const gchar *
put_name (gchar *name, gsize *name_len, const gchar *raw, gsize len, const SyslogSdTarget *target)
{
  for (gsize i = 0; i < len; i++)
    if (!put_name_char (name, name_len, raw[i], target))
      return raw + i;
  return NULL;
}

/* The element being read: its raw id, its number in this thread's memory
 * of names (sd-names.c), and its full name once it is needed. */
typedef struct
{
  const SyslogSdTarget *target;
  const gchar *id;
  gsize id_len;
  guint32 number;
  gsize name_len;               /* 0 until name holds PREFIXid. */
  gchar *name;                  /* SD_NAME_BUF bytes */
} SdElement;

/* PREFIXid. in e->name; FALSE, with s->p at the byte of the id that does
 * not fit, when it is too long */
static gboolean
element_name (SdElement *e, Scan *s)
{
  if (e->name_len)
    return TRUE;
  gsize len = e->target->prefix_len;
  memcpy (e->name, e->target->prefix, len);
  const gchar *over = put_name (e->name, &len, e->id, e->id_len, e->target);
  if (over)
    {
      s->p = over;
      return FALSE;
    }
  e->name[len] = '.';
  e->name_len = len;
  return TRUE;
}

/* The id after the '[': FALSE, with s->p where syslog-ng's reading fails,
 * at a byte no name has or one that does not fit */
static gboolean
read_id (SdElement *e, Scan *s)
{
  e->id = s->p;
  s->p = sd_name_end (s->p, s->end);
  e->id_len = s->p - e->id;
  gboolean ended = e->id_len && (s->p == s->end || *s->p == ' ' || *s->p == ']');
  e->number = ended ? syslog_sd_names_element (e->target, e->id, e->id_len) : 0;
  if (e->number)
    return TRUE;
  if (!element_name (e, s) || !ended)
    return FALSE;
  e->number = syslog_sd_names_add_element (e->target, e->id, e->id_len);
  return TRUE;
}

/* The handle of the param whose name starts at s->p, read up to its '='
 * (left at s->p); FALSE, with s->p where reading fails, at a byte no name
 * has or one that does not fit. */
static gboolean
param_handle (SdElement *e, Scan *s, SlHandle *field, gboolean *refused)
{
  const gchar *raw = s->p;
  s->p = sd_name_end (s->p, s->end);
  gsize raw_len = s->p - raw;
  gboolean at_equals = s->p < s->end && *s->p == '=';
  *field = at_equals ? syslog_sd_names_param (e->number, raw, raw_len) : SL_F_NONE;
  if (*field)
    return TRUE;

  if (!element_name (e, s))
    return FALSE;
  gsize len = e->name_len + 1;
  const gchar *over = put_name (e->name, &len, raw, raw_len, e->target);
  if (over)
    s->p = over;
  if (over || !at_equals)
    return FALSE;
  e->name[len] = '\0';
  *field = sd_handle (e->name, refused);
  syslog_sd_names_add_param (e->number, raw, raw_len, *field);
  return TRUE;
}

/* One [id name="value" ...] after its '[', each param stored as
 * PREFIXid.name; an element without params is kept as an empty PREFIXid
 * so that it is seen (the JSON { } for target->empty_objects). A name is
 * built only when this thread has not seen it under this id. */
static gboolean
parse_sd_element (SlMessage *msg, Scan *s, const SyslogSdTarget *target, gboolean *refused)
{
  gchar name[SD_NAME_BUF];
  SdElement e = { .target = target, .name = name };

  if (!read_id (&e, s))
    return FALSE;
  if (scan_at (s, ']'))
    {
      if (!element_name (&e, s))
        return FALSE;
      e.name[e.name_len] = '\0';
      if (target->empty_objects)
        sl_message_set_typed (msg, sd_handle (e.name, refused), "{ }", 3, SL_VALUE_JSON);
      else
        store (msg, target, sd_handle (e.name, refused), s->p, 0);
      e.name[e.name_len] = '.';
    }

  while (s->p < s->end && *s->p != ']')
    {
      SlHandle field;
      if (!scan_skip (s, ' ') || s->p >= s->end || !is_sd_name_char (*s->p)
          || !param_handle (&e, s, &field, refused))
        return FALSE;
      s->p++;
      if (scan_skip (s, '"'))
        {
          if (!parse_sd_value (msg, target, field, s))
            return FALSE;
        }
      else if (target->unquoted_values && s->p < s->end)
        {
          const gchar *start = s->p;
          while (s->p < s->end && *s->p != ' ' && *s->p != ']')
            s->p++;
          store (msg, target, field, start, s->p - start);
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
