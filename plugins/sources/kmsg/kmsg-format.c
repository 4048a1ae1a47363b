/* SPDX-License-Identifier: GPL-2.0-or-later */
/* format("linux-kmsg"): a /dev/kmsg record into a message, in place. */
#include "plugins/sources/kmsg/kmsg-private.h"

#include <string.h>

#define PROPERTY_PREFIX ".linux."
#define PROPERTY_NAME_MAX 32
/* LOG_FACMASK | LOG_PRIMASK: what the kernel accepts from a writer */
#define KMSG_PRI_MAX 1023

/* Decimal digits up to the next byte, which must be stop; *p moves past it. */
static gboolean
scan_number (const gchar **p, const gchar *end, gchar stop, guint64 *out)
{
  const gchar *q = *p;
  guint64 value = 0;
  while (q < end && g_ascii_isdigit (*q))
    {
      guint digit = *q++ - '0';
      if (value > (G_MAXUINT64 - digit) / 10)
        return FALSE;
      value = value * 10 + digit;
    }
  if (q == *p || q >= end || *q != stop)
    return FALSE;
  *p = q + 1;
  *out = value;
  return TRUE;
}

gboolean
kmsg_parse_header (const gchar *data, gsize len, KmsgHeader *header)
{
  const gchar *p = data;
  const gchar *end = data + len;
  const gchar *line_end = memchr (data, '\n', len);
  if (line_end)
    end = line_end;
  guint64 pri;
  guint64 usec;
  if (!scan_number (&p, end, ',', &pri) || pri > KMSG_PRI_MAX || !scan_number (&p, end, ',', &header->seq))
    return FALSE;
  /* the timestamp ends at a comma before the flags, or at the semicolon
   * when a writer leaves the flags out */
  const gchar *after_stamp = p;
  if (!scan_number (&p, end, ',', &usec))
    {
      p = after_stamp;
      if (!scan_number (&p, end, ';', &usec))
        return FALSE;
    }
  else
    {
      const gchar *semicolon = memchr (p, ';', end - p);
      if (!semicolon)
        return FALSE;
      p = semicolon + 1;
    }
  header->pri = (guint) pri;
  header->usec = usec;
  header->text_offset = p - data;
  return TRUE;
}

static gboolean
is_property_name (const gchar *name, gsize len)
{
  if (len == 0 || len > PROPERTY_NAME_MAX)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isalnum (name[i]) && name[i] != '_' && name[i] != '-' && name[i] != '.')
      return FALSE;
  return TRUE;
}

/* " KEY=VALUE" lines after the message: .linux.KEY = VALUE */
static void
parse_properties (SlMessage *msg, const gchar *p, const gchar *end)
{
  gchar name[sizeof PROPERTY_PREFIX + PROPERTY_NAME_MAX];
  while (p < end)
    {
      const gchar *line_end = memchr (p, '\n', end - p);
      if (!line_end)
        line_end = end;
      if (*p == ' ')
        {
          const gchar *key = p + 1;
          const gchar *eq = memchr (key, '=', line_end - key);
          if (eq && is_property_name (key, eq - key))
            {
              g_snprintf (name, sizeof name, PROPERTY_PREFIX "%.*s", (int) (eq - key), key);
              sl_message_set_slice (msg, sl_field_handle (name), eq + 1, line_end - (eq + 1));
            }
        }
      p = line_end + 1;
    }
}

gboolean
kmsg_parse (SlMessage *msg, gint64 boot_usec, const SlParseOptions *options)
{
  KmsgHeader header;
  sl_message_set (msg, SL_F_PROGRAM, "kernel", -1);
  msg->pri = options->default_pri;
  if (options->store_raw)
    sl_message_set_slice (msg, SL_F_RAWMSG, msg->raw, msg->raw_len);
  if (options->no_parse)
    {
      sl_message_set_slice (msg, SL_F_MESSAGE, msg->raw, msg->raw_len);
      return TRUE;
    }
  if (!kmsg_parse_header (msg->raw, msg->raw_len, &header))
    {
      msg->flags |= SL_MSG_PARSE_ERROR;
      sl_message_set_slice (msg, SL_F_MESSAGE, msg->raw, msg->raw_len);
      return FALSE;
    }
  /* a facility past local7 can only come from a program writing to
   * /dev/kmsg; its level is kept */
  msg->pri = header.pri <= 191 ? header.pri : SL_PRI_MAKE (0, header.pri);
  msg->stamp.usec = boot_usec + (gint64) MIN (header.usec, (guint64) G_MAXINT64 / 2);
  msg->stamp.gmtoff = msg->recvd.gmtoff;

  const gchar *text = msg->raw + header.text_offset;
  const gchar *end = msg->raw + msg->raw_len;
  const gchar *text_end = memchr (text, '\n', end - text);
  if (!text_end)
    text_end = end;
  sl_message_set_slice (msg, SL_F_MESSAGE, text, text_end - text);
  parse_properties (msg, text_end, end);
  return TRUE;
}

gint64
kmsg_boot_time (void)
{
  static gsize boot_plus_one;
  if (g_once_init_enter (&boot_plus_one))
    g_once_init_leave (&boot_plus_one, (gsize) (g_get_real_time () - g_get_monotonic_time ()) + 1);
  return (gint64) boot_plus_one - 1;
}

static gboolean
kmsg_format_parse (SlMessage *msg, const SlParseOptions *options)
{
  gboolean ok = kmsg_parse (msg, kmsg_boot_time (), options);
  /* MSGFORMAT as syslog-ng 4's linux-kmsg format sets it, and its
   * msg-format.c for no-parse and a record it cannot read */
  if (options->syslog_ng_4)
    {
      const gchar *name = options->no_parse ? "raw" : ok ? "linux:devkmsg" : "linux-kmsg-error";
      sl_message_set_static (msg, SL_F_MSGFORMAT, name, strlen (name));
    }
  return ok;
}

static const SlFormatOps kmsg_format_ops = {
  .parse = kmsg_format_parse,
};

const SlDriverClass kmsg_format_class = {
  .kind = SL_DRIVER_FORMAT,
  .name = "linux-kmsg",
  .summary = "records of the Linux kernel's log as /dev/kmsg gives them",
  .ops.format = &kmsg_format_ops,
};
