/* SPDX-License-Identifier: GPL-2.0-or-later */
/* csv-parser(): a message split at delimiters into the columns named,
 * with syslog-ng's quoting, escaping, flags and defaults. A column may open
 * with a quote (quote-pairs(), '""\'\'' by default), inside which delimiters
 * are text; the nearest delimiter ends an unquoted one, a string delimiter
 * winning over a character at the same place. Under @version: 4.x a column
 * may carry a type (columns("name" int("pid"))), and a value that does not
 * cast is dropped, kept as a string or drops the message as
 * on-type-error() says, as syslog-ng 4.8's csvparser.c does. */
#include "core/config/error.h"
#include "core/config/syntax-version.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/message/macros.h"
#include "core/message/parser-input.h"
#include "core/plugin/plugin.h"
#include "core/stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Columns are split on the stack, one slot each. */
#define CSV_MAX_COLUMNS 4096

enum
{
  FLAG_ESCAPE_NONE        = 1 << 0,
  FLAG_ESCAPE_BACKSLASH   = 1 << 1,
  FLAG_ESCAPE_DOUBLE_CHAR = 1 << 2,
  FLAG_STRIP_WHITESPACE   = 1 << 3,
  FLAG_GREEDY             = 1 << 4,
  FLAG_DROP_INVALID       = 1 << 5,
};

static const SlOptionWord csv_flag_words[] = {
  { "escape-none", FLAG_ESCAPE_NONE },
  { "escape-backslash", FLAG_ESCAPE_BACKSLASH },
  { "escape-double-char", FLAG_ESCAPE_DOUBLE_CHAR },
  { "strip-whitespace", FLAG_STRIP_WHITESPACE },
  { "greedy", FLAG_GREEDY },
  { "drop-invalid", FLAG_DROP_INVALID },
  { NULL }
};

typedef enum
{
  ESCAPE_NONE,
  ESCAPE_BACKSLASH,
  ESCAPE_DOUBLE_CHAR,
  ESCAPE_BACKSLASH_WITH_SEQUENCES,
} CsvEscape;

static const SlOptionWord csv_dialect_words[] = {
  { "escape-none", ESCAPE_NONE },
  { "escape-backslash", ESCAPE_BACKSLASH },
  { "escape-double-char", ESCAPE_DOUBLE_CHAR },
  { "escape-backslash-with-sequences", ESCAPE_BACKSLASH_WITH_SEQUENCES },
  { NULL }
};

typedef struct
{
  SlDriver base;
  const SlCfgNode *columns_node;
  const SlCfgNode *delimiters;
  const gchar *quote_pairs;
  const gchar *quotes;
  guint32 flags;
  gboolean drop_invalid_option;
  gint on_type_error;
  gint dialect;                   /* CsvEscape, when dialect() is set */
  const gchar *prefix;
  const gchar *null_value;
  SlTemplate *template;
  SlHandle *columns;
  SlValueType *types;             /* each column's, a string without a hint */
  gboolean typed;                 /* some column is not a string */
  guint n_columns;
  gboolean delimiter_char[256];
  gchar **delimiter_strings;
  guchar closing_quote[256];      /* 0: the character opens no quote */
  CsvEscape escape;
  gboolean strip;
  gboolean greedy;
  gint on_error;                  /* on-type-error(), with drop-message for drop-invalid */
  SlCounter *failed;
} CsvParser;

/* flags() is the parser's own: a source's flags() in options {} are not
 * inherited. */
