/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* rsyslog's output modules that Sluice has a driver for: ommysql and
 * ompgsql as sql(). Each parameter either becomes the driver's
 * option that does the same, or changes nothing that is written (named in
 * doc/rsyslog.md), or is refused with its place. */
#include "daemon/rsyslog/rsyslog-private.h"

#include "core/config/error.h"
#include "core/i18n.h"

#include <string.h>

static const gchar *
param_value (GPtrArray *params, const gchar *name)
{
  const SlRsParam *param = sl_rs_param_find (params, name);
  return param ? param->value : NULL;
}

/* An error at the parameter's place saying why it is refused. */
static gboolean
refuse_param (GPtrArray *params, const gchar *name, const gchar *why, GError **error)
{
  const SlRsParam *param = sl_rs_param_find (params, name);

  if (!param)
    return TRUE;
  sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, param->pos, _("the parameter '%s' of rsyslog's %s is not supported: %s"),
                    param->name, param_value (params, "type"), why);
  return FALSE;
}

static void
append_queue (SlRsConf *c, GString *drivers)
{
  for (guint i = 0; c->action_queue && i < c->action_queue->len; i++)
    g_string_append_printf (drivers, " %s", (const gchar *) g_ptr_array_index (c->action_queue, i));
}

/* The rows of ommysql's and ompgsql's own statements (StdDBFmt and
 * StdPgSQLFmt): "insert into SystemEvents (Message, Facility, FromHost,
 * Priority, DeviceReportedTime, ReceivedAt, InfoUnitID, SysLogTag) values
 * ('%msg%', %syslogfacility%, '%HOSTNAME%', %syslogpriority%,
 * '%timereported:::date-mysql%', '%timegenerated:::date-mysql%', %iut%,
 * '%syslogtag%')", date-pgsql for PostgreSQL; InfoUnitID is 1 for syslog.
 * The table is LogAnalyzer's createDB.sql's, so sql() makes none. */
static const struct
{
  const gchar *column;
  const gchar *property;
} sql_row[] = {
  { "Message", "%msg%" }, { "Facility", "%syslogfacility%" }, { "FromHost", "%HOSTNAME%" },
  { "Priority", "%syslogpriority%" }, { "DeviceReportedTime", "%timereported:::date-@DB@%" },
  { "ReceivedAt", "%timegenerated:::date-@DB@%" }, { "InfoUnitID", "1" }, { "SysLogTag", "%syslogtag%" },
};

static gchar *
sql_destination (SlRsConf *c, gboolean pgsql, const gchar *host, const gchar *port, const gchar *db,
                 const gchar *user, const gchar *password, SlCfgPos pos, GError **error)
{
  g_autoptr (GString) drivers = g_string_new ("sql(");
  g_autoptr (GString) values = g_string_new (NULL);

  g_string_append_printf (drivers, "type(%s)", pgsql ? "pgsql" : "mysql");
  if (host)
    sl_rs_append_option (drivers, "host", host);
  if (port)
    sl_rs_append_option (drivers, "port", port);
  if (user)
    sl_rs_append_option (drivers, "username", user);
  if (password)
    sl_rs_append_option (drivers, "password", password);
  if (db)
    sl_rs_append_option (drivers, "database", db);
  g_string_append (drivers, " table(\"SystemEvents\") columns(");
  for (guint i = 0; i < G_N_ELEMENTS (sql_row); i++)
    {
      g_autoptr (GString) property = g_string_new (sql_row[i].property);
      g_autoptr (GString) value = g_string_new (NULL);
      g_string_replace (property, "@DB@", pgsql ? "pgsql" : "mysql", 0);
      if (!sl_rs_template_from_string (property->str, FALSE, pos, value, error))
        return NULL;
      g_string_append_printf (drivers, "%s\"%s\"", i ? " " : "", sql_row[i].column);
      g_string_append_c (values, ' ');
      sl_rs_quote (values, value->str);
    }
  g_string_append_printf (drivers, ") values(%s) flags(dont-create-tables)", values->str + 1);
  append_queue (c, drivers);
  g_string_append (drivers, ");");
  return sl_rs_emit_destination (c, pos, drivers->str, error);
}

static const gchar sql_template_refused[] =
  N_("only the module's own statement is mapped, as rows of sql(); write sql(columns() values()) in Sluice's language");

