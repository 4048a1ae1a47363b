/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* rsyslog's statements read into Sluice's tree.
 *
 * rsyslog runs a ruleset's statements in order, each action under the
 * conditions around it, until one says stop. Sluice's tree says the same
 * with nested paths: every action is a `log { filter {...}; destination();
 * };` whose filter joins the enclosing conditions, every stop a nested
 * path of those conditions with flags(final), which keeps the message from
 * every later sibling. A statement that changes the message (a parser, a
 * set) opens a nested path the rest of the ruleset goes into, so what
 * comes after sees the change. Each construct is written as Sluice text,
 * parsed by the syslog-ng grammar and placed at the rsyslog position it
 * came from, so errors found later still name the rsyslog line. */
#include "daemon/rsyslog/rsyslog.h"
#include "daemon/rsyslog/rsyslog-private.h"

#include "core/config/error.h"
#include "core/config/parser.h"
#include "core/i18n.h"

#include <glob.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_RULESET "RSYSLOG_DefaultRuleset"
#define MAX_INCLUDE_DEPTH 16

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SlCfgNode, sl_cfg_node_free)

typedef struct _SlRsRuleset
{
  SlCfgNode *log;      /* the ruleset's items */
  SlCfgNode *current;  /* where the next item goes: log or a nested path in it */
  SlCfgPos pos;
} SlRsRuleset;

static gboolean read_statement (SlRsReader *r, gboolean top);
static gboolean read_files (SlRsConf *c, const gchar *pattern, SlCfgPos from, GError **error);
static gboolean read_action (SlRsReader *r);

/* Reading */

/* `( name="value" name=["a", "b"] ... )`, the lexer on the '(' */
static GPtrArray *
read_params (SlRsReader *r)
{
  g_autoptr (GPtrArray) params = sl_rs_params_new ();

  if (!sl_rs_expect_char (r, '(', "'('"))
    return NULL;
  for (;;)
    {
      sl_rs_lexer_skip_blanks (&r->lx, TRUE);
      if (sl_rs_lexer_peek (&r->lx, 0) == ')')
        {
          sl_rs_lexer_advance (&r->lx, 1);
          return g_steal_pointer (&params);
        }
      SlRsParam *param = g_new0 (SlRsParam, 1);
      param->pos = sl_rs_lexer_pos (&r->lx);
      g_ptr_array_add (params, param);
      gchar *name = sl_rs_lexer_read_word (&r->lx, ".-");
      if (!name)
        {
          sl_rs_fail (r, param->pos, _("%s was expected here"), _("a parameter name or ')'"));
          return NULL;
        }
      param->name = g_ascii_strdown (name, -1);
      g_free (name);
      if (!sl_rs_expect_char (r, '=', "'='"))
        return NULL;
      sl_rs_lexer_skip_blanks (&r->lx, TRUE);
      if (sl_rs_lexer_peek (&r->lx, 0) == '[')
        {
          GString *joined = g_string_new (NULL);
          GPtrArray *items = g_ptr_array_new_with_free_func (g_free);

          sl_rs_lexer_advance (&r->lx, 1);
          for (;;)
            {
              gchar *item = NULL;

              sl_rs_lexer_skip_blanks (&r->lx, TRUE);
              if (sl_rs_lexer_peek (&r->lx, 0) == ']')
                break;
              if (!sl_rs_read_plain_value (r, &item))
                {
                  g_string_free (joined, TRUE);
                  g_ptr_array_unref (items);
                  return NULL;
                }
              g_string_append_printf (joined, "%s%s", joined->len ? "," : "", item);
              g_ptr_array_add (items, item);
              sl_rs_lexer_skip_blanks (&r->lx, TRUE);
              if (sl_rs_lexer_peek (&r->lx, 0) == ',')
                sl_rs_lexer_advance (&r->lx, 1);
            }
          sl_rs_lexer_advance (&r->lx, 1);
          param->value = g_string_free (joined, FALSE);
          g_ptr_array_add (items, NULL);
          param->items = (gchar **) g_ptr_array_free (items, FALSE);
        }
      else if (!sl_rs_read_plain_value (r, &param->value))
        return NULL;
    }
}

/* Rulesets and the conditions around a statement */

static SlRsRuleset *
ruleset_get (SlRsConf *c, const gchar *name, SlCfgPos pos)
{
  SlRsRuleset *set = g_hash_table_lookup (c->rulesets, name);

  if (!set)
    {
      set = g_new0 (SlRsRuleset, 1);
      set->log = sl_cfg_node_new ("log", pos);
      set->log->has_body = TRUE;
      set->current = set->log;
      set->pos = pos;
      g_hash_table_insert (c->rulesets, g_strdup (name), set);
    }
  return set;
}

static void
ruleset_free (SlRsRuleset *set)
{
  sl_cfg_node_free (set->log);
  g_free (set);
}

static gchar *
condition_text (SlRsConf *c)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < c->conditions->len; i++)
    g_string_append_printf (out, "%s(%s)", i ? " and " : "", (const gchar *) g_ptr_array_index (c->conditions, i));
  return g_string_free (out, FALSE);
}

/* A nested path of the current conditions holding items. */
/* config.enabled, which every object takes: rsyslogd leaves the object
 * out unless its value is "on" (lower case, as rsyslogd 8.2302 compares
 * it; `echo $ENABLE_X` often gives it). The parameter is taken out of
 * params. Leaving out a template or ruleset, whose body follows, is
 * refused. */
static gboolean
config_enabled (SlRsReader *r, GPtrArray *params, const gchar *word, gboolean *enabled)
{
  const SlRsParam *param = sl_rs_param_find (params, "config.enabled");

  *enabled = TRUE;
  if (!param)
    return TRUE;
  *enabled = g_str_equal (param->value, "on");
  if (!*enabled && (g_ascii_strcasecmp (word, "template") == 0 || g_ascii_strcasecmp (word, "ruleset") == 0))
    return sl_rs_fail (r, param->pos, _("config.enabled=\"%s\" of rsyslog's %s() is not supported"), param->value,
                       word);
  g_ptr_array_remove (params, (gpointer) param);
  return TRUE;
}

static gboolean
add_rule (SlRsReader *r, SlCfgPos pos, const gchar *items)
{
  g_autofree gchar *cond = condition_text (r->c);
  g_autofree gchar *text = *cond ? g_strdup_printf ("log { filter { %s; }; %s };", cond, items)
                                 : g_strdup_printf ("log { %s };", items);

  return sl_rs_emit_log_items (pos, r->c->ruleset->current, text, r->error);
}

/* A change of the message: what follows in the ruleset sees it. */
static gboolean
add_change (SlRsReader *r, SlCfgPos pos, const gchar *items)
{
  SlRsRuleset *set = r->c->ruleset;
  g_autofree gchar *cond = condition_text (r->c);
  g_autofree gchar *text = *cond ? g_strdup_printf ("log { if (%s) { %s }; };", cond, items)
                                 : g_strdup_printf ("log { %s };", items);

  if (!sl_rs_emit_log_items (pos, set->current, text, r->error))
    return FALSE;
  set->current = g_ptr_array_index (set->current->children, set->current->children->len - 1);
  return TRUE;
}

