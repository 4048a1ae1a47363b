/* SPDX-License-Identifier: GPL-2.0-or-later */
/* json-parser() through jansson: the text parsed into a tree, the tree
 * walked to set fields. The scanner (json-scan.c) hands over to it the
 * texts where a key repeats, for jansson's rule on which value counts. */
#include "plugins/parsers/json/json-parser.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* jansson refuses input nested deeper than JSON_PARSER_MAX_DEPTH (2048),
 * which bounds the recursion below. */

static json_t *
extract (const JsonParser *parser, json_t *root)
{
  json_t *node = root;
  for (guint i = 0; node && parser->extract && i < parser->extract->len; i++)
    {
      const JsonStep *step = &g_array_index (parser->extract, JsonStep, i);
      node = step->key ? json_object_get (node, step->key) : json_array_get (node, step->index);
    }
  return node;
}

void
json_format_real (gchar *buffer, gdouble value)
{
  g_ascii_formatd (buffer, JSON_REAL_SIZE, "%f", value);
}

/* A value as syslog-ng 3.38 writes it: reals as %f, null as an empty
 * value, arrays as their JSON text. */
static void
set_scalar (SlMessage *msg, SlHandle field, json_t *value)
{
  gchar buffer[JSON_REAL_SIZE];

  switch (json_typeof (value))
    {
    case JSON_STRING:
      sl_message_set (msg, field, json_string_value (value), json_string_length (value));
      return;
    case JSON_INTEGER:
      g_snprintf (buffer, sizeof buffer, "%" JSON_INTEGER_FORMAT, json_integer_value (value));
      break;
    case JSON_REAL:
      json_format_real (buffer, json_real_value (value));
      break;
    case JSON_TRUE:
      g_strlcpy (buffer, "true", sizeof buffer);
      break;
    case JSON_FALSE:
      g_strlcpy (buffer, "false", sizeof buffer);
      break;
    case JSON_NULL:
      buffer[0] = '\0';
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

static void
flatten (const JsonParser *parser, json_t *object, guint depth, JsonName *name, SlMessage *msg)
{
  gsize base = name->len;
  const gchar *key;
  json_t *value;

  json_object_foreach (object, key, value)
    {
      gsize key_len = strlen (key);
      gsize len = base + (depth ? 1 : 0) + key_len;
      if (!len || len > JSON_MAX_NAME)
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

gboolean
json_tree_flatten (const JsonParser *parser, const gchar *input, gsize len, SlMessage **msg)
{
  json_error_t error;
  json_t *root = json_loadb (input, len, 0, &error);
  json_t *object = root ? extract (parser, root) : NULL;
  if (!json_is_object (object))
    {
      json_decref (root);
      return FALSE;
    }

  sl_message_make_writable (msg);
  JsonName name;
  name.len = g_strlcpy (name.text, parser->prefix, sizeof name.text);
  flatten (parser, object, 0, &name, *msg);
  json_decref (root);
  return TRUE;
}
