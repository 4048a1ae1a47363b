/* json-parser(): a JSON object in a message becomes fields, nested objects
 * flattened to names joined by dots ({"user":{"id":7}} sets user.id), as
 * syslog-ng does. Arrays are kept as their JSON text; numbers, booleans
 * and null as the text they are written with. */
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/parser-input.h"
#include "core/plugin.h"
#include "core/stats.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* A flattened name longer than this is skipped and counted: the sender
 * chooses the keys, and every field name is kept for the life of the
 * process. jansson refuses input nested deeper than JSON_PARSER_MAX_DEPTH
 * (2048), which bounds the recursion below. */
#define SL_JSON_MAX_NAME 255

/* One step of extract-prefix(): a member name or an array index. */
typedef struct
{
  gchar *key;        /* NULL for an index */
  gsize index;
} SlJsonStep;

typedef struct
{
  SlDriver base;
  SlTemplate *template;
  const gchar *prefix;
  const gchar *marker;
  const gchar *extract_prefix;
  const gchar *key_delimiter;
  gsize marker_len;
  gchar delimiter;
  GArray *extract;   /* SlJsonStep */
  SlCounter *failed;
  SlCounter *skipped_keys;
} SlJsonParser;

static const SlOptionSpec json_parser_options[] = {
  { "template", SL_TEMPLATE (SlJsonParser, template), NULL, "the text to parse; ${MESSAGE} when not given" },
  { "prefix", SL_STRING (SlJsonParser, prefix), "", "put before the name of every field" },
  { "marker", SL_STRING (SlJsonParser, marker), NULL,
    "the JSON starts after this text (such as @cee:); a message without it does not parse" },
  { "extract-prefix", SL_STRING (SlJsonParser, extract_prefix), NULL,
    "parse only this member: names joined by dots, [N] for an array item (foo.bar[5])" },
  { "key-delimiter", SL_STRING (SlJsonParser, key_delimiter), ".", "the character that joins the names of nested members" },
  { NULL }
};

static void
step_clear (gpointer p)
{
  g_free (((SlJsonStep *) p)->key);
}

/* "foo.bar[5]", "[2].x", "a[1][0]" */
static gboolean
parse_extract_prefix (SlJsonParser *parser, const gchar *text)
{
  parser->extract = g_array_new (FALSE, TRUE, sizeof (SlJsonStep));
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
          SlJsonStep step = { NULL, index };
          g_array_append_val (parser->extract, step);
          p = end + 1;
          if (*p == '.')
            p++;
          continue;
        }
      gsize n = strcspn (p, ".[]");
      if (!n || p[n] == ']')
        return FALSE;
      SlJsonStep step = { g_strndup (p, n), 0 };
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
  SlJsonParser *parser = (SlJsonParser *) self;
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

  if (strlen (parser->prefix) >= SL_JSON_MAX_NAME)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (options, "prefix"),
                        _("prefix() is longer than the longest field name, %d bytes"), SL_JSON_MAX_NAME);
      return FALSE;
    }
  parser->marker_len = parser->marker ? strlen (parser->marker) : 0;
  parser->failed = sl_stats_counter ("parser", self->id, self->klass->name, "failed");
  parser->skipped_keys = sl_stats_counter ("parser", self->id, self->klass->name, "skipped-keys");
  return TRUE;
}

static json_t *
extract (const SlJsonParser *parser, json_t *root)
{
  json_t *node = root;
  for (guint i = 0; node && parser->extract && i < parser->extract->len; i++)
    {
      const SlJsonStep *step = &g_array_index (parser->extract, SlJsonStep, i);
      node = step->key ? json_object_get (node, step->key) : json_array_get (node, step->index);
    }
  return node;
}

/* The shortest of two precisions that reads back as the same number. */
static void
format_real (gchar *buffer, gsize size, gdouble value)
{
  g_ascii_formatd (buffer, size, "%.15g", value);
  if (g_ascii_strtod (buffer, NULL) != value)
    g_ascii_formatd (buffer, size, "%.17g", value);
}

