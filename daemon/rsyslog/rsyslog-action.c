/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* rsyslog's actions, legacy (/path, @host, |pipe, :omusrmsg:) and
 * action(type=...), each made a destination object of Sluice's language. */
#include "daemon/rsyslog/rsyslog-private.h"

#include "core/config/error.h"
#include "core/i18n.h"
#include "core/plugin/registry-private.h"

#include <string.h>

/* template() naming the template object; rsyslog 8.2302 writes
 * RSYSLOG_FileFormat unless told otherwise */
static gboolean
template_option (SlRsConf *c, GString *out, const gchar *name, SlCfgPos pos, GError **error)
{
  g_autofree gchar *object = sl_rs_template_ref (c, name ? name : c->file_template ? c->file_template
                                                                                   : "RSYSLOG_FileFormat",
                                                 pos, error);

  if (!object)
    return FALSE;
  g_string_append_printf (out, " template(%s)", object);
  return TRUE;
}

static void
append_file_defaults (SlRsConf *c, GString *out)
{
  const struct
  {
    const gchar *option;
    const gchar *value;
  } defaults[] = {
    { "owner", c->file_owner }, { "group", c->file_group }, { "dir-owner", c->dir_owner },
    { "dir-group", c->dir_group },
  };

  for (guint i = 0; i < G_N_ELEMENTS (defaults); i++)
    if (defaults[i].value)
      sl_rs_append_option (out, defaults[i].option, defaults[i].value);
  g_string_append_printf (out, " perm(%s) dir-perm(%s) create-dirs(%s)", c->file_mode, c->dir_mode,
                          c->create_dirs ? "yes" : "no");
  for (guint i = 0; c->action_queue && i < c->action_queue->len; i++)
    g_string_append_printf (out, " %s", (const gchar *) g_ptr_array_index (c->action_queue, i));
}

/* extra: more options of file() (a size limit), or NULL */
static gchar *
file_action_with (SlRsConf *c, const gchar *path_template, const gchar *extra, const gchar *template_name, SlCfgPos pos,
                  GError **error)
{
  g_autoptr (GString) drivers = g_string_new ("file(");

  sl_rs_quote (drivers, path_template);
  if (!template_option (c, drivers, template_name, pos, error))
    return NULL;
  append_file_defaults (c, drivers);
  if (extra)
    g_string_append (drivers, extra);
  g_string_append (drivers, ");");
  return sl_rs_emit_destination (c, pos, drivers->str, error);
}

static gchar *
file_action (SlRsConf *c, const gchar *path_template, const gchar *template_name, SlCfgPos pos, GError **error)
{
  return file_action_with (c, path_template, NULL, template_name, pos, error);
}

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

/* tls: the stream driver of a TCP action, whose mode 1 is TLS; octets:
 * octet-counted framing, where no line feed is added */
static gchar *
forward_action (SlRsConf *c, const gchar *host, const gchar *port, const SlRsTls *tls, gboolean octets,
                const gchar *template_name, SlCfgPos pos, GError **error)
{
  gboolean tcp = tls != NULL;
  g_autoptr (GString) tls_option = g_string_new (NULL);
  g_autoptr (GString) drivers = g_string_new ("network(");
  const gchar *format = template_name ? template_name : c->forward_template ? c->forward_template
                                                                           : "RSYSLOG_TraditionalForwardFormat";
  const gchar *text = sl_rs_template_lookup (c, format, pos, error);

  if (!text)
    return NULL;
  if (tcp && !sl_rs_tls_option (c, tls, FALSE, pos, tls_option, error))
    return NULL;
  sl_rs_quote (drivers, host);
  sl_rs_append_option (drivers, "port", port && *port ? port : "514");
  g_string_append_printf (drivers, " transport(%s)%s", !tcp ? "udp" : tls_option->len ? "tls" : "tcp", tls_option->str);
  /* omfwd cuts what the template makes to maxMessageSize, then over TCP
   * ends it with a line feed unless it ends with one */
  sl_rs_append_option (drivers, "template", text);
  sl_rs_append_option (drivers, "truncate-size", c->max_message_size ? c->max_message_size : "8096");
  if (tcp)
    g_string_append (drivers, octets ? " octet-count(yes)" : " add-newline(yes)");
  for (guint i = 0; c->action_queue && i < c->action_queue->len; i++)
    g_string_append_printf (drivers, " %s", (const gchar *) g_ptr_array_index (c->action_queue, i));
  g_string_append (drivers, ");");
  return sl_rs_emit_destination (c, pos, drivers->str, error);
}

