/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* rsyslog's modules that plugins serve (core/plugin/rsyslog-module.h): the
 * parameters checked against what the module declares, the call handed
 * to the plugin, and what is the front end's put around the driver it
 * writes: an action's queue and destination (an input's source is
 * rsyslog-input.c's). */
#include "daemon/rsyslog/rsyslog-private.h"

#include "core/config/error.h"
#include "core/i18n.h"
#include "core/plugin/registry-private.h"
#include "core/plugin/rsyslog-module-private.h"

#include <string.h>

static gchar *
template_object (gpointer front_end, const gchar *name, SlCfgPos pos, GError **error)
{
  return sl_rs_template_ref (front_end, name, pos, error);
}

static gboolean
define_template (gpointer front_end, const gchar *name, const gchar *rsyslog_text, SlCfgPos pos, GError **error)
{
  SlRsConf *c = front_end;
  g_autofree gchar *key = g_ascii_strdown (name, -1);

  return g_hash_table_contains (c->templates, key) || sl_rs_template_define (c, name, rsyslog_text, FALSE, pos, error);
}

static gboolean
template_text (gpointer front_end, const gchar *rsyslog_text, SlCfgPos pos, GString *out, GError **error)
{
  return sl_rs_template_from_string (rsyslog_text, FALSE, pos, out, error);
}

static gboolean
property (gpointer front_end, const gchar *name, SlCfgPos pos, GString *out, GError **error)
{
  return sl_rs_property_value (name, pos, out, error);
}

static gchar *
variable_field (gpointer front_end, const gchar *variable)
{
  return sl_rs_variable_field (variable);
}

static gboolean
template_value (gpointer front_end, const gchar *name, SlCfgPos pos, GString *out, GError **error)
{
  const gchar *text = sl_rs_template_lookup (front_end, name, pos, error);

  if (text)
    g_string_append (out, text);
  return text != NULL;
}

static gboolean
tls (gpointer front_end, const gchar *driver, const gchar *mode, const gchar *auth, const gchar *peers,
     const gchar *const files[3], gboolean server, SlCfgPos pos, GString *out, GError **error)
{
  /* the call's own files stand for global()'s (an imtcp input's) */
  SlRsTls side = { (gchar *) driver, (gchar *) mode, (gchar *) auth, (gchar *) peers };
  side.ca = (gchar *) files[0];
  side.cert = (gchar *) files[1];
  side.key = (gchar *) files[2];
  return sl_rs_tls_option (front_end, &side, server, pos, out, error);
}

static const gchar *
global (gpointer front_end, const gchar *name)
{
  SlRsConf *c = front_end;
  return g_str_equal (name, "maxmessagesize") ? c->max_message_size : NULL;
}

static const SlRsCallOps call_ops = {
  template_object, define_template, template_text, property, variable_field, template_value, tls, global,
};

/* What module(load=) and the legacy directives set for a module's later
 * calls: the value of a parameter the call does not write, as rsyslogd
 * takes them. The directives stay the front end's: they are read with
 * every other $ line, and $umask changes the modes. */
