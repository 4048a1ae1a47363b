/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The pattern matcher of db-parser(): syslog-ng's radix tree of literal
 * text and pattern parsers (@ESTRING:name:stop@, @NUMBER@, ...). A lookup
 * walks the tree depth first, a literal child before the parsers of a
 * node and the parsers in the order their patterns were added, and
 * takes the first way that consumes the whole text; only when none does,
 * a node that consumed part of it, as syslog-ng does. */
#ifndef RADIX_H
#define RADIX_H

#include <glib.h>
#include "core/message/message.h"

G_BEGIN_DECLS

typedef struct _SlRadix Radix;

/* What one parser on the way to a match took: the field it names (or
 * SL_F_NONE) and its value as offset and length into the text. */
typedef struct
{
  SlHandle field;
  gint32 ofs;
  gint32 len;
} RadixMatch;

Radix  *radix_new    (void);
void      radix_free   (Radix *radix);
/* Adds pattern (literal text, @@ for '@', parsers as @TYPE:name:param@)
 * leading to value; a parser's field is prefix followed by its name.
 * FALSE with error when a parser is unknown or misses its parameter, or
 * the pattern already leads to a value (then *other is that value). */
gboolean  radix_insert (Radix *radix, const gchar *pattern, gpointer value, const gchar *prefix,
                           gpointer *other, GError **error);
/* The value of the pattern text (NUL-terminated, len bytes) matches, or
 * NULL; matches (when not NULL) gets what the parsers on its way took. */
gpointer  radix_lookup (const Radix *radix, const gchar *text, gsize len, GArray *matches);

G_END_DECLS

#endif
