/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "plugins/parsers/db-parser/patterndb.h"
#include "core/i18n.h"

#include <stdlib.h>
#include <string.h>

/* A ruleset's program: the rules its message patterns lead to. */
typedef struct
{
  Radix *rules;
} Program;

struct _SlPatternDb
{
  gchar *prefix;
  Radix *programs;         /* program pattern -> Program */
  Program *any_program;      /* rules of rulesets without a program pattern */
  GPtrArray *owned_programs;
  GPtrArray *owned_rules;
};

typedef struct
{
  gchar *pattern;
  PdbRule *rule;
} RulePattern;

typedef struct
{
  PatternDb *db;
  const gchar *path;
  GMarkupParseContext *context;
  GHashTable *program_patterns;   /* text -> Program, this file's */
  Program *ruleset_program;       /* the current ruleset's, once a pattern named it */
  gboolean first_program;
  GArray *rule_patterns;          /* RulePattern of the current ruleset */
  PdbRule *rule;
  gchar *value_name;
  GString *text;
  gint skip;                      /* depth inside an element whose content is not read */
} Loader;

static void
rule_free (PdbRule *rule)
{
  for (guint i = 0; i < rule->values->len; i++)
    sl_template_unref (g_array_index (rule->values, PdbValue, i).template);
  g_array_unref (rule->values);
  g_array_unref (rule->tags);
  g_free (rule->id);
  g_free (rule->class);
  g_free (rule);
}

static void
program_free (Program *p)
{
  radix_free (p->rules);
  g_free (p);
}

static Program *
program_new (PatternDb *db)
{
  Program *p = g_new0 (Program, 1);
  p->rules = radix_new ();
  g_ptr_array_add (db->owned_programs, p);
  return p;
}

PatternDb *
pattern_db_new (const gchar *prefix)
{
  PatternDb *db = g_new0 (PatternDb, 1);
  db->prefix = g_strdup (prefix ? prefix : "");
  db->programs = radix_new ();
  db->owned_programs = g_ptr_array_new_with_free_func ((GDestroyNotify) program_free);
  db->owned_rules = g_ptr_array_new_with_free_func ((GDestroyNotify) rule_free);
  return db;
}

void
pattern_db_free (PatternDb *db)
{
  if (!db)
    return;
  radix_free (db->programs);
  g_ptr_array_unref (db->owned_programs);
  g_ptr_array_unref (db->owned_rules);
  g_free (db->prefix);
  g_free (db);
}

static void G_GNUC_PRINTF (3, 4)
loader_error (Loader *l, GError **error, const gchar *format, ...)
{
  gint line, column;
  g_markup_parse_context_get_position (l->context, &line, &column);
  va_list va;
  va_start (va, format);
  gchar *text = g_strdup_vprintf (format, va);
  va_end (va);
  g_set_error (error, G_MARKUP_ERROR, G_MARKUP_ERROR_INVALID_CONTENT, "%s:%d:%d: %s", l->path, line, column, text);
  g_free (text);
}

static const gchar *
parent_element (GMarkupParseContext *context, guint up)
{
  const GSList *stack = g_markup_parse_context_get_element_stack (context);
  for (guint i = 0; stack && i < up; i++)
    stack = stack->next;
  return stack ? stack->data : "";
}

static void
start_rule (Loader *l, const gchar **names, const gchar **values, GError **error)
{
  PdbRule *rule = g_new0 (PdbRule, 1);
  rule->values = g_array_new (FALSE, FALSE, sizeof (PdbValue));
  rule->tags = g_array_new (FALSE, FALSE, sizeof (SlTag));
  g_ptr_array_add (l->db->owned_rules, rule);
  l->rule = rule;
  for (guint i = 0; names[i]; i++)
    {
      if (strcmp (names[i], "id") == 0)
        rule->id = g_strdup (values[i]);
      else if (strcmp (names[i], "class") == 0)
        rule->class = g_strdup (values[i]);
      else if (g_str_has_prefix (names[i], "context-"))
        {
          loader_error (l, error, _("rule %s: db-parser() does not correlate messages (%s)"),
                        rule->id ? rule->id : "", names[i]);
          return;
        }
    }
  if (!rule->class)
    rule->class = g_strdup ("system");
  gchar *class_tag = g_strconcat (".classifier.", rule->class, NULL);
  SlTag tag = sl_tag_id (class_tag);
  g_array_append_val (rule->tags, tag);
  g_free (class_tag);
}

