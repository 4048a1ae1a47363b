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

/* Names announced by plugins not loaded yet: one table per kind
 * (normalized name), then rsyslog module names and inherited global
 * options; each maps to the plugin's file. */
enum
{
  ANNOUNCED_RSYSLOG = SL_DRIVER_KIND_COUNT,
  ANNOUNCED_INHERIT,
  ANNOUNCED_TABLES
};
static GHashTable *announced[ANNOUNCED_TABLES];
static SlRegistryLoad loader;
/* one announced plugin loads at a time: a lookup that waits for it then
 * finds what it registered */
static GMutex load_lock;

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

/* The file of another plugin that announced key in table t, or NULL
 * (called with the lock held). */
static const gchar *
announced_elsewhere (guint t, const gchar *key, const gchar *file)
{
  const gchar *by = announced[t] ? g_hash_table_lookup (announced[t], key) : NULL;
  return by && strcmp (by, file) != 0 ? by : NULL;
}

static void
set_rsyslog_clash (GError **error, const gchar *file, const gchar *name, const gchar *other)
{
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_EXIST,
               _("plugin %s: rsyslog module '%s' is already served by %s; the plugin is not loaded"), file, name,
               other);
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
  const gchar *other = before && before->module != m ? before->file : announced_elsewhere (ANNOUNCED_RSYSLOG, m->name, file);
  if (other)
    {
      set_rsyslog_clash (error, file, m->name, other);
      return FALSE;
    }
  return TRUE;
}