static gchar *
omsql (SlRsConf *c, GPtrArray *params, gboolean pgsql, SlCfgPos pos, GError **error)
{
  static const gchar *const mysql_own[] = { "server", "serverport", "db", "uid", "pwd", "template", "socket",
                                            "mysqlconfig.file", "mysqlconfig.section" };
  static const gchar *const pgsql_own[] = { "server", "port", "db", "user", "pass", "uid", "pwd", "template",
                                            "conninfo" };
  const gchar *type = pgsql ? "ompgsql" : "ommysql";

  if (!sl_rs_check_action_params (params, pgsql ? pgsql_own : mysql_own,
                                  pgsql ? G_N_ELEMENTS (pgsql_own) : G_N_ELEMENTS (mysql_own), type, error)
      || !refuse_param (params, "template", _(sql_template_refused), error)
      || !refuse_param (params, "socket", _("sql() connects over TCP"), error)
      || !refuse_param (params, "mysqlconfig.file", _("write the settings into the action"), error)
      || !refuse_param (params, "mysqlconfig.section", _("write the settings into the action"), error)
      || !refuse_param (params, "conninfo", _("write server, port, db, user and pass"), error))
    return NULL;
  const gchar *user = param_value (params, pgsql && param_value (params, "user") ? "user" : "uid");
  const gchar *password = param_value (params, pgsql && param_value (params, "pass") ? "pass" : "pwd");
  return sql_destination (c, pgsql, param_value (params, "server"),
                          param_value (params, pgsql ? "port" : "serverport"), param_value (params, "db"), user,
                          password, pos, error);
}

gchar *
sl_rs_legacy_sql (SlRsConf *c, gboolean pgsql, const gchar *args, const gchar *template_name, SlCfgPos pos,
                  GError **error)
{
  g_auto (GStrv) parts = g_strsplit (args, ",", 4);

  if (template_name)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, pos, _("the template %s of rsyslog's %s is not supported: %s"),
                        template_name, pgsql ? ":ompgsql:" : ":ommysql:", _(sql_template_refused));
      return NULL;
    }
  if (g_strv_length (parts) != 4)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, pos, _("rsyslog's %s needs server,database,user,password"),
                        pgsql ? ":ompgsql:" : ":ommysql:");
      return NULL;
    }
  return sql_destination (c, pgsql, parts[0], NULL, parts[1], parts[2], parts[3], pos, error);
}

gchar *
sl_rs_output_action (SlRsConf *c, GPtrArray *params, const gchar *type, SlCfgPos pos, GError **error)
{
  if (g_ascii_strcasecmp (type, "ommysql") == 0 || g_ascii_strcasecmp (type, "ompgsql") == 0)
    return omsql (c, params, g_ascii_strcasecmp (type, "ompgsql") == 0, pos, error);
  sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, pos, _("rsyslog's action type '%s' is not supported"), type);
  return NULL;
}

/* omuxsock sends each message as one datagram to a Unix socket, in
 * RSYSLOG_TraditionalForwardFormat unless $OMUxSockDefaultTemplate or the
 * action names another. $OMUxSockSocket counts for the next :omuxsock:
 * only, as in rsyslogd, which refuses one without a socket, and its
 * directives before the module is loaded. */
gboolean
sl_rs_uxsock_directive (SlRsConf *c, const gchar *name, const gchar *value, SlCfgPos pos, GError **error)
{
  gchar **slot = g_ascii_strcasecmp (name, "OMUxSockSocket") == 0            ? &c->uxsock_socket
                 : g_ascii_strcasecmp (name, "OMUxSockDefaultTemplate") == 0 ? &c->uxsock_template
                                                                              : NULL;

  if (!slot)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, pos, _("the rsyslog directive '$%s' is not supported"), name);
      return FALSE;
    }
  if (!c->uxsock_loaded)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos, _("$%s needs $ModLoad omuxsock before it"), name);
      return FALSE;
    }
  g_free (*slot);
  *slot = g_strdup (value);
  return TRUE;
}

gchar *
sl_rs_legacy_uxsock (SlRsConf *c, const gchar *template_name, SlCfgPos pos, GError **error)
{
  g_autofree gchar *socket = g_steal_pointer (&c->uxsock_socket);
  const gchar *format = template_name ? template_name : c->uxsock_template ? c->uxsock_template
                                                                           : "RSYSLOG_TraditionalForwardFormat";

  if (!socket)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos, _("rsyslog's :omuxsock: needs $OMUxSockSocket before it"));
      return NULL;
    }
  g_autofree gchar *object = sl_rs_template_ref (c, format, pos, error);
  if (!object)
    return NULL;
  g_autoptr (GString) drivers = g_string_new ("unix-dgram(");
  sl_rs_quote (drivers, socket);
  g_string_append_printf (drivers, " template(%s)", object);
  for (guint i = 0; c->action_queue && i < c->action_queue->len; i++)
    g_string_append_printf (drivers, " %s", (const gchar *) g_ptr_array_index (c->action_queue, i));
  g_string_append (drivers, ");");
  return sl_rs_emit_destination (c, pos, drivers->str, error);
}
