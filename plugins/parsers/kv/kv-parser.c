/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kv-parser() and linux-audit-parser(): key=value pairs in a message
 * become fields, read by kv-scanner.c as syslog-ng reads them; the words
 * that are no pair can be kept as a list (extract-stray-words-into()).
 * linux-audit-parser() also decodes the values the kernel's audit
 * subsystem writes in hex. Like syslog-ng's, both let every message
 * through, pairs or not. */
#include "plugins/parsers/kv/kv-parser.h"
#include "plugins/parsers/kv/kv-scanner.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/message/parser-input.h"
#include "core/stats.h"

#include <string.h>

/* The longest field name made (prefix and key): longer keys are skipped
 * and counted, since the sender chooses them and names are kept for good. */
#define KV_MAX_NAME 255

const SlOptionSpec kv_parser_options[] = {
  { "template", SL_TEMPLATE (KvParser, template), NULL, "the text to parse; ${MESSAGE} when not given" },
  { "prefix", SL_STRING (KvParser, prefix), "", "put before the name of every field" },
  { "value-separator", SL_STRING (KvParser, value_separator_option), "=", "the character between a key and its value" },
  { "pair-separator", SL_STRING (KvParser, pair_separator), NULL,
    "the text between pairs besides spaces; \", \" when not given" },
  { "extract-stray-words-into", SL_STRING (KvParser, stray_words_name), NULL,
    "the field that gets the words outside pairs, as a list (\"word,'two words'\")" },
  { NULL }
};

gboolean
kv_parser_init (SlDriver *self, GError **error)
{
  KvParser *parser = (KvParser *) self;
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

  parser->prefix_len = strlen (parser->prefix);
  if (parser->prefix_len >= KV_MAX_NAME)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (options, "prefix"),
                        _("prefix() is longer than the longest field name, %d bytes"), KV_MAX_NAME);
      return FALSE;
    }
  parser->stray_words = parser->stray_words_name ? sl_field_handle (parser->stray_words_name) : SL_F_NONE;
  parser->skipped_keys = sl_stats_counter ("parser", self->id, self->klass->name, "skipped-keys");
  return TRUE;
}

/* Sets prefix + key to value; the message is made writable at the first. */
static void
emit (KvParser *parser, SlMessage **msg, gboolean *writable, const gchar *key, gsize key_len,
      const gchar *value, gsize value_len)
{
  gchar name[KV_MAX_NAME + 1];

  if (parser->prefix_len + key_len > KV_MAX_NAME)
    {
      sl_counter_add (parser->skipped_keys, 1);
      return;
    }
  memcpy (name, parser->prefix, parser->prefix_len);
  memcpy (name + parser->prefix_len, key, key_len);
  name[parser->prefix_len + key_len] = '\0';
  if (!*writable)
    {
      sl_message_make_writable (msg);
      *writable = TRUE;
    }
  sl_message_set (*msg, sl_field_handle (name), value, value_len);
}

gboolean
kv_parser_scan (KvParser *parser, SlMessage **msg, KvTransform transform)
{
  gsize len;
  const gchar *input = sl_parser_input (parser->template, *msg, &len);
  gboolean writable = FALSE;
  KvScanner scanner;

  kv_scanner_init (&scanner, parser->value_separator, parser->pair_separator, transform,
                      parser->stray_words != SL_F_NONE, input);
  while (kv_scanner_next (&scanner))
    emit (parser, msg, &writable, scanner.key, scanner.key_len, scanner.value->str, scanner.value->len);
  if (parser->stray_words != SL_F_NONE)
    {
      gsize words_len;
      const gchar *words = kv_scanner_stray_words (&scanner, &words_len);
      if (!writable)
        sl_message_make_writable (msg);
      sl_message_set (*msg, parser->stray_words, words, words_len);
    }
  return TRUE;
}

static gboolean
kv_parser_process (SlDriver *self, SlMessage **msg)
{
  return kv_parser_scan ((KvParser *) self, msg, NULL);
}

static const SlParserOps kv_parser_ops = { .process = kv_parser_process };

const SlDriverClass kv_parser_class = {
  .kind = SL_DRIVER_PARSER,
  .name = "kv-parser",
  .summary = "sets fields from key=value pairs",
  .options = kv_parser_options,
  .instance_size = sizeof (KvParser),
  .init = kv_parser_init,
  .ops.parser = &kv_parser_ops,
};
