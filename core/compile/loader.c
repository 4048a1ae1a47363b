/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/compile/loader.h"
#include "core/compile/loader-private.h"
#include "core/compile/plugin-index.h"
#include "core/plugin/registry-private.h"
#include "core/route/driver.h"
#include "core/config/tree.h"
#include "core/i18n.h"
#include "core/internal.h"

#include <ltdl.h>
#include <string.h>

/* The operation a class of its kind cannot do without, or NULL when it has
 * them all. */
static const gchar *
missing_operation (const SlDriverClass *k)
{
  switch (k->kind)
    {
    case SL_DRIVER_SOURCE:
      return !k->ops.source ? "source operations" : !k->ops.source->start ? "start()" : NULL;
    case SL_DRIVER_DESTINATION:
      return !k->ops.destination ? "destination operations" : !k->ops.destination->write ? "write()" : NULL;
    case SL_DRIVER_FILTER:
      return !k->ops.filter ? "filter operations"
             : !k->ops.filter->match && !k->ops.filter->process ? "match() or process()" : NULL;
    case SL_DRIVER_PARSER:
      return !k->ops.parser ? "parser operations" : !k->ops.parser->process ? "process()" : NULL;
    case SL_DRIVER_REWRITE:
      return !k->ops.rewrite ? "rewrite operations" : !k->ops.rewrite->process ? "process()" : NULL;
    case SL_DRIVER_TEMPLATE_FUNCTION:
      return !k->ops.template_function ? "template function operations"
             : !k->ops.template_function->eval ? "eval()" : NULL;
    case SL_DRIVER_FORMAT:
      return !k->ops.format ? "format operations" : !k->ops.format->parse ? "parse()" : NULL;
    default:
      return NULL;
    }
}

/* An option named twice among a class's tables: the one the driver lists
 * and one the core adds would fight over which is meant. */
static const gchar *
option_named_twice (const SlDriverClass *klass)
{
  const SlOptionSpec *tables[SL_DRIVER_TABLES_MAX + 1];
  sl_driver_class_tables (klass, tables);
  for (guint t = 0; tables[t]; t++)
    for (const SlOptionSpec *o = tables[t]; o->name; o++)
      {
        const SlOptionSpec *first = sl_options_find (tables, o->name);
        if (first != o)
          return o->name;
      }
  return NULL;
}

/* The capabilities each kind can have: the core adds options for them
 * (sl_driver_class_tables()) or reads them for that kind only. */
static guint32
capabilities_of (SlDriverKind kind)
{
  switch (kind)
    {
    case SL_DRIVER_SOURCE:
      return SL_CAP_PARSES | SL_CAP_CONNECTIONS;
    case SL_DRIVER_DESTINATION:
      return SL_CAP_TEMPLATES | SL_CAP_WORKERS | SL_CAP_DISK_BUFFER | SL_CAP_BATCHES | SL_CAP_SUPPRESS
             | SL_CAP_MARKS | SL_CAP_ANSWERS;
    case SL_DRIVER_PARSER:
      return SL_CAP_EMITS;
    default:
      return 0;
    }
}

/* Kinds whose classes are made into instances (sl_driver_new()); template
 * functions and formats are called through their class alone. */
static gboolean
has_instances (SlDriverKind kind)
{
  return kind != SL_DRIVER_TEMPLATE_FUNCTION && kind != SL_DRIVER_FORMAT;
}

/* What is wrong with the class's option tables or its defaults, or NULL:
 * a class with a bad default would otherwise fail on every instance. */
static gchar *
tables_problem (const SlDriverClass *klass)
{
  const SlOptionSpec *tables[SL_DRIVER_TABLES_MAX + 1];
  sl_driver_class_tables (klass, tables);
  g_autofree gchar *owner = g_strdup_printf ("%s()", klass->name);
  const SlOptionSpec *positional = NULL;
  for (guint t = 0; tables[t]; t++)
    for (const SlOptionSpec *o = tables[t]; o->name; o++)
      {
        /* the core's tables are bound to its own share of the instance */
        gsize size = t == 0 && klass->options == tables[0] && has_instances (klass->kind) ? klass->instance_size : 0;
        gchar *problem = sl_option_spec_problem (owner, o, sl_driver_class_default (klass, o), size);
        if (problem)
          return problem;
        if ((o->flags & SL_OPT_POSITIONAL) && positional)
          return g_strdup_printf (_("options %s() and %s() are both positional"), positional->name, o->name);
        if (o->flags & SL_OPT_POSITIONAL)
          positional = o;
      }
  for (const gchar *const *d = klass->defaults; d && d[0]; d += 2)
    if (!d[1] || !sl_options_find (tables, d[0]))
      return g_strdup_printf (_("its defaults name '%s', which is not one of its options or has no value"), d[0]);
  return NULL;
}

