/* SPDX-License-Identifier: GPL-2.0-or-later */
/* in-list("/etc/sluice/apps.list" value("PROGRAM")): whether a field's
 * value is one of the lines of a file. The file is read once, when the
 * configuration loads (a reload reads it again); each line is one value,
 * compared exactly and case-sensitively, as in syslog-ng. */
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/plugin/plugin.h"
#include "core/message/template.h"

#include <string.h>

/* A value as a field holds it, so a lookup needs no NUL-terminated copy. */
typedef struct
{
  const gchar *ptr;
  gsize len;
} Slice;

typedef struct
{
  SlDriver super;
  GHashTable *values;     /* Slice* -> itself, pointing into text */
  gchar *text;            /* the file's contents */
  SlTemplate *subject;
  const gchar *path;
  const gchar *field;
} InListFilter;

static const SlOptionSpec in_list_options[] = {
  { "file", SL_STRING (InListFilter, path), NULL, "the file of values, one a line", .flags = SL_OPT_POSITIONAL },
  { "value", SL_STRING (InListFilter, field), NULL, "the field or macro to look up, such as PROGRAM" },
  { NULL }
};

static guint
slice_hash (gconstpointer key)
{
  const Slice *s = key;
  guint32 h = 2166136261u;
  for (gsize i = 0; i < s->len; i++)
    h = (h ^ (guchar) s->ptr[i]) * 16777619u;
  return h;
}

static gboolean
slice_equal (gconstpointer a, gconstpointer b)
{
  const Slice *x = a;
  const Slice *y = b;
  return x->len == y->len && memcmp (x->ptr, y->ptr, x->len) == 0;
}

/* Every non-empty line of text, without its line end, into the table. */
static void
add_lines (InListFilter *self)
{
  const gchar *p = self->text;
  while (*p)
    {
      const gchar *end = strchr (p, '\n');
      gsize len = end ? (gsize) (end - p) : strlen (p);
      gsize value_len = len;
      if (value_len && p[value_len - 1] == '\r')
        value_len--;
      if (value_len)
        {
          Slice *s = g_new (Slice, 1);
          *s = (Slice) { p, value_len };
          if (!g_hash_table_add (self->values, s))
            g_free (s);
        }
      p += len + (end ? 1 : 0);
    }
}

static gboolean
in_list_init (SlDriver *d, GError **error)
{
  InListFilter *self = (InListFilter *) d;
  const gchar *path = self->path;
  const gchar *field = self->field;
  if (!path || !field)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos,
                        _("in-list() needs a file and a field, "
                          "as in in-list(\"/etc/apps.list\" value(\"PROGRAM\"))"));
      return FALSE;
    }
  GError *inner = NULL;
  if (!(self->subject = sl_template_compile_name (field, &inner)))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "value"), "%s", inner->message);
      g_error_free (inner);
      return FALSE;
    }

  if (!g_file_get_contents (path, &self->text, NULL, &inner))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "file"),
                        _("cannot read the list of in-list(): %s"), inner->message);
      g_error_free (inner);
      return FALSE;
    }
  /* a NUL in the file ends what is read: a value never holds one */
  self->values = g_hash_table_new_full (slice_hash, slice_equal, g_free, NULL);
  add_lines (self);
  return TRUE;
}

static void
in_list_free (SlDriver *d)
{
  InListFilter *self = (InListFilter *) d;
  if (self->values)
    g_hash_table_unref (self->values);
  g_free (self->text);
  if (self->subject)
    sl_template_unref (self->subject);
}

static gboolean
in_list_match (SlDriver *d, const SlMessage *msg)
{
  InListFilter *self = (InListFilter *) d;
  Slice key;
  key.ptr = sl_template_peek (self->subject, msg, &key.len);
  return g_hash_table_contains (self->values, &key);
}

static const SlFilterOps in_list_ops = { .match = in_list_match };

static const SlDriverClass in_list_class = {
  .kind = SL_DRIVER_FILTER,
  .name = "in-list",
  .summary = "a field's value is a line of a file: in-list(\"/etc/apps.list\" value(\"PROGRAM\"))",
  .options = in_list_options,
  .instance_size = sizeof (InListFilter),
  .init = in_list_init,
  .free = in_list_free,
  .ops.filter = &in_list_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "in-list-filter",
  .drivers = (const SlDriverClass *const[]) { &in_list_class, NULL },
};
