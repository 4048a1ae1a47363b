/* SPDX-License-Identifier: GPL-2.0-or-later */
/* syslog-parser(): reads the MESSAGE of a message as a whole syslog line,
 * for lines that arrive wrapped in another one or from a no-parse source.
 * It parses ${MESSAGE} only; template() exists so that syslog-ng
 * configurations that spell that out still load. */
#include "plugins/parsers/syslog/syslog-private.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/message/template.h"

enum
{
  FLAG_SYSLOG_PROTOCOL = 1 << 0,
  FLAG_NO_PARSE        = 1 << 1,
  FLAG_STORE_RAW       = 1 << 2,
  FLAG_ASSUME_UTF8     = 1 << 3,
  FLAG_VALIDATE_UTF8   = 1 << 4,
  FLAG_CHECK_HOSTNAME  = 1 << 5,
  FLAG_NO_HEADER       = 1 << 6,
  FLAG_NO_RFC3164_FALLBACK = 1 << 7,
  FLAG_DETECT_SYSLOG_PROTOCOL = 1 << 8,
};

static const SlOptionWord syslog_parser_flag_words[] = {
  { "syslog-protocol", FLAG_SYSLOG_PROTOCOL },
  { "no-parse", FLAG_NO_PARSE },
  { "store-raw-message", FLAG_STORE_RAW },
  { "assume-utf8", FLAG_ASSUME_UTF8 },
  { "validate-utf8", FLAG_VALIDATE_UTF8 },
  { "check-hostname", FLAG_CHECK_HOSTNAME },
  { "no-header", FLAG_NO_HEADER },
  { "no-rfc3164-fallback", FLAG_NO_RFC3164_FALLBACK },
  { "detect-syslog-protocol", FLAG_DETECT_SYSLOG_PROTOCOL },
  { NULL }
};

typedef struct
{
  SlDriver base;
  guint32 flags;
  SlTemplate *template;
  SyslogOptions options;
} SyslogParser;

static const SlOptionSpec syslog_parser_options[] = {
  { "flags", SL_FLAGS (SyslogParser, flags), NULL, "how to read the line; assume-utf8 turns validate-utf8 off; RFC 3164 unless syslog-protocol (RFC 5424) "
    "or detect-syslog-protocol (RFC 5424 when the line starts with <PRI>1)",
    .words = syslog_parser_flag_words },
  { "template", SL_TEMPLATE (SyslogParser, template), "${MESSAGE}", "the text to parse; only ${MESSAGE} is supported" },
  { NULL }
};

static gboolean
syslog_parser_init (SlDriver *self, GError **error)
{
  SyslogParser *parser = (SyslogParser *) self;

  if (sl_template_single_field (parser->template) != SL_F_MESSAGE)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (self->options, "template"),
                        _("syslog-parser() can only parse ${MESSAGE}, not '%s'"),
                        sl_template_text (parser->template));
      return FALSE;
    }

  guint32 flags = parser->flags;
  parser->options = (SyslogOptions) {
    .syslog_protocol = (flags & FLAG_SYSLOG_PROTOCOL) != 0,
    .no_rfc3164_fallback = (flags & FLAG_NO_RFC3164_FALLBACK) != 0,
    .detect_syslog_protocol = (flags & FLAG_DETECT_SYSLOG_PROTOCOL) != 0,
    .no_parse = (flags & FLAG_NO_PARSE) != 0,
    .store_raw = (flags & FLAG_STORE_RAW) != 0,
    .check_hostname = (flags & FLAG_CHECK_HOSTNAME) != 0,
    .validate_utf8 = (flags & FLAG_VALIDATE_UTF8) && !(flags & FLAG_ASSUME_UTF8),
    .default_pri = SYSLOG_DEFAULT_PRI,
  };
  return TRUE;
}

static gboolean
copy_dynamic_field (SlHandle field, const gchar *value, gsize len, gpointer user_data)
{
  sl_message_set (user_data, field, value, len);
  return TRUE;
}

/* These describe the header of the line that was parsed, so one the line
 * lacks must not keep the value the outer line gave it. HOST is left
 * alone: the outer line's host is still where the message came from. */
static const SlHandle header_fields[] = {
  SL_F_PROGRAM, SL_F_PID, SL_F_MSGID, SL_F_LEGACY_MSGHDR,
};

static void
take_parsed_fields (SlMessage *msg, const SlMessage *parsed)
{
  msg->pri = parsed->pri;
  msg->stamp = parsed->stamp;
  msg->flags |= parsed->flags;
  for (guint i = 0; i < G_N_ELEMENTS (header_fields); i++)
    sl_message_unset (msg, header_fields[i]);
  for (SlHandle field = SL_F_NONE + 1; field < SL_F_BUILTIN_MAX; field++)
    {
      gsize len;
      const gchar *value = sl_message_get (parsed, field, &len);
      if (value)
        sl_message_set (msg, field, value, len);
    }
  sl_message_foreach_dynamic (parsed, copy_dynamic_field, msg);
  gsize sdata_len;
  const gchar *sdata = sl_message_kept_sdata (parsed, &sdata_len);
  if (sdata)
    sl_message_keep_sdata (msg, sdata, sdata_len);
}

/* flags(no-header), as syslog-ng: only <PRI> is read (the default one when
 * the line has none) and the rest, not even a space skipped, becomes
 * MESSAGE; the other fields keep what the message had. */
static gboolean
parse_pri_only (SyslogParser *parser, SlMessage **msg, const gchar *line, gsize len)
{
  Scan s = { line, line + len };
  guint8 pri = parser->options.default_pri;

  syslog_scan_pri (&s, parser->options.default_pri, &pri);
  sl_message_make_writable (msg);
  (*msg)->pri = pri;
  if (parser->options.store_raw)
    sl_message_set (*msg, SL_F_RAWMSG, line, len);
  sl_message_set (*msg, SL_F_MESSAGE, s.p, scan_left (&s));
  return TRUE;
}

/* The line is parsed in place as the raw bytes of a message of its own;
 * what it yields is copied over, since those slices die with it. */
static gboolean
syslog_parser_process (SlDriver *self, SlMessage **msg)
{
  SyslogParser *parser = (SyslogParser *) self;
  gsize len;
  const gchar *line = sl_message_get (*msg, SL_F_MESSAGE, &len);
  if (parser->flags & FLAG_NO_HEADER)
    return parse_pri_only (parser, msg, line ? line : "", line ? len : 0);

  SlMessage *parsed = sl_message_new (line, len);

  parsed->recvd = (*msg)->recvd;
  gsize error_at;
  gboolean ok = syslog_parse (parsed, &parser->options, &error_at);
  if (ok)
    {
      sl_message_make_writable (msg);
      take_parsed_fields (*msg, parsed);
    }
  sl_message_unref (parsed);
  return ok;
}

static const SlParserOps syslog_parser_ops = { .process = syslog_parser_process };

const SlDriverClass syslog_parser_class = {
  .kind = SL_DRIVER_PARSER,
  .name = "syslog-parser",
  .summary = "parses MESSAGE as an RFC 3164 or RFC 5424 line",
  .options = syslog_parser_options,
  .instance_size = sizeof (SyslogParser),
  .init = syslog_parser_init,
  .ops.parser = &syslog_parser_ops,
};
