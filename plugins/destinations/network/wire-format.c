/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The wire format of the network destinations: a template as it renders
 * (the legacy BSD form by default), or syslog()'s RFC 5424 header built
 * here with the template as its MSG part, octet-counted on streams
 * (RFC 6587) as syslog-ng writes it. */
#include "plugins/destinations/network/network-destination.h"
#include "core/message/timeutil.h"

/* RFC 5424 header fields are printable US-ASCII without spaces, each of a
 * bounded length; NILVALUE "-" stands for an empty one. */
#define HOSTNAME_MAX 255
#define APP_NAME_MAX 48
#define PROCID_MAX 128
#define MSGID_MAX 32

static void
append_header_field (GString *out, const SlMessage *msg, SlHandle h, gsize max)
{
  gsize len = 0;
  const gchar *value = sl_message_get (msg, h, &len);
  if (!value || !len)
    {
      g_string_append_c (out, '-');
      return;
    }
  len = MIN (len, max);
  for (gsize i = 0; i < len; i++)
    {
      guchar c = value[i];
      /* a space or a control byte would end the field early for the
       * receiver and shift every field after it */
      g_string_append_c (out, c > ' ' && c < 0x7f ? (gchar) c : '_');
    }
}

static void
append_rfc5424 (const NetFormat *f, const SlMessage *msg, GString *out)
{
  g_string_append_c (out, '<');
  g_string_append_printf (out, "%u", msg->pri);
  g_string_append (out, ">1 ");
  sl_time_append (out, &msg->stamp, SL_TS_ISO, f->env.frac_digits, f->env.zone);
  g_string_append_c (out, ' ');
  append_header_field (out, msg, SL_F_HOST, HOSTNAME_MAX);
  g_string_append_c (out, ' ');
  append_header_field (out, msg, SL_F_PROGRAM, APP_NAME_MAX);
  g_string_append_c (out, ' ');
  append_header_field (out, msg, SL_F_PID, PROCID_MAX);
  g_string_append_c (out, ' ');
  append_header_field (out, msg, SL_F_MSGID, MSGID_MAX);
  g_string_append_c (out, ' ');
  gsize sd_start = out->len;
  sl_template_append (f->sdata, msg, &f->env, out);
  if (out->len == sd_start)
    g_string_append_c (out, '-');
  g_string_append_c (out, ' ');
  if (f->template)
    sl_template_append (f->template, msg, &f->env, out);
  else
    {
      gsize len = 0;
      const gchar *text = sl_message_get (msg, SL_F_MESSAGE, &len);
      if (text)
        g_string_append_len (out, text, len);
    }
}

static void
append_unframed (const NetFormat *f, const SlMessage *msg, GString *out)
{
  gsize start = out->len;
  if (f->rfc5424)
    append_rfc5424 (f, msg, out);
  else
    sl_template_append (f->template, msg, &f->env, out);
  if (f->truncate_size && out->len - start > f->truncate_size)
    g_string_truncate (out, start + f->truncate_size);
  if (f->add_newline && (out->len == start || out->str[out->len - 1] != '\n'))
    g_string_append_c (out, '\n');
}

void
net_format_append (const NetFormat *f, const SlMessage *msg, GString *out, GString *scratch)
{
  if (!f->octet_count)
    {
      append_unframed (f, msg, out);
      return;
    }
  g_string_truncate (scratch, 0);
  append_unframed (f, msg, scratch);
  g_string_append_printf (out, "%" G_GSIZE_FORMAT " ", scratch->len);
  g_string_append_len (out, scratch->str, scratch->len);
}
