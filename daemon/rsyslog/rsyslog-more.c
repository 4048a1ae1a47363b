/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* rsyslog's modules mapped last: ommail as smtp(), omhttp as http(),
 * impstats' log.file as stats(file()),
 * $outchannel and omfile's rotation.sizeLimit as file(max-size()), omsnmp
 * as snmp(). Each mapping only reads its
 * parameters, refuses what has no equal with its place, resolves its
 * templates and writes the driver; what each writes was checked against
 * rsyslogd 8.2302 (tests/functional/test-rsyslog-more), but for omhttp,
 * which Debian does not build (read from its source). */
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

static gboolean
refuse (GPtrArray *params, const gchar *name, const gchar *type, const gchar *why, GError **error)
{
  sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, sl_rs_param_find (params, name)->pos,
                    _("the parameter '%s' of rsyslog's %s is not supported: %s"), name, type, why);
  return FALSE;
}

static gboolean
require (GPtrArray *params, const gchar *name, const gchar *type, SlCfgPos pos, GError **error)
{
  if (param_value (params, name))
    return TRUE;
  sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos, _("rsyslog's %s needs %s="), type, name);
  return FALSE;
}

/* "$(template NAME)" of the template object of rsyslog's template name */
static gchar *
template_call (SlRsConf *c, const gchar *name, SlCfgPos pos, GError **error)
{
  g_autofree gchar *object = sl_rs_template_ref (c, name, pos, error);
  return object ? g_strdup_printf ("$(template %s)", object) : NULL;
}

/* Plain text as a template that writes it as it is */
static gchar *
literal_template (const gchar *text)
{
  g_auto (GStrv) parts = g_strsplit (text, "$", -1);
  return g_strjoinv ("$$", parts);
}

static gchar *
emit_destination (SlRsConf *c, GString *drivers, SlCfgPos pos, GError **error)
{
  for (guint i = 0; c->action_queue && i < c->action_queue->len; i++)
    g_string_append_printf (drivers, " %s", (const gchar *) g_ptr_array_index (c->action_queue, i));
  g_string_append (drivers, ");");
  return sl_rs_emit_destination (c, pos, drivers->str, error);
}

/* ommail: one mail per message, to mailTo's recipients in the reverse of
 * their order (rsyslogd keeps them so, in RCPT TO and in the To header),
 * its Subject subject.text, or subject.template's text, or "message from
 * rsyslog", its body the template's text (RSYSLOG_FileFormat) unless
 * body.enable="off", and the X-Mailer it names itself by. */
static gchar *
ommail (SlRsConf *c, GPtrArray *params, SlCfgPos pos, GError **error)
{
  static const gchar *const own[] = { "server", "port", "mailfrom", "mailto", "subject.template", "subject.text",
                                      "body.enable" };

  if (!sl_rs_check_action_params (params, own, G_N_ELEMENTS (own), "ommail", error)
      || !require (params, "server", "ommail", pos, error) || !require (params, "port", "ommail", pos, error)
      || !require (params, "mailfrom", "ommail", pos, error) || !require (params, "mailto", "ommail", pos, error))
    return NULL;
  if (param_value (params, "subject.template") && param_value (params, "subject.text"))
    return refuse (params, "subject.text", "ommail", _("it and subject.template cannot both be set"), error), NULL;

  const SlRsParam *to = sl_rs_param_find (params, "mailto");
  g_autofree gchar *from = literal_template (param_value (params, "mailfrom"));
  g_autofree gchar *subject = NULL;
  g_autofree gchar *body = NULL;
  g_autoptr (GString) drivers = g_string_new ("smtp(");

  if (param_value (params, "subject.template"))
    subject = template_call (c, param_value (params, "subject.template"), pos, error);
  else
    subject = literal_template (param_value (params, "subject.text") ? param_value (params, "subject.text")
                                                                     : "message from rsyslog");
  /* without a body ommail still ends the data with a line break of its
   * own, an empty line; libESMTP adds none after one */
  if (param_value (params, "body.enable") && !sl_rs_is_true (param_value (params, "body.enable")))
    body = g_strdup ("\r\n");
  else
    body = template_call (c, param_value (params, "template") ? param_value (params, "template")
                                                              : "RSYSLOG_FileFormat", pos, error);
  if (!subject || !body)
    return NULL;
  sl_rs_append_option (drivers, "host", param_value (params, "server"));
  sl_rs_append_option (drivers, "port", param_value (params, "port"));
  sl_rs_append_option (drivers, "from", from);
  guint n_to = to->items ? g_strv_length (to->items) : 1;
  for (guint i = n_to; i > 0; i--)
    {
      g_autofree gchar *mailbox = literal_template (to->items ? to->items[i - 1] : to->value);
      sl_rs_append_option (drivers, "to", mailbox);
    }
  sl_rs_append_option (drivers, "subject", subject);
  sl_rs_append_option (drivers, "body", body);
  g_string_append (drivers, " header(\"X-Mailer\" \"rsyslog-ommail\")");
  return emit_destination (c, drivers, pos, error);
}