/* What the class's kind does not allow it, or NULL. */
static gchar *
shape_problem (const SlDriverClass *klass)
{
  guint32 extra = klass->capabilities & ~capabilities_of (klass->kind);
  if (extra)
    return g_strdup_printf (_("it has capabilities 0x%x, which a %s driver cannot have"), extra,
                            sl_driver_kind_name (klass->kind));
  if (has_instances (klass->kind) && klass->instance_size < sizeof (SlDriver))
    return g_strdup_printf (_("its instance_size is %" G_GSIZE_FORMAT
                              "; give it the sizeof of the driver's struct, which starts with SlDriver"),
                            klass->instance_size);
  return NULL;
}

static gboolean
check_class (const SlDriverClass *klass, const gchar *file, GError **error)
{
  if (!klass->name || !*klass->name)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, _("plugin %s: a driver class has no name"), file);
      return FALSE;
    }
  if ((guint) klass->kind >= SL_DRIVER_KIND_COUNT)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   _("plugin %s: driver '%s' is of kind %d, which this sluiced does not know"),
                   file, klass->name, (gint) klass->kind);
      return FALSE;
    }
  const gchar *missing = missing_operation (klass);
  if (missing)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   _("plugin %s: %s driver '%s' has no %s"), file, sl_driver_kind_name (klass->kind),
                   klass->name, missing);
      return FALSE;
    }
  g_autofree gchar *problem = shape_problem (klass);
  if (!problem)
    problem = tables_problem (klass);
  if (problem)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, _("plugin %s: %s driver '%s': %s"), file,
                   sl_driver_kind_name (klass->kind), klass->name, problem);
      return FALSE;
    }
  const gchar *twice = option_named_twice (klass);
  if (twice)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   _("plugin %s: %s driver '%s' declares option '%s' twice (or one the core adds for it)"),
                   file, sl_driver_kind_name (klass->kind), klass->name, twice);
      return FALSE;
    }
  return TRUE;
}

gboolean
sl_plugins_register (const SlModule *module, const gchar *file, GError **error)
{
  for (const SlDriverClass *const *d = module->drivers; *d; d++)
    if (!check_class (*d, file, error))
      return FALSE;
  return sl_registry_add (module, file, error);
}

/* Loads and registers the plugin at path; *loaded is its module, or NULL
 * when path is no Sluice plugin. */
static gboolean
load_one (const gchar *path, const SlModule **loaded, GError **error)
{
  *loaded = NULL;
  lt_dlhandle handle = lt_dlopenext (path);
  if (!handle)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
                   _("cannot load plugin %s: %s"), path, lt_dlerror ());
      return FALSE;
    }
  const SlModule *module = lt_dlsym (handle, SL_MODULE_SYMBOL);
  if (!module)
    {
      sl_log (SL_LOG_DEBUG, _("%s has no %s; not a Sluice plugin"), path, SL_MODULE_SYMBOL);
      lt_dlclose (handle);
      return TRUE;
    }
  if (module->abi_version != SL_ABI_VERSION)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
                   _("plugin %s was built for plugin ABI %u, but this sluiced speaks ABI %u; rebuild the plugin against this version"),
                   path, module->abi_version, SL_ABI_VERSION);
      lt_dlclose (handle);
      return FALSE;
    }
  if (!sl_plugins_register (module, path, error))
    {
      lt_dlclose (handle);
      return FALSE;
    }
  sl_log (SL_LOG_DEBUG, _("loaded plugin %s (%s)"), module->name, path);
  *loaded = module;
  return TRUE;
}

/* The registry's loader of announced plugins. */
static void
load_announced (const gchar *path)
{
  const SlModule *module;
  GError *err = NULL;
  if (!load_one (path, &module, &err))
    {
      sl_log (SL_LOG_ERROR, "%s", err->message);
      g_error_free (err);
    }
}

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const gchar *const *) a, *(const gchar *const *) b);
}

/* The plugins of one folder (files ending in .so) that no folder before
 * it had, in name order, as full paths. */
static GPtrArray *
plugins_in (const gchar *dir, GHashTable *seen)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  if (!d)
    return NULL;
  const gchar *entry;
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  while ((entry = g_dir_read_name (d)))
    if (g_str_has_suffix (entry, ".so") && !g_hash_table_contains (seen, entry))
      {
        g_hash_table_add (seen, g_strdup (entry));
        g_ptr_array_add (names, g_strdup (entry));
      }
  g_dir_close (d);
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    {
      gchar *name = names->pdata[i];
      names->pdata[i] = g_build_filename (dir, name, NULL);
      g_free (name);
    }
  return names;
}

/* A plugin that fails to load is reported and skipped: one broken or stale
 * shared object must not take down every other driver. With an index, a
 * plugin it lists is only announced (loaded when a configuration names
 * it). The modules loaded go into loaded, their files into files, when
 * they are not NULL. */