/* gate: what a message passes before the action, or NULL */
static gboolean
add_destination (SlRsReader *r, SlCfgPos pos, gchar *name, const gchar *gate)
{
  if (!name)
    return FALSE;
  g_autofree gchar *items = g_strdup_printf ("%s%sdestination(%s);", gate ? gate : "", gate ? " " : "", name);
  g_free (name);
  /* legacy $ActionQueue* settings are for the one action after them */
  g_clear_pointer (&r->c->action_queue, g_ptr_array_unref);
  g_clear_pointer (&r->c->action_queue_params, g_ptr_array_unref);
  return add_rule (r, pos, items);
}

/* Statements */

static gboolean
with_condition (SlRsReader *r, gchar *condition, gboolean (*body) (SlRsReader *))
{
  gboolean ok;

  g_ptr_array_add (r->c->conditions, condition);
  ok = body (r);
  g_ptr_array_remove_index (r->c->conditions, r->c->conditions->len - 1);
  return ok;
}

static gboolean
read_block (SlRsReader *r)
{
  sl_rs_lexer_advance (&r->lx, 1);
  for (;;)
    {
      sl_rs_lexer_skip_blanks (&r->lx, TRUE);
      gchar ch = sl_rs_lexer_peek (&r->lx, 0);
      if (ch == '}')
        {
          sl_rs_lexer_advance (&r->lx, 1);
          return TRUE;
        }
      if (!ch)
        return sl_rs_fail (r, sl_rs_lexer_pos (&r->lx), _("%s was expected here"), "'}'");
      if (!read_statement (r, FALSE))
        return FALSE;
    }
}

/* `if EXPR then STATEMENT [else STATEMENT]`, after the if */
static gboolean
read_if (SlRsReader *r)
{
  g_autofree gchar *cond = NULL;

  if (!sl_rs_read_condition (r, &cond))
    return FALSE;
  sl_rs_lexer_skip_blanks (&r->lx, TRUE);
  if (!sl_rs_lexer_take_word (&r->lx, "then"))
    return sl_rs_fail (r, sl_rs_lexer_pos (&r->lx), _("%s was expected here"), "'then'");
  if (!with_condition (r, g_strdup (cond), read_action))
    return FALSE;
  SlRsLexer after = r->lx;
  sl_rs_lexer_skip_blanks (&r->lx, TRUE);
  if (!sl_rs_lexer_take_word (&r->lx, "else"))
    {
      r->lx = after;
      return TRUE;
    }
  return with_condition (r, g_strdup_printf ("not (%s)", cond), read_action);
}

/* `call NAME`: rsyslog lets a ruleset be called before it is defined, so
 * the call leaves an empty nested path where the rules go once everything
 * is read (resolve_call) */
typedef struct
{
  SlCfgNode *placeholder;
  SlCfgNode *container;
  SlRsRuleset *caller;
  gchar *ruleset;
  gchar *condition;
  SlCfgPos pos;
  gboolean resolving, resolved;
} SlRsRulesetCall;

static void
call_free (SlRsRulesetCall *call)
{
  g_free (call->ruleset);
  g_free (call->condition);
  g_free (call);
}

static gboolean
read_call_statement (SlRsReader *r, SlCfgPos pos)
{
  sl_rs_lexer_skip_blanks (&r->lx, FALSE);
  g_autofree gchar *name = sl_rs_lexer_read_word (&r->lx, "-.");

  if (!name)
    return sl_rs_fail (r, pos, _("%s was expected here"), _("the name of a ruleset after 'call'"));
  SlRsRulesetCall *call = g_new0 (SlRsRulesetCall, 1);
  call->placeholder = sl_cfg_node_new ("log", pos);
  call->placeholder->has_body = TRUE;
  call->container = r->c->ruleset->current;
  call->caller = r->c->ruleset;
  call->ruleset = g_steal_pointer (&name);
  call->condition = condition_text (r->c);
  call->pos = pos;
  sl_cfg_node_add_child (call->container, call->placeholder);
  g_ptr_array_add (r->c->calls, call);
  return TRUE;
}

/* The called ruleset's rules, each under the call's conditions, become
 * siblings of the caller's in the placeholder's place: a stop in them
 * ends the message's way, as rsyslog's does. The calls the called ruleset
 * makes are resolved first. */
static gboolean
resolve_call (SlRsConf *c, SlRsRulesetCall *call, GError **error)
{
  SlRsRuleset *set = g_hash_table_lookup (c->rulesets, call->ruleset);

  if (call->resolved)
    return TRUE;
  if (!set)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_REFERENCE, call->pos, _("there is no ruleset named '%s'"), call->ruleset);
      return FALSE;
    }
  if (call->resolving)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_REFERENCE, call->pos, _("the ruleset '%s' calls itself, through the rulesets it calls"), call->ruleset);
      return FALSE;
    }
  call->resolving = TRUE;
  for (guint i = 0; i < c->calls->len; i++)
    {
      SlRsRulesetCall *inner = g_ptr_array_index (c->calls, i);
      if (inner->caller == set && !resolve_call (c, inner, error))
        return FALSE;
    }

  guint at;
  if (!g_ptr_array_find (call->container->children, call->placeholder, &at))
    g_assert_not_reached ();
  g_autoptr (SlCfgNode) copies = sl_cfg_node_new ("log", call->pos);
  for (guint i = 0; i < set->log->children->len; i++)
    {
      g_autofree gchar *rule = sl_cfg_node_to_string (g_ptr_array_index (set->log->children, i));
      if (!sl_rs_emit_log_items (call->pos, copies, rule, error))
        return FALSE;
      if (!*call->condition)
        continue;
      g_autofree gchar *filter = g_strdup_printf ("filter { %s; };", call->condition);
      g_autoptr (SlCfgNode) wrapper = sl_cfg_node_new ("log", call->pos);
      if (!sl_rs_emit_log_items (call->pos, wrapper, filter, error))
        return FALSE;
      SlCfgNode *copy = g_ptr_array_index (copies->children, copies->children->len - 1);
      g_ptr_array_insert (copy->children, 0, g_ptr_array_steal_index (wrapper->children, 0));
    }
  g_ptr_array_remove_index (call->container->children, at);
  for (guint i = 0; i < copies->children->len; i++)
    g_ptr_array_insert (call->container->children, (gint) (at + i), g_ptr_array_index (copies->children, i));
  g_ptr_array_set_free_func (copies->children, NULL);
  call->resolved = TRUE;
  return TRUE;
}

static gboolean
resolve_calls (SlRsConf *c, GError **error)
{
  for (guint i = 0; i < c->calls->len; i++)
    if (!resolve_call (c, g_ptr_array_index (c->calls, i), error))
      return FALSE;
  return TRUE;
}

/* set, reset and unset of a variable; unset takes its members too, as
 * rsyslogd removes a whole subtree */
