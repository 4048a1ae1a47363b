/* csv-parser(): a message split at delimiters into the columns named,
 * with syslog-ng's quoting, escaping and flags. A column may open with a
 * quote (quote-pairs(), '""' by default), inside which delimiters are
 * text; the nearest delimiter ends an unquoted one, a string delimiter
 * winning over a character at the same place. */
#include "core/config.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/parser-input.h"
#include "core/plugin.h"
#include "core/stats.h"

#include <string.h>

/* Columns are split on the stack, one slot each. */
#define SL_CSV_MAX_COLUMNS 4096

/* in the order of the flags() choices */
enum
{
  FLAG_ESCAPE_NONE        = 1 << 0,
  FLAG_ESCAPE_BACKSLASH   = 1 << 1,
  FLAG_ESCAPE_DOUBLE_CHAR = 1 << 2,
  FLAG_STRIP_WHITESPACE   = 1 << 3,
  FLAG_GREEDY             = 1 << 4,
  FLAG_DROP_INVALID       = 1 << 5,
};

static const SlOptionSpec csv_parser_options[] = {
  { "columns", SL_OPT_LIST, NULL, "the names of the columns, in order" },
  { "delimiters", SL_OPT_BLOCK, NULL,
    "characters that end a column (a space when not given), or chars(\"...\") and strings(\"...\" ...)" },
  { "quote-pairs", SL_OPT_STRING, "\"\"", "opening and closing quote characters, in pairs: '\"\"[]'" },
  { "flags", SL_OPT_FLAGS, NULL, "escaping inside quotes, and what to do with the columns",
    "escape-none,escape-backslash,escape-double-char,strip-whitespace,greedy,drop-invalid" },
  { "dialect", SL_OPT_STRING, NULL, "escaping inside quotes: escape-none, escape-backslash or escape-double-char" },
  { "prefix", SL_OPT_STRING, "", "put before the name of every column" },
  { "null", SL_OPT_STRING, NULL, "a column holding exactly this text is stored empty" },
  { "template", SL_OPT_TEMPLATE, NULL, "the text to parse; ${MESSAGE} when not given" },
  { NULL }
};

/* What delimiters() holds: delimiters("-:") is delimiters(chars("-:")). */
static const SlOptionSpec delimiter_options[] = {
  { "chars", SL_OPT_STRING, " ", "every character of it ends a column", NULL, TRUE },
  { "strings", SL_OPT_LIST, NULL, "each of them ends a column" },
  { NULL }
};

typedef enum
{
  ESCAPE_NONE,
  ESCAPE_BACKSLASH,
  ESCAPE_DOUBLE_CHAR,
} SlCsvEscape;

typedef struct
{
  SlDriver base;
  SlTemplate *template;
  SlHandle *columns;
  guint n_columns;
  gboolean delimiter_char[256];
  gchar **delimiter_strings;
  guchar closing_quote[256];      /* 0: the character opens no quote */
  SlCsvEscape escape;
  gboolean strip;
  gboolean greedy;
  gboolean drop_invalid;
  gchar *null_value;
  SlCounter *failed;
} SlCsvParser;

typedef struct
{
  gsize start;
  gsize len;
} SlCsvSpan;

static gboolean
read_delimiters (SlCsvParser *parser, SlOptions *options, GError **error)
{
  const SlCfgNode *node = sl_options_block (options, "delimiters");
  const gchar *chars = " ";

  SlOptions *inner = NULL;
  if (node)
    {
      inner = sl_options_new ("delimiters()", delimiter_options, node, NULL, error);
      if (!inner)
        return FALSE;
      chars = sl_options_string (inner, "chars");
      GPtrArray *strings = sl_options_list (inner, "strings");
      if (strings && strings->len)
        {
          parser->delimiter_strings = g_new0 (gchar *, strings->len + 1);
          for (guint i = 0; i < strings->len; i++)
            {
              const gchar *s = g_ptr_array_index (strings, i);
              if (!*s)
                {
                  sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (inner, "strings"),
                                    _("a string delimiter cannot be empty"));
                  sl_options_free (inner);
                  return FALSE;
                }
              parser->delimiter_strings[i] = g_strdup (s);
            }
        }
    }
  for (const gchar *c = chars; *c; c++)
    parser->delimiter_char[(guchar) *c] = TRUE;
  gboolean any = *chars || parser->delimiter_strings;
  if (!any)
    sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (options, "delimiters"),
                      _("delimiters() leaves no delimiter"));
  sl_options_free (inner);
  return any;
}

