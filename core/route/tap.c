/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/route/tap.h"

typedef struct
{
  SlTapFunc func;
  gpointer user_data;
} Attached;

static GMutex points_lock;
static GHashTable *points;   /* "kind/name" -> SlTapPoint */
/* Offers read under it; detaching writes, so that a tap is never called
 * after sl_tap_detach() returns. Taken only where a tap is attached. */
static GRWLock taps_lock;

SlTapPoint *
sl_tap_point (const gchar *kind, const gchar *name)
{
  gchar *key = g_strconcat (kind, "/", name, NULL);
  g_mutex_lock (&points_lock);
  if (!points)
    points = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  SlTapPoint *point = g_hash_table_lookup (points, key);
  if (!point)
    {
      point = g_new0 (SlTapPoint, 1);
      point->kind = g_strdup (kind);
      point->name = g_strdup (name);
      g_hash_table_insert (points, key, point);
      key = NULL;
    }
  g_mutex_unlock (&points_lock);
  g_free (key);
  return point;
}

gboolean
sl_tap_attach (SlTapPoint *point, SlTapFunc func, gpointer user_data)
{
  Attached *a = g_new (Attached, 1);
  *a = (Attached) { func, user_data };
  g_rw_lock_writer_lock (&taps_lock);
  gboolean free_place = point->attached == NULL;
  if (free_place)
    __atomic_store_n (&point->attached, a, __ATOMIC_RELEASE);
  g_rw_lock_writer_unlock (&taps_lock);
  if (!free_place)
    g_free (a);
  return free_place;
}

void
sl_tap_detach (SlTapPoint *point)
{
  g_rw_lock_writer_lock (&taps_lock);
  Attached *a = point->attached;
  __atomic_store_n (&point->attached, NULL, __ATOMIC_RELAXED);
  g_rw_lock_writer_unlock (&taps_lock);
  g_free (a);
}

void
sl_tap_offer (SlTapPoint *point, const SlMessage *msg)
{
  g_rw_lock_reader_lock (&taps_lock);
  Attached *a = __atomic_load_n (&point->attached, __ATOMIC_ACQUIRE);
  if (a)
    a->func (msg, a->user_data);
  g_rw_lock_reader_unlock (&taps_lock);
}
