/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/message/template-private.h"
#include "core/plugin/registry.h"
#include "core/message/text-append.h"
#include "core/config/error.h"
#include "core/config/tree.h"
#include "core/i18n.h"
#include "core/message/macros.h"

#include <string.h>

typedef enum
{
  ELEM_LITERAL,
  ELEM_MACRO,
  ELEM_FIELD,
  ELEM_CALL,
  ELEM_USER,    /* $(name) of a template-function statement: its template */
} SlElemKind;

typedef struct
{
  SlElemKind kind;
  union
  {
    struct
    {
      gsize offset;   /* into the template's literals */
      gsize len;
    } literal;
    guint macro;
    SlHandle field;
    SlTfCall *call;
    SlTemplate *user;
  };
  SlTemplate *fallback;   /* ${NAME:-fallback}, rendered when the value is empty */
  guint msg_ref;          /* ${NAME}@K, $(f)@K: K + 1, counted back from the newest of a context; 0 without */
} SlElem;

struct _SlTemplate
{
  gint ref_count;
  gchar *text;
  gchar *literals;
  SlElem *elems;
  guint n_elems;
  gboolean literal;
  gboolean plain;         /* no fallback and no @K: see append_plain() */
  gboolean hinted;        /* written with a type hint: int("$PID"), 42 */
  SlValueType hint;
};

/* Names syslog-ng spells differently for the same stored field. */
static const struct
{
  const gchar *name;
  SlHandle handle;
} field_aliases[] = {
  { "MSG", SL_F_MESSAGE },
  { "MSGONLY", SL_F_MESSAGE },
  { "FULLHOST", SL_F_HOST },
  { "FULLHOST_FROM", SL_F_HOST_FROM },
};

typedef struct
{
  const gchar *text;
  gsize base;          /* where text starts in the outermost template, for errors */
  gsize *error_at;     /* where in the outermost template an error is, or NULL */
  GString *literals;
  GArray *elems;
} SlCompiler;

static SlTemplate *compile_at (const gchar *text, gsize base, gsize *error_at, GError **error);

/* While a configuration is compiled: its template-function definitions,
 * name -> SlTemplate. Only the thread compiling configurations sets it. */
static GHashTable *user_functions;

void
sl_template_set_user_functions (GHashTable *functions)
{
  user_functions = functions;
}

GHashTable *
sl_template_user_functions (void)
{
  return user_functions;
}

/* While a configuration is compiled: its template objects, name -> SlTemplate. */
static GHashTable *named_templates;

void
sl_template_set_named (GHashTable *templates)
{
  named_templates = templates;
}

GHashTable *
sl_template_named (void)
{
  return named_templates;
}

SlTemplate *
sl_template_named_lookup (GHashTable *named, const gchar *name)
{
  gchar *key = sl_cfg_name_normalize (name);
  SlTemplate *t = g_hash_table_lookup (named, key);
  g_free (key);
  return t;
}

void
sl_template_user_function_free (SlTemplateUserFunction *f)
{
  if (f->compiled)
    sl_template_unref (f->compiled);
  g_free (f->text);
  g_free (f);
}

static SlTemplate *
user_function_template (SlTemplateUserFunction *f, const gchar *name, GError **error)
{
  if (f->compiled)
    return f->compiled;
  if (f->compiling)
    {
      g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE, _("template function $(%s) uses itself"), name);
      return NULL;
    }
  GError *inner = NULL;
  f->compiling = TRUE;
  f->compiled = sl_template_compile (f->text, &inner);
  f->compiling = FALSE;
  if (!f->compiled)
    {
      g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE, _("in template-function \"%s\": %s"), name, inner->message);
      g_error_free (inner);
    }
  return f->compiled;
}

static void
tf_call_free (SlTfCall *call)
{
  if (call->state && call->klass->ops.template_function->free)
    call->klass->ops.template_function->free (call->state);
  for (gint i = 0; i < call->argc; i++)
    if (call->arg_templates[i])
      sl_template_unref (call->arg_templates[i]);
  g_free (call->arg_templates);
  g_strfreev (call->args);
  g_free (call);
}

static void
elem_clear (SlElem *e)
{
  if (e->kind == ELEM_CALL)
    tf_call_free (e->call);
  if (e->kind == ELEM_USER)
    sl_template_unref (e->user);
  if (e->fallback)
    sl_template_unref (e->fallback);
}

