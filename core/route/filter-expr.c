/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/route/filter-expr-private.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static gint
compare_values (const SlFilterExpr *e, const GString *a, const GString *b)
{
  if (!e->numeric)
    return strcmp (a->str, b->str);
  /* syslog-ng 3.x's atoi(): "1.5" is 1, as the host's 3.38 compares */
  gint x = (gint) strtol (a->str, NULL, 10);
  gint y = (gint) strtol (b->str, NULL, 10);
  return (x > y) - (x < y);
}

static gboolean
holds (SlCompareOp op, gint c)
{
  switch (op)
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

/* syslog-ng 4.8's GenericNumber: an integer, a double, or not a number */
typedef struct
{
  enum { NUMBER_NAN, NUMBER_INT, NUMBER_DOUBLE } kind;
  gint64 i;
  gdouble d;
} Number;

/* As 4.8's parse_generic_number(): the whole text as a decimal int64, else
 * as a double; out of range or anything left over is not a number. */
static void
number_parse (const gchar *text, Number *n)
{
  gchar *end;
  errno = 0;
  gint64 i = g_ascii_strtoll (text, &end, 10);
  if (errno != ERANGE && end != text && !*end)
    {
      n->kind = NUMBER_INT;
      n->i = i;
      return;
    }
  errno = 0;
  gdouble d = g_ascii_strtod (text, &end);
  if (errno != ERANGE && end != text && !*end && !isnan (d))
    {
      n->kind = NUMBER_DOUBLE;
      n->d = d;
      return;
    }
  n->kind = NUMBER_NAN;
}

static void
number_set_int (Number *n, gint64 i)
{
  n->kind = NUMBER_INT;
  n->i = i;
}

/* JavaScript's conversion as 4.8 makes it: null is 0, a boolean 0 or 1
 * by its first letter, a datetime its milliseconds (0 when unreadable),
 * JSON and lists are not numbers. */
static void
number_of (const GString *value, SlValueType type, Number *n)
{
  gint64 msec;
  switch (type)
    {
    case SL_VALUE_STRING:
    case SL_VALUE_INT32:
    case SL_VALUE_INT64:
    case SL_VALUE_DOUBLE:
      number_parse (value->str, n);
      return;
    case SL_VALUE_JSON:
    case SL_VALUE_LIST:
      n->kind = NUMBER_NAN;
      return;
    case SL_VALUE_NULL:
      number_set_int (n, 0);
      return;
    case SL_VALUE_BOOLEAN:
      number_set_int (n, value->str[0] == 'T' || value->str[0] == 't' || value->str[0] == '1');
      return;
    case SL_VALUE_DATETIME:
      number_set_int (n, sl_value_datetime_msec (value->str, value->len, &msec) ? msec : 0);
      return;
    }
  n->kind = NUMBER_NAN;
}

static gdouble
number_double (const Number *n)
{
  return n->kind == NUMBER_DOUBLE ? n->d : (gdouble) n->i;
}

/* 4.8's gn_compare(): doubles within DBL_EPSILON of each other are equal */
static gint
number_compare (const Number *x, const Number *y)
{
  if (x->kind == NUMBER_INT && y->kind == NUMBER_INT)
    return (x->i > y->i) - (x->i < y->i);
  gdouble l = number_double (x);
  gdouble r = number_double (y);
  if (fabs (l - r) < DBL_EPSILON)
    return 0;
  return l < r ? -1 : 1;
}

static gint
compare_bytes (const GString *a, const GString *b)
{
  gint c = memcmp (a->str, b->str, MIN (a->len, b->len));
  if (c)
    return c;
  return (a->len > b->len) - (a->len < b->len);
}

/* syslog-ng 4's type-aware operators (lib/filter/filter-cmp.c,
 * _evaluate_typed()): two strings, or two JSON values, or two lists compare
 * as text; null equals only null; anything else compares as numbers, and
 * a side that is not one makes every operator false but != true. */
static gboolean
compare_typed (SlCompareOp op, const GString *a, SlValueType ta, const GString *b, SlValueType tb)
{
  if (ta == tb && (ta == SL_VALUE_STRING || ta == SL_VALUE_JSON || ta == SL_VALUE_LIST))
    return holds (op, compare_bytes (a, b));
  if ((ta == SL_VALUE_NULL || tb == SL_VALUE_NULL) && (op == SL_CMP_EQ || op == SL_CMP_NE))
    return (ta == tb) == (op == SL_CMP_EQ);
  Number x, y;
  number_of (a, ta, &x);
  number_of (b, tb, &y);
  if (x.kind == NUMBER_NAN || y.kind == NUMBER_NAN)
    return op == SL_CMP_NE;
  return holds (op, number_compare (&x, &y));
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
  gboolean result;
  if (e->typed)
    {
      SlValueType ta = sl_template_append_typed (e->lhs, msg, a);
      SlValueType tb = sl_template_append_typed (e->rhs, msg, b);
      result = compare_typed (e->op, a, ta, b, tb);
    }
  else
    {
      sl_template_append (e->lhs, msg, &sl_template_env_default, a);
      sl_template_append (e->rhs, msg, &sl_template_env_default, b);
      result = holds (e->op, compare_values (e, a, b));
    }
  if (!pooled)
    {
      g_string_free (a, TRUE);
      g_string_free (b, TRUE);
    }
  compare_depth--;
  return result;
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