/* omhttp's own template, used when the action names none */
#define HTTP_TEMPLATE "omhttp_StdJSONFmt"
#define HTTP_TEMPLATE_TEXT                                                                                  \
  "{\"message\":\"%msg:::json%\",\"fromhost\":\"%HOSTNAME:::json%\",\"facility\":\"%syslogfacility-text%\"," \
  "\"priority\":\"%syslogpriority-text%\",\"timereported\":\"%timereported:::date-rfc3339%\","             \
  "\"timegenerated\":\"%timegenerated:::date-rfc3339%\"}"

static gboolean
is_on (GPtrArray *params, const gchar *name)
{
  return param_value (params, name) && sl_rs_is_true (param_value (params, name));
}

/* omhttp (8.2302's contrib module, which Debian does not build; what it
 * sends is read from its source): a POST of each message's template text
 * to http(s)://server:port/restPath, https and port 443 unless told
 * otherwise, Content-Type JSON; with batch="on" up to batch.maxSize
 * messages (batch.maxBytes) joined by newlines, Content-Type text/plain.
 * Its other batch formats parse each message as JSON and write it again
 * as json-c does, dropping what does not parse, which http() cannot. */
static gchar *
omhttp (SlRsConf *c, GPtrArray *params, SlCfgPos pos, GError **error)
{
  /* healthCheckTimeout only times checkPath's request; reloadOnHup and
   * compress.level change no byte the server reads once unzipped */
  static const gchar *const own[] = {
    "server", "serverport", "healthchecktimeout", "httpcontenttype", "httpheaderkey", "httpheadervalue",
    "httpheaders", "uid", "pwd", "restpath", "checkpath", "dynrestpath", "batch", "batch.format", "batch.maxbytes",
    "batch.maxsize", "compress", "compress.level", "usehttps", "errorfile", "allowunsignedcerts", "skipverifyhost",
    "tls.cacert", "tls.mycert", "tls.myprivkey", "reloadonhup", "retry", "retry.ruleset", "ratelimit.interval",
    "ratelimit.burst",
  };
  static const struct
  {
    const gchar *param, *why;
  } refused[] = {
    { "checkpath", N_("http() sends no health check request before the messages") },
    { "errorfile", N_("http() keeps a message it could not send in its queue") },
    { "retry.ruleset", N_("http() retries a request itself; it hands no failed message to a ruleset") },
    { "ratelimit.interval", N_("it limits omhttp's retry ruleset, which is not mapped") },
    { "ratelimit.burst", N_("it limits omhttp's retry ruleset, which is not mapped") },
  };

  if (!sl_rs_check_action_params (params, own, G_N_ELEMENTS (own), "omhttp", error))
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    if (sl_rs_param_find (params, refused[i].param))
      return refuse (params, refused[i].param, "omhttp", _(refused[i].why), error), NULL;
  if (is_on (params, "dynrestpath"))
    return refuse (params, "dynrestpath", "omhttp", _("a path made by a template is not mapped: http()'s url() is plain text"),
                   error), NULL;
  if (is_on (params, "retry"))
    return refuse (params, "retry", "omhttp", _("http() retries a request itself; it hands no failed message to a ruleset"),
                   error), NULL;
  if (is_on (params, "skipverifyhost"))
    return refuse (params, "skipverifyhost", "omhttp",
                   _("http()'s peer-verify() checks the certificate and its name together (allowUnsignedCerts)"),
                   error), NULL;
  const gchar *format = param_value (params, "batch.format");
  if (format && g_ascii_strcasecmp (format, "newline") != 0)
    return refuse (params, "batch.format", "omhttp",
                   _("only newline is mapped: omhttp's other formats parse each message as JSON and write it again, "
                     "dropping what does not parse, where http() sends the template's text as it is"), error), NULL;
  const gchar *key = param_value (params, "httpheaderkey");
  const gchar *value = param_value (params, "httpheadervalue");
  if (!key != !value)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos, _("rsyslog's omhttp needs httpHeaderKey= and httpHeaderValue= together"));
      return NULL;
    }

  const gchar *template_name = param_value (params, "template");
  if (!template_name && !g_hash_table_contains (c->templates, HTTP_TEMPLATE)
      && !sl_rs_template_define (c, HTTP_TEMPLATE, HTTP_TEMPLATE_TEXT, FALSE, pos, error))
    return NULL;
  gboolean batch = is_on (params, "batch");
  gboolean https = !param_value (params, "usehttps") || is_on (params, "usehttps");
  const gchar *port = param_value (params, "serverport") ? param_value (params, "serverport") : "443";
  const gchar *rest = param_value (params, "restpath") ? param_value (params, "restpath") : "";
  const SlRsParam *server = sl_rs_param_find (params, "server");
  g_auto (GStrv) servers = server ? (server->items ? g_strdupv (server->items) : g_strsplit (server->value, ",", -1))
                                  : g_strsplit ("localhost", ",", -1);
  g_autoptr (GString) drivers = g_string_new ("http(url(");

  for (guint i = 0; servers[i]; i++)
    {
      gchar *host = g_strstrip (servers[i]);
      gsize len = strlen (host);
      while (len && host[len - 1] == '/')
        host[--len] = '\0';
      const gchar *scheme_end = strstr (host, "://");
      const gchar *name = scheme_end ? scheme_end + 3 : host;
      g_autofree gchar *url = g_strdup_printf ("%s%s%s%s/%s", scheme_end ? "" : https ? "https://" : "http://", host,
                                               strchr (name, ':') ? "" : ":", strchr (name, ':') ? "" : port, rest);
      if (i)
        g_string_append_c (drivers, ' ');
      sl_rs_quote (drivers, url);
    }
  g_string_append (drivers, ") method(\"POST\") headers(");
  g_autofree gchar *content_type = g_strconcat ("Content-Type: ", param_value (params, "httpcontenttype")
                                                ? param_value (params, "httpcontenttype")
                                                : batch ? "text/plain" : "application/json; charset=utf-8", NULL);
  sl_rs_quote (drivers, content_type);
  if (key)
    {
      g_autofree gchar *header = g_strdup_printf ("%s: %s", key, value);
      g_string_append_c (drivers, ' ');
      sl_rs_quote (drivers, header);
    }
  const SlRsParam *headers = sl_rs_param_find (params, "httpheaders");
  for (guint i = 0; headers && headers->items && headers->items[i]; i++)
    {
      g_string_append_c (drivers, ' ');
      sl_rs_quote (drivers, headers->items[i]);
    }
  if (headers && !headers->items)
    {
      g_string_append_c (drivers, ' ');
      sl_rs_quote (drivers, headers->value);
    }
  g_string_append_c (drivers, ')');
  g_autofree gchar *object = sl_rs_template_ref (c, template_name ? template_name : HTTP_TEMPLATE, pos, error);
  if (!object)
    return NULL;
  g_string_append_printf (drivers, " template(%s)", object);
  if (batch)
    {
      sl_rs_append_option (drivers, "batch-lines", param_value (params, "batch.maxsize")
                                                   ? param_value (params, "batch.maxsize") : "100");
      sl_rs_append_option (drivers, "batch-bytes", param_value (params, "batch.maxbytes")
                                                   ? param_value (params, "batch.maxbytes") : "10485760");
    }
  if (is_on (params, "compress"))
    g_string_append (drivers, " content-compression(gzip)");
  if (param_value (params, "uid"))
    sl_rs_append_option (drivers, "user", param_value (params, "uid"));
  if (param_value (params, "pwd"))
    sl_rs_append_option (drivers, "password", param_value (params, "pwd"));
  static const struct
  {
    const gchar *param, *option;
  } tls[] = { { "tls.cacert", "ca-file" }, { "tls.mycert", "cert-file" }, { "tls.myprivkey", "key-file" } };
  for (guint i = 0; i < G_N_ELEMENTS (tls); i++)
    if (param_value (params, tls[i].param))
      sl_rs_append_option (drivers, tls[i].option, param_value (params, tls[i].param));
  if (is_on (params, "allowunsignedcerts"))
    g_string_append (drivers, " peer-verify(no)");
  return emit_destination (c, drivers, pos, error);
}

