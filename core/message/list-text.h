/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* syslog-ng's list text, as $(list-*), $(explode) and the list() type
 * hint read and write a list in one value: items joined by ',', each
 * quoted as syslog-ng's str-repr quotes it (sl_str_repr_encode_append()
 * with ',' forbidden), read back with its escapes in either quotes. */
#ifndef SL_LIST_TEXT_H
#define SL_LIST_TEXT_H

#include <glib.h>

G_BEGIN_DECLS

/* Calls each on every item of the list text[0..len), unquoted; an empty
 * item only when it was quoted (a,,b has two items, a,"",b three). */
void sl_list_text_foreach (const gchar *text, gsize len,
                           void (*each) (const gchar *item, gsize len, gpointer user_data), gpointer user_data);
/* Appends item[0..len) to the list out holds from start on: a ',' first
 * unless it is the first item there, quoted as the list text needs. */
void sl_list_text_append  (GString *out, gsize start, const gchar *item, gsize len);

G_END_DECLS

#endif
