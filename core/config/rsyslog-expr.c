/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* RainerScript expressions, each read as either a filter expression of
 * Sluice's language (a condition) or a Sluice template (a value). */
#include "core/config/rsyslog-private.h"

#include "core/config/error.h"
#include "core/i18n.h"

#include <string.h>

typedef struct
{
  gboolean boolean;
  gboolean number;   /* a numeric literal */
  gboolean literal;  /* a string or number as written: text holds it unescaped */
  GString *text;
  GPtrArray *list;   /* [ "a", "b" ] */
} SlRsExpr;

static void
expr_clear (SlRsExpr *e)
{
  if (e->text)
    g_string_free (e->text, TRUE);
  if (e->list)
    g_ptr_array_unref (e->list);
  memset (e, 0, sizeof *e);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (SlRsExpr, expr_clear)

static void
expr_free (SlRsExpr *e)
{
  expr_clear (e);
  g_free (e);
}

static gboolean read_or (SlRsReader *r, SlRsExpr *out);

/* The value as a template: a literal's $ doubled */
static gchar *
expr_template (const SlRsExpr *e)
{
  if (!e->literal)
    return g_strdup (e->text->str);
  GString *out = g_string_new (NULL);
  for (const gchar *p = e->text->str; *p; p++)
    {
      if (*p == '$')
        g_string_append_c (out, '$');
      g_string_append_c (out, *p);
    }
  return g_string_free (out, FALSE);
}

static void
make_boolean (SlRsExpr *e)
{
  if (e->boolean)
    return;
  g_autofree gchar *value = expr_template (e);
  g_string_truncate (e->text, 0);
  sl_rs_quote (e->text, value);
  g_string_append (e->text, " ne \"\"");
  e->boolean = TRUE;
  e->literal = e->number = FALSE;
}

static gboolean
read_variable (SlRsReader *r, SlRsExpr *out)
{
  SlCfgPos pos = sl_rs_lexer_pos (&r->lx);
  GString *name = g_string_new ("$");

  sl_rs_lexer_advance (&r->lx, 1);
  gchar first = sl_rs_lexer_peek (&r->lx, 0);
  if (first == '$' || first == '!' || first == '.' || first == '/')
    {
      /* $$now is written $now in templates */
      if (first != '$')
        g_string_append_c (name, first);
      sl_rs_lexer_advance (&r->lx, 1);
    }
  g_autofree gchar *rest = sl_rs_lexer_read_word (&r->lx, "-!.");
  if (rest)
    g_string_append (name, rest);
  g_autofree gchar *full = g_string_free (name, FALSE);
  const gchar *property = g_str_has_prefix (full, "$!") || g_str_has_prefix (full, "$.") || g_str_has_prefix (full, "$/")
                          || first == '$' ? full : full + 1;
  out->text = g_string_new (NULL);
  return sl_rs_property_value (property, pos, out->text, r->error);
}

static gboolean
read_call (SlRsReader *r, const gchar *name, SlCfgPos pos, SlRsExpr *out)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new_with_free_func ((GDestroyNotify) expr_free);

  sl_rs_lexer_advance (&r->lx, 1);
  for (;;)
    {
      sl_rs_lexer_skip_blanks (&r->lx, TRUE);
      if (sl_rs_lexer_peek (&r->lx, 0) == ')')
        break;
      SlRsExpr *arg = g_new0 (SlRsExpr, 1);
      g_ptr_array_add (args, arg);
      if (!read_or (r, arg))
        return FALSE;
      sl_rs_lexer_skip_blanks (&r->lx, TRUE);
      if (sl_rs_lexer_peek (&r->lx, 0) == ',')
        sl_rs_lexer_advance (&r->lx, 1);
    }
  sl_rs_lexer_advance (&r->lx, 1);

  g_autofree gchar *lower = g_ascii_strdown (name, -1);
  SlRsExpr *a = args->len > 0 ? g_ptr_array_index (args, 0) : NULL;
  SlRsExpr *b = args->len > 1 ? g_ptr_array_index (args, 1) : NULL;
  out->text = g_string_new (NULL);
  if ((g_str_equal (lower, "re_match") || g_str_equal (lower, "re_match_i")) && b && b->literal && !a->boolean)
    {
      g_autofree gchar *value = expr_template (a);
      out->boolean = TRUE;
      g_string_append (out->text, "match(");
      sl_rs_quote (out->text, b->text->str);
      g_string_append (out->text, " template(");
      sl_rs_quote (out->text, value);
      g_string_append_printf (out->text, ") type(pcre)%s)", g_str_equal (lower, "re_match_i") ? " flags(ignore-case)" : "");
      return TRUE;
    }
  if ((g_str_equal (lower, "tolower") || g_str_equal (lower, "toupper")) && a && !a->boolean && args->len == 1)
    {
      g_autofree gchar *value = expr_template (a);
      g_string_append_printf (out->text, "$(%s %s)", g_str_equal (lower, "tolower") ? "lowercase" : "uppercase", value);
      return TRUE;
    }
  if ((g_str_equal (lower, "cstr") || g_str_equal (lower, "cnum")) && a && !a->boolean && args->len == 1)
    {
      g_autofree gchar *value = expr_template (a);
      g_string_append (out->text, value);
      return TRUE;
    }
  if (g_str_equal (lower, "lookup") && a && a->literal && b && !b->boolean && args->len == 2)
    {
      g_autofree gchar *key = expr_template (b);
      return sl_rs_lookup_call (r->c, a->text->str, key, pos, out->text, r->error);
    }
  if (g_str_equal (lower, "strlen") && a && !a->boolean && args->len == 1)
    {
      g_autofree gchar *value = expr_template (a);
      g_string_append_printf (out->text, "$(length %s)", value);
      return TRUE;
    }
  if (g_str_equal (lower, "exists") && a && !a->boolean && args->len == 1)
    {
      g_string_append (out->text, a->text->str);
      make_boolean (out);
      return TRUE;
    }
  if (g_str_equal (lower, "prifilt") && a && a->literal && args->len == 1)
    {
      out->boolean = TRUE;
      if (!sl_rs_selector_filter (a->text->str, pos, out->text, r->error))
        return FALSE;
      if (!out->text->len)
        g_string_append (out->text, "level(emerg..debug)");
      return TRUE;
    }
  sl_cfg_error_set (r->error, SL_CFG_ERROR_UNKNOWN, pos, _("the RainerScript function '%s()' is not supported"), name);
  return FALSE;
}