static void
set_scalar (SlMessage *msg, SlHandle field, json_t *value)
{
  gchar buffer[G_ASCII_DTOSTR_BUF_SIZE];

  switch (json_typeof (value))
    {
    case JSON_STRING:
      sl_message_set (msg, field, json_string_value (value), json_string_length (value));
      return;
    case JSON_INTEGER:
      g_snprintf (buffer, sizeof buffer, "%" JSON_INTEGER_FORMAT, json_integer_value (value));
      break;
    case JSON_REAL:
      format_real (buffer, sizeof buffer, json_real_value (value));
      break;
    case JSON_TRUE:
      g_strlcpy (buffer, "true", sizeof buffer);
      break;
    case JSON_FALSE:
      g_strlcpy (buffer, "false", sizeof buffer);
      break;
    case JSON_NULL:
      g_strlcpy (buffer, "null", sizeof buffer);
      break;
    case JSON_ARRAY:
      {
        gchar *text = json_dumps (value, JSON_COMPACT | JSON_ENCODE_ANY);
        if (text)
          sl_message_set (msg, field, text, -1);
        free (text);
        return;
      }
    case JSON_OBJECT:
      return;
    }
  sl_message_set (msg, field, buffer, -1);
}

/* The name of the member being set: the prefix and the names of the
 * enclosing members, in a buffer on the stack. */
typedef struct
{
  gchar text[SL_JSON_MAX_NAME + 1];
  gsize len;
} SlJsonName;

static void
flatten (const SlJsonParser *parser, json_t *object, guint depth, SlJsonName *name, SlMessage *msg)
{
  gsize base = name->len;
  const gchar *key;
  json_t *value;

  json_object_foreach (object, key, value)
    {
      gsize key_len = strlen (key);
      gsize len = base + (depth ? 1 : 0) + key_len;
      if (!len || len > SL_JSON_MAX_NAME)
        {
          sl_counter_add (parser->skipped_keys, 1);
          continue;
        }
      name->len = base;
      if (depth)
        name->text[name->len++] = parser->delimiter;
      memcpy (name->text + name->len, key, key_len + 1);
      name->len = len;
      if (json_is_object (value))
        flatten (parser, value, depth + 1, name, msg);
      else
        set_scalar (msg, sl_field_handle (name->text), value);
    }
  name->len = base;
  name->text[base] = '\0';
}

static gboolean
json_parser_process (SlDriver *self, SlMessage **msg)
{
  SlJsonParser *parser = (SlJsonParser *) self;
  gsize len;
  const gchar *input = sl_parser_input (parser->template, *msg, &len);

  if (parser->marker)
    {
      if (len < parser->marker_len || memcmp (input, parser->marker, parser->marker_len) != 0)
        {
          sl_counter_add (parser->failed, 1);
          return FALSE;
        }
      input += parser->marker_len;
      len -= parser->marker_len;
    }

  json_error_t error;
  json_t *root = json_loadb (input, len, 0, &error);
  json_t *object = root ? extract (parser, root) : NULL;
  if (!json_is_object (object))
    {
      sl_counter_add (parser->failed, 1);
      json_decref (root);
      return FALSE;
    }

  sl_message_make_writable (msg);
  SlJsonName name;
  name.len = g_strlcpy (name.text, parser->prefix, sizeof name.text);
  flatten (parser, object, 0, &name, *msg);
  json_decref (root);
  return TRUE;
}

static void
json_parser_free (SlDriver *self)
{
  SlJsonParser *parser = (SlJsonParser *) self;

  if (parser->extract)
    g_array_unref (parser->extract);
}

static const SlParserOps json_parser_ops = { .process = json_parser_process };

static const SlDriverClass json_parser_class = {
  .kind = SL_DRIVER_PARSER,
  .name = "json-parser",
  .summary = "sets fields from a JSON object, nested members as dotted names",
  .options = json_parser_options,
  .instance_size = sizeof (SlJsonParser),
  .init = json_parser_init,
  .free = json_parser_free,
  .ops.parser = &json_parser_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "json-parser",
  .drivers = (const SlDriverClass *const[]) { &json_parser_class, NULL },
};
