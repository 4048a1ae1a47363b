/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/config-private.h"
#include "core/hook-commands.h"
#include "core/config/error.h"
#include "core/config/parser.h"
#include "core/driver.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/path-compile.h"
#include "core/source-private.h"

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

static gboolean
compile_templates (SlConfig *cfg, GError **error)
{
  GHashTableIter it;
  gpointer key, value;
  g_hash_table_iter_init (&it, cfg->objects);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      const SlCfgNode *node = value;
      if (!g_str_has_prefix (key, "template/"))
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

static SlConfig *
config_new (SlCfgNode *tree)
{
  SlConfig *cfg = g_new0 (SlConfig, 1);
  cfg->tree = tree;
  cfg->objects = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  cfg->templates = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) sl_template_unref);
  cfg->template_functions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                   (GDestroyNotify) sl_template_user_function_free);
  cfg->drivers = g_ptr_array_new ();
  cfg->source_groups = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
  cfg->dest_groups = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
  cfg->sources = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_source_free);
  cfg->destinations = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_destination_free);
  cfg->paths = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_path_free);
  cfg->channels = g_ptr_array_new_with_free_func ((GDestroyNotify) sl_path_free);
  cfg->source_entries = g_hash_table_new (NULL, NULL);
  cfg->dest_channels = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_ptr_array_unref);
  cfg->id_counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  cfg->reusable = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  cfg->borrowed = g_hash_table_new (g_direct_hash, g_direct_equal);
  return cfg;
}

static SlConfig *
config_compile (SlCfgNode *tree, SlConfig *running, GError **error)
{
  if (!tree)
    return NULL;
  SlConfig *cfg = config_new (tree);
  cfg->donor = running;
  sl_template_set_user_functions (cfg->template_functions);
  gboolean ok = collect_objects (cfg, error) && sl_driver_check_globals (cfg->globals, error)
                && (cfg->stats_options = sl_driver_bind_stats (cfg->globals, &cfg->stats, error))
                && compile_template_functions (cfg, error) && compile_templates (cfg, error);
  if (ok)
    cfg->globals_text = shared_text (cfg);
  ok = ok && check_unused_objects (cfg, error) && sl_path_compile_all (cfg, error);
  sl_template_set_user_functions (NULL);
  cfg->donor = NULL;
  if (!ok)
    {
      sl_config_free (cfg);
      return NULL;
    }
  if (!cfg->paths->len)
    sl_log (SL_LOG_WARNING, _("the configuration has no log path; nothing will be routed"));
  return cfg;
}

SlConfig *
sl_config_new_empty (void)
{
  SlConfig *cfg = config_new (sl_cfg_node_new ("config", (SlCfgPos) { sl_cfg_intern_file ("<none>"), 0, 0 }));
  collect_objects (cfg, NULL);
  return cfg;
}

const SlStatsSettings *
sl_config_stats (const SlConfig *cfg)
{
  return &cfg->stats;
}

SlConfig *
sl_config_load (const gchar *path, GError **error)
{
  return config_compile (sl_cfg_parse_file (path, error), NULL, error);
}

SlConfig *
sl_config_load_string (const gchar *text, const gchar *name, GError **error)
{
  return config_compile (sl_cfg_parse_string (text, name, error), NULL, error);
}

SlConfig *
sl_config_load_after (const gchar *path, SlConfig *running, GError **error)
{
  return config_compile (sl_cfg_parse_file (path, error), running, error);
}

