/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/stats-private.h"

#include <jansson.h>
#include <string.h>

typedef struct
{
  gchar *kind;
  gchar *id;
  gchar *instance;
  gchar *name;
  gboolean gauge;
  SlCounter counter;
} Entry;

static GMutex stats_lock;
static GHashTable *by_key;       /* "kind;id;instance;name" -> Entry */
static GPtrArray *in_order;      /* Entry, in registration order */
static GHashTable *internal_ids; /* ids of drivers given internal(yes) */

static SlCounter *
register_entry (const gchar *kind, const gchar *id, const gchar *instance, const gchar *name, gboolean gauge)
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
  e->gauge |= gauge;
  g_mutex_unlock (&stats_lock);
  g_free (key);
  return &e->counter;
}

/* with stats_lock held and in_order made */
static gint64
sum_locked (const gchar *kind, const gchar *name)
{
  gint64 sum = 0;
  for (guint i = 0; i < in_order->len; i++)
    {
      const Entry *e = g_ptr_array_index (in_order, i);
      if (strcmp (e->kind, kind) == 0 && strcmp (e->name, name) == 0)
        sum += sl_counter_get (&e->counter);
    }
  return sum;
}

gint64
sl_stats_sum (const gchar *kind, const gchar *name)
{
  g_mutex_lock (&stats_lock);
  gint64 sum = in_order ? sum_locked (kind, name) : 0;
  g_mutex_unlock (&stats_lock);
  return sum;
}

SlCounter *
sl_stats_counter (const gchar *kind, const gchar *id, const gchar *instance, const gchar *name)
{
  return register_entry (kind, id, instance, name, FALSE);
}

SlCounter *
sl_stats_gauge (const gchar *kind, const gchar *id, const gchar *instance, const gchar *name)
{
  return register_entry (kind, id, instance, name, TRUE);
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

static void
append_dotted_name (GString *out, const Entry *e)
{
  g_string_append_printf (out, "%s.%s.", e->kind, e->id);
  if (*e->instance)
    g_string_append_printf (out, "%s.", e->instance);
  g_string_append (out, e->name);
}

gchar *
sl_stats_query (const gchar *glob, gboolean names_only, gboolean sum)
{
  GPatternSpec *pattern = g_pattern_spec_new (glob);
  GString *out = g_string_new (NULL);
  GString *name = g_string_new (NULL);
  gint64 total = 0;
  g_mutex_lock (&stats_lock);
  for (guint i = 0; in_order && i < in_order->len; i++)
    {
      Entry *e = g_ptr_array_index (in_order, i);
      g_string_truncate (name, 0);
      append_dotted_name (name, e);
      if (!g_pattern_spec_match (pattern, name->len, name->str, NULL))
        continue;
      gint64 value = sl_counter_get (&e->counter);
      total += value;
      if (names_only)
        g_string_append_printf (out, "%s\n", name->str);
      else if (!sum)
        g_string_append_printf (out, "%s=%" G_GINT64_FORMAT "\n", name->str, value);
    }
  g_mutex_unlock (&stats_lock);
  if (sum)
    g_string_append_printf (out, "%" G_GINT64_FORMAT "\n", total);
  g_string_free (name, TRUE);
  g_pattern_spec_free (pattern);
  return g_string_free (out, FALSE);
}

/* Prometheus allows [a-zA-Z0-9_:] in names: "skipped-keys" becomes skipped_keys. */
static void
append_metric_name (GString *out, const Entry *e)
{
  g_string_append (out, "sluice_");
  gsize start = out->len;
  g_string_append_printf (out, "%s_%s", e->kind, e->name);
  for (gsize i = start; i < out->len; i++)
    if (!g_ascii_isalnum (out->str[i]) && out->str[i] != '_' && out->str[i] != ':')
      out->str[i] = '_';
  if (!e->gauge)
    g_string_append (out, "_total");
}

static void
append_label (GString *out, const gchar *name, const gchar *value, gboolean first)
{
  g_string_append_printf (out, "%s%s=\"", first ? "" : ",", name);
  for (const gchar *p = value; *p; p++)
    if (*p == '\\' || *p == '"')
      g_string_append_printf (out, "\\%c", *p);
    else if (*p == '\n')
      g_string_append (out, "\\n");
    else
      g_string_append_c (out, *p);
  g_string_append_c (out, '"');
}

gchar *
sl_stats_to_prometheus (void)
{
  GString *out = g_string_new (NULL);
  /* the format wants every sample of a metric in one group after its
   * TYPE line: entries are grouped by name, in the order names first came */
  GHashTable *families = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                (GDestroyNotify) g_ptr_array_unref);
  GPtrArray *names = g_ptr_array_new ();
  GString *name = g_string_new (NULL);
  g_mutex_lock (&stats_lock);
  for (guint i = 0; in_order && i < in_order->len; i++)
    {
      Entry *e = g_ptr_array_index (in_order, i);
      g_string_truncate (name, 0);
      append_metric_name (name, e);
      GPtrArray *family = g_hash_table_lookup (families, name->str);
      if (!family)
        {
          family = g_ptr_array_new ();
          gchar *key = g_strdup (name->str);
          g_hash_table_insert (families, key, family);
          g_ptr_array_add (names, key);
        }
      g_ptr_array_add (family, e);
    }
  for (guint i = 0; i < names->len; i++)
    {
      const gchar *metric = g_ptr_array_index (names, i);
      GPtrArray *family = g_hash_table_lookup (families, metric);
      const Entry *first = g_ptr_array_index (family, 0);
      g_string_append_printf (out, "# TYPE %s %s\n", metric, first->gauge ? "gauge" : "counter");
      for (guint k = 0; k < family->len; k++)
        {
          const Entry *e = g_ptr_array_index (family, k);
          g_string_append_printf (out, "%s{", metric);
          append_label (out, "id", e->id, TRUE);
          if (*e->instance)
            append_label (out, "driver", e->instance, FALSE);
          g_string_append_printf (out, "} %" G_GINT64_FORMAT "\n", sl_counter_get (&e->counter));
        }
    }
  g_mutex_unlock (&stats_lock);
  g_string_free (name, TRUE);
  g_ptr_array_unref (names);
  g_hash_table_unref (families);
  return g_string_free (out, FALSE);
}

