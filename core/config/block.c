/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Block definitions and their expansion into text, as syslog-ng does it:
 * arguments are text, substituted for backticks in the body before the
 * body is read as configuration. */
#include "core/config/block.h"

#include <string.h>
#include <sys/wait.h>

#include "core/config/error.h"
#include "core/config/lexer.h"
#include "core/i18n.h"

typedef struct
{
  gchar *name;     /* normalized */
  gchar *value;    /* as written, or NULL for `name()` */
  SlCfgPos pos;
} SlBlockArg;

struct _SlCfgBlock
{
  gchar *context;
  gchar *name;
  SlCfgPos pos;
  GPtrArray *params;      /* SlBlockArg, defaults in value */
  gboolean varargs;       /* `...`: other arguments go to __VARARGS__ */
  gchar *body;
  SlCfgPos body_start;
  gchar *program;         /* confgen */
  SlCfgGenerate generate; /* a generator plugin's, with its file */
  gpointer generate_data;
  const gchar *generated_file;
};

struct _SlCfgBlockArgs
{
  GPtrArray *args;        /* SlBlockArg */
};

static void
block_arg_free (gpointer data)
{
  SlBlockArg *arg = data;

  g_free (arg->name);
  g_free (arg->value);
  g_free (arg);
}

SlCfgBlock *
sl_cfg_block_new (const gchar *context, const gchar *name, SlCfgPos pos)
{
  SlCfgBlock *block = g_new0 (SlCfgBlock, 1);

  block->context = sl_cfg_name_normalize (context);
  block->name = g_strdup (name);
  block->pos = pos;
  block->params = g_ptr_array_new_with_free_func (block_arg_free);
  block->body = g_strdup ("");
  block->body_start = pos;
  return block;
}

void
sl_cfg_block_free (SlCfgBlock *block)
{
  if (!block)
    return;
  g_free (block->context);
  g_free (block->name);
  g_ptr_array_unref (block->params);
  g_free (block->body);
  g_free (block->program);
  g_free (block);
}

const gchar *
sl_cfg_block_context (const SlCfgBlock *block)
{
  return block->context;
}

void
sl_cfg_block_set_body (SlCfgBlock *block, const gchar *text, SlCfgPos start)
{
  g_free (block->body);
  block->body = g_strdup (text);
  block->body_start = start;
}

void
sl_cfg_block_set_program (SlCfgBlock *block, const gchar *command)
{
  g_free (block->program);
  block->program = g_strdup (command);
}

void
sl_cfg_block_set_generator (SlCfgBlock *block, const gchar *file, SlCfgGenerate generate, gpointer user_data)
{
  block->generate = generate;
  block->generate_data = user_data;
  block->generated_file = sl_cfg_intern_file (file);
}

/* Argument lists: `name(value) name2(value2) ...` */

typedef struct
{
  const gchar *p;
  SlCfgPos pos;
} SlCursor;

static void
cursor_advance (SlCursor *c)
{
  if (*c->p == '\n')
    {
      c->pos.line++;
      c->pos.column = 1;
    }
  else
    c->pos.column++;
  c->p++;
}

static void
skip_separators (SlCursor *c)
{
  for (;;)
    {
      if (*c->p == '#')
        while (*c->p && *c->p != '\n')
          cursor_advance (c);
      else if (g_ascii_isspace (*c->p) || *c->p == ',')
        cursor_advance (c);
      else if (*c->p == '\\' && c->p[1] == '\n')
        {
          cursor_advance (c);
          cursor_advance (c);
        }
      else
        return;
    }
}

static gboolean
is_name_char (gchar c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '-' || c == '.';
}

/* The text up to the ')' matching the '(' just passed; FALSE at the end. */
static gboolean
read_parenthesized (SlCursor *c, GString *out)
{
  guint depth = 1;

  while (*c->p)
    {
      gchar quote = *c->p;

      if (quote == '"' || quote == '\'')
        {
          g_string_append_c (out, quote);
          cursor_advance (c);
          while (*c->p && *c->p != quote)
            {
              if (quote == '"' && *c->p == '\\' && c->p[1])
                {
                  g_string_append_c (out, *c->p);
                  cursor_advance (c);
                }
              g_string_append_c (out, *c->p);
              cursor_advance (c);
            }
          if (!*c->p)
            return FALSE;
        }
      else if (*c->p == '#')
        {
          /* a comment, which syslog-ng's lexer drops from the value: kept,
           * it would take what follows the value on its line */
          while (*c->p && *c->p != '\n')
            cursor_advance (c);
          continue;
        }
      else if (*c->p == '(')
        depth++;
      else if (*c->p == ')' && --depth == 0)
        {
          cursor_advance (c);
          return TRUE;
        }
      g_string_append_c (out, *c->p);
      cursor_advance (c);
    }
  return FALSE;
}