static void
add_defaults (SlRsConf *c, const SlRsModule *module, GArray *call_params, SlCfgPos pos)
{
  const struct
  {
    const gchar *module, *param, *value;
  } defaults[] = {
    { "omfile", "template", c->file_template },
    { "omfile", "fileowner", c->file_owner },
    { "omfile", "filegroup", c->file_group },
    { "omfile", "dirowner", c->dir_owner },
    { "omfile", "dirgroup", c->dir_group },
    { "omfile", "filecreatemode", c->file_mode },
    { "omfile", "dircreatemode", c->dir_mode },
    { "omfile", "createdirs", c->create_dirs ? "on" : "off" },
    { "ompipe", "template", c->file_template },
    { "omstdout", "template", c->file_template },
    { "omfwd", "template", c->forward_template },
    { "omuxsock", "template", c->uxsock_template },
    { "imtcp", "streamdriver.name", c->tls_server.driver },
    { "imtcp", "streamdriver.mode", c->tls_server.mode },
    { "imtcp", "streamdriver.authmode", c->tls_server.auth },
    { "imtcp", "permittedpeer", c->tls_server.peers },
  };

  for (guint i = 0; i < G_N_ELEMENTS (defaults); i++)
    {
      gboolean written = FALSE;

      if (!defaults[i].value || !g_str_equal (module->name, defaults[i].module))
        continue;
      for (guint k = 0; k < call_params->len && !written; k++)
        written = g_str_equal (g_array_index (call_params, SlRsCallParam, k).name, defaults[i].param);
      if (!written)
        {
          SlRsCallParam param = { defaults[i].param, defaults[i].value, NULL, pos };
          g_array_append_val (call_params, param);
        }
    }
  /* imtcp's module(): at its own place, where the plugin refuses it */
  for (guint i = 0; g_str_equal (module->name, "imtcp") && c->imtcp_params && i < c->imtcp_params->len; i++)
    {
      const SlRsParam *p = g_ptr_array_index (c->imtcp_params, i);
      gboolean written = FALSE;

      for (guint k = 0; k < call_params->len && !written; k++)
        written = g_str_equal (g_array_index (call_params, SlRsCallParam, k).name, p->name);
      if (!written)
        {
          SlRsCallParam param = { p->name, p->value, NULL, p->pos };
          g_array_append_val (call_params, param);
        }
    }
}

/* The driver the plugin writes for these parameters, NULL with an error. */
static gchar *
write_driver (SlRsConf *c, const SlRsModule *module, const gchar *type, GPtrArray *params, SlCfgPos pos,
              GError **error)
{
  g_autoptr (GArray) call_params = g_array_sized_new (FALSE, FALSE, sizeof (SlRsCallParam), params->len);
  g_autoptr (GString) driver = g_string_new (NULL);

  for (guint i = 0; i < params->len; i++)
    {
      const SlRsParam *p = g_ptr_array_index (params, i);
      SlRsCallParam param = { p->name, p->value, (const gchar *const *) p->items, p->pos };
      g_array_append_val (call_params, param);
    }
  add_defaults (c, module, call_params, pos);
  SlRsCall call = { type, pos, call_params, &call_ops, c };
  if (!module->write (&call, driver, error))
    return NULL;
  if (!driver->len || driver->str[driver->len - 1] != ')')
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos, _("the plugin serving rsyslog's %s wrote no driver"), type);
      return NULL;
    }
  return g_string_free (g_steal_pointer (&driver), FALSE);
}

gboolean
sl_rs_plugin_module_params (const SlRsModule *module, GPtrArray *params, GError **error)
{
  for (guint i = 0; params && i < params->len; i++)
    {
      const SlRsParam *param = g_ptr_array_index (params, i);
      gboolean known = g_str_equal (param->name, "load");

      for (guint k = 0; module->module_params && module->module_params[k] && !known; k++)
        known = g_str_equal (param->name, module->module_params[k]);
      if (!known)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, param->pos,
                            _("the parameter '%s' of rsyslog's module %s is not supported"), param->name,
                            module->name);
          return FALSE;
        }
    }
  return TRUE;
}

gchar *
sl_rs_plugin_action (SlRsConf *c, const SlRsModule *module, const gchar *type, GPtrArray *params, SlCfgPos pos,
                     GError **error)
{
  guint n_own = module->params ? g_strv_length ((gchar **) module->params) : 0;

  if (!sl_rs_check_action_params (params, module->params, n_own, type, error))
    return NULL;
  g_autofree gchar *driver = write_driver (c, module, type, params, pos, error);
  if (!driver)
    return NULL;
  /* the queue's options go inside each driver (omusrmsg writes one a
   * user), before its ')' */
  g_autoptr (GString) drivers = g_string_new (NULL);
  guint depth = 0;
  gboolean quoted = FALSE;
  for (const gchar *p = driver; *p; p++)
    {
      if (quoted && *p == '\\' && p[1])
        {
          g_string_append_len (drivers, p++, 2);
          continue;
        }
      if (*p == '"')
        quoted = !quoted;
      else if (!quoted && *p == '(')
        depth++;
      else if (!quoted && *p == ')' && --depth == 0)
        for (guint i = 0; c->action_queue && i < c->action_queue->len; i++)
          g_string_append_printf (drivers, " %s", (const gchar *) g_ptr_array_index (c->action_queue, i));
      g_string_append_c (drivers, *p);
    }
  g_string_append_c (drivers, ';');
  return sl_rs_emit_destination (c, pos, drivers->str, error);
}

