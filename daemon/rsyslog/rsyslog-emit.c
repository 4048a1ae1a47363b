/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Sluice text written for rsyslog constructs, parsed by the syslog-ng
 * grammar and placed in the tree at the rsyslog position it came from. */
#include "daemon/rsyslog/rsyslog-private.h"

#include "core/config/error.h"
#include "core/config/parser.h"
#include "core/i18n.h"

#include <string.h>

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlCfgNode, sl_cfg_node_free)

void
sl_rs_quote (GString *out, const gchar *text)
{
  sl_rs_text_quote (out, text);
}

gchar *
sl_rs_quoted (const gchar *text)
{
  GString *out = g_string_new (NULL);
  sl_rs_quote (out, text);
  return g_string_free (out, FALSE);
}

void
sl_rs_place (SlCfgNode *node, SlCfgPos pos)
{
  node->pos = pos;
  for (guint i = 0; node->args && i < node->args->len; i++)
    ((SlCfgArg *) g_ptr_array_index (node->args, i))->pos = pos;
  for (guint i = 0; node->children && i < node->children->len; i++)
    sl_rs_place (g_ptr_array_index (node->children, i), pos);
}

SlCfgNode *
sl_rs_parse_text (const gchar *text, SlCfgPos pos, GError **error)
{
  GError *inner = NULL;
  SlCfgNode *root = sl_cfg_parse_string (text, "<rsyslog>", &inner);

  if (!root)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, pos, _("this rsyslog statement cannot be read: %s"),
                        inner->message);
      g_error_free (inner);
    }
  return root;
}

void
sl_rs_move_children (SlCfgNode *from, SlCfgNode *to, const SlCfgPos *pos)
{
  for (guint i = 0; i < from->children->len; i++)
    {
      SlCfgNode *child = g_ptr_array_index (from->children, i);

      if (pos)
        sl_rs_place (child, *pos);
      sl_cfg_node_add_child (to, child);
    }
  g_ptr_array_set_free_func (from->children, NULL);
  g_ptr_array_set_size (from->children, 0);
}

gboolean
sl_rs_emit (SlRsConf *c, SlCfgPos pos, const gchar *text, GError **error)
{
  g_autoptr (SlCfgNode) root = sl_rs_parse_text (text, pos, error);

  if (!root)
    return FALSE;
  sl_rs_move_children (root, c->root, &pos);
  return TRUE;
}

gboolean
sl_rs_max_message_size (SlRsConf *c, const gchar *value, SlCfgPos pos, GError **error)
{
  g_autofree gchar *text = g_strdup_printf ("options { log-msg-size(%s); };", value);
  g_free (c->max_message_size);
  c->max_message_size = g_strdup (value);
  return sl_rs_emit (c, pos, text, error);
}

/* parser.escapeControlCharactersOnReceive, parser.escapeControlCharacterTab
 * and their legacy directives: what the parsing inputs are told (imfile's
 * own escape-control-chars(no) stays) */
gboolean
sl_rs_escape_setting (SlRsConf *c, const gchar *name, const gchar *value, SlCfgPos pos, gboolean *taken,
                      GError **error)
{
  const gchar *setting = g_str_has_prefix (name, "parser.") ? name + strlen ("parser.") : name;
  gboolean tab = g_ascii_strcasecmp (setting, "escapecontrolcharactertab") == 0;

  *taken = tab || g_ascii_strcasecmp (setting, "escapecontrolcharactersonreceive") == 0;
  if (!*taken)
    return TRUE;
  if (tab)
    c->keep_tabs = !sl_rs_is_true (value);
  else
    c->keep_control_chars = !sl_rs_is_true (value);
  g_autofree gchar *text = g_strdup_printf ("options { escape-control-chars(%s); };",
                                            c->keep_control_chars ? "no" : c->keep_tabs ? "except-tab" : "yes");
  return sl_rs_emit (c, pos, text, error);
}

gboolean
sl_rs_emit_log_items (SlCfgPos pos, SlCfgNode *into, const gchar *text, GError **error)
{
  g_autofree gchar *wrapped = g_strdup_printf ("log { %s };", text);
  g_autoptr (SlCfgNode) root = sl_rs_parse_text (wrapped, pos, error);

  if (!root)
    return FALSE;
  sl_rs_move_children (g_ptr_array_index (root->children, 0), into, &pos);
  return TRUE;
}

void
sl_rs_ruleset_waits (SlRsConf *c)
{
  g_hash_table_add (c->waiting, c->ruleset);
}

gchar *
sl_rs_new_name (SlRsConf *c, const gchar *kind)
{
  return g_strdup_printf ("%s_%s%u", c->prefix, kind, ++c->serial);
}

void
sl_rs_param_free (SlRsParam *param)
{
  g_free (param->name);
  g_free (param->value);
  g_strfreev (param->items);
  g_free (param);
}

GPtrArray *
sl_rs_params_new (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) sl_rs_param_free);
}

