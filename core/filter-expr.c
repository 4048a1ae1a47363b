#include "core/filter-expr.h"
#include "core/config-private.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/template.h"

#include <stdlib.h>
#include <string.h>

typedef enum
{
  EXPR_AND,
  EXPR_OR,
  EXPR_NOT,
  EXPR_CALL,
  EXPR_COMPARE,
} ExprKind;

typedef enum
{
  CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE
} CompareOp;

struct _SlFilterExpr
{
  ExprKind kind;
  SlFilterExpr *left;
  SlFilterExpr *right;
  SlDriver *driver;         /* EXPR_CALL */
  SlTemplate *lhs;          /* EXPR_COMPARE */
  SlTemplate *rhs;
  CompareOp op;
  gboolean numeric;
};

static const struct
{
  const gchar *word;
  CompareOp op;
  gboolean numeric;
} operators[] = {
  { "==", CMP_EQ, TRUE }, { "!=", CMP_NE, TRUE }, { "<", CMP_LT, TRUE },
  { "<=", CMP_LE, TRUE }, { ">", CMP_GT, TRUE }, { ">=", CMP_GE, TRUE },
  { "eq", CMP_EQ, FALSE }, { "ne", CMP_NE, FALSE }, { "lt", CMP_LT, FALSE },
  { "le", CMP_LE, FALSE }, { "gt", CMP_GT, FALSE }, { "ge", CMP_GE, FALSE },
};

static SlFilterExpr *compile (SlConfig *cfg, const SlCfgNode *node, GHashTable *visiting, GError **error);

static SlTemplate *
compile_operand (const SlCfgArg *arg, GError **error)
{
  GError *inner = NULL;
  SlTemplate *t = sl_template_compile (arg->value, &inner);
  if (!t)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, arg->pos, "%s", inner->message);
      g_error_free (inner);
    }
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
  e->kind = EXPR_COMPARE;
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
  if (!(e->lhs = compile_operand (g_ptr_array_index (node->args, 0), error))
      || !(e->rhs = compile_operand (g_ptr_array_index (node->args, 2), error)))
    {
      sl_filter_expr_free (e);
      return NULL;
    }
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
      sl_cfg_error_set (error, SL_CFG_ERROR_REFERENCE, node->pos, _("there is no filter named '%s'"), name);
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
      e->kind = is_and ? EXPR_AND : EXPR_OR;
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
      e->kind = EXPR_NOT;
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
  e->kind = EXPR_CALL;
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

static gint
compare_values (const SlFilterExpr *e, const GString *a, const GString *b)
{
  if (!e->numeric)
    return strcmp (a->str, b->str);
  gdouble x = g_ascii_strtod (a->str, NULL);
  gdouble y = g_ascii_strtod (b->str, NULL);
  return (x > y) - (x < y);
}

/* Both sides are rendered into buffers kept per thread, one pair per level
 * of nesting (an operand may hold $(if) with a comparison of its own), so a
 * comparison allocates nothing once the buffers have grown. */
#define COMPARE_DEPTH 8

static void
scratch_pairs_free (gpointer data)
{
  GString **pairs = data;
  for (guint i = 0; i < 2 * COMPARE_DEPTH; i++)
    if (pairs[i])
      g_string_free (pairs[i], TRUE);
  g_free (pairs);
}

static GPrivate scratch_pairs = G_PRIVATE_INIT (scratch_pairs_free);
static __thread guint compare_depth;

static GString *
scratch (guint slot)
{
  GString **pairs = g_private_get (&scratch_pairs);
  if (!pairs)
    {
      pairs = g_new0 (GString *, 2 * COMPARE_DEPTH);
      g_private_set (&scratch_pairs, pairs);
    }
  if (!pairs[slot])
    pairs[slot] = g_string_sized_new (64);
  g_string_truncate (pairs[slot], 0);
  return pairs[slot];
}

static gboolean
eval_compare (const SlFilterExpr *e, const SlMessage *msg)
{
  guint level = compare_depth++;
  gboolean pooled = level < COMPARE_DEPTH;
  GString *a = pooled ? scratch (2 * level) : g_string_sized_new (64);
  GString *b = pooled ? scratch (2 * level + 1) : g_string_sized_new (64);
  sl_template_append (e->lhs, msg, &sl_template_env_default, a);
  sl_template_append (e->rhs, msg, &sl_template_env_default, b);
  gint c = compare_values (e, a, b);
  if (!pooled)
    {
      g_string_free (a, TRUE);
      g_string_free (b, TRUE);
    }
  compare_depth--;
  switch (e->op)
    {
    case CMP_EQ: return c == 0;
    case CMP_NE: return c != 0;
    case CMP_LT: return c < 0;
    case CMP_LE: return c <= 0;
    case CMP_GT: return c > 0;
    case CMP_GE: return c >= 0;
    }
  return FALSE;
}

/* A filter function that stores what it found (match() with
 * flags(store-matches)) offers process(), and changes the message through
 * sl_message_make_writable() like a rewrite; the others only look. */
static gboolean
eval_call (const SlFilterExpr *e, SlMessage **msg)
{
  const SlFilterOps *ops = e->driver->klass->ops.filter;
  if (ops->process)
    return ops->process (e->driver, msg);
  return ops->match (e->driver, *msg);
}

gboolean
sl_filter_expr_eval (const SlFilterExpr *e, SlMessage **msg)
{
  switch (e->kind)
    {
    case EXPR_AND:
      return sl_filter_expr_eval (e->left, msg) && sl_filter_expr_eval (e->right, msg);
    case EXPR_OR:
      return sl_filter_expr_eval (e->left, msg) || sl_filter_expr_eval (e->right, msg);
    case EXPR_NOT:
      return !sl_filter_expr_eval (e->left, msg);
    case EXPR_CALL:
      return eval_call (e, msg);
    case EXPR_COMPARE:
      return eval_compare (e, *msg);
    }
  return FALSE;
}

void
sl_filter_expr_free (SlFilterExpr *e)
{
  if (!e)
    return;
  sl_filter_expr_free (e->left);
  sl_filter_expr_free (e->right);
  if (e->lhs)
    sl_template_unref (e->lhs);
  if (e->rhs)
    sl_template_unref (e->rhs);
  g_free (e);
}