static gboolean
read_set (SlRsReader *r, SlCfgPos pos, gboolean unset)
{
  sl_rs_lexer_skip_blanks (&r->lx, FALSE);
  SlCfgPos var_pos = sl_rs_lexer_pos (&r->lx);
  gchar kind = sl_rs_lexer_peek (&r->lx, 1);
  if (sl_rs_lexer_peek (&r->lx, 0) != '$' || !kind || !strchr ("!./", kind))
    return sl_rs_fail (r, var_pos, _("%s was expected here"), _("a variable such as $!name"));
  sl_rs_lexer_advance (&r->lx, 2);
  g_autofree gchar *rest = sl_rs_lexer_read_word (&r->lx, "-!.");
  /* unset $!; clears the whole tree, as in rsyslogd */
  if (!rest && !(unset && sl_rs_lexer_peek (&r->lx, 0) == ';'))
    return sl_rs_fail (r, var_pos, _("%s was expected here"), _("a variable such as $!name"));
  g_autofree gchar *variable = g_strdup_printf ("$%c%s", kind, rest ? rest : "");
  g_autofree gchar *name = sl_rs_variable_field (variable);
  g_autofree gchar *quoted_name = sl_rs_quoted (name);
  g_autofree gchar *items = NULL;
  if (unset)
    {
      /* rsyslogd's names ignore case: rsyslog-unset() finds the spelling */
      items = g_strdup_printf ("parser { rsyslog-unset(variable(%s)); };", quoted_name);
    }
  else
    {
      g_autofree gchar *tmpl = NULL;

      if (!sl_rs_expect_char (r, '=', "'='"))
        return FALSE;
      sl_rs_lexer_skip_blanks (&r->lx, TRUE);
      SlCfgPos value_pos = sl_rs_lexer_pos (&r->lx);
      SlRsLexer start = r->lx;
      g_autofree gchar *word = sl_rs_lexer_read_word (&r->lx, "");
      sl_rs_lexer_skip_blanks (&r->lx, TRUE);
      if (word && g_ascii_strcasecmp (word, "parse_json") == 0 && sl_rs_lexer_peek (&r->lx, 0) == '(')
        {
          if (!sl_rs_read_parse_json (r, value_pos, name, &items))
            return FALSE;
        }
      else
        {
          gboolean numeric;
          r->lx = start;
          if (!sl_rs_read_set_value (r, &tmpl, &numeric))
            return FALSE;
          g_autofree gchar *quoted = sl_rs_quoted (tmpl);
          items = g_strdup_printf ("parser { rsyslog-set(template(%s) variable(%s)%s); };", quoted, quoted_name,
                                   numeric ? " number(yes)" : "");
        }
    }
  if (!sl_rs_expect_char (r, ';', "';'"))
    return FALSE;
  return add_change (r, pos, items);
}

/* `foreach ($.i in EXPR) do STATEMENT`, after the foreach: a nested path
 * whose rsyslog-foreach() sends a copy of the message through STATEMENT
 * per element of the array, each with $.i set, and no further (final);
 * the message itself goes on to what follows the loop. A stop in the
 * loop would end only one copy's way, where rsyslogd ends the message's:
 * it is refused. */
static gboolean
read_foreach (SlRsReader *r, SlCfgPos pos)
{
  if (!sl_rs_expect_char (r, '(', "'('"))
    return FALSE;
  sl_rs_lexer_skip_blanks (&r->lx, TRUE);
  SlCfgPos var_pos = sl_rs_lexer_pos (&r->lx);
  if (sl_rs_lexer_peek (&r->lx, 0) != '$' || sl_rs_lexer_peek (&r->lx, 1) != '.')
    return sl_rs_fail (r, var_pos, _("%s was expected here"), _("a local variable such as $.i"));
  sl_rs_lexer_advance (&r->lx, 2);
  g_autofree gchar *rest = sl_rs_lexer_read_word (&r->lx, "-!.");
  if (!rest)
    return sl_rs_fail (r, var_pos, _("%s was expected here"), _("a local variable such as $.i"));
  g_autofree gchar *variable = g_strconcat ("$.", rest, NULL);
  g_autofree gchar *field = sl_rs_variable_field (variable);
  g_autofree gchar *array = NULL;
  sl_rs_lexer_skip_blanks (&r->lx, TRUE);
  if (!sl_rs_lexer_take_word (&r->lx, "in"))
    return sl_rs_fail (r, sl_rs_lexer_pos (&r->lx), _("%s was expected here"), "'in'");
  if (!sl_rs_read_expr_value (r, &array) || !sl_rs_expect_char (r, ')', "')'"))
    return FALSE;
  sl_rs_lexer_skip_blanks (&r->lx, TRUE);
  if (!sl_rs_lexer_take_word (&r->lx, "do"))
    return sl_rs_fail (r, sl_rs_lexer_pos (&r->lx), _("%s was expected here"), "'do'");

  SlRsRuleset *set = r->c->ruleset;
  g_autofree gchar *cond = condition_text (r->c);
  g_autofree gchar *quoted_array = sl_rs_quoted (array);
  g_autofree gchar *quoted_field = sl_rs_quoted (field);
  g_autofree gchar *filter = *cond ? g_strdup_printf ("filter { %s; }; ", cond) : g_strdup ("");
  g_autofree gchar *text = g_strdup_printf ("log { %sparser { rsyslog-foreach(template(%s) variable(%s)); }; "
                                            "flags(final); };", filter, quoted_array, quoted_field);
  if (!sl_rs_emit_log_items (pos, set->current, text, r->error))
    return FALSE;
  SlCfgNode *outer = set->current;
  set->current = g_ptr_array_index (outer->children, outer->children->len - 1);
  r->c->foreach_depth++;
  gboolean ok = read_action (r);
  r->c->foreach_depth--;
  set->current = outer;
  return ok;
}

/* The template of mmjsonparse's $!msg for a message that is none of its
 * JSON: the text from its first non-blank, after the cookie when it
 * starts with it (whose JSON did not parse), as rsyslogd 8.2302 keeps it.
 * NULL when the cookie holds a character the pattern cannot carry. */
static gchar *
unparsed_msg_template (const gchar *cookie)
{
  GString *re = g_string_new ("[[:space:]]*");

  if (*cookie)
    g_string_append_c (re, '(');
  for (const gchar *p = cookie; *p; p++)
    {
      if (strchr ("\\^]\"$%", *p))
        {
          g_string_free (re, TRUE);
          return NULL;
        }
      /* a character ERE gives a meaning to, as itself in brackets */
      g_string_append_printf (re, strchr (".[()*+?{}|", *p) ? "[%c]" : "%c", *p);
    }
  g_string_append (re, *cookie ? ")?(.*)" : "(.*)");
  gchar *text = g_strdup_printf ("$(rsyslog-property \\\"ere,submatch=%d,nomatch=BLANK\\\" \\\"\\\" \\\"%s\\\" "
                                 "$(rsyslog-msg ${MSGHDR}${MESSAGE}))", *cookie ? 2 : 1, re->str);
  g_string_free (re, TRUE);
  return text;
}

