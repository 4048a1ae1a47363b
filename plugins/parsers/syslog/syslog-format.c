/* SPDX-License-Identifier: GPL-2.0-or-later */
/* format("syslog") of sources, which reads RFC 3164 and RFC 5424 lines in
 * place. */
#include "plugins/parsers/syslog/syslog-private.h"

#include "core/message/macros.h"

#include <string.h>
#include <unistd.h>

/* "<PRI>1 ": what an RFC 5424 line starts with. */
static gboolean
looks_like_rfc5424 (const Scan *s)
{
  const gchar *p = s->p;
  if (p >= s->end || *p++ != '<')
    return FALSE;
  const gchar *digits = p;
  while (p < s->end && g_ascii_isdigit (*p) && p - digits < 3)
    p++;
  return p > digits && s->end - p >= 3 && p[0] == '>' && p[1] == '1' && p[2] == ' ';
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
syslog_parse (SlMessage *msg, const SyslogOptions *options, gsize *error_at)
{
  gsize len = msg->raw_len;
  gboolean ok = TRUE;

  /* a trailing newline or NUL is framing, not message; a CR is kept */
  while (len && (msg->raw[len - 1] == '\n' || msg->raw[len - 1] == '\0'))
    len--;
  Scan s = { msg->raw, msg->raw + len };

  msg->pri = options->default_pri;
  msg->stamp = msg->recvd;
  *error_at = 0;
  if (options->store_raw)
    sl_message_set_slice (msg, SL_F_RAWMSG, msg->raw, len);

  if (options->no_parse)
    sl_message_set_slice (msg, SL_F_MESSAGE, msg->raw, len);
  else if (options->syslog_protocol)
    ok = syslog_parse_rfc5424 (msg, &s, options, error_at);
  else if (!options->detect_syslog_protocol || !looks_like_rfc5424 (&s))
    ok = syslog_parse_rfc3164 (msg, &s, options, error_at);
  else if (!syslog_parse_rfc5424 (msg, &s, options, error_at))
    {
      /* flags(detect-syslog-protocol) reads a well-formed RFC 5424 line as
       * such (doc/compatibility.md); a broken one is RFC 3164, as it would
       * be without the flag */
      sl_message_clear_fields (msg);
      if (options->store_raw)
        sl_message_set_slice (msg, SL_F_RAWMSG, msg->raw, len);
      msg->pri = options->default_pri;
      msg->stamp = msg->recvd;
      s = (Scan) { msg->raw, msg->raw + len };
      ok = syslog_parse_rfc3164 (msg, &s, options, error_at);
    }

  if (ok && options->validate_utf8)
    flag_bad_utf8 (msg);
  return ok;
}

static const gchar *
own_pid (void)
{
  static gchar pid[16];
  static gsize done;

  if (g_once_init_enter (&done))
    {
      g_snprintf (pid, sizeof pid, "%d", (int) getpid ());
      g_once_init_leave (&done, 1);
    }
  return pid;
}

/* What syslog-ng makes of a line it cannot parse: its own error record,
 * the line quoted with ">@<" where parsing stopped, as program "syslog-ng",
 * so that filters and files treat it as syslog-ng's users expect. */
static void
make_error_record (SlMessage *msg, gsize error_at, gboolean syslog_ng_4)
{
  gsize len = msg->raw_len;
  while (len && (msg->raw[len - 1] == '\n' || msg->raw[len - 1] == '\0'))
    len--;
  error_at = MIN (error_at, len);

  sl_message_clear_fields (msg);
  msg->stamp = msg->recvd;
  msg->pri = SL_PRI_MAKE (5, 3);
  msg->flags |= SL_MSG_PARSE_ERROR | SL_MSG_LOCAL;
  GString *text = g_string_sized_new (len + 40);
  g_string_append (text, "Error processing log message: ");
  if (error_at > 0)
    {
      g_string_append_len (text, msg->raw, error_at - 1);
      g_string_append (text, ">@<");
      g_string_append_len (text, msg->raw + error_at - 1, len - error_at + 1);
    }
  else
    g_string_append_len (text, msg->raw, len);
  sl_message_set (msg, SL_F_MESSAGE, text->str, text->len);
  g_string_free (text, TRUE);
  /* 4.8's error record is a local message, of the local host; 3.38's
   * gets the sender's address, as any message without a host name */
  if (syslog_ng_4)
    sl_message_set (msg, SL_F_HOST, sl_macro_loghost (), -1);
  else
    sl_message_set (msg, SL_F_HOST, "", 0);
  sl_message_set (msg, SL_F_PROGRAM, "syslog-ng", -1);
  sl_message_set (msg, SL_F_PID, own_pid (), -1);
}

/* MSGFORMAT as syslog-ng 4 sets it (msg-format.c, syslog-format.c): what
 * the line was read as, "syslog-error" for one read as an error record */
static void
set_msgformat (SlMessage *msg, gboolean ok, gboolean no_parse)
{
  const gchar *name = no_parse ? "raw" : !ok ? "syslog-error" : (msg->flags & SL_MSG_RFC5424) ? "rfc5424" : "rfc3164";
  sl_message_set_static (msg, SL_F_MSGFORMAT, name, strlen (name));
}

static gboolean
syslog_format_parse (SlMessage *msg, const SlParseOptions *parse_options)
{
  gint pri = parse_options->default_pri;
  SyslogOptions options = {
    .syslog_protocol = parse_options->syslog_protocol,
    .no_rfc3164_fallback = parse_options->no_rfc3164_fallback,
    .detect_syslog_protocol = parse_options->detect_syslog_protocol,
    .no_parse = parse_options->no_parse,
    .store_raw = parse_options->store_raw,
    .no_hostname = parse_options->no_hostname,
    .default_pri = pri >= 0 && pri <= 255 ? (guint8) pri : SYSLOG_DEFAULT_PRI,
    .syslog_ng_4 = parse_options->syslog_ng_4,
    .sdata_as_received = parse_options->sdata_as_received,
  };
  gsize error_at;
  gboolean ok = syslog_parse (msg, &options, &error_at);

  if (!ok)
    make_error_record (msg, error_at, options.syslog_ng_4);
  if (options.syslog_ng_4)
    set_msgformat (msg, ok, options.no_parse);
  return ok;
}

static const SlFormatOps format_ops = { .parse = syslog_format_parse };

const SlDriverClass syslog_format_class = {
  .kind = SL_DRIVER_FORMAT,
  .name = "syslog",
  .summary = "RFC 3164 syslog lines; RFC 5424 with flags(syslog-protocol), or told apart by the version after <PRI> with flags(detect-syslog-protocol)",
  .ops.format = &format_ops,
};
