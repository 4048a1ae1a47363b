/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/compile/config-private.h"
#include "core/config/syntax-version.h"
#include "core/config/error.h"
#include "core/route/driver-private.h"
#include "core/i18n.h"
#include "core/route/hook-commands.h"
#include "core/plugin/registry-private.h"
#include "core/message/template-private.h"

#include <string.h>

static const gchar *const object_kinds[] = { "source", "destination", "filter", "parser", "rewrite", "template" };

static gchar *
object_key (const gchar *kind, const gchar *name)
{
  gchar *normal = sl_cfg_name_normalize (name);
  gchar *key = g_strconcat (kind, "/", normal, NULL);
  g_free (normal);
  return key;
}

const SlCfgNode *
sl_config_find_object (SlConfig *cfg, const gchar *kind, const gchar *name)
{
  gchar *key = object_key (kind, name);
  const SlCfgNode *node = g_hash_table_lookup (cfg->objects, key);
  g_free (key);
  return node;
}

const gchar *
sl_config_nearest_object (SlConfig *cfg, const gchar *kind, const gchar *name)
{
  GPtrArray *names = g_ptr_array_new ();
  GHashTableIter it;
  gpointer key, value;
  g_hash_table_iter_init (&it, cfg->objects);
  gsize kind_len = strlen (kind);
  while (g_hash_table_iter_next (&it, &key, &value))
    if (strncmp (key, kind, kind_len) == 0 && ((const gchar *) key)[kind_len] == '/')
      g_ptr_array_add (names, (gpointer) sl_cfg_node_arg (value, 0));
  const gchar *near = sl_cfg_suggest (name, (const gchar *const *) names->pdata, names->len);
  g_ptr_array_unref (names);
  return near;
}

void
sl_config_set_no_object_error (SlConfig *cfg, GError **error, SlCfgPos pos, const gchar *kind, const gchar *name)
{
  const gchar *near = sl_config_nearest_object (cfg, kind, name);
  if (near)
    sl_cfg_error_set (error, SL_CFG_ERROR_REFERENCE, pos, _("there is no %s named '%s'; did you mean '%s'?"), kind,
                      name, near);
  else
    sl_cfg_error_set (error, SL_CFG_ERROR_REFERENCE, pos, _("there is no %s named '%s'"), kind, name);
}

gchar *
sl_config_anonymous_name (SlConfig *cfg, const gchar *kind)
{
  return g_strdup_printf ("#anon-%s%u", kind, cfg->anonymous++);
}

static gboolean
is_object_kind (const gchar *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (object_kinds); i++)
    if (sl_cfg_name_equal (name, object_kinds[i]))
      return TRUE;
  return FALSE;
}

static gboolean
collect_objects (SlConfig *cfg, GError **error)
{
  cfg->globals = g_new0 (SlCfgNode, 1);
  cfg->globals->name = g_strdup ("options");
  cfg->globals->children = g_ptr_array_new ();
  cfg->globals->args = g_ptr_array_new ();
  for (guint i = 0; cfg->tree->children && i < cfg->tree->children->len; i++)
    {
      SlCfgNode *node = g_ptr_array_index (cfg->tree->children, i);
      if (sl_cfg_name_equal (node->name, "options"))
        {
          for (guint k = 0; node->children && k < node->children->len; k++)
            g_ptr_array_add (cfg->globals->children, g_ptr_array_index (node->children, k));
          continue;
        }
      if (!is_object_kind (node->name))
        continue;
      const gchar *name = sl_cfg_node_arg (node, 0);
      if (!name)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, node->pos, _("a %s statement needs a name"), node->name);
          return FALSE;
        }
      gchar *normal = sl_cfg_name_normalize (node->name);
      gchar *key = object_key (normal, name);
      g_free (normal);
      const SlCfgNode *before = g_hash_table_lookup (cfg->objects, key);
      if (before)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_REFERENCE, node->pos,
                            _("%s '%s' is already defined at %s:%d:%d"), node->name, name,
                            before->pos.file, before->pos.line, before->pos.column);
          g_free (key);
          return FALSE;
        }
      g_hash_table_insert (cfg->objects, key, node);
    }
  return TRUE;
}