/* What a filter, then or else is followed by: one action, or a block. */
static gboolean
read_action (SlRsReader *r)
{
  sl_rs_lexer_skip_blanks (&r->lx, TRUE);
  SlCfgPos pos = sl_rs_lexer_pos (&r->lx);
  gchar ch = sl_rs_lexer_peek (&r->lx, 0);

  if (ch == '{')
    return read_block (r);
  if (ch == '~' || sl_rs_lexer_take_word (&r->lx, "stop"))
    {
      if (r->c->foreach_depth)
        return sl_rs_fail (r, pos, "%s", _("a stop inside foreach is not supported: Sluice's loop runs a copy of "
                                           "the message per element, and rsyslogd's stop ends the message"));
      sl_rs_lexer_advance (&r->lx, ch == '~' ? 1 : 0);
      return add_rule (r, pos, "flags(final);");
    }
  if (sl_rs_lexer_take_word (&r->lx, "foreach"))
    return read_foreach (r, pos);
  if (sl_rs_lexer_take_word (&r->lx, "continue"))
    return TRUE;
  if (sl_rs_lexer_take_word (&r->lx, "call"))
    return read_call_statement (r, pos);
  if (sl_rs_lexer_take_word (&r->lx, "set") || sl_rs_lexer_take_word (&r->lx, "reset"))
    return read_set (r, pos, FALSE);
  if (sl_rs_lexer_take_word (&r->lx, "unset"))
    return read_set (r, pos, TRUE);
  if (sl_rs_lexer_take_word (&r->lx, "if"))
    return read_if (r);
  if (sl_rs_lexer_take_word (&r->lx, "action"))
    {
      g_autoptr (GPtrArray) params = read_params (r);
      gboolean is_parser = FALSE;
      gboolean enabled = TRUE;

      if (!params || !config_enabled (r, params, "action", &enabled))
        return FALSE;
      if (!enabled)
        return TRUE;
      gchar *name = sl_rs_action_object (r->c, params, pos, &is_parser, r->error);
      if (!name || !is_parser)
        {
          /* the action runs for a message at most once every so many
           * seconds; the others pass it by */
          const SlRsParam *once = sl_rs_param_find (params, "action.execonlyonceeveryinterval");
          g_autofree gchar *gate = once && g_ascii_strtoll (once->value, NULL, 10) > 0
                                   ? g_strdup_printf ("filter { rate-limit(rate(1) period(%" G_GINT64_FORMAT ")); };",
                                                      g_ascii_strtoll (once->value, NULL, 10))
                                   : NULL;
          return add_destination (r, pos, name, gate);
        }
      /* a message modifier passes on what it cannot parse, unchanged;
       * mmjsonparse keeps the message's text as $!msg */
      gboolean json = g_str_has_prefix (name + strlen (r->c->prefix) + 1, SL_RS_JSON_PARSER);
      const SlRsParam *cookie = json ? sl_rs_param_find (params, "cookie") : NULL;
      g_autofree gchar *unparsed = json ? unparsed_msg_template (cookie ? cookie->value : "@cee:") : NULL;
      if (json && !unparsed)
        {
          g_free (name);
          return sl_rs_fail (r, cookie->pos, "%s",
                             _("an mmjsonparse cookie with a backslash, ^, ], a double quote, $ or a percent sign is not supported"));
        }
      g_autofree gchar *items = json
                                  ? g_strdup_printf ("if { parser(%s); } else { rewrite { set(\"%s\" value(\"!msg\")); }; };",
                                                     name, unparsed)
                                  : g_strdup_printf ("junction { channel { parser(%s); flags(final); }; "
                                                     "channel { flags(final); }; };", name);
      g_free (name);
      if (sl_rs_param_find (params, "action.execonlyonceeveryinterval"))
        return sl_rs_fail (r, sl_rs_param_find (params, "action.execonlyonceeveryinterval")->pos, "%s",
                           _("action.execOnlyOnceEveryInterval on a message modifier is not supported: Sluice "
                             "parses every message a parser is given"));
      return add_change (r, pos, items);
    }
  if (ch == '/' || ch == '-' || ch == '?' || ch == '@' || ch == '|' || ch == ':' || ch == '*'
      || g_ascii_isalpha (ch))
    {
      g_autofree gchar *text = sl_rs_lexer_read_until_blank (&r->lx, "}");
      /* rsyslogd takes blanks before the ;template (Logz.io's nginx snippet) */
      guint blanks = 0;
      while (sl_rs_lexer_peek (&r->lx, blanks) == ' ' || sl_rs_lexer_peek (&r->lx, blanks) == '\t')
        blanks++;
      gchar after = sl_rs_lexer_peek (&r->lx, blanks);
      if (blanks && after && !strchr (";\r\n#}", after))
        return sl_rs_fail (r, sl_rs_lexer_pos (&r->lx), "%s",
                           _("only ';template' may follow a legacy action on its line, as rsyslogd requires"));
      if (blanks && after == ';')
        {
          sl_rs_lexer_advance (&r->lx, blanks);
          g_autofree gchar *rest = sl_rs_lexer_read_until_blank (&r->lx, "}");
          gchar *joined = g_strconcat (text, rest, NULL);
          g_free (text);
          text = joined;
        }
      if (g_ascii_strcasecmp (text, ":mmnormalize:") == 0)
        {
          g_autofree gchar *name = sl_rs_legacy_mmnormalize (r->c, pos, r->error);
          g_autofree gchar *items = name ? g_strdup_printf ("parser(%s);", name) : NULL;
          return items && add_change (r, pos, items);
        }
      return add_destination (r, pos, sl_rs_legacy_action (r->c, text, pos, r->error), NULL);
    }
  return sl_rs_fail (r, pos, _("%s was expected here"), _("an rsyslog action"));
}

/* `:property, [!]operation, "value" ACTION` */
static gboolean
read_property_filter (SlRsReader *r, SlCfgPos pos)
{
  sl_rs_lexer_advance (&r->lx, 1);
  sl_rs_lexer_skip_blanks (&r->lx, FALSE);
  g_autofree gchar *property = sl_rs_lexer_read_word (&r->lx, "-!.$");
  if (!property)
    return sl_rs_fail (r, pos, _("%s was expected here"), _("':property, operation, \"value\"'"));
  if (!sl_rs_expect_char (r, ',', "','"))
    return FALSE;
  sl_rs_lexer_skip_blanks (&r->lx, FALSE);
  gboolean negate = sl_rs_lexer_peek (&r->lx, 0) == '!';
  if (negate)
    sl_rs_lexer_advance (&r->lx, 1);
  SlCfgPos op_pos = sl_rs_lexer_pos (&r->lx);
  g_autofree gchar *op = sl_rs_lexer_read_word (&r->lx, "-");
  g_autofree gchar *value = NULL;
  if (!op)
    return sl_rs_fail (r, op_pos, _("%s was expected here"), _("a compare operation"));
  if (!sl_rs_expect_char (r, ',', "','"))
    return FALSE;
  sl_rs_lexer_skip_blanks (&r->lx, FALSE);
  if (sl_rs_lexer_peek (&r->lx, 0) != '"' || !sl_rs_lexer_read_string (&r->lx, &value, r->error))
    {
      if (r->error && *r->error)
        return FALSE;
      return sl_rs_fail (r, sl_rs_lexer_pos (&r->lx), _("%s was expected here"), _("a value in double quotes"));
    }
  g_autoptr (GString) tmpl = g_string_new (NULL);
  g_autoptr (GString) filter = g_string_new (NULL);
  if (!sl_rs_property_value (property, pos, tmpl, r->error)
      || !sl_rs_compare_filter (tmpl->str, op, negate, value, op_pos, filter, r->error))
    return FALSE;
  g_free (r->c->last_filter);
  r->c->last_filter = g_strdup (filter->str);
  return with_condition (r, g_strdup (filter->str), read_action);
}

