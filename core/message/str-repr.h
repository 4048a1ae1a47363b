/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* syslog-ng's str-repr: how it quotes a value that must stay one item
 * (a list item, a stray word) and how it reads one back, with the same
 * escapes, so that lists and pairs split where syslog-ng splits them. */
#ifndef SL_STR_REPR_H
#define SL_STR_REPR_H

#include <glib.h>

G_BEGIN_DECLS

/* Whether a value ends at cur (which is one of the delimiter characters),
 * and where what follows it starts (*next). */
typedef gboolean (*SlStrReprDelimiter) (const gchar *cur, const gchar **next, gpointer user_data);

typedef struct
{
  const gchar *delimiter_chars;   /* the characters that may end a value */
  SlStrReprDelimiter match;       /* NULL: any of them ends it, and is skipped */
  gpointer user_data;
} SlStrReprDecode;

/* Reads a value from NUL-terminated input into value (replacing it): as is
 * up to a delimiter, or from '...' or "..." with C escapes. FALSE when its
 * quotes are broken, value then holding the input as written up to *end. */
gboolean sl_str_repr_decode (GString *value, const gchar *input, const gchar **end,
                             const SlStrReprDecode *options);

/* How sl_str_repr_escape_append() writes what may not stand as is: a
 * prefix, then lower-case hex digits. */
typedef struct
{
  const gchar *named;           /* control characters written by name (\n), of "\b\f\n\r\t" */
  const gchar *unsafe;          /* ASCII characters written after a backslash, or NULL */
  const gchar *control_prefix;  /* the other control characters, NUL among them: "\\x" or "\\u" */
  guint control_digits;         /* and their code in this many digits */
  const gchar *invalid_prefix;  /* a byte that starts no UTF-8 character, in two digits */
} SlStrReprEscape;

/* Appends text[0..len) escaped as syslog-ng's append_unsafe_utf8_as_escaped_*()
 * do: a backslash doubled, control characters by name or by code, unsafe
 * characters after a backslash, bytes that are not UTF-8 by value, the
 * rest as is. */
void     sl_str_repr_escape_append (GString *out, const gchar *text, gsize len,
                                    const SlStrReprEscape *escape);

/* Appends str as one item: as is when it holds no space, escape, quote or
 * character of forbidden, else in the quotes it does not hold, escaped. */
void     sl_str_repr_encode_append (GString *out, const gchar *str, gsize len, const gchar *forbidden);

G_END_DECLS

#endif
