/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog's mmpstrucdata as sdata-parser(): the structured data of the
 * message as $!rfc5424-sd!ID!PARAM (under jsonRoot), the names in lower
 * case unless sd_name.lowercase="off", an element without params the
 * empty object; a message without any is left as it is. Checked against rsyslogd 8.2302 by tests/functional/test-rsyslog-more. */
#include "plugins/parsers/syslog/syslog-private.h"
#include "core/i18n.h"

static const gchar *const mmpstrucdata_params[] = { "jsonroot", "sd_name.lowercase", NULL };

static gboolean
mmpstrucdata_write (SlRsCall *call, GString *driver, GError **error)
{
  const gchar *root = sl_rs_call_value (call, "jsonroot") ? sl_rs_call_value (call, "jsonroot") : "$!";

  if (root[0] != '$' || (root[1] != '!' && root[1] != '.' && root[1] != '/'))
    return sl_rs_call_refuse (call, "jsonroot", error, _("it takes a variable such as $!name"));
  g_autofree gchar *field = sl_rs_call_variable_field (call, root);
  g_autofree gchar *prefix = g_strconcat (field, field[1] ? "." : "", "rfc5424-sd.", NULL);
  g_autofree gchar *value = sl_rs_call_property (call, "structured-data", error);
  if (!value)
    return FALSE;
  g_string_append (driver, "sdata-parser(");
  sl_rs_text_option (driver, "template", value);
  sl_rs_text_option (driver, "prefix", prefix);
  g_string_append_printf (driver, " lowercase-names(%s) empty-objects(yes) escape-dots(yes))",
                          sl_rs_call_flag (call, "sd_name.lowercase", TRUE) ? "yes" : "no");
  return TRUE;
}

const SlRsModule syslog_mmpstrucdata = {
  "mmpstrucdata", SL_RS_MODULE_MODIFIER, mmpstrucdata_params, NULL, mmpstrucdata_write,
};