static gboolean
read_selector (SlRsReader *r, SlCfgPos pos)
{
  g_autofree gchar *selector = sl_rs_lexer_read_until_blank (&r->lx, "{");
  g_autoptr (GString) filter = g_string_new (NULL);

  if (!sl_rs_selector_filter (selector, pos, filter, r->error))
    return FALSE;
  g_free (r->c->last_filter);
  r->c->last_filter = g_strdup (filter->str);
  if (!filter->len)
    return read_action (r);
  return with_condition (r, g_strdup (filter->str), read_action);
}

/* A list template's constant(): its value, or for format="jsonf" the
 * "outname": "value" rsyslogd cuts out of json-c's text of an object */
static gboolean
read_template_constant (SlRsReader *r, GPtrArray *item, SlCfgPos pos, GString *entry)
{
  const SlRsParam *value = sl_rs_param_find (item, "value");
  const SlRsParam *outname = sl_rs_param_find (item, "outname");
  const SlRsParam *format = sl_rs_param_find (item, "format");
  g_autoptr (GString) text = g_string_new (NULL);

  for (guint i = 0; i < item->len; i++)
    {
      const SlRsParam *p = g_ptr_array_index (item, i);
      if (!g_str_equal (p->name, "value") && !g_str_equal (p->name, "outname") && !g_str_equal (p->name, "format"))
        {
          sl_cfg_error_set (r->error, SL_CFG_ERROR_UNKNOWN, p->pos,
                            _("the parameter '%s' of rsyslog's constant() is not supported"), p->name);
          return FALSE;
        }
    }
  if (!value)
    return sl_rs_fail (r, pos, "%s", _("an rsyslog constant() needs value="));
  if (format && !g_str_equal (format->value, "jsonf"))
    {
      sl_cfg_error_set (r->error, SL_CFG_ERROR_VALUE, format->pos, _("'%s' is not a format of rsyslog's constant()"),
                        format->value);
      return FALSE;
    }
  if (format && !outname)
    return sl_rs_fail (r, pos, "%s", _("an rsyslog constant() of format jsonf needs outname="));
  if (format)
    {
      sl_rs_json_string (text, outname->value);
      g_string_append (text, ": ");
      sl_rs_json_string (text, value->value);
    }
  else
    g_string_append (text, value->value);
  for (const gchar *p = text->str; *p; p++)
    g_string_append (entry, *p == '$' ? "$$" : (gchar[]) { *p, 0 });
  return TRUE;
}

static const struct
{
  const gchar *param;
  guint option;
} template_options[] = {
  { "option.json", SL_RS_TPL_JSON }, { "option.sql", SL_RS_TPL_SQL }, { "option.stdsql", SL_RS_TPL_STDSQL },
  { "option.jsonf", SL_RS_TPL_JSONF }, { "option.casesensitive", SL_RS_TPL_CASESENSITIVE },
};

static gboolean
read_template_object (SlRsReader *r, GPtrArray *params, SlCfgPos pos)
{
  const SlRsParam *name = sl_rs_param_find (params, "name");
  const SlRsParam *type = sl_rs_param_find (params, "type");
  guint options = 0;

  if (!name || !type)
    return sl_rs_fail (r, pos, "%s", _("an rsyslog template() needs name= and type="));
  for (guint i = 0; i < params->len; i++)
    {
      const SlRsParam *p = g_ptr_array_index (params, i);
      gboolean known = g_str_equal (p->name, "name") || g_str_equal (p->name, "type")
                       || g_str_equal (p->name, "string") || g_str_equal (p->name, "subtree");

      for (guint o = 0; o < G_N_ELEMENTS (template_options); o++)
        if (g_str_equal (p->name, template_options[o].param))
          {
            known = TRUE;
            if (sl_rs_is_true (p->value))
              options |= template_options[o].option;
          }
      if (!known)
        {
          sl_cfg_error_set (r->error, SL_CFG_ERROR_UNKNOWN, p->pos,
                            _("the parameter '%s' of rsyslog's template() is not supported"), p->name);
          return FALSE;
        }
    }
  if (g_ascii_strcasecmp (type->value, "string") == 0)
    {
      const SlRsParam *string = sl_rs_param_find (params, "string");
      if (!string)
        return sl_rs_fail (r, pos, "%s", _("an rsyslog template of type string needs string="));
      return sl_rs_template_define (r->c, name->value, string->value, options, pos, r->error);
    }
  if (g_ascii_strcasecmp (type->value, "subtree") == 0)
    {
      sl_cfg_error_set (r->error, SL_CFG_ERROR_UNKNOWN, type->pos, "%s",
                        _("rsyslog templates of type subtree are not supported: rsyslogd 8.2302 writes nothing "
                          "with them to a text output (its tplToString() leaves the length at 0)"));
      return FALSE;
    }
  if (g_ascii_strcasecmp (type->value, "list") != 0)
    {
      sl_cfg_error_set (r->error, SL_CFG_ERROR_UNKNOWN, type->pos,
                        _("rsyslog templates of type '%s' are not supported"), type->value);
      return FALSE;
    }
  if (!sl_rs_expect_char (r, '{', "'{'"))
    return FALSE;
  g_autoptr (GPtrArray) entries = g_ptr_array_new_with_free_func (g_free);
  for (;;)
    {
      sl_rs_lexer_skip_blanks (&r->lx, TRUE);
      SlCfgPos item_pos = sl_rs_lexer_pos (&r->lx);
      if (sl_rs_lexer_peek (&r->lx, 0) == '}')
        {
          sl_rs_lexer_advance (&r->lx, 1);
          break;
        }
      gboolean constant = sl_rs_lexer_take_word (&r->lx, "constant");
      if (!constant && !sl_rs_lexer_take_word (&r->lx, "property"))
        return sl_rs_fail (r, item_pos, _("%s was expected here"), _("constant(...), property(...) or '}'"));
      g_autoptr (GPtrArray) item = read_params (r);
      if (!item)
        return FALSE;
      g_autoptr (GString) entry = g_string_new (NULL);
      SlRsProperty prop = { 0 };
      gboolean ok = constant ? read_template_constant (r, item, item_pos, entry)
                             : sl_rs_property_params (item, &prop, item_pos, r->error)
                                 && sl_rs_template_property (&prop, options, item_pos, entry, r->error);
      sl_rs_property_clear (&prop);
      if (!ok)
        return FALSE;
      g_ptr_array_add (entries, g_string_free (g_steal_pointer (&entry), FALSE));
    }
  g_autofree gchar *text = sl_rs_template_join (entries, options);
  return sl_rs_template_define_sluice (r->c, name->value, text, pos, r->error);
}

