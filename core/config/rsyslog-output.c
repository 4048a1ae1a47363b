/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* rsyslog's output modules that Sluice has a driver for: omrelp as relp(),
 * omkafka as kafka(), omelasticsearch as http(), ommysql and ompgsql as
 * sql(). Each parameter either becomes the driver's
 * option that does the same, or changes nothing that is written (named in
 * doc/rsyslog.md), or is refused with its place. */
#include "core/config/rsyslog-private.h"

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

static gboolean
append_template (SlRsConf *c, GString *drivers, const gchar *name, SlCfgPos pos, GError **error)
{
  g_autofree gchar *object = sl_rs_template_ref (c, name, pos, error);

  if (!object)
    return FALSE;
  g_string_append_printf (drivers, " template(%s)", object);
  return TRUE;
}

/* omrelp: its port is 514 and its format RSYSLOG_ForwardFormat unless
 * told otherwise; a window of 0 is librelp's own, 128 as relp()'s. */
static gchar *
relp_destination (SlRsConf *c, const gchar *host, const gchar *port, const gchar *template_name, GPtrArray *params,
                  SlCfgPos pos, GError **error)
{
  g_autoptr (GString) drivers = g_string_new ("relp(");

  sl_rs_quote (drivers, host);
  sl_rs_append_option (drivers, "port", port && *port ? port : "514");
  if (!append_template (c, drivers, template_name ? template_name : "RSYSLOG_ForwardFormat", pos, error))
    return NULL;
  static const struct
  {
    const gchar *param;
    const gchar *option;
  } same[] = {
    { "timeout", "timeout" }, { "conn.timeout", "conn-timeout" }, { "rebindinterval", "rebind-interval" },
  };
  for (guint i = 0; params && i < G_N_ELEMENTS (same); i++)
    if (param_value (params, same[i].param))
      sl_rs_append_option (drivers, same[i].option, param_value (params, same[i].param));
  const gchar *window = params ? param_value (params, "windowsize") : NULL;
  if (window && g_ascii_strtoll (window, NULL, 10) > 0)
    sl_rs_append_option (drivers, "window-size", window);
  if (params && param_value (params, "keepalive"))
    g_string_append_printf (drivers, " so-keepalive(%s)", sl_rs_is_true (param_value (params, "keepalive")) ? "yes" : "no");
  append_queue (c, drivers);
  g_string_append (drivers, ");");
  return sl_rs_emit_destination (c, pos, drivers->str, error);
}

static gchar *
omrelp (SlRsConf *c, GPtrArray *params, SlCfgPos pos, GError **error)
{
  /* the keepalive timings change when a dead peer is noticed, not what
   * is sent */
  static const gchar *const own[] = { "target", "port", "template", "timeout", "conn.timeout", "windowsize",
                                      "rebindinterval", "keepalive", "keepalive.probes", "keepalive.interval",
                                      "keepalive.time", "tls", "tls.compression", "tls.cacert", "tls.mycert",
                                      "tls.myprivkey", "tls.authmode", "tls.permittedpeer", "tls.prioritystring",
                                      "tls.tlscfgcmd", "localclient" };

  if (!sl_rs_check_action_params (params, own, G_N_ELEMENTS (own), "omrelp", error))
    return NULL;
  for (guint i = 0; i < params->len; i++)
    {
      const SlRsParam *param = g_ptr_array_index (params, i);
      if (g_str_has_prefix (param->name, "tls")
          && !refuse_param (params, param->name, _("RELP over TLS is not mapped; relp(tls(...)) of Sluice's language does it"), error))
        return NULL;
    }
  if (!refuse_param (params, "localclient", _("relp() binds no local address"), error))
    return NULL;
  if (!param_value (params, "target"))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos, _("rsyslog's omrelp needs target="));
      return NULL;
    }
  return relp_destination (c, param_value (params, "target"), param_value (params, "port"),
                           param_value (params, "template"), params, pos, error);
}

