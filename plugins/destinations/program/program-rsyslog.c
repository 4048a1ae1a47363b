/* SPDX-License-Identifier: GPL-2.0-or-later */
/* omprog as program(): binary= started by the shell, each message written
 * to its stdin in RSYSLOG_FileFormat unless template= names another (as
 * omprog.c's default). */
#include "plugins/destinations/program/program-rsyslog.h"
#include "core/i18n.h"

/* as the front end took them before the mapping moved here (it shared one
 * list between omprog, ompipe, omusrmsg and omstdout), and module()'s
 * template= as it took it */
static const gchar *const omprog_params[] = { "binary", "users", "pipe", "usetransactions", "output",
                                              "forcesingleinstance", "hup.signal", "signalonclose",
                                              "killunresponsive", "closetimeout", "confirmmessages", "reportfailures",
                                              "ensurelf", NULL };
static const gchar *const omprog_module_params[] = { "template", NULL };

static gboolean
omprog_write (SlRsCall *call, GString *driver, GError **error)
{
  if (!sl_rs_call_value (call, "binary"))
    return sl_rs_call_fail (call, NULL, error, _("rsyslog's omprog needs binary="));
  g_autofree gchar *template = sl_rs_call_template (call, sl_rs_call_value (call, "template")
                                                            ? sl_rs_call_value (call, "template")
                                                            : "RSYSLOG_FileFormat", error);
  if (!template)
    return FALSE;
  g_string_append (driver, "program(");
  sl_rs_text_quote (driver, sl_rs_call_value (call, "binary"));
  g_string_append_printf (driver, " template(%s))", template);
  return TRUE;
}

const SlRsModule program_omprog = {
  "omprog", SL_RS_MODULE_OUTPUT, omprog_params, omprog_module_params, omprog_write,
};