static gchar *
users_action (SlRsConf *c, const gchar *users, SlCfgPos pos, GError **error)
{
  g_autoptr (GString) drivers = g_string_new (NULL);
  g_auto (GStrv) names = g_strsplit (users, ",", -1);

  for (guint i = 0; names[i]; i++)
    if (*g_strstrip (names[i]))
      {
        g_string_append (drivers, "usertty(");
        sl_rs_quote (drivers, names[i]);
        g_string_append (drivers, "); ");
      }
  return sl_rs_emit_destination (c, pos, drivers->str, error);
}

static gchar *
pipe_action (SlRsConf *c, const gchar *path, const gchar *template_name, SlCfgPos pos, GError **error)
{
  g_autoptr (GString) drivers = g_string_new ("pipe(");

  sl_rs_quote (drivers, path);
  if (!template_option (c, drivers, template_name, pos, error))
    return NULL;
  g_string_append (drivers, ");");
  return sl_rs_emit_destination (c, pos, drivers->str, error);
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
    return file_action (c, target, template_name, pos, error);
  if (target[0] == '?')
    {
      const gchar *path = sl_rs_template_lookup (c, target + 1, pos, error);
      return path ? file_action (c, path, template_name, pos, error) : NULL;
    }
  if (target[0] == '|')
    return pipe_action (c, target + 1, template_name, pos, error);
  if (g_str_has_prefix (target, ":omusrmsg:"))
    return users_action (c, target + strlen (":omusrmsg:"), pos, error);
  if (g_str_has_prefix (target, ":ommysql:") || g_str_has_prefix (target, ":ompgsql:"))
    return legacy_sql (c, g_str_has_prefix (target, ":ompgsql:"), target + strlen (":ommysql:"), template_name, pos,
                       error);
  if (g_str_has_prefix (target, ":omrelp:"))
    return legacy_relp (c, target + strlen (":omrelp:"), template_name, pos, error);
  if (g_str_equal (target, ":omuxsock:"))
    return sl_rs_legacy_uxsock (c, template_name, pos, error);
  if (g_str_has_prefix (target, ":omfile:$"))
    {
      g_autofree gchar *path = NULL;
      g_autoptr (GString) limit = g_string_new (NULL);
      return sl_rs_outchannel (c, target + strlen (":omfile:$"), pos, &path, limit, error)
               ? file_action_with (c, path, limit->str, template_name, pos, error)
               : NULL;
    }
  if (g_str_has_prefix (target, ":omfile:"))
    return file_action (c, target + strlen (":omfile:"), template_name, pos, error);
  if (target[0] == '@')
    {
      gboolean tcp = target[1] == '@';
      const gchar *rest = target + (tcp ? 2 : 1);
      g_autofree gchar *host = NULL;
      g_autofree gchar *port = NULL;

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
      return forward_action (c, host, port, tcp ? &c->tls_send : NULL, octets, template_name, pos, error);
    }
  if (strcmp (target, "*") == 0)
    return users_action (c, "*", pos, error);
  if (g_ascii_isalpha (target[0]) && !strchr (target, ':'))
    return users_action (c, target, pos, error);
  sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, pos, _("the rsyslog action '%s' is not supported"), text);
  return NULL;
}

static const gchar *
param_value (GPtrArray *params, const gchar *name)
{
  const SlRsParam *param = sl_rs_param_find (params, name);
  return param ? param->value : NULL;
}

static void
set_string (gchar **slot, const gchar *value)
{
  if (value)
    {
      g_free (*slot);
      *slot = g_strdup (value);
    }
}