gchar *
sl_rs_legacy_relp (SlRsConf *c, const gchar *target, const gchar *template_name, SlCfgPos pos, GError **error)
{
  const gchar *colon = strrchr (target, ':');
  g_autofree gchar *host = colon ? g_strndup (target, (gsize) (colon - target)) : g_strdup (target);

  if (!*host)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, pos, _("the rsyslog action ':omrelp:%s' names no host"), target);
      return NULL;
    }
  return relp_destination (c, host, colon ? colon + 1 : NULL, template_name, NULL, pos, error);
}

static gchar *
literal_template (const gchar *text)
{
  g_auto (GStrv) parts = g_strsplit (text, "$", -1);
  return g_strjoinv ("$$", parts);
}

/* omkafka: without partitions.auto="on" it writes every message to
 * partition 0 (its partitions.number is 1), which kafka() cannot; with
 * it, librdkafka's partitioner chooses, as kafka()'s does. */
static gchar *
omkafka (SlRsConf *c, GPtrArray *params, SlCfgPos pos, GError **error)
{
  static const gchar *const own[] = { "broker", "topic", "key", "template", "confparam", "topicconfparam",
                                      "partitions.auto", "partitions.number", "partitions.usefixed", "dynatopic",
                                      "dynatopic.cachesize", "errorfile", "statsfile", "statsname", "closetimeout",
                                      "resubmitonfailure", "keepfailedmessages", "failedmsgfile", "dynakey" };

  if (!sl_rs_check_action_params (params, own, G_N_ELEMENTS (own), "omkafka", error))
    return NULL;
  const gchar *topic = param_value (params, "topic");
  const gchar *automatic = param_value (params, "partitions.auto");
  if (!topic)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos, _("rsyslog's omkafka needs topic="));
      return NULL;
    }
  if (!refuse_param (params, "partitions.number", _("kafka() lets librdkafka choose the partition"), error)
      || !refuse_param (params, "partitions.usefixed", _("kafka() lets librdkafka choose the partition"), error)
      || !refuse_param (params, "errorfile", _("kafka() keeps a message it could not send in its queue"), error)
      || !refuse_param (params, "statsfile", _("kafka()'s counters are Sluice's statistics"), error)
      || !refuse_param (params, "keepfailedmessages", _("use a disk-buffer() (queue.type=\"Disk\")"), error)
      || !refuse_param (params, "failedmsgfile", _("use a disk-buffer() (queue.type=\"Disk\")"), error))
    return NULL;
  if ((param_value (params, "dynatopic") && sl_rs_is_true (param_value (params, "dynatopic"))
       && !refuse_param (params, "dynatopic", _("a topic made from a template is not mapped"), error))
      || (param_value (params, "dynakey") && sl_rs_is_true (param_value (params, "dynakey"))
          && !refuse_param (params, "dynakey", _("a key made from a template is not mapped"), error)))
    return NULL;
  if (!automatic || !sl_rs_is_true (automatic))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, automatic ? sl_rs_param_find (params, "partitions.auto")->pos : pos,
                        _("rsyslog's omkafka writes every message to partition 0 unless partitions.auto=\"on\"; "
                          "Sluice's kafka() lets librdkafka choose the partition, as partitions.auto=\"on\" does"));
      return NULL;
    }

  /* kafka()'s topic and key are templates, omkafka's plain text */
  g_autofree gchar *topic_text = literal_template (topic);
  g_autoptr (GString) drivers = g_string_new ("kafka(");
  sl_rs_append_option (drivers, "topic", topic_text);
  sl_rs_append_option (drivers, "bootstrap-servers", param_value (params, "broker") ? param_value (params, "broker")
                                                                                    : "localhost:9092");
  if (param_value (params, "key"))
    {
      g_autofree gchar *key = literal_template (param_value (params, "key"));
      sl_rs_append_option (drivers, "key", key);
    }
  if (!append_template (c, drivers, param_value (params, "template") ? param_value (params, "template")
                                                                    : "RSYSLOG_FileFormat", pos, error)
      || !sl_rs_append_kafka_config (drivers, params, "confparam", error)
      || !sl_rs_append_kafka_config (drivers, params, "topicconfparam", error))
    return NULL;
  if (param_value (params, "closetimeout"))
    sl_rs_append_option (drivers, "flush-timeout-on-shutdown", param_value (params, "closetimeout"));
  append_queue (c, drivers);
  g_string_append (drivers, ");");
  return sl_rs_emit_destination (c, pos, drivers->str, error);
}