void
sl_rs_params_add (GPtrArray *params, const gchar *name, const gchar *value, SlCfgPos pos)
{
  SlRsParam *param;

  if (!value)
    return;
  param = g_new0 (SlRsParam, 1);
  param->name = g_strdup (name);
  param->value = g_strdup (value);
  param->pos = pos;
  g_ptr_array_add (params, param);
}

const SlRsParam *
sl_rs_param_find (GPtrArray *params, const gchar *name)
{
  for (guint i = 0; i < params->len; i++)
    {
      const SlRsParam *param = g_ptr_array_index (params, i);
      if (g_ascii_strcasecmp (param->name, name) == 0)
        return param;
    }
  return NULL;
}

gboolean
sl_rs_is_true (const gchar *value)
{
  return g_ascii_strcasecmp (value, "on") == 0 || g_ascii_strcasecmp (value, "yes") == 0
         || g_ascii_strcasecmp (value, "true") == 0 || strcmp (value, "1") == 0;
}

void
sl_rs_append_option (GString *out, const gchar *name, const gchar *value)
{
  sl_rs_text_option (out, name, value);
}

/* Actions that write the same way share one destination, as rsyslog's
 * share the file they write. An action() with name= gives it its name
 * after a ':' ("rs0_d2:auth", quoted), as inputs do their sources: its
 * statistics and sluiced --test know it so. */
gchar *
sl_rs_emit_destination (SlRsConf *c, SlCfgPos pos, const gchar *drivers, GError **error)
{
  const gchar *known = g_hash_table_lookup (c->destinations, drivers);
  if (known)
    return g_strdup (known);

  g_autofree gchar *name = sl_rs_new_name (c, "d");
  if (c->action_name)
    {
      g_autofree gchar *named = g_strdup_printf ("%s:%s", name, c->action_name);
      g_free (name);
      name = sl_rs_quoted (named);
    }
  g_autofree gchar *text = g_strdup_printf ("destination %s { %s };", name, drivers);

  if (!sl_rs_emit (c, pos, text, error))
    return NULL;
  g_hash_table_insert (c->destinations, g_strdup (drivers), g_strdup (name));
  return g_steal_pointer (&name);
}

/* queue.* and action.* parameters Sluice takes as they are, its queues and
 * retries working their own way */
static const gchar *const accepted_params[] = {
  "type", "name", "template", "queue.type", "queue.size", "queue.filename", "queue.maxdiskspace",
  "queue.saveonshutdown", "queue.dequeuebatchsize", "queue.workerthreads", "queue.highwatermark",
  "queue.lowwatermark", "queue.discardmark", "queue.discardseverity", "queue.timeoutenqueue",
  "queue.timeoutshutdown", "queue.timeoutactioncompletion", "queue.checkpointinterval", "queue.syncqueuefiles",
  "queue.maxfilesize", "queue.spooldirectory", "queue.mindequeuebatchsize", "queue.workerthreadminimummessages",
  "queue.dequeueslowdown", "queue.workertimeoutthreadshutdown",
  "action.resumeretrycount", "action.resumeinterval", "action.reportsuspension",
  "action.reportsuspensioncontinuation", "action.execonlywhenpreviousissuspended", "action.writeallmarkmessages",
  "action.execonlyonceeveryinterval",
};

/* values of the parameters above that would change what is written */
static const struct
{
  const gchar *param;
  gboolean refused_when;
  const gchar *why;
} refused_values[] = {
  { "action.writeallmarkmessages", FALSE, N_("Sluice writes every MARK an action is given") },
  { "action.execonlywhenpreviousissuspended", TRUE, N_("Sluice has no failover between actions") },
  { "flushontxend", FALSE,
    N_("Sluice writes lines out as they come, where omfile then holds them in its buffer until it is full") },
};

gboolean
sl_rs_check_action_params (GPtrArray *params, const gchar *const *own, guint n_own, const gchar *type, GError **error)
{
  for (guint i = 0; i < params->len; i++)
    {
      const SlRsParam *param = g_ptr_array_index (params, i);
      gboolean known = FALSE;

      for (guint k = 0; k < G_N_ELEMENTS (refused_values); k++)
        if (g_ascii_strcasecmp (param->name, refused_values[k].param) == 0
            && sl_rs_is_true (param->value) == refused_values[k].refused_when)
          {
            sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, param->pos, _("rsyslog's %s=\"%s\" is not supported: %s"),
                              param->name, param->value, _(refused_values[k].why));
            return FALSE;
          }

      for (guint k = 0; k < G_N_ELEMENTS (accepted_params) && !known; k++)
        known = g_ascii_strcasecmp (param->name, accepted_params[k]) == 0;
      for (guint k = 0; k < n_own && !known; k++)
        known = g_ascii_strcasecmp (param->name, own[k]) == 0;
      if (!known)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, param->pos,
                            _("the parameter '%s' of rsyslog's %s is not supported"), param->name, type);
          return FALSE;
        }
    }
  return TRUE;
}
