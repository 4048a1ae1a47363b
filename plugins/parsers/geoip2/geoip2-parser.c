/* SPDX-License-Identifier: GPL-2.0-or-later */
/* geoip2(): what a MaxMind DB knows of an address, into fields named as
 * syslog-ng's geoip2() names them: the record's whole tree under
 * prefix() (".geoip2", a trailing dot dropped), maps by key, arrays by
 * index, and of every "names" map only the English one
 * (${.geoip2.country.names.en}). An address the database does not hold
 * sets nothing; text that is no address is counted (lookup_errors). The
 * parser never fails. $(geoip2) reads one value of the same record.
 * The fields made from a record are kept per thread (keyed by the record's
 * offset in the database, which the networks of one place share), so an
 * address whose record was seen lately costs the lookup only: the
 * messages share the record's text (sl_message_set_shared()). */
#include "plugins/parsers/geoip2/geoip2-lookup.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/message/parser-input.h"
#include "core/plugin/plugin.h"
#include "core/stats.h"

#include <inttypes.h>
#include <netdb.h>
#include <string.h>

typedef struct
{
  SlDriver base;
  SlTemplate *template;
  const gchar *database;
  const gchar *prefix;
  MMDB_s *db;
  gchar *path;
  gchar *key_prefix;
  guint id;
  SlCounter *lookup_errors;
} Geoip2Parser;

static const SlOptionSpec geoip2_parser_options[] = {
  { "template", SL_TEMPLATE (Geoip2Parser, template), NULL, "the address looked up, such as ${HOST}",
    .flags = SL_OPT_POSITIONAL },
  { "database", SL_STRING (Geoip2Parser, database), NULL,
    "the MaxMind DB file; when not given, GeoLite2-City.mmdb in /usr/share/GeoIP or /var/lib/GeoIP" },
  { "prefix", SL_STRING (Geoip2Parser, prefix), ".geoip2", "put before the path of every field" },
  { NULL }
};

typedef struct
{
  SlHandle handle;
  gsize start;
  gsize len;
} CachedField;

/* the fields of one record, as one parser names them; their values in
 * text, each followed by a NUL */
typedef struct
{
  guint parser;
  guint32 offset;
  GArray *fields;
  GBytes *text;
} CachedRecord;

#define CACHED_RECORDS 64

typedef struct
{
  GArray *fields;
  GString *text;
  GString *path;
  GString *value;
} Dump;

static MMDB_entry_data_list_s *dump_tree (Dump *dump, MMDB_entry_data_list_s *at);

/* what a value the fields do not take (bytes, 128-bit numbers) or a tree
 * not shown (a names map in another language) spans */
static MMDB_entry_data_list_s *
skip_tree (MMDB_entry_data_list_s *at)
{
  guint32 size = at->entry_data.data_size;
  gboolean map = at->entry_data.type == MMDB_DATA_TYPE_MAP;
  gboolean array = at->entry_data.type == MMDB_DATA_TYPE_ARRAY;
  at = at->next;
  if (!map && !array)
    return at;
  for (; size && at; size--)
    {
      if (map)
        at = at->next;
      if (at)
        at = skip_tree (at);
    }
  return at;
}

static void
set_value (Dump *dump, const MMDB_entry_data_s *data)
{
  g_string_truncate (dump->value, 0);
  if (!geoip2_append_value (dump->value, data))
    return;
  CachedField f = { sl_field_handle (dump->path->str), dump->text->len, dump->value->len };
  g_string_append_len (dump->text, dump->value->str, dump->value->len + 1);
  g_array_append_val (dump->fields, f);
}

