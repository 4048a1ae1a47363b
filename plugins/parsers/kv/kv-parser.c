/* kv-parser(): key=value pairs in a message become fields, as syslog-ng
 * reads them. A key is the run of letters, digits, '_', '.' and '-' right
 * before the value separator; words that are no pair are skipped. A value
 * in "..." or '...' is unquoted with C-style backslash escapes. Without
 * pair-separator(), an unquoted value ends at a space or at ", "; with it,
 * at that separator, and spaces around keys and values are trimmed. Like
 * syslog-ng's, the parser lets every message through, pairs or not. */
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/parser-input.h"
#include "core/plugin.h"
#include "core/stats.h"

#include <string.h>

/* The longest field name made (prefix and key): longer keys are skipped
 * and counted, since the sender chooses them and names are kept for good. */
#define SL_KV_MAX_NAME 255

typedef struct
{
  SlDriver base;
  SlTemplate *template;
  const gchar *prefix;
  gsize prefix_len;
  const gchar *value_separator_option;
  gchar value_separator;
  const gchar *pair_separator;    /* NULL: whitespace and ", " */
  gsize pair_separator_len;
  SlCounter *skipped_keys;
} SlKvParser;

static const SlOptionSpec kv_parser_options[] = {
  { "template", SL_TEMPLATE (SlKvParser, template), NULL, "the text to parse; ${MESSAGE} when not given" },
  { "prefix", SL_STRING (SlKvParser, prefix), "", "put before the name of every field" },
  { "value-separator", SL_STRING (SlKvParser, value_separator_option), "=", "the character between a key and its value" },
  { "pair-separator", SL_STRING (SlKvParser, pair_separator), NULL,
    "the text between pairs; when not given, whitespace or \", \"" },
  { NULL }
};

typedef struct
{
  SlKvParser *parser;
  SlMessage **msg;
  gboolean writable;
  gchar name[SL_KV_MAX_NAME + 1];
} SlKvEmitter;

static gboolean
kv_parser_init (SlDriver *self, GError **error)
{
  SlKvParser *parser = (SlKvParser *) self;
  SlOptions *options = self->options;

  const gchar *separator = parser->value_separator_option;
  if (strlen (separator) != 1 || separator[0] == ' ' || separator[0] == '"' || separator[0] == '\'')
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (options, "value-separator"),
                        _("value-separator() takes one character other than a space or a quote, not '%s'"),
                        separator);
      return FALSE;
    }
  parser->value_separator = separator[0];

  const gchar *pairs = parser->pair_separator;
  if (pairs && !*pairs)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (options, "pair-separator"),
                        _("pair-separator() cannot be empty"));
      return FALSE;
    }
  parser->pair_separator_len = pairs ? strlen (pairs) : 0;

  parser->prefix_len = strlen (parser->prefix);
  if (parser->prefix_len >= SL_KV_MAX_NAME)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (options, "prefix"),
                        _("prefix() is longer than the longest field name, %d bytes"), SL_KV_MAX_NAME);
      return FALSE;
    }
  parser->skipped_keys = sl_stats_counter ("parser", self->id, self->klass->name, "skipped-keys");
  return TRUE;
}

static gboolean
is_key_char (gchar c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '.' || c == '-';
}

static void
emit (SlKvEmitter *e, const gchar *key, gsize key_len, const gchar *value, gsize value_len)
{
  SlKvParser *parser = e->parser;

  if (parser->prefix_len + key_len > SL_KV_MAX_NAME)
    {
      sl_counter_add (parser->skipped_keys, 1);
      return;
    }
  memcpy (e->name, parser->prefix, parser->prefix_len);
  memcpy (e->name + parser->prefix_len, key, key_len);
  e->name[parser->prefix_len + key_len] = '\0';
  if (!e->writable)
    {
      sl_message_make_writable (e->msg);
      e->writable = TRUE;
    }
  sl_message_set (*e->msg, sl_field_handle (e->name), value, value_len);
}

/* Unquotes the value starting at the quote text[*pos], in place: the
 * result starts at the quote. An unclosed quote runs to the end. Returns
 * the value's length; *pos moves past the closing quote. */
