/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/compile/config-run.h"
#include "core/message/macros.h"
#include "core/compile/config-private.h"
#include "core/config/parser.h"
#include "core/config/syntax-version.h"
#include "core/route/driver-private.h"
#include "core/compile/filter-expr-compile.h"
#include "core/route/hook-commands.h"
#include "core/i18n.h"
#include "core/message/in-flight.h"
#include "core/internal.h"
#include "core/compile/path-compile.h"
#include "core/route/source-private.h"
#include "core/message/template-private.h"
#include "core/route/scheduler.h"


static gpointer
template_new (gpointer cfg, const gchar *text, const gchar *hint, SlCfgPos pos, GError **error)
{
  if (hint)
    return sl_config_compile_hinted_template (text, hint, pos, error);
  return sl_config_compile_template (cfg, text, pos, error);
}

static gpointer
filter_new (gpointer cfg, const SlCfgNode *option, GError **error)
{
  return sl_filter_expr_compile (cfg, g_ptr_array_index (option->children, 0), error);
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
  cfg->schedulers = g_ptr_array_new ();
  cfg->id_counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  cfg->tap_points = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  cfg->reusable = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  cfg->borrowed = g_hash_table_new (g_direct_hash, g_direct_equal);
  /* what its drivers' template and filter options are compiled with */
  cfg->compiler = (SlOptionsCompiler) {
    .template_new = template_new,
    .template_free = (void (*) (gpointer)) sl_template_unref,
    .filter_new = filter_new,
    .filter_free = (void (*) (gpointer)) sl_filter_expr_free,
    .user_data = cfg,
  };
  return cfg;
}

static SlConfig *
config_compile (SlCfgNode *tree, SlConfig *running, GError **error)
{
  if (!tree)
    return NULL;
  SlConfig *cfg = config_new (tree);
  cfg->donor = running;
  gboolean ok = sl_config_build (cfg, error);
  sl_template_set_user_functions (cfg->template_functions);
  sl_template_set_named (cfg->templates);
  sl_cfg_set_compiling_version_4 (sl_cfg_version_is_4 (cfg->tree));
  ok = ok && sl_path_compile_all (cfg, error);
  sl_template_set_user_functions (NULL);
  sl_template_set_named (NULL);
  sl_cfg_set_compiling_version_4 (FALSE);
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
  /* one made while a configuration compiles ($(if)'s filter) must leave
   * the rest of it compiling as before: as 4.x or 3.x, with its template
   * objects and template functions */
  gboolean version_4 = sl_cfg_compiling_version_4 ();
  GHashTable *functions = sl_template_user_functions ();
  GHashTable *named = sl_template_named ();
  sl_config_build (cfg, NULL);
  sl_cfg_set_compiling_version_4 (version_4);
  sl_template_set_user_functions (functions);
  sl_template_set_named (named);
  return cfg;
}

const SlStatsSettings *
sl_config_stats (const SlConfig *cfg)
{
  return &cfg->stats;
}

const SlDaemonSettings *
sl_config_daemon (const SlConfig *cfg)
{
  return &cfg->daemon;
}