static void
add_literal (SlCompiler *c, const gchar *text, gsize len)
{
  SlElem *last = c->elems->len ? &g_array_index (c->elems, SlElem, c->elems->len - 1) : NULL;

  if (last && last->kind == ELEM_LITERAL)
    last->literal.len += len;
  else
    {
      SlElem e = { .kind = ELEM_LITERAL, .literal = { c->literals->len, len } };
      g_array_append_val (c->elems, e);
    }
  g_string_append_len (c->literals, text, len);
}

/* ${NAME}@K or $(f ...)@K names the K-th message before the newest of a
 * correlation context. As in syslog-ng, "@@" is one literal '@' and an
 * '@' before anything but a digit is kept as text; a number of several
 * digits is read the way syslog-ng 3.38 reads it (each digit adds itself
 * and ten times the sum so far). */
static void
parse_msg_ref (SlCompiler *c, gsize *next)
{
  const gchar *s = c->text;
  gsize i = *next;
  guint ref = 0;

  if (s[i] != '@')
    return;
  i++;
  if (g_ascii_isdigit (s[i]))
    {
      while (g_ascii_isdigit (s[i]))
        ref += ref * 10 + (guint) (s[i++] - '0');
      g_array_index (c->elems, SlElem, c->elems->len - 1).msg_ref = ref + 1;
      *next = i;
    }
  else if (s[i] == '@')
    *next = i;
}

/* A name is a syslog-ng alias, a computed macro, or else a field. */
static void
add_name (SlCompiler *c, const gchar *name, gsize len, SlTemplate *fallback)
{
  gchar *copy = g_strndup (name, len);
  SlElem e = { .kind = ELEM_FIELD, .fallback = fallback };
  guint macro;

  for (guint i = 0; i < G_N_ELEMENTS (field_aliases) && !e.field; i++)
    if (strcmp (copy, field_aliases[i].name) == 0)
      e.field = field_aliases[i].handle;
  if (!e.field && (macro = sl_macro_lookup (copy)))
    {
      e.kind = ELEM_MACRO;
      e.macro = macro;
    }
  else if (!e.field)
    e.field = sl_field_handle (copy);
  g_free (copy);
  g_array_append_val (c->elems, e);
}

static gboolean
is_name_char (gchar ch)
{
  return g_ascii_isalnum (ch) || ch == '_';
}

/* ${NAME} or ${NAME:-fallback}; at is the offset of the '$'. The fallback
 * may hold braces of its own, as in ${HOST:-${HOST_FROM}}. */
static gboolean
parse_braced (SlCompiler *c, gsize at, gsize *next, GError **error)
{
  const gchar *s = c->text;
  gsize name_start = at + 2;
  gsize i = name_start;
  SlTemplate *fallback = NULL;

  while (s[i] && s[i] != '}' && !(s[i] == ':' && s[i + 1] == '-'))
    i++;
  if (!s[i])
    {
      g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_SYNTAX,
                   _("unterminated '${' in template at offset %lu"), (gulong) (c->base + at));
      return FALSE;
    }
  gsize name_end = i;
  if (name_end == name_start)
    {
      g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_SYNTAX,
                   _("empty name in '${}' in template at offset %lu"), (gulong) (c->base + at));
      return FALSE;
    }

  if (s[i] == ':')
    {
      gsize fallback_start = i + 2;
      guint depth = 0;

      for (i = fallback_start; s[i] && (s[i] != '}' || depth); i++)
        {
          if (s[i] == '$' && s[i + 1] == '$')
            i++;
          else if (s[i] == '$' && s[i + 1] == '{')
            {
              depth++;
              i++;
            }
          else if (s[i] == '}')
            depth--;
        }
      if (!s[i])
        {
          g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_SYNTAX,
                       _("unterminated '${' in template at offset %lu"), (gulong) (c->base + at));
          return FALSE;
        }
      gchar *text = g_strndup (s + fallback_start, i - fallback_start);
      fallback = compile_at (text, c->base + fallback_start, c->error_at, error);
      g_free (text);
      if (!fallback)
        return FALSE;
    }

  add_name (c, s + name_start, name_end - name_start, fallback);
  *next = i + 1;
  parse_msg_ref (c, next);
  return TRUE;
}

