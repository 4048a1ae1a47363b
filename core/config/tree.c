/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The generic configuration tree and its printer. */
#include "core/config/tree.h"

#include <errno.h>
#include <string.h>

static void
sl_cfg_arg_free (gpointer data)
{
  SlCfgArg *arg = data;

  g_free (arg->value);
  g_free (arg->key);
  g_free (arg);
}

SlCfgNode *
sl_cfg_node_new (const gchar *name, SlCfgPos pos)
{
  SlCfgNode *node = g_new0 (SlCfgNode, 1);

  node->name = g_strdup (name);
  node->pos = pos;
  node->args = g_ptr_array_new_with_free_func (sl_cfg_arg_free);
  node->children = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_cfg_node_free);
  return node;
}

void
sl_cfg_node_free (SlCfgNode *node)
{
  if (!node)
    return;
  g_ptr_array_unref (node->args);
  g_ptr_array_unref (node->children);
  g_free (node->name);
  g_free (node);
}

void
sl_cfg_node_add_arg (SlCfgNode *node, SlCfgArgKind kind, const gchar *value, SlCfgPos pos)
{
  SlCfgArg *arg = g_new0 (SlCfgArg, 1);

  arg->kind = kind;
  arg->value = g_strdup (value);
  arg->pos = pos;
  g_ptr_array_add (node->args, arg);
}

void
sl_cfg_node_add_pair (SlCfgNode *node, const gchar *key, SlCfgArgKind kind, const gchar *value, SlCfgPos pos)
{
  sl_cfg_node_add_arg (node, kind, value, pos);
  ((SlCfgArg *) g_ptr_array_index (node->args, node->args->len - 1))->key = g_strdup (key);
}

void
sl_cfg_node_add_child (SlCfgNode *node, SlCfgNode *child)
{
  g_ptr_array_add (node->children, child);
}

SlCfgNode *
sl_cfg_node_child (const SlCfgNode *node, const gchar *name)
{
  for (guint i = 0; i < node->children->len; i++)
    {
      SlCfgNode *child = g_ptr_array_index (node->children, i);

      if (sl_cfg_name_equal (child->name, name))
        return child;
    }
  return NULL;
}

const gchar *
sl_cfg_node_arg (const SlCfgNode *node, guint index)
{
  if (index >= node->args->len)
    return NULL;
  return ((SlCfgArg *) g_ptr_array_index (node->args, index))->value;
}

static gboolean
is_separator (gchar c)
{
  return c == '-' || c == '_';
}

gboolean
sl_cfg_name_equal (const gchar *a, const gchar *b)
{
  if (!a || !b)
    return a == b;
  for (; *a && *b; a++, b++)
    if (*a != *b && !(is_separator (*a) && is_separator (*b)))
      return FALSE;
  return *a == *b;
}

gchar *
sl_cfg_name_normalize (const gchar *name)
{
  gchar *copy = g_strdup (name);

  for (gchar *c = copy; c && *c; c++)
    if (*c == '_')
      *c = '-';
  return copy;
}

const gchar *
sl_cfg_intern_file (const gchar *file)
{
  /* GLib's string interning is process-wide, thread-safe and never frees,
   * which is exactly the lifetime positions need. */
  return g_intern_string (file);
}

static GMutex expansions_lock;
static GHashTable *expansions;

const SlCfgExpansion *
sl_cfg_intern_expansion (const gchar *block, SlCfgPos used_at)
{
  /* keyed by what it says, so reloading the same file makes no new ones */
  g_autofree gchar *key = g_strdup_printf ("%s\n%s\n%d\n%d\n%p", block, used_at.file ? used_at.file : "",
                                           used_at.line, used_at.column, (gpointer) used_at.expansion);
  SlCfgExpansion *found;

  g_mutex_lock (&expansions_lock);
  if (!expansions)
    expansions = g_hash_table_new (g_str_hash, g_str_equal);
  found = g_hash_table_lookup (expansions, key);
  if (!found)
    {
      found = g_new0 (SlCfgExpansion, 1);
      found->block = g_intern_string (block);
      found->used_at = used_at;
      g_hash_table_insert (expansions, g_steal_pointer (&key), found);
    }
  g_mutex_unlock (&expansions_lock);
  return found;
}

gboolean
sl_cfg_is_filter_call (const gchar *name)
{
  static const gchar *const names[] = { "condition", "trigger", "where", "having" };
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (sl_cfg_name_equal (name, names[i]))
      return TRUE;
  return FALSE;
}

/* Printing.  The tree does not record which grammar a node came from, so the
 * printer goes by the node's name and shape: "and", "or", "not" and "compare"
 * are filter operators, a "filter" or "condition" with a body holds an
 * expression, so does a filter call inside a driver (sl_cfg_is_filter_call), "if" holds its
 * branches, anything else with a body is a block and anything without is a
 * call. */

typedef enum
{
  SL_PREC_OR = 1,
  SL_PREC_AND,
  SL_PREC_NOT,
  SL_PREC_OPERAND,
} SlPrecedence;