static gboolean
read_ruleset (SlRsReader *r, GPtrArray *params, SlCfgPos pos)
{
  const SlRsParam *name = sl_rs_param_find (params, "name");

  if (!name)
    return sl_rs_fail (r, pos, "%s", _("an rsyslog ruleset() needs name="));
  for (guint i = 0; i < params->len; i++)
    {
      const SlRsParam *p = g_ptr_array_index (params, i);
      if (!g_str_equal (p->name, "name") && !g_str_has_prefix (p->name, "queue."))
        {
          sl_cfg_error_set (r->error, SL_CFG_ERROR_UNKNOWN, p->pos,
                            _("the parameter '%s' of rsyslog's ruleset() is not supported"), p->name);
          return FALSE;
        }
    }
  sl_rs_lexer_skip_blanks (&r->lx, TRUE);
  if (sl_rs_lexer_peek (&r->lx, 0) != '{')
    return sl_rs_fail (r, sl_rs_lexer_pos (&r->lx), _("%s was expected here"), "'{'");
  SlRsRuleset *saved = r->c->ruleset;
  GPtrArray *saved_conditions = r->c->conditions;
  r->c->ruleset = ruleset_get (r->c, name->value, pos);
  r->c->conditions = g_ptr_array_new_with_free_func (g_free);
  gboolean ok = read_block (r);
  g_ptr_array_unref (r->c->conditions);
  r->c->conditions = saved_conditions;
  r->c->ruleset = saved;
  return ok;
}

static gboolean
read_object (SlRsReader *r, const gchar *word, SlCfgPos pos)
{
  g_autoptr (GPtrArray) params = read_params (r);
  gboolean enabled = TRUE;

  if (!params || !config_enabled (r, params, word, &enabled))
    return FALSE;
  if (!enabled)
    return TRUE;
  if (g_ascii_strcasecmp (word, "module") == 0)
    return sl_rs_module (r->c, params, pos, r->error);
  if (g_ascii_strcasecmp (word, "input") == 0)
    return sl_rs_input (r->c, params, pos, r->error);
  if (g_ascii_strcasecmp (word, "template") == 0)
    return read_template_object (r, params, pos);
  if (g_ascii_strcasecmp (word, "lookup_table") == 0)
    return sl_rs_lookup_table (r->c, params, pos, r->error);
  if (g_ascii_strcasecmp (word, "ruleset") == 0)
    return read_ruleset (r, params, pos);
  if (g_ascii_strcasecmp (word, "include") == 0)
    {
      const SlRsParam *file = sl_rs_param_find (params, "file");
      const SlRsParam *mode = sl_rs_param_find (params, "mode");
      if (!file)
        return sl_rs_fail (r, pos, "%s", _("an rsyslog include() needs file="));
      if (mode && g_ascii_strcasecmp (mode->value, "optional") == 0 && !strpbrk (file->value, "*?[")
          && !g_file_test (file->value, G_FILE_TEST_EXISTS))
        return TRUE;
      return read_files (r->c, file->value, pos, r->error);
    }
  if (g_ascii_strcasecmp (word, "global") == 0 || g_ascii_strcasecmp (word, "main_queue") == 0)
    {
      for (guint i = 0; i < params->len; i++)
        {
          const SlRsParam *p = g_ptr_array_index (params, i);
          g_autofree gchar *text = NULL;
          if (g_str_equal (p->name, "maxmessagesize"))
            {
              if (!sl_rs_max_message_size (r->c, p->value, p->pos, r->error))
                return FALSE;
              continue;
            }
          /* the name of this host in local messages: rsyslogd's is
           * short unless preserveFQDN, or localHostName */
          else if (g_str_equal (p->name, "preservefqdn"))
            text = g_strdup_printf ("options { use-fqdn(%s); };", sl_rs_is_true (p->value) ? "yes" : "no");
          else if (g_str_equal (p->name, "localhostname"))
            {
              g_autofree gchar *quoted = sl_rs_quoted (p->value);
              text = g_strdup_printf ("options { local-hostname(%s); };", quoted);
            }
          /* whether a sender's address is resolved: use-dns() */
          else if (g_str_equal (p->name, "net.enabledns"))
            text = g_strdup_printf ("options { use-dns(%s); };", sl_rs_is_true (p->value) ? "yes" : "no");
          if (sl_rs_tls_setting (r->c, p->name, p->value))
            continue;
          gboolean taken = FALSE;
          if (!sl_rs_escape_setting (r->c, p->name, p->value, p->pos, &taken, r->error))
            return FALSE;
          if (taken)
            continue;
          if (g_str_has_prefix (p->name, "privdrop."))
            {
              if (!sl_rs_privileges (r->c, p->name, p->value, p->pos, r->error))
                return FALSE;
              continue;
            }
          /* rsyslogd's own messages through its rules, as Sluice's
           * through an internal() source of the default ruleset; off
           * (8.2302's default) hands them to syslog(3) */
          if (g_str_equal (p->name, "processinternalmessages"))
            {
              if (sl_rs_is_true (p->value) && !sl_rs_add_source (r->c, NULL, p->pos, "internal()", NULL, r->error))
                return FALSE;
              continue;
            }
          if (text)
            {
              if (!sl_rs_emit (r->c, p->pos, text, r->error))
                return FALSE;
            }
          else if (g_str_has_prefix (p->name, "queue.") && g_ascii_strcasecmp (word, "main_queue") == 0)
            {
              if (!sl_rs_main_queue_param (p, r->error))
                return FALSE;
            }
          else if (g_str_has_prefix (p->name, "queue.") || g_str_equal (p->name, "workdirectory"))
            continue;
          else
            {
              sl_cfg_error_set (r->error, SL_CFG_ERROR_UNKNOWN, p->pos,
                                _("the parameter '%s' of rsyslog's %s() is not supported"), p->name, word);
              return FALSE;
            }
        }
      return TRUE;
    }
  return sl_rs_fail (r, pos, _("the rsyslog object '%s()' is not supported"), word);
}

static const gchar *const objects[] = { "module", "input", "template", "ruleset", "include", "global", "main_queue",
                                        "lookup_table" };

static gboolean
read_statement (SlRsReader *r, gboolean top)
{
  SlCfgPos pos = sl_rs_lexer_pos (&r->lx);
  gchar ch = sl_rs_lexer_peek (&r->lx, 0);

  if (ch == '$' && g_ascii_isalpha (sl_rs_lexer_peek (&r->lx, 1)))
    {
      g_autofree gchar *line = sl_rs_lexer_read_line (&r->lx);
      if (!top)
        return sl_rs_fail (r, pos, "%s", _("an rsyslog $ directive is only allowed outside of blocks"));
      return sl_rs_directive (r->c, line, pos, r->error);
    }
  if (ch == ':')
    return read_property_filter (r, pos);
  if (ch == '&')
    {
      if (!r->c->last_filter)
        return sl_rs_fail (r, pos, "%s", _("'&' must follow a filter and its action"));
      sl_rs_lexer_advance (&r->lx, 1);
      if (!*r->c->last_filter)
        return read_action (r);
      return with_condition (r, g_strdup (r->c->last_filter), read_action);
    }
  SlRsLexer start = r->lx;
  g_autofree gchar *word = sl_rs_lexer_read_word (&r->lx, "");
  if (word)
    {
      sl_rs_lexer_skip_blanks (&r->lx, FALSE);
      for (guint i = 0; i < G_N_ELEMENTS (objects); i++)
        if (g_ascii_strcasecmp (word, objects[i]) == 0 && sl_rs_lexer_peek (&r->lx, 0) == '(')
          {
            if (!top)
              return sl_rs_fail (r, pos, _("the rsyslog object '%s()' is only allowed outside of blocks"), word);
            return read_object (r, word, pos);
          }
      if (g_ascii_strcasecmp (word, "reload_lookup_table") == 0)
        return sl_rs_fail (r, pos, "%s",
                           _("the RainerScript statement 'reload_lookup_table' is not supported: Sluice reads "
                             "lookup tables again when it reloads (SIGHUP, sluicectl reload), not for a message"));
      static const gchar *const unsupported[] = { "parser", "timezone", "dyn_stats", "percentile_stats", "property",
                                                  "unset_all" };
      for (guint i = 0; i < G_N_ELEMENTS (unsupported); i++)
        if (g_ascii_strcasecmp (word, unsupported[i]) == 0)
          return sl_rs_fail (r, pos, _("the RainerScript statement '%s' is not supported"), word);
    }
  r->lx = start;
  /* a selector starts with facility names: kern.*, auth,authpriv.* */
  gchar after = word ? sl_rs_lexer_peek (&r->lx, (guint) strlen (word)) : '\0';
  if (ch == '*' || after == '.' || after == ',')
    return read_selector (r, pos);
  return read_action (r);
}