/* Splits the inside of $(...) into words at whitespace, up to the ')' that
 * closes it; a backslash outside quotes escapes the character after it. Whatever sits inside nested parentheses or braces ($(f ...),
 * ${NAME:-a b}, a filter expression) stays one word and keeps its quotes for
 * the nested parse; quotes around a whole word group it and are removed. */
static gboolean
split_call (SlCompiler *c, gsize at, gsize *next, GPtrArray *words, GArray *offsets, GError **error)
{
  const gchar *s = c->text;
  GString *word = NULL;
  guint depth = 0;
  gsize i = at + 2;

  for (;;)
    {
      gchar ch = s[i];

      if (!ch)
        {
          g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_SYNTAX,
                       _("unterminated '$(' in template at offset %lu"), (gulong) (c->base + at));
          break;
        }
      if (!depth && (ch == ')' || g_ascii_isspace (ch)))
        {
          if (word)
            g_ptr_array_add (words, g_string_free (g_steal_pointer (&word), FALSE));
          i++;
          if (ch == ')')
            {
              *next = i;
              return TRUE;
            }
          continue;
        }
      if (!word)
        {
          word = g_string_new (NULL);
          /* errors inside a quoted argument count from after its quote */
          gsize offset = c->base + i + (ch == '"' || ch == '\'');
          g_array_append_val (offsets, offset);
        }
      if (ch == '"' || ch == '\'')
        {
          gsize close = i + 1;
          while (s[close] && s[close] != ch)
            close += (ch == '"' && s[close] == '\\' && s[close + 1]) ? 2 : 1;
          if (!s[close])
            {
              g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_SYNTAX,
                           _("unterminated quote in template at offset %lu"), (gulong) (c->base + i));
              break;
            }
          if (depth)
            g_string_append_len (word, s + i, close + 1 - i);
          else
            for (gsize k = i + 1; k < close; k++)
              {
                if (ch == '"' && s[k] == '\\' && (s[k + 1] == '"' || s[k + 1] == '\\'))
                  k++;
                g_string_append_c (word, s[k]);
              }
          i = close + 1;
          continue;
        }
      if (ch == '\\' && s[i + 1])
        {
          /* as in syslog-ng: a backslash outside quotes takes the next
           * character as it is, and is dropped */
          g_string_append_c (word, s[i + 1]);
          i += 2;
          continue;
        }
      if (ch == '(' || ch == '{')
        depth++;
      else if ((ch == ')' || ch == '}') && depth)
        depth--;
      g_string_append_c (word, ch);
      i++;
    }

  if (word)
    g_string_free (word, TRUE);
  return FALSE;
}

/* One suggestion, not the list of every function loaded (there are dozens). */
static void
set_unknown_function_error (GError **error, const gchar *name)
{
  GPtrArray *known = sl_plugins_names (SL_DRIVER_TEMPLATE_FUNCTION);
  const gchar *near = sl_cfg_suggest (name, (const gchar *const *) known->pdata, known->len);

  if (near)
    g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_UNKNOWN,
                 _("unknown template function '%s'; did you mean '%s'?"), name, near);
  else if (known->len)
    g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_UNKNOWN,
                 _("unknown template function '%s'; the %u loaded are listed in sluice.conf(5)"), name, known->len);
  else
    g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_UNKNOWN,
                 _("unknown template function '%s'; none are loaded"), name);
  g_ptr_array_unref (known);
}

