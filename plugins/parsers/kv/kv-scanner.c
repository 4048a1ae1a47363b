/* syslog-ng's kv-scanner and the quoting of its str-repr, step for step,
 * so that a line splits into the same pairs: a key is the run of key
 * characters before the separator (spaces between them allowed); an
 * unquoted value runs over spaces until a key, the pair separator or the
 * end follows; a quoted one is unquoted with C escapes; a value whose
 * quotes are broken is kept as written and scanning resumes inside it. */
#include "plugins/parsers/kv/kv-scanner.h"

#include <string.h>

typedef struct
{
  GString *value;
  GString *transformed;
  GString *stray_words;
} SlKvScratch;

static void
scratch_free (gpointer p)
{
  SlKvScratch *scratch = p;
  g_string_free (scratch->value, TRUE);
  g_string_free (scratch->transformed, TRUE);
  g_string_free (scratch->stray_words, TRUE);
  g_free (scratch);
}

static GPrivate scratch_key = G_PRIVATE_INIT (scratch_free);

static SlKvScratch *
scratch_get (void)
{
  SlKvScratch *scratch = g_private_get (&scratch_key);
  if (!scratch)
    {
      scratch = g_new (SlKvScratch, 1);
      scratch->value = g_string_sized_new (256);
      scratch->transformed = g_string_sized_new (256);
      scratch->stray_words = g_string_sized_new (64);
      g_private_set (&scratch_key, scratch);
    }
  return scratch;
}

