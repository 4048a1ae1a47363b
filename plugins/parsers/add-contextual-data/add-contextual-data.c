/* SPDX-License-Identifier: GPL-2.0-or-later */
/* add-contextual-data(): enriches a message with the name-value pairs a
 * CSV database keeps for its selector, as syslog-ng's module of that name
 * does: the records of the message's selector, else those of
 * default-selector(), each value a template rendered against the message.
 * It never fails: a message without records passes unchanged. */
#include "plugins/parsers/add-contextual-data/context-db.h"
#include "plugins/parsers/add-contextual-data/context-selector.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/plugin/plugin.h"

#include <string.h>

typedef struct
{
  SlDriver base;
  const gchar *database;
  const SlCfgNode *selector_node;
  const gchar *default_selector;
  const gchar *prefix;
  gboolean ignore_case;
  ContextDb *db;
  ContextSelector *selector;
} AddContextualData;

static const SlOptionSpec add_contextual_data_options[] = {
  { "database", SL_STRING (AddContextualData, database), NULL,
    "the CSV file of selector,name,value lines; a relative name is looked for beside the configuration file" },
  { "selector", SL_BLOCK (AddContextualData, selector_node), NULL,
    "what picks a message's records: a template (\"$HOST\"), glob(\"TEMPLATE\") matched against the "
    "database's selectors as globs, or filters(\"FILE\") naming the first filter of FILE that matches" },
  { "default-selector", SL_STRING (AddContextualData, default_selector), NULL,
    "the records taken when the message's selector has none" },
  { "prefix", SL_STRING (AddContextualData, prefix), "", "put before the name of every field set" },
  { "ignore-case", SL_BOOL (AddContextualData, ignore_case), "no", "selectors are compared without ASCII case" },
  { NULL }
};

static gchar *
config_dir (const SlDriver *d)
{
  return d->pos.file ? g_path_get_dirname (d->pos.file) : NULL;
}

static gboolean
add_contextual_data_init (SlDriver *d, GError **error)
{
  AddContextualData *self = (AddContextualData *) d;
  if (!self->database)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos, _("add-contextual-data() needs database()"));
      return FALSE;
    }
  if (!g_str_has_suffix (self->database, ".csv"))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "database"),
                        _("add-contextual-data() reads only CSV files (a name ending in .csv), not %s"),
                        self->database);
      return FALSE;
    }
  g_autofree gchar *dir = config_dir (d);
  g_autofree gchar *path = NULL;
  if (!g_path_is_absolute (self->database) && dir)
    path = g_build_filename (dir, self->database, NULL);
  if (!path || !g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_free (path);
      path = g_strdup (self->database);
    }
  GError *db_error = NULL;
  self->db = context_db_load (path, self->prefix, self->ignore_case, &db_error);
  if (!self->db)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "database"),
                        _("add-contextual-data(): %s"), db_error->message);
      g_error_free (db_error);
      return FALSE;
    }
  if (self->selector_node)
    {
      self->selector = context_selector_new (self->selector_node, self->db, dir, error);
      if (!self->selector)
        return FALSE;
    }
  return TRUE;
}

static void
buffer_free (gpointer buffer)
{
  g_string_free (buffer, TRUE);
}

static GString *
selector_buffer (void)
{
  static GPrivate key = G_PRIVATE_INIT (buffer_free);
  GString *buffer = g_private_get (&key);
  if (!buffer)
    {
      buffer = g_string_sized_new (64);
      g_private_set (&key, buffer);
    }
  return buffer;
}

static gboolean
add_contextual_data_process (SlDriver *d, SlMessage **msg)
{
  AddContextualData *self = (AddContextualData *) d;
  GString *buffer = selector_buffer ();
  const gchar *selector = self->selector ? context_selector_resolve (self->selector, *msg, buffer) : NULL;
  const GPtrArray *records = selector ? context_db_lookup (self->db, selector) : NULL;
  if (!records && self->default_selector)
    records = context_db_lookup (self->db, self->default_selector);
  if (!records)
    return TRUE;
  sl_message_make_writable (msg);
  for (guint i = 0; i < records->len; i++)
    {
      const ContextRecord *r = g_ptr_array_index (records, i);
      gsize len;
      const gchar *value = sl_template_peek (r->value, *msg, &len);
      sl_message_set (*msg, r->field, value, len);
    }
  return TRUE;
}

static void
add_contextual_data_free (SlDriver *d)
{
  AddContextualData *self = (AddContextualData *) d;
  context_selector_free (self->selector);
  context_db_free (self->db);
}

static const SlParserOps add_contextual_data_ops = { .process = add_contextual_data_process };

static const SlDriverClass add_contextual_data_class = {
  .kind = SL_DRIVER_PARSER,
  .name = "add-contextual-data",
  .summary = "adds the name-value pairs a CSV database keeps for the message's selector",
  .options = add_contextual_data_options,
  .instance_size = sizeof (AddContextualData),
  .init = add_contextual_data_init,
  .free = add_contextual_data_free,
  .ops.parser = &add_contextual_data_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "add-contextual-data",
  .drivers = (const SlDriverClass *const[]) { &add_contextual_data_class, NULL },
};