/* syslog-ng's names for the components: src.tcp(s_net#0), dst.file(d#0),
 * and KIND.INSTANCE(ID) or KIND(ID) for the kinds it has no name for. */
static void
append_log_component (GString *out, const Entry *e)
{
  const gchar *kind = strcmp (e->kind, "source") == 0        ? "src"
                      : strcmp (e->kind, "destination") == 0 ? "dst"
                                                             : e->kind;
  g_string_append (out, kind);
  if (*e->instance)
    g_string_append_printf (out, ".%s", e->instance);
  g_string_append_printf (out, "(%s)", e->id);
}

/* A source's messages are what syslog-ng counts as its "processed"; the
 * other names keep their meaning, with syslog-ng's underscores. */
static void
append_log_counter_name (GString *out, const Entry *e)
{
  if (strcmp (e->kind, "source") == 0 && strcmp (e->name, "received") == 0)
    {
      g_string_append (out, "processed");
      return;
    }
  for (const gchar *p = e->name; *p; p++)
    g_string_append_c (out, *p == '-' ? '_' : *p);
}

/* What stats-level(0) shows of a driver: as in syslog-ng 3.38, only
 * internal()'s own counters; a stream source's or a file's counters are
 * level 1 there, and the totals per source and destination stand for them
 * at level 0. */
static gboolean
log_main_counter (const Entry *e)
{
  return strcmp (e->kind, "source") == 0 && strcmp (e->instance, "internal") == 0
         && (strcmp (e->name, "received") == 0 || strcmp (e->name, "stamp") == 0);
}

static void
append_log_item (GString *out, const gchar *name, const gchar *component, gint64 value)
{
  g_string_append_printf (out, "%s%s='%s=%" G_GINT64_FORMAT "'", out->len ? ", " : "", name, component, value);
}

/* source(NAME) and destination(NAME): the sums over the object's drivers,
 * whose ids are NAME#index, of the counter syslog-ng's group counts. */
static void
append_log_groups (GString *out, const gchar *kind, const gchar *counter, const gchar *group)
{
  GHashTable *sums = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  GPtrArray *order = g_ptr_array_new ();
  for (guint i = 0; i < in_order->len; i++)
    {
      const Entry *e = g_ptr_array_index (in_order, i);
      if (strcmp (e->kind, kind) != 0 || strcmp (e->name, counter) != 0)
        continue;
      const gchar *hash = strrchr (e->id, '#');
      gchar *object = hash ? g_strndup (e->id, hash - e->id) : g_strdup (e->id);
      gint64 *sum = g_hash_table_lookup (sums, object);
      if (!sum)
        {
          sum = g_new0 (gint64, 1);
          g_hash_table_insert (sums, object, sum);
          g_ptr_array_add (order, object);
        }
      else
        g_free (object);
      *sum += sl_counter_get (&e->counter);
    }
  GString *component = g_string_new (NULL);
  for (guint i = 0; i < order->len; i++)
    {
      const gchar *object = g_ptr_array_index (order, i);
      g_string_printf (component, "%s(%s)", group, object);
      append_log_item (out, "processed", component->str, *(gint64 *) g_hash_table_lookup (sums, object));
    }
  g_string_free (component, TRUE);
  g_ptr_array_unref (order);
  g_hash_table_unref (sums);
}

void
sl_stats_set_internal (const gchar *id, gboolean internal)
{
  g_mutex_lock (&stats_lock);
  if (!internal_ids)
    internal_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  if (internal)
    g_hash_table_add (internal_ids, g_strdup (id));
  else
    g_hash_table_remove (internal_ids, id);
  g_mutex_unlock (&stats_lock);
}

gchar *
sl_stats_to_log (gint level)
{
  GString *items = g_string_new (NULL);
  GString *component = g_string_new (NULL);
  GString *name = g_string_new (NULL);
  g_mutex_lock (&stats_lock);
  if (in_order)
    {
      append_log_item (items, "processed", "center(received)", sum_locked ("source", "received"));
      append_log_item (items, "processed", "center(queued)", sum_locked ("destination", "processed"));
      append_log_groups (items, "source", "received", "source");
      append_log_groups (items, "destination", "processed", "destination");
      for (guint i = 0; i < in_order->len; i++)
        {
          const Entry *e = g_ptr_array_index (in_order, i);
          if ((level < 1 && !log_main_counter (e))
              || (level < 3 && internal_ids && g_hash_table_contains (internal_ids, e->id)))
            continue;
          g_string_truncate (component, 0);
          append_log_component (component, e);
          g_string_truncate (name, 0);
          append_log_counter_name (name, e);
          append_log_item (items, name->str, component->str, sl_counter_get (&e->counter));
        }
    }
  g_mutex_unlock (&stats_lock);
  g_string_free (component, TRUE);
  g_string_free (name, TRUE);
  gchar *text = g_strconcat ("Log statistics; ", items->str, NULL);
  g_string_free (items, TRUE);
  return text;
}
