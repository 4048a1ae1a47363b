/* SPDX-License-Identifier: GPL-2.0-or-later */
/* imuxsock as unix-dgram(): the socket socket= names, the host name not
 * read from the message and, unless told otherwise, the time it was
 * received rather than the message's, as imuxsock does. Legacy
 * $AddUnixListenSocket and the system socket (/dev/log, or SysSock.Name or
 * $SystemLogSocketName, when the module is loaded and SysSock.Use is on)
 * reach it as socket=, with what $InputUnixListenSocket*, $SystemLog* or
 * the module's SysSock.* set as the parameters they stand for; the system
 * socket's settings are the front end's, which makes it once everything
 * is read. RateLimit.* (of the system socket: its SysSock.RateLimit.* or
 * $SystemLogRateLimit*; of $AddUnixListenSocket: $IMUXSockRateLimit*)
 * limit each sending process as imuxsock does: rsyslogd 8.2302's
 * defaults are interval 0 (no limit), burst 200, severity 1 (emergencies
 * pass). usePIDFromSystem is tag-pid(), ignoreOwnMessages
 * ignore-own-messages(), annotate annotate() (the trusted properties as
 * text after the message, or with parseTrusted parse-trusted(): as $!
 * fields): they read
 * the sender's credentials, which unix-dgram() asks the kernel for only
 * then. */
#include "plugins/sources/unix/unix-rsyslog.h"
#include "core/i18n.h"

static const gchar *const imuxsock_params[] = { "socket", "createpath", "ignoretimestamp", "hostname",
                                                "usesystimestamp", "annotate", "parsetrusted", "usepidfromsystem",
                                                "ignoreownmessages", "unlink", "flowcontrol", "usespecialparser",
                                                "parsehostname", "ratelimit.interval", "ratelimit.burst",
                                                "ratelimit.severity", NULL };

/* What rsyslogd 8.2302's imuxsock does otherwise than unix-dgram() can:
 * only the default is taken. parseHostname acts only with
 * useSpecialParser off (refused), and parseTrusted only with annotate on:
 * without those they change nothing, whatever their value. */
static gboolean
check_defaults (SlRsCall *call, GError **error)
{
  return sl_rs_call_refuse (call, "name", error, _("imuxsock's inputs have no name, as in rsyslogd"))
         && sl_rs_call_refuse (call, "hostname", error,
                               _("rsyslogd writes that name as the message's host and its sender (%%fromhost%%); "
                                 "Sluice's host-override() sets the first only"))
         && sl_rs_call_refuse_unless (call, "usespecialparser", "on", error,
                                      _("Sluice reads a local message as imuxsock's own parser does, never through "
                                        "rsyslogd's parser chain"))
         && sl_rs_call_refuse_unless (call, "unlink", "on", error,
                                      _("Sluice always removes an old socket file before it binds, where rsyslogd "
                                        "then fails to open the socket"))
         && sl_rs_call_refuse_unless (call, "flowcontrol", "off", error,
                                      _("Sluice cannot slow down a datagram socket's writers: past a full queue it "
                                        "drops what comes, as imuxsock does with flow control off"));
}

/* rate-limit-*() for RateLimit.*; nothing when the interval is 0 or no
 * severity is limited (above 7) */
static gboolean
write_rate_limit (SlRsCall *call, GString *driver, GError **error)
{
  gint64 interval, burst, severity;

  if (!sl_rs_call_int (call, "ratelimit.interval", 0, &interval, error)
      || !sl_rs_call_int (call, "ratelimit.burst", 200, &burst, error)
      || !sl_rs_call_int (call, "ratelimit.severity", 1, &severity, error))
    return FALSE;
  if (interval <= 0 || severity > 7)
    return TRUE;
  if (burst <= 0 || burst > G_MAXINT)
    return sl_rs_call_fail (call, "ratelimit.burst", error,
                            _("rsyslog's %s needs a burst from 1 to %d when RateLimit.Interval is set "
                              "(rsyslogd stops on 0)"), sl_rs_call_type (call), G_MAXINT);
  g_string_append_printf (driver, " rate-limit-interval(%" G_GINT64_FORMAT ") rate-limit-burst(%" G_GINT64_FORMAT
                          ") rate-limit-severity(%" G_GINT64_FORMAT ")", MIN (interval, G_MAXINT), burst,
                          MAX (severity, 0));
  return TRUE;
}

static gboolean
imuxsock_write (SlRsCall *call, GString *driver, GError **error)
{
  /* rsyslogd takes the kernel's receive time (useSysTimeStamp) before
   * anything else, then the message's own unless ignoreTimestamp */
  gboolean own_time = !sl_rs_call_flag (call, "usesystimestamp", TRUE) && !sl_rs_call_flag (call, "ignoretimestamp", TRUE);

  if (!check_defaults (call, error))
    return FALSE;
  if (!sl_rs_call_value (call, "socket"))
    return sl_rs_call_fail (call, NULL, error, _("rsyslog's %s input needs socket="), sl_rs_call_type (call));
  g_string_append (driver, "unix-dgram(");
  sl_rs_text_quote (driver, sl_rs_call_value (call, "socket"));
  g_string_append_printf (driver, " flags(no-hostname) keep-timestamp(%s)", own_time ? "yes" : "no");
  if (sl_rs_call_flag (call, "createpath", FALSE))
    g_string_append (driver, " create-dirs(yes)");
  if (sl_rs_call_flag (call, "usepidfromsystem", FALSE))
    g_string_append (driver, " tag-pid(yes)");
  if (sl_rs_call_flag (call, "ignoreownmessages", FALSE))
    g_string_append (driver, " ignore-own-messages(yes)");
  if (sl_rs_call_flag (call, "annotate", FALSE))
    g_string_append (driver, sl_rs_call_flag (call, "parsetrusted", FALSE) ? " annotate(yes) parse-trusted(yes)"
                                                                           : " annotate(yes)");
  if (!write_rate_limit (call, driver, error))
    return FALSE;
  g_string_append_c (driver, ')');
  return TRUE;
}

const SlRsModule unix_imuxsock = {
  "imuxsock", SL_RS_MODULE_INPUT, imuxsock_params, NULL, imuxsock_write, 0,
};