static gchar *
omfile (SlRsConf *c, GPtrArray *params, SlCfgPos pos, GError **error)
{
  static const gchar *const own[] = {
    "file", "dynafile", "fileowner", "filegroup", "filecreatemode", "dircreatemode", "dirowner", "dirgroup",
    "createdirs", "flushontxend", "iobuffersize", "asyncwriting", "flushinterval", "dynafilecachesize",
    "closetimeout", "veryrobustzip", "ziplevel", "failonchownfailure", "sync", "fileownernum", "filegroupnum",
    "rotation.sizelimit", "rotation.sizelimitcommand",
  };
  if (!sl_rs_check_action_params (params, own, G_N_ELEMENTS (own), "omfile", error))
    return NULL;

  const gchar *file = param_value (params, "file");
  const gchar *dyna = param_value (params, "dynafile");
  if (!file && !dyna)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos, _("rsyslog's omfile needs file= or dynaFile="));
      return NULL;
    }
  if (dyna && !(file = sl_rs_template_lookup (c, dyna, pos, error)))
    return NULL;

  /* the action's own settings stand for the directives' while it is made */
  SlRsConf saved = *c;
  c->file_owner = g_strdup (param_value (params, "fileowner") ? param_value (params, "fileowner") : saved.file_owner);
  c->file_group = g_strdup (param_value (params, "filegroup") ? param_value (params, "filegroup") : saved.file_group);
  c->dir_owner = g_strdup (param_value (params, "dirowner") ? param_value (params, "dirowner") : saved.dir_owner);
  c->dir_group = g_strdup (param_value (params, "dirgroup") ? param_value (params, "dirgroup") : saved.dir_group);
  c->file_mode = g_strdup (saved.file_mode);
  c->dir_mode = g_strdup (saved.dir_mode);
  set_string (&c->file_mode, param_value (params, "filecreatemode"));
  set_string (&c->dir_mode, param_value (params, "dircreatemode"));
  if (param_value (params, "createdirs"))
    c->create_dirs = sl_rs_is_true (param_value (params, "createdirs"));
  g_autoptr (GString) limit = g_string_new (NULL);
  gchar *name = sl_rs_size_limit_options (params, limit, error)
                  ? file_action_with (c, file, limit->str, param_value (params, "template"), pos, error)
                  : NULL;
  g_free (c->file_owner);
  g_free (c->file_group);
  g_free (c->dir_owner);
  g_free (c->dir_group);
  g_free (c->file_mode);
  g_free (c->dir_mode);
  c->file_owner = saved.file_owner;
  c->file_group = saved.file_group;
  c->dir_owner = saved.dir_owner;
  c->dir_group = saved.dir_group;
  c->file_mode = saved.file_mode;
  c->dir_mode = saved.dir_mode;
  c->create_dirs = saved.create_dirs;
  return name;
}

static gchar *
omfwd (SlRsConf *c, GPtrArray *params, SlCfgPos pos, GError **error)
{
  static const gchar *const own[] = {
    "target", "port", "protocol", "tcp_framing", "address", "keepalive", "rebindinterval", "udp.sendtoall",
    "streamdriver", "streamdrivermode", "streamdriverauthmode", "streamdriverpermittedpeers",
  };
  if (!sl_rs_check_action_params (params, own, G_N_ELEMENTS (own), "omfwd", error))
    return NULL;
  const gchar *target = param_value (params, "target");
  const gchar *protocol = param_value (params, "protocol");
  const gchar *framing = param_value (params, "tcp_framing");
  if (!target)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos, _("rsyslog's omfwd needs target="));
      return NULL;
    }
  if (framing && g_ascii_strcasecmp (framing, "traditional") != 0 && g_ascii_strcasecmp (framing, "octet-counted") != 0)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, sl_rs_param_find (params, "tcp_framing")->pos,
                        _("rsyslog's TCP_Framing=\"%s\" is not one of traditional and octet-counted"), framing);
      return NULL;
    }
  gboolean tcp = protocol && g_ascii_strcasecmp (protocol, "tcp") == 0;
  /* an action()'s stream driver is its own: the legacy directives set
   * only the legacy @@ lines' */
  SlRsTls tls = {
    .driver = (gchar *) param_value (params, "streamdriver"), .mode = (gchar *) param_value (params, "streamdrivermode"),
    .auth = (gchar *) param_value (params, "streamdriverauthmode"),
    .peers = (gchar *) param_value (params, "streamdriverpermittedpeers"),
  };
  return forward_action (c, target, param_value (params, "port"), tcp ? &tls : NULL,
                         framing && g_ascii_strcasecmp (framing, "octet-counted") == 0, param_value (params, "template"),
                         pos, error);
}

