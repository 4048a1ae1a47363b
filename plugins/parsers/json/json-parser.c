/* SPDX-License-Identifier: GPL-2.0-or-later */
/* json-parser(): a JSON object in a message becomes fields, nested objects
 * flattened to names joined by dots ({"user":{"id":7}} sets user.id), as
 * syslog-ng does. Arrays are kept as their JSON text, reals as printf's %f
 * and null as an empty value, as 3.38 keeps them. In a syslog-ng 4
 * configuration values keep their types instead, as 4.8 reads them
 * (json-typed.c); with types(rsyslog) as rsyslogd's mmjsonparse keeps them. */
#include "plugins/parsers/json/json-rsyslog.h"
#include "plugins/parsers/json/json-parser.h"
#include "core/config/syntax-version.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/message/parser-input.h"
#include "core/message/template.h"

#include <string.h>

static const SlOptionWord json_types_words[] = {
  { "version", JSON_TYPES_VERSION },
  { "rsyslog", JSON_TYPES_RSYSLOG },
  { NULL }
};

static const SlOptionSpec json_parser_options[] = {
  { "template", SL_TEMPLATE (JsonParser, template), NULL, "the text to parse; ${MESSAGE} when not given" },
  { "prefix", SL_STRING (JsonParser, prefix), "", "put before the name of every field" },
  { "marker", SL_STRING (JsonParser, marker), NULL,
    "the JSON starts after this text (such as @cee:); a message without it does not parse" },
  { "extract-prefix", SL_STRING (JsonParser, extract_prefix), NULL,
    "parse only this member: names joined by dots, [N] for an array item (foo.bar[5])" },
  { "key-delimiter", SL_STRING (JsonParser, key_delimiter), ".", "the character that joins the names of nested members" },
  { "types", SL_CHOICE (JsonParser, types), "version",
    "version: values typed as syslog-ng of the @version types them (from 4.0); rsyslog: as rsyslogd's "
    "mmjsonparse (reals as written, arrays and empty objects as libfastjson's JSON, a key's dot "
    "escaped as rsyslog's member names keep it)", .words = json_types_words },
  { NULL }
};

static void
step_clear (gpointer p)
{
  g_free (((JsonStep *) p)->key);
}

/* "foo.bar[5]", "[2].x", "a[1][0]" */
static gboolean
parse_extract_prefix (JsonParser *parser, const gchar *text)
{
  parser->extract = g_array_new (FALSE, TRUE, sizeof (JsonStep));
  g_array_set_clear_func (parser->extract, step_clear);
  const gchar *p = text;

  while (*p)
    {
      if (*p == '[')
        {
          gchar *end;
          guint64 index = g_ascii_strtoull (p + 1, &end, 10);
          if (end == p + 1 || *end != ']')
            return FALSE;
          JsonStep step = { NULL, 0, index };
          g_array_append_val (parser->extract, step);
          p = end + 1;
          if (*p == '.')
            p++;
          continue;
        }
      gsize n = strcspn (p, ".[]");
      if (!n || p[n] == ']')
        return FALSE;
      JsonStep step = { g_strndup (p, n), n, 0 };
      g_array_append_val (parser->extract, step);
      p += n;
      if (*p == '.')
        {
          p++;
          if (!*p)
            return FALSE;
        }
    }
  return parser->extract->len > 0;
}

static gboolean
json_parser_init (SlDriver *self, GError **error)
{
  JsonParser *parser = (JsonParser *) self;
  SlOptions *options = self->options;

  const gchar *delimiter = parser->key_delimiter;
  if (strlen (delimiter) != 1)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (options, "key-delimiter"),
                        _("key-delimiter() takes one character, not '%s'"), delimiter);
      return FALSE;
    }
  parser->delimiter = delimiter[0];

  const gchar *extract = parser->extract_prefix;
  if (extract && !parse_extract_prefix (parser, extract))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (options, "extract-prefix"),
                        _("extract-prefix() expects names joined by dots and [N] indexes, "
                          "such as foo.bar[5]; '%s' is none"), extract);
      return FALSE;
    }

  if (strlen (parser->prefix) >= JSON_MAX_NAME)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (options, "prefix"),
                        _("prefix() is longer than the longest field name, %d bytes"), JSON_MAX_NAME);
      return FALSE;
    }
  parser->marker_len = parser->marker ? strlen (parser->marker) : 0;
  parser->typed = parser->types == JSON_TYPES_RSYSLOG || sl_cfg_compiling_version_4 ();
  parser->failed = sl_stats_counter ("parser", self->id, self->klass->name, "failed");
  parser->skipped_keys = sl_stats_counter ("parser", self->id, self->klass->name, "skipped-keys");
  return TRUE;
}

/* The text to parse, after the marker; NULL when the marker is missing. */
static gchar *
parser_text (const JsonParser *parser, const SlMessage *msg, gsize *len)
{
  gchar *input = sl_parser_input (parser->template, msg, len);
  if (parser->marker)
    {
      if (*len < parser->marker_len || memcmp (input, parser->marker, parser->marker_len) != 0)
        return NULL;
      input += parser->marker_len;
      *len -= parser->marker_len;
    }
  return input;
}

static gboolean
json_parser_process (SlDriver *self, SlMessage **msg)
{
  JsonParser *parser = (JsonParser *) self;
  gsize len;
  gchar *input = parser_text (parser, *msg, &len);
  gboolean set = FALSE;

  if (input && parser->typed)
    set = json_typed_flatten (parser, input, len, msg);
  else if (input)
    switch (json_scan_flatten (parser, input, len, msg))
      {
      case JSON_SCAN_SET:
        set = TRUE;
        break;
      case JSON_SCAN_REFUSED:
        break;
      case JSON_SCAN_AMBIGUOUS:
        /* the scan unescaped strings in place: the text again, whole */
        input = parser_text (parser, *msg, &len);
        set = json_tree_flatten (parser, input, len, msg);
        break;
      }
  if (!set)
    sl_counter_add (parser->failed, 1);
  return set;
}

static void
json_parser_free (SlDriver *self)
{
  JsonParser *parser = (JsonParser *) self;

  if (parser->extract)
    g_array_unref (parser->extract);
}

static const SlParserOps json_parser_ops = { .process = json_parser_process };

static const SlDriverClass json_parser_class = {
  .kind = SL_DRIVER_PARSER,
  .name = "json-parser",
  .summary = "sets fields from a JSON object, nested members as dotted names; under @version: 4.x each keeps its JSON "
              "type (number, boolean, null, list) as syslog-ng 4 does, under 3.x every value is text as in 3.38",
  .options = json_parser_options,
  .instance_size = sizeof (JsonParser),
  .init = json_parser_init,
  .free = json_parser_free,
  .ops.parser = &json_parser_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "json-parser",
  .drivers = (const SlDriverClass *const[]) { &json_parser_class, NULL },
  .rsyslog_modules = (const SlRsModule *const[]) { &json_mmjsonparse, NULL },
};
