/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog's modules http() serves.
 * omelasticsearch, as rsyslogd 8.2302 sends it (checked against a
 * receiver): one document per POST to /INDEX/TYPE, or with bulkmode a
 * POST to /_bulk of {"index":{"_index": "INDEX","_type":"TYPE"}} and the
 * document on lines of their own; http() reads the bulk reply per item.
 * omhttp (8.2302's contrib module, which Debian does not build; what it
 * sends is read from its source): a POST of each message's template text
 * to http(s)://server:port/restPath, https and port 443 unless told
 * otherwise, Content-Type JSON; with batch="on" up to batch.maxSize
 * messages (batch.maxBytes) joined by newlines, Content-Type text/plain.
 * Its other batch formats parse each message as JSON and write it again
 * as json-c does, dropping what does not parse, which http() cannot. */
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

/* omhttp's own template, used when the action names none */
#define HTTP_TEMPLATE "omhttp_StdJSONFmt"
#define HTTP_TEMPLATE_TEXT ES_TEMPLATE_TEXT

/* healthCheckTimeout only times checkPath's request; reloadOnHup and
 * compress.level change no byte the server reads once unzipped */
static const gchar *const omhttp_params[] = {
  "server", "serverport", "healthchecktimeout", "httpcontenttype", "httpheaderkey", "httpheadervalue",
  "httpheaders", "uid", "pwd", "restpath", "checkpath", "dynrestpath", "batch", "batch.format", "batch.maxbytes",
  "batch.maxsize", "compress", "compress.level", "usehttps", "errorfile", "allowunsignedcerts", "skipverifyhost",
  "tls.cacert", "tls.mycert", "tls.myprivkey", "reloadonhup", "retry", "retry.ruleset", "ratelimit.interval",
  "ratelimit.burst", "template", NULL,
};

static const struct
{
  const gchar *param, *why;
} omhttp_refused[] = {
  { "checkpath", N_("http() sends no health check request before the messages") },
  { "errorfile", N_("http() keeps a message it could not send in its queue") },
  { "retry.ruleset", N_("http() retries a request itself; it hands no failed message to a ruleset") },
  { "ratelimit.interval", N_("it limits omhttp's retry ruleset, which is not mapped") },
  { "ratelimit.burst", N_("it limits omhttp's retry ruleset, which is not mapped") },
};

/* switches omhttp refuses only when they are on */
static const struct
{
  const gchar *param, *why;
} omhttp_refused_on[] = {
  { "dynrestpath", N_("a path made by a template is not mapped: http()'s url() is plain text") },
  { "retry", N_("http() retries a request itself; it hands no failed message to a ruleset") },
  { "skipverifyhost", N_("http()'s peer-verify() checks the certificate and its name together (allowUnsignedCerts)") },
};

static const gchar *
value_or (SlRsCall *call, const gchar *param, const gchar *otherwise)
{
  return sl_rs_call_value (call, param) ? sl_rs_call_value (call, param) : otherwise;
}

/* url() of server's comma-separated hosts, each with the scheme and port
 * given when it names none, then path; trailing '/' of a host dropped
 * when trim says so */
static void
append_urls (SlRsCall *call, GString *driver, const gchar *default_port, gboolean https, gboolean trim,
             const gchar *path)
{
  g_auto (GStrv) servers = g_strsplit (value_or (call, "server", "localhost"), ",", -1);

  g_string_append (driver, "url(");
  for (guint i = 0; servers[i]; i++)
    {
      gchar *server = g_strstrip (servers[i]);
      gsize len = strlen (server);
      while (trim && len && server[len - 1] == '/')
        server[--len] = '\0';
      const gchar *scheme_end = strstr (server, "://");
      const gchar *host = scheme_end ? scheme_end + 3 : server;
      const gchar *port = value_or (call, "serverport", default_port);
      g_autofree gchar *url = g_strdup_printf ("%s%s%s%s%s", scheme_end ? "" : https ? "https://" : "http://", server,
                                               strchr (host, ':') ? "" : ":", strchr (host, ':') ? "" : port, path);
      if (i)
        g_string_append_c (driver, ' ');
      sl_rs_text_quote (driver, url);
    }
  g_string_append_c (driver, ')');
}

/* the user, password and TLS parameters both modules share */
static void
append_credentials (SlRsCall *call, GString *driver)
{
  static const struct
  {
    const gchar *param;
    const gchar *option;
  } tls[] = { { "tls.cacert", "ca-file" }, { "tls.mycert", "cert-file" }, { "tls.myprivkey", "key-file" } };

  if (sl_rs_call_value (call, "uid"))
    sl_rs_text_option (driver, "user", sl_rs_call_value (call, "uid"));
  if (sl_rs_call_value (call, "pwd"))
    sl_rs_text_option (driver, "password", sl_rs_call_value (call, "pwd"));
  for (guint i = 0; i < G_N_ELEMENTS (tls); i++)
    if (sl_rs_call_value (call, tls[i].param))
      sl_rs_text_option (driver, tls[i].option, sl_rs_call_value (call, tls[i].param));
  if (sl_rs_call_flag (call, "allowunsignedcerts", FALSE))
    g_string_append (driver, " peer-verify(no)");
}