static const SlOptionSpec csv_parser_options[] = {
  { "columns", SL_BLOCK (CsvParser, columns_node), NULL,
    "the names of the columns, in order; under @version: 4.x a name may carry a type: int(\"pid\")" },
  { "delimiters", SL_BLOCK (CsvParser, delimiters), NULL,
    "characters that end a column (a space when not given), or chars(\"...\") and strings(\"...\" ...)" },
  { "quote-pairs", SL_STRING (CsvParser, quote_pairs), "\"\"''", "opening and closing quote characters, in pairs: '\"\"[]'" },
  { "quotes", SL_STRING (CsvParser, quotes), NULL, "quote characters, each closing what it opens; replaces quote-pairs()" },
  { "flags", SL_FLAGS (CsvParser, flags), NULL,
    "escaping inside quotes, and what to do with the columns; without flags(), strip-whitespace",
    .words = csv_flag_words },
  { "drop-invalid", SL_BOOL (CsvParser, drop_invalid_option), "no",
    "the parser fails when the input has fewer columns than named, or more without greedy; as flags(drop-invalid)" },
  { "on-type-error", SL_CHOICE (CsvParser, on_type_error), NULL,
    "a typed column whose value does not cast: its field is not set (the default, and drop-property), set as a "
    "string (fallback-to-string), or the message is dropped (drop-message, which drop-invalid() adds); "
    "silently-... logs nothing, and silently-drop-message only leaves that column and the ones after it unset, "
    "as syslog-ng 4.8 does",
    .words = sl_on_error_words },
  { "dialect", SL_CHOICE (CsvParser, dialect), NULL, "escaping inside quotes", .words = csv_dialect_words },
  { "prefix", SL_STRING (CsvParser, prefix), "", "put before the name of every column" },
  { "null", SL_STRING (CsvParser, null_value), NULL, "a column holding exactly this text is stored empty" },
  { "template", SL_TEMPLATE (CsvParser, template), NULL, "the text to parse; ${MESSAGE} when not given" },
  { NULL }
};

/* What delimiters() holds: delimiters("-:") is delimiters(chars("-:")). */
typedef struct
{
  const gchar *chars;
  GPtrArray *strings;
} CsvDelimiters;

static const SlOptionSpec delimiter_options[] = {
  { "chars", SL_STRING (CsvDelimiters, chars), " ", "every character of it ends a column", .flags = SL_OPT_POSITIONAL },
  { "strings", SL_LIST (CsvDelimiters, strings), NULL, "each of them ends a column" },
  { NULL }
};

typedef struct
{
  gsize start;
  gsize len;
} CsvSpan;

static gboolean
read_delimiters (CsvParser *parser, GError **error)
{
  const SlCfgNode *node = parser->delimiters;
  const gchar *chars = " ";

  SlOptions *inner = NULL;
  if (node)
    {
      const SlOptionSpec *const tables[] = { delimiter_options, NULL };
      CsvDelimiters delimiters = { NULL };
      inner = sl_options_new ("delimiters()", tables, NULL, node, NULL, error);
      if (!inner)
        return FALSE;
      if (!sl_options_bind (inner, delimiter_options, &delimiters, NULL, error))
        {
          sl_options_free (inner);
          return FALSE;
        }
      chars = delimiters.chars;
      GPtrArray *strings = delimiters.strings;
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
    sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (parser->base.options, "delimiters"),
                      _("delimiters() leaves no delimiter"));
  sl_options_free (inner);
  return any;
}

static void
read_escape (CsvParser *parser)
{
  guint32 flags = parser->flags;

  if (sl_options_is_set (parser->base.options, "dialect"))
    parser->escape = (CsvEscape) parser->dialect;
  else
    parser->escape = (flags & FLAG_ESCAPE_BACKSLASH) ? ESCAPE_BACKSLASH
                     : (flags & FLAG_ESCAPE_DOUBLE_CHAR) ? ESCAPE_DOUBLE_CHAR : ESCAPE_NONE;
}

/* One name of columns(): a string, or a type hint around one. */
typedef struct
{
  const gchar *name;
  SlValueType type;
  SlCfgPos pos;
} CsvColumn;

static gint
column_order (gconstpointer a, gconstpointer b)
{
  const SlCfgPos *x = &((const CsvColumn *) a)->pos, *y = &((const CsvColumn *) b)->pos;
  return x->line != y->line ? (x->line > y->line) - (x->line < y->line) : (x->column > y->column) - (x->column < y->column);
}

/* columns("a" int("pid") "b"): the names in the order written, with the
 * type syslog-ng 4's grammar gives them (csvparser-grammar.ym:
 * type_hint '(' string ')'); syslog-ng 3.38 takes names alone, so a 3.x
 * configuration does too. */
