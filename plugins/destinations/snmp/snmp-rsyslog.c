/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog's omsnmp as snmp(), as rsyslogd 8.2302 sends it (checked against
 * snmptrapd in tests/functional/test-rsyslog-more): with version="1" an
 * SNMPv2c trap of sysUpTime, snmpTrapOID trapOID and one variable,
 * messageOID, the template's text as an octet string (RSYSLOG_FileFormat
 * unless given), to server:port (162) over transport (udp) with community
 * (public). Without version, its action() sends SNMPv1 traps (version 0,
 * whatever its documentation says), which snmp() does not: refused.
 * enterpriseOID, trapType, specificType and snmpv1dynsource shape only
 * SNMPv1 traps. */
#include "plugins/destinations/snmp/snmp-rsyslog.h"
#include "core/i18n.h"

static const gchar *const omsnmp_params[] = { "server", "port", "transport", "version", "community",
                                              "enterpriseoid", "trapoid", "messageoid", "snmpv1dynsource",
                                              "traptype", "specifictype", "template", NULL };

static const gchar *
value_or (SlRsCall *call, const gchar *param, const gchar *otherwise)
{
  return sl_rs_call_value (call, param) ? sl_rs_call_value (call, param) : otherwise;
}

static gboolean
omsnmp_write (SlRsCall *call, GString *driver, GError **error)
{
  const gchar *version = sl_rs_call_value (call, "version");

  if (!sl_rs_call_value (call, "server"))
    return sl_rs_call_fail (call, NULL, error, _("rsyslog's %s needs %s="), sl_rs_call_type (call), "server");
  if (!version || g_ascii_strtoll (version, NULL, 10) != 1)
    return sl_rs_call_fail (call, "version", error,
                            _("rsyslog's omsnmp sends SNMPv1 traps unless version=\"1\" (SNMPv2c), and Sluice's "
                              "snmp() sends no SNMPv1 traps"));
  g_autofree gchar *object = sl_rs_call_template (call, value_or (call, "template", "RSYSLOG_FileFormat"), error);
  if (!object)
    return FALSE;
  g_autofree gchar *message = g_strdup_printf ("$(template %s)", object);
  g_autofree gchar *transport = g_ascii_strup (value_or (call, "transport", "udp"), -1);

  g_string_append (driver, "snmp(");
  sl_rs_text_option (driver, "host", sl_rs_call_value (call, "server"));
  sl_rs_text_option (driver, "port", value_or (call, "port", "162"));
  sl_rs_text_option (driver, "transport", transport);
  g_string_append (driver, " version(\"v2c\") sys-uptime(yes)");
  sl_rs_text_option (driver, "community", value_or (call, "community", "public"));
  g_string_append (driver, " trap-obj(\".1.3.6.1.6.3.1.1.4.1.0\" \"objectid\" ");
  sl_rs_text_quote (driver, value_or (call, "trapoid", "1.3.6.1.4.1.19406.1.2.1"));
  g_string_append (driver, ") snmp-obj(");
  sl_rs_text_quote (driver, value_or (call, "messageoid", "1.3.6.1.4.1.19406.1.1.2.1"));
  g_string_append (driver, " \"octetstring\" ");
  sl_rs_text_quote (driver, message);
  g_string_append (driver, "))");
  return TRUE;
}

const SlRsModule snmp_omsnmp = {
  "omsnmp", SL_RS_MODULE_OUTPUT, omsnmp_params, NULL, omsnmp_write,
};