SlConfig *
sl_config_load_string_after (const gchar *text, const gchar *name, SlConfig *running, GError **error)
{
  return config_compile (sl_cfg_parse_string (text, name, error), running, error);
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

static SlDriver *
new_driver_with_id (SlConfig *cfg, const SlDriverClass *klass, const SlCfgNode *node, const gchar *id,
                    GError **error)
{
  SlDriver *driver = sl_driver_new (cfg, klass, node, cfg->globals, id, error);
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
  SlDriver *driver = new_driver_with_id (cfg, klass, node, id, error);
  g_free (id);
  return driver;
}

static const SlCfgNode *
group_body (SlConfig *cfg, const gchar *kind, const gchar *name, const SlCfgNode *body)
{
  return body ? body : sl_config_find_object (cfg, kind, name);
}

/* What a source or destination is known by across reloads. */
static gchar *
reuse_key (SlConfig *cfg, const gchar *kind, const gchar *group, guint index, const SlCfgNode *node)
{
  gchar *text = sl_cfg_node_to_string (node);
  gchar *key = g_strdup_printf ("%s\n%s\n%u\n%s\n%s", kind, group, index, text, cfg->globals_text);
  g_free (text);
  return key;
}

/* The running configuration's object made the same way, marked as taken
 * by cfg; NULL when there is none or it was taken already. */
static gpointer
borrow (SlConfig *cfg, const gchar *key)
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
static void
keep_reusable (SlConfig *cfg, gchar *key, gpointer object, const SlDriver *driver)
{
  if (sl_hook_commands_any (driver))
    g_free (key);
  else
    g_hash_table_insert (cfg->reusable, key, object);
}

/* `source s { channel { source { ... }; parser { ... }; }; };`: the
 * channel's sources are the group's, and their messages go through the
 * channel before the paths that take the group (sl_path_compile_all). */
static gboolean
add_source_channel (SlConfig *cfg, GPtrArray *group, const SlCfgNode *node, GError **error)
{
  GPtrArray *sources = g_ptr_array_new ();
  SlPath *channel = sl_path_compile_channel (cfg, node, sources, error);
  if (channel)
    {
      g_ptr_array_add (cfg->channels, channel);
      for (guint s = 0; s < sources->len; s++)
        {
          SlSource *src = g_ptr_array_index (sources, s);
          g_hash_table_insert (cfg->source_entries, src, channel);
          if (!g_ptr_array_find (group, src, NULL))
            g_ptr_array_add (group, src);
        }
    }
  g_ptr_array_unref (sources);
  return channel != NULL;
}

GPtrArray *
sl_config_source_group (SlConfig *cfg, const gchar *name, const SlCfgNode *body, GError **error)
{
  gchar *key = sl_cfg_name_normalize (name);
  GPtrArray *group = g_hash_table_lookup (cfg->source_groups, key);
  if (group)
    {
      g_free (key);
      return group;
    }
  body = group_body (cfg, "source", name, body);
  if (!body)
    {
      g_free (key);
      return NULL;
    }
  group = g_ptr_array_new ();
  g_hash_table_insert (cfg->source_groups, key, group);
  for (guint i = 0; body->children && i < body->children->len; i++)
    {
      const SlCfgNode *node = g_ptr_array_index (body->children, i);
      if (is_channel (node))
        {
          if (!add_source_channel (cfg, group, node, error))
            return NULL;
          continue;
        }
      gchar *reuse = reuse_key (cfg, "source", name, i, node);
      SlSource *src = borrow (cfg, reuse);
      if (src)
        {
          g_free (next_id (cfg, SL_DRIVER_SOURCE, name));
          g_hash_table_add (cfg->borrowed, src->driver);
          src->compiled = g_ptr_array_new ();
        }
      else
        {
          SlDriver *d = sl_config_new_driver (cfg, SL_DRIVER_SOURCE, node, name, error);
          src = d ? sl_source_new (cfg, d, name, error) : NULL;
        }
      if (!src)
        {
          g_free (reuse);
          return NULL;
        }
      keep_reusable (cfg, reuse, src, src->driver);
      g_ptr_array_add (group, src);
      g_ptr_array_add (cfg->sources, src);
    }
  return group;
}

GPtrArray *
sl_config_dest_group (SlConfig *cfg, const gchar *name, const SlCfgNode *body, GError **error)
{
  gchar *key = sl_cfg_name_normalize (name);
  GPtrArray *group = g_hash_table_lookup (cfg->dest_groups, key);
  if (group)
    {
      g_free (key);
      return group;
    }
  body = group_body (cfg, "destination", name, body);
  if (!body)
    {
      g_free (key);
      return NULL;
    }
  group = g_ptr_array_new ();
  g_hash_table_insert (cfg->dest_groups, key, group);
  for (guint i = 0; body->children && i < body->children->len; i++)
    {
      const SlCfgNode *node = g_ptr_array_index (body->children, i);
      if (is_channel (node))
        {
          SlPath *channel = sl_path_compile_channel (cfg, node, NULL, error);
          if (!channel)
            return NULL;
          g_ptr_array_add (cfg->channels, channel);
          GPtrArray *channels = g_hash_table_lookup (cfg->dest_channels, group);
          if (!channels)
            {
              channels = g_ptr_array_new ();
              g_hash_table_insert (cfg->dest_channels, group, channels);
            }
          g_ptr_array_add (channels, channel);
          continue;
        }
      gchar *reuse = reuse_key (cfg, "destination", name, i, node);
      SlDestination *kept = borrow (cfg, reuse);
      if (kept)
        {
          g_free (next_id (cfg, SL_DRIVER_DESTINATION, name));
          GPtrArray *drivers = sl_destination_drivers (kept);
          for (guint w = 0; w < drivers->len; w++)
            g_hash_table_add (cfg->borrowed, g_ptr_array_index (drivers, w));
          g_hash_table_insert (cfg->reusable, reuse, kept);
          g_ptr_array_add (group, kept);
          g_ptr_array_add (cfg->destinations, kept);
          continue;
        }
      SlDriver *d = sl_config_new_driver (cfg, SL_DRIVER_DESTINATION, node, name, error);
      if (!d)
        {
          g_free (reuse);
          return NULL;
        }
      const SlDestinationOptions *o = sl_driver_destination_options (d);
      GPtrArray *workers = g_ptr_array_new ();
      g_ptr_array_add (workers, d);
      for (gint w = 1; w < o->workers; w++)
        {
          SlDriver *worker = new_driver_with_id (cfg, d->klass, node, d->id, error);
          if (!worker)
            {
              g_ptr_array_unref (workers);
              return NULL;
            }
          g_ptr_array_add (workers, worker);
        }
      SlDestination *dest = sl_destination_new (workers, o);
      keep_reusable (cfg, reuse, dest, d);
      g_ptr_array_add (group, dest);
      g_ptr_array_add (cfg->destinations, dest);
    }
  return group;
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

static SlDriver *
destination_driver (SlDestination *d)
{
  return g_ptr_array_index (sl_destination_drivers (d), 0);
}

/* Sources and destinations start and stop with their hook-commands();
 * daemon_starting and daemon_exiting tell the daemon's start and exit
 * from a reload, as syslog-ng's startup() and shutdown() need. */
static gboolean
start_destination (SlDestination *d, gboolean daemon_starting, GError **error)
{
  if (!sl_hook_commands_before_start (destination_driver (d), daemon_starting, error))
    return FALSE;
  if (sl_destination_start (d, error))
    return TRUE;
  sl_hook_commands_after_stop (destination_driver (d), FALSE);
  return FALSE;
}

static void
stop_destination (SlDestination *d, gboolean daemon_exiting)
{
  sl_destination_stop (d);
  sl_hook_commands_after_stop (destination_driver (d), daemon_exiting);
}

static gboolean
start_source (SlSource *src, gboolean daemon_starting, GError **error)
{
  if (!src->paths->len)
    return TRUE;
  if (!sl_hook_commands_before_start (src->driver, daemon_starting, error))
    return FALSE;
  if (sl_source_start (src, error))
    return TRUE;
  sl_hook_commands_after_stop (src->driver, FALSE);
  return FALSE;
}

static void
stop_source (SlSource *src, gboolean daemon_exiting)
{
  sl_source_stop (src);
  sl_hook_commands_after_stop (src->driver, daemon_exiting);
}

gboolean
sl_config_start (SlConfig *cfg, GError **error)
{
  for (guint i = 0; i < cfg->destinations->len; i++)
    if (!start_destination (g_ptr_array_index (cfg->destinations, i), TRUE, error))
      goto fail;
  cfg->started = TRUE;
  for (guint i = 0; i < cfg->sources->len; i++)
    {
      SlSource *src = g_ptr_array_index (cfg->sources, i);
      sl_source_use_compiled_paths (src);
      if (!start_source (src, TRUE, error))
        goto fail;
    }
  return TRUE;

fail:
  sl_config_stop (cfg);
  return FALSE;
}

void
sl_config_stop (SlConfig *cfg)
{
  for (guint i = cfg->sources->len; i-- > 0;)
    stop_source (g_ptr_array_index (cfg->sources, i), TRUE);
  for (guint i = 0; i < cfg->destinations->len; i++)
    stop_destination (g_ptr_array_index (cfg->destinations, i), TRUE);
  cfg->started = FALSE;
}

static gboolean
borrowed (SlConfig *cfg, gpointer object)
{
  return g_hash_table_contains (cfg->borrowed, object);
}

/* Takes what cfg borrowed out of its arrays, so that freeing cfg leaves
 * it to its owner; the paths compiled for a borrowed source are dropped. */
static void
forget_borrowed (SlConfig *cfg)
{
  for (guint i = cfg->sources->len; i-- > 0;)
    {
      SlSource *src = g_ptr_array_index (cfg->sources, i);
      if (!borrowed (cfg, src))
        continue;
      g_clear_pointer (&src->compiled, g_ptr_array_unref);
      g_ptr_array_steal_index (cfg->sources, i);
    }
  for (guint i = cfg->destinations->len; i-- > 0;)
    if (borrowed (cfg, g_ptr_array_index (cfg->destinations, i)))
      g_ptr_array_steal_index (cfg->destinations, i);
  for (guint i = cfg->drivers->len; i-- > 0;)
    if (borrowed (cfg, g_ptr_array_index (cfg->drivers, i)))
      g_ptr_array_steal_index (cfg->drivers, i);
  g_hash_table_remove_all (cfg->borrowed);
}

/* Takes object out of array without the array's free function. */
static gboolean
steal (GPtrArray *array, gpointer object)
{
  guint index;
  if (!g_ptr_array_find (array, object, &index))
    return FALSE;
  g_ptr_array_steal_index_fast (array, index);
  return TRUE;
}

/* What next took over from running becomes next's: running's arrays let
 * go of it, and its drivers and sources belong to next. */
static void
hand_over (SlConfig *next, SlConfig *running)
{
  GHashTableIter it;
  gpointer object;
  g_hash_table_iter_init (&it, next->borrowed);
  while (g_hash_table_iter_next (&it, &object, NULL))
    {
      if (steal (running->sources, object) || steal (running->destinations, object))
        continue;
      if (steal (running->drivers, object))
        {
          ((SlDriver *) object)->cfg = next;
          g_ptr_array_add (next->drivers, object);
        }
    }
  for (guint i = 0; i < next->sources->len; i++)
    ((SlSource *) g_ptr_array_index (next->sources, i))->cfg = next;
  g_hash_table_remove_all (next->borrowed);
}

gboolean
sl_config_take_over (SlConfig *next, SlConfig *running, GError **error)
{
  /* the running sources next does not keep stop first: their ports may be
   * the ones next's new sources listen on */
  for (guint i = running->sources->len; i-- > 0;)
    {
      SlSource *src = g_ptr_array_index (running->sources, i);
      if (!borrowed (next, src))
        stop_source (src, FALSE);
    }
  guint dests = 0, srcs = 0;
  for (; dests < next->destinations->len; dests++)
    {
      SlDestination *d = g_ptr_array_index (next->destinations, dests);
      if (!borrowed (next, d) && !start_destination (d, FALSE, error))
        goto undo;
    }
  for (; srcs < next->sources->len; srcs++)
    {
      SlSource *src = g_ptr_array_index (next->sources, srcs);
      if (borrowed (next, src))
        continue;
      sl_source_use_compiled_paths (src);
      if (!start_source (src, FALSE, error))
        goto undo;
    }
  /* from here on the sources kept route by next's paths */
  for (guint i = 0; i < next->sources->len; i++)
    {
      SlSource *src = g_ptr_array_index (next->sources, i);
      if (borrowed (next, src))
        sl_source_use_compiled_paths (src);
    }
  /* a destination the reload changed hands what it still holds to the
   * one that replaces it (same id); one that is gone drains */
  GHashTable *replacements = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < next->destinations->len; i++)
    {
      SlDestination *d = g_ptr_array_index (next->destinations, i);
      if (!borrowed (next, d))
        g_hash_table_insert (replacements, (gpointer) sl_destination_driver_id (d), d);
    }
  for (guint i = 0; i < running->destinations->len; i++)
    {
      SlDestination *d = g_ptr_array_index (running->destinations, i);
      SlDestination *to = g_hash_table_lookup (replacements, sl_destination_driver_id (d));
      if (borrowed (next, d))
        continue;
      if (to)
        {
          sl_destination_hand_over (d, to);
          sl_hook_commands_after_stop (destination_driver (d), FALSE);
        }
      else
        stop_destination (d, FALSE);
    }
  g_hash_table_unref (replacements);
  running->started = FALSE;
  next->started = TRUE;
  hand_over (next, running);
  return TRUE;

undo:
  while (srcs-- > 0)
    {
      SlSource *src = g_ptr_array_index (next->sources, srcs);
      if (!borrowed (next, src))
        stop_source (src, FALSE);
    }
  for (guint i = 0; i < dests; i++)
    {
      SlDestination *d = g_ptr_array_index (next->destinations, i);
      if (!borrowed (next, d))
        stop_destination (d, FALSE);
    }
  for (guint i = 0; i < running->sources->len; i++)
    {
      SlSource *src = g_ptr_array_index (running->sources, i);
      GError *again = NULL;
      if (!borrowed (next, src) && !start_source (src, FALSE, &again))
        {
          sl_log (SL_LOG_ERROR, _("%s did not restart: %s"), src->driver->id, again->message);
          g_error_free (again);
        }
    }
  forget_borrowed (next);
  return FALSE;
}

void
sl_config_reopen (SlConfig *cfg)
{
  for (guint i = 0; i < cfg->destinations->len; i++)
    sl_destination_reopen (g_ptr_array_index (cfg->destinations, i));
}

void
sl_config_free (SlConfig *cfg)
{
  if (!cfg)
    return;
  forget_borrowed (cfg);
  if (cfg->started)
    sl_config_stop (cfg);
  g_ptr_array_unref (cfg->paths);
  g_ptr_array_unref (cfg->channels);
  g_hash_table_unref (cfg->source_entries);
  g_hash_table_unref (cfg->dest_channels);
  g_ptr_array_unref (cfg->sources);
  g_ptr_array_unref (cfg->destinations);
  for (guint i = 0; i < cfg->drivers->len; i++)
    {
      SlDriver *d = g_ptr_array_index (cfg->drivers, i);
      if (d->klass->free)
        d->klass->free (d);
      sl_driver_free (d);
    }
  g_ptr_array_unref (cfg->drivers);
  g_hash_table_unref (cfg->source_groups);
  g_hash_table_unref (cfg->dest_groups);
  g_hash_table_unref (cfg->templates);
  g_hash_table_unref (cfg->template_functions);
  g_hash_table_unref (cfg->objects);
  g_hash_table_unref (cfg->id_counts);
  g_hash_table_unref (cfg->reusable);
  g_hash_table_unref (cfg->borrowed);
  g_free (cfg->globals_text);
  if (cfg->stats_options)
    sl_options_free (cfg->stats_options);
  if (cfg->globals)
    {
      g_ptr_array_unref (cfg->globals->children);
      g_ptr_array_unref (cfg->globals->args);
      g_free (cfg->globals->name);
      g_free (cfg->globals);
    }
  sl_cfg_node_free (cfg->tree);
  g_free (cfg);
}
