/* SPDX-License-Identifier: GPL-2.0-or-later */
/* $(format-welf) and $(format-cef-extension): the name-value pairs that
 * format-json.c selects with syslog-ng's value-pairs options, written as
 * WELF (name=value, spaced) or as a CEF extension. */
#ifndef KV_FORMATS_H
#define KV_FORMATS_H

#include <glib.h>

G_BEGIN_DECLS

/* One selected pair: its key and its bytes. */
typedef struct
{
  const gchar *key;
  const gchar *value;
  gsize len;
} KvPair;

/* Appends name=value for each pair, a space before each but the first
 * of the whole call (*first says whether none was written yet); a value
 * with a space is quoted. */
void     kv_append_welf (GString *out, const KvPair *pairs, guint n, gboolean *first);
/* Appends name=value for each pair, spaced, with CEF's escapes; FALSE,
 * having written part of them, when a key is not letters and digits. */
gboolean kv_append_cef  (GString *out, const KvPair *pairs, guint n);

G_END_DECLS

#endif