/* omelasticsearch's own template, used when the action names none */
#define ES_TEMPLATE "omelasticsearch_StdJSONFmt"
#define ES_TEMPLATE_TEXT                                                                                    \
  "{\"message\":\"%msg:::json%\",\"fromhost\":\"%HOSTNAME:::json%\",\"facility\":\"%syslogfacility-text%\"," \
  "\"priority\":\"%syslogpriority-text%\",\"timereported\":\"%timereported:::date-rfc3339%\","             \
  "\"timegenerated\":\"%timegenerated:::date-rfc3339%\"}"

/* omelasticsearch as rsyslogd 8.2302 sends it (checked against a
 * receiver): one document per POST to /INDEX/TYPE, or with bulkmode a
 * POST to /_bulk of {"index":{"_index": "INDEX","_type":"TYPE"}} and the
 * document on lines of their own; http() reads the bulk reply per item. */
static gchar *
omelasticsearch (SlRsConf *c, GPtrArray *params, SlCfgPos pos, GError **error)
{
  static const gchar *const own[] = {
    "server", "serverport", "searchindex", "searchtype", "bulkmode", "template", "uid", "pwd", "usehttps",
    "tls.cacert", "tls.mycert", "tls.myprivkey", "allowunsignedcerts", "maxbytes", "healthchecktimeout",
    "ratelimit.interval", "ratelimit.burst", "dynsearchindex", "dynsearchtype", "dynparent", "parent",
    "pipelinename", "dynpipelinename", "skippipelineifempty", "timeout", "indextimeout", "errorfile", "bulkid",
    "dynbulkid", "writeoperation", "retryfailures", "retryruleset", "esversion.major", "skipverifyhost", "apikey",
  };
  static const gchar *const refused[] = {
    "dynsearchindex", "dynsearchtype", "dynparent", "parent", "pipelinename", "dynpipelinename",
    "skippipelineifempty", "timeout", "indextimeout", "errorfile", "bulkid", "dynbulkid", "retryfailures",
    "retryruleset", "esversion.major", "skipverifyhost", "apikey",
  };

  if (!sl_rs_check_action_params (params, own, G_N_ELEMENTS (own), "omelasticsearch", error))
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    if (!refuse_param (params, refused[i], _("it changes what is sent or where, and http() has no such setting"),
                       error))
      return NULL;
  const gchar *operation = param_value (params, "writeoperation");
  if (operation && g_ascii_strcasecmp (operation, "index") != 0
      && !refuse_param (params, "writeoperation", _("only index is mapped"), error))
    return NULL;

  const gchar *template_name = param_value (params, "template");
  if (!template_name && !g_hash_table_contains (c->templates, ES_TEMPLATE)
      && !sl_rs_template_define (c, ES_TEMPLATE, ES_TEMPLATE_TEXT, FALSE, pos, error))
    return NULL;
  const gchar *port = param_value (params, "serverport") ? param_value (params, "serverport") : "9200";
  const gchar *index = param_value (params, "searchindex") ? param_value (params, "searchindex") : "system";
  const gchar *doc_type = param_value (params, "searchtype") ? param_value (params, "searchtype") : "events";
  gboolean bulk = param_value (params, "bulkmode") && sl_rs_is_true (param_value (params, "bulkmode"));
  gboolean https = param_value (params, "usehttps") && sl_rs_is_true (param_value (params, "usehttps"));
  g_auto (GStrv) servers = g_strsplit (param_value (params, "server") ? param_value (params, "server") : "localhost",
                                       ",", -1);
  g_autoptr (GString) drivers = g_string_new ("http(url(");

  for (guint i = 0; servers[i]; i++)
    {
      const gchar *server = g_strstrip (servers[i]);
      const gchar *scheme_end = strstr (server, "://");
      const gchar *host = scheme_end ? scheme_end + 3 : server;
      g_autofree gchar *base = g_strdup_printf ("%s%s%s%s", scheme_end ? "" : https ? "https://" : "http://", server,
                                                strchr (host, ':') ? "" : ":", strchr (host, ':') ? "" : port);
      g_autofree gchar *url = bulk ? g_strconcat (base, "/_bulk", NULL)
                                   : g_strconcat (base, "/", index, "/", doc_type, NULL);
      if (i)
        g_string_append_c (drivers, ' ');
      sl_rs_quote (drivers, url);
    }
  g_string_append (drivers, ") method(\"POST\") headers(\"Content-Type: application/json; charset=utf-8\")");
  if (!append_template (c, drivers, template_name ? template_name : ES_TEMPLATE, pos, error))
    return NULL;
  if (bulk)
    {
      g_autofree gchar *action = g_strdup_printf ("{\"index\":{\"_index\": \"%s\",\"_type\":\"%s\"}}", index, doc_type);
      g_autofree gchar *prefix = g_strconcat (action, "\n", NULL);
      g_autofree gchar *between = g_strconcat ("\n", action, "\n", NULL);
      sl_rs_append_option (drivers, "body-prefix", prefix);
      sl_rs_append_option (drivers, "delimiter", between);
      sl_rs_append_option (drivers, "body-suffix", "\n");
      /* rsyslog sends a dequeued batch in one request, up to maxbytes */
      g_string_append (drivers, " batch-lines(128)");
      sl_rs_append_option (drivers, "batch-bytes", param_value (params, "maxbytes") ? param_value (params, "maxbytes")
                                                                                   : "104857600");
    }
  if (param_value (params, "uid"))
    sl_rs_append_option (drivers, "user", param_value (params, "uid"));
  if (param_value (params, "pwd"))
    sl_rs_append_option (drivers, "password", param_value (params, "pwd"));
  static const struct
  {
    const gchar *param;
    const gchar *option;
  } tls[] = { { "tls.cacert", "ca-file" }, { "tls.mycert", "cert-file" }, { "tls.myprivkey", "key-file" } };
  for (guint i = 0; i < G_N_ELEMENTS (tls); i++)
    if (param_value (params, tls[i].param))
      sl_rs_append_option (drivers, tls[i].option, param_value (params, tls[i].param));
  if (param_value (params, "allowunsignedcerts") && sl_rs_is_true (param_value (params, "allowunsignedcerts")))
    g_string_append (drivers, " peer-verify(no)");
  append_queue (c, drivers);
  g_string_append (drivers, ");");
  return sl_rs_emit_destination (c, pos, drivers->str, error);
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

/* omhiredis: queue mode LPUSHes each message onto key (RPUSH with
 * userPush), publish PUBLISHes it, set SETs key (SETEX with an
 * expiration), in RSYSLOG_ForwardFormat unless told otherwise; a key made
 * by a template (dynaKey) is that template. Its template mode, a whole
 * command line that hiredis splits at blanks, has no equal in redis(),
 * whose command() is a list of templates. */
static gchar *
omhiredis (SlRsConf *c, GPtrArray *params, SlCfgPos pos, GError **error)
{
  static const gchar *const own[] = { "server", "serverport", "serverpassword", "mode", "key", "dynakey",
                                      "userpush", "expiration" };
  if (!sl_rs_check_action_params (params, own, G_N_ELEMENTS (own), "omhiredis", error))
    return NULL;
  const gchar *mode = param_value (params, "mode") ? param_value (params, "mode") : "template";
  const gchar *key = param_value (params, "key");
  const gchar *expiration = param_value (params, "expiration");
  gboolean set = g_ascii_strcasecmp (mode, "set") == 0;
  const gchar *command = NULL;

  if (g_ascii_strcasecmp (mode, "queue") == 0)
    command = param_value (params, "userpush") && sl_rs_is_true (param_value (params, "userpush")) ? "RPUSH"
                                                                                                   : "LPUSH";
  else if (g_ascii_strcasecmp (mode, "publish") == 0)
    command = "PUBLISH";
  else if (set)
    command = expiration && g_ascii_strtoll (expiration, NULL, 10) > 0 ? "SETEX" : "SET";
  if (!command)
    {
      const SlRsParam *where = sl_rs_param_find (params, "mode");
      sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, where ? where->pos : pos,
                        _("rsyslog's omhiredis mode=\"%s\" is not supported: redis() takes the queue, publish and set "
                          "modes (a template that writes the whole command has no equal in its command())"), mode);
      return NULL;
    }
  if (!key)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos, _("rsyslog's omhiredis needs key= in mode %s"), mode);
      return NULL;
    }
  g_autofree gchar *key_text = NULL;
  if (param_value (params, "dynakey") && sl_rs_is_true (param_value (params, "dynakey")))
    {
      g_autofree gchar *object = sl_rs_template_ref (c, key, pos, error);
      if (!object)
        return NULL;
      key_text = g_strdup_printf ("$(template %s)", object);
    }
  else
    key_text = literal_template (key);
  g_autofree gchar *object = sl_rs_template_ref (c, param_value (params, "template") ? param_value (params, "template")
                                                                                     : "RSYSLOG_ForwardFormat",
                                                 pos, error);
  if (!object)
    return NULL;
  g_autofree gchar *value = g_strdup_printf ("$(template %s)", object);
  g_autoptr (GString) drivers = g_string_new ("redis(");
  sl_rs_append_option (drivers, "host", param_value (params, "server") ? param_value (params, "server") : "127.0.0.1");
  sl_rs_append_option (drivers, "port", param_value (params, "serverport") ? param_value (params, "serverport")
                                                                           : "6379");
  if (param_value (params, "serverpassword"))
    sl_rs_append_option (drivers, "auth", param_value (params, "serverpassword"));
  g_string_append (drivers, " command(");
  sl_rs_quote (drivers, command);
  g_string_append_c (drivers, ' ');
  sl_rs_quote (drivers, key_text);
  if (set && g_str_equal (command, "SETEX"))
    {
      g_string_append_c (drivers, ' ');
      sl_rs_quote (drivers, expiration);
    }
  g_string_append_c (drivers, ' ');
  sl_rs_quote (drivers, value);
  g_string_append_c (drivers, ')');
  append_queue (c, drivers);
  g_string_append (drivers, ");");
  return sl_rs_emit_destination (c, pos, drivers->str, error);
}

gchar *
sl_rs_output_action (SlRsConf *c, GPtrArray *params, const gchar *type, SlCfgPos pos, GError **error)
{
  if (g_ascii_strcasecmp (type, "ommysql") == 0 || g_ascii_strcasecmp (type, "ompgsql") == 0)
    return omsql (c, params, g_ascii_strcasecmp (type, "ompgsql") == 0, pos, error);
  if (g_ascii_strcasecmp (type, "omelasticsearch") == 0)
    return omelasticsearch (c, params, pos, error);
  if (g_ascii_strcasecmp (type, "omrelp") == 0)
    return omrelp (c, params, pos, error);
  if (g_ascii_strcasecmp (type, "omkafka") == 0)
    return omkafka (c, params, pos, error);
  if (g_ascii_strcasecmp (type, "omhiredis") == 0)
    return omhiredis (c, params, pos, error);
  if (sl_rs_is_more_output (type))
    return sl_rs_more_output (c, params, type, pos, error);
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
