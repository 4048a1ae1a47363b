/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A process-wide table of interned names, each with a small id that never
 * changes: field handles and tags. Id 0 is the empty name and stands for
 * "none". A table holds at most max names, because senders can invent
 * names; past that, interning refuses. */
#ifndef SL_NAME_TABLE_H
#define SL_NAME_TABLE_H

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  guint max;
  const gchar *const *preset;   /* the names of ids 0 .. n_preset - 1 */
  guint n_preset;
  GMutex lock;
  GHashTable *ids;              /* name -> id */
  const gchar **names;          /* id -> name; max entries, never moved */
  guint count;
  GPrivate cache;               /* per thread: name -> id of names it used */
} SlNameTable;

void sl_name_table_cache_free (gpointer cache);

#define SL_NAME_TABLE_INIT(max_, preset_, n_preset_) \
  { .max = (max_), .preset = (preset_), .n_preset = (n_preset_), \
    .cache = G_PRIVATE_INIT (sl_name_table_cache_free) }

/* The id of name, interned on first use; 0 for "" and, with *refused set,
 * for a new name once the table is full. */
guint        sl_name_table_intern (SlNameTable *t, const gchar *name, gboolean *refused);
/* The id of name if it was interned, else 0. */
guint        sl_name_table_lookup (SlNameTable *t, const gchar *name);
/* Takes no lock: names are never moved or freed. NULL for an unknown id. */
const gchar *sl_name_table_name   (SlNameTable *t, guint id);

G_END_DECLS

#endif