/* omsnmp: with version="1" an SNMPv2c trap of sysUpTime, snmpTrapOID
 * trapOID and one variable, messageOID, the template's text as an octet
 * string (RSYSLOG_FileFormat unless given), to server:port (162) over
 * transport (udp) with community (public). Without version, its action()
 * sends SNMPv1 traps (version 0, whatever its documentation says), which
 * snmp() does not: refused. enterpriseOID, trapType, specificType and
 * snmpv1dynsource shape only SNMPv1 traps. */
static gchar *
omsnmp (SlRsConf *c, GPtrArray *params, SlCfgPos pos, GError **error)
{
  static const gchar *const own[] = { "server", "port", "transport", "version", "community", "enterpriseoid",
                                      "trapoid", "messageoid", "snmpv1dynsource", "traptype", "specifictype" };

  if (!sl_rs_check_action_params (params, own, G_N_ELEMENTS (own), "omsnmp", error)
      || !require (params, "server", "omsnmp", pos, error))
    return NULL;
  const gchar *version = param_value (params, "version");
  if (!version || g_ascii_strtoll (version, NULL, 10) != 1)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, version ? sl_rs_param_find (params, "version")->pos : pos,
                        _("rsyslog's omsnmp sends SNMPv1 traps unless version=\"1\" (SNMPv2c), and Sluice's snmp() "
                          "sends no SNMPv1 traps"));
      return NULL;
    }
  g_autofree gchar *message = template_call (c, param_value (params, "template") ? param_value (params, "template")
                                                                                  : "RSYSLOG_FileFormat", pos, error);
  if (!message)
    return NULL;
  const gchar *transport = param_value (params, "transport") ? param_value (params, "transport") : "udp";
  g_autofree gchar *upper = g_ascii_strup (transport, -1);
  g_autoptr (GString) drivers = g_string_new ("snmp(");
  sl_rs_append_option (drivers, "host", param_value (params, "server"));
  sl_rs_append_option (drivers, "port", param_value (params, "port") ? param_value (params, "port") : "162");
  sl_rs_append_option (drivers, "transport", upper);
  g_string_append (drivers, " version(\"v2c\") sys-uptime(yes)");
  sl_rs_append_option (drivers, "community", param_value (params, "community") ? param_value (params, "community")
                                                                               : "public");
  g_string_append (drivers, " trap-obj(\".1.3.6.1.6.3.1.1.4.1.0\" \"objectid\" ");
  sl_rs_quote (drivers, param_value (params, "trapoid") ? param_value (params, "trapoid") : "1.3.6.1.4.1.19406.1.2.1");
  g_string_append (drivers, ") snmp-obj(");
  sl_rs_quote (drivers, param_value (params, "messageoid") ? param_value (params, "messageoid")
                                                           : "1.3.6.1.4.1.19406.1.1.2.1");
  g_string_append (drivers, " \"octetstring\" ");
  sl_rs_quote (drivers, message);
  g_string_append_c (drivers, ')');
  return emit_destination (c, drivers, pos, error);
}

