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
 * parameters; a path without '-' before it syncs after
 * $ActionFileEnableSync on, as omfile reads the line */
static gchar *
legacy_file (SlRsConf *c, const gchar *written, const gchar *param, const gchar *value, const gchar *template_name,
             SlCfgPos pos, GError **error)
{
  g_autoptr (GPtrArray) params = sl_rs_params_new ();

  sl_rs_params_add (params, "sync", c->file_sync && written[0] != '-' ? "on" : NULL, pos);

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

  /* '-': no sync after each batch, which rsyslogd 8 does only with
   * $ActionFileEnableSync on */
  const gchar *written = target;
  if (target[0] == '-' && (target[1] == '/' || target[1] == '?'))
    target++;
  if (target[0] == '/')
    return legacy_file (c, written, "file", target, template_name, pos, error);
  if (target[0] == '?')
    return legacy_file (c, written, "dynafile", target + 1, template_name, pos, error);
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

/* A size as rsyslog reads one: digits, then k, m, g or t for powers of
 * 1024, K, M, G or T for powers of 1000 */
static gboolean
rsyslog_size (const gchar *text, guint64 *bytes)
{
  static const gchar units[] = "kmgtKMGT";
  gchar *end = NULL;

  if (!g_ascii_isdigit (text[0]))
    return FALSE;
  *bytes = g_ascii_strtoull (text, &end, 10);
  if (*end && (end[1] || !strchr (units, *end)))
    return FALSE;
  if (*end)
    for (gint i = (gint) (strchr (units, *end) - units) % 4; i >= 0; i--)
      *bytes *= g_ascii_isupper (*end) ? 1000 : 1024;
  return TRUE;
}

static gboolean
refuse_queue_param (GPtrArray *params, const gchar *name, const gchar *why, GError **error)
{
  const SlRsParam *param = sl_rs_param_find (params, name);

  sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, param->pos, _("rsyslog's %s=\"%s\" is not supported: %s"),
                    param->name, param->value, why);
  return FALSE;
}

static gboolean
queue_size (GPtrArray *params, const gchar *name, guint64 *bytes, GError **error)
{
  const gchar *text = param_value (params, name);

  if (text && !rsyslog_size (text, bytes))
    return refuse_queue_param (params, name, _("it is a number with k, m, g, t (or K, M, G, T) after it"), error);
  return TRUE;
}

/* rsyslog's queue.* as Sluice's queue and disk buffer: a disk queue and a
 * disk-assisted one (queue.filename) become a disk-buffer(). rsyslog's
 * action queue is direct unless queue.type says otherwise: then nothing
 * waits in it, so nothing is discarded or waits for room. */
gboolean
sl_rs_queue_options (GPtrArray *params, GPtrArray *options, GError **error)
{
  const gchar *type = param_value (params, "queue.type");
  const gchar *filename = param_value (params, "queue.filename");
  const gchar *discard_mark = param_value (params, "queue.discardmark");
  const gchar *discard_severity = param_value (params, "queue.discardseverity");
  const gchar *timeout = param_value (params, "queue.timeoutenqueue");
  gboolean direct = !type || g_ascii_strcasecmp (type, "direct") == 0;
  gboolean disk = type && g_ascii_strcasecmp (type, "disk") == 0;
  guint64 size = 1000;
  guint64 space = 0;

  if (!queue_size (params, "queue.size", &size, error) || !queue_size (params, "queue.maxdiskspace", &space, error))
    return FALSE;
  if (param_value (params, "queue.size"))
    g_ptr_array_add (options, g_strdup_printf ("log-fifo-size(%" G_GUINT64_FORMAT ")", size));
  if (timeout && !direct && g_ascii_strtoll (timeout, NULL, 10) != 0)
    return refuse_queue_param (params, "queue.timeoutenqueue",
                               _("Sluice drops what a full queue cannot take at once (0 here), where rsyslogd "
                                 "waits so many milliseconds for room"), error);
  if (filename && !disk && param_value (params, "queue.saveonshutdown")
      && !sl_rs_is_true (param_value (params, "queue.saveonshutdown")))
    return refuse_queue_param (params, "queue.saveonshutdown",
                               _("Sluice's disk buffer writes what it holds in memory to the disk at a stop, where "
                                 "rsyslogd then loses it"), error);
  /* rsyslog discards nothing unless discardSeverity is below 8; its mark
   * is 98 in 100 of the queue's size unless one between 1 and the size
   * is given */
  if (!direct && discard_severity && g_ascii_strtoll (discard_severity, NULL, 10) < 8)
    {
      gint64 mark = discard_mark ? g_ascii_strtoll (discard_mark, NULL, 10) : 0;
      guint64 own_mark = size / 100 * 98;
      if (mark < 1 || (guint64) mark > size)
        mark = (gint64) (own_mark > 0 ? own_mark : size);
      g_ptr_array_add (options, g_strdup_printf ("discard-mark(%" G_GINT64_FORMAT ") discard-level(\"%s\")", mark,
                                                 discard_severity));
    }
  if (disk || filename)
    g_ptr_array_add (options, g_strdup_printf ("disk-buffer(reliable(%s) disk-buf-size(%" G_GUINT64_FORMAT "))",
                                               disk ? "yes" : "no", space ? space : (guint64) 1 << 30));
  return TRUE;
}