/* $(name arg ...); at is the offset of the '$'. */
static gboolean
parse_call (SlCompiler *c, gsize at, gsize *next, GError **error)
{
  GPtrArray *words = g_ptr_array_new_with_free_func (g_free);
  GArray *offsets = g_array_new (FALSE, FALSE, sizeof (gsize));
  SlTfCall *call = NULL;
  gboolean ok = FALSE;

  if (!split_call (c, at, next, words, offsets, error))
    goto out;
  if (!words->len)
    {
      g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_SYNTAX,
                   _("empty '$()' in template at offset %lu"), (gulong) (c->base + at));
      goto out;
    }

  const gchar *name = g_ptr_array_index (words, 0);
  SlTemplateUserFunction *user = user_functions ? g_hash_table_lookup (user_functions, name) : NULL;
  if (user)
    {
      if (words->len > 1)
        {
          g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE,
                       _("user defined template function $(%s) cannot have arguments"), name);
          goto out;
        }
      SlTemplate *body = user_function_template (user, name, error);
      if (!body)
        goto out;
      SlElem e = { .kind = ELEM_USER, .user = sl_template_ref (body) };
      g_array_append_val (c->elems, e);
      parse_msg_ref (c, next);
      ok = TRUE;
      goto out;
    }
  const SlDriverClass *klass = sl_plugins_lookup (SL_DRIVER_TEMPLATE_FUNCTION, name);
  if (!klass)
    {
      set_unknown_function_error (error, name);
      if (c->error_at)
        *c->error_at = g_array_index (offsets, gsize, 0);
      goto out;
    }

  call = g_new0 (SlTfCall, 1);
  call->klass = klass;
  call->argc = (gint) words->len - 1;
  call->args = g_new0 (gchar *, words->len);
  call->arg_templates = g_new0 (SlTemplate *, words->len);
  for (gint i = 0; i < call->argc; i++)
    {
      call->args[i] = g_strdup (g_ptr_array_index (words, i + 1));
      call->arg_templates[i] = compile_at (call->args[i], g_array_index (offsets, gsize, i + 1), c->error_at, error);
      if (!call->arg_templates[i])
        goto out;
    }

  if (klass->ops.template_function->prepare)
    {
      GError *local = NULL;
      if (!klass->ops.template_function->prepare (call, &local))
        {
          if (!local)
            g_set_error (&local, SL_CFG_ERROR, SL_CFG_ERROR_VALUE,
                         _("template function '%s' refused its arguments"), name);
          g_propagate_error (error, local);
          goto out;
        }
    }

  SlElem e = { .kind = ELEM_CALL, .call = g_steal_pointer (&call) };
  g_array_append_val (c->elems, e);
  parse_msg_ref (c, next);
  ok = TRUE;

out:
  if (call)
    tf_call_free (call);
  g_array_unref (offsets);
  g_ptr_array_unref (words);
  return ok;
}

static gboolean
compile_into (SlCompiler *c, GError **error)
{
  const gchar *s = c->text;
  gsize i = 0;

  while (s[i])
    {
      if (s[i] != '$')
        {
          gsize start = i;
          while (s[i] && s[i] != '$')
            i++;
          add_literal (c, s + start, i - start);
        }
      else if (s[i + 1] == '$')
        {
          add_literal (c, "$", 1);
          i += 2;
        }
      else if (s[i + 1] == '{')
        {
          if (!parse_braced (c, i, &i, error))
            return FALSE;
        }
      else if (s[i + 1] == '(')
        {
          if (!parse_call (c, i, &i, error))
            return FALSE;
        }
      else if (is_name_char (s[i + 1]))
        {
          gsize start = ++i;
          while (is_name_char (s[i]))
            i++;
          add_name (c, s + start, i - start, NULL);
        }
      else
        {
          add_literal (c, "$", 1);
          i++;
        }
    }
  return TRUE;
}

static SlTemplate *
compile_at (const gchar *text, gsize base, gsize *error_at, GError **error)
{
  SlCompiler c = {
    .text = text,
    .base = base,
    .error_at = error_at,
    .literals = g_string_new (NULL),
    .elems = g_array_new (FALSE, FALSE, sizeof (SlElem)),
  };

  if (!compile_into (&c, error))
    {
      for (guint i = 0; i < c.elems->len; i++)
        elem_clear (&g_array_index (c.elems, SlElem, i));
      g_array_unref (c.elems);
      g_string_free (c.literals, TRUE);
      return NULL;
    }

  SlTemplate *t = g_new0 (SlTemplate, 1);
  t->ref_count = 1;
  t->text = g_strdup (text);
  t->literals = g_string_free (c.literals, FALSE);
  t->n_elems = c.elems->len;
  t->elems = (SlElem *) g_array_free (c.elems, FALSE);
  t->literal = TRUE;
  t->plain = TRUE;
  for (guint i = 0; i < t->n_elems; i++)
    {
      if (t->elems[i].kind != ELEM_LITERAL)
        t->literal = FALSE;
      if (t->elems[i].fallback || t->elems[i].msg_ref)
        t->plain = FALSE;
    }
  return t;
}

