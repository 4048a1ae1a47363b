/* SPDX-License-Identifier: GPL-2.0-or-later */
/* imjournal as systemd-journal(): its module(load=) parameters (and the
 * $IMJournal* directives, which the front end reads as those parameters)
 * make its one input. The tag from SYSLOG_IDENTIFIER, else _COMM; an
 * entry without SYSLOG_FACILITY or PRIORITY is user.notice unless
 * DefaultFacility/DefaultSeverity say otherwise; with no position kept,
 * from the journal's start unless IgnorePreviousMessages. The PID is
 * _PID, imjournal's UsePid="system". Its state file and how often it is
 * written: Sluice keeps the position in its persist file (-R).
 * Ratelimit.Interval/Burst: one window for every entry (not per process,
 * unlike imuxsock), 20000 entries in 600 seconds unless told otherwise,
 * counted by the clock, as rsyslogd 8.2302's imjournal counts. */
#include "plugins/sources/journal/journal-rsyslog.h"
#include "core/i18n.h"

/* what the front end took for imjournal before the mapping moved here;
 * the state file's parameters are Sluice's persist file's */
static const gchar *const imjournal_params[] = { "statefile", "ratelimit.interval", "ratelimit.burst",
                                                 "ignorepreviousmessages", "defaultseverity", "defaultfacility",
                                                 "usepidfromsystem", "usepid", "ignorenonvalidstatefile",
                                                 "workaroundjournalbug", "persiststateinterval", "filecreatemode",
                                                 "fsync", NULL };

/* UsePid="both", imjournal's default, takes SYSLOG_PID before _PID: the
 * same number unless a program wrote another PID in its message (logger
 * --id=N), where Sluice keeps _PID; "syslog" has no PID for what a service
 * writes to its standard output, and is refused */
static gboolean
check_use_pid (SlRsCall *call, GError **error)
{
  const gchar *value = sl_rs_call_value (call, "usepid");

  if (!value || g_ascii_strcasecmp (value, "system") == 0 || g_ascii_strcasecmp (value, "both") == 0)
    return TRUE;
  return sl_rs_call_fail (call, "usepid", error,
                          _("rsyslog's imjournal UsePid=\"%s\" is not supported: Sluice takes _PID (\"system\")"),
                          value);
}

static gboolean
append_syslog_name (SlRsCall *call, const gchar *param, const gchar *option, const gchar *def, gboolean facility,
                    GString *driver, GError **error)
{
  const gchar *value = sl_rs_call_value (call, param);
  const gchar *name = value ? sl_rs_syslog_name (value, facility) : def;

  if (!name)
    return sl_rs_call_fail (call, param, error,
                            facility ? _("'%s' is no syslog facility rsyslog takes here: give its name, such as local0")
                                     : _("'%s' is no syslog severity rsyslog takes here: give its name, such as info"),
                            value);
  g_string_append_printf (driver, "%s(%s) ", option, name);
  return TRUE;
}

static gboolean
imjournal_write (SlRsCall *call, GString *driver, GError **error)
{
  gint64 interval, burst;

  if (!sl_rs_call_refuse (call, "name", error, _("imjournal's input has no name, as in rsyslogd")))
    return FALSE;
  if (!check_use_pid (call, error) || !sl_rs_call_int (call, "ratelimit.interval", 600, &interval, error)
      || !sl_rs_call_int (call, "ratelimit.burst", 20000, &burst, error))
    return FALSE;
  g_string_append (driver, "systemd-journal(");
  if (!append_syslog_name (call, "defaultfacility", "default-facility", "user", TRUE, driver, error)
      || !append_syslog_name (call, "defaultseverity", "default-priority", "notice", FALSE, driver, error))
    return FALSE;
  g_string_append_printf (driver, "read-old-records(%s)",
                          sl_rs_call_flag (call, "ignorepreviousmessages", FALSE) ? "no" : "yes");
  if (interval > 0 && (burst <= 0 || burst > G_MAXINT))
    return sl_rs_call_fail (call, "ratelimit.burst", error,
                            _("rsyslog's imjournal needs a burst from 1 to %d when Ratelimit.Interval is set "
                              "(rsyslogd stops on 0)"), G_MAXINT);
  if (interval > 0)
    g_string_append_printf (driver, " rate-limit-interval(%" G_GINT64_FORMAT ") rate-limit-burst(%" G_GINT64_FORMAT
                            ")", MIN (interval, G_MAXINT), burst);
  g_string_append_c (driver, ')');
  return TRUE;
}

const SlRsModule journal_imjournal = {
  "imjournal", SL_RS_MODULE_INPUT, imjournal_params, imjournal_params, imjournal_write,
  SL_RS_MODULE_INPUT_AT_LOAD,
};