static gboolean
read_escape (SlCsvParser *parser, SlOptions *options, guint32 flags, GError **error)
{
  static const gchar *const dialects[] = { "escape-none", "escape-backslash", "escape-double-char" };
  const gchar *dialect = sl_options_string (options, "dialect");

  parser->escape = (flags & FLAG_ESCAPE_BACKSLASH) ? ESCAPE_BACKSLASH
                   : (flags & FLAG_ESCAPE_DOUBLE_CHAR) ? ESCAPE_DOUBLE_CHAR : ESCAPE_NONE;
  if (!dialect)
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (dialects); i++)
    if (sl_cfg_name_equal (dialect, dialects[i]))
      {
        parser->escape = (SlCsvEscape) i;
        return TRUE;
      }
  sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (options, "dialect"),
                    _("unknown dialect '%s'; use escape-none, escape-backslash or escape-double-char"), dialect);
  return FALSE;
}

static gboolean
csv_parser_init (SlDriver *self, SlOptions *options, GError **error)
{
  SlCsvParser *parser = (SlCsvParser *) self;

  if (sl_options_string (options, "template")
      && !(parser->template = sl_config_template (self->cfg, options, "template", NULL, error)))
    return FALSE;

  GPtrArray *columns = sl_options_list (options, "columns");
  if (!columns || !columns->len || columns->len > SL_CSV_MAX_COLUMNS)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (options, "columns"),
                        _("csv-parser() needs columns(\"name\" ...), 1 to %d of them"), SL_CSV_MAX_COLUMNS);
      return FALSE;
    }
  const gchar *prefix = sl_options_string (options, "prefix");
  parser->n_columns = columns->len;
  parser->columns = g_new0 (SlHandle, columns->len);
  for (guint i = 0; i < columns->len; i++)
    {
      gchar *name = g_strconcat (prefix, g_ptr_array_index (columns, i), NULL);
      parser->columns[i] = sl_field_handle (name);
      g_free (name);
      if (parser->columns[i] == SL_F_NONE)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (options, "columns"),
                            _("a column needs a name"));
          return FALSE;
        }
    }

  const gchar *quotes = sl_options_string (options, "quote-pairs");
  if (strlen (quotes) % 2)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (options, "quote-pairs"),
                        _("quote-pairs() takes pairs of characters, opening and closing: '%s' has an odd length"),
                        quotes);
      return FALSE;
    }
  for (const gchar *q = quotes; *q; q += 2)
    parser->closing_quote[(guchar) q[0]] = (guchar) q[1];

  guint32 flags = sl_options_flags (options, "flags");
  if (!read_delimiters (parser, options, error) || !read_escape (parser, options, flags, error))
    return FALSE;
  parser->strip = (flags & FLAG_STRIP_WHITESPACE) != 0;
  parser->greedy = (flags & FLAG_GREEDY) != 0;
  parser->drop_invalid = (flags & FLAG_DROP_INVALID) != 0;
  parser->null_value = g_strdup (sl_options_string (options, "null"));
  parser->failed = sl_stats_counter ("parser", self->id, self->klass->name, "failed");
  return TRUE;
}

/* The length of the delimiter at pos, 0 when there is none. */
static gsize
delimiter_at (const SlCsvParser *parser, const gchar *text, gsize len, gsize pos)
{
  for (gchar **s = parser->delimiter_strings; s && *s; s++)
    {
      gsize n = strlen (*s);
      if (pos + n <= len && memcmp (text + pos, *s, n) == 0)
        return n;
    }
  return parser->delimiter_char[(guchar) text[pos]] ? 1 : 0;
}

/* A quoted column at text[pos], unquoted in place so that it starts there.
 * Returns where its text ends in the input. */
