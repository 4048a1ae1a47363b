/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "plugins/destinations/amqp/vp-headers.h"
#include "core/config/error.h"
#include "core/i18n.h"

#include <jansson.h>
#include <string.h>

struct _VpHeaders
{
  SlTemplate *flat_json;
  GString *rendered;
};

static void
append_quoted (GString *call, const gchar *word)
{
  g_string_append (call, " \"");
  for (const gchar *p = word; *p; p++)
    {
      if (*p == '"' || *p == '\\')
        g_string_append_c (call, '\\');
      g_string_append_c (call, *p);
    }
  g_string_append_c (call, '"');
}

static void
append_option_args (GString *call, const gchar *option, const SlCfgNode *node)
{
  for (guint i = 0; i < node->args->len; i++)
    {
      g_string_append_printf (call, " %s", option);
      append_quoted (call, ((const SlCfgArg *) g_ptr_array_index (node->args, i))->value);
    }
}

static gboolean
n_args_is (const SlCfgNode *node, guint n, const gchar *owner, GError **error)
{
  if (node->args->len == n)
    return TRUE;
  sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, node->pos, _("%s value-pairs(): %s() takes %u arguments, not %u"),
                    owner, node->name, n, node->args->len);
  return FALSE;
}

/* rekey("glob" add-prefix("p") replace-prefix("old" "new") shift(N) shift-levels(N)) */
static gboolean
append_rekey (GString *call, const SlCfgNode *node, const gchar *owner, GError **error)
{
  if (!n_args_is (node, 1, owner, error))
    return FALSE;
  g_string_append (call, " --rekey");
  append_quoted (call, sl_cfg_node_arg (node, 0));
  for (guint i = 0; node->children && i < node->children->len; i++)
    {
      const SlCfgNode *t = g_ptr_array_index (node->children, i);
      if (sl_cfg_name_equal (t->name, "replace-prefix") || sl_cfg_name_equal (t->name, "replace"))
        {
          if (!n_args_is (t, 2, owner, error))
            return FALSE;
          gchar *pair = g_strconcat (sl_cfg_node_arg (t, 0), "=", sl_cfg_node_arg (t, 1), NULL);
          g_string_append (call, " --replace-prefix");
          append_quoted (call, pair);
          g_free (pair);
        }
      else if (sl_cfg_name_equal (t->name, "add-prefix") || sl_cfg_name_equal (t->name, "shift")
               || sl_cfg_name_equal (t->name, "shift-levels"))
        {
          if (!n_args_is (t, 1, owner, error))
            return FALSE;
          gchar *option = sl_cfg_name_normalize (t->name);
          g_string_append_printf (call, " --%s", option);
          g_free (option);
          append_quoted (call, sl_cfg_node_arg (t, 0));
        }
      else
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, t->pos,
                            _("%s value-pairs(): rekey() has no %s(); it takes add-prefix(), replace-prefix(), "
                              "shift() and shift-levels()"), owner, t->name);
          return FALSE;
        }
    }
  return TRUE;
}

/* pair("name" "template") or pair("name" => "template") */
static gboolean
append_pair (GString *call, const SlCfgNode *node, const gchar *owner, GError **error)
{
  const SlCfgArg *first = node->args->len ? g_ptr_array_index (node->args, 0) : NULL;
  gchar *pair = NULL;
  if (first && first->key && node->args->len == 1)
    pair = g_strconcat (first->key, "=", first->value, NULL);
  else if (n_args_is (node, 2, owner, error))
    pair = g_strconcat (sl_cfg_node_arg (node, 0), "=", sl_cfg_node_arg (node, 1), NULL);
  if (!pair)
    return FALSE;
  g_string_append (call, " --pair");
  append_quoted (call, pair);
  g_free (pair);
  return TRUE;
}

static gboolean
append_block (GString *call, const SlCfgNode *block, const gchar *owner, GError **error)
{
  for (guint i = 0; block->children && i < block->children->len; i++)
    {
      const SlCfgNode *node = g_ptr_array_index (block->children, i);
      if (sl_cfg_name_equal (node->name, "scope"))
        append_option_args (call, "--scope", node);
      else if (sl_cfg_name_equal (node->name, "key"))
        append_option_args (call, "--key", node);
      else if (sl_cfg_name_equal (node->name, "exclude"))
        append_option_args (call, "--exclude", node);
      else if (sl_cfg_name_equal (node->name, "omit-empty-values"))
        g_string_append (call, " --omit-empty-values");
      else if (sl_cfg_name_equal (node->name, "pair"))
        {
          if (!append_pair (call, node, owner, error))
            return FALSE;
        }
      else if (sl_cfg_name_equal (node->name, "rekey"))
        {
          if (!append_rekey (call, node, owner, error))
            return FALSE;
        }
      else
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, node->pos,
                            _("%s value-pairs() has no %s(); it takes scope(), key(), exclude(), pair(), rekey() "
                              "and omit-empty-values()"), owner, node->name);
          return FALSE;
        }
    }
  return TRUE;
}

VpHeaders *
vp_headers_new (const SlCfgNode *block, SlCfgPos driver_pos, const gchar *owner, GError **error)
{
  GString *call = g_string_new ("$(format-flat-json --leave-initial-dot");
  if (!block)
    g_string_append (call, " --scope selected-macros --scope nv-pairs --scope sdata");
  else if (!append_block (call, block, owner, error))
    {
      g_string_free (call, TRUE);
      return NULL;
    }
  g_string_append_c (call, ')');
  GError *template_error = NULL;
  SlTemplate *t = sl_template_compile (call->str, &template_error);
  g_string_free (call, TRUE);
  if (!t)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, block ? block->pos : driver_pos, "%s value-pairs(): %s", owner,
                        template_error->message);
      g_error_free (template_error);
      return NULL;
    }
  VpHeaders *vp = g_new0 (VpHeaders, 1);
  vp->flat_json = t;
  vp->rendered = g_string_sized_new (1024);
  return vp;
}

guint
vp_headers_foreach (VpHeaders *vp, const SlMessage *msg, const SlTemplateEnv *env, VpHeaderFunc func,
                    gpointer user_data)
{
  g_string_truncate (vp->rendered, 0);
  sl_template_append (vp->flat_json, msg, env, vp->rendered);
  json_t *object = json_loadb (vp->rendered->str, vp->rendered->len, JSON_ALLOW_NUL, NULL);
  if (!json_is_object (object))
    {
      json_decref (object);
      return 0;
    }
  guint n = 0;
  const gchar *name;
  json_t *value;
  json_object_foreach (object, name, value)
    {
      if (json_is_string (value))
        func (name, json_string_value (value), user_data);
      else
        {
          /* a typed value (a number, a boolean) goes as its text */
          gchar *text = json_dumps (value, JSON_ENCODE_ANY);
          func (name, text ? text : "", user_data);
          free (text);
        }
      n++;
    }
  json_decref (object);
  return n;
}

void
vp_headers_free (VpHeaders *vp)
{
  if (!vp)
    return;
  sl_template_unref (vp->flat_json);
  g_string_free (vp->rendered, TRUE);
  g_free (vp);
}
