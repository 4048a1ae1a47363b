#include "core/stats.h"

#include <jansson.h>
#include <string.h>

typedef struct
{
  gchar *kind;
  gchar *id;
  gchar *instance;
  gchar *name;
  SlCounter counter;
} Entry;

static GMutex stats_lock;
static GHashTable *by_key;       /* "kind;id;instance;name" -> Entry */
static GPtrArray *in_order;      /* Entry, in registration order */

SlCounter *
sl_stats_counter (const gchar *kind, const gchar *id, const gchar *instance, const gchar *name)
{
  gchar *key = g_strjoin (";", kind, id, instance ? instance : "", name, NULL);
  g_mutex_lock (&stats_lock);
  if (!by_key)
    {
      by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      in_order = g_ptr_array_new ();
    }
  Entry *e = g_hash_table_lookup (by_key, key);
  if (!e)
    {
      e = g_new0 (Entry, 1);
      e->kind = g_strdup (kind);
      e->id = g_strdup (id);
      e->instance = g_strdup (instance ? instance : "");
      e->name = g_strdup (name);
      g_hash_table_insert (by_key, key, e);
      g_ptr_array_add (in_order, e);
      key = NULL;
    }
  g_mutex_unlock (&stats_lock);
  g_free (key);
  return &e->counter;
}

gint64
sl_stats_sum (const gchar *kind, const gchar *name)
{
  gint64 sum = 0;
  g_mutex_lock (&stats_lock);
  for (guint i = 0; in_order && i < in_order->len; i++)
    {
      Entry *e = g_ptr_array_index (in_order, i);
      if (strcmp (e->kind, kind) == 0 && strcmp (e->name, name) == 0)
        sum += sl_counter_get (&e->counter);
    }
  g_mutex_unlock (&stats_lock);
  return sum;
}

gchar *
sl_stats_to_text (void)
{
  GString *out = g_string_new ("kind;id;instance;counter;value\n");
  g_mutex_lock (&stats_lock);
  for (guint i = 0; in_order && i < in_order->len; i++)
    {
      Entry *e = g_ptr_array_index (in_order, i);
      g_string_append_printf (out, "%s;%s;%s;%s;%" G_GINT64_FORMAT "\n", e->kind, e->id,
                              e->instance, e->name, sl_counter_get (&e->counter));
    }
  g_mutex_unlock (&stats_lock);
  return g_string_free (out, FALSE);
}

gchar *
sl_stats_to_json (void)
{
  json_t *list = json_array ();
  GHashTable *components = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_mutex_lock (&stats_lock);
  for (guint i = 0; in_order && i < in_order->len; i++)
    {
      Entry *e = g_ptr_array_index (in_order, i);
      gchar *key = g_strjoin (";", e->kind, e->id, e->instance, NULL);
      json_t *component = g_hash_table_lookup (components, key);
      if (!component)
        {
          component = json_pack ("{s:s, s:s, s:s, s:{}}", "kind", e->kind, "id", e->id,
                                 "instance", e->instance, "counters");
          json_array_append_new (list, component);
          g_hash_table_insert (components, key, component);
        }
      else
        g_free (key);
      json_object_set_new (json_object_get (component, "counters"), e->name,
                           json_integer (sl_counter_get (&e->counter)));
    }
  g_mutex_unlock (&stats_lock);
  g_hash_table_unref (components);
  gchar *text = json_dumps (list, JSON_INDENT (2));
  json_decref (list);
  return text;
}