static gboolean
read_primary (SlRsReader *r, SlRsExpr *out)
{
  sl_rs_lexer_skip_blanks (&r->lx, TRUE);
  SlCfgPos pos = sl_rs_lexer_pos (&r->lx);
  gchar ch = sl_rs_lexer_peek (&r->lx, 0);

  if (ch == '(')
    {
      sl_rs_lexer_advance (&r->lx, 1);
      if (!read_or (r, out) || !sl_rs_expect_char (r, ')', "')'"))
        return FALSE;
      if (out->boolean)
        {
          g_string_prepend_c (out->text, '(');
          g_string_append_c (out->text, ')');
        }
      return TRUE;
    }
  if (ch == '"' || ch == '\'' || ch == '`')
    {
      gchar *value = NULL;
      if (ch == '`' ? !sl_rs_read_backtick (r, &value) : !sl_rs_lexer_read_string (&r->lx, &value, r->error))
        return FALSE;
      out->text = g_string_new (value);
      out->literal = TRUE;
      g_free (value);
      return TRUE;
    }
  if (ch == '$')
    return read_variable (r, out);
  if (ch == '[')
    {
      sl_rs_lexer_advance (&r->lx, 1);
      out->list = g_ptr_array_new_with_free_func (g_free);
      out->text = g_string_new (NULL);
      for (;;)
        {
          gchar *item = NULL;

          sl_rs_lexer_skip_blanks (&r->lx, TRUE);
          if (sl_rs_lexer_peek (&r->lx, 0) == ']')
            break;
          if (!sl_rs_read_plain_value (r, &item))
            return FALSE;
          g_ptr_array_add (out->list, item);
          sl_rs_lexer_skip_blanks (&r->lx, TRUE);
          if (sl_rs_lexer_peek (&r->lx, 0) == ',')
            sl_rs_lexer_advance (&r->lx, 1);
        }
      sl_rs_lexer_advance (&r->lx, 1);
      return TRUE;
    }
  if (g_ascii_isdigit (ch) || (ch == '-' && g_ascii_isdigit (sl_rs_lexer_peek (&r->lx, 1))))
    {
      sl_rs_lexer_advance (&r->lx, ch == '-' ? 1 : 0);
      g_autofree gchar *digits = sl_rs_lexer_read_word (&r->lx, "");
      out->text = g_string_new (ch == '-' ? "-" : "");
      g_string_append (out->text, digits);
      out->number = out->literal = TRUE;
      return TRUE;
    }
  g_autofree gchar *word = sl_rs_lexer_read_word (&r->lx, "");
  if (word)
    {
      sl_rs_lexer_skip_blanks (&r->lx, FALSE);
      if (sl_rs_lexer_peek (&r->lx, 0) == '(')
        return read_call (r, word, pos, out);
      return sl_rs_fail (r, pos, _("the RainerScript word '%s' is not supported in an expression"), word);
    }
  return sl_rs_fail (r, pos, _("%s was expected here"), _("a RainerScript value"));
}

