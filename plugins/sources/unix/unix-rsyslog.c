/* SPDX-License-Identifier: GPL-2.0-or-later */
/* imuxsock as unix-dgram(): the socket socket= names, the host name not
 * read from the message and the time it was received rather than the
 * message's, as imuxsock does. Legacy $AddUnixListenSocket and the
 * system socket (/dev/log, or SysSock.Name or $SystemLogSocketName, when
 * the module is loaded and SysSock.Use is on) reach it as socket=; the
 * system socket's settings are the front end's, which makes it once
 * everything is read. RateLimit.* (of the system socket: its
 * SysSock.RateLimit.* or $SystemLogRateLimit*; of $AddUnixListenSocket:
 * $IMUXSockRateLimit*) limit each sending process as imuxsock does:
 * rsyslogd 8.2302's defaults are interval 0 (no limit), burst 200,
 * severity 1 (emergencies pass). */
#include "plugins/sources/unix/unix-rsyslog.h"
#include "core/i18n.h"


/* what the front end took for imuxsock's inputs before the mapping moved
 * here, as it took them */
static const gchar *const imuxsock_params[] = { "socket", "createpath", "ignoretimestamp", "hostname",
                                                "usesystimestamp", "annotate", "parsetrusted", "usepidfromsystem",
                                                "ignoreownmessages", "unlink", "ratelimit.interval",
                                                "ratelimit.burst", "ratelimit.severity", NULL };

/* An integer parameter as rsyslogd reads one, def when not written. */
static gboolean
number (SlRsCall *call, const gchar *param, gint64 def, gint64 *out, GError **error)
{
  const gchar *value = sl_rs_call_value (call, param);
  gchar *end;

  *out = def;
  if (!value)
    return TRUE;
  *out = g_ascii_strtoll (value, &end, 10);
  if (*value && !*end)
    return TRUE;
  return sl_rs_call_fail (call, param, error, _("rsyslog's %s takes a number for %s, not '%s'"),
                          sl_rs_call_type (call), param, value);
}

/* rate-limit-*() for RateLimit.*; nothing when the interval is 0 or no
 * severity is limited (above 7) */
static gboolean
write_rate_limit (SlRsCall *call, GString *driver, GError **error)
{
  gint64 interval, burst, severity;

  if (!number (call, "ratelimit.interval", 0, &interval, error) || !number (call, "ratelimit.burst", 200, &burst, error)
      || !number (call, "ratelimit.severity", 1, &severity, error))
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
  /* the front end takes name= of every input; rsyslogd's imuxsock has none */
  if (!sl_rs_call_refuse (call, "name", error, _("imuxsock's inputs have no name, as in rsyslogd")))
    return FALSE;
  if (!sl_rs_call_value (call, "socket"))
    return sl_rs_call_fail (call, NULL, error, _("rsyslog's %s input needs socket="), sl_rs_call_type (call));
  g_string_append (driver, "unix-dgram(");
  sl_rs_text_quote (driver, sl_rs_call_value (call, "socket"));
  g_string_append (driver, " flags(no-hostname) keep-timestamp(no)");
  if (!write_rate_limit (call, driver, error))
    return FALSE;
  g_string_append_c (driver, ')');
  return TRUE;
}

const SlRsModule unix_imuxsock = {
  "imuxsock", SL_RS_MODULE_INPUT, imuxsock_params, NULL, imuxsock_write, 0,
};
