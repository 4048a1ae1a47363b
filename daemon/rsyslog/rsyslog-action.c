/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* rsyslog's actions, legacy (/path, @host, |pipe, :omusrmsg:) and
 * action(type=...), each made a destination object of Sluice's language. */
#include "daemon/rsyslog/rsyslog-private.h"

#include "core/config/error.h"
#include "core/i18n.h"
#include "core/plugin/registry-private.h"

#include <string.h>

static gboolean
split_host_port (const gchar *target, gchar **host, gchar **port)
{
  if (target[0] == '[')
    {
      const gchar *close = strchr (target, ']');
      if (!close)
        return FALSE;
      *host = g_strndup (target + 1, (gsize) (close - target - 1));
      *port = close[1] == ':' ? g_strdup (close + 2) : NULL;
      return TRUE;
    }
  const gchar *colon = strchr (target, ':');
  *host = colon ? g_strndup (target, (gsize) (colon - target)) : g_strdup (target);
  *port = colon ? g_strdup (colon + 1) : NULL;
  return TRUE;
}

/* @host, @@host, @@(o)host as omfwd's parameters; the legacy lines take
 * the stream driver of $ActionSendStreamDriver* */
static gchar *
legacy_forward (SlRsConf *c, const gchar *target, const gchar *template_name, SlCfgPos pos, GError **error)
{
  gboolean tcp = target[1] == '@';
  const gchar *rest = target + (tcp ? 2 : 1);
  g_autofree gchar *host = NULL;
  g_autofree gchar *port = NULL;
  g_autoptr (GPtrArray) params = sl_rs_params_new ();

  /* @@(o) is octet-counted framing; compression has no equal */
  gboolean octets = tcp && g_str_has_prefix (rest, "(o)");
  if (octets)
    rest += 3;
  else if (rest[0] == '(')
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, pos,
                        _("the rsyslog forwarding options '%.*s' (compression) are not supported"),
                        (gint) (strchr (rest, ')') ? strchr (rest, ')') - rest + 1 : (gint) strlen (rest)), rest);
      return NULL;
    }
  if (!*rest || !split_host_port (rest, &host, &port))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, pos, _("the rsyslog action '%s' names no host"), target);
      return NULL;
    }
  sl_rs_params_add (params, "target", host, pos);
  sl_rs_params_add (params, "port", port, pos);
  sl_rs_params_add (params, "protocol", tcp ? "tcp" : "udp", pos);
  sl_rs_params_add (params, "tcp_framing", octets ? "octet-counted" : NULL, pos);
  sl_rs_params_add (params, "template", template_name, pos);
  if (tcp)
    {
      sl_rs_params_add (params, "streamdriver", c->tls_send.driver, pos);
      sl_rs_params_add (params, "streamdrivermode", c->tls_send.mode, pos);
      sl_rs_params_add (params, "streamdriverauthmode", c->tls_send.auth, pos);
      sl_rs_params_add (params, "streamdriverpermittedpeers", c->tls_send.peers, pos);
    }
  return sl_rs_plugin_legacy (c, "omfwd", target, params, pos, error);
}

/* /path, ?dynafile, :omfile:path and :omfile:$outchannel as omfile's
 * parameters */
static gchar *
legacy_file (SlRsConf *c, const gchar *written, const gchar *param, const gchar *value, const gchar *template_name,
             SlCfgPos pos, GError **error)
{
  g_autoptr (GPtrArray) params = sl_rs_params_new ();

  if (param)
    sl_rs_params_add (params, param, value, pos);
  else if (!sl_rs_outchannel (c, value, pos, params, error))
    return NULL;
  sl_rs_params_add (params, "template", template_name, pos);
  return sl_rs_plugin_legacy (c, "omfile", written, params, pos, error);
}

/* module: ompipe's pipe= (|path), omusrmsg's users= (the names, or *),
 * omuxsock's socket= ($OMUxSockSocket, for this action only) */
static gchar *
legacy_one (SlRsConf *c, const gchar *module, const gchar *written, const gchar *param, const gchar *value,
            const gchar *template_name, SlCfgPos pos, GError **error)
{
  g_autoptr (GPtrArray) params = sl_rs_params_new ();

  sl_rs_params_add (params, param, value, pos);
  sl_rs_params_add (params, "template", template_name, pos);
  return sl_rs_plugin_legacy (c, module, written, params, pos, error);
}

