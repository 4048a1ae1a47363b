/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "plugins/parsers/add-contextual-data/context-selector.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/compile/text-filter.h"

#include <string.h>

typedef enum
{
  SELECT_BY_VALUE,
  SELECT_BY_GLOB,
  SELECT_BY_FILTER,
} SelectBy;

typedef struct
{
  const gchar *selector;   /* the database's */
  GPatternSpec *glob;
  SlTextFilter *filter;
} Candidate;

struct _ContextSelector
{
  SelectBy by;
  SlTemplate *template;    /* VALUE and GLOB */
  GArray *candidates;      /* Candidate, in the database's order */
};

static const gchar *
single_string (const SlCfgNode *node, GError **error)
{
  if (node->args->len != 1 || node->children->len)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, node->pos, _("%s() takes one string"), node->name);
      return NULL;
    }
  return ((const SlCfgArg *) g_ptr_array_index (node->args, 0))->value;
}

/* The filter statements of a filters() file, by name: the file is
 * syslog-ng's configuration language holding nothing but
 * `filter NAME { EXPRESSION };`. The expression is compiled at its place
 * in the file, so that its errors point there. */
typedef struct
{
  const gchar *text;
  const gchar *p;
  gint line;
  const gchar *line_start;
} Scan;

static void
scan_skip (Scan *s)
{
  for (;;)
    {
      while (g_ascii_isspace (*s->p))
        if (*s->p++ == '\n')
          {
            s->line++;
            s->line_start = s->p;
          }
      if (*s->p != '#')
        return;
      while (*s->p && *s->p != '\n')
        s->p++;
    }
}

static gchar *
scan_word (Scan *s)
{
  const gchar *start = s->p;
  while (g_ascii_isalnum (*s->p) || *s->p == '_' || *s->p == '-' || *s->p == '.')
    s->p++;
  return s->p > start ? g_strndup (start, s->p - start) : NULL;
}

/* The body between braces, the braces inside strings and comments not counted. */
static const gchar *
scan_body_end (Scan *s)
{
  gint depth = 1;
  for (; *s->p; s->p++)
    {
      gchar c = *s->p;
      if (c == '\n')
        {
          s->line++;
          s->line_start = s->p + 1;
        }
      else if (c == '"' || c == '\'')
        {
          for (s->p++; *s->p && *s->p != c; s->p++)
            if (c == '"' && *s->p == '\\' && s->p[1])
              s->p++;
          if (!*s->p)
            return NULL;
        }
      else if (c == '#')
        {
          while (s->p[1] && s->p[1] != '\n')
            s->p++;
        }
      else if (c == '{')
        depth++;
      else if (c == '}' && --depth == 0)
        return s->p++;
    }
  return NULL;
}

static GHashTable *
load_filters (const gchar *path, GError **error)
{
  g_autofree gchar *text = NULL;
  if (!g_file_get_contents (path, &text, NULL, error))
    return NULL;
  GHashTable *filters = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                               (GDestroyNotify) sl_text_filter_free);
  Scan s = { text, text, 1, text };
  for (scan_skip (&s); *s.p; scan_skip (&s))
    {
      SlCfgPos pos = { g_intern_string (path), s.line, (gint) (s.p - s.line_start) + 1, NULL };
      g_autofree gchar *keyword = scan_word (&s);
      scan_skip (&s);
      g_autofree gchar *name = g_strcmp0 (keyword, "filter") == 0 ? scan_word (&s) : NULL;
      scan_skip (&s);
      if (!name || *s.p != '{')
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, pos,
                            _("a filters() file holds only filter NAME { ... }; statements"));
          goto fail;
        }
      s.p++;
      /* the body keeps its place: lines and columns before it are padding */
      GString *body = g_string_new (NULL);
      for (gint i = 1; i < s.line; i++)
        g_string_append_c (body, '\n');
      for (const gchar *q = s.line_start; q < s.p; q++)
        g_string_append_c (body, *q == '\t' ? '\t' : ' ');
      const gchar *start = s.p;
      const gchar *end = scan_body_end (&s);
      if (!end)
        {
          g_string_free (body, TRUE);
          sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, pos, _("filter %s has no closing brace"), name);
          goto fail;
        }
      /* the expression ends with ';' inside the braces, as in a configuration */
      const gchar *last = end;
      while (last > start && g_ascii_isspace (last[-1]))
        last--;
      if (last > start && last[-1] == ';')
        last--;
      g_string_append_len (body, start, last - start);
      SlTextFilter *filter = sl_text_filter_compile (body->str, path, error);
      g_string_free (body, TRUE);
      if (!filter)
        goto fail;
      g_hash_table_replace (filters, g_strdup (name), filter);
      scan_skip (&s);
      if (*s.p == ';')
        s.p++;
    }
  return filters;

