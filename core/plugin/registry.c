/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/plugin/registry.h"
#include "core/plugin/registry-private.h"
#include "core/config/tree.h"
#include "core/i18n.h"

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
/* one table per kind: normalized name -> Registered */
static GHashTable *registry[SL_DRIVER_KIND_COUNT];
/* rsyslog's module name -> RegisteredRs */
static GHashTable *rsyslog_registry;

typedef struct
{
  const SlDriverClass *klass;
  gchar *file;
} Registered;

typedef struct
{
  const SlRsModule *module;
  gchar *file;
} RegisteredRs;

static void
registered_free (gpointer p)
{
  Registered *r = p;
  g_free (r->file);
  g_free (r);
}

static void
registered_rs_free (gpointer p)
{
  RegisteredRs *r = p;
  g_free (r->file);
  g_free (r);
}

const gchar *
sl_driver_kind_name (SlDriverKind kind)
{
  return kind < SL_DRIVER_KIND_COUNT ? kind_names[kind] : "driver";
}

/* An rsyslog module: a lower-case name, a kind, a writer; served by no
 * other plugin (called with the lock held). */
static gboolean
check_rsyslog_module (const SlRsModule *m, const gchar *file, GError **error)
{
  gboolean lower = m->name && *m->name;
  for (const gchar *p = m->name; lower && *p; p++)
    lower = !g_ascii_isupper (*p);
  if (!lower || !m->write
      || (m->kind != SL_RS_MODULE_INPUT && m->kind != SL_RS_MODULE_OUTPUT && m->kind != SL_RS_MODULE_MODIFIER))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   _("plugin %s: rsyslog module '%s' needs a lower-case name, a kind and write()"), file,
                   m->name ? m->name : "");
      return FALSE;
    }
  const RegisteredRs *before = rsyslog_registry ? g_hash_table_lookup (rsyslog_registry, m->name) : NULL;
  if (before && before->module != m)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_EXIST,
                   _("plugin %s: rsyslog module '%s' is already served by %s; the plugin is not loaded"), file,
                   m->name, before->file);
      return FALSE;
    }
  return TRUE;
}

gboolean
sl_registry_add (const SlModule *module, const gchar *file, GError **error)
{
  g_mutex_lock (&registry_lock);
  for (const SlRsModule *const *m = module->rsyslog_modules; m && *m; m++)
    if (!check_rsyslog_module (*m, file, error))
      {
        g_mutex_unlock (&registry_lock);
        return FALSE;
      }
  for (const SlDriverClass *const *d = module->drivers; *d; d++)
    {
      GHashTable *table = registry[(*d)->kind];
      gchar *key = sl_cfg_name_normalize ((*d)->name);
      const Registered *before = table ? g_hash_table_lookup (table, key) : NULL;
      /* the same class registered again (a test, a second load) is no clash */
      if (before && before->klass != *d)
        {
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_EXIST,
                       _("plugin %s: %s driver '%s' is already registered by %s; the plugin is not loaded"),
                       file, sl_driver_kind_name ((*d)->kind), (*d)->name, before->file);
          g_free (key);
          g_mutex_unlock (&registry_lock);
          return FALSE;
        }
      g_free (key);
    }
  for (const SlDriverClass *const *d = module->drivers; *d; d++)
    {
      SlDriverKind kind = (*d)->kind;
      if (!registry[kind])
        registry[kind] = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, registered_free);
      Registered *r = g_new0 (Registered, 1);
      r->klass = *d;
      r->file = g_strdup (file);
      g_hash_table_replace (registry[kind], sl_cfg_name_normalize ((*d)->name), r);
    }
  for (const SlRsModule *const *m = module->rsyslog_modules; m && *m; m++)
    {
      if (!rsyslog_registry)
        rsyslog_registry = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, registered_rs_free);
      RegisteredRs *r = g_new0 (RegisteredRs, 1);
      r->module = *m;
      r->file = g_strdup (file);
      g_hash_table_replace (rsyslog_registry, (gpointer) (*m)->name, r);
    }
  g_mutex_unlock (&registry_lock);
  return TRUE;
}

const SlRsModule *
sl_plugins_rsyslog_lookup (const gchar *name)
{
  g_mutex_lock (&registry_lock);
  const RegisteredRs *r = rsyslog_registry ? g_hash_table_lookup (rsyslog_registry, name) : NULL;
  const SlRsModule *module = r ? r->module : NULL;
  g_mutex_unlock (&registry_lock);
  return module;
}

const SlDriverClass *
sl_plugins_lookup (SlDriverKind kind, const gchar *name)
{
  gchar *key = sl_cfg_name_normalize (name);
  g_mutex_lock (&registry_lock);
  const Registered *r = kind < SL_DRIVER_KIND_COUNT && registry[kind] ? g_hash_table_lookup (registry[kind], key) : NULL;
  const SlDriverClass *klass = r ? r->klass : NULL;
  g_mutex_unlock (&registry_lock);
  g_free (key);
  return klass;
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

static gint
compare_classes (gconstpointer a, gconstpointer b)
{
  const SlDriverClass *x = *(const SlDriverClass *const *) a, *y = *(const SlDriverClass *const *) b;
  return x->kind != y->kind ? (gint) x->kind - (gint) y->kind : strcmp (x->name, y->name);
}

void
sl_plugins_foreach (void (*func) (const SlDriverClass *klass, gpointer user_data), gpointer user_data)
{
  GPtrArray *classes = g_ptr_array_new ();
  g_mutex_lock (&registry_lock);
  for (SlDriverKind k = 0; k < SL_DRIVER_KIND_COUNT; k++)
    {
      GHashTableIter it;
      gpointer value;
      if (!registry[k])
        continue;
      g_hash_table_iter_init (&it, registry[k]);
      while (g_hash_table_iter_next (&it, NULL, &value))
        g_ptr_array_add (classes, (gpointer) ((Registered *) value)->klass);
    }
  g_mutex_unlock (&registry_lock);
  g_ptr_array_sort (classes, compare_classes);
  for (guint i = 0; i < classes->len; i++)
    func (g_ptr_array_index (classes, i), user_data);
  g_ptr_array_unref (classes);
}