SlTemplate *
sl_template_compile (const gchar *text, GError **error)
{
  g_return_val_if_fail (text != NULL, NULL);
  return compile_at (text, 0, NULL, error);
}

SlTemplate *
sl_template_compile_located (const gchar *text, gsize *error_at, GError **error)
{
  g_return_val_if_fail (text != NULL && error_at != NULL, NULL);
  *error_at = G_MAXSIZE;
  return compile_at (text, 0, error_at, error);
}

SlTemplate *
sl_template_compile_name (const gchar *name, GError **error)
{
  g_return_val_if_fail (name != NULL, NULL);
  if (!*name || strpbrk (name, "${}()") || strstr (name, ":-"))
    {
      g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE,
                   _("'%s' is not a field or macro name such as PROGRAM or .SDATA.origin.ip"), name);
      return NULL;
    }
  gchar *text = g_strdup_printf ("${%s}", name);
  SlTemplate *t = compile_at (text, 0, NULL, error);
  g_free (text);
  return t;
}

SlTemplate *
sl_template_ref (SlTemplate *t)
{
  g_atomic_int_inc (&t->ref_count);
  return t;
}

void
sl_template_unref (SlTemplate *t)
{
  if (!t || !g_atomic_int_dec_and_test (&t->ref_count))
    return;
  for (guint i = 0; i < t->n_elems; i++)
    elem_clear (&t->elems[i]);
  g_free (t->elems);
  g_free (t->literals);
  g_free (t->text);
  g_free (t);
}

const gchar *
sl_template_text (const SlTemplate *t)
{
  return t->text;
}

gboolean
sl_template_is_literal (const SlTemplate *t)
{
  return t->literal;
}

/* template-escape(yes): a backslash before ' " and \ of what was appended
 * since start, done in place so the hot path needs no scratch buffer. */
static void
escape_since (GString *out, gsize start)
{
  gsize specials = 0;

  for (gsize i = start; i < out->len; i++)
    if (out->str[i] == '\'' || out->str[i] == '"' || out->str[i] == '\\')
      specials++;
  if (!specials)
    return;

  gsize from = out->len;
  g_string_set_size (out, out->len + specials);
  gsize to = out->len;
  while (from > start)
    {
      gchar ch = out->str[--from];
      out->str[--to] = ch;
      if (ch == '\'' || ch == '"' || ch == '\\')
        out->str[--to] = '\\';
    }
}

static void
file_name_since (GString *out, gsize start)
{
  for (gsize i = start; i < out->len; i++)
    {
      guchar ch = out->str[i];
      if (ch == '/' || ch < 0x20 || ch == 0x7f)
        out->str[i] = SL_TEMPLATE_FILE_NAME_REPLACEMENT;
    }
}

/* A call or user function with @K renders over its one message. */
static void
append_call (const SlElem *e, const SlMessage *const *at, const SlTemplateEnv *env, GString *out)
{
  SlTemplateEnv single;

  if (e->msg_ref)
    {
      single = *env;
      single.context = at;
      single.context_len = 1;
      env = &single;
    }
  if (e->kind == ELEM_CALL)
    e->call->klass->ops.template_function->eval (e->call, *at, env, out);
  else
    sl_template_append (e->user, *at, env, out);
}

/* sl_message_get() without the call for the fields every message has. */
static inline const gchar *
field_value (const SlMessage *msg, SlHandle h, gsize *len)
{
  if (G_LIKELY (h - 1u < SL_F_BUILTIN_MAX - 1u))
    {
      const SlValue *v = &msg->builtin[h - 1];
      *len = v->ptr ? v->len : 0;
      return v->ptr;
    }
  return sl_message_get (msg, h, len);
}

/* What most destinations render: one message, nothing escaped, no
 * fallbacks, so the loop needs no bookkeeping around each piece. */