static void
on_start (GMarkupParseContext *context, const gchar *element, const gchar **names, const gchar **values,
          gpointer user_data, GError **error)
{
  Loader *l = user_data;
  g_string_truncate (l->text, 0);
  if (l->skip)
    {
      l->skip++;
      return;
    }
  const gchar *parent = parent_element (context, 1);
  if (strcmp (element, "patterndb") == 0)
    {
      for (guint i = 0; names[i]; i++)
        if (strcmp (names[i], "version") == 0 && (atoi (values[i]) < 2 || atoi (values[i]) > 6))
          loader_error (l, error, _("patterndb version %s: db-parser() reads versions 2 to 6"), values[i]);
    }
  else if (strcmp (element, "ruleset") == 0)
    {
      l->first_program = TRUE;
      l->ruleset_program = NULL;
    }
  else if (strcmp (element, "rule") == 0)
    start_rule (l, names, values, error);
  else if (strcmp (element, "value") == 0 && l->rule)
    {
      for (guint i = 0; names[i]; i++)
        if (strcmp (names[i], "name") == 0)
          l->value_name = g_strdup (values[i]);
      if (!l->value_name)
        loader_error (l, error, _("<value> needs a name"));
    }
  else if (strcmp (element, "actions") == 0)
    loader_error (l, error, _("rule %s: db-parser() does not run <actions>"), l->rule && l->rule->id ? l->rule->id : "");
  else if (strcmp (element, "examples") == 0 || strcmp (element, "description") == 0
           || strcmp (element, "urls") == 0 || strcmp (element, "url") == 0)
    l->skip = 1;
  else if (strcmp (element, "rules") != 0 && strcmp (element, "patterns") != 0 && strcmp (element, "pattern") != 0
           && strcmp (element, "tags") != 0 && strcmp (element, "tag") != 0 && strcmp (element, "values") != 0)
    loader_error (l, error, _("unexpected <%s> in <%s>"), element, parent);
}

static void
ruleset_pattern (Loader *l, const gchar *text, GError **error)
{
  Program *p = g_hash_table_lookup (l->program_patterns, text);
  if (l->first_program)
    {
      if (!p)
        {
          p = program_new (l->db);
          g_hash_table_insert (l->program_patterns, g_strdup (text), p);
        }
      l->ruleset_program = p;
      l->first_program = FALSE;
    }
  else if (!p)
    g_hash_table_insert (l->program_patterns, g_strdup (text), l->ruleset_program);
  else if (p != l->ruleset_program)
    loader_error (l, error, _("rulesets share program '%s' but not their other programs"), text);
}

static void
end_ruleset (Loader *l, GError **error)
{
  Program *p = l->ruleset_program;
  if (!p)
    {
      if (!l->db->any_program)
        l->db->any_program = program_new (l->db);
      p = l->db->any_program;
    }
  for (guint i = 0; i < l->rule_patterns->len; i++)
    {
      RulePattern *rp = &g_array_index (l->rule_patterns, RulePattern, i);
      GError *inner = NULL;
      gpointer other = NULL;
      if (!radix_insert (p->rules, rp->pattern, rp->rule, l->db->prefix, &other, &inner))
        {
          if (other)
            loader_error (l, error, _("rule %s: its pattern '%s' is rule %s's as well"), rp->rule->id,
                          rp->pattern, ((PdbRule *) other)->id);
          else
            loader_error (l, error, _("rule %s: pattern '%s': %s"), rp->rule->id, rp->pattern, inner->message);
          g_clear_error (&inner);
          break;
        }
    }
  for (guint i = 0; i < l->rule_patterns->len; i++)
    g_free (g_array_index (l->rule_patterns, RulePattern, i).pattern);
  g_array_set_size (l->rule_patterns, 0);
}