static const struct
{
  const gchar *word;
  const gchar *numeric;
  const gchar *string;
} comparisons[] = {
  { "==", "==", "eq" }, { "!=", "!=", "ne" }, { "<>", "!=", "ne" }, { "<=", "<=", "le" },
  { ">=", ">=", "ge" }, { "<", "<", "lt" }, { ">", ">", "gt" },
};

static const gchar *const match_words[] = {
  "contains_i", "contains", "startswith_i", "startswith",
};

static gboolean
compare (SlRsReader *r, SlCfgPos pos, SlRsExpr *left, const gchar *op, gboolean match, SlRsExpr *right,
         GString *out)
{
  if (left->boolean || right->boolean)
    return sl_rs_fail (r, pos, _("the RainerScript comparison '%s' of a condition is not supported"), op);
  g_autofree gchar *lhs = expr_template (left);
  GPtrArray *items = right->list;
  g_autoptr (GPtrArray) single = g_ptr_array_new ();

  if (!items)
    {
      g_ptr_array_add (single, right->text->str);
      items = single;
    }
  if (!right->literal && !right->list)
    {
      if (match)
        return sl_rs_fail (r, pos, _("the RainerScript '%s' needs a string on its right"), op);
    }
  guint i_op;
  for (i_op = 0; !match && i_op < G_N_ELEMENTS (comparisons); i_op++)
    if (g_str_equal (op, comparisons[i_op].word))
      break;
  gboolean negated_list = !match && g_str_equal (comparisons[i_op].string, "ne");
  if (items->len > 1)
    g_string_append_c (out, '(');
  for (guint i = 0; i < items->len; i++)
    {
      const gchar *item = g_ptr_array_index (items, i);

      if (i)
        g_string_append (out, negated_list ? " and " : " or ");
      if (match)
        {
          if (!sl_rs_compare_filter (lhs, op, FALSE, item, pos, out, r->error))
            return FALSE;
          continue;
        }
      gboolean numeric = right->number && !right->list;
      sl_rs_quote (out, lhs);
      g_string_append_printf (out, " %s ", numeric ? comparisons[i_op].numeric : comparisons[i_op].string);
      if (right->literal || right->list)
        {
          g_autoptr (GString) escaped = g_string_new (NULL);
          for (const gchar *p = item; *p; p++)
            {
              if (*p == '$')
                g_string_append_c (escaped, '$');
              g_string_append_c (escaped, *p);
            }
          sl_rs_quote (out, escaped->str);
        }
      else
        sl_rs_quote (out, item);
    }
  if (items->len > 1)
    g_string_append_c (out, ')');
  return TRUE;
}