static void
append_plain (const SlTemplate *t, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  /* an empty template has no element array at all */
  if (!t->n_elems)
    return;
  const SlElem *end = t->elems + t->n_elems;

  for (const SlElem *e = t->elems; e < end; e++)
    switch (e->kind)
      {
      case ELEM_LITERAL:
        /* a space, a bracket, a newline: no call to memcpy() for those */
        if (e->literal.len == 1 && out->len + 1 < out->allocated_len)
          {
            out->str[out->len++] = t->literals[e->literal.offset];
            out->str[out->len] = '\0';
          }
        else
          sl_text_append (out, t->literals + e->literal.offset, e->literal.len);
        break;
      case ELEM_FIELD:
        {
          gsize len;
          const gchar *value = field_value (msg, e->field, &len);
          if (value)
            sl_text_append (out, value, len);
        }
        break;
      case ELEM_MACRO:
        sl_macro_append (e->macro, msg, env, out);
        break;
      case ELEM_CALL:
        e->call->klass->ops.template_function->eval (e->call, msg, env, out);
        break;
      case ELEM_USER:
        sl_template_append (e->user, msg, env, out);
        break;
      }
}

void
sl_template_append (const SlTemplate *t, const SlMessage *msg,
                    const SlTemplateEnv *env, GString *out)
{
  if (!env)
    env = &sl_template_env_default;
  if (t->plain && !env->context && !env->escape && !env->file_name)
    {
      append_plain (t, msg, env, out);
      return;
    }

  guint n;
  const SlMessage *const *context = sl_template_env_context (env, &msg, &n);

  for (guint i = 0; i < t->n_elems; i++)
    {
      const SlElem *e = &t->elems[i];
      gsize start = out->len;

      if (e->msg_ref > n)
        continue;
      const SlMessage *const *at = &context[n - (e->msg_ref ? e->msg_ref : 1)];

      switch (e->kind)
        {
        case ELEM_LITERAL:
          sl_text_append (out, t->literals + e->literal.offset, e->literal.len);
          continue;
        case ELEM_CALL:
          append_call (e, at, env, out);
          if (env->file_name)
            file_name_since (out, start);
          continue;
        case ELEM_USER:
          append_call (e, at, env, out);
          continue;
        case ELEM_MACRO:
          sl_macro_append (e->macro, *at, env, out);
          break;
        case ELEM_FIELD:
          {
            gsize len;
            const gchar *value = field_value (*at, e->field, &len);
            if (value)
              sl_text_append (out, value, len);
          }
          break;
        }

      if (out->len == start)
        {
          if (e->fallback)
            sl_template_append (e->fallback, *at, env, out);
        }
      else
        {
          if (env->escape)
            escape_since (out, start);
          if (env->file_name)
            file_name_since (out, start);
        }
    }
}

void
sl_template_append_context (const SlTemplate *t, const SlMessage *const *messages,
                            guint n_messages, const SlTemplateEnv *env, GString *out)
{
  g_return_if_fail (n_messages > 0);

  SlTemplateEnv with_context = env ? *env : sl_template_env_default;
  with_context.context = messages;
  with_context.context_len = n_messages;
  sl_template_append (t, messages[n_messages - 1], &with_context, out);
}

struct _SlTemplateMemo
{
  guint reads;                /* SL_MACRO_READS_* of its macros */
  gboolean valid;             /* never with SL_MACRO_READS_ANY */
  SlTemplateEnv env;          /* what the last message was rendered in; a reference to its zone */
  guint64 span;               /* µs of a time that look the same: 1 with a fraction, else a second */
  guint8 pri;
  SlTag source;
  SlTime stamp;               /* the first µs of the span */
  SlTime recvd;
  guint n_fields;
  SlHandle *fields;           /* the fields the template shows */
  gsize *lens;                /* per field: its value's length in values */
  GString *values;            /* the fields' values, one after the other */
};

static void
memo_add_field (GArray *fields, SlHandle h)
{
  for (guint i = 0; i < fields->len; i++)
    if (g_array_index (fields, SlHandle, i) == h)
      return;
  g_array_append_val (fields, h);
}

static void
memo_collect (SlTemplateMemo *m, GArray *fields, const SlTemplate *t)
{
  for (guint i = 0; i < t->n_elems; i++)
    {
      const SlElem *e = &t->elems[i];
      if (e->msg_ref)
        m->reads |= SL_MACRO_READS_ANY;
      switch (e->kind)
        {
        case ELEM_LITERAL:
          break;
        case ELEM_FIELD:
          memo_add_field (fields, e->field);
          break;
        case ELEM_MACRO:
          m->reads |= sl_macro_inputs (e->macro);
          break;
        case ELEM_CALL:
          m->reads |= SL_MACRO_READS_ANY;
          break;
        case ELEM_USER:
          memo_collect (m, fields, e->user);
          break;
        }
      if (e->fallback)
        memo_collect (m, fields, e->fallback);
    }
}