static void append_statement (GString *out, const SlCfgNode *node);
static void append_expr (GString *out, const SlCfgNode *node);

static void
append_quoted (GString *out, const gchar *value)
{
  g_string_append_c (out, '"');
  for (const guchar *c = (const guchar *) value; *c; c++)
    {
      switch (*c)
        {
        case '"':
          g_string_append (out, "\\\"");
          break;
        case '\\':
          g_string_append (out, "\\\\");
          break;
        case '\n':
          g_string_append (out, "\\n");
          break;
        case '\t':
          g_string_append (out, "\\t");
          break;
        case '\r':
          g_string_append (out, "\\r");
          break;
        case '`':
          /* a lone backtick would start a substitution when read back */
          g_string_append (out, "``");
          break;
        default:
          if (*c < 0x20 || *c == 0x7f)
            g_string_append_printf (out, "\\x%02x", *c);
          else
            g_string_append_c (out, *c);
        }
    }
  g_string_append_c (out, '"');
}

static void
append_arg (GString *out, const SlCfgArg *arg)
{
  if (arg->key)
    {
      append_quoted (out, arg->key);
      g_string_append (out, " => ");
    }
  if (arg->kind == SL_CFG_ARG_TEMPLATE)
    g_string_append (out, "LogTemplate(");
  if (arg->kind != SL_CFG_ARG_WORD)
    append_quoted (out, arg->value);
  else
    g_string_append (out, arg->value);
  if (arg->kind == SL_CFG_ARG_TEMPLATE)
    g_string_append_c (out, ')');
}

static void
append_args (GString *out, const SlCfgNode *node, gboolean leading_space)
{
  for (guint i = 0; i < node->args->len; i++)
    {
      if (i > 0 || leading_space)
        g_string_append_c (out, ' ');
      append_arg (out, g_ptr_array_index (node->args, i));
    }
}

static void
append_statements (GString *out, const SlCfgNode *node)
{
  g_string_append (out, " {");
  for (guint i = 0; i < node->children->len; i++)
    {
      g_string_append_c (out, ' ');
      append_statement (out, g_ptr_array_index (node->children, i));
    }
  g_string_append (out, " }");
}

static void
append_block (GString *out, const SlCfgNode *node)
{
  g_string_append (out, node->name);
  append_args (out, node, TRUE);
  append_statements (out, node);
}

static void
append_call (GString *out, const SlCfgNode *node)
{
  g_string_append (out, node->name);
  g_string_append_c (out, '(');
  append_args (out, node, FALSE);
  for (guint i = 0; i < node->children->len; i++)
    {
      const SlCfgNode *child = g_ptr_array_index (node->children, i);

      if (i > 0 || node->args->len > 0)
        g_string_append_c (out, ' ');
      if (child->has_body)
        append_block (out, child);
      else if (sl_cfg_is_filter_call (child->name) && child->children->len == 1)
        {
          g_string_append (out, child->name);
          g_string_append_c (out, '(');
          append_expr (out, g_ptr_array_index (child->children, 0));
          g_string_append_c (out, ')');
        }
      else
        append_call (out, child);
    }
  g_string_append_c (out, ')');
}

static SlPrecedence
expr_precedence (const SlCfgNode *node)
{
  if (g_str_equal (node->name, "or"))
    return SL_PREC_OR;
  if (g_str_equal (node->name, "and"))
    return SL_PREC_AND;
  if (g_str_equal (node->name, "not"))
    return SL_PREC_NOT;
  return SL_PREC_OPERAND;
}

static gboolean
is_expr_operator (const SlCfgNode *node)
{
  return expr_precedence (node) != SL_PREC_OPERAND || g_str_equal (node->name, "compare");
}

static void
append_operand (GString *out, const SlCfgNode *node, gboolean parenthesize)
{
  if (parenthesize)
    g_string_append_c (out, '(');
  append_expr (out, node);
  if (parenthesize)
    g_string_append_c (out, ')');
}

static void
append_expr (GString *out, const SlCfgNode *node)
{
  SlPrecedence prec = expr_precedence (node);

  if (prec == SL_PREC_OR || prec == SL_PREC_AND)
    {
      const SlCfgNode *left = node->children->len > 0 ? g_ptr_array_index (node->children, 0) : NULL;
      const SlCfgNode *right = node->children->len > 1 ? g_ptr_array_index (node->children, 1) : NULL;

      if (left)
        append_operand (out, left, expr_precedence (left) < prec);
      g_string_append_printf (out, " %s ", node->name);
      /* the operators group to the left, so an equal one on the right needs
       * parentheses to keep its shape */
      if (right)
        append_operand (out, right, expr_precedence (right) <= prec);
    }
  else if (prec == SL_PREC_NOT)
    {
      g_string_append (out, "not ");
      if (node->children->len > 0)
        {
          const SlCfgNode *operand = g_ptr_array_index (node->children, 0);

          append_operand (out, operand, expr_precedence (operand) < SL_PREC_NOT);
        }
    }
  else if (g_str_equal (node->name, "compare"))
    append_args (out, node, FALSE);
  else
    append_call (out, node);
}

