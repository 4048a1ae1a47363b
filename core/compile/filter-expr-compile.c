/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/compile/filter-expr-compile.h"
#include "core/route/filter-expr-private.h"
#include "core/compile/config-private.h"
#include "core/config/error.h"
#include "core/config/syntax-version.h"
#include "core/i18n.h"

#include <string.h>

static const struct
{
  const gchar *word;
  SlCompareOp op;
  gboolean numeric;
} operators[] = {
  { "==", SL_CMP_EQ, TRUE }, { "!=", SL_CMP_NE, TRUE }, { "<", SL_CMP_LT, TRUE },
  { "<=", SL_CMP_LE, TRUE }, { ">", SL_CMP_GT, TRUE }, { ">=", SL_CMP_GE, TRUE },
  { "eq", SL_CMP_EQ, FALSE }, { "ne", SL_CMP_NE, FALSE }, { "lt", SL_CMP_LT, FALSE },
  { "le", SL_CMP_LE, FALSE }, { "gt", SL_CMP_GT, FALSE }, { "ge", SL_CMP_GE, FALSE },
};

static SlFilterExpr *compile (SlConfig *cfg, const SlCfgNode *node, GHashTable *visiting, GError **error);

/* A side written as a bare number (== 5, < 1.5) is an int64 or a double,
 * as syslog-ng reads it (*hinted); a quoted "5" is text. */
static SlTemplate *
compile_operand (const SlCfgArg *arg, gboolean *hinted, GError **error)
{
  g_autofree gchar *decimal = NULL;
  const gchar *hint = sl_cfg_arg_number_hint (arg, &decimal);
  GError *inner = NULL;
  gsize at;
  SlTemplate *t = sl_template_compile_located (decimal ? decimal : arg->value, &at, &inner);
  if (!t)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, at == G_MAXSIZE ? arg->pos : sl_cfg_pos_in_string (arg->pos, at),
                        "%s", inner->message);
      g_error_free (inner);
      return NULL;
    }
  SlValueType type;
  *hinted = hint && sl_value_type_from_name (hint, strlen (hint), TRUE, &type);
  if (*hinted)
    sl_template_set_type_hint (t, type);
  return t;
}

static SlFilterExpr *
compile_compare (const SlCfgNode *node, GError **error)
{
  if (!node->args || node->args->len != 3)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, node->pos, _("a comparison needs two sides and an operator"));
      return NULL;
    }
  const SlCfgArg *op = g_ptr_array_index (node->args, 1);
  SlFilterExpr *e = g_new0 (SlFilterExpr, 1);
  e->kind = SL_EXPR_COMPARE;
  guint i;
  for (i = 0; i < G_N_ELEMENTS (operators); i++)
    if (g_ascii_strcasecmp (operators[i].word, op->value) == 0)
      break;
  if (i == G_N_ELEMENTS (operators))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, op->pos, _("unknown comparison operator '%s'"), op->value);
      g_free (e);
      return NULL;
    }
  e->op = operators[i].op;
  e->numeric = operators[i].numeric;
  gboolean lhs_hinted, rhs_hinted;
  if (!(e->lhs = compile_operand (g_ptr_array_index (node->args, 0), &lhs_hinted, error))
      || !(e->rhs = compile_operand (g_ptr_array_index (node->args, 2), &rhs_hinted, error)))
    {
      sl_filter_expr_free (e);
      return NULL;
    }
  if (!e->numeric || sl_cfg_compiling_version_4 ())
    {
      e->typed = e->numeric;
      return e;
    }
  /* 3.x compares numbers, but a bare number on either side makes the
   * comparison type-aware, every other value a string (3.38's
   * fop_cmp_new() keeps it so for an explicit type, which a bare number
   * is, and 3.x templates are strings) */
  e->typed = lhs_hinted || rhs_hinted;
  if (e->typed && !lhs_hinted)
    sl_template_set_type_hint (e->lhs, SL_VALUE_STRING);
  if (e->typed && !rhs_hinted)
    sl_template_set_type_hint (e->rhs, SL_VALUE_STRING);
  return e;
}

static SlFilterExpr *
compile_reference (SlConfig *cfg, const SlCfgNode *node, GHashTable *visiting, GError **error)
{
  const gchar *name = sl_cfg_node_arg (node, 0);
  if (!name)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, node->pos, _("filter() needs the name of a filter"));
      return NULL;
    }
  const SlCfgNode *target = sl_config_find_object (cfg, "filter", name);
  if (!target)
    {
      sl_config_set_no_object_error (cfg, error, node->pos, "filter", name);
      return NULL;
    }
  if (g_hash_table_contains (visiting, target))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_REFERENCE, node->pos, _("filter '%s' refers to itself"), name);
      return NULL;
    }
  if (!target->children || target->children->len != 1)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, target->pos, _("filter '%s' needs one expression"), name);
      return NULL;
    }
  g_hash_table_add (visiting, (gpointer) target);
  SlFilterExpr *e = compile (cfg, g_ptr_array_index (target->children, 0), visiting, error);
  g_hash_table_remove (visiting, target);
  return e;
}

static SlFilterExpr *
compile (SlConfig *cfg, const SlCfgNode *node, GHashTable *visiting, GError **error)
{
  guint nchildren = node->children ? node->children->len : 0;
  gboolean is_and = strcmp (node->name, "and") == 0;
  if (is_and || strcmp (node->name, "or") == 0)
    {
      if (nchildren != 2)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, node->pos, _("'%s' needs two operands"), node->name);
          return NULL;
        }
      SlFilterExpr *e = g_new0 (SlFilterExpr, 1);
      e->kind = is_and ? SL_EXPR_AND : SL_EXPR_OR;
      if (!(e->left = compile (cfg, g_ptr_array_index (node->children, 0), visiting, error))
          || !(e->right = compile (cfg, g_ptr_array_index (node->children, 1), visiting, error)))
        {
          sl_filter_expr_free (e);
          return NULL;
        }
      return e;
    }
  if (strcmp (node->name, "not") == 0 && nchildren == 1 && (!node->args || !node->args->len))
    {
      SlFilterExpr *inner = compile (cfg, g_ptr_array_index (node->children, 0), visiting, error);
      if (!inner)
        return NULL;
      SlFilterExpr *e = g_new0 (SlFilterExpr, 1);
      e->kind = SL_EXPR_NOT;
      e->left = inner;
      return e;
    }
  if (strcmp (node->name, "compare") == 0)
    return compile_compare (node, error);
  if (sl_cfg_name_equal (node->name, "filter"))
    return compile_reference (cfg, node, visiting, error);

  SlDriver *driver = sl_config_new_driver (cfg, SL_DRIVER_FILTER, node, NULL, error);
  if (!driver)
    return NULL;
  SlFilterExpr *e = g_new0 (SlFilterExpr, 1);
  e->kind = SL_EXPR_CALL;
  e->driver = driver;
  return e;
}

SlFilterExpr *
sl_filter_expr_compile (SlConfig *cfg, const SlCfgNode *node, GError **error)
{
  GHashTable *visiting = g_hash_table_new (NULL, NULL);
  SlFilterExpr *e = compile (cfg, node, visiting, error);
  g_hash_table_unref (visiting);
  return e;
}

