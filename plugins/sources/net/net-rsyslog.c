/* SPDX-License-Identifier: GPL-2.0-or-later */
/* imudp as udp(), imtcp and imptcp as tcp(): port= (514) on address=
 * (every one unless given), the host name the message carries kept
 * (rsyslog's hostname; fromhost is the sender); imtcp over TLS when its
 * stream driver's mode is 1 (streamDriver.* of the input, else of the
 * module or $InputTCPServerStreamDriver*), with the input's own
 * certificate files (streamDriver.caFile, certFile, keyFile) in place of
 * global()'s. Legacy $UDPServerRun and
 * $InputTCPServerRun reach them as port=. The parser chain and the
 * message size limit rsyslogd puts on a network input are the front
 * end's. */
#include "plugins/sources/net/net-rsyslog.h"

/* what the front end took for these inputs before the mapping moved here;
 * those that change nothing received (keepalive, sessions, flow control,
 * notices) are taken as they were */
static const gchar *const net_params[] = { "port", "address", "keepalive", "supportoctetcountedframing",
                                           "maxsessions", "flowcontrol", "notifyonconnectionclose", NULL };
static const gchar *const imtcp_params[] = { "port", "address", "keepalive", "supportoctetcountedframing",
                                             "maxsessions", "flowcontrol", "notifyonconnectionclose",
                                             "streamdriver.name", "streamdriver.mode", "streamdriver.authmode",
                                             "permittedpeer", "streamdriver.cafile", "streamdriver.certfile",
                                             "streamdriver.keyfile", NULL };

static gboolean
write_listener (SlRsCall *call, const gchar *driver_name, gboolean tls, GString *driver, GError **error)
{
  static const SlRsTlsParams names = { "streamdriver.name", "streamdriver.mode", "streamdriver.authmode",
                                       "permittedpeer", "streamdriver.cafile", "streamdriver.certfile",
                                       "streamdriver.keyfile" };
  const gchar *address = sl_rs_call_value (call, "address");
  const gchar *port = sl_rs_call_value (call, "port");

  g_string_append_printf (driver, "%s(", driver_name);
  if (address)
    {
      g_string_append (driver, "ip(");
      sl_rs_text_quote (driver, address);
      g_string_append (driver, ") ");
    }
  g_string_append (driver, "port(");
  sl_rs_text_quote (driver, port ? port : "514");
  g_string_append (driver, ") keep-hostname(yes)");
  if (tls && !sl_rs_call_tls (call, &names, TRUE, driver, error))
    return FALSE;
  g_string_append_c (driver, ')');
  return TRUE;
}

static gboolean
imudp_write (SlRsCall *call, GString *driver, GError **error)
{
  return write_listener (call, "udp", FALSE, driver, error);
}

static gboolean
imtcp_write (SlRsCall *call, GString *driver, GError **error)
{
  return write_listener (call, "tcp", TRUE, driver, error);
}

static gboolean
imptcp_write (SlRsCall *call, GString *driver, GError **error)
{
  return write_listener (call, "tcp", FALSE, driver, error);
}

const SlRsModule net_imudp = {
  "imudp", SL_RS_MODULE_INPUT, net_params, NULL, imudp_write, 0,
};
const SlRsModule net_imtcp = {
  "imtcp", SL_RS_MODULE_INPUT, imtcp_params, NULL, imtcp_write, 0,
};
const SlRsModule net_imptcp = {
  "imptcp", SL_RS_MODULE_INPUT, net_params, NULL, imptcp_write, 0,
};