/* An $outchannel: its file, its size limit (0: none) and the command run
 * when the file reaches it */
typedef struct
{
  gchar *file;
  gchar *size;
  gchar *command;
} Outchannel;

static void
outchannel_free (gpointer data)
{
  Outchannel *o = data;
  g_free (o->file);
  g_free (o->size);
  g_free (o->command);
  g_free (o);
}

/* "$outchannel name,file,max-size,command" read as rsyslogd reads it:
 * blanks around the commas skipped, the file up to a blank or comma, the
 * size its digits, the command the rest of the line */
gboolean
sl_rs_outchannel_directive (SlRsConf *c, const gchar *value, SlCfgPos pos, GError **error)
{
  const gchar *p = value;
  g_autofree gchar *name = NULL;
  Outchannel *o = g_new0 (Outchannel, 1);
  gsize n;

  n = strcspn (p, ",");
  name = g_strstrip (g_strndup (p, n));
  p += n;
  for (guint field = 0; field < 3; field++)
    {
      while (g_ascii_isspace (*p))
        p++;
      if (*p == ',')
        p++;
      while (g_ascii_isspace (*p))
        p++;
      n = field == 0 ? strcspn (p, " ,") : field == 1 ? strspn (p, "0123456789") : strlen (p);
      gchar *text = g_strndup (p, n);
      p += n;
      if (field == 0)
        o->file = text;
      else if (field == 1)
        o->size = text;
      else
        o->command = g_strchomp (text);
    }
  if (!*name || !*o->file)
    {
      outchannel_free (o);
      sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, pos, _("rsyslog's $outchannel needs a name and a file: "
                                                          "$outchannel name,file,max-size,command"));
      return FALSE;
    }
  if (!c->outchannels)
    c->outchannels = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, outchannel_free);
  g_hash_table_replace (c->outchannels, g_steal_pointer (&name), o);
  return TRUE;
}