/* What every driver's options depend on besides its own text: options {}
 * and the template objects a template() option may name. */
static gchar *
shared_text (SlConfig *cfg)
{
  GString *text = g_string_new (NULL);
  gchar *globals = sl_cfg_node_to_string (cfg->globals);
  g_string_append (text, globals);
  g_free (globals);
  for (guint i = 0; cfg->tree->children && i < cfg->tree->children->len; i++)
    {
      const SlCfgNode *node = g_ptr_array_index (cfg->tree->children, i);
      if (!sl_cfg_name_equal (node->name, "template"))
        continue;
      gchar *one = sl_cfg_node_to_string (node);
      g_string_append (text, one);
      g_free (one);
    }
  return g_string_free (text, FALSE);
}

/* `template-function "name" "text";`: compiled where first used. */
static gboolean
compile_template_functions (SlConfig *cfg, GError **error)
{
  for (guint i = 0; cfg->tree->children && i < cfg->tree->children->len; i++)
    {
      const SlCfgNode *node = g_ptr_array_index (cfg->tree->children, i);
      if (!sl_cfg_name_equal (node->name, "template-function"))
        continue;
      const SlCfgNode *text = sl_cfg_node_child (node, "template");
      if (!sl_cfg_node_arg (node, 0) || !text || !sl_cfg_node_arg (text, 0))
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, node->pos,
                            _("template-function needs a name and a template: template-function \"name\" \"text\";"));
          return FALSE;
        }
      SlTemplateUserFunction *f = g_new0 (SlTemplateUserFunction, 1);
      f->text = g_strdup (sl_cfg_node_arg (text, 0));
      g_hash_table_insert (cfg->template_functions, g_strdup (sl_cfg_node_arg (node, 0)), f);
    }
  return TRUE;
}

/* A template written at pos; an error about one place of it points there. */
static SlTemplate *
compile_located (const gchar *text, SlCfgPos pos, GError **error)
{
  GError *inner = NULL;
  gsize at;
  SlTemplate *t = sl_template_compile_located (text, &at, &inner);
  if (!t)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, at == G_MAXSIZE ? pos : sl_cfg_pos_in_string (pos, at), "%s",
                        inner->message);
      g_error_free (inner);
    }
  return t;
}

SlTemplate *
sl_config_compile_hinted_template (const gchar *text, const gchar *hint, SlCfgPos pos, GError **error)
{
  SlValueType type;
  if (!sl_value_type_from_name (hint, strlen (hint), sl_cfg_compiling_version_4 (), &type))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos, _("unknown type hint '%s'; use string, json, literal, list, "
                                                          "int, int32, int64, double, float, boolean, "
                                                          "datetime or null"), hint);
      return NULL;
    }
  SlTemplate *t = compile_located (text, pos, error);
  if (t)
    sl_template_set_type_hint (t, type);
  return t;
}

/* In the order written, so that $(template NAME) in one finds the
 * templates defined before it, as in syslog-ng. */
static gboolean
compile_templates (SlConfig *cfg, GError **error)
{
  for (guint i = 0; cfg->tree->children && i < cfg->tree->children->len; i++)
    {
      const SlCfgNode *node = g_ptr_array_index (cfg->tree->children, i);
      if (!sl_cfg_name_equal (node->name, "template"))
        continue;
      const SlCfgNode *text = sl_cfg_node_child (node, "template");
      if (!text || !sl_cfg_node_arg (text, 0))
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, node->pos,
                            _("template '%s' needs template(\"...\")"), sl_cfg_node_arg (node, 0));
          return FALSE;
        }
      const SlCfgArg *arg = g_ptr_array_index (text->args, 0);
      SlTemplate *t = compile_located (arg->value, arg->pos, error);
      if (!t)
        return FALSE;
      g_hash_table_insert (cfg->templates, sl_cfg_name_normalize (sl_cfg_node_arg (node, 0)), t);
    }
  return TRUE;
}

static gboolean check_driver_node (SlDriverKind kind, const SlCfgNode *node, GError **error);

static gboolean
is_channel (const SlCfgNode *node)
{
  return node->has_body && sl_cfg_name_equal (node->name, "channel");
}