static MMDB_entry_data_list_s *
dump_names (Dump *dump, MMDB_entry_data_list_s *at)
{
  if (at->entry_data.type != MMDB_DATA_TYPE_MAP)
    return skip_tree (at);
  guint32 size = at->entry_data.data_size;
  gsize base = dump->path->len;
  for (at = at->next; size && at && at->entry_data.type == MMDB_DATA_TYPE_UTF8_STRING; size--)
    {
      gboolean english = at->entry_data.data_size == 2 && memcmp (at->entry_data.utf8_string, "en", 2) == 0;
      at = at->next;
      if (!at)
        break;
      if (english && at->entry_data.type == MMDB_DATA_TYPE_UTF8_STRING)
        {
          g_string_append (dump->path, ".en");
          set_value (dump, &at->entry_data);
          g_string_truncate (dump->path, base);
          at = at->next;
        }
      else
        at = skip_tree (at);
    }
  return at;
}

static MMDB_entry_data_list_s *
dump_tree (Dump *dump, MMDB_entry_data_list_s *at)
{
  guint32 size = at->entry_data.data_size;
  gsize base = dump->path->len;
  switch (at->entry_data.type)
    {
    case MMDB_DATA_TYPE_MAP:
      for (at = at->next; size && at && at->entry_data.type == MMDB_DATA_TYPE_UTF8_STRING; size--)
        {
          const MMDB_entry_data_s *key = &at->entry_data;
          g_string_append_c (dump->path, '.');
          g_string_append_len (dump->path, key->utf8_string, key->data_size);
          gboolean names = key->data_size == 5 && memcmp (key->utf8_string, "names", 5) == 0;
          at = at->next;
          if (at)
            at = names ? dump_names (dump, at) : dump_tree (dump, at);
          g_string_truncate (dump->path, base);
        }
      return at;
    case MMDB_DATA_TYPE_ARRAY:
      at = at->next;
      for (guint32 i = 0; i < size && at; i++)
        {
          g_string_append_printf (dump->path, ".%" PRIu32, i);
          at = dump_tree (dump, at);
          g_string_truncate (dump->path, base);
        }
      return at;
    default:
      set_value (dump, &at->entry_data);
      return at->next;
    }
}

static GString *
thread_buffer (GPrivate *key)
{
  GString *buffer = g_private_get (key);
  if (!buffer)
    {
      buffer = g_string_sized_new (128);
      g_private_set (key, buffer);
    }
  return buffer;
}

static void
buffer_free (gpointer buffer)
{
  g_string_free (buffer, TRUE);
}

static GPrivate path_key = G_PRIVATE_INIT (buffer_free);
static GPrivate value_key = G_PRIVATE_INIT (buffer_free);

static void
records_free (gpointer records)
{
  CachedRecord *r = records;
  for (guint i = 0; i < CACHED_RECORDS; i++)
    if (r[i].fields)
      {
        g_array_free (r[i].fields, TRUE);
        g_clear_pointer (&r[i].text, g_bytes_unref);
      }
  g_free (r);
}

static GPrivate records_key = G_PRIVATE_INIT (records_free);
/* parsers are told apart by a number of their own: a reloaded one may
 * come back at the same address with another database */
static guint next_parser_id = 1;

/* this thread's slot for the record, filled from the database when it
 * holds another */
static CachedRecord *
cached_record (Geoip2Parser *self, MMDB_entry_s *entry, GString *path, GString *value, gboolean *ok)
{
  CachedRecord *records = g_private_get (&records_key);
  if (!records)
    {
      records = g_new0 (CachedRecord, CACHED_RECORDS);
      g_private_set (&records_key, records);
    }
  CachedRecord *r = &records[entry->offset % CACHED_RECORDS];
  *ok = TRUE;
  if (r->fields && r->parser == self->id && r->offset == entry->offset)
    return r;
  if (!r->fields)
    r->fields = g_array_new (FALSE, FALSE, sizeof (CachedField));
  g_array_set_size (r->fields, 0);
  /* messages may still hold the text it had */
  g_clear_pointer (&r->text, g_bytes_unref);
  r->parser = 0;
  MMDB_entry_data_list_s *list = NULL;
  if (MMDB_get_entry_data_list (entry, &list) != MMDB_SUCCESS || !list)
    {
      MMDB_free_entry_data_list (list);
      *ok = FALSE;
      return r;
    }
  Dump dump = { r->fields, g_string_sized_new (256), path, value };
  g_string_assign (dump.path, self->key_prefix);
  dump_tree (&dump, list);
  MMDB_free_entry_data_list (list);
  r->text = g_string_free_to_bytes (dump.text);
  r->parser = self->id;
  r->offset = entry->offset;
  return r;
}

