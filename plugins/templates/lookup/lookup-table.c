/* SPDX-License-Identifier: GPL-2.0-or-later */
/* $(lookup-table [--keep] FILE KEY): KEY's value in rsyslog's lookup table
 * FILE (version 1: "type" string, array or sparseArray, "nomatch", a
 * "table" of index/value records), as rsyslogd 8.2302's lookup() finds it:
 * a string table by the whole key, an array by the key as a number from
 * its lowest index on, with no gaps, a sparse array by the greatest index
 * not above the key; nomatch, or nothing, otherwise. The file is read
 * when the template is compiled, so at every reload of the configuration;
 * --keep reads it once in the process's life (rsyslog's reloadOnHUP="off").
 * A file that cannot be read or is not such a table is reported, and the
 * table finds nothing, as rsyslogd runs on with it. */
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/plugin/plugin.h"
#include "core/message/template.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

typedef enum { TABLE_STRING, TABLE_ARRAY, TABLE_SPARSE } TableType;

typedef struct
{
  guint32 key;
  gchar *value;
} SparseEntry;

typedef struct
{
  gint refs;
  TableType type;
  gchar *nomatch;         /* "" when the file has none */
  GHashTable *strings;    /* index -> value */
  guint32 first;          /* an array's lowest index */
  GPtrArray *values;      /* an array's values from first on */
  GArray *sparse;         /* of SparseEntry, by key */
} LookupTable;

static LookupTable *
table_ref (LookupTable *t)
{
  g_atomic_int_inc (&t->refs);
  return t;
}

static void
table_unref (gpointer data)
{
  LookupTable *t = data;

  if (!t || !g_atomic_int_dec_and_test (&t->refs))
    return;
  g_free (t->nomatch);
  g_clear_pointer (&t->strings, g_hash_table_unref);
  g_clear_pointer (&t->values, g_ptr_array_unref);
  if (t->sparse)
    for (guint i = 0; i < t->sparse->len; i++)
      g_free (g_array_index (t->sparse, SparseEntry, i).value);
  g_clear_pointer (&t->sparse, g_array_unref);
  g_free (t);
}

/* json-c's json_object_get_string() of a scalar, which rsyslogd takes */
static gchar *
scalar_text (json_t *value)
{
  if (json_is_string (value))
    return g_strdup (json_string_value (value));
  if (json_is_integer (value))
    return g_strdup_printf ("%" JSON_INTEGER_FORMAT, json_integer_value (value));
  if (json_is_real (value))
    return g_strdup_printf ("%.17g", json_real_value (value));
  if (json_is_boolean (value))
    return g_strdup (json_is_true (value) ? "true" : "false");
  return NULL;
}

/* json-c's json_object_get_int(): a string's leading number */
static guint32
index_number (json_t *index)
{
  if (json_is_integer (index))
    return (guint32) json_integer_value (index);
  if (json_is_real (index))
    return (guint32) json_real_value (index);
  if (json_is_string (index))
    return (guint32) g_ascii_strtoll (json_string_value (index), NULL, 10);
  return 0;
}

static gint
compare_sparse (gconstpointer a, gconstpointer b)
{
  guint32 x = ((const SparseEntry *) a)->key, y = ((const SparseEntry *) b)->key;
  return x < y ? -1 : x > y;
}

static gboolean
build (LookupTable *t, json_t *root, const gchar *path)
{
  json_t *version = json_object_get (root, "version");
  json_t *table = json_object_get (root, "table");
  json_t *type = json_object_get (root, "type");
  const gchar *kind = json_is_string (type) ? json_string_value (type) : "string";

  if (version && !json_is_null (version) && json_integer_value (version) != 1)
    {
      sl_log (SL_LOG_ERROR, _("$(lookup-table): the table has a version other than 1; file='%s'"), path);
      return FALSE;
    }
  if (!json_is_array (table))
    {
      sl_log (SL_LOG_ERROR, _("$(lookup-table): the table has no \"table\" array; file='%s'"), path);
      return FALSE;
    }
  t->nomatch = scalar_text (json_object_get (root, "nomatch"));
  if (!t->nomatch)
    t->nomatch = g_strdup ("");
  g_autoptr (GArray) rows = g_array_new (FALSE, FALSE, sizeof (SparseEntry));
  t->type = g_str_equal (kind, "array") ? TABLE_ARRAY : g_str_equal (kind, "sparseArray") ? TABLE_SPARSE
                                                                                           : TABLE_STRING;
  if (!g_str_equal (kind, "array") && !g_str_equal (kind, "sparseArray") && !g_str_equal (kind, "string"))
    {
      sl_log (SL_LOG_ERROR,
              _("$(lookup-table): the table's type is none of string, array, sparseArray; file='%s', type='%s'"),
              path, kind);
      return FALSE;
    }
  if (t->type == TABLE_STRING)
    t->strings = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  size_t i;
  json_t *row;
  json_array_foreach (table, i, row)
    {
      json_t *index = json_object_get (row, "index");
      gchar *value = scalar_text (json_object_get (row, "value"));

      if (!value || !index || json_is_null (index))
        {
          g_free (value);
          sl_log (SL_LOG_ERROR, _("$(lookup-table): a record of the table has no index or no value; file='%s'"), path);
          return FALSE;
        }
      if (t->type == TABLE_STRING)
        {
          gchar *key = scalar_text (index);
          g_hash_table_replace (t->strings, key ? key : g_strdup (""), value);
          continue;
        }
      SparseEntry entry = { index_number (index), value };
      g_array_append_val (rows, entry);
    }
  if (t->type == TABLE_STRING)
    return TRUE;
  g_array_sort (rows, compare_sparse);
  if (t->type == TABLE_SPARSE)
    {
      t->sparse = g_array_ref (rows);
      return TRUE;
    }
  t->values = g_ptr_array_new_with_free_func (g_free);
  for (guint r = 0; r < rows->len; r++)
    {
      SparseEntry *entry = &g_array_index (rows, SparseEntry, r);
      if (r == 0)
        t->first = entry->key;
      else if (entry->key != t->first + r)
        {
          sl_log (SL_LOG_ERROR, _("$(lookup-table): the array table has a gap before an index; file='%s', index='%u'"),
                  path, entry->key);
          for (; r < rows->len; r++)
            g_free (g_array_index (rows, SparseEntry, r).value);
          return FALSE;
        }
      g_ptr_array_add (t->values, entry->value);
    }
  return TRUE;
}

