/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* RainerScript expressions, each read as either a filter expression of
 * Sluice's language (a condition) or a Sluice template (a value). */
#include "daemon/rsyslog/rsyslog-private.h"

#include "core/config/error.h"
#include "core/i18n.h"

#include <regex.h>
#include <string.h>

/* What rsyslogd evaluates an expression to: a string, or a number when it
 * is a numeric literal, arithmetic, a comparison or a function that gives
 * one (cnum(), strlen(), ...). The type decides how == compares. */
typedef struct
{
  gboolean boolean;  /* text is a filter expression */
  gboolean number;   /* a numeric literal */
  gboolean numeric;  /* a number of rsyslog's: 1 or 0 when boolean */
  gboolean zero_one; /* a value that is "1" or "0" */
  gboolean literal;  /* a string or number as written: text holds it unescaped */
  GString *text;
  gchar *truth;      /* a boolean's value as a template of "1" or "0", when it has one */
  GPtrArray *list;   /* [ "a", "b" ] */
} SlRsExpr;

static void
expr_clear (SlRsExpr *e)
{
  if (e->text)
    g_string_free (e->text, TRUE);
  if (e->list)
    g_ptr_array_unref (e->list);
  g_free (e->truth);
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
static gboolean read_unary (SlRsReader *r, SlRsExpr *out);

static gchar *
escape_dollars (const gchar *text)
{
  GString *out = g_string_new (NULL);
  for (const gchar *p = text; *p; p++)
    {
      if (*p == '$')
        g_string_append_c (out, '$');
      g_string_append_c (out, *p);
    }
  return g_string_free (out, FALSE);
}

/* The value as a template: a literal's $ doubled, a condition 1 or 0, a
 * list its first element (as rsyslogd uses a list outside a comparison) */
static gchar *
expr_template (const SlRsExpr *e)
{
  if (e->list)
    return escape_dollars (e->list->len ? g_ptr_array_index (e->list, 0) : "");
  if (e->boolean && e->truth)
    return g_strdup (e->truth);
  if (e->boolean)
    return g_strdup_printf ("$(if (%s) \"1\" \"0\")", e->text->str);
  if (!e->literal)
    return g_strdup (e->text->str);
  return escape_dollars (e->text->str);
}

/* Whether a template stays one argument of a template function as it is:
 * no blank, quote or backslash outside its $(...) and ${...} */
static gboolean
one_word (const gchar *value)
{
  gint depth = 0;

  if (!*value)
    return FALSE;
  for (const gchar *p = value; *p; p++)
    {
      if (*p == '\\' || (!depth && (g_ascii_isspace (*p) || *p == '"' || *p == '\'')))
        return FALSE;
      if (*p == '(' || *p == '{')
        depth++;
      else if (*p == ')' || *p == '}')
        depth--;
      if (depth < 0)
        return FALSE;
    }
  return depth == 0;
}

/* One argument of a template function. Backslashes are avoided where
 * they can be: $(if) reads its condition both as a template and as a
 * filter expression, which differ in what a backslash means. */
static void
append_arg (GString *out, const gchar *value)
{
  g_string_append_c (out, ' ');
  if (one_word (value))
    {
      g_string_append (out, value);
      return;
    }
  if (!strchr (value, '\''))
    {
      g_string_append_printf (out, "'%s'", value);
      return;
    }
  g_string_append_c (out, '"');
  for (const gchar *p = value; *p; p++)
    {
      if (*p == '"' || *p == '\\')
        g_string_append_c (out, '\\');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

static void
append_expr_arg (GString *out, const SlRsExpr *e)
{
  g_autofree gchar *value = expr_template (e);
  append_arg (out, value);
}

/* Turns e into a value of its own */
static void
set_value (SlRsExpr *e, GString *text, gboolean numeric, gboolean zero_one)
{
  expr_clear (e);
  e->text = text;
  e->numeric = numeric;
  e->zero_one = zero_one;
}

/* rsyslogd's truth of a value: its number is not 0 ("abc" is false) */
static void
make_boolean (SlRsExpr *e)
{
  if (e->boolean)
    return;
  g_autofree gchar *value = expr_template (e);
  GString *text = g_string_new (NULL);
  if (e->zero_one)
    sl_rs_quote (text, value);
  else
    {
      g_autoptr (GString) call = g_string_new ("$(rsyslog-bool");
      append_arg (call, value);
      g_string_append_c (call, ')');
      sl_rs_quote (text, call->str);
    }
  g_string_append (text, " eq \"1\"");
  gchar *truth = e->zero_one ? g_steal_pointer (&value) : NULL;
  set_value (e, text, TRUE, TRUE);
  e->boolean = TRUE;
  e->truth = truth;
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

/* The functions that become one template function each, their arguments
 * as rsyslogd counts them */
static const struct
{
  const gchar *name;
  guint min, max;
  const gchar *function;
  gboolean numeric;
} plain_functions[] = {
  { "strlen", 1, 1, "rsyslog-strlen", TRUE },       { "getenv", 1, 1, "rsyslog-getenv", FALSE },
  { "num2ipv4", 1, 1, "rsyslog-num2ipv4", FALSE },  { "int2hex", 1, 1, "rsyslog-int2hex", FALSE },
  { "substring", 3, 3, "rsyslog-substring", FALSE }, { "ltrim", 1, 1, "rsyslog-ltrim", FALSE },
  { "rtrim", 1, 1, "rsyslog-rtrim", FALSE },        { "tolower", 1, 1, "rsyslog-lower", FALSE },
  { "cnum", 1, 1, "rsyslog-num", TRUE },
  { "ip42num", 1, 1, "rsyslog-ipv42num", TRUE },    { "ipv42num", 1, 1, "rsyslog-ipv42num", TRUE },
  { "replace", 3, 3, "rsyslog-replace", FALSE },    { "random", 1, 1, "rsyslog-random", TRUE },
  { "format_time", 2, 2, "rsyslog-format-time", FALSE }, { "parse_time", 1, 1, "rsyslog-parse-time", TRUE },
  { "is_time", 1, 2, "rsyslog-is-time", TRUE },
};

/* The others rsyslogd knows, with their argument counts */
static const struct
{
  const gchar *name;
  guint min, max;
} special_functions[] = {
  { "cstr", 1, 1 }, { "field", 3, 3 }, { "re_match", 2, 2 }, { "re_match_i", 2, 2 }, { "re_extract", 5, 5 },
  { "re_extract_i", 5, 5 }, { "exec_template", 1, 1 }, { "prifilt", 1, 1 }, { "exists", 1, 1 },
  { "parse_json", 2, 2 }, { "script_error", 0, 0 }, { "previous_action_suspended", 0, 0 }, { "lookup", 2, 2 },
  { "dyn_inc", 2, 2 }, { "percentile_observe", 3, 3 }, { "wrap", 2, 3 }, { "get_property", 2, 2 },
  { "toupper", 1, 1 },
};

/* Why a function of rsyslogd's is refused */
static const struct
{
  const gchar *name;
  const gchar *why;
} refused_functions[] = {
  { "parse_json", N_("Sluice takes it only as the whole value of set, as in set $.ret = parse_json($msg, \"\\$!\");") },
  { "script_error", N_("it reports the error state functions leave behind, and Sluice's functions leave none") },
  { "previous_action_suspended", N_("Sluice keeps no suspended state of the action before") },
  { "dyn_inc", N_("dynamic statistics are not supported") },
  { "percentile_observe", N_("percentile statistics are not supported") },
  { "wrap", N_("it is not supported") },
  { "toupper", N_("rsyslogd 8.2302 has no such function") },
  { "get_property", N_("it is not supported") },
};

static gboolean
check_arguments (SlRsReader *r, const gchar *name, SlCfgPos pos, guint n, guint min, guint max)
{
  if (n >= min && n <= max)
    return TRUE;
  if (min == max)
    return sl_rs_fail (r, pos, _("the RainerScript function %s() takes %u arguments, not %u"), name, min, n);
  return sl_rs_fail (r, pos, _("the RainerScript function %s() takes %u to %u arguments, not %u"), name, min, max, n);
}

/* re_match(), re_match_i(), re_extract(), re_extract_i(): the pattern is
 * a string constant, as rsyslogd requires */
static gboolean
regex_call (SlRsReader *r, const gchar *lower, SlCfgPos pos, GPtrArray *args, SlRsExpr *out)
{
  SlRsExpr *pattern = g_ptr_array_index (args, 1);
  if (!pattern->literal || pattern->number)
    return sl_rs_fail (r, pos, _("the pattern of %s() must be a constant string, as rsyslogd requires"), lower);
  regex_t re;
  gint code = regcomp (&re, pattern->text->str, REG_EXTENDED | REG_NOSUB);
  if (code)
    {
      gchar why[256];
      regerror (code, &re, why, sizeof why);
      return sl_rs_fail (r, pos, _("cannot compile the regular expression '%s' of %s(): %s"), pattern->text->str, lower,
                         why);
    }
  regfree (&re);
  gboolean extract = g_str_has_prefix (lower, "re_extract");
  GString *text = g_string_new (extract ? "$(rsyslog-re-extract" : "$(rsyslog-re-match");
  append_arg (text, g_str_has_suffix (lower, "_i") ? "icase" : "case");
  append_expr_arg (text, pattern);
  append_expr_arg (text, g_ptr_array_index (args, 0));
  for (guint i = 2; i < args->len; i++)
    append_expr_arg (text, g_ptr_array_index (args, i));
  g_string_append_c (text, ')');
  set_value (out, text, !extract, !extract);
  return TRUE;
}

static gboolean
special_call (SlRsReader *r, const gchar *name, const gchar *lower, SlCfgPos pos, GPtrArray *args, SlRsExpr *out)
{
  SlRsExpr *a = args->len > 0 ? g_ptr_array_index (args, 0) : NULL;

  for (guint i = 0; i < G_N_ELEMENTS (refused_functions); i++)
    if (g_str_equal (lower, refused_functions[i].name))
      return sl_rs_fail (r, pos, _("the RainerScript function '%s()' is not supported: %s"), name,
                         _(refused_functions[i].why));
  if (g_str_has_prefix (lower, "re_"))
    return regex_call (r, lower, pos, args, out);
  if (g_str_equal (lower, "lookup"))
    {
      if (!a->literal || a->number)
        return sl_rs_fail (r, pos, "%s", _("the table of lookup() must be a constant string, as rsyslogd requires"));
      g_autofree gchar *key = expr_template (g_ptr_array_index (args, 1));
      GString *text = g_string_new (NULL);
      if (!sl_rs_lookup_call (r->c, a->text->str, key, pos, text, r->error))
        {
          g_string_free (text, TRUE);
          return FALSE;
        }
      set_value (out, text, FALSE, FALSE);
      return TRUE;
    }
  if (g_str_equal (lower, "cstr"))
    {
      g_autofree gchar *value = expr_template (a);
      set_value (out, g_string_new (value), FALSE, FALSE);
      return TRUE;
    }
  if (g_str_equal (lower, "field"))
    {
      /* a number as the delimiter is a character's code */
      SlRsExpr *delim = g_ptr_array_index (args, 1);
      GString *text = g_string_new (delim->numeric || delim->number ? "$(rsyslog-field-char" : "$(rsyslog-field");
      for (guint i = 0; i < args->len; i++)
        append_expr_arg (text, g_ptr_array_index (args, i));
      g_string_append_c (text, ')');
      set_value (out, text, FALSE, FALSE);
      return TRUE;
    }
  if (g_str_equal (lower, "exec_template"))
    {
      if (!a->literal || a->number)
        return sl_rs_fail (r, pos, "%s",
                           _("the argument of exec_template() must be a constant string, as rsyslogd requires"));
      const gchar *body = sl_rs_template_lookup (r->c, a->text->str, pos, r->error);
      if (!body)
        return FALSE;
      set_value (out, g_string_new (body), FALSE, FALSE);
      return TRUE;
    }
  if (g_str_equal (lower, "exists"))
    {
      /* a variable reads $(rsyslog-var FIELD), FIELD quoted where it needs it */
      static const gchar reads[] = "$(rsyslog-var ";
      const gchar *field = a->text ? a->text->str : "";
      if (a->literal || a->boolean || a->list || !g_str_has_prefix (field, reads) || !g_str_has_suffix (field, ")"))
        return sl_rs_fail (r, pos, "%s", _("exists() takes a variable such as $!name"));
      GString *text = g_string_new ("$(rsyslog-exists ");
      g_string_append_len (text, field + strlen (reads), (gssize) (strlen (field) - strlen (reads) - 1));
      g_string_append_c (text, ')');
      set_value (out, text, TRUE, TRUE);
      return TRUE;
    }
  /* prifilt */
  if (!a->literal || a->number)
    return sl_rs_fail (r, pos, "%s", _("the argument of prifilt() must be a constant string, as rsyslogd requires"));
  out->boolean = out->numeric = TRUE;
  out->text = g_string_new (NULL);
  if (!sl_rs_selector_filter (a->text->str, pos, out->text, r->error))
    return FALSE;
  if (!out->text->len)
    g_string_append (out->text, "level(emerg..debug)");
  return TRUE;
}

/* The arguments of a call; the lexer stands on its '(' */
static gboolean
read_arguments (SlRsReader *r, GPtrArray *args)
{
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
      else if (sl_rs_lexer_peek (&r->lx, 0) != ')')
        return sl_rs_fail (r, sl_rs_lexer_pos (&r->lx), _("%s was expected here"), _("',' or ')'"));
    }
  sl_rs_lexer_advance (&r->lx, 1);
  return TRUE;
}

static gboolean
read_call (SlRsReader *r, const gchar *name, SlCfgPos pos, SlRsExpr *out)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new_with_free_func ((GDestroyNotify) expr_free);

  if (!read_arguments (r, args))
    return FALSE;

  g_autofree gchar *lower = g_ascii_strdown (name, -1);
  for (guint i = 0; i < G_N_ELEMENTS (plain_functions); i++)
    if (g_str_equal (lower, plain_functions[i].name))
      {
        if (!check_arguments (r, name, pos, args->len, plain_functions[i].min, plain_functions[i].max))
          return FALSE;
        GString *text = g_string_new ("$(");
        g_string_append (text, plain_functions[i].function);
        for (guint a = 0; a < args->len; a++)
          append_expr_arg (text, g_ptr_array_index (args, a));
        g_string_append_c (text, ')');
        set_value (out, text, plain_functions[i].numeric, FALSE);
        return TRUE;
      }
  for (guint i = 0; i < G_N_ELEMENTS (special_functions); i++)
    if (g_str_equal (lower, special_functions[i].name))
      return check_arguments (r, name, pos, args->len, special_functions[i].min, special_functions[i].max)
             && special_call (r, name, lower, pos, args, out);
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
  if (g_ascii_isdigit (ch))
    {
      g_autofree gchar *digits = sl_rs_lexer_read_word (&r->lx, "");
      out->text = g_string_new (digits);
      out->number = out->literal = out->numeric = TRUE;
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

/* `not` and unary minus bind tighter than anything else in rsyslog's
 * grammar: `not $a == "x"` compares (not $a) */
static gboolean
read_unary (SlRsReader *r, SlRsExpr *out)
{
  sl_rs_lexer_skip_blanks (&r->lx, TRUE);
  if (sl_rs_lexer_take_word (&r->lx, "not"))
    {
      if (!read_unary (r, out))
        return FALSE;
      make_boolean (out);
      g_clear_pointer (&out->truth, g_free);
      g_string_prepend (out->text, "not (");
      g_string_append_c (out->text, ')');
      return TRUE;
    }
  if (sl_rs_lexer_peek (&r->lx, 0) != '-')
    return read_primary (r, out);
  sl_rs_lexer_advance (&r->lx, 1);
  if (!read_unary (r, out))
    return FALSE;
  if (out->number)
    {
      g_string_prepend_c (out->text, '-');
      return TRUE;
    }
  GString *text = g_string_new ("$(rsyslog-calc \"-\" \"0\"");
  append_expr_arg (text, out);
  g_string_append_c (text, ')');
  set_value (out, text, TRUE, FALSE);
  return TRUE;
}

/* left OP right as a number */
static void
arithmetic (SlRsExpr *left, gchar op, const SlRsExpr *right)
{
  GString *text = g_string_new ("$(rsyslog-calc");
  gchar word[2] = { op, 0 };
  append_arg (text, word);
  append_expr_arg (text, left);
  append_expr_arg (text, right);
  g_string_append_c (text, ')');
  set_value (left, text, TRUE, FALSE);
}

static gboolean
read_product (SlRsReader *r, SlRsExpr *out)
{
  if (!read_unary (r, out))
    return FALSE;
  for (;;)
    {
      sl_rs_lexer_skip_blanks (&r->lx, TRUE);
      gchar ch = sl_rs_lexer_peek (&r->lx, 0);
      if (ch != '*' && ch != '/' && ch != '%')
        return TRUE;
      sl_rs_lexer_advance (&r->lx, 1);
      g_auto (SlRsExpr) next = { 0 };
      if (!read_unary (r, &next))
        return FALSE;
      arithmetic (out, ch, &next);
    }
}

/* + and - of numbers, & joining strings, at the same level */
static gboolean
read_sum (SlRsReader *r, SlRsExpr *out)
{
  if (!read_product (r, out))
    return FALSE;
  for (;;)
    {
      sl_rs_lexer_skip_blanks (&r->lx, TRUE);
      gchar ch = sl_rs_lexer_peek (&r->lx, 0);
      if (ch != '+' && ch != '-' && ch != '&')
        return TRUE;
      sl_rs_lexer_advance (&r->lx, 1);
      g_auto (SlRsExpr) next = { 0 };
      if (!read_product (r, &next))
        return FALSE;
      if (ch != '&')
        {
          arithmetic (out, ch, &next);
          continue;
        }
      g_autofree gchar *left = expr_template (out);
      g_autofree gchar *right = expr_template (&next);
      GString *text = g_string_new (left);
      g_string_append (text, right);
      set_value (out, text, FALSE, FALSE);
    }
}

static const struct
{
  const gchar *word;
  const gchar *name;     /* of $(rsyslog-cmp) */
  const gchar *string;   /* Sluice's comparison of two strings */
} comparisons[] = {
  { "==", "eq", "eq" }, { "!=", "ne", "ne" }, { "<>", "ne", "ne" }, { "<=", "le", NULL },
  { ">=", "ge", NULL }, { "<", "lt", NULL }, { ">", "gt", NULL },
};

static const gchar *const match_words[] = {
  "contains_i", "contains", "startswith_i", "startswith",
};

/* A comparison rsyslogd's way, through $(rsyslog-cmp), which compares
 * numbers as rsyslogd does; == and != of two strings, and contains and
 * startswith of a string constant, as Sluice's own filters, but with the
 * $(rsyslog-cmp) call as their value. A list holds when one of its items
 * does (!=: when none is equal). */
static gboolean
compare (SlRsReader *r, SlCfgPos pos, SlRsExpr *left, const gchar *op, gboolean match, SlRsExpr *right,
         GString *out, gchar **truth)
{
  g_autofree gchar *lhs = expr_template (left);
  guint i_op = 0;

  for (; !match && i_op < G_N_ELEMENTS (comparisons); i_op++)
    if (g_str_equal (op, comparisons[i_op].word))
      break;
  if (!right->list)
    {
      g_autoptr (GString) call = g_string_new ("$(rsyslog-cmp");
      append_arg (call, match ? op : comparisons[i_op].name);
      g_autofree gchar *kind = g_strdup_printf ("%c%c", left->numeric ? 'n' : 's', right->numeric ? 'n' : 's');
      append_arg (call, kind);
      append_arg (call, lhs);
      append_expr_arg (call, right);
      g_string_append_c (call, ')');
      *truth = g_strdup (call->str);
      /* rsyslogd's startswith_i holds for a text shorter than the string
       * that starts it, as Sluice's prefix match does not */
      if (match ? !right->literal || g_str_equal (op, "startswith_i")
                : !comparisons[i_op].string || left->numeric || right->numeric)
        {
          sl_rs_quote (out, call->str);
          g_string_append (out, " eq \"1\"");
          return TRUE;
        }
    }
  if (!match && !comparisons[i_op].string)
    return sl_rs_fail (r, pos, _("the RainerScript comparison '%s' of a list is not supported"), op);

  GPtrArray *items = right->list;
  g_autoptr (GPtrArray) single = g_ptr_array_new ();
  if (!items)
    {
      g_ptr_array_add (single, right->text->str);
      items = single;
    }
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
      sl_rs_quote (out, lhs);
      g_string_append_printf (out, " %s ", comparisons[i_op].string);
      if (right->literal || right->list)
        {
          g_autofree gchar *escaped = escape_dollars (item);
          sl_rs_quote (out, escaped);
        }
      else
        sl_rs_quote (out, item);
    }
  if (items->len > 1)
    g_string_append_c (out, ')');
  return TRUE;
}

/* Comparisons chain from the left: a == b == c compares (a == b) to c */
static gboolean
read_comparison (SlRsReader *r, SlRsExpr *out)
{
  if (!read_sum (r, out))
    return FALSE;
  for (;;)
    {
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
        return TRUE;
      g_auto (SlRsExpr) right = { 0 };
      if (!read_sum (r, &right))
        return FALSE;
      GString *text = g_string_new (NULL);
      gchar *truth = NULL;
      gboolean ok = compare (r, pos, out, op, match, &right, text, &truth);
      set_value (out, text, TRUE, TRUE);
      out->boolean = TRUE;
      out->truth = truth;
      if (!ok)
        return FALSE;
    }
}

/* `and` and `or` have the same precedence in rsyslog's grammar and group
 * from the left: a or b and c is (a or b) and c */
static gboolean
read_or (SlRsReader *r, SlRsExpr *out)
{
  if (!read_comparison (r, out))
    return FALSE;
  for (;;)
    {
      sl_rs_lexer_skip_blanks (&r->lx, TRUE);
      const gchar *word = sl_rs_lexer_take_word (&r->lx, "and") ? "and"
                          : sl_rs_lexer_take_word (&r->lx, "or") ? "or"
                                                                  : NULL;
      if (!word)
        return TRUE;
      g_auto (SlRsExpr) next = { 0 };
      if (!read_comparison (r, &next))
        return FALSE;
      make_boolean (out);
      make_boolean (&next);
      g_clear_pointer (&out->truth, g_free);
      g_string_prepend_c (out->text, '(');
      g_string_append_printf (out->text, ") %s (%s)", word, next.text->str);
    }
}

/* The template of $(rsyslog-json-prefix MODE TEXT) */
static gchar *
json_prefix (const gchar *mode, const gchar *text)
{
  GString *call = g_string_new ("$(rsyslog-json-prefix");
  append_arg (call, mode);
  append_arg (call, text);
  g_string_append_c (call, ')');
  return g_string_free (call, FALSE);
}

/* parse_json(TEXT, "CONTAINER") as rsyslogd 8.2302 does it: the JSON value
 * json-c takes from the start of TEXT ($(rsyslog-json-prefix)) goes under
 * CONTAINER ("$!" the top), an object's members through json-parser()
 * with the types rsyslogd keeps (the container written from them), an
 * empty object or another value as the container's own; then result is
 * the number 0, or 1 (RS_SCRIPT_EINVAL) when there is no value, the
 * message unchanged. A value that is not an object does not replace the whole
 * tree under "$!", as in rsyslogd. */
gboolean
sl_rs_read_parse_json (SlRsReader *r, SlCfgPos pos, const gchar *result, gchar **items)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new_with_free_func ((GDestroyNotify) expr_free);

  if (!read_arguments (r, args) || !check_arguments (r, "parse_json", pos, args->len, 2, 2))
    return FALSE;
  SlRsExpr *container = g_ptr_array_index (args, 1);
  const gchar *name = container->literal ? container->text->str : "";
  if (container->number || name[0] != '$' || !name[1] || !strchr ("!./", name[1]))
    return sl_rs_fail (r, pos, "%s",
                       _("the container of parse_json() must be a constant variable name such as \"\\$!\""));
  g_autofree gchar *field = name[2] ? sl_rs_variable_field (name) : NULL;
  if (!field && name[1] != '!')
    return sl_rs_fail (r, pos, "%s", _("parse_json() into all local or global variables is not supported"));
  /* the whole $! tree: its fields are "!name" */
  g_autofree gchar *prefix = field ? g_strconcat (field, ".", NULL) : g_strdup ("!");
  g_autofree gchar *text = expr_template (g_ptr_array_index (args, 0));
  g_autofree gchar *kind = json_prefix ("kind", text);
  g_autofree gchar *object = json_prefix ("object", text);
  g_autofree gchar *value = json_prefix ("value", text);
  g_autofree gchar *quoted_kind = sl_rs_quoted (kind);
  g_autofree gchar *quoted_object = sl_rs_quoted (object);
  g_autofree gchar *quoted_prefix = sl_rs_quoted (prefix);
  g_autofree gchar *quoted_result = sl_rs_quoted (result);
  g_autofree gchar *set_value_text = NULL;
  g_autofree gchar *set_text = NULL;
  if (field)
    {
      /* an empty object renders as rsyslogd renders it, { } */
      g_autofree gchar *text_template = json_prefix ("text", text);
      g_autofree gchar *quoted_value = sl_rs_quoted (value);
      g_autofree gchar *quoted_text = sl_rs_quoted (text_template);
      g_autofree gchar *quoted_field = sl_rs_quoted (field);
      set_value_text = g_strdup_printf ("parser { rsyslog-set(template(%s) variable(%s) json(yes)); }; ", quoted_value,
                                        quoted_field);
      set_text = g_strdup_printf ("parser { rsyslog-set(template(%s) variable(%s) json(yes)); }; ", quoted_text,
                                  quoted_field);
    }
  *items = g_strdup_printf ("junction { channel { filter { %s eq \"object\"; }; "
                            "parser { json-parser(template(%s) prefix(%s) types(rsyslog)); }; "
                            "parser { rsyslog-set(template(\"0\") variable(%s) number(yes)); }; flags(final); }; "
                            "channel { filter { %s eq \"empty\"; }; %sparser { rsyslog-set(template(\"0\") variable(%s) number(yes)); }; "
                            "flags(final); }; "
                            "channel { filter { %s eq \"value\"; }; %sparser { rsyslog-set(template(\"0\") variable(%s) number(yes)); }; "
                            "flags(final); }; "
                            "channel { parser { rsyslog-set(template(\"1\") variable(%s) number(yes)); }; flags(final); }; };",
                            quoted_kind, quoted_object, quoted_prefix, quoted_result, quoted_kind,
                            set_text ? set_text : "", quoted_result, quoted_kind,
                            set_value_text ? set_value_text : "", quoted_result, quoted_result);
  return TRUE;
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
sl_rs_read_expr_value (SlRsReader *r, gchar **value)
{
  g_auto (SlRsExpr) e = { 0 };

  if (!read_or (r, &e))
    return FALSE;
  *value = expr_template (&e);
  return TRUE;
}

gboolean
sl_rs_read_set_value (SlRsReader *r, gchar **value, gboolean *numeric)
{
  g_auto (SlRsExpr) e = { 0 };

  if (!read_or (r, &e))
    return FALSE;
  *numeric = e.numeric || e.number;
  *value = expr_template (&e);
  return TRUE;
}