static void
count_error (Geoip2Parser *self, const gchar *address, const gchar *why)
{
  sl_counter_add (self->lookup_errors, 1);
  if (sl_counter_get (self->lookup_errors) % 1000 == 1)
    sl_log (SL_LOG_WARNING, _("geoip2(): cannot look up an address (logged the first time and then once per 1000); "
                              "address='%s', error='%s', lookup_errors='%" PRId64 "', driver='%s'"),
            address, why, sl_counter_get (self->lookup_errors), self->base.id);
}

static gboolean
geoip2_parser_process (SlDriver *d, SlMessage **msg)
{
  Geoip2Parser *self = (Geoip2Parser *) d;
  gsize len;
  const gchar *address = sl_parser_input (self->template, *msg, &len);
  int gai_error = 0, mmdb_error = MMDB_SUCCESS;
  MMDB_lookup_result_s result = geoip2_lookup (self->db, address, &gai_error, &mmdb_error);
  if (!result.found_entry)
    {
      if (gai_error)
        count_error (self, address, gai_strerror (gai_error));
      else if (mmdb_error != MMDB_SUCCESS)
        count_error (self, address, MMDB_strerror (mmdb_error));
      return TRUE;
    }
  gboolean ok;
  const CachedRecord *r = cached_record (self, &result.entry, thread_buffer (&path_key), thread_buffer (&value_key), &ok);
  if (!ok)
    {
      count_error (self, address, MMDB_strerror (MMDB_INVALID_DATA_ERROR));
      return TRUE;
    }
  sl_message_make_writable (msg);
  for (guint i = 0; i < r->fields->len; i++)
    {
      const CachedField *f = &g_array_index (r->fields, CachedField, i);
      sl_message_set_shared (*msg, f->handle, r->text, f->start, f->len);
    }
  return TRUE;
}

static gboolean
geoip2_parser_init (SlDriver *d, GError **error)
{
  Geoip2Parser *self = (Geoip2Parser *) d;
  if (!self->template)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos,
                        _("geoip2() needs the address to look up, such as geoip2(\"${HOST}\")"));
      return FALSE;
    }
  GError *open_error = NULL;
  self->db = geoip2_open (self->database, &self->path, &open_error);
  if (!self->db)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE,
                        self->database ? sl_options_pos (d->options, "database") : d->pos,
                        "geoip2(): %s", open_error->message);
      g_error_free (open_error);
      return FALSE;
    }
  self->key_prefix = g_strdup (self->prefix);
  gsize n = strlen (self->key_prefix);
  if (n && self->key_prefix[n - 1] == '.')
    self->key_prefix[n - 1] = '\0';
  self->id = g_atomic_int_add (&next_parser_id, 1);
  self->lookup_errors = sl_stats_counter ("parser", d->id, d->klass->name, "lookup_errors");
  return TRUE;
}

static void
geoip2_parser_free (SlDriver *d)
{
  Geoip2Parser *self = (Geoip2Parser *) d;
  geoip2_close (self->db);
  g_free (self->path);
  g_free (self->key_prefix);
}

static const SlParserOps geoip2_parser_ops = { .process = geoip2_parser_process };

const SlDriverClass geoip2_parser_class = {
  .kind = SL_DRIVER_PARSER,
  .name = "geoip2",
  .summary = "what a MaxMind DB holds of an address, as fields named as syslog-ng's geoip2() names them",
  .options = geoip2_parser_options,
  .instance_size = sizeof (Geoip2Parser),
  .init = geoip2_parser_init,
  .free = geoip2_parser_free,
  .ops.parser = &geoip2_parser_ops,
};
