/* SPDX-License-Identifier: GPL-2.0-or-later */
/* immark as mark(): rsyslogd's "-- MARK --" (or markMessageText) every
 * interval seconds (1200 unless given; $MarkMessagePeriod reaches it as
 * interval=), whatever else comes, syslog.info from "rsyslogd" as
 * rsyslogd writes it. use.syslogCall and use.markFlag change neither the
 * line nor where it goes; ruleset= is the front end's. Its one input is
 * made once the configuration is read. */
#include "plugins/sources/mark/mark-rsyslog.h"
#include "core/i18n.h"

static const gchar *const immark_params[] = { "interval", "markmessagetext", "ruleset", "use.markflag",
                                              "use.syslogcall", NULL };

static gboolean
immark_write (SlRsCall *call, GString *driver, GError **error)
{
  const gchar *interval = sl_rs_call_value (call, "interval");
  const gchar *text = sl_rs_call_value (call, "markmessagetext");
  gint64 period = 1200;

  if (interval && !g_ascii_string_to_signed (interval, 10, 1, G_MAXINT, &period, NULL))
    return sl_rs_call_fail (call, "interval", error,
                            _("immark's interval must be a number of seconds above 0 (rsyslogd makes no marks with "
                              "0)"));
  g_string_append_printf (driver, "mark(freq(%" G_GINT64_FORMAT ") program(\"rsyslogd\")", period);
  if (text)
    sl_rs_text_option (driver, "text", text);
  g_string_append_c (driver, ')');
  return TRUE;
}

const SlRsModule mark_immark = {
  "immark", SL_RS_MODULE_INPUT, immark_params, immark_params, immark_write, SL_RS_MODULE_INPUT_AT_LOAD,
};