static gsize
unquote (const SlCsvParser *parser, gchar *text, gsize len, gsize pos, SlCsvSpan *span)
{
  gchar close = (gchar) parser->closing_quote[(guchar) text[pos]];
  gsize from = pos + 1;
  gsize to = pos;

  while (from < len)
    {
      gchar c = text[from];
      if (parser->escape == ESCAPE_BACKSLASH && c == '\\' && from + 1 < len)
        {
          text[to++] = text[from + 1];
          from += 2;
          continue;
        }
      if (c == close)
        {
          if (parser->escape == ESCAPE_DOUBLE_CHAR && from + 1 < len && text[from + 1] == close)
            {
              text[to++] = close;
              from += 2;
              continue;
            }
          from++;
          break;
        }
      text[to++] = c;
      from++;
    }
  span->start = pos;
  span->len = to - pos;
  return from;
}

/* One column from pos; *next is where the following one starts. FALSE
 * when no delimiter followed, so that the input ends with this column. */
static gboolean
split_column (const SlCsvParser *parser, gchar *text, gsize len, gsize pos, SlCsvSpan *span, gsize *next)
{
  if (pos < len && parser->closing_quote[(guchar) text[pos]])
    {
      gsize end = unquote (parser, text, len, pos, span);
      if (end >= len)
        return FALSE;
      /* text right after the closing quote starts the next column */
      *next = end + delimiter_at (parser, text, len, end);
      return TRUE;
    }
  for (gsize i = pos; i < len; i++)
    {
      gsize d = delimiter_at (parser, text, len, i);
      if (d)
        {
          *span = (SlCsvSpan) { pos, i - pos };
          *next = i + d;
          return TRUE;
        }
    }
  *span = (SlCsvSpan) { pos, len - pos };
  return FALSE;
}

static void
polish (const SlCsvParser *parser, const gchar *text, SlCsvSpan *span)
{
  if (parser->strip)
    {
      while (span->len && g_ascii_isspace (text[span->start]))
        span->start++, span->len--;
      while (span->len && g_ascii_isspace (text[span->start + span->len - 1]))
        span->len--;
    }
  if (parser->null_value && strlen (parser->null_value) == span->len
      && memcmp (text + span->start, parser->null_value, span->len) == 0)
    span->len = 0;
}

/* Fills spans; returns how many columns were found, *rest being TRUE when
 * input was left over after the last one. */
static guint
split (const SlCsvParser *parser, gchar *text, gsize len, SlCsvSpan *spans, gboolean *rest)
{
  guint n = 0;
  gsize pos = 0;
  gboolean more = TRUE;

  while (more && n < parser->n_columns)
    {
      if (parser->greedy && n == parser->n_columns - 1)
        {
          spans[n] = (SlCsvSpan) { pos, len - pos };
          more = FALSE;
        }
      else
        more = split_column (parser, text, len, pos, &spans[n], &pos);
      polish (parser, text, &spans[n]);
      n++;
    }
  /* the greedy column takes what is left, even nothing */
  if (parser->greedy && n == parser->n_columns - 1)
    spans[n++] = (SlCsvSpan) { len, 0 };
  *rest = more;
  return n;
}

static gboolean
csv_parser_process (SlDriver *self, SlMessage **msg)
{
  SlCsvParser *parser = (SlCsvParser *) self;
  gsize len;
  gchar *input = sl_parser_input (parser->template, *msg, &len);
  SlCsvSpan spans[parser->n_columns];
  gboolean rest;
  guint n = split (parser, input, len, spans, &rest);

  if (parser->drop_invalid && (n < parser->n_columns || rest))
    {
      sl_counter_add (parser->failed, 1);
      return FALSE;
    }
  sl_message_make_writable (msg);
  for (guint i = 0; i < n; i++)
    sl_message_set (*msg, parser->columns[i], input + spans[i].start, spans[i].len);
  return TRUE;
}

static void
csv_parser_free (SlDriver *self)
{
  SlCsvParser *parser = (SlCsvParser *) self;

  sl_template_unref (parser->template);
  g_free (parser->columns);
  g_strfreev (parser->delimiter_strings);
  g_free (parser->null_value);
}

static const SlDriverClass csv_parser_class = {
  .kind = SL_DRIVER_PARSER,
  .name = "csv-parser",
  .summary = "splits a message into named columns at delimiters",
  .options = csv_parser_options,
  .instance_size = sizeof (SlCsvParser),
  .init = csv_parser_init,
  .free = csv_parser_free,
  .process = csv_parser_process,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "csv-parser",
  .drivers = (const SlDriverClass *const[]) { &csv_parser_class, NULL },
};
