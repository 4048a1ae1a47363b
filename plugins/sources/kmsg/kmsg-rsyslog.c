/* SPDX-License-Identifier: GPL-2.0-or-later */
/* imkmsg as kmsg(optional(yes)): every record of /dev/kmsg, whatever its
 * facility (what programs write there too, unlike imklog), tagged
 * "kernel:"; it takes no parameter in rsyslogd 8.2302. The $! variables
 * imkmsg sets are kmsg()'s .linux.* fields (doc/rsyslog.md, "Known
 * differences"). */
#include "plugins/sources/kmsg/kmsg-rsyslog.h"
#include "core/i18n.h"

static gboolean
imkmsg_write (SlRsCall *call, GString *driver, GError **error)
{
  g_string_append (driver, "kmsg(optional(yes))");
  return TRUE;
}

const SlRsModule kmsg_imkmsg = {
  "imkmsg", SL_RS_MODULE_INPUT, NULL, NULL, imkmsg_write, SL_RS_MODULE_INPUT_AT_LOAD,
};

/* imklog as kmsg(optional(yes) kernel-only(yes)): the kernel's records
 * of /dev/kmsg, those programs write there with a facility of their own
 * too with permitNonKernelFacility ($KLogPermitNonKernelFacility reaches
 * it). Of the others, parseKernelTimestamp changes nothing (kmsg() always
 * takes the kernel's stamp as the time, what its "on" does), nor does
 * consoleLogLevel (what the kernel prints on the console) or
 * RateLimitBurst without an interval; the rest is taken at its default
 * only. */
static const gchar *const imklog_params[] = { "permitnonkernelfacility", "consoleloglevel", "parsekerneltimestamp",
                                              "keepkerneltimestamp", "internalmsgfacility", "ratelimitinterval",
                                              "ratelimitburst", "logpath", NULL };

/* the syslog facility as rsyslogd reads it: by name or number */
static gboolean
syslog_facility (const gchar *value)
{
  return g_ascii_strcasecmp (value, "syslog") == 0 || g_str_equal (value, "5")
         || g_ascii_strcasecmp (value, "LOG_SYSLOG") == 0;
}

static gboolean
imklog_write (SlRsCall *call, GString *driver, GError **error)
{
  const gchar *interval = sl_rs_call_value (call, "ratelimitinterval");
  const gchar *facility = sl_rs_call_value (call, "internalmsgfacility");
  const gchar *path = sl_rs_call_value (call, "logpath");

  if (interval && !g_str_equal (interval, "0"))
    return sl_rs_call_fail (call, "ratelimitinterval", error,
                            _("the parameter 'RateLimitInterval' of rsyslog's module imklog is not supported: Sluice "
                              "does not limit the rate of the kernel's messages; only 0 (no limit, rsyslogd's "
                              "default) is taken"));
  if (!sl_rs_call_refuse_unless (call, "keepkerneltimestamp", "off", error,
                                 _("Sluice's kmsg() takes the kernel's stamp as the message's time and leaves no "
                                   "\"[seconds]\" in its text")))
    return FALSE;
  if (path && g_ascii_strcasecmp (path, "/proc/kmsg") != 0)
    return sl_rs_call_refuse_unless (call, "logpath", "/proc/kmsg", error,
                                     _("Sluice reads the kernel's log from /dev/kmsg, as rsyslogd from /proc/kmsg"));
  if (facility && !syslog_facility (facility))
    return sl_rs_call_refuse_unless (call, "internalmsgfacility", "syslog", error,
                                     _("it is the facility of imklog's own messages, which Sluice does not write"));
  g_string_append (driver, sl_rs_call_flag (call, "permitnonkernelfacility", FALSE)
                             ? "kmsg(optional(yes))" : "kmsg(optional(yes) kernel-only(yes))");
  return TRUE;
}

const SlRsModule kmsg_imklog = {
  "imklog", SL_RS_MODULE_INPUT, imklog_params, imklog_params, imklog_write, SL_RS_MODULE_INPUT_AT_LOAD,
};