static gboolean
omelasticsearch_write (SlRsCall *call, GString *driver, GError **error)
{
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
  const gchar *index = value_or (call, "searchindex", "system");
  const gchar *doc_type = value_or (call, "searchtype", "events");
  gboolean bulk = sl_rs_call_flag (call, "bulkmode", FALSE);
  g_autofree gchar *path = bulk ? g_strdup ("/_bulk") : g_strconcat ("/", index, "/", doc_type, NULL);

  g_string_append (driver, "http(");
  append_urls (call, driver, "9200", sl_rs_call_flag (call, "usehttps", FALSE), FALSE, path);
  g_string_append (driver, " method(\"POST\") headers(\"Content-Type: application/json; charset=utf-8\")");
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
  append_credentials (call, driver);
  g_string_append_c (driver, ')');
  return TRUE;
}

const SlRsModule http_omelasticsearch = {
  "omelasticsearch", SL_RS_MODULE_OUTPUT, omelasticsearch_params, NULL, omelasticsearch_write,
};

/* headers(): the Content-Type, httpHeaderKey's and httpHeaders' */
static gboolean
omhttp_headers (SlRsCall *call, GString *driver, gboolean batch, GError **error)
{
  const gchar *key = sl_rs_call_value (call, "httpheaderkey");
  const gchar *value = sl_rs_call_value (call, "httpheadervalue");

  if (!key != !value)
    return sl_rs_call_fail (call, key ? "httpheaderkey" : "httpheadervalue", error,
                            _("rsyslog's omhttp needs httpHeaderKey= and httpHeaderValue= together"));
  g_autofree gchar *content_type = g_strconcat ("Content-Type: ",
                                                value_or (call, "httpcontenttype",
                                                          batch ? "text/plain" : "application/json; charset=utf-8"),
                                                NULL);
  g_string_append (driver, " headers(");
  sl_rs_text_quote (driver, content_type);
  if (key)
    {
      g_autofree gchar *header = g_strdup_printf ("%s: %s", key, value);
      g_string_append_c (driver, ' ');
      sl_rs_text_quote (driver, header);
    }
  const gchar *const *headers = sl_rs_call_items (call, "httpheaders");
  for (guint i = 0; headers && headers[i]; i++)
    {
      g_string_append_c (driver, ' ');
      sl_rs_text_quote (driver, headers[i]);
    }
  if (!headers && sl_rs_call_value (call, "httpheaders"))
    {
      g_string_append_c (driver, ' ');
      sl_rs_text_quote (driver, sl_rs_call_value (call, "httpheaders"));
    }
  g_string_append_c (driver, ')');
  return TRUE;
}

static gboolean
omhttp_write (SlRsCall *call, GString *driver, GError **error)
{
  for (guint i = 0; i < G_N_ELEMENTS (omhttp_refused); i++)
    if (!sl_rs_call_refuse (call, omhttp_refused[i].param, error, "%s", _(omhttp_refused[i].why)))
      return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (omhttp_refused_on); i++)
    if (sl_rs_call_flag (call, omhttp_refused_on[i].param, FALSE)
        && !sl_rs_call_refuse (call, omhttp_refused_on[i].param, error, "%s", _(omhttp_refused_on[i].why)))
      return FALSE;
  const gchar *format = sl_rs_call_value (call, "batch.format");
  if (format && g_ascii_strcasecmp (format, "newline") != 0
      && !sl_rs_call_refuse (call, "batch.format", error,
                             _("only newline is mapped: omhttp's other formats parse each message as JSON and write "
                               "it again, dropping what does not parse, where http() sends the template's text as "
                               "it is")))
    return FALSE;

  const gchar *template_name = sl_rs_call_value (call, "template");
  if (!template_name && !sl_rs_call_define_template (call, HTTP_TEMPLATE, HTTP_TEMPLATE_TEXT, error))
    return FALSE;
  gboolean batch = sl_rs_call_flag (call, "batch", FALSE);
  g_autofree gchar *path = g_strconcat ("/", value_or (call, "restpath", ""), NULL);

  g_string_append (driver, "http(");
  append_urls (call, driver, "443", sl_rs_call_flag (call, "usehttps", TRUE), TRUE, path);
  g_string_append (driver, " method(\"POST\")");
  if (!omhttp_headers (call, driver, batch, error))
    return FALSE;
  g_autofree gchar *template = sl_rs_call_template (call, template_name ? template_name : HTTP_TEMPLATE, error);
  if (!template)
    return FALSE;
  g_string_append_printf (driver, " template(%s)", template);
  if (batch)
    {
      sl_rs_text_option (driver, "batch-lines", value_or (call, "batch.maxsize", "100"));
      sl_rs_text_option (driver, "batch-bytes", value_or (call, "batch.maxbytes", "10485760"));
    }
  if (sl_rs_call_flag (call, "compress", FALSE))
    g_string_append (driver, " content-compression(gzip)");
  append_credentials (call, driver);
  g_string_append_c (driver, ')');
  return TRUE;
}

const SlRsModule http_omhttp = {
  "omhttp", SL_RS_MODULE_OUTPUT, omhttp_params, NULL, omhttp_write,
};