/* Filter expressions of objects no path uses still get their calls checked. */
static gboolean
check_filter_node (const SlCfgNode *node, GError **error)
{
  const gchar *n = node->name;
  if (sl_cfg_name_equal (n, "and") || sl_cfg_name_equal (n, "or") || sl_cfg_name_equal (n, "not"))
    {
      for (guint i = 0; node->children && i < node->children->len; i++)
        if (!check_filter_node (g_ptr_array_index (node->children, i), error))
          return FALSE;
      return TRUE;
    }
  if (sl_cfg_name_equal (n, "compare") || sl_cfg_name_equal (n, "filter"))
    return TRUE;
  return check_driver_node (SL_DRIVER_FILTER, node, error);
}

/* An object that no log path uses is never built, but a mistake in it is
 * still a mistake: -s must report it. Every object is checked here, before
 * the paths build the ones they use. */
static gboolean
check_unused_objects (SlConfig *cfg, GError **error)
{
  static const struct
  {
    const gchar *word;
    SlDriverKind kind;
  } kinds[] = {
    { "source", SL_DRIVER_SOURCE }, { "destination", SL_DRIVER_DESTINATION },
    { "parser", SL_DRIVER_PARSER }, { "rewrite", SL_DRIVER_REWRITE }, { "filter", SL_DRIVER_FILTER },
  };
  for (guint i = 0; cfg->tree->children && i < cfg->tree->children->len; i++)
    {
      const SlCfgNode *object = g_ptr_array_index (cfg->tree->children, i);
      for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
        {
          if (!sl_cfg_name_equal (object->name, kinds[k].word))
            continue;
          for (guint c = 0; object->children && c < object->children->len; c++)
            {
              const SlCfgNode *child = g_ptr_array_index (object->children, c);
              /* a channel is a path: its objects are checked when one uses it */
              if (is_channel (child))
                continue;
              gboolean ok = kinds[k].kind == SL_DRIVER_FILTER ? check_filter_node (child, error)
                                                              : check_driver_node (kinds[k].kind, child, error);
              if (!ok)
                return FALSE;
            }
        }
    }
  return TRUE;
}

typedef struct
{
  const gchar *name;
  const SlOptionSpec *found;
  GPtrArray *candidates;
} GlobalSearch;

static void
search_class (const SlDriverClass *klass, gpointer data)
{
  GlobalSearch *s = data;
  for (const SlOptionSpec *o = klass->options; o && o->name && !s->found; o++)
    if (o->inherit)
      {
        if (sl_cfg_name_equal (o->inherit, s->name))
          s->found = o;
        g_ptr_array_add (s->candidates, (gpointer) o->inherit);
      }
}

/* The entry of a driver table, or of the daemon's own, that a global
 * option stands for. */
static const SlOptionSpec *
find_global (const gchar *name, GPtrArray *candidates)
{
  GlobalSearch s = { name, sl_driver_core_global (name, candidates), candidates };
  if (!s.found)
    sl_plugins_foreach_loaded (search_class, &s);
  if (!s.found && sl_plugins_load_inheriting (name))
    sl_plugins_foreach_loaded (search_class, &s);
  /* none inherits it: every plugin is loaded, for the suggestion */
  if (!s.found)
    sl_plugins_foreach (search_class, &s);
  return s.found;
}

/* Whether each name in options {} is an option some class inherits, or
 * one of the daemon's own global settings; an error with a suggestion if
 * not. */
