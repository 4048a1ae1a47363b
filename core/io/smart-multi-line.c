/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The rules are lines of "FROM,STATES<tab>/REGEXP/<tab>TO_STATE"; a line
 * is judged from the state the previous one left: the first rule of that
 * state whose pattern matches anywhere in the line moves to its state and
 * makes the line part of a trace. A line no rule of the state takes ends
 * the trace before it and is judged again from start_state, which may
 * start the next one. How a judgement groups lines into messages is
 * syslog-ng 4's (lib/multi-line/smart-multi-line.c), checked against
 * syslog-ng 4.8 by test-file-sources and test-group-lines. */
#include "core/io/smart-multi-line.h"
#include "core/io/smart-multi-line-rules.h"

#include <string.h>

#define START_STATE 0

typedef struct
{
  GRegex *pattern;
  gint to;
} Rule;

/* the rules of each state, in the file's order, by state number */
static GPtrArray *rules_by_state;

static gint
state_number (GHashTable *states, const gchar *name)
{
  gpointer found;
  if (g_hash_table_lookup_extended (states, name, NULL, &found))
    return GPOINTER_TO_INT (found);
  gint number = g_hash_table_size (states);
  g_hash_table_insert (states, g_strdup (name), GINT_TO_POINTER (number));
  g_ptr_array_add (rules_by_state, g_ptr_array_new ());
  return number;
}

/* One line of the rules; FALSE with an error when it is not one. */
static gboolean
read_rule (GHashTable *states, const gchar *line, guint lineno, GError **error)
{
  g_auto (GStrv) parts = g_strsplit (line, "\t", 3);
  gsize len = parts[0] && parts[1] ? strlen (parts[1]) : 0;

  if (g_strv_length (parts) != 3 || len < 2 || parts[1][0] != parts[1][len - 1])
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   "smart-multi-line.fsm:%u: not FROM_STATES<tab>/REGEXP/<tab>TO_STATE", lineno);
      return FALSE;
    }
  g_autofree gchar *text = g_strndup (parts[1] + 1, len - 2);
  g_autoptr (GError) local = NULL;
  /* files hold any bytes, not only UTF-8 */
  GRegex *pattern = g_regex_new (text, G_REGEX_RAW | G_REGEX_OPTIMIZE, 0, &local);
  if (!pattern)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "smart-multi-line.fsm:%u: %s", lineno,
                   local->message);
      return FALSE;
    }
  Rule *rule = g_new0 (Rule, 1);
  rule->pattern = pattern;
  rule->to = state_number (states, parts[2]);
  g_auto (GStrv) from = g_strsplit (parts[0], ",", -1);
  for (guint i = 0; from[i]; i++)
    {
      gint state = state_number (states, from[i]);
      g_ptr_array_add (g_ptr_array_index (rules_by_state, state), rule);
    }
  return TRUE;
}

static gpointer
compile_rules (gpointer data)
{
  GError **error = data;
  g_autoptr (GHashTable) states = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_auto (GStrv) lines = g_strsplit (sl_smart_multi_line_rules, "\n", -1);

  rules_by_state = g_ptr_array_new ();
  state_number (states, "start_state");
  for (guint i = 0; lines[i]; i++)
    if (lines[i][0] && lines[i][0] != '#' && !read_rule (states, lines[i], i + 1, error))
      return NULL;
  return rules_by_state;
}

gboolean
sl_smart_multi_line_init (GError **error)
{
  static GOnce once = G_ONCE_INIT;
  static GError *failure;

  g_once (&once, compile_rules, &failure);
  if (once.retval)
    return TRUE;
  g_propagate_error (error, g_error_copy (failure));
  return FALSE;
}

/* Moves *state by the first rule of it that takes line: TRUE. Else back
 * to start_state: FALSE. */
static gboolean
step (gint *state, const gchar *line, gsize len)
{
  GPtrArray *rules = g_ptr_array_index (rules_by_state, *state);

  for (guint i = 0; i < rules->len; i++)
    {
      Rule *rule = g_ptr_array_index (rules, i);
      if (g_regex_match_full (rule->pattern, line, len, 0, 0, NULL, NULL))
        {
          *state = rule->to;
          return TRUE;
        }
    }
  *state = START_STATE;
  return FALSE;
}

SlMultiLineVerdict
sl_smart_multi_line_add (SlMultiLineState *s, gsize held_len, const gchar *line, gsize len)
{
  if (s->replay)
    {
      s->replay = FALSE;
      s->in_trace = s->replay_trace;
      return s->in_trace ? SL_MULTI_LINE_WAIT : SL_MULTI_LINE_END;
    }

  gboolean after_trace = s->state == START_STATE;
  gboolean trace = step (&s->state, line, len);
  gboolean starts = FALSE;
  gboolean ends = FALSE;
  if (trace)
    {
      starts = after_trace;
      ends = s->state == START_STATE;
    }
  else
    starts = trace = step (&s->state, line, len);

  if (!held_len || !s->in_trace)
    {
      s->in_trace = trace;
      return trace ? SL_MULTI_LINE_WAIT : SL_MULTI_LINE_END;
    }
  if (trace && !starts)
    return ends ? SL_MULTI_LINE_END : SL_MULTI_LINE_WAIT;
  s->replay = TRUE;
  s->replay_trace = trace;
  s->in_trace = FALSE;
  return SL_MULTI_LINE_BEFORE;
}
