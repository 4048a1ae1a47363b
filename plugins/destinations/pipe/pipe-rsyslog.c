/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ompipe as pipe(): the named pipe pipe= (legacy |path), written in
 * RSYSLOG_FileFormat unless template= or $ActionFileDefaultTemplate names
 * another, as rsyslog 8.2302 does. */
#include "plugins/destinations/pipe/pipe-rsyslog.h"
#include "core/i18n.h"

static const gchar *const ompipe_params[] = { "pipe", NULL };

static gboolean
ompipe_write (SlRsCall *call, GString *driver, GError **error)
{
  if (!sl_rs_call_value (call, "pipe"))
    return sl_rs_call_fail (call, NULL, error, _("rsyslog's ompipe needs pipe="));
  g_autofree gchar *template = sl_rs_call_template (call, sl_rs_call_value (call, "template")
                                                            ? sl_rs_call_value (call, "template")
                                                            : "RSYSLOG_FileFormat", error);
  if (!template)
    return FALSE;
  g_string_append (driver, "pipe(");
  sl_rs_text_quote (driver, sl_rs_call_value (call, "pipe"));
  g_string_append_printf (driver, " template(%s))", template);
  return TRUE;
}

const SlRsModule pipe_ompipe = {
  "ompipe", SL_RS_MODULE_OUTPUT, ompipe_params, NULL, ompipe_write, SL_RS_MODULE_BUILTIN,
};
