/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/route/filter-expr-private.h"

#include <string.h>

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
    case SL_CMP_EQ: return c == 0;
    case SL_CMP_NE: return c != 0;
    case SL_CMP_LT: return c < 0;
    case SL_CMP_LE: return c <= 0;
    case SL_CMP_GT: return c > 0;
    case SL_CMP_GE: return c >= 0;
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
    case SL_EXPR_AND:
      return sl_filter_expr_eval (e->left, msg) && sl_filter_expr_eval (e->right, msg);
    case SL_EXPR_OR:
      return sl_filter_expr_eval (e->left, msg) || sl_filter_expr_eval (e->right, msg);
    case SL_EXPR_NOT:
      return !sl_filter_expr_eval (e->left, msg);
    case SL_EXPR_CALL:
      return eval_call (e, msg);
    case SL_EXPR_COMPARE:
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