/* $ActionQueue* as the next legacy action's queue.* parameters, the same
 * mapping as action()'s; rsyslogd forgets them after that action */
gboolean
sl_rs_action_queue_directive (SlRsConf *c, const gchar *name, const gchar *value, SlCfgPos pos, GError **error)
{
  g_autofree gchar *lower = g_ascii_strdown (name + strlen ("ActionQueue"), -1);
  g_autofree gchar *param = g_strconcat ("queue.", lower, NULL);
  g_autoptr (GPtrArray) alone = sl_rs_params_new ();

  sl_rs_params_add (alone, param, value, pos);
  if (!sl_rs_check_action_params (alone, NULL, 0, "$ActionQueue", NULL))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, pos, _("the rsyslog directive '$%s' is not supported"), name);
      return FALSE;
    }
  if (!c->action_queue_params)
    c->action_queue_params = sl_rs_params_new ();
  for (guint i = 0; i < c->action_queue_params->len; i++)
    if (g_str_equal (((SlRsParam *) g_ptr_array_index (c->action_queue_params, i))->name, param))
      g_ptr_array_remove_index (c->action_queue_params, i);
  sl_rs_params_add (c->action_queue_params, param, value, pos);
  g_clear_pointer (&c->action_queue, g_ptr_array_unref);
  c->action_queue = g_ptr_array_new_with_free_func (g_free);
  return sl_rs_queue_options (c->action_queue_params, c->action_queue, error);
}

/* $MainMsgQueueType: Sluice has no main queue, only the destinations'
 * own. Held in memory or not held at all, rsyslogd's main queue passes
 * the same messages on; on disk it keeps what it has not yet routed
 * across a stop, which nothing in Sluice does. */
gboolean
sl_rs_main_queue_type (const gchar *value, SlCfgPos pos, GError **error)
{
  static const gchar *const in_memory[] = { "LinkedList", "FixedArray", "Direct" };

  for (guint i = 0; i < G_N_ELEMENTS (in_memory); i++)
    if (g_ascii_strcasecmp (value, in_memory[i]) == 0)
      return TRUE;
  sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, pos,
                    _("rsyslog's main queue of type %s is not supported: Sluice has no main queue to keep on disk "
                      "across a stop; LinkedList, FixedArray and Direct are taken"), value);
  return FALSE;
}

/* main_queue()'s queue.*: its size, threads, timeouts and spill file
 * change when messages pass under overload, not which; what would drop
 * or keep messages in a main queue Sluice does not have is refused */
gboolean
sl_rs_main_queue_param (const SlRsParam *param, GError **error)
{
  const gchar *why = NULL;

  if (g_str_equal (param->name, "queue.type"))
    return sl_rs_main_queue_type (param->value, param->pos, error);
  if (g_str_equal (param->name, "queue.discardseverity") && g_ascii_strtoll (param->value, NULL, 10) < 8)
    why = _("Sluice has no main queue to discard from (an action's queue.discardSeverity is taken)");
  else if (g_str_equal (param->name, "queue.saveonshutdown") && sl_rs_is_true (param->value))
    why = _("Sluice has no main queue to keep on disk across a stop");
  if (!why)
    return TRUE;
  sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, param->pos, _("rsyslog's %s=\"%s\" is not supported: %s"),
                    param->name, param->value, why);
  return FALSE;
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
  if (sl_rs_param_find (params, "action.errorfile"))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, sl_rs_param_find (params, "action.errorfile")->pos,
                        _("rsyslog's action.errorFile is not supported: rsyslogd writes what the action could not "
                          "take into that file, and Sluice keeps it queued or counts it dropped"));
      return NULL;
    }
  if (!sl_rs_queue_options (params, queue, error))
    return NULL;
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
