/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ommysql and ompgsql as sql(), writing the rows of their own statements
 * (StdDBFmt and StdPgSQLFmt): "insert into SystemEvents (Message,
 * Facility, FromHost, Priority, DeviceReportedTime, ReceivedAt,
 * InfoUnitID, SysLogTag) values ('%msg%', %syslogfacility%, '%HOSTNAME%',
 * %syslogpriority%, '%timereported:::date-mysql%',
 * '%timegenerated:::date-mysql%', %iut%, '%syslogtag%')", date-pgsql for
 * PostgreSQL; InfoUnitID is 1 for syslog. The table is LogAnalyzer's
 * createDB.sql's, so sql() makes none. */
#include "plugins/destinations/sql/sql-rsyslog.h"
#include "core/i18n.h"

static const struct
{
  const gchar *column;
  const gchar *property;
} sql_row[] = {
  { "Message", "%msg%" }, { "Facility", "%syslogfacility%" }, { "FromHost", "%HOSTNAME%" },
  { "Priority", "%syslogpriority%" }, { "DeviceReportedTime", "%timereported:::date-@DB@%" },
  { "ReceivedAt", "%timegenerated:::date-@DB@%" }, { "InfoUnitID", "1" }, { "SysLogTag", "%syslogtag%" },
};

static const gchar *const ommysql_params[] = { "server", "serverport", "db", "uid", "pwd", "template", "socket",
                                               "mysqlconfig.file", "mysqlconfig.section", NULL };
static const gchar *const ompgsql_params[] = { "server", "port", "db", "user", "pass", "uid", "pwd", "template",
                                               "conninfo", NULL };

static gboolean
sql_write (SlRsCall *call, gboolean pgsql, GString *driver, GError **error)
{
  if (!sl_rs_call_refuse (call, "template", error, _("only the module's own statement is mapped, as rows of sql(); "
                                                     "write sql(columns() values()) in Sluice's language"))
      || !sl_rs_call_refuse (call, "socket", error, _("sql() connects over TCP"))
      || !sl_rs_call_refuse (call, "mysqlconfig.file", error, _("write the settings into the action"))
      || !sl_rs_call_refuse (call, "mysqlconfig.section", error, _("write the settings into the action"))
      || !sl_rs_call_refuse (call, "conninfo", error, _("write server, port, db, user and pass")))
    return FALSE;
  const gchar *host = sl_rs_call_value (call, "server");
  const gchar *port = sl_rs_call_value (call, pgsql ? "port" : "serverport");
  const gchar *user = sl_rs_call_value (call, pgsql && sl_rs_call_value (call, "user") ? "user" : "uid");
  const gchar *password = sl_rs_call_value (call, pgsql && sl_rs_call_value (call, "pass") ? "pass" : "pwd");
  const gchar *db = sl_rs_call_value (call, "db");
  g_autoptr (GString) values = g_string_new (NULL);

  g_string_append_printf (driver, "sql(type(%s)", pgsql ? "pgsql" : "mysql");
  if (host)
    sl_rs_text_option (driver, "host", host);
  if (port)
    sl_rs_text_option (driver, "port", port);
  if (user)
    sl_rs_text_option (driver, "username", user);
  if (password)
    sl_rs_text_option (driver, "password", password);
  if (db)
    sl_rs_text_option (driver, "database", db);
  g_string_append (driver, " table(\"SystemEvents\") columns(");
  for (guint i = 0; i < G_N_ELEMENTS (sql_row); i++)
    {
      g_autoptr (GString) property = g_string_new (sql_row[i].property);
      g_string_replace (property, "@DB@", pgsql ? "pgsql" : "mysql", 0);
      g_autofree gchar *value = sl_rs_call_template_text (call, property->str, error);
      if (!value)
        return FALSE;
      g_string_append_printf (driver, "%s\"%s\"", i ? " " : "", sql_row[i].column);
      g_string_append_c (values, ' ');
      sl_rs_text_quote (values, value);
    }
  g_string_append_printf (driver, ") values(%s) flags(dont-create-tables))", values->str + 1);
  return TRUE;
}

static gboolean
ommysql_write (SlRsCall *call, GString *driver, GError **error)
{
  return sql_write (call, FALSE, driver, error);
}

static gboolean
ompgsql_write (SlRsCall *call, GString *driver, GError **error)
{
  return sql_write (call, TRUE, driver, error);
}

const SlRsModule sql_ommysql = {
  "ommysql", SL_RS_MODULE_OUTPUT, ommysql_params, NULL, ommysql_write,
};
const SlRsModule sql_ompgsql = {
  "ompgsql", SL_RS_MODULE_OUTPUT, ompgsql_params, NULL, ompgsql_write,
};
