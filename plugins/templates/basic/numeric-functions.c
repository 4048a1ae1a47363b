/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Arithmetic on two numbers: $(+ A B), $(- A B), $(* A B), $(/ A B),
 * $(% A B). Whole numbers give a whole result (division truncates), as in
 * syslog-ng; a fraction on either side makes it floating point. What is no
 * number, a division by zero or an overflow gives NaN. */
#include "plugins/templates/basic/basic-private.h"
#include "core/i18n.h"

#include <errno.h>
#include <math.h>

typedef enum
{
  OP_ADD,
  OP_SUBTRACT,
  OP_MULTIPLY,
  OP_DIVIDE,
  OP_MODULO,
} TfOp;

static gboolean
numeric_prepare (SlTfCall *call, GError **error)
{
  if (call->argc == 2)
    return TRUE;
  tf_usage_error (call, error, _("two numbers"));
  return FALSE;
}

static gboolean
read_double (const gchar *text, gsize len, gdouble *value)
{
  gchar *end;
  errno = 0;
  *value = g_ascii_strtod (text, &end);
  return len && end == text + len && !errno && isfinite (*value);
}

static gboolean
integer_op (TfOp op, gint64 a, gint64 b, gint64 *result)
{
  switch (op)
    {
    case OP_ADD:
      return !__builtin_add_overflow (a, b, result);
    case OP_SUBTRACT:
      return !__builtin_sub_overflow (a, b, result);
    case OP_MULTIPLY:
      return !__builtin_mul_overflow (a, b, result);
    case OP_DIVIDE:
    case OP_MODULO:
      if (b == 0 || (a == G_MININT64 && b == -1))
        return FALSE;
      *result = op == OP_DIVIDE ? a / b : a % b;
      return TRUE;
    }
  return FALSE;
}

static gboolean
double_op (TfOp op, gdouble a, gdouble b, gdouble *result)
{
  switch (op)
    {
    case OP_ADD: *result = a + b; break;
    case OP_SUBTRACT: *result = a - b; break;
    case OP_MULTIPLY: *result = a * b; break;
    case OP_DIVIDE: *result = b != 0 ? a / b : NAN; break;
    case OP_MODULO: *result = b != 0 ? fmod (a, b) : NAN; break;
    }
  return isfinite (*result);
}

/* The shorter of two precisions that reads back as the same number. */
static void
append_double (GString *out, gdouble value)
{
  gchar buffer[G_ASCII_DTOSTR_BUF_SIZE];
  g_ascii_formatd (buffer, sizeof buffer, "%.15g", value);
  if (g_ascii_strtod (buffer, NULL) != value)
    g_ascii_formatd (buffer, sizeof buffer, "%.17g", value);
  g_string_append (out, buffer);
}

static void
numeric_eval (TfOp op, const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  gint64 a, b, result;
  if (tf_render_int (call, 0, msg, env, &a) && tf_render_int (call, 1, msg, env, &b))
    {
      if (integer_op (op, a, b, &result))
        g_string_append_printf (out, "%" G_GINT64_FORMAT, result);
      else
        g_string_append (out, "NaN");
      return;
    }

  GString *left = tf_scratch_acquire ();
  GString *right = tf_scratch_acquire ();
  sl_template_append (call->arg_templates[0], msg, env, left);
  sl_template_append (call->arg_templates[1], msg, env, right);
  gdouble x, y, z;
  if (read_double (left->str, left->len, &x) && read_double (right->str, right->len, &y) && double_op (op, x, y, &z))
    append_double (out, z);
  else
    g_string_append (out, "NaN");
  tf_scratch_release ();
  tf_scratch_release ();
}

static void
add_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  numeric_eval (OP_ADD, call, msg, env, out);
}

static void
subtract_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  numeric_eval (OP_SUBTRACT, call, msg, env, out);
}

static void
multiply_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  numeric_eval (OP_MULTIPLY, call, msg, env, out);
}

static void
divide_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  numeric_eval (OP_DIVIDE, call, msg, env, out);
}

static void
modulo_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  numeric_eval (OP_MODULO, call, msg, env, out);
}

static const SlTemplateFunctionOps add_ops = { .prepare = numeric_prepare, .eval = add_eval };

const SlDriverClass tf_add_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "+",
  .summary = "the sum of two numbers",
  .ops.template_function = &add_ops,
};

static const SlTemplateFunctionOps subtract_ops = { .prepare = numeric_prepare, .eval = subtract_eval };

const SlDriverClass tf_subtract_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "-",
  .summary = "the first number less the second",
  .ops.template_function = &subtract_ops,
};

static const SlTemplateFunctionOps multiply_ops = { .prepare = numeric_prepare, .eval = multiply_eval };

const SlDriverClass tf_multiply_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "*",
  .summary = "the product of two numbers",
  .ops.template_function = &multiply_ops,
};

static const SlTemplateFunctionOps divide_ops = { .prepare = numeric_prepare, .eval = divide_eval };

const SlDriverClass tf_divide_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "/",
  .summary = "the first number divided by the second",
  .ops.template_function = &divide_ops,
};

static const SlTemplateFunctionOps modulo_ops = { .prepare = numeric_prepare, .eval = modulo_eval };

const SlDriverClass tf_modulo_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "%",
  .summary = "the remainder of dividing the first number by the second",
  .ops.template_function = &modulo_ops,
};