static gboolean
read_columns (CsvParser *parser, GArray *columns, GError **error)
{
  const SlCfgNode *node = parser->columns_node;
  gboolean version_4 = sl_cfg_compiling_version_4 ();
  for (guint i = 0; node->args && i < node->args->len; i++)
    {
      const SlCfgArg *a = g_ptr_array_index (node->args, i);
      if (a->key)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_TYPE, a->pos, _("columns() takes names, not \"key\" => value pairs"));
          return FALSE;
        }
      CsvColumn c = { a->value, SL_VALUE_STRING, a->pos };
      g_array_append_val (columns, c);
    }
  for (guint i = 0; node->children && i < node->children->len; i++)
    {
      const SlCfgNode *hint = g_ptr_array_index (node->children, i);
      CsvColumn c = { NULL, SL_VALUE_STRING, hint->pos };
      const SlCfgArg *a = hint->args && hint->args->len == 1 ? g_ptr_array_index (hint->args, 0) : NULL;
      if (!version_4 || !a || a->key || (hint->children && hint->children->len) || hint->has_body
          || !sl_value_type_from_name (hint->name, strlen (hint->name), TRUE, &c.type))
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_TYPE, hint->pos,
                            version_4 ? _("columns() takes names, and names with a type such as int(\"pid\"), not '%s(...)'")
                                      : _("columns() takes names; a type such as %s(\"...\") needs @version: 4.0 or later"),
                            hint->name);
          return FALSE;
        }
      c.name = a->value;
      g_array_append_val (columns, c);
    }
  g_array_sort (columns, column_order);
  return TRUE;
}

static gboolean
csv_parser_init (SlDriver *self, GError **error)
{
  CsvParser *parser = (CsvParser *) self;
  SlOptions *options = self->options;

  g_autoptr (GArray) columns = g_array_new (FALSE, FALSE, sizeof (CsvColumn));
  if (parser->columns_node && !read_columns (parser, columns, error))
    return FALSE;
  if (!columns->len || columns->len > CSV_MAX_COLUMNS)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (options, "columns"),
                        _("csv-parser() needs columns(\"name\" ...), 1 to %d of them"), CSV_MAX_COLUMNS);
      return FALSE;
    }
  const gchar *prefix = parser->prefix;
  parser->n_columns = columns->len;
  parser->columns = g_new0 (SlHandle, columns->len);
  parser->types = g_new0 (SlValueType, columns->len);
  for (guint i = 0; i < columns->len; i++)
    {
      const CsvColumn *c = &g_array_index (columns, CsvColumn, i);
      gchar *name = g_strconcat (prefix, c->name, NULL);
      /* A column named "" is split but not stored, as syslog-ng skips it
       * (Solaris's SCL block names the columns around the one it wants so). */
      parser->columns[i] = sl_field_handle (name);
      g_free (name);
      parser->types[i] = c->type;
      parser->typed |= c->type != SL_VALUE_STRING;
    }

  if (parser->quotes)
    for (const gchar *q = parser->quotes; *q; q++)
      parser->closing_quote[(guchar) *q] = (guchar) *q;
  const gchar *quotes = parser->quotes ? "" : parser->quote_pairs;
  if (strlen (quotes) % 2)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (options, "quote-pairs"),
                        _("quote-pairs() takes pairs of characters, opening and closing: '%s' has an odd length"),
                        quotes);
      return FALSE;
    }
  for (const gchar *q = quotes; *q; q += 2)
    parser->closing_quote[(guchar) q[0]] = (guchar) q[1];

  if (!read_delimiters (parser, error))
    return FALSE;
  read_escape (parser);
  guint32 flags = parser->flags;
  /* syslog-ng's flags() replaces its default, strip-whitespace */
  parser->strip = (flags & FLAG_STRIP_WHITESPACE) || !sl_options_is_set (options, "flags");
  parser->greedy = (flags & FLAG_GREEDY) != 0;
  /* drop-invalid(yes) adds drop-message to on-type-error(), as in syslog-ng 4 */
  parser->on_error = parser->on_type_error;
  if ((flags & FLAG_DROP_INVALID) || parser->drop_invalid_option)
    parser->on_error |= SL_ON_ERROR_DROP_MESSAGE;
  parser->failed = sl_stats_counter ("parser", self->id, self->klass->name, "failed");
  return TRUE;
}

/* The length of the delimiter at pos, 0 when there is none. */
static gsize
delimiter_at (const CsvParser *parser, const gchar *text, gsize len, gsize pos)
{
  for (gchar **s = parser->delimiter_strings; s && *s; s++)
    {
      gsize n = strlen (*s);
      if (pos + n <= len && memcmp (text + pos, *s, n) == 0)
        return n;
    }
  return parser->delimiter_char[(guchar) text[pos]] ? 1 : 0;
}

