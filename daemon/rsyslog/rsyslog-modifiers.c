/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* mmnormalize's legacy directives, and the :mmnormalize: action that takes
 * them, as an action of mmnormalize, which a plugin serves
 * (lognorm-rsyslog.c). */
#include "daemon/rsyslog/rsyslog-private.h"

#include "core/config/error.h"
#include "core/i18n.h"
#include "core/plugin/registry-private.h"

gboolean
sl_rs_mmnormalize_directive (SlRsConf *c, const gchar *name, const gchar *value, SlCfgPos pos, GError **error)
{
  gboolean rulebase = g_ascii_strcasecmp (name, "mmnormalizeRuleBase") == 0;

  if (!rulebase && g_ascii_strcasecmp (name, "mmnormalizeUseRawMsg") != 0)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, pos, _("the rsyslog directive '$%s' is not supported"), name);
      return FALSE;
    }
  if (!g_hash_table_contains (c->loaded, "mmnormalize"))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos, _("$%s needs $ModLoad mmnormalize before it"), name);
      return FALSE;
    }
  if (rulebase)
    {
      g_free (c->mmnormalize_rulebase);
      c->mmnormalize_rulebase = g_strdup (value);
    }
  else
    c->mmnormalize_raw = sl_rs_is_true (value);
  return TRUE;
}

/* as rsyslogd, the action takes the directives' values: the next one
 * needs its own $mmnormalizeRuleBase */
gchar *
sl_rs_legacy_mmnormalize (SlRsConf *c, SlCfgPos pos, GError **error)
{
  g_autofree gchar *rulebase = g_steal_pointer (&c->mmnormalize_rulebase);
  gboolean raw = c->mmnormalize_raw;
  const SlRsModule *module = sl_plugins_rsyslog_lookup ("mmnormalize");
  g_autoptr (GPtrArray) params = sl_rs_params_new ();

  c->mmnormalize_raw = FALSE;
  if (!rulebase)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos, _("rsyslog's :mmnormalize: needs $mmnormalizeRuleBase before it"));
      return NULL;
    }
  if (!module || module->kind != SL_RS_MODULE_MODIFIER)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, pos, _("the rsyslog action '%s' is not supported"),
                        ":mmnormalize:");
      return NULL;
    }
  sl_rs_params_add (params, "rulebase", rulebase, pos);
  sl_rs_params_add (params, "userawmsg", raw ? "on" : NULL, pos);
  return sl_rs_plugin_modifier (c, module, ":mmnormalize:", params, pos, error);
}