static gchar *
simple_action (SlRsConf *c, GPtrArray *params, const gchar *type, SlCfgPos pos, GError **error)
{
  static const gchar *const own[] = { "binary", "users", "pipe", "usetransactions", "output", "forcesingleinstance",
                                      "hup.signal", "signalonclose", "killunresponsive", "closetimeout",
                                      "confirmmessages", "reportfailures", "ensurelf" };
  if (!sl_rs_check_action_params (params, own, G_N_ELEMENTS (own), type, error))
    return NULL;
  if (g_ascii_strcasecmp (type, "omusrmsg") == 0)
    return users_action (c, param_value (params, "users") ? param_value (params, "users") : "*", pos, error);
  if (g_ascii_strcasecmp (type, "ompipe") == 0)
    {
      if (!param_value (params, "pipe"))
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos, _("rsyslog's ompipe needs pipe="));
          return NULL;
        }
      return pipe_action (c, param_value (params, "pipe"), param_value (params, "template"), pos, error);
    }
  /* omstdout */
  g_autoptr (GString) drivers = g_string_new ("stdout(");
  if (!template_option (c, drivers, param_value (params, "template"), pos, error))
    return NULL;
  g_string_append (drivers, ");");
  return sl_rs_emit_destination (c, pos, drivers->str, error);
}

static gchar *
mmjsonparse (SlRsConf *c, GPtrArray *params, SlCfgPos pos, GError **error)
{
  static const gchar *const own[] = { "cookie", "userawmsg" };
  if (!sl_rs_check_action_params (params, own, G_N_ELEMENTS (own), "mmjsonparse", error))
    return NULL;
  const gchar *cookie = param_value (params, "cookie");
  g_autofree gchar *name = sl_rs_new_name (c, SL_RS_JSON_PARSER);
  g_autoptr (GString) text = g_string_new (NULL);

  /* its fields are $! variables (sl_rs_variable_field) */
  g_string_append_printf (text, "parser %s { json-parser(prefix(\"!\") marker(", name);
  sl_rs_quote (text, cookie ? cookie : "@cee:");
  g_string_append (text, ")); };");
  return sl_rs_emit (c, pos, text->str, error) ? g_steal_pointer (&name) : NULL;
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
 * (omfile, omfwd, ompipe, omusrmsg) need no module(load=), these and those
 * plugins serve do; a type Sluice does not map is refused as such further
 * on. */
static gboolean
module_loaded (SlRsConf *c, const gchar *type)
{
  static const gchar *const loadable[] = { "omstdout", "mmjsonparse", "ommail", "omhttp", "omsnmp" };
  g_autofree gchar *lower = g_ascii_strdown (type, -1);
  gboolean needs_load = sl_plugins_rsyslog_lookup (lower) != NULL;

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
  if (g_ascii_strcasecmp (type, "mmjsonparse") == 0)
    {
      *is_parser = TRUE;
      return mmjsonparse (c, params, pos, error);
    }
  g_autofree gchar *lower = g_ascii_strdown (type, -1);
  const SlRsModule *module = sl_plugins_rsyslog_lookup (lower);
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
  else if (g_ascii_strcasecmp (type, "omfile") == 0)
    {
      if (queue->len && strstr (g_ptr_array_index (queue, queue->len - 1), "disk-buffer"))
        sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, pos, _("a disk queue on rsyslog's omfile is not supported"));
      else
        name = omfile (c, params, pos, error);
    }
  else if (g_ascii_strcasecmp (type, "omfwd") == 0)
    name = omfwd (c, params, pos, error);
  else if (g_ascii_strcasecmp (type, "omusrmsg") == 0 || g_ascii_strcasecmp (type, "ompipe") == 0
           || g_ascii_strcasecmp (type, "omstdout") == 0)
    name = simple_action (c, params, type, pos, error);
  else
    name = sl_rs_output_action (c, params, type, pos, error);
  c->action_queue = saved_queue;
  c->action_name = NULL;
  return name;
}