static gboolean
is_blank (gchar c)
{
  return c == ' ' || c == '\t';
}

static gsize
skip_blanks (const CsvParser *parser, const gchar *text, gsize len, gsize pos)
{
  if (parser->strip)
    while (pos < len && is_blank (text[pos]))
      pos++;
  return pos;
}

/* The character a backslash at *from stands for in the dialect
 * escape-backslash-with-sequences (syslog-ng 4): \a \n \r \t \v, \xHH as
 * that byte (a plain 'x' when HH are not two hex digits), any other
 * character as itself; *from is left on the last character read. */
static gchar
escape_sequence (const gchar *text, gsize len, gsize *from, gchar quote)
{
  static const gchar plain[] = "anrtv";
  static const gchar meant[] = "\a\n\r\t\v";
  gchar c = text[++*from];
  const gchar *named = c != quote ? strchr (plain, c) : NULL;

  if (c && named)
    return meant[named - plain];
  if (c == 'x' && c != quote && *from + 2 < len)
    {
      gint hi = g_ascii_xdigit_value (text[*from + 1]);
      gint lo = g_ascii_xdigit_value (text[*from + 2]);
      if (hi >= 0 && lo >= 0)
        {
          *from += 2;
          return (gchar) (hi << 4 | lo);
        }
    }
  return c;
}

/* One column from *pos, read as syslog-ng's scanner reads it: an opening
 * quote, blanks after it skipped, then characters up to a delimiter outside
 * quotes (text after a closing quote is part of the column). The value is
 * written unquoted over the input, which it never outgrows; *pos moves past
 * the delimiter. */
static void
scan_column (const CsvParser *parser, gchar *text, gsize len, gsize *pos, CsvSpan *span)
{
  gsize from = *pos;
  gsize to = from;
  gchar quote = (gchar) parser->closing_quote[(guchar) text[from]];

  if (quote)
    from++;
  from = skip_blanks (parser, text, len, from);
  while (from < len)
    {
      gchar c = text[from];
      if (!quote)
        {
          gsize d = delimiter_at (parser, text, len, from);
          if (d)
            {
              from += d;
              break;
            }
        }
      else if (parser->escape == ESCAPE_BACKSLASH && c == '\\' && from + 1 < len)
        c = text[++from];
      else if (parser->escape == ESCAPE_BACKSLASH_WITH_SEQUENCES && c == '\\' && from + 1 < len)
        c = escape_sequence (text, len, &from, quote);
      else if (parser->escape == ESCAPE_DOUBLE_CHAR && c == quote && from + 1 < len && text[from + 1] == quote)
        from++;
      else if (c == quote)
        {
          quote = 0;
          from++;
          continue;
        }
      text[to++] = c;
      from++;
    }
  *span = (CsvSpan) { *pos, to - *pos };
  *pos = from;
}

static void
polish (const CsvParser *parser, const gchar *text, CsvSpan *span)
{
  if (parser->strip)
    while (span->len && is_blank (text[span->start + span->len - 1]))
      span->len--;
  if (parser->null_value && strlen (parser->null_value) == span->len
      && memcmp (text + span->start, parser->null_value, span->len) == 0)
    span->len = 0;
}

/* Fills spans; returns how many columns were found, *complete being TRUE
 * when every column was and no input was left over. The greedy column
 * takes what is left, even nothing. */
static guint
split (const CsvParser *parser, gchar *text, gsize len, CsvSpan *spans, gboolean *complete)
{
  guint n = 0;
  gsize pos = 0;

  for (; n < parser->n_columns; n++)
    {
      if (parser->greedy && n == parser->n_columns - 1)
        {
          pos = skip_blanks (parser, text, len, pos);
          spans[n] = (CsvSpan) { pos, len - pos };
          pos = len;
        }
      else if (pos < len)
        scan_column (parser, text, len, &pos, &spans[n]);
      else
        break;
      polish (parser, text, &spans[n]);
    }
  *complete = n == parser->n_columns && pos >= len;
  return n;
}