/* A table that finds nothing, for a file that could not be read */
static LookupTable *
table_empty (void)
{
  LookupTable *t = g_new0 (LookupTable, 1);

  t->refs = 1;
  t->nomatch = g_strdup ("");
  t->strings = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  return t;
}

static LookupTable *
table_read (const gchar *path)
{
  json_error_t problem;
  json_t *root = json_load_file (path, JSON_DECODE_ANY, &problem);
  LookupTable *t = g_new0 (LookupTable, 1);

  t->refs = 1;
  if (!root)
    sl_log (SL_LOG_ERROR, _("$(lookup-table): the table cannot be read, it finds nothing; file='%s', error='%s'"), path,
            problem.text);
  if (!root || !json_is_object (root) || !build (t, root, path))
    {
      if (root && !json_is_object (root))
        sl_log (SL_LOG_ERROR, _("$(lookup-table): the table is not a JSON object; file='%s'"), path);
      table_unref (t);
      t = table_empty ();
    }
  if (root)
    json_decref (root);
  return t;
}

/* the tables read with --keep, by path, for the process's life */
static GMutex kept_lock;
static GHashTable *kept;

static LookupTable *
table_kept (const gchar *path)
{
  g_mutex_lock (&kept_lock);
  if (!kept)
    kept = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, table_unref);
  LookupTable *t = g_hash_table_lookup (kept, path);
  if (!t)
    {
      t = table_read (path);
      g_hash_table_insert (kept, g_strdup (path), t);
    }
  table_ref (t);
  g_mutex_unlock (&kept_lock);
  return t;
}

static gboolean
lookup_prepare (SlTfCall *call, GError **error)
{
  gboolean keep = call->argc == 3 && g_str_equal (call->args[0], "--keep");

  if (call->argc != 2 && !keep)
    {
      g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE, _("$(lookup-table) takes [--keep], a file and a key"));
      return FALSE;
    }
  const gchar *path = call->args[keep ? 1 : 0];
  call->state = keep ? table_kept (path) : table_read (path);
  return TRUE;
}

static void
lookup_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  const LookupTable *t = call->state;
  g_autoptr (GString) key = g_string_new (NULL);
  const gchar *found = NULL;

  sl_template_append (call->arg_templates[call->argc - 1], msg, env, key);
  if (t->strings)
    found = g_hash_table_lookup (t->strings, key->str);
  else
    {
      guint32 number = (guint32) g_ascii_strtoll (key->str, NULL, 10);
      if (t->values && number >= t->first && number - t->first < t->values->len)
        found = g_ptr_array_index (t->values, number - t->first);
      /* the greatest index not above the key */
      for (guint low = 0, high = t->sparse ? t->sparse->len : 0; low < high;)
        {
          guint middle = (low + high) / 2;
          const SparseEntry *entry = &g_array_index (t->sparse, SparseEntry, middle);
          if (entry->key <= number)
            {
              found = entry->value;
              low = middle + 1;
            }
          else
            high = middle;
        }
    }
  g_string_append (out, found ? found : t->nomatch);
}

static const SlTemplateFunctionOps lookup_ops = {
  .prepare = lookup_prepare, .eval = lookup_eval, .free = table_unref,
};

static const SlDriverClass lookup_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "lookup-table",
  .summary = "a key's value in an rsyslog lookup table file: $(lookup-table [--keep] FILE KEY)",
  .ops.template_function = &lookup_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "lookup-table",
  .drivers = (const SlDriverClass *const[]) { &lookup_class, NULL },
};