static void
scan_dir (const gchar *dir, GHashTable *seen, GHashTable *index, GPtrArray *files, GPtrArray *loaded)
{
  g_autoptr (GPtrArray) plugins = plugins_in (dir, seen);
  for (guint i = 0; plugins && i < plugins->len; i++)
    {
      const gchar *path = g_ptr_array_index (plugins, i);
      g_autofree gchar *name = g_path_get_basename (path);
      const SlPluginEntry *entry = index ? g_hash_table_lookup (index, name) : NULL;
      const SlModule *module = NULL;
      GError *err = NULL;
      gboolean ok = entry ? sl_registry_announce (path, &entry->names, &err) : load_one (path, &module, &err);
      if (!ok)
        {
          sl_log (SL_LOG_ERROR, "%s", err->message);
          g_error_free (err);
        }
      if (module && files)
        {
          g_ptr_array_add (files, g_strdup (path));
          g_ptr_array_add (loaded, (gpointer) module);
        }
    }
}

/* Calls func for each folder of search_path; FALSE (and error set) when
 * none is a folder. */
static gboolean
foreach_folder (const gchar *search_path, void (*func) (const gchar *dir, GHashTable *seen, gpointer data),
                gpointer data, GError **error)
{
  static gsize initialized;
  if (g_once_init_enter (&initialized))
    {
      lt_dlinit ();
      sl_registry_set_loader (load_announced);
      g_once_init_leave (&initialized, 1);
    }
  gchar **dirs = g_strsplit (search_path, G_SEARCHPATH_SEPARATOR_S, -1);
  GHashTable *seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint found = 0;
  for (gchar **dir = dirs; *dir; dir++)
    {
      if (!**dir)
        continue;
      if (g_file_test (*dir, G_FILE_TEST_IS_DIR))
        found++;
      func (*dir, seen, data);
    }
  g_hash_table_unref (seen);
  g_strfreev (dirs);
  if (!found)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT,
                   _("no plugin folder found in module path '%s'"), search_path);
      return FALSE;
    }
  return TRUE;
}

static void
load_folder (const gchar *dir, GHashTable *seen, gpointer data)
{
  const SlPluginsLoading *how = data;
  g_autoptr (GHashTable) index = *how == SL_PLUGINS_AS_NAMED ? sl_plugin_index_read (dir) : NULL;
  scan_dir (dir, seen, index, NULL, NULL);
}

gboolean
sl_plugins_load (const gchar *search_path, SlPluginsLoading how, GError **error)
{
  return foreach_folder (search_path, load_folder, &how, error);
}

static void
index_folder (const gchar *dir, GHashTable *seen, gpointer data)
{
  gboolean *ok = data;
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) modules = g_ptr_array_new ();
  scan_dir (dir, seen, NULL, files, modules);
  GError *err = NULL;
  if (g_file_test (dir, G_FILE_TEST_IS_DIR) && !sl_plugin_index_write (dir, files, modules, &err))
    {
      sl_log (SL_LOG_ERROR, _("the plugin index of %s could not be written: %s"), dir, err->message);
      g_error_free (err);
      *ok = FALSE;
    }
}

gboolean
sl_plugins_write_index (const gchar *search_path, GError **error)
{
  gboolean written = TRUE;
  if (!foreach_folder (search_path, index_folder, &written, error))
    return FALSE;
  if (!written)
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, _("not every plugin index could be written"));
  return written;
}

const gchar *
sl_driver_class_default (const SlDriverClass *klass, const SlOptionSpec *o)
{
  for (const gchar *const *d = klass->defaults; d && d[0]; d += 2)
    if (sl_cfg_name_equal (d[0], o->name))
      return d[1];
  return o->def;
}

static void
help_table (GString *out, const SlDriverClass *klass, const SlOptionSpec *table)
{
  for (const SlOptionSpec *o = table; o->name; o++)
    {
      const gchar *def = sl_driver_class_default (klass, o);
      gchar *takes = sl_option_value_text (o);
      g_string_append_printf (out, "  %s%s(%s)", (o->flags & SL_OPT_POSITIONAL) ? "[positional] " : "",
                              o->name, takes);
      if (def)
        {
          gchar *shown = sl_option_default_text (def);
          g_string_append_printf (out, " = %s", shown);
          g_free (shown);
        }
      g_string_append_printf (out, "\n      %s%s%s\n", o->help ? o->help : "",
                              (o->flags & SL_OPT_REQUIRED) ? _(" (required)") : "",
                              o->inherit ? _(" (inherited from options {})") : "");
      g_free (takes);
    }
}

gchar *
sl_plugins_help (const SlDriverClass *klass)
{
  GString *out = g_string_new (NULL);
  g_string_append_printf (out, "%s %s(): %s\n", sl_driver_kind_name (klass->kind),
                          klass->name, klass->summary ? klass->summary : "");
  const SlOptionSpec *tables[SL_DRIVER_TABLES_MAX + 1];
  sl_driver_class_tables (klass, tables);
  if (!tables[0] || (!tables[0]->name && !tables[1]))
    {
      g_string_append (out, _("  no options\n"));
      return g_string_free (out, FALSE);
    }
  for (guint i = 0; tables[i]; i++)
    help_table (out, klass, tables[i]);
  return g_string_free (out, FALSE);
}
