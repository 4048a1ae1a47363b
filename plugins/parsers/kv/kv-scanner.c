/* SPDX-License-Identifier: GPL-2.0-or-later */
/* syslog-ng's kv-scanner, step for step (values read with str-repr),
 * so that a line splits into the same pairs: a key is the run of key
 * characters before the separator (spaces between them allowed); an
 * unquoted value runs over spaces until a key, the pair separator or the
 * end follows; a quoted one is unquoted with C escapes; a value whose
 * quotes are broken is kept as written and scanning resumes inside it. */
#include "plugins/parsers/kv/kv-scanner.h"
#include "core/message/str-repr.h"

#include <string.h>

typedef struct
{
  GString *value;
  GString *transformed;
  GString *stray_words;
} KvScratch;

static void
scratch_free (gpointer p)
{
  KvScratch *scratch = p;
  g_string_free (scratch->value, TRUE);
  g_string_free (scratch->transformed, TRUE);
  g_string_free (scratch->stray_words, TRUE);
  g_free (scratch);
}

static GPrivate scratch_key = G_PRIVATE_INIT (scratch_free);

static KvScratch *
scratch_get (void)
{
  KvScratch *scratch = g_private_get (&scratch_key);
  if (!scratch)
    {
      scratch = g_new (KvScratch, 1);
      scratch->value = g_string_sized_new (256);
      scratch->transformed = g_string_sized_new (256);
      scratch->stray_words = g_string_sized_new (64);
      g_private_set (&scratch_key, scratch);
    }
  return scratch;
}

void
kv_scanner_init (KvScanner *scanner, gchar value_separator, const gchar *pair_separator,
                    KvTransform transform, gboolean stray_words, const gchar *input)
{
  KvScratch *scratch = scratch_get ();

  *scanner = (KvScanner) {
    .value_separator = value_separator,
    .pair_separator = pair_separator ? pair_separator : ", ",
    .transform = transform,
    .input = input,
    .value = scratch->value,
    .transformed = scratch->transformed,
  };
  scanner->pair_separator_len = strlen (scanner->pair_separator);
  if (stray_words)
    {
      scanner->stray_words = scratch->stray_words;
      g_string_truncate (scanner->stray_words, 0);
    }
}

static gboolean
is_key_char (const KvScanner *scanner, gchar c)
{
  if (scanner->is_key_char)
    return scanner->is_key_char (c);
  return g_ascii_isalnum (c) || c == '_' || c == '.' || c == '-';
}

static void
add_stray_word (KvScanner *scanner, const gchar *word, gsize len)
{
  if (!scanner->stray_words)
    return;
  while (len && word[len - 1] == ' ')
    len--;
  while (len && word[0] == ' ')
    word++, len--;
  if (!len)
    return;
  if (scanner->stray_words->len)
    g_string_append_c (scanner->stray_words, ',');
  sl_str_repr_encode_append (scanner->stray_words, word, len, ",");
}

static gboolean
extract_key (KvScanner *scanner)
{
  const gchar *input = scanner->input + scanner->pos;

  for (const gchar *separator = strchr (input, scanner->value_separator); separator;
       separator = strchr (separator + 1, scanner->value_separator))
    {
      const gchar *end = separator;
      while (end > input && end[-1] == ' ')
        end--;
      const gchar *start = end;
      while (start > input && is_key_char (scanner, start[-1]))
        start--;
      if (end > start)
        {
          add_stray_word (scanner, input, start - input);
          scanner->key = start;
          scanner->key_len = end - start;
          scanner->pos = separator + 1 - scanner->input;
          return TRUE;
        }
    }
  add_stray_word (scanner, input, strlen (input));
  return FALSE;
}

static gboolean
at_pair_separator (const KvScanner *scanner, const gchar *cur, const gchar **next)
{
  if (strncmp (cur, scanner->pair_separator, scanner->pair_separator_len) != 0)
    return FALSE;
  *next = cur + scanner->pair_separator_len;
  return TRUE;
}

static gboolean
key_follows (const KvScanner *scanner, const gchar *cur)
{
  const gchar *p = cur;
  while (is_key_char (scanner, *p))
    p++;
  while (*p == ' ')
    p++;
  return p != cur && *p == scanner->value_separator;
}

/* Whether a value ends at cur, and where what follows it starts. */
static gboolean
match_delimiter (const KvScanner *scanner, const gchar *cur, const gchar **next)
{
  if (*cur == ' ' && !scanner->value_was_quoted)
    {
      if (scanner->pair_separator[0] == ' ' && at_pair_separator (scanner, cur, next))
        return TRUE;
      while (*cur == ' ')
        cur++;
      if (!*cur || key_follows (scanner, cur))
        {
          *next = cur;
          return TRUE;
        }
      return at_pair_separator (scanner, cur, next);
    }
  if (*cur == ' ')
    {
      *next = cur + 1;
      return TRUE;
    }
  if (scanner->stop_char && *cur == scanner->stop_char)
    {
      *next = cur;
      return TRUE;
    }
  return at_pair_separator (scanner, cur, next);
}

static gboolean
scanner_delimiter (const gchar *cur, const gchar **next, gpointer user_data)
{
  return match_delimiter (user_data, cur, next);
}

static void
extract_value (KvScanner *scanner)
{
  const gchar *input = scanner->input + scanner->pos;
  const gchar *end;

  scanner->value_was_quoted = FALSE;
  while (*input == ' ' && !match_delimiter (scanner, input, &end))
    input++;
  scanner->pos = input - scanner->input;

  /* only these characters may end a value, as syslog-ng checks them first */
  gchar delimiters[] = { ' ', scanner->pair_separator[0], scanner->stop_char, 0 };
  SlStrReprDecode options = { delimiters, scanner_delimiter, scanner };
  scanner->value_was_quoted = *input == '"' || *input == '\'';
  if (sl_str_repr_decode (scanner->value, input, &end, &options))
    scanner->pos = end - scanner->input;
  else
    scanner->value_was_quoted = FALSE;
}

gboolean
kv_scanner_next (KvScanner *scanner)
{
  if (scanner->input[scanner->pos] == scanner->stop_char || !extract_key (scanner))
    return FALSE;
  if (scanner->annotation)
    scanner->annotation (scanner);
  extract_value (scanner);
  if (scanner->transform)
    {
      g_string_truncate (scanner->transformed, 0);
      if (scanner->transform (scanner, scanner->transformed))
        {
          g_string_truncate (scanner->value, 0);
          g_string_append_len (scanner->value, scanner->transformed->str, scanner->transformed->len);
        }
    }
  return TRUE;
}

const gchar *
kv_scanner_stray_words (const KvScanner *scanner, gsize *len)
{
  *len = scanner->stray_words ? scanner->stray_words->len : 0;
  return scanner->stray_words ? scanner->stray_words->str : "";
}