static void
set_driver_clash (GError **error, const gchar *file, SlDriverKind kind, const gchar *name, const gchar *other)
{
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_EXIST,
               _("plugin %s: %s driver '%s' is already registered by %s; the plugin is not loaded"),
               file, sl_driver_kind_name (kind), name, other);
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
      const gchar *other = before && before->klass != *d ? before->file : announced_elsewhere ((*d)->kind, key, file);
      if (other)
        {
          set_driver_clash (error, file, (*d)->kind, (*d)->name, other);
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

void
sl_registry_set_loader (SlRegistryLoad load)
{
  loader = load;
}

/* A name of file in table t, or an error when another file has it
 * (called with the lock held). */
static gboolean
check_announced (guint t, const gchar *key, const gchar *name, const gchar *file, GError **error)
{
  const gchar *other = announced_elsewhere (t, key, file);
  /* registered by file itself (loaded already): no clash */
  if (!other && t < SL_DRIVER_KIND_COUNT && registry[t])
    {
      const Registered *r = g_hash_table_lookup (registry[t], key);
      other = r && strcmp (r->file, file) != 0 ? r->file : NULL;
    }
  if (!other && t == ANNOUNCED_RSYSLOG && rsyslog_registry)
    {
      const RegisteredRs *r = g_hash_table_lookup (rsyslog_registry, key);
      other = r && strcmp (r->file, file) != 0 ? r->file : NULL;
    }
  if (!other)
    return TRUE;
  if (t == ANNOUNCED_RSYSLOG)
    set_rsyslog_clash (error, file, name, other);
  else
    set_driver_clash (error, file, t, name, other);
  return FALSE;
}

static void
announce (guint t, gchar *key, const gchar *file)
{
  if (!announced[t])
    announced[t] = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  if (g_hash_table_contains (announced[t], key))
    g_free (key);
  else
    g_hash_table_insert (announced[t], key, g_strdup (file));
}

gboolean
sl_registry_announce (const gchar *file, const SlPluginNames *names, GError **error)
{
  gboolean ok = TRUE;
  g_mutex_lock (&registry_lock);
  for (guint k = 0; ok && k < SL_DRIVER_KIND_COUNT; k++)
    for (gchar **n = names->drivers[k]; ok && n && *n; n++)
      {
        g_autofree gchar *key = sl_cfg_name_normalize (*n);
        ok = check_announced (k, key, *n, file, error);
      }
  for (gchar **n = names->rsyslog; ok && n && *n; n++)
    ok = check_announced (ANNOUNCED_RSYSLOG, *n, *n, file, error);
  if (ok)
    {
      for (guint k = 0; k < SL_DRIVER_KIND_COUNT; k++)
        for (gchar **n = names->drivers[k]; n && *n; n++)
          announce (k, sl_cfg_name_normalize (*n), file);
      for (gchar **n = names->rsyslog; n && *n; n++)
        announce (ANNOUNCED_RSYSLOG, g_strdup (*n), file);
      /* several plugins inherit one option: the first announced serves it */
      for (gchar **n = names->inherits; n && *n; n++)
        announce (ANNOUNCED_INHERIT, sl_cfg_name_normalize (*n), file);
    }
  g_mutex_unlock (&registry_lock);
  return ok;
}

static gboolean
is_file (gpointer key, gpointer value, gpointer file)
{
  return strcmp (value, file) == 0;
}

/* Loads the plugin that announced key in table t, if one did; its names
 * are no longer announced then, loaded or not (a plugin that failed to
 * load said why, once). */
static gboolean
load_announced (guint t, const gchar *key)
{
  g_mutex_lock (&load_lock);
  g_mutex_lock (&registry_lock);
  gchar *file = announced[t] ? g_strdup (g_hash_table_lookup (announced[t], key)) : NULL;
  g_mutex_unlock (&registry_lock);
  if (file && loader)
    loader (file);
  g_mutex_lock (&registry_lock);
  for (guint i = 0; file && i < ANNOUNCED_TABLES; i++)
    if (announced[i])
      g_hash_table_foreach_remove (announced[i], is_file, file);
  g_mutex_unlock (&registry_lock);
  g_mutex_unlock (&load_lock);
  g_free (file);
  return file != NULL;
}

static const SlRsModule *
find_rsyslog (const gchar *name)
{
  g_mutex_lock (&registry_lock);
  const RegisteredRs *r = rsyslog_registry ? g_hash_table_lookup (rsyslog_registry, name) : NULL;
  const SlRsModule *module = r ? r->module : NULL;
  g_mutex_unlock (&registry_lock);
  return module;
}

const SlRsModule *
sl_plugins_rsyslog_lookup (const gchar *name)
{
  const SlRsModule *module = find_rsyslog (name);
  if (!module)
    {
      load_announced (ANNOUNCED_RSYSLOG, name);
      module = find_rsyslog (name);
    }
  return module;
}

static const SlDriverClass *
find_class (SlDriverKind kind, const gchar *key)
{
  g_mutex_lock (&registry_lock);
  const Registered *r = registry[kind] ? g_hash_table_lookup (registry[kind], key) : NULL;
  const SlDriverClass *klass = r ? r->klass : NULL;
  g_mutex_unlock (&registry_lock);
  return klass;
}

const SlDriverClass *
sl_plugins_lookup (SlDriverKind kind, const gchar *name)
{
  if (kind >= SL_DRIVER_KIND_COUNT)
    return NULL;
  g_autofree gchar *key = sl_cfg_name_normalize (name);
  const SlDriverClass *klass = find_class (kind, key);
  if (!klass)
    {
      load_announced (kind, key);
      klass = find_class (kind, key);
    }
  return klass;
}

gboolean
sl_plugins_load_inheriting (const gchar *name)
{
  g_autofree gchar *key = sl_cfg_name_normalize (name);
  return load_announced (ANNOUNCED_INHERIT, key);
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
  GHashTable *tables[] = { registry[kind], announced[kind] };
  for (guint t = 0; t < G_N_ELEMENTS (tables); t++)
    {
      GHashTableIter it;
      gpointer key;
      if (!tables[t])
        continue;
      g_hash_table_iter_init (&it, tables[t]);
      /* a plugin loading right now has its names in both */
      while (g_hash_table_iter_next (&it, &key, NULL))
        if (t == 0 || !registry[kind] || !g_hash_table_contains (registry[kind], key))
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

/* Loads every plugin still announced. */
static void
load_all_announced (void)
{
  for (;;)
    {
      g_autofree gchar *key = NULL;
      guint t;
      g_mutex_lock (&registry_lock);
      for (t = 0; t < ANNOUNCED_TABLES && !key; t++)
        {
          GHashTableIter it;
          gpointer k;
          if (!announced[t])
            continue;
          g_hash_table_iter_init (&it, announced[t]);
          if (g_hash_table_iter_next (&it, &k, NULL))
            key = g_strdup (k);
        }
      g_mutex_unlock (&registry_lock);
      if (!key)
        return;
      load_announced (t - 1, key);
    }
}

void
sl_plugins_foreach (void (*func) (const SlDriverClass *klass, gpointer user_data), gpointer user_data)
{
  load_all_announced ();
  sl_plugins_foreach_loaded (func, user_data);
}

void
sl_plugins_foreach_loaded (void (*func) (const SlDriverClass *klass, gpointer user_data), gpointer user_data)
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