fail:
  g_hash_table_destroy (filters);
  return NULL;
}

static gchar *
find_file (const gchar *name, const gchar *base_dir)
{
  if (g_path_is_absolute (name) || !base_dir)
    return g_strdup (name);
  gchar *beside = g_build_filename (base_dir, name, NULL);
  if (g_file_test (beside, G_FILE_TEST_EXISTS))
    return beside;
  g_free (beside);
  return g_strdup (name);
}

static void
candidate_clear (gpointer p)
{
  Candidate *c = p;
  if (c->glob)
    g_pattern_spec_free (c->glob);
}

static gboolean
add_candidates (ContextSelector *self, const SlCfgNode *node, const ContextDb *db, const gchar *base_dir,
                GError **error)
{
  const gchar *arg = single_string (node, error);
  if (!arg)
    return FALSE;
  g_autoptr (GHashTable) filters = NULL;
  if (self->by == SELECT_BY_GLOB)
    {
      self->template = sl_template_compile (arg, error);
      if (!self->template)
        return FALSE;
    }
  else
    {
      g_autofree gchar *path = find_file (arg, base_dir);
      filters = load_filters (path, error);
      if (!filters)
        return FALSE;
    }
  const GPtrArray *selectors = context_db_selectors (db);
  for (guint i = 0; i < selectors->len; i++)
    {
      Candidate c = { g_ptr_array_index (selectors, i), NULL, NULL };
      if (self->by == SELECT_BY_GLOB)
        c.glob = g_pattern_spec_new (c.selector);
      else if (!g_hash_table_steal_extended (filters, c.selector, NULL, (gpointer *) &c.filter))
        continue;
      g_array_append_val (self->candidates, c);
    }
  return TRUE;
}

ContextSelector *
context_selector_new (const SlCfgNode *node, const ContextDb *db, const gchar *base_dir, GError **error)
{
  ContextSelector *self = g_new0 (ContextSelector, 1);
  self->candidates = g_array_new (FALSE, TRUE, sizeof (Candidate));
  g_array_set_clear_func (self->candidates, candidate_clear);
  const SlCfgNode *inner = node->children->len == 1 && !node->args->len ? g_ptr_array_index (node->children, 0) : NULL;
  gboolean ok;
  if (inner && sl_cfg_name_equal (inner->name, "glob"))
    {
      self->by = SELECT_BY_GLOB;
      ok = add_candidates (self, inner, db, base_dir, error);
    }
  else if (inner && sl_cfg_name_equal (inner->name, "filters"))
    {
      self->by = SELECT_BY_FILTER;
      ok = add_candidates (self, inner, db, base_dir, error);
    }
  else if (inner)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, inner->pos,
                        _("selector() takes a template, glob(\"TEMPLATE\") or filters(\"FILE\"), not %s()"),
                        inner->name);
      ok = FALSE;
    }
  else
    {
      const gchar *text = single_string (node, error);
      self->by = SELECT_BY_VALUE;
      ok = text && (self->template = sl_template_compile (text, error)) != NULL;
    }
  if (!ok)
    {
      context_selector_free (self);
      return NULL;
    }
  return self;
}

void
context_selector_free (ContextSelector *self)
{
  if (!self)
    return;
  for (guint i = 0; i < self->candidates->len; i++)
    sl_text_filter_free (g_array_index (self->candidates, Candidate, i).filter);
  g_array_free (self->candidates, TRUE);
  if (self->template)
    sl_template_unref (self->template);
  g_free (self);
}

const gchar *
context_selector_resolve (const ContextSelector *self, const SlMessage *msg, GString *buffer)
{
  if (self->by == SELECT_BY_FILTER)
    {
      for (guint i = 0; i < self->candidates->len; i++)
        {
          const Candidate *c = &g_array_index (self->candidates, Candidate, i);
          if (sl_text_filter_eval (c->filter, msg))
            return c->selector;
        }
      return NULL;
    }
  g_string_truncate (buffer, 0);
  sl_template_append (self->template, msg, NULL, buffer);
  if (self->by == SELECT_BY_VALUE)
    return buffer->str;
  for (guint i = 0; i < self->candidates->len; i++)
    {
      const Candidate *c = &g_array_index (self->candidates, Candidate, i);
      if (g_pattern_spec_match_string (c->glob, buffer->str))
        return c->selector;
    }
  return NULL;
}
