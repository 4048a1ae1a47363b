/* The syslog plugin: format("syslog") of sources, which reads RFC 3164 and
 * RFC 5424 lines in place, and syslog-parser(), which reads one out of a
 * message's MESSAGE. */
#include "plugins/parsers/syslog/syslog-private.h"

gboolean
sl_syslog_scan_pri (SlScan *s, guint8 *pri)
{
  SlScan t = *s;
  gint value = 0;
  guint digits = 0;

  if (!sl_scan_skip (&t, '<'))
    return FALSE;
  for (; digits < 3 && sl_scan_at_digit (&t); digits++, t.p++)
    value = value * 10 + (*t.p - '0');
  if (digits == 0 || value > SL_SYSLOG_MAX_PRI || !sl_scan_skip (&t, '>'))
    return FALSE;
  *pri = (guint8) value;
  *s = t;
  return TRUE;
}

static gboolean
looks_like_rfc5424 (const SlScan *s)
{
  SlScan t = *s;
  guint8 pri;

  return sl_syslog_scan_pri (&t, &pri) && sl_scan_skip (&t, '1') && sl_scan_at (&t, ' ');
}

static void
flag_bad_utf8 (SlMessage *msg)
{
  gsize len;
  const gchar *text = sl_message_get (msg, SL_F_MESSAGE, &len);

  if (text && !g_utf8_validate_len (text, len, NULL))
    msg->flags |= SL_MSG_UTF8_BAD;
}

gboolean
sl_syslog_parse (SlMessage *msg, const SlSyslogOptions *options)
{
  SlScan s = { msg->raw, msg->raw + msg->raw_len };
  gboolean ok = TRUE;

  msg->pri = options->default_pri;
  msg->stamp = msg->recvd;
  if (options->store_raw)
    sl_message_set_slice (msg, SL_F_RAWMSG, msg->raw, msg->raw_len);

  if (options->no_parse)
    sl_message_set_slice (msg, SL_F_MESSAGE, msg->raw, msg->raw_len);
  else
    {
      if (looks_like_rfc5424 (&s) || (options->syslog_protocol && options->no_rfc3164_fallback))
        ok = sl_syslog_parse_rfc5424 (msg, &s, options);
      else
        ok = sl_syslog_parse_rfc3164 (msg, &s, options);
      if (!ok)
        {
          msg->flags |= SL_MSG_PARSE_ERROR;
          sl_message_set_slice (msg, SL_F_MESSAGE, msg->raw, msg->raw_len);
        }
    }

  if (options->validate_utf8)
    flag_bad_utf8 (msg);
  return ok;
}

static gboolean
syslog_format_parse (SlMessage *msg, const SlParseOptions *parse_options)
{
  gint pri = parse_options->default_pri;
  SlSyslogOptions options = {
    .syslog_protocol = parse_options->syslog_protocol,
    .no_rfc3164_fallback = parse_options->no_rfc3164_fallback,
    .no_parse = parse_options->no_parse,
    .store_raw = parse_options->store_raw,
    .default_pri = pri >= 0 && pri <= SL_SYSLOG_MAX_PRI ? (guint8) pri : SL_SYSLOG_DEFAULT_PRI,
  };

  return sl_syslog_parse (msg, &options);
}

static const SlFormatOps format_ops = { .parse = syslog_format_parse };

static const SlDriverClass format_class = {
  .kind = SL_DRIVER_FORMAT,
  .name = "syslog",
  .summary = "RFC 3164 and RFC 5424 syslog lines, told apart by the version after <PRI>",
  .ops.format = &format_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "syslog",
  .drivers = (const SlDriverClass *const[]) { &format_class, &sl_syslog_parser_class, NULL },
};