static gboolean
check_globals (const SlCfgNode *globals, GError **error)
{
  for (guint i = 0; globals->children && i < globals->children->len; i++)
    {
      const SlCfgNode *child = g_ptr_array_index (globals->children, i);
      GPtrArray *candidates = g_ptr_array_new ();
      const SlOptionSpec *spec = find_global (child->name, candidates);
      if (!spec)
        {
          const gchar *near = sl_cfg_suggest (child->name, (const gchar *const *) candidates->pdata, candidates->len);
          if (near)
            sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, child->pos,
                              _("unknown global option '%s' in options {}; did you mean '%s'?"), child->name, near);
          else
            sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, child->pos,
                              _("unknown global option '%s' in options {}; no loaded driver takes it"), child->name);
          g_ptr_array_unref (candidates);
          return FALSE;
        }
      g_ptr_array_unref (candidates);
      /* checked as the option it is inherited by, under its global name */
      SlOptionSpec as_global[2] = { *spec, { NULL } };
      as_global[0].name = child->name;
      as_global[0].flags &= ~SL_OPT_POSITIONAL;
      SlCfgNode only = { .name = (gchar *) "options", .pos = globals->pos, .children = NULL };
      GPtrArray *children = g_ptr_array_new ();
      g_ptr_array_add (children, (gpointer) child);
      only.children = children;
      const SlOptionSpec *tables[] = { as_global, NULL };
      gboolean ok = sl_options_check ("options", tables, &only, error);
      g_ptr_array_unref (children);
      if (!ok)
        return FALSE;
    }
  return TRUE;
}

static void
set_unknown_driver_error (GError **error, SlDriverKind kind, const SlCfgNode *node)
{
  GPtrArray *names = sl_plugins_names (kind);
  const gchar *near = sl_cfg_suggest (node->name, (const gchar *const *) names->pdata, names->len);
  g_ptr_array_add (names, NULL);
  gchar *all = names->len > 1 ? g_strjoinv (", ", (gchar **) names->pdata) : g_strdup (_("none are loaded"));
  const gchar *kind_name = sl_driver_kind_name (kind);
  if (near)
    sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, node->pos,
                      _("unknown %s driver '%s'; did you mean '%s'? (%s drivers: %s)"),
                      kind_name, node->name, near, kind_name, all);
  else
    sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, node->pos,
                      _("unknown %s driver '%s'; the %s drivers are: %s"),
                      kind_name, node->name, kind_name, all);
  g_free (all);
  g_ptr_array_unref (names);
}

static gboolean
check_driver_node (SlDriverKind kind, const SlCfgNode *node, GError **error)
{
  const SlDriverClass *klass = sl_plugins_lookup (kind, node->name);
  if (!klass)
    {
      set_unknown_driver_error (error, kind, node);
      return FALSE;
    }
  const SlOptionSpec *tables[SL_DRIVER_TABLES_MAX + 1];
  sl_driver_class_tables (klass, tables);
  gchar *owner = g_strdup_printf ("%s()", node->name);
  gboolean ok = sl_options_check (owner, tables, node, error);
  g_free (owner);
  /* filter options such as a rule's condition() hold filter functions of their own */
  for (guint t = 0; ok && tables[t]; t++)
    for (const SlOptionSpec *o = tables[t]; ok && o->name; o++)
      {
        const SlCfgNode *option = o->type == SL_OPT_FILTER ? sl_cfg_node_child (node, o->name) : NULL;
        if (option && option->children && option->children->len == 1)
          ok = check_filter_node (g_ptr_array_index (option->children, 0), error);
      }
  return ok;
}

static gchar *
next_id (SlConfig *cfg, SlDriverKind kind, const gchar *group)
{
  const gchar *prefix = group ? group : sl_driver_kind_name (kind);
  guint n = GPOINTER_TO_UINT (g_hash_table_lookup (cfg->id_counts, prefix));
  g_hash_table_insert (cfg->id_counts, g_strdup (prefix), GUINT_TO_POINTER (n + 1));
  return g_strdup_printf ("%s#%u", prefix, n);
}

void
sl_config_skip_id (SlConfig *cfg, SlDriverKind kind, const gchar *group)
{
  g_free (next_id (cfg, kind, group));
}

SlDriver *
sl_config_new_driver_with_id (SlConfig *cfg, const SlDriverClass *klass, const SlCfgNode *node,
                              const gchar *id, GError **error)
{
  SlDriver *driver = sl_driver_new (cfg, klass, node, cfg->globals, id, &cfg->compiler, error);
  if (!driver)
    return NULL;
  g_ptr_array_add (cfg->drivers, driver);
  if (klass->init && !klass->init (driver, error))
    return NULL;
  return driver;
}

