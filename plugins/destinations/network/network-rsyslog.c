/* SPDX-License-Identifier: GPL-2.0-or-later */
/* omfwd as network(): target= and port= (514) over UDP, or TCP with
 * protocol="tcp", TLS when the stream driver's mode is 1, each message
 * made by RSYSLOG_TraditionalForwardFormat unless template= names
 * another. Legacy @host and @@host reach it as the same parameters, with
 * $ActionSendStreamDriver*'s as the stream driver's. omuxsock as
 * unix-dgram(): legacy only, as in rsyslogd. */
#include "plugins/destinations/network/network-rsyslog.h"
#include "core/i18n.h"

/* what rsyslogd's omfwd takes; those that change nothing Sluice writes
 * (keepalive, rebinding, source address) are taken as they were before
 * the mapping moved here */
static const gchar *const omfwd_params[] = {
  "target", "port", "protocol", "tcp_framing", "address", "keepalive", "rebindinterval", "udp.sendtoall",
  "streamdriver", "streamdrivermode", "streamdriverauthmode", "streamdriverpermittedpeers", NULL,
};

static const gchar *
template_name (SlRsCall *call)
{
  const gchar *name = sl_rs_call_value (call, "template");
  return name ? name : "RSYSLOG_TraditionalForwardFormat";
}

static gboolean
omfwd_write (SlRsCall *call, GString *driver, GError **error)
{
  const gchar *target = sl_rs_call_value (call, "target");
  const gchar *port = sl_rs_call_value (call, "port");
  const gchar *protocol = sl_rs_call_value (call, "protocol");
  const gchar *framing = sl_rs_call_value (call, "tcp_framing");
  const gchar *size = sl_rs_call_global (call, "maxmessagesize");
  gboolean tcp = protocol && g_ascii_strcasecmp (protocol, "tcp") == 0;
  gboolean octets = framing && g_ascii_strcasecmp (framing, "octet-counted") == 0;
  g_autoptr (GString) tls = g_string_new (NULL);

  if (!target)
    return sl_rs_call_fail (call, NULL, error, _("rsyslog's omfwd needs target="));
  if (sl_rs_call_flag (call, "udp.sendtoall", FALSE))
    return sl_rs_call_refuse (call, "udp.sendtoall", error,
                              _("Sluice sends to the first address the target resolves to, as omfwd does when it "
                                "is off"));
  if (framing && g_ascii_strcasecmp (framing, "traditional") != 0 && !octets)
    return sl_rs_call_fail (call, "tcp_framing", error,
                            _("rsyslog's TCP_Framing=\"%s\" is not one of traditional and octet-counted"), framing);
  g_autofree gchar *text = sl_rs_call_template_value (call, template_name (call), error);
  if (!text)
    return FALSE;
  static const SlRsTlsParams names = { "streamdriver", "streamdrivermode", "streamdriverauthmode",
                                       "streamdriverpermittedpeers" };
  if (tcp && !sl_rs_call_tls (call, &names, FALSE, tls, error))
    return FALSE;
  g_string_append (driver, "network(");
  sl_rs_text_quote (driver, target);
  sl_rs_text_option (driver, "port", port && *port ? port : "514");
  /* address= is where omfwd sends from; keepAlive's probes and
   * rebindInterval's new connections change nothing that is sent */
  if (sl_rs_call_value (call, "address"))
    sl_rs_text_option (driver, "ip", sl_rs_call_value (call, "address"));
  g_string_append_printf (driver, " transport(%s)%s", !tcp ? "udp" : tls->len ? "tls" : "tcp", tls->str);
  /* omfwd cuts what the template makes to maxMessageSize, then over TCP
   * ends it with a line feed unless it ends with one */
  sl_rs_text_option (driver, "template", text);
  sl_rs_text_option (driver, "truncate-size", size ? size : "8096");
  if (tcp)
    g_string_append (driver, octets ? " octet-count(yes)" : " add-newline(yes)");
  g_string_append_c (driver, ')');
  return TRUE;
}

const SlRsModule network_omfwd = {
  "omfwd", SL_RS_MODULE_OUTPUT, omfwd_params, NULL, omfwd_write, SL_RS_MODULE_BUILTIN,
};

static const gchar *const omuxsock_params[] = { "socket", NULL };

/* one datagram a message to socket=, $OMUxSockSocket before :omuxsock:,
 * in RSYSLOG_TraditionalForwardFormat unless ;template or
 * $OMUxSockDefaultTemplate names another */
static gboolean
omuxsock_write (SlRsCall *call, GString *driver, GError **error)
{
  if (!sl_rs_call_value (call, "socket"))
    return sl_rs_call_fail (call, NULL, error, _("rsyslog's :omuxsock: needs $OMUxSockSocket before it"));
  g_autofree gchar *template = sl_rs_call_template (call, template_name (call), error);
  if (!template)
    return FALSE;
  g_string_append (driver, "unix-dgram(");
  sl_rs_text_quote (driver, sl_rs_call_value (call, "socket"));
  g_string_append_printf (driver, " template(%s))", template);
  return TRUE;
}

const SlRsModule network_omuxsock = {
  "omuxsock", SL_RS_MODULE_OUTPUT, omuxsock_params, NULL, omuxsock_write, SL_RS_MODULE_LEGACY_ONLY,
};
