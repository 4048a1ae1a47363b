/* SPDX-License-Identifier: GPL-2.0-or-later */
/* split-fields(): the text cut at every separator() into fields named
 * prefix() and their number from 1 (f1, f2, ...), as rsyslog's mmfields
 * cuts msg: no quoting, an empty field between two separators kept, none
 * made after a separator that ends the text. json-field() also gets them
 * as one JSON object, as rsyslogd writes %$!x% of jsonRoot="!x"
 * (libfastjson's spaced form and escapes). */
#include "plugins/parsers/modifiers/modifiers.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/message/message.h"
#include "core/message/parser-input.h"

#include <string.h>

typedef struct
{
  SlDriver base;
  SlTemplate *template;
  const gchar *separator;
  const gchar *prefix;
  const gchar *json_field;
} SplitFields;

static const SlOptionSpec split_fields_options[] = {
  { "template", SL_TEMPLATE (SplitFields, template), NULL, "the text to cut; ${MESSAGE} when not given" },
  { "separator", SL_STRING (SplitFields, separator), ",", "the one character fields end at" },
  { "prefix", SL_STRING (SplitFields, prefix), "f", "the fields' name before their number" },
  { "json-field", SL_STRING (SplitFields, json_field), NULL,
    "also set this field to the fields as one JSON object ({ \"f1\": \"a\", ... })" },
  { NULL }
};

/* libfastjson's escapes, '/' among them */
static void
append_json_string (GString *out, const gchar *text, gsize len)
{
  static const gchar *const named[] = {
    ['"'] = "\\\"", ['\\'] = "\\\\", ['/'] = "\\/", ['\b'] = "\\b", ['\f'] = "\\f", ['\n'] = "\\n",
    ['\r'] = "\\r", ['\t'] = "\\t",
  };

  g_string_append_c (out, '"');
  for (gsize i = 0; i < len; i++)
    {
      guchar c = (guchar) text[i];
      const gchar *escape = c < G_N_ELEMENTS (named) ? named[c] : NULL;
      if (escape)
        g_string_append (out, escape);
      else if (c < 0x20)
        g_string_append_printf (out, "\\u00%02x", c);
      else
        g_string_append_c (out, (gchar) c);
    }
  g_string_append_c (out, '"');
}

static gboolean
split_fields_init (SlDriver *self, GError **error)
{
  SplitFields *split = (SplitFields *) self;

  if (strlen (split->separator) != 1)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (self->options, "separator"),
                        _("separator() takes one character, not '%s'"), split->separator);
      return FALSE;
    }
  return TRUE;
}

static gboolean
split_fields_process (SlDriver *self, SlMessage **msg)
{
  SplitFields *split = (SplitFields *) self;
  gsize len;
  const gchar *text = sl_parser_input (split->template, *msg, &len);
  const gchar *end = text + len;
  g_autoptr (GString) name = g_string_new (split->prefix);
  g_autoptr (GString) json = split->json_field ? g_string_new ("{") : NULL;
  gsize base = name->len;

  if (len)
    sl_message_make_writable (msg);
  for (guint n = 1; text < end; n++)
    {
      const gchar *stop = memchr (text, split->separator[0], (gsize) (end - text));
      if (!stop)
        stop = end;
      g_string_truncate (name, base);
      g_string_append_printf (name, "%u", n);
      sl_message_set (*msg, sl_field_handle (name->str), text, stop - text);
      if (json)
        {
          g_string_append_printf (json, "%s \"%s%u\": ", n > 1 ? "," : "", "f", n);
          append_json_string (json, text, (gsize) (stop - text));
        }
      if (stop == end)
        break;
      text = stop + 1;
    }
  if (json && json->len > 1)
    {
      g_string_append (json, " }");
      sl_message_set (*msg, sl_field_handle (split->json_field), json->str, (gssize) json->len);
    }
  return TRUE;
}

static const SlParserOps split_fields_ops = { .process = split_fields_process };

const SlDriverClass split_fields_class = {
  .kind = SL_DRIVER_PARSER,
  .name = "split-fields",
  .summary = "cuts a text at a separator into numbered fields, as rsyslog's mmfields",
  .options = split_fields_options,
  .instance_size = sizeof (SplitFields),
  .init = split_fields_init,
  .ops.parser = &split_fields_ops,
};