/* Files */

static gboolean
read_text (SlRsConf *c, const gchar *path, const gchar *text, GError **error)
{
  SlRsReader r = { c, { 0 }, error };
  g_autoptr (GArray) marks = NULL;
  g_autofree gchar *joined = sl_rs_join_lines (text, &marks);

  sl_rs_lexer_init_joined (&r.lx, path, joined, marks);
  for (;;)
    {
      sl_rs_lexer_skip_blanks (&r.lx, TRUE);
      if (!sl_rs_lexer_peek (&r.lx, 0))
        return TRUE;
      if (!read_statement (&r, TRUE))
        return FALSE;
    }
}

static gboolean
read_file (SlRsConf *c, const gchar *path, SlCfgPos from, GError **error)
{
  g_autofree gchar *text = NULL;
  GError *inner = NULL;

  if (!g_file_get_contents (path, &text, NULL, &inner))
    {
      if (from.file)
        sl_cfg_error_set (error, SL_CFG_ERROR_INCLUDE, from, "%s", inner->message);
      else
        g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_INCLUDE, "%s", inner->message);
      g_error_free (inner);
      return FALSE;
    }
  sl_cfg_source_remember (sl_cfg_intern_file (path), text);
  if (c->depth >= MAX_INCLUDE_DEPTH)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_INCLUDE, from, _("rsyslog includes nest deeper than %d files"),
                        MAX_INCLUDE_DEPTH);
      return FALSE;
    }
  c->depth++;
  gboolean ok = read_text (c, path, text, error);
  c->depth--;
  return ok;
}

static gboolean
read_files (SlRsConf *c, const gchar *pattern, SlCfgPos from, GError **error)
{
  g_autofree gchar *full = NULL;
  glob_t found = { 0 };

  if (!g_path_is_absolute (pattern) && from.file && from.file[0] != '<')
    {
      g_autofree gchar *dir = g_path_get_dirname (from.file);
      full = g_build_filename (dir, pattern, NULL);
    }
  else
    full = g_strdup (pattern);
  /* a folder stands for every file in it, as in rsyslog */
  if (!strpbrk (full, "*?[") && g_file_test (full, G_FILE_TEST_IS_DIR))
    {
      gchar *every = g_build_filename (full, "*", NULL);
      g_free (full);
      full = every;
    }
  if (!strpbrk (full, "*?["))
    return read_file (c, full, from, error);
  /* rsyslog reads a glob's files in name order and an empty glob is no error */
  gint rc = glob (full, 0, NULL, &found);
  gboolean ok = TRUE;
  for (gsize i = 0; rc == 0 && ok && i < found.gl_pathc; i++)
    if (!g_file_test (found.gl_pathv[i], G_FILE_TEST_IS_DIR))
      ok = read_file (c, found.gl_pathv[i], from, error);
  globfree (&found);
  return ok;
}

/* Entry points */

static void
conf_init (SlRsConf *c, SlCfgNode *root, gboolean included)
{
  memset (c, 0, sizeof *c);
  c->root = root;
  c->read_files = read_files;
  c->included = included;
  c->prefix = g_strdup_printf ("rs%u", root->children->len);
  c->templates = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  c->lookup_tables = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  c->template_refs = g_array_new (FALSE, FALSE, sizeof (SlRsTemplateRef));
  c->destinations = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  c->template_objects = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  c->rulesets = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) ruleset_free);
  c->ruleset_sources = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
  c->waiting = g_hash_table_new (NULL, NULL);
  c->loaded = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  c->conditions = g_ptr_array_new_with_free_func (g_free);
  c->calls = g_ptr_array_new_with_free_func ((GDestroyNotify) call_free);
  c->file_mode = g_strdup ("0644");
  c->dir_mode = g_strdup ("0700");
  c->create_dirs = TRUE;
  c->syssock_on = TRUE;
  c->load_inputs = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_rs_load_input_free);
  c->ruleset = ruleset_get (c, DEFAULT_RULESET, (SlCfgPos) { sl_cfg_intern_file ("<rsyslog>"), 1, 1, NULL });
}

static void
conf_clear (SlRsConf *c)
{
  g_free (c->prefix);
  g_free (c->max_message_size);
  g_hash_table_unref (c->templates);
  g_hash_table_unref (c->lookup_tables);
  for (guint i = 0; i < c->template_refs->len; i++)
    g_free (g_array_index (c->template_refs, SlRsTemplateRef, i).name);
  g_array_unref (c->template_refs);
  g_hash_table_unref (c->destinations);
  g_hash_table_unref (c->template_objects);
  g_hash_table_unref (c->rulesets);
  g_hash_table_unref (c->ruleset_sources);
  g_hash_table_unref (c->waiting);
  g_hash_table_unref (c->loaded);
  g_ptr_array_unref (c->conditions);
  g_ptr_array_unref (c->calls);
  g_free (c->last_filter);
  g_free (c->file_owner);
  g_free (c->file_group);
  g_free (c->dir_owner);
  g_free (c->dir_group);
  g_free (c->file_mode);
  g_free (c->dir_mode);
  g_free (c->file_template);
  g_free (c->forward_template);
  if (c->action_queue)
    g_ptr_array_unref (c->action_queue);
  if (c->action_queue_params)
    g_ptr_array_unref (c->action_queue_params);
  g_free (c->syssock_name);
  g_clear_pointer (&c->syssock_params, g_ptr_array_unref);
  g_clear_pointer (&c->uxsock_params, g_ptr_array_unref);
  g_clear_pointer (&c->imtcp_params, g_ptr_array_unref);
  g_free (c->priv_user);
  g_free (c->priv_group);
  g_free (c->tls_default_driver);
  g_free (c->tls_ca);
  g_free (c->tls_cert);
  g_free (c->tls_key);
  sl_rs_tls_clear (&c->tls_send);
  sl_rs_tls_clear (&c->tls_server);
  sl_rs_imfile_clear (c);
  g_free (c->imfile_ruleset);
  g_ptr_array_unref (c->load_inputs);
  g_free (c->uxsock_socket);
  g_free (c->mmnormalize_rulebase);
  g_free (c->uxsock_template);
  g_clear_pointer (&c->outchannels, g_hash_table_unref);
  g_clear_pointer (&c->output_directives, g_hash_table_unref);
  g_clear_pointer (&c->mail_to, g_ptr_array_unref);
}

