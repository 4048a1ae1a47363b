/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The key=value scanner kv-parser(), linux-audit-parser() and
 * snmptrapd-parser() share: pairs
 * read from a NUL-terminated text exactly as syslog-ng 3.38's kv-scanner
 * reads them, and the words that are no pair, kept as a list. */
#ifndef SL_KV_SCANNER_H
#define SL_KV_SCANNER_H

#include <glib.h>

G_BEGIN_DECLS

typedef struct _SlKvScanner SlKvScanner;

/* May replace the value just read (scanner->value) with another it
 * appends to out; returns FALSE to keep the value as read. */
typedef gboolean (*SlKvTransform) (const SlKvScanner *scanner, GString *out);

struct _SlKvScanner
{
  gchar value_separator;
  const gchar *pair_separator;    /* ", " when the user gave none */
  gsize pair_separator_len;
  SlKvTransform transform;
  GString *stray_words;           /* NULL: not collected */
  /* syslog-ng's other scanner settings, which snmptrapd-parser() sets
   * after sl_kv_scanner_init(): */
  gchar stop_char;                /* ends the scan; 0: only the end of the input does */
  gboolean (*is_key_char) (gchar c);  /* NULL: letters, digits, '_', '.', '-' */
  /* reads what stands between the value separator and the value (a
   * type, "STRING:"), moving pos past it */
  void (*annotation) (SlKvScanner *scanner);

  const gchar *input;
  gsize pos;
  gboolean value_was_quoted;
  const gchar *key;               /* in input */
  gsize key_len;
  GString *value;                 /* the calling thread's */
  GString *transformed;
};

/* Starts scanning input, which must stay unchanged while it is scanned;
 * stray words are collected when stray_words is TRUE. */
void     sl_kv_scanner_init (SlKvScanner *scanner, gchar value_separator, const gchar *pair_separator,
                             SlKvTransform transform, gboolean stray_words, const gchar *input);
/* The next pair: key and value are valid until the next call. */
gboolean sl_kv_scanner_next (SlKvScanner *scanner);
/* The words found outside pairs so far, as a syslog-ng list ("a,'b c'"). */
const gchar *sl_kv_scanner_stray_words (const SlKvScanner *scanner, gsize *len);

G_END_DECLS

#endif
