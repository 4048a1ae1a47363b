/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Appending text to a rendered message on the hot path. */
#ifndef SL_TEXT_APPEND_H
#define SL_TEXT_APPEND_H

#include <glib.h>
#include <string.h>

G_BEGIN_DECLS

/* Appends len bytes to out. GLib 2.74's g_string_append_len() is a call
 * into g_string_insert_len() for every piece of every rendered message;
 * while there is room this is a copy in place. */
static inline void
sl_text_append (GString *out, const gchar *text, gsize len)
{
  if (G_LIKELY (out->len + len < out->allocated_len))
    {
      memcpy (out->str + out->len, text, len);
      out->len += len;
      out->str[out->len] = '\0';
    }
  else
    g_string_append_len (out, text, len);
}

/* A signed integer in decimal, as printf's "%" G_GINT64_FORMAT writes it,
 * without printf's parsing of the format and GString's vasprintf. */
static inline void
sl_text_append_int64 (GString *out, gint64 value)
{
  gchar digits[20];
  gchar *p = digits + sizeof digits;
  guint64 u = value < 0 ? -(guint64) value : (guint64) value;
  do
    *--p = (gchar) ('0' + u % 10);
  while ((u /= 10));
  if (value < 0)
    *--p = '-';
  sl_text_append (out, p, digits + sizeof digits - p);
}

G_END_DECLS

#endif