/* :omrelp:host:port, omrelp's target= and port= */
static gchar *
legacy_relp (SlRsConf *c, const gchar *target, const gchar *template_name, SlCfgPos pos, GError **error)
{
  const gchar *colon = strrchr (target, ':');
  g_autofree gchar *host = colon ? g_strndup (target, (gsize) (colon - target)) : g_strdup (target);
  g_autoptr (GPtrArray) params = sl_rs_params_new ();

  if (!*host)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, pos, _("the rsyslog action ':omrelp:%s' names no host"), target);
      return NULL;
    }
  sl_rs_params_add (params, "target", host, pos);
  sl_rs_params_add (params, "port", colon ? colon + 1 : NULL, pos);
  sl_rs_params_add (params, "template", template_name, pos);
  return sl_rs_plugin_legacy (c, "omrelp", ":omrelp:", params, pos, error);
}

/* :ommysql:server,db,user,password and :ompgsql: the same, the module's
 * server=, db=, uid= and pwd= */
static gchar *
legacy_sql (SlRsConf *c, gboolean pgsql, const gchar *args, const gchar *template_name, SlCfgPos pos, GError **error)
{
  const gchar *written = pgsql ? ":ompgsql:" : ":ommysql:";
  g_auto (GStrv) parts = g_strsplit (args, ",", 4);
  g_autoptr (GPtrArray) params = sl_rs_params_new ();

  if (g_strv_length (parts) != 4)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, pos, _("rsyslog's %s needs server,database,user,password"),
                        written);
      return NULL;
    }
  sl_rs_params_add (params, "server", parts[0], pos);
  sl_rs_params_add (params, "db", parts[1], pos);
  sl_rs_params_add (params, "uid", parts[2], pos);
  sl_rs_params_add (params, "pwd", parts[3], pos);
  sl_rs_params_add (params, "template", template_name, pos);
  return sl_rs_plugin_legacy (c, pgsql ? "ompgsql" : "ommysql", written, params, pos, error);
}

gchar *
sl_rs_legacy_action (SlRsConf *c, const gchar *text, SlCfgPos pos, GError **error)
{
  g_auto (GStrv) parts = g_strsplit (text, ";", 2);
  const gchar *target = parts[0];
  const gchar *template_name = parts[1] && *parts[1] ? parts[1] : NULL;

  /* '-' (no sync after each line) changes nothing rsyslogd 8 writes:
   * it syncs only with $ActionFileEnableSync */
  if (target[0] == '-' && (target[1] == '/' || target[1] == '?'))
    target++;
  if (target[0] == '/')
    return legacy_file (c, target, "file", target, template_name, pos, error);
  if (target[0] == '?')
    return legacy_file (c, target, "dynafile", target + 1, template_name, pos, error);
  if (target[0] == '|')
    return legacy_one (c, "ompipe", target, "pipe", target + 1, template_name, pos, error);
  if (g_str_has_prefix (target, ":omusrmsg:"))
    return legacy_one (c, "omusrmsg", ":omusrmsg:", "users", target + strlen (":omusrmsg:"), template_name, pos,
                       error);
  if (g_str_has_prefix (target, ":ommysql:") || g_str_has_prefix (target, ":ompgsql:"))
    return legacy_sql (c, g_str_has_prefix (target, ":ompgsql:"), target + strlen (":ommysql:"), template_name, pos,
                       error);
  if (g_str_equal (target, ":ommail:") || g_str_equal (target, ":omsnmp:"))
    return sl_rs_legacy_output (c, target, template_name, pos, error);
  if (g_str_has_prefix (target, ":omrelp:"))
    return legacy_relp (c, target + strlen (":omrelp:"), template_name, pos, error);
  if (g_str_equal (target, ":omuxsock:"))
    {
      g_autofree gchar *socket = g_steal_pointer (&c->uxsock_socket);
      return legacy_one (c, "omuxsock", ":omuxsock:", "socket", socket, template_name, pos, error);
    }
  if (g_str_has_prefix (target, ":omfile:$"))
    return legacy_file (c, ":omfile:", NULL, target + strlen (":omfile:$"), template_name, pos, error);
  if (g_str_has_prefix (target, ":omfile:"))
    return legacy_file (c, ":omfile:", "file", target + strlen (":omfile:"), template_name, pos, error);
  if (target[0] == '@')
    return legacy_forward (c, target, template_name, pos, error);
  if (strcmp (target, "*") == 0 || (g_ascii_isalpha (target[0]) && !strchr (target, ':')))
    return legacy_one (c, "omusrmsg", target, "users", target, template_name, pos, error);
  sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, pos, _("the rsyslog action '%s' is not supported"), text);
  return NULL;
}