static void
append_size_limit (GString *options, const gchar *size, const gchar *command)
{
  if (!size || g_ascii_strtoll (size, NULL, 10) <= 0)
    return;
  sl_rs_append_option (options, "max-size", size);
  if (command && *command)
    sl_rs_append_option (options, "size-command", command);
}

gboolean
sl_rs_outchannel (SlRsConf *c, const gchar *name, SlCfgPos pos, gchar **path, GString *options, GError **error)
{
  g_autofree gchar *word = g_strndup (name, strcspn (name, " "));
  const Outchannel *o = c->outchannels ? g_hash_table_lookup (c->outchannels, word) : NULL;

  if (!o)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos, _("rsyslog's outchannel '%s' is not defined before the action"),
                        word);
      return FALSE;
    }
  *path = g_strdup (o->file);
  append_size_limit (options, o->size, o->command);
  return TRUE;
}

gboolean
sl_rs_size_limit_options (GPtrArray *params, GString *options, GError **error)
{
  const gchar *size = param_value (params, "rotation.sizelimit");

  if (size && (!*size || size[strspn (size, "0123456789")]))
    return refuse (params, "rotation.sizelimit", "omfile", _("only a number of bytes is mapped"), error);
  append_size_limit (options, size, param_value (params, "rotation.sizelimitcommand"));
  return TRUE;
}

/* impstats' log.file: the counters appended to the file every interval,
 * in its format (legacy, json, cee, json-elasticsearch) */
gboolean
sl_rs_impstats_file (GPtrArray *params, glong seconds, GString *stats, GError **error)
{
  static const gchar *const formats[] = { "legacy", "json", "cee", "json-elasticsearch" };
  const gchar *file = params ? param_value (params, "log.file") : NULL;
  const gchar *format = params && param_value (params, "format") ? param_value (params, "format") : "legacy";
  gboolean known = FALSE;

  if (!file)
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (formats) && !known; i++)
    known = g_ascii_strcasecmp (format, formats[i]) == 0;
  if (!known)
    return refuse (params, "format", "impstats", _("it is legacy, json, cee or json-elasticsearch"), error);
  g_autofree gchar *lower = g_ascii_strdown (format, -1);
  sl_rs_append_option (stats, "file", file);
  g_string_append_printf (stats, " file-freq(%ld) file-format(%s)", MAX (seconds, 1L), lower);
  return TRUE;
}

static const struct
{
  const gchar *type;
  gchar *(*make) (SlRsConf *c, GPtrArray *params, SlCfgPos pos, GError **error);
} outputs[] = {
  { "ommail", ommail }, { "omhttp", omhttp }, { "omsnmp", omsnmp },
};

gboolean
sl_rs_is_more_output (const gchar *type)
{
  for (guint i = 0; i < G_N_ELEMENTS (outputs); i++)
    if (g_ascii_strcasecmp (type, outputs[i].type) == 0)
      return TRUE;
  return FALSE;
}

gchar *
sl_rs_more_output (SlRsConf *c, GPtrArray *params, const gchar *type, SlCfgPos pos, GError **error)
{
  for (guint i = 0; i < G_N_ELEMENTS (outputs); i++)
    if (g_ascii_strcasecmp (type, outputs[i].type) == 0)
      return outputs[i].make (c, params, pos, error);
  g_return_val_if_reached (NULL);
}
