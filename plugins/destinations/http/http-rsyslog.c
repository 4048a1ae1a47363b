/* SPDX-License-Identifier: GPL-2.0-or-later */
/* omelasticsearch as http(), as rsyslogd 8.2302 sends it (checked against
 * a receiver): one document per POST to /INDEX/TYPE, or with bulkmode a
 * POST to /_bulk of {"index":{"_index": "INDEX","_type":"TYPE"}} and the
 * document on lines of their own; http() reads the bulk reply per item. */
#include "plugins/destinations/http/http-destination.h"
#include "core/i18n.h"

#include <string.h>

/* omelasticsearch's own template, used when the action names none */
#define ES_TEMPLATE "omelasticsearch_StdJSONFmt"
#define ES_TEMPLATE_TEXT                                                                                    \
  "{\"message\":\"%msg:::json%\",\"fromhost\":\"%HOSTNAME:::json%\",\"facility\":\"%syslogfacility-text%\"," \
  "\"priority\":\"%syslogpriority-text%\",\"timereported\":\"%timereported:::date-rfc3339%\","             \
  "\"timegenerated\":\"%timegenerated:::date-rfc3339%\"}"

static const gchar *const omelasticsearch_params[] = {
  "server", "serverport", "searchindex", "searchtype", "bulkmode", "template", "uid", "pwd", "usehttps",
  "tls.cacert", "tls.mycert", "tls.myprivkey", "allowunsignedcerts", "maxbytes", "healthchecktimeout",
  "ratelimit.interval", "ratelimit.burst", "dynsearchindex", "dynsearchtype", "dynparent", "parent",
  "pipelinename", "dynpipelinename", "skippipelineifempty", "timeout", "indextimeout", "errorfile", "bulkid",
  "dynbulkid", "writeoperation", "retryfailures", "retryruleset", "esversion.major", "skipverifyhost", "apikey",
  NULL,
};

static const gchar *const omelasticsearch_refused[] = {
  "dynsearchindex", "dynsearchtype", "dynparent", "parent", "pipelinename", "dynpipelinename",
  "skippipelineifempty", "timeout", "indextimeout", "errorfile", "bulkid", "dynbulkid", "retryfailures",
  "retryruleset", "esversion.major", "skipverifyhost", "apikey",
};

static const gchar *
value_or (SlRsCall *call, const gchar *param, const gchar *otherwise)
{
  return sl_rs_call_value (call, param) ? sl_rs_call_value (call, param) : otherwise;
}

static gboolean
omelasticsearch_write (SlRsCall *call, GString *driver, GError **error)
{
  static const struct
  {
    const gchar *param;
    const gchar *option;
  } tls[] = { { "tls.cacert", "ca-file" }, { "tls.mycert", "cert-file" }, { "tls.myprivkey", "key-file" } };

  for (guint i = 0; i < G_N_ELEMENTS (omelasticsearch_refused); i++)
    if (!sl_rs_call_refuse (call, omelasticsearch_refused[i], error,
                            _("it changes what is sent or where, and http() has no such setting")))
      return FALSE;
  const gchar *operation = sl_rs_call_value (call, "writeoperation");
  if (operation && g_ascii_strcasecmp (operation, "index") != 0
      && !sl_rs_call_refuse (call, "writeoperation", error, _("only index is mapped")))
    return FALSE;

  const gchar *template_name = sl_rs_call_value (call, "template");
  if (!template_name && !sl_rs_call_define_template (call, ES_TEMPLATE, ES_TEMPLATE_TEXT, error))
    return FALSE;
  const gchar *port = value_or (call, "serverport", "9200");
  const gchar *index = value_or (call, "searchindex", "system");
  const gchar *doc_type = value_or (call, "searchtype", "events");
  gboolean bulk = sl_rs_call_flag (call, "bulkmode", FALSE);
  gboolean https = sl_rs_call_flag (call, "usehttps", FALSE);
  g_auto (GStrv) servers = g_strsplit (value_or (call, "server", "localhost"), ",", -1);

  g_string_append (driver, "http(url(");
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
        g_string_append_c (driver, ' ');
      sl_rs_text_quote (driver, url);
    }
  g_string_append (driver, ") method(\"POST\") headers(\"Content-Type: application/json; charset=utf-8\")");
  g_autofree gchar *template = sl_rs_call_template (call, template_name ? template_name : ES_TEMPLATE, error);
  if (!template)
    return FALSE;
  g_string_append_printf (driver, " template(%s)", template);
  if (bulk)
    {
      g_autofree gchar *action = g_strdup_printf ("{\"index\":{\"_index\": \"%s\",\"_type\":\"%s\"}}", index, doc_type);
      g_autofree gchar *prefix = g_strconcat (action, "\n", NULL);
      g_autofree gchar *between = g_strconcat ("\n", action, "\n", NULL);
      sl_rs_text_option (driver, "body-prefix", prefix);
      sl_rs_text_option (driver, "delimiter", between);
      sl_rs_text_option (driver, "body-suffix", "\n");
      /* rsyslog sends a dequeued batch in one request, up to maxbytes */
      g_string_append (driver, " batch-lines(128)");
      sl_rs_text_option (driver, "batch-bytes", value_or (call, "maxbytes", "104857600"));
    }
  if (sl_rs_call_value (call, "uid"))
    sl_rs_text_option (driver, "user", sl_rs_call_value (call, "uid"));
  if (sl_rs_call_value (call, "pwd"))
    sl_rs_text_option (driver, "password", sl_rs_call_value (call, "pwd"));
  for (guint i = 0; i < G_N_ELEMENTS (tls); i++)
    if (sl_rs_call_value (call, tls[i].param))
      sl_rs_text_option (driver, tls[i].option, sl_rs_call_value (call, tls[i].param));
  if (sl_rs_call_flag (call, "allowunsignedcerts", FALSE))
    g_string_append (driver, " peer-verify(no)");
  g_string_append_c (driver, ')');
  return TRUE;
}

const SlRsModule http_omelasticsearch = {
  "omelasticsearch", SL_RS_MODULE_OUTPUT, omelasticsearch_params, NULL, omelasticsearch_write,
};