static const gchar *
param_value (GPtrArray *params, const gchar *name)
{
  const SlRsParam *param = sl_rs_param_find (params, name);
  return param ? param->value : NULL;
}

/* rsyslog's queue.* as Sluice's queue and disk buffer: a disk queue and a
 * disk-assisted one (queue.filename) become a disk-buffer(). */
static void
queue_options (GPtrArray *params, GPtrArray *options)
{
  const gchar *type = param_value (params, "queue.type");
  const gchar *size = param_value (params, "queue.size");
  const gchar *filename = param_value (params, "queue.filename");

  const gchar *discard_mark = param_value (params, "queue.discardmark");
  const gchar *discard_severity = param_value (params, "queue.discardseverity");

  if (size)
    g_ptr_array_add (options, g_strdup_printf ("log-fifo-size(%s)", size));
  /* rsyslog discards nothing unless discardSeverity is below 8 */
  if (discard_mark && discard_severity)
    g_ptr_array_add (options, g_strdup_printf ("discard-mark(%s) discard-level(\"%s\")", discard_mark,
                                               discard_severity));
  if ((type && g_ascii_strcasecmp (type, "disk") == 0) || filename)
    {
      const gchar *space = param_value (params, "queue.maxdiskspace");
      gboolean reliable = type && g_ascii_strcasecmp (type, "disk") == 0;

      g_ptr_array_add (options, g_strdup_printf ("disk-buffer(reliable(%s) disk-buf-size(%s))",
                                                 reliable ? "yes" : "no", space ? space : "1G"));
    }
}

/* Whether rsyslogd would know the type here: its own output modules
 * (omfile, omfwd, ompipe, omusrmsg) need no module(load=), these and the
 * others plugins serve do; a type Sluice does not map is refused as such
 * further on. */
static gboolean
module_loaded (SlRsConf *c, const gchar *type)
{
  static const gchar *const loadable[] = { "ommail", "omhttp", "omsnmp" };
  g_autofree gchar *lower = g_ascii_strdown (type, -1);
  const SlRsModule *module = sl_plugins_rsyslog_lookup (lower);
  gboolean needs_load = module && !(module->flags & SL_RS_MODULE_BUILTIN);

  for (guint i = 0; i < G_N_ELEMENTS (loadable) && !needs_load; i++)
    needs_load = g_str_equal (lower, loadable[i]);
  return !needs_load || g_hash_table_contains (c->loaded, lower);
}

gchar *
sl_rs_action_object (SlRsConf *c, GPtrArray *params, SlCfgPos pos, gboolean *is_parser, GError **error)
{
  const gchar *type = param_value (params, "type");
  g_autoptr (GPtrArray) queue = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *saved_queue = c->action_queue;
  gchar *name = NULL;

  *is_parser = FALSE;
  if (!type)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos, _("an rsyslog action() needs type="));
      return NULL;
    }
  if (!module_loaded (c, type))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, pos,
                        _("rsyslog's action type '%s' needs its module loaded first (module(load=\"%s\")), as rsyslogd "
                          "refuses it otherwise"), type, type);
      return NULL;
    }
  g_autofree gchar *lower = g_ascii_strdown (type, -1);
  const SlRsModule *module = sl_plugins_rsyslog_lookup (lower);
  if (module && (module->flags & SL_RS_MODULE_LEGACY_ONLY))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, pos,
                        _("rsyslog's module %s takes no action(): only its legacy form :%s:, as rsyslogd"), type,
                        module->name);
      return NULL;
    }
  if (module && module->kind == SL_RS_MODULE_MODIFIER)
    {
      *is_parser = TRUE;
      return sl_rs_plugin_modifier (c, module, module->name, params, pos, error);
    }
  queue_options (params, queue);
  c->action_queue = queue;
  c->action_name = param_value (params, "name");
  const gchar *retries = param_value (params, "action.resumeretrycount");
  if (retries && g_str_equal (retries, "-1"))
    sl_rs_ruleset_waits (c);
  if (module && module->kind == SL_RS_MODULE_OUTPUT)
    name = sl_rs_plugin_action (c, module, module->name, params, pos, error);
  else
    name = sl_rs_output_action (c, params, type, pos, error);
  c->action_queue = saved_queue;
  c->action_name = NULL;
  return name;
}