SlCfgPos
sl_config_daemon_pos (const SlConfig *cfg, const gchar *name)
{
  return cfg->daemon_options ? sl_options_pos (cfg->daemon_options, name) : (SlCfgPos) { 0 };
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

static SlDriver *
destination_driver (SlDestination *d)
{
  return g_ptr_array_index (sl_destination_drivers (d), 0);
}

static gboolean
driver_hooks_before_start (const SlDriver *driver, gboolean daemon_starting, GError **error)
{
  return sl_hook_commands_before_start (sl_driver_hook_commands (driver), driver->id, daemon_starting, error);
}

static void
driver_hooks_after_stop (const SlDriver *driver, gboolean daemon_exiting)
{
  sl_hook_commands_after_stop (sl_driver_hook_commands (driver), driver->id, daemon_exiting);
}

/* Sources and destinations start and stop with their hook-commands();
 * daemon_starting and daemon_exiting tell the daemon's start and exit
 * from a reload, as syslog-ng's startup() and shutdown() need. */
static gboolean
start_destination (SlDestination *d, gboolean daemon_starting, GError **error)
{
  if (!driver_hooks_before_start (destination_driver (d), daemon_starting, error))
    return FALSE;
  if (sl_destination_start (d, error))
    return TRUE;
  driver_hooks_after_stop (destination_driver (d), FALSE);
  return FALSE;
}

static void
stop_destination (SlDestination *d, gboolean daemon_exiting)
{
  sl_destination_stop (d);
  driver_hooks_after_stop (destination_driver (d), daemon_exiting);
}

/* parallelize()'s partitions run between sources and destinations: they
 * start before a source can route to them, and stop after the sources,
 * with what they hold routed on, before a destination stops. */
static void
start_schedulers (SlConfig *cfg)
{
  for (guint i = 0; i < cfg->schedulers->len; i++)
    sl_scheduler_start (g_ptr_array_index (cfg->schedulers, i));
}

static void
stop_schedulers (SlConfig *cfg)
{
  for (guint i = 0; i < cfg->schedulers->len; i++)
    sl_scheduler_stop (g_ptr_array_index (cfg->schedulers, i));
}

static gboolean
start_source (SlSource *src, gboolean daemon_starting, GError **error)
{
  if (!src->paths->len)
    return TRUE;
  if (!driver_hooks_before_start (src->driver, daemon_starting, error))
    return FALSE;
  if (sl_source_start (src, error))
    return TRUE;
  driver_hooks_after_stop (src->driver, FALSE);
  return FALSE;
}

static void
stop_source (SlSource *src, gboolean daemon_exiting)
{
  sl_source_stop (src);
  driver_hooks_after_stop (src->driver, daemon_exiting);
}

gboolean
sl_config_start (SlConfig *cfg, GError **error)
{
  sl_in_flight_set_max (cfg->daemon.in_flight_bytes_max);
  sl_macro_set_loghost (cfg->daemon.local_hostname, cfg->daemon.use_fqdn);
  for (guint i = 0; i < cfg->destinations->len; i++)
    if (!start_destination (g_ptr_array_index (cfg->destinations, i), TRUE, error))
      goto fail;
  cfg->started = TRUE;
  start_schedulers (cfg);
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
  stop_schedulers (cfg);
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
  start_schedulers (next);
  for (; srcs < next->sources->len; srcs++)
    {
      SlSource *src = g_ptr_array_index (next->sources, srcs);
      if (borrowed (next, src))
        continue;
      sl_source_use_compiled_paths (src);
      if (!start_source (src, FALSE, error))
        goto undo;
    }
  /* running's partitions route on what they hold before the sources kept
   * route by next's paths, so that a key's messages keep their order;
   * meanwhile those sources route by running's paths in place */
  stop_schedulers (running);
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
          driver_hooks_after_stop (destination_driver (d), FALSE);
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
  stop_schedulers (next);
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
  g_ptr_array_unref (cfg->schedulers);
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
  /* a $(template ${NAME}) keeps the table: a destination the next
   * configuration took over still finds the templates it names */
  g_hash_table_unref (cfg->templates);
  g_hash_table_unref (cfg->template_functions);
  g_hash_table_unref (cfg->objects);
  g_hash_table_unref (cfg->id_counts);
  g_hash_table_unref (cfg->tap_points);
  g_hash_table_unref (cfg->reusable);
  g_hash_table_unref (cfg->borrowed);
  g_free (cfg->globals_text);
  if (cfg->stats_options)
    sl_options_free (cfg->stats_options);
  if (cfg->daemon_options)
    sl_options_free (cfg->daemon_options);
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

SlTapPoint *
sl_config_tap_point (SlConfig *cfg, const gchar *id, GError **error)
{
  static const gchar *const kinds[] = { "source", "parser", "rewrite", "destination" };
  gchar *normalized = sl_cfg_name_normalize (id);
  /* "KIND/NAME" is a key as it is */
  SlTapPoint *found = g_hash_table_lookup (cfg->tap_points, normalized);
  SlTapPoint *named = NULL;
  guint n_named = 0;
  GString *which = g_string_new (NULL);
  for (guint i = 0; !found && i < G_N_ELEMENTS (kinds); i++)
    {
      gchar *key = g_strconcat (kinds[i], "/", normalized, NULL);
      SlTapPoint *point = g_hash_table_lookup (cfg->tap_points, key);
      g_free (key);
      if (!point)
        continue;
      named = point;
      n_named++;
      g_string_append_printf (which, "%s%s/%s", which->len ? ", " : "", kinds[i], id);
    }
  g_free (normalized);
  if (n_named > 1)
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_EXIST, _("'%s' names more than one object; give one of %s"), id,
                 which->str);
  else if (!found && !named)
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                 _("no source, parser, rewrite or destination of the running configuration's paths is called '%s'"),
                 id);
  else if (!found)
    found = named;
  g_string_free (which, TRUE);
  return found;
}
