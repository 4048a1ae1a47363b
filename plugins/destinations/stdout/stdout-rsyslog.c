/* SPDX-License-Identifier: GPL-2.0-or-later */
/* omstdout as stdout(): each message in RSYSLOG_FileFormat unless
 * template= or $ActionFileDefaultTemplate names another. */
#include "plugins/destinations/stdout/stdout-rsyslog.h"

static const gchar *const omstdout_params[] = { NULL };

static gboolean
omstdout_write (SlRsCall *call, GString *driver, GError **error)
{
  g_autofree gchar *template = sl_rs_call_template (call, sl_rs_call_value (call, "template")
                                                            ? sl_rs_call_value (call, "template")
                                                            : "RSYSLOG_FileFormat", error);
  if (!template)
    return FALSE;
  g_string_append_printf (driver, "stdout(template(%s))", template);
  return TRUE;
}

const SlRsModule stdout_omstdout = {
  "omstdout", SL_RS_MODULE_OUTPUT, omstdout_params, NULL, omstdout_write, 0,
};