void
sl_kv_scanner_init (SlKvScanner *scanner, gchar value_separator, const gchar *pair_separator,
                    SlKvTransform transform, gboolean stray_words, const gchar *input)
{
  SlKvScratch *scratch = scratch_get ();

  *scanner = (SlKvScanner) {
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
is_key_char (gchar c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '.' || c == '-';
}

/* str_repr_encode_append() of syslog-ng: as is when nothing needs quoting,
 * else in the quotes the word does not hold, escaped. */
static void
append_escaped (GString *out, const gchar *word, gsize len, const gchar *unsafe)
{
  const gchar *end = word + len;

  while (word < end)
    {
      gunichar c = g_utf8_get_char_validated (word, end - word);
      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          g_string_append_printf (out, "\\x%02x", (guchar) *word++);
          continue;
        }
      switch (c)
        {
        case '\b': g_string_append (out, "\\b"); break;
        case '\f': g_string_append (out, "\\f"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        case '\\': g_string_append (out, "\\\\"); break;
        default:
          if (c < 32)
            g_string_append_printf (out, "\\x%02x", c);
          else if (unsafe && c < 256 && strchr (unsafe, (gchar) c))
            g_string_append_printf (out, "\\%c", (gchar) c);
          else
            g_string_append_len (out, word, g_utf8_next_char (word) - word);
          break;
        }
      word = g_utf8_next_char (word);
    }
}

static gboolean
holds_any (const gchar *word, gsize len, const gchar *chars)
{
  for (gsize i = 0; i < len; i++)
    if (word[i] && strchr (chars, word[i]))
      return TRUE;
  return FALSE;
}

static void
append_list_item (GString *out, const gchar *word, gsize len)
{
  gboolean apostrophe = memchr (word, '\'', len) != NULL;
  gboolean quote = memchr (word, '"', len) != NULL;

  if (!apostrophe && !quote && !holds_any (word, len, "\b\f\n\r\t\\ ,"))
    g_string_append_len (out, word, len);
  else if (!apostrophe && quote)
    {
      g_string_append_c (out, '\'');
      append_escaped (out, word, len, NULL);
      g_string_append_c (out, '\'');
    }
  else if (apostrophe && !quote)
    {
      g_string_append_c (out, '"');
      append_escaped (out, word, len, NULL);
      g_string_append_c (out, '"');
    }
  else
    {
      g_string_append_c (out, '"');
      append_escaped (out, word, len, "\"");
      g_string_append_c (out, '"');
    }
}

static void
add_stray_word (SlKvScanner *scanner, const gchar *word, gsize len)
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
  append_list_item (scanner->stray_words, word, len);
}

static gboolean
extract_key (SlKvScanner *scanner)
{
  const gchar *input = scanner->input + scanner->pos;

  for (const gchar *separator = strchr (input, scanner->value_separator); separator;
       separator = strchr (separator + 1, scanner->value_separator))
    {
      const gchar *end = separator;
      while (end > input && end[-1] == ' ')
        end--;
      const gchar *start = end;
      while (start > input && is_key_char (start[-1]))
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
at_pair_separator (const SlKvScanner *scanner, const gchar *cur, const gchar **next)
{
  if (strncmp (cur, scanner->pair_separator, scanner->pair_separator_len) != 0)
    return FALSE;
  *next = cur + scanner->pair_separator_len;
  return TRUE;
}

static gboolean
key_follows (const SlKvScanner *scanner, const gchar *cur)
{
  const gchar *p = cur;
  while (is_key_char (*p))
    p++;
  while (*p == ' ')
    p++;
  return p != cur && *p == scanner->value_separator;
}

/* Whether a value ends at cur, and where what follows it starts. */
static gboolean
match_delimiter (const SlKvScanner *scanner, const gchar *cur, const gchar **next)
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
  return at_pair_separator (scanner, cur, next);
}

/* Only these characters may end a value, as syslog-ng checks them first. */
static gboolean
may_delimit (const SlKvScanner *scanner, gchar c)
{
  return c == ' ' || c == scanner->pair_separator[0];
}

static gboolean
skip_delimiter (const SlKvScanner *scanner, const gchar **cur)
{
  const gchar *next;
  if (!may_delimit (scanner, **cur) || !match_delimiter (scanner, *cur, &next))
    return FALSE;
  *cur = next;
  return TRUE;
}

static void
append_escape (GString *value, gchar quote, gchar c)
{
  switch (c)
    {
    case 'b': g_string_append_c (value, '\b'); break;
    case 'f': g_string_append_c (value, '\f'); break;
    case 'n': g_string_append_c (value, '\n'); break;
    case 'r': g_string_append_c (value, '\r'); break;
    case 't': g_string_append_c (value, '\t'); break;
    case '\\': g_string_append_c (value, '\\'); break;
    default:
      if (c != quote)
        g_string_append_c (value, '\\');
      g_string_append_c (value, c);
      break;
    }
}

typedef enum
{
  VALUE_INITIAL,
  VALUE_QUOTED,
  VALUE_BACKSLASH,
  VALUE_AFTER_QUOTE,
  VALUE_JUNK_AFTER_QUOTE,
  VALUE_UNQUOTED,
  VALUE_DONE,
  VALUE_BROKEN,
} SlKvValueState;

/* str_repr_decode() with the scanner's delimiters: FALSE, with the value
 * as written up to *end, when its quotes are broken. */
static gboolean
decode_value (SlKvScanner *scanner, const gchar *input, const gchar **end)
{
  GString *value = scanner->value;
  SlKvValueState state = VALUE_INITIAL;
  const gchar *cur = input;
  gchar quote = 0;

  g_string_truncate (value, 0);
  for (; *cur && state != VALUE_DONE && state != VALUE_BROKEN; )
    {
      switch (state)
        {
        case VALUE_INITIAL:
          if (skip_delimiter (scanner, &cur))
            {
              state = VALUE_DONE;
              continue;
            }
          if (*cur == '"' || *cur == '\'')
            {
              quote = *cur;
              state = VALUE_QUOTED;
            }
          else
            {
              g_string_append_c (value, *cur);
              state = VALUE_UNQUOTED;
            }
          break;
        case VALUE_QUOTED:
          if (*cur == quote)
            state = VALUE_AFTER_QUOTE;
          else if (*cur == '\\')
            state = VALUE_BACKSLASH;
          else
            g_string_append_c (value, *cur);
          break;
        case VALUE_BACKSLASH:
          append_escape (value, quote, *cur);
          state = VALUE_QUOTED;
          break;
        case VALUE_AFTER_QUOTE:
        case VALUE_JUNK_AFTER_QUOTE:
          if (skip_delimiter (scanner, &cur))
            {
              state = state == VALUE_AFTER_QUOTE ? VALUE_DONE : VALUE_BROKEN;
              continue;
            }
          state = VALUE_JUNK_AFTER_QUOTE;
          break;
        case VALUE_UNQUOTED:
          if (skip_delimiter (scanner, &cur))
            {
              state = VALUE_DONE;
              continue;
            }
          g_string_append_c (value, *cur);
          break;
        default:
          break;
        }
      cur++;
    }
  *end = cur;
  if (state == VALUE_INITIAL || state == VALUE_AFTER_QUOTE || state == VALUE_UNQUOTED || state == VALUE_DONE)
    return TRUE;
  g_string_assign (value, "");
  g_string_append_len (value, input, cur - input);
  return FALSE;
}

static void
extract_value (SlKvScanner *scanner)
{
  const gchar *input = scanner->input + scanner->pos;
  const gchar *end;

  scanner->value_was_quoted = FALSE;
  while (*input == ' ' && !match_delimiter (scanner, input, &end))
    input++;
  scanner->pos = input - scanner->input;

  scanner->value_was_quoted = *input == '"' || *input == '\'';
  if (decode_value (scanner, input, &end))
    scanner->pos = end - scanner->input;
  else
    scanner->value_was_quoted = FALSE;
}

gboolean
sl_kv_scanner_next (SlKvScanner *scanner)
{
  if (!scanner->input[scanner->pos] || !extract_key (scanner))
    return FALSE;
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
sl_kv_scanner_stray_words (const SlKvScanner *scanner, gsize *len)
{
  *len = scanner->stray_words ? scanner->stray_words->len : 0;
  return scanner->stray_words ? scanner->stray_words->str : "";
}