/* syslog-ng keeps a value as written, except that `()` gives none and
 * `("")` an empty one. */
static gchar *
arg_value (GString *raw)
{
  g_strstrip (raw->str);
  if (!raw->str[0])
    return NULL;
  if (g_str_equal (raw->str, "\"\"") || g_str_equal (raw->str, "''"))
    return g_strdup ("");
  return g_strdup (raw->str);
}

static gboolean
parse_args (const gchar *text, SlCfgPos start, gboolean definition, GPtrArray *out,
            gboolean *varargs, GError **error)
{
  SlCursor c = { text, start };

  for (;;)
    {
      skip_separators (&c);
      if (!*c.p)
        return TRUE;
      if (definition && g_str_has_prefix (c.p, "..."))
        {
          *varargs = TRUE;
          for (gint i = 0; i < 3; i++)
            cursor_advance (&c);
          continue;
        }

      SlCfgPos pos = c.pos;
      const gchar *name_start = c.p;

      while (is_name_char (*c.p))
        cursor_advance (&c);
      if (c.p == name_start)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, pos,
                            definition ? _("expected a parameter such as 'name(default)' or '...', found '%c'")
                                       : _("expected an argument such as 'name(value)', found '%c'"),
                            *c.p);
          return FALSE;
        }
      g_autofree gchar *name = g_strndup (name_start, c.p - name_start);
      skip_separators (&c);
      if (*c.p != '(')
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, c.pos, _("expected '(' after '%s'"), name);
          return FALSE;
        }
      SlCfgPos open = c.pos;
      g_autoptr (GString) raw = g_string_new (NULL);
      cursor_advance (&c);
      if (!read_parenthesized (&c, raw))
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, open, _("no ')' closes this '('"));
          return FALSE;
        }

      SlBlockArg *arg = g_new0 (SlBlockArg, 1);
      arg->name = sl_cfg_name_normalize (name);
      arg->value = arg_value (raw);
      arg->pos = pos;
      g_ptr_array_add (out, arg);
    }
}

static const SlBlockArg *
find_arg (GPtrArray *args, const gchar *name)
{
  g_autofree gchar *normal = sl_cfg_name_normalize (name);

  for (guint i = 0; i < args->len; i++)
    {
      const SlBlockArg *arg = g_ptr_array_index (args, i);

      if (g_str_equal (arg->name, normal))
        return arg;
    }
  return NULL;
}

const gchar *
sl_cfg_block_args_get (const SlCfgBlockArgs *args, const gchar *name)
{
  const SlBlockArg *arg = find_arg (args->args, name);

  return arg && arg->value && arg->value[0] ? arg->value : NULL;
}

gboolean
sl_cfg_block_set_params (SlCfgBlock *block, const gchar *text, SlCfgPos start, GError **error)
{
  if (!parse_args (text, start, TRUE, block->params, &block->varargs, error))
    return FALSE;
  for (guint i = 0; i < block->params->len; i++)
    {
      const SlBlockArg *param = g_ptr_array_index (block->params, i);

      if (find_arg (block->params, param->name) != param)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, param->pos,
                            _("parameter '%s' of block '%s' is declared twice"), param->name, block->name);
          return FALSE;
        }
    }
  return TRUE;
}

/* Substitution */

typedef enum
{
  OUTSIDE,
  IN_STRING,
  IN_STRING_ESCAPE,
  IN_QSTRING,
} SlStringState;

static SlStringState
track_string (SlStringState state, gchar c)
{
  switch (state)
    {
    case OUTSIDE:
      return c == '"' ? IN_STRING : c == '\'' ? IN_QSTRING : OUTSIDE;
    case IN_STRING:
      return c == '\\' ? IN_STRING_ESCAPE : c == '"' ? OUTSIDE : IN_STRING;
    case IN_STRING_ESCAPE:
      return IN_STRING;
    case IN_QSTRING:
      return c == '\'' ? OUTSIDE : IN_QSTRING;
    }
  g_assert_not_reached ();
}

/* The content of value when it is exactly one string literal, else NULL. */
static gchar *
string_literal (const gchar *value)
{
  SlLexer *lexer = sl_lexer_new ();
  GArray *spans = g_array_new (FALSE, TRUE, sizeof (SlLexSpan));
  SlLexSpan first = { 0, 1, 1, FALSE };
  SlToken token = { 0 }, after = { 0 };
  gchar *result = NULL;

  g_array_append_val (spans, first);
  sl_lexer_push_expansion (lexer, value, "<argument>", spans, NULL);
  if (sl_lexer_next (lexer, &token, NULL) && token.kind == SL_TOK_STRING
      && sl_lexer_next (lexer, &after, NULL) && after.kind == SL_TOK_EOF)
    result = g_steal_pointer (&token.value);
  sl_token_clear (&token);
  sl_token_clear (&after);
  g_array_unref (spans);
  sl_lexer_free (lexer);
  return result;
}