static void
append_expr_body (GString *out, const SlCfgNode *node)
{
  g_string_append (out, node->name);
  append_args (out, node, TRUE);
  g_string_append (out, " {");
  for (guint i = 0; i < node->children->len; i++)
    {
      g_string_append_c (out, ' ');
      append_expr (out, g_ptr_array_index (node->children, i));
      g_string_append_c (out, ';');
    }
  g_string_append (out, " }");
}

static void
append_condition (GString *out, const SlCfgNode *condition)
{
  g_string_append (out, " (");
  if (condition->children->len > 0)
    append_expr (out, g_ptr_array_index (condition->children, 0));
  g_string_append_c (out, ')');
}

static void
append_branches (GString *out, const SlCfgNode *node)
{
  for (guint i = 0; i < node->children->len; i++)
    {
      const SlCfgNode *child = g_ptr_array_index (node->children, i);

      if (g_str_equal (child->name, "condition"))
        append_condition (out, child);
      else if (g_str_equal (child->name, "then"))
        append_statements (out, child);
      else if (g_str_equal (child->name, "elif"))
        {
          g_string_append (out, " elif");
          append_branches (out, child);
        }
      else if (g_str_equal (child->name, "else"))
        {
          g_string_append (out, " else");
          append_statements (out, child);
        }
    }
}

static gboolean
is_short_template (const SlCfgNode *node)
{
  return !node->has_body && node->children->len == 1
         && (g_str_equal (node->name, "template") || g_str_equal (node->name, "template-function"));
}

static void
append_statement (GString *out, const SlCfgNode *node)
{
  if (node->name[0] == '@')
    {
      g_string_append (out, node->name);
      append_args (out, node, TRUE);
      for (guint i = 0; i < node->children->len; i++)
        {
          g_string_append_c (out, ' ');
          append_call (out, g_ptr_array_index (node->children, i));
        }
      return;
    }

  if (g_str_equal (node->name, "if") && !node->has_body)
    {
      g_string_append (out, "if");
      append_branches (out, node);
    }
  else if (g_str_equal (node->name, "filter") && node->has_body)
    append_expr_body (out, node);
  else if (g_str_equal (node->name, "application") && node->args->len == 3)
    {
      const SlCfgArg *name = g_ptr_array_index (node->args, 0);
      const SlCfgArg *context = g_ptr_array_index (node->args, 1);
      const SlCfgArg *body = g_ptr_array_index (node->args, 2);

      g_string_append_printf (out, "application %s[%s] {%s}", name->value, context->value, body->value);
    }
  else if (g_str_equal (node->name, "python") && node->args->len == 1)
    g_string_append_printf (out, "python {%s}", ((const SlCfgArg *) g_ptr_array_index (node->args, 0))->value);
  else if (is_short_template (node))
    {
      const SlCfgNode *text = g_ptr_array_index (node->children, 0);

      g_string_append (out, node->name);
      append_args (out, node, TRUE);
      append_args (out, text, TRUE);
    }
  else if (node->has_body)
    append_block (out, node);
  else
    append_call (out, node);
  g_string_append_c (out, ';');
}

static void
append_config (GString *out, const SlCfgNode *root)
{
  if (root->args->len > 0)
    {
      g_string_append (out, "@version: ");
      append_arg (out, g_ptr_array_index (root->args, 0));
      g_string_append_c (out, '\n');
    }
  for (guint i = 0; i < root->children->len; i++)
    {
      append_statement (out, g_ptr_array_index (root->children, i));
      g_string_append_c (out, '\n');
    }
}

gchar *
sl_cfg_node_to_string (const SlCfgNode *node)
{
  GString *out = g_string_new (NULL);

  if (g_str_equal (node->name, "config"))
    append_config (out, node);
  else if (is_expr_operator (node))
    append_expr (out, node);
  else if (node->has_body || node->name[0] == '@' || g_str_equal (node->name, "if")
           || is_short_template (node))
    append_statement (out, node);
  else
    append_call (out, node);
  return g_string_free (out, FALSE);
}

const gchar *
sl_cfg_arg_number_hint (const SlCfgArg *a, gchar **decimal)
{
  *decimal = NULL;
  if (a->kind != SL_CFG_ARG_WORD)
    return NULL;
  const gchar *p = a->value + (a->value[0] == '-' || a->value[0] == '+');
  gsize digits = strspn (p, "0123456789");
  if (!digits)
    return NULL;
  if (!p[digits])
    {
      gchar *end;
      errno = 0;
      gint64 n = g_ascii_strtoll (a->value, &end, 10);
      if (errno || *end)
        return NULL;
      *decimal = g_strdup_printf ("%" G_GINT64_FORMAT, n);
      return "int64";
    }
  if (p[digits] == '.' && p[digits + 1] && strspn (p + digits + 1, "0123456789") == strlen (p + digits + 1))
    return "float";
  return NULL;
}
