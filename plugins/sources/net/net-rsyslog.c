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
 * end's. RateLimit.Interval and RateLimit.Burst (8.2302's defaults: 0,
 * no limit, and 10000) limit each socket of imudp, and each listening
 * port of imtcp and imptcp with all its connections together (tcpsrv.c
 * and imptcp.c keep one ratelimiter a listener), whoever sends, every
 * severity. */
#include "plugins/sources/net/net-rsyslog.h"
#include "core/i18n.h"

static const gchar *const imudp_params[] = { "port", "address", "ratelimit.interval", "ratelimit.burst", NULL };
static const gchar *const imptcp_params[] = { "port", "address", "keepalive", "supportoctetcountedframing",
                                              "maxsessions", "flowcontrol", "notifyonconnectionclose",
                                              "ratelimit.interval", "ratelimit.burst", NULL };
static const gchar *const imtcp_params[] = { "port", "address", "keepalive", "supportoctetcountedframing",
                                             "maxsessions", "maxlisteners", "flowcontrol",
                                             "notifyonconnectionclose", "discardtruncatedmsg",
                                             "addtlframedelimiter", "disablelfdelimiter", "maxframesize",
                                             "streamdriver.name", "streamdriver.mode", "streamdriver.authmode",
                                             "permittedpeer", "streamdriver.cafile", "streamdriver.certfile",
                                             "streamdriver.keyfile", "ratelimit.interval", "ratelimit.burst", NULL };

/* What rsyslogd 8.2302's imtcp and imptcp read or write otherwise than
 * tcp() can: only their defaults are taken (imtcp's module() sets them
 * for its inputs: the front end hands those on). keepAlive and
 * maxListeners change no message; maxSessions is max-connections(). */
static gboolean
check_stream_defaults (SlRsCall *call, gboolean imtcp, GError **error)
{
  if (!sl_rs_call_refuse_unless (call, "supportoctetcountedframing", "on", error,
                                 _("Sluice's tcp() reads a frame that starts with its length as rsyslogd does "
                                   "by default, and cannot read it as a line"))
      || !sl_rs_call_refuse_unless (call, "flowcontrol", "on", error,
                                    _("Sluice's stream sources wait while the queue is full, as rsyslogd's "
                                      "do by default"))
      || !sl_rs_call_refuse_unless (call, "notifyonconnectionclose", "off", error,
                                    _("Sluice writes no message of its own when a sender closes its "
                                      "connection")))
    return FALSE;
  return !imtcp
         || (sl_rs_call_refuse_unless (call, "discardtruncatedmsg", "off", error,
                                       _("Sluice reads what follows the cut of a line over the size limit as "
                                         "a message of its own, as rsyslogd does by default"))
             && sl_rs_call_refuse_unless (call, "addtlframedelimiter", "-1", error,
                                          _("Sluice's tcp() ends a message at a line feed only"))
             && sl_rs_call_refuse_unless (call, "disablelfdelimiter", "off", error,
                                          _("Sluice's tcp() ends a message at a line feed"))
             && sl_rs_call_refuse_unless (call, "maxframesize", "200000", error,
                                          _("Sluice's tcp() has no limit of its own on an octet-counted "
                                            "frame")));
}

static gboolean
write_listener (SlRsCall *call, const gchar *driver_name, gboolean tls, const gchar *maxsessions,
                const gchar *limits, GString *driver, GError **error)
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
  if (maxsessions)
    g_string_append_printf (driver, " max-connections(%s)", maxsessions);
  if (limits)
    g_string_append (driver, limits);
  if (tls && !sl_rs_call_tls (call, &names, TRUE, driver, error))
    return FALSE;
  g_string_append_c (driver, ')');
  return TRUE;
}

/* The rate-limit-*() options of RateLimit.Interval and RateLimit.Burst,
 * or nothing without an interval. */
static gboolean
rate_limits (SlRsCall *call, gchar **limits, GError **error)
{
  gint64 interval, burst;

  if (!sl_rs_call_int (call, "ratelimit.interval", 0, &interval, error)
      || !sl_rs_call_int (call, "ratelimit.burst", 10000, &burst, error))
    return FALSE;
  if (interval > 0 && (burst <= 0 || burst > G_MAXINT))
    return sl_rs_call_fail (call, "ratelimit.burst", error,
                            _("rsyslog's %s needs a burst from 1 to %d when RateLimit.Interval is set "
                              "(rsyslogd stops on 0)"), sl_rs_call_type (call), G_MAXINT);
  if (interval > 0)
    *limits = g_strdup_printf (" rate-limit-interval(%" G_GINT64_FORMAT ") rate-limit-burst(%" G_GINT64_FORMAT ")",
                               MIN (interval, G_MAXINT), burst);
  return TRUE;
}

static gboolean
imudp_write (SlRsCall *call, GString *driver, GError **error)
{
  g_autofree gchar *limits = NULL;
  return rate_limits (call, &limits, error) && write_listener (call, "udp", FALSE, NULL, limits, driver, error);
}

static gboolean
imtcp_write (SlRsCall *call, GString *driver, GError **error)
{
  /* imtcp serves 200 sessions by default, tcp() 10 */
  const gchar *sessions = sl_rs_call_value (call, "maxsessions");
  g_autofree gchar *limits = NULL;
  return check_stream_defaults (call, TRUE, error) && rate_limits (call, &limits, error)
         && write_listener (call, "tcp", TRUE, sessions ? sessions : "200", limits, driver, error);
}

/* imptcp limits its sessions only by a maxSessions above 0 (8.2302 and
 * 8.2504: none by default), so tcp()'s own limit of 10 must not count */
static gboolean
imptcp_write (SlRsCall *call, GString *driver, GError **error)
{
  gint64 sessions;
  g_autofree gchar *limit = NULL, *limits = NULL;

  if (!check_stream_defaults (call, FALSE, error) || !sl_rs_call_int (call, "maxsessions", 0, &sessions, error)
      || !rate_limits (call, &limits, error))
    return FALSE;
  limit = g_strdup_printf ("%" G_GINT64_FORMAT, sessions > 0 ? MIN (sessions, G_MAXINT) : G_MAXINT);
  return write_listener (call, "tcp", FALSE, limit, limits, driver, error);
}

const SlRsModule net_imudp = {
  "imudp", SL_RS_MODULE_INPUT, imudp_params, NULL, imudp_write, 0,
};
const SlRsModule net_imtcp = {
  "imtcp", SL_RS_MODULE_INPUT, imtcp_params, NULL, imtcp_write, 0,
};
const SlRsModule net_imptcp = {
  "imptcp", SL_RS_MODULE_INPUT, imptcp_params, NULL, imptcp_write, 0,
};