/* One top-level path per ruleset that has inputs; an included file's
 * default ruleset takes every source defined so far, its own too. */

/* An action that retries forever holds its ruleset's queue, and so the
 * inputs, for as long as it fails: flow control, beside the rule's own
 * flags (final) when it has them. Otherwise rsyslogd discards what a
 * suspended action cannot take, and delays the inputs that can wait only
 * while the queue is full and moving: Sluice's default, which holds
 * stream sources while a destination writes and drops once it has
 * written nothing for stall-timeout(). */
static void
add_flow_control (SlCfgNode *log)
{
  SlCfgNode *flags = sl_cfg_node_child (log, "flags");
  if (!flags)
    {
      flags = sl_cfg_node_new ("flags", log->pos);
      sl_cfg_node_add_child (log, flags);
    }
  sl_cfg_node_add_arg (flags, SL_CFG_ARG_WORD, "flow-control", flags->pos);
}

static gboolean
emit_paths (SlRsConf *c, GError **error)
{
  GHashTableIter iter;
  const gchar *name;
  SlRsRuleset *set;
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  g_autoptr (GPtrArray) every_source = g_ptr_array_new ();

  for (guint i = 0; i < c->root->children->len; i++)
    {
      const SlCfgNode *node = g_ptr_array_index (c->root->children, i);
      if (g_str_equal (node->name, "source") && sl_cfg_node_arg (node, 0))
        g_ptr_array_add (every_source, (gpointer) sl_cfg_node_arg (node, 0));
    }
  g_hash_table_iter_init (&iter, c->rulesets);
  while (g_hash_table_iter_next (&iter, (gpointer *) &name, (gpointer *) &set))
    g_ptr_array_add (names, (gpointer) name);
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
  /* the default ruleset first: an included file's stop keeps messages from
   * the paths written after the @include-rsyslog */
  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < names->len; i++)
      {
        name = g_ptr_array_index (names, i);
        if ((pass == 0) != g_str_equal (name, DEFAULT_RULESET))
          continue;
        set = g_hash_table_lookup (c->rulesets, name);
        GPtrArray *sources = g_hash_table_lookup (c->ruleset_sources, name);
        gboolean everything = c->included && g_str_equal (name, DEFAULT_RULESET);
        if (everything)
          sources = every_source;
        if (!sources || !sources->len || !set->log->children->len)
          continue;
        g_autoptr (GString) text = g_string_new ("log { ");
        for (guint s = 0; s < sources->len; s++)
          {
            g_autofree gchar *quoted = sl_rs_quoted (g_ptr_array_index (sources, s));
            g_string_append_printf (text, "source(%s); ", quoted);
          }
        g_string_append (text, "};");
        /* in Sluice's own configuration each rule is a path of its own, so
         * that a stop keeps the message from the paths written after */
        guint n_paths = everything ? set->log->children->len : 1;
        for (guint k = 0; k < n_paths; k++)
          {
            SlCfgNode *items = everything ? g_ptr_array_index (set->log->children, k) : set->log;
            g_autoptr (SlCfgNode) parsed = sl_rs_parse_text (text->str, set->pos, error);
            if (!parsed)
              return FALSE;
            SlCfgNode *log = g_ptr_array_index (parsed->children, 0);
            sl_rs_place (log, items->children->len ? ((SlCfgNode *) g_ptr_array_index (items->children, 0))->pos : items->pos);
            sl_rs_move_children (items, log, NULL);
            if (g_hash_table_contains (c->waiting, set))
              add_flow_control (log);
            g_ptr_array_set_free_func (parsed->children, NULL);
            g_ptr_array_set_size (parsed->children, 0);
            sl_cfg_node_add_child (c->root, log);
          }
      }
  return TRUE;
}

static gboolean
read_into (SlCfgNode *root, const gchar *pattern, SlCfgPos from, gboolean included, GError **error)
{
  SlRsConf c;
  gboolean ok;

  conf_init (&c, root, included);
  /* rsyslogd's maxMessageSize is 8096 bytes unless the file says
   * otherwise, and its parser escapes control characters (an options {}
   * written later wins) */
  ok = included || sl_rs_emit (&c, root->pos, "options { log-msg-size(8096); escape-control-chars(yes); };", error);
  ok = ok && read_files (&c, pattern, from, error);
  /* in Sluice's own configuration, /dev/log is system()'s */
  if (ok && !included)
    ok = sl_rs_finish_inputs (&c, error);
  ok = ok && sl_rs_finish_privileges (&c, error) && resolve_calls (&c, error) && sl_rs_template_check_refs (&c, error)
       && emit_paths (&c, error);
  conf_clear (&c);
  return ok;
}

SlCfgNode *
sl_cfg_rsyslog_parse_file (const gchar *path, GError **error)
{
  g_autofree gchar *text = NULL;
  SlCfgNode *root = sl_cfg_node_new ("config", (SlCfgPos) { sl_cfg_intern_file (path), 1, 1, NULL });

  if (g_file_get_contents (path, &text, NULL, NULL) && !sl_cfg_rsyslog_looks_like (text)
      && sl_cfg_syslog_ng_looks_like (text))
    {
      g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_SYNTAX,
                   _("%s: this is Sluice's (syslog-ng's) configuration language, not rsyslog's; run without "
                     "--config-format rsyslog to read it, or include rsyslog files from it with @include-rsyslog"),
                   path);
      sl_cfg_node_free (root);
      return NULL;
    }
  if (!read_into (root, path, (SlCfgPos) { 0 }, FALSE, error))
    g_clear_pointer (&root, sl_cfg_node_free);
  return root;
}

gboolean
sl_cfg_rsyslog_include (SlCfgNode *root, const gchar *pattern, SlCfgPos from, GError **error)
{
  return read_into (root, pattern, from, TRUE, error);
}

static gboolean
any_line (const gchar *text, const gchar *pattern)
{
  return g_regex_match_simple (pattern, text, G_REGEX_MULTILINE | G_REGEX_CASELESS, 0);
}

gboolean
sl_cfg_rsyslog_looks_like (const gchar *text)
{
  return any_line (text, "^[ \\t]*(\\$[a-z]+[ \\t]|module[ \\t]*\\([ \\t]*load[ \\t]*=|[a-z*][a-z0-9,*]*\\.[!=]?[a-z*]+[;, \\t])");
}

void
sl_cfg_rsyslog_register (void)
{
  static const SlCfgFrontEnd front_end = {
    .parse_file = sl_cfg_rsyslog_parse_file,
    .include = sl_cfg_rsyslog_include,
    .looks_like = sl_cfg_rsyslog_looks_like,
  };
  sl_cfg_set_rsyslog_front_end (&front_end);
}