static void
on_end (GMarkupParseContext *context, const gchar *element, gpointer user_data, GError **error)
{
  Loader *l = user_data;
  if (l->skip)
    {
      l->skip--;
      return;
    }
  const gchar *text = l->text->str;
  const gchar *parent = parent_element (context, 1);
  if (strcmp (element, "pattern") == 0)
    {
      gboolean in_rule = strcmp (parent, "rule") == 0
                         || (strcmp (parent, "patterns") == 0 && strcmp (parent_element (context, 2), "rule") == 0);
      if (in_rule && l->rule)
        {
          RulePattern rp = { g_strdup (text), l->rule };
          g_array_append_val (l->rule_patterns, rp);
        }
      else
        ruleset_pattern (l, text, error);
    }
  else if (strcmp (element, "rule") == 0)
    l->rule = NULL;
  else if (strcmp (element, "ruleset") == 0)
    end_ruleset (l, error);
  else if (strcmp (element, "tag") == 0 && l->rule)
    {
      SlTag tag = sl_tag_id (text);
      g_array_append_val (l->rule->tags, tag);
    }
  else if (strcmp (element, "value") == 0 && l->rule)
    {
      GError *inner = NULL;
      SlTemplate *t = sl_template_compile (text, &inner);
      if (!t)
        {
          loader_error (l, error, _("rule %s: value %s: %s"), l->rule->id, l->value_name, inner->message);
          g_error_free (inner);
        }
      else
        {
          gchar *name = g_strconcat (l->db->prefix, l->value_name, NULL);
          PdbValue v = { sl_field_handle (name), t };
          g_free (name);
          g_array_append_val (l->rule->values, v);
        }
      g_clear_pointer (&l->value_name, g_free);
    }
}

static void
on_text (GMarkupParseContext *context, const gchar *text, gsize len, gpointer user_data, GError **error)
{
  Loader *l = user_data;
  if (!l->skip)
    g_string_append_len (l->text, text, len);
}

typedef struct
{
  Loader *loader;
  GError *error;
} AddPrograms;

static void
add_program (gpointer key, gpointer value, gpointer user_data)
{
  AddPrograms *add = user_data;
  GError *inner = NULL;
  if (!add->error && !radix_insert (add->loader->db->programs, key, value, add->loader->db->prefix, NULL, &inner))
    {
      g_set_error (&add->error, G_MARKUP_ERROR, G_MARKUP_ERROR_INVALID_CONTENT, _("%s: program pattern '%s': %s"),
                   add->loader->path, (const gchar *) key, inner->message);
      g_error_free (inner);
    }
}

gboolean
pattern_db_load (PatternDb *db, const gchar *path, GError **error)
{
  gchar *content = NULL;
  gsize len = 0;
  if (!g_file_get_contents (path, &content, &len, error))
    return FALSE;
  static const GMarkupParser parser = { on_start, on_end, on_text, NULL, NULL };
  Loader l = { db, path, NULL, g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL), NULL, FALSE,
               g_array_new (FALSE, FALSE, sizeof (RulePattern)), NULL, NULL, g_string_new (NULL), 0 };
  l.context = g_markup_parse_context_new (&parser, 0, &l, NULL);
  gboolean ok = g_markup_parse_context_parse (l.context, content, len, error)
                && g_markup_parse_context_end_parse (l.context, error);
  if (ok)
    {
      AddPrograms add = { &l, NULL };
      g_hash_table_foreach (l.program_patterns, add_program, &add);
      if (add.error)
        {
          g_propagate_error (error, add.error);
          ok = FALSE;
        }
    }
  for (guint i = 0; i < l.rule_patterns->len; i++)
    g_free (g_array_index (l.rule_patterns, RulePattern, i).pattern);
  g_array_unref (l.rule_patterns);
  g_hash_table_unref (l.program_patterns);
  g_string_free (l.text, TRUE);
  g_free (l.value_name);
  g_markup_parse_context_free (l.context);
  g_free (content);
  return ok;
}

const PdbRule *
pattern_db_lookup (const PatternDb *db, const gchar *program, gsize program_len, GArray *program_matches,
                      const gchar *message, gsize message_len, GArray *matches)
{
  Program *p = radix_lookup (db->programs, program, program_len, program_matches);
  if (!p)
    {
      if (program_matches)
        g_array_set_size (program_matches, 0);
      p = db->any_program;
    }
  return p ? radix_lookup (p->rules, message, message_len, matches) : NULL;
}
