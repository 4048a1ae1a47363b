/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/message/name-table.h"

#include <string.h>

/* Each thread remembers the ids it looked up, so that parsers which name
 * fields per message (json-parser, kv-parser) and rules that set tags from
 * templates take the table's lock only for names new to the thread. The
 * keys are the table's own copies, which live as long as the process. */
#define CACHE_MAX 4096

void
sl_name_table_cache_free (gpointer cache)
{
  g_hash_table_unref (cache);
}

/* In front of that, each thread keeps the last name seen in each of a
 * few hundred slots, chosen by a hash of the name: a parser that names
 * the same fields on every message finds them with one hash and one
 * comparison, without g_hash_table_lookup()'s calls. Ids never change
 * and interned names live as long as the process, so a slot is never
 * stale. */
#define RECENT_SLOTS 512

typedef struct
{
  const SlNameTable *table;
  const gchar *name;            /* the table's copy */
  guint hash;
  guint id;
} RecentSlot;

static __thread RecentSlot recent[RECENT_SLOTS];

static guint
name_hash (const gchar *name)
{
  guint h = 2166136261u;
  for (const guchar *p = (const guchar *) name; *p; p++)
    h = (h ^ *p) * 16777619u;
  return h;
}

static guint
recent_lookup (const SlNameTable *t, const gchar *name, guint hash)
{
  const RecentSlot *slot = &recent[hash % RECENT_SLOTS];
  if (slot->table == t && slot->hash == hash && strcmp (slot->name, name) == 0)
    return slot->id;
  return 0;
}

static void
recent_add (const SlNameTable *t, const gchar *interned, guint hash, guint id)
{
  recent[hash % RECENT_SLOTS] = (RecentSlot) { t, interned, hash, id };
}

static guint
cache_lookup (SlNameTable *t, const gchar *name)
{
  GHashTable *cache = g_private_get (&t->cache);
  return cache ? GPOINTER_TO_UINT (g_hash_table_lookup (cache, name)) : 0;
}

static void
cache_add (SlNameTable *t, const gchar *interned, guint id)
{
  GHashTable *cache = g_private_get (&t->cache);
  if (!cache)
    {
      cache = g_hash_table_new (g_str_hash, g_str_equal);
      g_private_set (&t->cache, cache);
    }
  if (g_hash_table_size (cache) >= CACHE_MAX)
    g_hash_table_remove_all (cache);
  g_hash_table_insert (cache, (gpointer) interned, GUINT_TO_POINTER (id));
}

/* Publishes names[id] before the count that makes it visible, so that
 * sl_name_table_name() can read without the lock. */
static void
add_locked (SlNameTable *t, const gchar *name)
{
  guint id = t->count;
  t->names[id] = name;
  if (id)
    g_hash_table_insert (t->ids, (gpointer) name, GUINT_TO_POINTER (id));
  g_atomic_int_set (&t->count, id + 1);
}

static void
init_locked (SlNameTable *t)
{
  if (t->ids)
    return;
  t->ids = g_hash_table_new (g_str_hash, g_str_equal);
  t->names = g_new0 (const gchar *, t->max);
  add_locked (t, "");
  for (guint id = 1; id < t->n_preset; id++)
    add_locked (t, t->preset[id]);
}

guint
sl_name_table_intern (SlNameTable *t, const gchar *name, gboolean *refused)
{
  *refused = FALSE;
  guint hash = name_hash (name);
  guint id = recent_lookup (t, name, hash);
  if (id)
    return id;
  id = cache_lookup (t, name);
  if (id)
    {
      recent_add (t, t->names[id], hash, id);
      return id;
    }
  if (!name[0])
    return 0;

  g_mutex_lock (&t->lock);
  init_locked (t);
  id = GPOINTER_TO_UINT (g_hash_table_lookup (t->ids, name));
  if (!id)
    {
      *refused = t->count >= t->max;
      if (!*refused)
        {
          id = t->count;
          add_locked (t, g_strdup (name));
        }
    }
  const gchar *interned = t->names[id];
  g_mutex_unlock (&t->lock);
  if (id)
    {
      cache_add (t, interned, id);
      recent_add (t, interned, hash, id);
    }
  return id;
}

guint
sl_name_table_lookup (SlNameTable *t, const gchar *name)
{
  guint hash = name_hash (name);
  guint id = recent_lookup (t, name, hash);
  if (id)
    return id;
  id = cache_lookup (t, name);
  if (id)
    {
      recent_add (t, t->names[id], hash, id);
      return id;
    }
  if (!name[0])
    return 0;
  g_mutex_lock (&t->lock);
  init_locked (t);
  id = GPOINTER_TO_UINT (g_hash_table_lookup (t->ids, name));
  const gchar *interned = t->names[id];
  g_mutex_unlock (&t->lock);
  if (id)
    {
      cache_add (t, interned, id);
      recent_add (t, interned, hash, id);
    }
  return id;
}

const gchar *
sl_name_table_name (SlNameTable *t, guint id)
{
  guint count = g_atomic_int_get (&t->count);
  if (!count)
    {
      /* the first caller may ask before anyone interned a name */
      g_mutex_lock (&t->lock);
      init_locked (t);
      g_mutex_unlock (&t->lock);
      count = g_atomic_int_get (&t->count);
    }
  return id < count ? t->names[id] : NULL;
}