/* A value put inside a string of the body: a string literal given as the
 * value is written as that string's content. */
static gboolean
append_in_string (GString *out, const gchar *value, SlStringState state, SlCfgPos pos,
                  const gchar *name, GError **error)
{
  g_autofree gchar *literal = string_literal (value);

  if (!literal)
    {
      g_string_append (out, value);
      return TRUE;
    }
  for (const gchar *p = literal; *p; p++)
    {
      if (state == IN_QSTRING)
        {
          if (*p == '\'')
            {
              sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos,
                                _("the value of `%s` holds an apostrophe, which a '...' string cannot"), name);
              return FALSE;
            }
          g_string_append_c (out, *p);
        }
      else if (*p == '"' || *p == '\\')
        g_string_append_printf (out, "\\%c", *p);
      else if (*p == '\n')
        g_string_append (out, "\\n");
      else if (*p == '\r')
        g_string_append (out, "\\r");
      else
        g_string_append_c (out, *p);
    }
  return TRUE;
}

static void
add_span (GArray *spans, gsize offset, SlCfgPos pos, gboolean frozen)
{
  SlLexSpan span = { offset, pos.line, pos.column, frozen };

  g_array_append_val (spans, span);
}

typedef struct
{
  const SlCfgBlock *block;
  GPtrArray *args;
  SlCfgLookup lookup;
  gpointer user_data;
} SlSubstitution;

static const gchar *
substitution_value (const SlSubstitution *s, const gchar *name)
{
  const SlBlockArg *arg = find_arg (s->args, name);

  if (arg && arg->value)
    return arg->value;
  arg = find_arg (s->block->params, name);
  if (arg && arg->value)
    return arg->value;
  return s->lookup (s->user_data, name);
}

static gboolean
substitute (const SlSubstitution *s, const SlCfgExpansion *expansion, GString *out, GArray *spans,
            GError **error)
{
  SlCursor c = { s->block->body, s->block->body_start };
  SlStringState state = OUTSIDE;

  c.pos.expansion = expansion;
  add_span (spans, 0, c.pos, FALSE);
  while (*c.p)
    {
      if (*c.p != '`')
        {
          state = track_string (state, *c.p);
          g_string_append_c (out, *c.p);
          cursor_advance (&c);
          continue;
        }

      SlCfgPos pos = c.pos;
      const gchar *close = strchr (c.p + 1, '`');

      if (!close)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, pos, _("unterminated backtick substitution"));
          return FALSE;
        }
      if (state == IN_STRING_ESCAPE)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, pos, _("a backtick cannot follow a backslash"));
          return FALSE;
        }
      g_autofree gchar *name = g_strndup (c.p + 1, close - c.p - 1);
      while (c.p <= close)
        cursor_advance (&c);
      if (!*name)
        {
          g_string_append_c (out, '`');
          continue;
        }

      const gchar *value = substitution_value (s, name);
      if (!value)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_REFERENCE, pos,
                            _("undefined `%s` in block '%s': neither a parameter, @define nor environment variable"),
                            name, s->block->name);
          return FALSE;
        }
      add_span (spans, out->len, pos, TRUE);
      if (state == OUTSIDE)
        g_string_append (out, value);
      else if (!append_in_string (out, value, state, pos, name, error))
        return FALSE;
      add_span (spans, out->len, c.pos, FALSE);
    }
  return TRUE;
}

/* Checks the arguments against the parameters and gathers the others in
 * __VARARGS__ when the block takes them. __VARARGS__ is defined (empty)
 * in a block without `...` too, as syslog-ng 4 defines it. */