SlTemplateMemo *
sl_template_memo_new (const SlTemplate *t)
{
  SlTemplateMemo *m = g_new0 (SlTemplateMemo, 1);
  GArray *fields = g_array_new (FALSE, FALSE, sizeof (SlHandle));
  memo_collect (m, fields, t);
  if (m->reads & SL_MACRO_READS_MSGHDR)
    {
      memo_add_field (fields, SL_F_PROGRAM);
      memo_add_field (fields, SL_F_PID);
      memo_add_field (fields, SL_F_LEGACY_MSGHDR);
    }
  m->n_fields = fields->len;
  m->fields = (SlHandle *) g_array_free (fields, FALSE);
  m->lens = g_new0 (gsize, m->n_fields);
  m->values = g_string_new (NULL);
  return m;
}

void
sl_template_memo_free (SlTemplateMemo *m)
{
  if (!m)
    return;
  if (m->env.zone)
    g_time_zone_unref (m->env.zone);
  g_free (m->fields);
  g_free (m->lens);
  g_string_free (m->values, TRUE);
  g_free (m);
}

/* The first µs of the span t lies in: the start of its second, or t
 * itself when a fraction is shown. */
static SlTime
memo_time (guint64 span, const SlTime *t)
{
  SlTime key = *t;
  if (span > 1)
    key.usec -= t->usec % G_USEC_PER_SEC + (t->usec % G_USEC_PER_SEC < 0 ? G_USEC_PER_SEC : 0);
  return key;
}

/* One comparison for both ends of the span, and no division on the path
 * of every message. */
static inline gboolean
memo_time_same (guint64 span, const SlTime *seen, const SlTime *t)
{
  return seen->gmtoff == t->gmtoff && (guint64) (t->usec - seen->usec) < span;
}

/* Host names, programs and PIDs are a few bytes: two loads that overlap
 * cover them exactly, without a call to memcmp() and without reading past
 * either value. */
static inline gboolean
bytes_equal (const gchar *a, const gchar *b, gsize len)
{
  if (len >= 8 && len <= 16)
    {
      guint64 a0, b0, a1, b1;
      memcpy (&a0, a, 8);
      memcpy (&b0, b, 8);
      memcpy (&a1, a + len - 8, 8);
      memcpy (&b1, b + len - 8, 8);
      return a0 == b0 && a1 == b1;
    }
  if (len >= 4 && len < 8)
    {
      guint32 a0, b0, a1, b1;
      memcpy (&a0, a, 4);
      memcpy (&b0, b, 4);
      memcpy (&a1, a + len - 4, 4);
      memcpy (&b1, b + len - 4, 4);
      return a0 == b0 && a1 == b1;
    }
  return len == 0 || memcmp (a, b, len) == 0;
}

static inline gboolean
memo_fields_same (const SlTemplateMemo *m, const SlMessage *msg)
{
  const gchar *seen = m->values->str;
  for (guint i = 0; i < m->n_fields; i++)
    {
      gsize len;
      const gchar *value = field_value (msg, m->fields[i], &len);
      if (len != m->lens[i] || !bytes_equal (seen, value, len))
        return FALSE;
      seen += len;
    }
  return TRUE;
}

/* out of line: the check that comes first on every message stays small */
G_GNUC_NO_INLINE static gboolean
memo_record (SlTemplateMemo *m, const SlMessage *msg, const SlTemplateEnv *env)
{
  if ((m->reads & SL_MACRO_READS_ANY) || env->context)
    {
      m->valid = FALSE;
      return FALSE;
    }
  g_string_truncate (m->values, 0);
  for (guint i = 0; i < m->n_fields; i++)
    {
      const gchar *value = field_value (msg, m->fields[i], &m->lens[i]);
      g_string_append_len (m->values, value, m->lens[i]);
    }
  gboolean fraction = (m->reads & SL_MACRO_READS_USEC) || ((m->reads & SL_MACRO_READS_FRAC) && env->frac_digits > 0);
  m->span = fraction ? 1 : G_USEC_PER_SEC;
  /* the zone is held, so that another zone cannot come at its address */
  if (env->zone)
    g_time_zone_ref (env->zone);
  if (m->env.zone)
    g_time_zone_unref (m->env.zone);
  m->env = *env;
  m->pri = msg->pri;
  m->source = msg->source;
  m->stamp = memo_time (m->span, &msg->stamp);
  m->recvd = memo_time (m->span, &msg->recvd);
  m->valid = TRUE;
  return FALSE;
}