/* Whether text casts to type, as syslog-ng 4's type_cast_validate()
 * decides: an integer in decimal or 0x hex, a real by g_ascii_strtod(), a
 * boolean by its first character, a datetime as sl_value_datetime_msec()
 * reads one. */
static gboolean
casts (SlValueType type, const gchar *text)
{
  gchar *end;
  errno = 0;
  switch (type)
    {
    case SL_VALUE_INT32:
    case SL_VALUE_INT64:
      {
        gboolean hex = text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
        (void) strtoll (text, &end, hex ? 16 : 10);
        return *text && !*end;
      }
    case SL_VALUE_DOUBLE:
      {
        gdouble d = g_ascii_strtod (text, &end);
        return end != text && !*end && !(errno == ERANGE && (d >= HUGE_VAL || d <= -HUGE_VAL));
      }
    case SL_VALUE_BOOLEAN:
      return *text && strchr ("TtFf10", *text);
    case SL_VALUE_DATETIME:
      {
        gint64 msec;
        return sl_value_datetime_msec (text, strlen (text), &msec);
      }
    default:
      return TRUE;
    }
}

/* The column at span, when its type says so, does not cast: logged as
 * syslog-ng logs a casting error, unless on-type-error() is silent. The
 * input is the parser's own copy: its column is ended in place. */
static gboolean
cast_fails (const CsvParser *parser, guint i, gchar *input, const CsvSpan *span)
{
  if (parser->types[i] == SL_VALUE_STRING)
    return FALSE;
  gchar *value = input + span->start;
  gchar after = value[span->len];
  value[span->len] = '\0';
  gboolean fails = !casts (parser->types[i], value);
  if (fails && !(parser->on_error & SL_ON_ERROR_SILENT))
    sl_log (SL_LOG_ERROR, _("%s: casting error: column '%s' does not cast to its type; value='%s'"),
            parser->base.id, sl_field_name (parser->columns[i]), value);
  value[span->len] = after;
  return fails;
}

static gboolean
csv_parser_process (SlDriver *self, SlMessage **msg)
{
  CsvParser *parser = (CsvParser *) self;
  gsize len;
  gchar *input = sl_parser_input (parser->template, *msg, &len);
  CsvSpan spans[parser->n_columns];
  gboolean complete;
  guint n = split (parser, input, len, spans, &complete);
  gboolean drop = (parser->on_error & SL_ON_ERROR_DROP_MESSAGE) != 0;
  gboolean silent = (parser->on_error & SL_ON_ERROR_SILENT) != 0;

  /* drop-message stops at the first column that does not cast; the
   * message goes on unless it is dropped, and a silent drop-message
   * never drops it, as syslog-ng 4.8's csvparser.c does */
  guint stop = n;
  for (guint i = 0; drop && parser->typed && i < n && stop == n; i++)
    if (cast_fails (parser, i, input, &spans[i]))
      stop = i;
  if (drop && !silent && (!complete || stop < n))
    {
      sl_counter_add (parser->failed, 1);
      return FALSE;
    }
  sl_message_make_writable (msg);
  for (guint i = 0; i < stop; i++)
    {
      SlValueType type = parser->types[i];
      if (!drop && cast_fails (parser, i, input, &spans[i]))
        {
          if (!(parser->on_error & SL_ON_ERROR_FALLBACK_TO_STRING))
            continue;
          type = SL_VALUE_STRING;
        }
      sl_message_set_typed (*msg, parser->columns[i], input + spans[i].start, spans[i].len, type);
    }
  return TRUE;
}

static void
csv_parser_free (SlDriver *self)
{
  CsvParser *parser = (CsvParser *) self;

  g_free (parser->columns);
  g_free (parser->types);
  g_strfreev (parser->delimiter_strings);
}

static const SlParserOps csv_parser_ops = { .process = csv_parser_process };

static const SlDriverClass csv_parser_class = {
  .kind = SL_DRIVER_PARSER,
  .name = "csv-parser",
  .summary = "splits a message into named columns at delimiters",
  .options = csv_parser_options,
  .instance_size = sizeof (CsvParser),
  .init = csv_parser_init,
  .free = csv_parser_free,
  .ops.parser = &csv_parser_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "csv-parser",
  .drivers = (const SlDriverClass *const[]) { &csv_parser_class, NULL },
};
