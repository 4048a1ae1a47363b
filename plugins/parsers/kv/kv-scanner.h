/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The key=value scanner kv-parser(), linux-audit-parser() and
 * snmptrapd-parser() share: pairs
 * read from a NUL-terminated text exactly as syslog-ng 3.38's kv-scanner
 * reads them, and the words that are no pair, kept as a list. */
#ifndef KV_SCANNER_H
#define KV_SCANNER_H

#include <glib.h>

G_BEGIN_DECLS

typedef struct _SlKvScanner KvScanner;

/* May replace the value just read (scanner->value) with another it
 * appends to out; returns FALSE to keep the value as read. */
typedef gboolean (*KvTransform) (const KvScanner *scanner, GString *out);

struct _SlKvScanner
{
  gchar value_separator;
  const gchar *pair_separator;    /* ", " when the user gave none */
  gsize pair_separator_len;
  KvTransform transform;
  GString *stray_words;           /* NULL: not collected */
  /* syslog-ng's other scanner settings, which snmptrapd-parser() sets
   * after kv_scanner_init(): */
  gchar stop_char;                /* ends the scan; 0: only the end of the input does */
  gboolean (*is_key_char) (gchar c);  /* NULL: letters, digits, '_', '.', '-' */
  /* reads what stands between the value separator and the value (a
   * type, "STRING:"), moving pos past it */
  void (*annotation) (KvScanner *scanner);

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
void     kv_scanner_init (KvScanner *scanner, gchar value_separator, const gchar *pair_separator,
                             KvTransform transform, gboolean stray_words, const gchar *input);
/* The next pair: key and value are valid until the next call. */
gboolean kv_scanner_next (KvScanner *scanner);
/* The words found outside pairs so far, as a syslog-ng list ("a,'b c'"). */
const gchar *kv_scanner_stray_words (const KvScanner *scanner, gsize *len);

G_END_DECLS

#endif