/* What the same template renders alike in: not the address of env, which
 * a caller may change in place. */
static inline gboolean
memo_env_same (const SlTemplateEnv *seen, const SlTemplateEnv *env)
{
  return seen->zone == env->zone && seen->frac_digits == env->frac_digits && seen->ts_format == env->ts_format
         && seen->escape == env->escape && seen->file_name == env->file_name && !env->context;
}

gboolean
sl_template_memo_same (SlTemplateMemo *m, const SlMessage *msg, const SlTemplateEnv *env)
{
  guint reads = m->reads;
  if (!env)
    env = &sl_template_env_default;
  if (m->valid && memo_env_same (&m->env, env)
      && (!(reads & SL_MACRO_READS_STAMP) || memo_time_same (m->span, &m->stamp, &msg->stamp))
      && (!(reads & SL_MACRO_READS_RECVD) || memo_time_same (m->span, &m->recvd, &msg->recvd))
      && (!(reads & SL_MACRO_READS_PRI) || m->pri == msg->pri)
      && (!(reads & SL_MACRO_READS_SOURCE) || m->source == msg->source)
      && memo_fields_same (m, msg))
    return TRUE;
  return memo_record (m, msg, env);
}

SlHandle
sl_template_single_field (const SlTemplate *t)
{
  if (t->n_elems != 1 || t->elems[0].kind != ELEM_FIELD || t->elems[0].fallback || t->elems[0].msg_ref)
    return SL_F_NONE;
  return t->elems[0].field;
}

void
sl_template_set_type_hint (SlTemplate *t, SlValueType type)
{
  t->hinted = TRUE;
  t->hint = type;
}

/* The type of what a template that is not one field renders: one
 * function call's, else a string's. */
static SlValueType
rendered_type (const SlTemplate *t)
{
  if (t->n_elems == 1 && t->elems[0].kind == ELEM_CALL)
    return t->elems[0].call->type;
  return SL_VALUE_STRING;
}

const gchar *
sl_template_peek_typed (const SlTemplate *t, const SlMessage *msg, gsize *len, SlValueType *type)
{
  SlValueType own = SL_VALUE_STRING;
  const gchar *value;
  SlHandle field = sl_template_single_field (t);
  if (field != SL_F_NONE)
    {
      value = sl_message_get_typed (msg, field, len, &own);
      if (!value)
        {
          value = "";
          *len = 0;
          own = SL_VALUE_NULL;
        }
    }
  else
    {
      value = sl_template_peek (t, msg, len);
      own = rendered_type (t);
    }
  *type = t->hinted ? t->hint : own;
  return value;
}

SlValueType
sl_template_append_typed (const SlTemplate *t, const SlMessage *msg, GString *out)
{
  if (sl_template_single_field (t) != SL_F_NONE)
    {
      gsize len;
      SlValueType type;
      const gchar *value = sl_template_peek_typed (t, msg, &len, &type);
      g_string_append_len (out, value, len);
      return type;
    }
  sl_template_append (t, msg, &sl_template_env_default, out);
  return t->hinted ? t->hint : rendered_type (t);
}

/* Filters and rewrites read rendered values on every message; one buffer
 * per thread keeps that free of allocations once it has grown. */
static GPrivate peek_scratch = SL_SCRATCH_INIT;

const gchar *
sl_template_peek (const SlTemplate *t, const SlMessage *msg, gsize *len)
{
  SlHandle field = sl_template_single_field (t);
  if (field != SL_F_NONE)
    {
      const gchar *value = sl_message_get (msg, field, len);
      return value ? value : "";
    }
  if (t->n_elems <= 1 && t->literal)
    {
      *len = t->n_elems ? t->elems[0].literal.len : 0;
      return t->n_elems ? t->literals + t->elems[0].literal.offset : "";
    }
  GString *scratch = sl_scratch_get (&peek_scratch);
  sl_template_append (t, msg, &sl_template_env_default, scratch);
  *len = scratch->len;
  return scratch->str;
}