static gsize
unquote (gchar *text, gsize len, gsize *pos)
{
  gchar quote = text[*pos];
  gsize from = *pos + 1;
  gsize to = *pos;

  while (from < len && text[from] != quote)
    {
      if (text[from] != '\\')
        {
          text[to++] = text[from++];
          continue;
        }
      if (++from == len)
        break;
      switch (text[from])
        {
        case 'b': text[to++] = '\b'; break;
        case 'f': text[to++] = '\f'; break;
        case 'n': text[to++] = '\n'; break;
        case 'r': text[to++] = '\r'; break;
        case 't': text[to++] = '\t'; break;
        case '\\': text[to++] = '\\'; break;
        default:
          if (text[from] == quote)
            text[to++] = quote;
          else
            {
              text[to++] = '\\';
              text[to++] = text[from];
            }
          break;
        }
      from++;
    }
  gsize value_len = to - *pos;
  *pos = from < len ? from + 1 : len;
  return value_len;
}

/* The start of the key that ends at end, not before floor: end itself when
 * the character before the separator is no key character. */
static gsize
key_start (const gchar *text, gsize floor, gsize end)
{
  gsize start = end;
  while (start > floor && is_key_char (text[start - 1]))
    start--;
  return start;
}

/* Whitespace or ", " between pairs. */
static void
scan_simple (SlKvEmitter *e, gchar *text, gsize len)
{
  gsize pos = 0;
  gsize floor = 0;   /* where the text not yet taken by a pair starts */

  while (pos < len)
    {
      const gchar *found = memchr (text + pos, e->parser->value_separator, len - pos);
      if (!found)
        return;
      gsize separator = found - text;
      gsize start = key_start (text, floor, separator);
      pos = separator + 1;
      if (start == separator)
        continue;

      gsize value = pos;
      gsize value_len;
      if (pos < len && (text[pos] == '"' || text[pos] == '\''))
        value_len = unquote (text, len, &pos);
      else
        {
          while (pos < len && text[pos] != ' ' && !(text[pos] == ',' && pos + 1 < len && text[pos + 1] == ' '))
            pos++;
          value_len = pos - value;
        }
      floor = pos;
      emit (e, text + start, separator - start, text + value, value_len);
    }
}

static gsize
find_pair_separator (const SlKvParser *parser, const gchar *text, gsize len, gsize from)
{
  for (gsize i = from; i + parser->pair_separator_len <= len; i++)
    if (memcmp (text + i, parser->pair_separator, parser->pair_separator_len) == 0)
      return i;
  return len;
}

/* pair-separator() given: values run to it, spaces around are trimmed. */
static void
scan_separated (SlKvEmitter *e, gchar *text, gsize len)
{
  const SlKvParser *parser = e->parser;
  gsize pos = 0;

  while (pos < len)
    {
      gsize pair_end = find_pair_separator (parser, text, len, pos);
      const gchar *found = memchr (text + pos, parser->value_separator, pair_end - pos);
      if (!found)
        {
          pos = pair_end + parser->pair_separator_len;
          continue;
        }
      gsize separator = found - text;
      gsize key_end = separator;
      while (key_end > pos && text[key_end - 1] == ' ')
        key_end--;
      gsize start = key_start (text, pos, key_end);

      gsize value = separator + 1;
      while (value < pair_end && text[value] == ' ')
        value++;
      gsize value_len;
      if (value < pair_end && (text[value] == '"' || text[value] == '\''))
        {
          /* a quoted value may hold the pair separator */
          gsize after = value;
          value_len = unquote (text, len, &after);
          pair_end = find_pair_separator (parser, text, len, after);
        }
      else
        {
          gsize end = pair_end;
          while (end > value && text[end - 1] == ' ')
            end--;
          value_len = end - value;
        }
      pos = pair_end + parser->pair_separator_len;
      if (start < key_end)
        emit (e, text + start, key_end - start, text + value, value_len);
    }
}

static gboolean
kv_parser_process (SlDriver *self, SlMessage **msg)
{
  SlKvParser *parser = (SlKvParser *) self;
  SlKvEmitter emitter = { .parser = parser, .msg = msg };
  gsize len;
  gchar *input = sl_parser_input (parser->template, *msg, &len);

  if (parser->pair_separator)
    scan_separated (&emitter, input, len);
  else
    scan_simple (&emitter, input, len);
  return TRUE;
}

static const SlParserOps kv_parser_ops = { .process = kv_parser_process };

static const SlDriverClass kv_parser_class = {
  .kind = SL_DRIVER_PARSER,
  .name = "kv-parser",
  .summary = "sets fields from key=value pairs",
  .options = kv_parser_options,
  .instance_size = sizeof (SlKvParser),
  .init = kv_parser_init,
  .ops.parser = &kv_parser_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "kv-parser",
  .drivers = (const SlDriverClass *const[]) { &kv_parser_class, NULL },
};