SlDriver *
sl_config_new_driver (SlConfig *cfg, SlDriverKind kind, const SlCfgNode *node,
                      const gchar *group, GError **error)
{
  const SlDriverClass *klass = sl_plugins_lookup (kind, node->name);
  if (!klass)
    {
      set_unknown_driver_error (error, kind, node);
      return NULL;
    }
  gchar *id = next_id (cfg, kind, group);
  SlDriver *driver = sl_config_new_driver_with_id (cfg, klass, node, id, error);
  g_free (id);
  return driver;
}

SlDriver *
sl_config_part_new (SlDriver *parent, const SlCfgNode *node, GError **error)
{
  SlConfig *cfg = parent->cfg;
  const SlDriverClass *klass = sl_plugins_lookup (parent->klass->kind, node->name);
  if (!klass)
    {
      set_unknown_driver_error (error, parent->klass->kind, node);
      return NULL;
    }
  gchar *id = g_strdup_printf ("%s/%s", parent->id, node->name);
  SlDriver *part = sl_driver_new (cfg, klass, node, cfg->globals, id, &cfg->compiler, error);
  g_free (id);
  if (part && klass->init && !klass->init (part, error))
    g_clear_pointer (&part, sl_config_part_free);
  return part;
}

void
sl_config_part_free (SlDriver *part)
{
  if (!part)
    return;
  if (part->klass->free)
    part->klass->free (part);
  sl_driver_free (part);
}

/* What a source or destination is known by across reloads. */
gchar *
sl_config_reuse_key (SlConfig *cfg, const gchar *kind, const gchar *group, guint index, const SlCfgNode *node)
{
  gchar *text = sl_cfg_node_to_string (node);
  gchar *key = g_strdup_printf ("%s\n%s\n%u\n%s\n%s", kind, group, index, text, cfg->globals_text);
  g_free (text);
  return key;
}

/* The running configuration's object made the same way, marked as taken
 * by cfg; NULL when there is none or it was taken already. */
gpointer
sl_config_borrow (SlConfig *cfg, const gchar *key)
{
  if (!cfg->donor || !cfg->donor->started)
    return NULL;
  gpointer object = g_hash_table_lookup (cfg->donor->reusable, key);
  if (!object || g_hash_table_contains (cfg->borrowed, object))
    return NULL;
  g_hash_table_add (cfg->borrowed, object);
  return object;
}

/* Offers object to the next configuration under key. One with
 * hook-commands() is not offered: it restarts at a reload, so that its
 * teardown() and setup() run as in syslog-ng. */
void
sl_config_keep_reusable (SlConfig *cfg, gchar *key, gpointer object, const SlDriver *driver)
{
  if (sl_hook_commands_any (sl_driver_hook_commands (driver)))
    g_free (key);
  else
    g_hash_table_insert (cfg->reusable, key, object);
}

SlTemplate *
sl_config_compile_template (SlConfig *cfg, const gchar *text, SlCfgPos pos, GError **error)
{
  gchar *key = sl_cfg_name_normalize (text);
  SlTemplate *named = cfg ? g_hash_table_lookup (cfg->templates, key) : NULL;
  g_free (key);
  if (named)
    return sl_template_ref (named);
  return compile_located (text, pos, error);
}

gboolean
sl_config_build (SlConfig *cfg, GError **error)
{
  sl_template_set_user_functions (cfg->template_functions);
  sl_template_set_named (cfg->templates);
  sl_cfg_set_compiling_version_4 (sl_cfg_version_is_4 (cfg->tree));
  gboolean ok = collect_objects (cfg, error) && check_globals (cfg->globals, error)
                && (cfg->stats_options = sl_driver_bind_stats (cfg->globals, &cfg->stats, error))
                && (cfg->daemon_options = sl_driver_bind_daemon (cfg->globals, &cfg->daemon, error))
                && compile_template_functions (cfg, error) && compile_templates (cfg, error);
  if (ok)
    cfg->globals_text = shared_text (cfg);
  ok = ok && check_unused_objects (cfg, error);
  sl_template_set_user_functions (NULL);
  sl_template_set_named (NULL);
  sl_cfg_set_compiling_version_4 (FALSE);
  return ok;
}

const SlCfgNode *
sl_config_tree (const SlConfig *cfg)
{
  return cfg->tree;
}
