#include "core/plugin.h"
#include "core/config/tree.h"
#include "core/i18n.h"
#include "core/internal.h"

#include <ltdl.h>
#include <string.h>

static const gchar *const kind_names[SL_DRIVER_KIND_COUNT] = {
  [SL_DRIVER_SOURCE] = "source",
  [SL_DRIVER_DESTINATION] = "destination",
  [SL_DRIVER_FILTER] = "filter",
  [SL_DRIVER_PARSER] = "parser",
  [SL_DRIVER_REWRITE] = "rewrite",
  [SL_DRIVER_TEMPLATE_FUNCTION] = "template function",
  [SL_DRIVER_FORMAT] = "format",
};

static GMutex registry_lock;
/* one table per kind: normalized name -> const SlDriverClass * */
static GHashTable *registry[SL_DRIVER_KIND_COUNT];

const gchar *
sl_driver_kind_name (SlDriverKind kind)
{
  return kind < SL_DRIVER_KIND_COUNT ? kind_names[kind] : "driver";
}

void
sl_plugins_register (const SlModule *module)
{
  g_mutex_lock (&registry_lock);
  for (const SlDriverClass *const *d = module->drivers; *d; d++)
    {
      SlDriverKind kind = (*d)->kind;
      if (!registry[kind])
        registry[kind] = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      g_hash_table_replace (registry[kind], sl_cfg_name_normalize ((*d)->name), (gpointer) *d);
    }
  g_mutex_unlock (&registry_lock);
}

const SlDriverClass *
sl_plugins_lookup (SlDriverKind kind, const gchar *name)
{
  gchar *key = sl_cfg_name_normalize (name);
  g_mutex_lock (&registry_lock);
  const SlDriverClass *klass = registry[kind] ? g_hash_table_lookup (registry[kind], key) : NULL;
  g_mutex_unlock (&registry_lock);
  g_free (key);
  return klass;
}

const SlDriverClass *
sl_plugins_lookup_any (const gchar *name)
{
  for (SlDriverKind k = 0; k < SL_DRIVER_KIND_COUNT; k++)
    {
      const SlDriverClass *klass = sl_plugins_lookup (k, name);
      if (klass)
        return klass;
    }
  return NULL;
}

static gint
compare_strings (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const gchar *const *) a, *(const gchar *const *) b);
}

GPtrArray *
sl_plugins_names (SlDriverKind kind)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  g_mutex_lock (&registry_lock);
  if (registry[kind])
    {
      GHashTableIter it;
      gpointer key;
      g_hash_table_iter_init (&it, registry[kind]);
      while (g_hash_table_iter_next (&it, &key, NULL))
        g_ptr_array_add (names, g_strdup (key));
    }
  g_mutex_unlock (&registry_lock);
  g_ptr_array_sort (names, compare_strings);
  return names;
}

static gboolean
load_one (const gchar *path, GError **error)
{
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
      sl_log (SL_LOG_DEBUG, "%s has no " SL_MODULE_SYMBOL "; not a Sluice plugin", path);
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
  sl_log (SL_LOG_DEBUG, "loaded plugin %s (%s)", module->name, path);
  sl_plugins_register (module);
  return TRUE;
}

/* A plugin that fails to load is reported and skipped: one broken or stale
 * shared object must not take down every other driver. */
static void
scan_dir (const gchar *dir, GHashTable *seen)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  if (!d)
    return;
  const gchar *entry;
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  while ((entry = g_dir_read_name (d)))
    if (g_str_has_suffix (entry, ".so"))
      g_ptr_array_add (names, g_strdup (entry));
  g_dir_close (d);
  g_ptr_array_sort (names, compare_strings);
  for (guint i = 0; i < names->len; i++)
    {
      const gchar *name = g_ptr_array_index (names, i);
      if (g_hash_table_contains (seen, name))
        continue;
      g_hash_table_add (seen, g_strdup (name));
      gchar *path = g_build_filename (dir, name, NULL);
      GError *err = NULL;
      if (!load_one (path, &err))
        {
          sl_log (SL_LOG_ERROR, "%s", err->message);
          g_error_free (err);
        }
      g_free (path);
    }
  g_ptr_array_unref (names);
}

gboolean
sl_plugins_load (const gchar *search_path, GError **error)
{
  static gsize initialized;
  if (g_once_init_enter (&initialized))
    {
      lt_dlinit ();
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
      scan_dir (*dir, seen);
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

static const gchar *const type_names[] = {
  [SL_OPT_STRING] = "string",
  [SL_OPT_INT] = "number",
  [SL_OPT_BOOL] = "yes|no",
  [SL_OPT_TEMPLATE] = "template",
  [SL_OPT_FLAGS] = "flags",
  [SL_OPT_LIST] = "list",
  [SL_OPT_BLOCK] = "block",
};

gchar *
sl_plugins_help (const SlDriverClass *klass)
{
  GString *out = g_string_new (NULL);
  g_string_append_printf (out, "%s %s(): %s\n", sl_driver_kind_name (klass->kind),
                          klass->name, klass->summary ? klass->summary : "");
  if (!klass->options || !klass->options[0].name)
    {
      g_string_append (out, _("  no options\n"));
      return g_string_free (out, FALSE);
    }
  for (const SlOptionSpec *o = klass->options; o->name; o++)
    {
      /* an option listed again, as a common one after a driver's own
       * version of it, is the one the driver overrides */
      gboolean overridden = FALSE;
      for (const SlOptionSpec *before = klass->options; before < o && !overridden; before++)
        overridden = strcmp (before->name, o->name) == 0;
      if (overridden)
        continue;
      g_string_append_printf (out, "  %s%s(%s)", o->positional ? "[positional] " : "",
                              o->name, o->choices ? o->choices : type_names[o->type]);
      if (o->def)
        g_string_append_printf (out, " = %s", o->def);
      g_string_append_printf (out, "\n      %s\n", o->help ? o->help : "");
    }
  return g_string_free (out, FALSE);
}