/* `a & b`: the values one after the other */
static gboolean
read_concat (SlRsReader *r, SlRsExpr *out)
{
  if (!read_primary (r, out))
    return FALSE;
  for (;;)
    {
      sl_rs_lexer_skip_blanks (&r->lx, TRUE);
      SlCfgPos pos = sl_rs_lexer_pos (&r->lx);
      gchar ch = sl_rs_lexer_peek (&r->lx, 0);
      if (ch == '+' || ch == '*' || ch == '%' || (ch == '-' && sl_rs_lexer_peek (&r->lx, 1) == ' '))
        return sl_rs_fail (r, pos, _("RainerScript arithmetic ('%c') is not supported"), ch);
      if (ch != '&')
        return TRUE;
      sl_rs_lexer_advance (&r->lx, 1);
      g_auto (SlRsExpr) next = { 0 };
      if (!read_primary (r, &next))
        return FALSE;
      if (out->boolean || next.boolean || out->list || next.list)
        return sl_rs_fail (r, pos, "%s", _("'&' joins values, not conditions or lists"));
      g_autofree gchar *left = expr_template (out);
      g_autofree gchar *right = expr_template (&next);
      g_string_assign (out->text, left);
      g_string_append (out->text, right);
      out->literal = out->number = FALSE;
    }
}

static gboolean
read_comparison (SlRsReader *r, SlRsExpr *out)
{
  g_auto (SlRsExpr) left = { 0 };
  g_auto (SlRsExpr) right = { 0 };

  if (!read_concat (r, &left))
    return FALSE;
  sl_rs_lexer_skip_blanks (&r->lx, TRUE);
  SlCfgPos pos = sl_rs_lexer_pos (&r->lx);
  const gchar *op = NULL;
  gboolean match = FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (match_words) && !op; i++)
    if (sl_rs_lexer_take_word (&r->lx, match_words[i]))
      op = match_words[i], match = TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (comparisons) && !op; i++)
    if (strncmp (r->lx.text + r->lx.at, comparisons[i].word, strlen (comparisons[i].word)) == 0)
      {
        op = comparisons[i].word;
        sl_rs_lexer_advance (&r->lx, (guint) strlen (op));
      }
  if (!op)
    {
      *out = left;
      memset (&left, 0, sizeof left);
      return TRUE;
    }
  if (!read_concat (r, &right))
    return FALSE;
  out->boolean = TRUE;
  out->text = g_string_new (NULL);
  return compare (r, pos, &left, op, match, &right, out->text);
}

static gboolean
read_not (SlRsReader *r, SlRsExpr *out)
{
  sl_rs_lexer_skip_blanks (&r->lx, TRUE);
  if (sl_rs_lexer_take_word (&r->lx, "not"))
    {
      if (!read_not (r, out))
        return FALSE;
      make_boolean (out);
      g_string_prepend (out->text, "not (");
      g_string_append_c (out->text, ')');
      return TRUE;
    }
  return read_comparison (r, out);
}

static gboolean
read_binary (SlRsReader *r, SlRsExpr *out, const gchar *word, gboolean (*operand) (SlRsReader *, SlRsExpr *))
{
  if (!operand (r, out))
    return FALSE;
  for (;;)
    {
      sl_rs_lexer_skip_blanks (&r->lx, TRUE);
      if (!sl_rs_lexer_take_word (&r->lx, word))
        return TRUE;
      g_auto (SlRsExpr) next = { 0 };
      if (!operand (r, &next))
        return FALSE;
      make_boolean (out);
      make_boolean (&next);
      g_string_prepend_c (out->text, '(');
      g_string_append_printf (out->text, ") %s (%s)", word, next.text->str);
    }
}

static gboolean
read_and (SlRsReader *r, SlRsExpr *out)
{
  return read_binary (r, out, "and", read_not);
}

static gboolean
read_or (SlRsReader *r, SlRsExpr *out)
{
  return read_binary (r, out, "or", read_and);
}

gboolean
sl_rs_read_condition (SlRsReader *r, gchar **filter)
{
  g_auto (SlRsExpr) e = { 0 };

  if (!read_or (r, &e))
    return FALSE;
  make_boolean (&e);
  *filter = g_strdup (e.text->str);
  return TRUE;
}

gboolean
sl_rs_read_expr_value (SlRsReader *r, SlCfgPos pos, gchar **value)
{
  g_auto (SlRsExpr) e = { 0 };

  if (!read_or (r, &e))
    return FALSE;
  if (e.boolean)
    return sl_rs_fail (r, pos, "%s", _("a condition is not a value here"));
  *value = expr_template (&e);
  return TRUE;
}