/* RateLimit.Interval of an input whose module does not take it (its
 * driver has no limit): 0 only, rsyslogd's default, no limit */
static gboolean
module_limits_rate (const SlRsModule *module, const SlRsParam *param, const gchar *type, GError **error)
{
  if (!g_str_equal (param->name, "ratelimit.interval") || g_strcmp0 (param->value, "0") == 0)
    return TRUE;
  for (guint k = 0; module->params && module->params[k]; k++)
    if (g_str_equal (module->params[k], param->name))
      return TRUE;
  sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, param->pos,
                    _("the parameter '%s' of rsyslog's input %s is not supported: Sluice does not limit the rate "
                      "of this input; only 0 (no limit, rsyslogd's default) is taken"), param->name, type);
  return FALSE;
}

gchar *
sl_rs_plugin_input (SlRsConf *c, const SlRsModule *module, const gchar *type, GPtrArray *params, SlCfgPos pos,
                    GError **error)
{
  static const gchar *const common[] = { "type", "ruleset", "name", "ratelimit.interval", "ratelimit.burst" };

  for (guint i = 0; i < params->len; i++)
    {
      const SlRsParam *param = g_ptr_array_index (params, i);
      gboolean known = FALSE;

      for (guint k = 0; k < G_N_ELEMENTS (common) && !known; k++)
        known = g_str_equal (param->name, common[k]);
      for (guint k = 0; module->params && module->params[k] && !known; k++)
        known = g_str_equal (param->name, module->params[k]);
      if (!known)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, param->pos,
                            _("the parameter '%s' of rsyslog's input %s is not supported"), param->name, type);
          return NULL;
        }
      if (!module_limits_rate (module, param, type, error))
        return NULL;
    }
  return write_driver (c, module, type, params, pos, error);
}

gchar *
sl_rs_plugin_legacy (SlRsConf *c, const gchar *name, const gchar *written, GPtrArray *params, SlCfgPos pos,
                     GError **error)
{
  const SlRsModule *module = sl_plugins_rsyslog_lookup (name);

  if (!module || module->kind != SL_RS_MODULE_OUTPUT)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, pos, _("the rsyslog action '%s' is not supported"), written);
      return NULL;
    }
  return sl_rs_plugin_action (c, module, written, params, pos, error);
}

gchar *
sl_rs_plugin_modifier (SlRsConf *c, const SlRsModule *module, const gchar *type, GPtrArray *params, SlCfgPos pos,
                       GError **error)
{
  guint n_own = module->params ? g_strv_length ((gchar **) module->params) : 0;

  for (guint i = 0; i < params->len; i++)
    {
      const SlRsParam *param = g_ptr_array_index (params, i);
      if (g_str_has_prefix (param->name, "queue.")
          && !(g_str_equal (param->name, "queue.type") && g_ascii_strcasecmp (param->value, "direct") == 0))
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, param->pos,
                            _("the parameter '%s' of rsyslog's %s is not supported: %s"), param->name, type,
                            _("a queue of its own would give the module a copy of the message, which the actions "
                              "after it do not see; Sluice runs it in the path"));
          return NULL;
        }
    }
  if (!sl_rs_check_action_params (params, module->params, n_own, type, error))
    return NULL;
  g_autofree gchar *driver = write_driver (c, module, type, params, pos, error);
  if (!driver)
    return NULL;
  g_autofree gchar *name = sl_rs_new_name (c, module->flags & SL_RS_MODULE_UNPARSED_AS_MSG ? SL_RS_JSON_PARSER : "p");
  g_autofree gchar *text = g_strdup_printf ("parser %s { %s; };", name, driver);
  return sl_rs_emit (c, pos, text, error) ? g_steal_pointer (&name) : NULL;
}