static gboolean
check_args (const SlCfgBlock *block, GPtrArray *args, SlCfgPos used_at, GError **error)
{
  g_autoptr (GString) varargs = g_string_new (NULL);

  for (guint i = 0; i < args->len; i++)
    {
      const SlBlockArg *arg = g_ptr_array_index (args, i);

      if (find_arg (block->params, arg->name))
        continue;
      if (!block->varargs)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, arg->pos,
                            _("block '%s' (defined at %s:%d:%d) has no parameter '%s'"), block->name,
                            block->pos.file, block->pos.line, block->pos.column, arg->name);
          return FALSE;
        }
      g_string_append_printf (varargs, "%s(%s) ", arg->name, arg->value ? arg->value : "");
    }
  for (guint i = 0; i < block->params->len; i++)
    {
      const SlBlockArg *param = g_ptr_array_index (block->params, i);
      const SlBlockArg *given = find_arg (args, param->name);

      if (!param->value && (!given || !given->value))
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_REFERENCE, used_at,
                            _("block '%s' (defined at %s:%d:%d) needs '%s()': it has no default"), block->name,
                            block->pos.file, block->pos.line, block->pos.column, param->name);
          return FALSE;
        }
    }
  SlBlockArg *all = g_new0 (SlBlockArg, 1);

  all->name = sl_cfg_name_normalize ("__VARARGS__");
  all->value = g_string_free (g_steal_pointer (&varargs), FALSE);
  all->pos = used_at;
  g_ptr_array_add (args, all);
  return TRUE;
}

static gboolean
run_program (const SlCfgBlock *block, GPtrArray *args, SlCfgPos used_at, SlCfgExpanded *out, GError **error)
{
  g_auto (GStrv) env = g_get_environ ();
  const gchar *argv[] = { "/bin/sh", "-c", block->program, NULL };
  g_autofree gchar *output = NULL;
  g_autoptr (GError) local = NULL;
  gint status = 0;

  for (guint i = 0; i < args->len; i++)
    {
      const SlBlockArg *arg = g_ptr_array_index (args, i);
      g_autofree gchar *var = g_strconcat ("confgen_", arg->name, NULL);

      g_strdelimit (var, "-", '_');
      if (arg->value)
        env = g_environ_setenv (env, var, arg->value, TRUE);
    }
  if (!g_spawn_sync (NULL, (gchar **) argv, env, G_SPAWN_DEFAULT, NULL, NULL, &output, NULL, &status, &local))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, used_at, _("cannot run '%s' for %s(): %s"), block->program,
                        block->name, local->message);
      return FALSE;
    }
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    {
      if (WIFEXITED (status))
        sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, used_at, _("'%s' for %s() exited with status %d"),
                          block->program, block->name, WEXITSTATUS (status));
      else
        sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, used_at, _("'%s' for %s() was killed by signal %d"),
                          block->program, block->name, WTERMSIG (status));
      return FALSE;
    }

  g_autofree gchar *file = g_strdup_printf (_("<output of %s>"), block->program);
  out->file = sl_cfg_intern_file (file);
  sl_cfg_source_remember (out->file, output);
  out->text = g_steal_pointer (&output);
  add_span (out->spans, 0, (SlCfgPos) { out->file, 1, 1, NULL }, FALSE);
  return TRUE;
}

static gboolean
run_generator (const SlCfgBlock *block, GPtrArray *args, SlCfgPos used_at, SlCfgExpanded *out, GError **error)
{
  SlCfgBlockArgs view = { args };
  g_autoptr (GString) text = g_string_new (NULL);

  if (!block->generate (block->generate_data, &view, used_at, text, error))
    return FALSE;
  out->file = block->generated_file;
  sl_cfg_source_remember (out->file, text->str);
  out->text = g_string_free (g_steal_pointer (&text), FALSE);
  add_span (out->spans, 0, (SlCfgPos) { out->file, 1, 1, NULL }, FALSE);
  return TRUE;
}

gboolean
sl_cfg_block_expand (const SlCfgBlock *block, const gchar *args_text, SlCfgPos args_start,
                     SlCfgPos used_at, SlCfgLookup lookup, gpointer user_data,
                     SlCfgExpanded *out, GError **error)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new_with_free_func (block_arg_free);
  gboolean unused = FALSE;

  memset (out, 0, sizeof *out);
  if (!parse_args (args_text, args_start, FALSE, args, &unused, error))
    return FALSE;
  out->expansion = sl_cfg_intern_expansion (block->name, used_at);
  out->spans = g_array_new (FALSE, TRUE, sizeof (SlLexSpan));
  if (block->program)
    return run_program (block, args, used_at, out, error);
  if (block->generate)
    return run_generator (block, args, used_at, out, error);
  if (!check_args (block, args, used_at, error))
    return FALSE;

  SlSubstitution s = { block, args, lookup, user_data };
  g_autoptr (GString) text = g_string_new (NULL);
  if (!substitute (&s, out->expansion, text, out->spans, error))
    return FALSE;
  out->file = block->body_start.file;
  out->text = g_string_free (g_steal_pointer (&text), FALSE);
  return TRUE;
}

void
sl_cfg_expanded_clear (SlCfgExpanded *out)
{
  g_clear_pointer (&out->text, g_free);
  g_clear_pointer (&out->spans, g_array_unref);
}
