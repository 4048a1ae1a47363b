/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog-foreach(template("${arr}") variable(".i")): RainerScript's
 * foreach for the rsyslog front end. The template renders a JSON array
 * (json-parser() keeps an array as its JSON text); for each element a
 * copy of the message goes on along the rest of the path with variable
 * set to the element, in order, and the message itself stops here. An
 * element that is a string is its text, null nothing, anything else its
 * JSON as rsyslogd writes it, and an object's members are fields
 * variable.NAME too, as json-parser() names them. Anything but an array gives no copy (rsyslogd
 * goes over an object's members too, but json-parser() keeps no text of
 * an object). */
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/message/member-name.h"
#include "core/message/message.h"
#include "core/message/parser-input.h"
#include "core/plugin/plugin.h"
#include "core/route/route.h"
#include "plugins/templates/rsyslog/foreach.h"
#include "plugins/templates/rsyslog/json-c-text.h"

#include <jansson.h>
#include <string.h>

typedef struct
{
  SlDriver base;
  SlTemplate *template;
  const gchar *variable;
} Foreach;

static const SlOptionSpec foreach_options[] = {
  { "template", SL_TEMPLATE (Foreach, template), NULL, "the JSON array to go over; ${MESSAGE} when not given" },
  { "variable", SL_STRING (Foreach, variable), NULL, "the field that holds each element in its copy (required)" },
  { NULL }
};

static gboolean
foreach_init (SlDriver *self, GError **error)
{
  Foreach *foreach = (Foreach *) self;
  if (foreach->variable && *foreach->variable)
    return TRUE;
  g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE, "%s",
               _("rsyslog-foreach() needs variable(), the field that holds each element"));
  return FALSE;
}

/* A string is its text, null nothing, anything else its JSON; an object's
 * members are fields of their own too, as json-parser() sets them */
static void
set_element (SlMessage *msg, const gchar *name, json_t *value)
{
  const gchar *key;
  json_t *member;

  if (json_is_object (value))
    json_object_foreach (value, key, member)
      {
        g_autoptr (GString) inner = g_string_new (name);
        g_string_append_c (inner, '.');
        sl_member_name_append (inner, key, strlen (key));
        set_element (msg, inner->str, member);
      }
  if (json_is_string (value))
    {
      sl_message_set (msg, sl_field_handle (name), json_string_value (value), (gssize) json_string_length (value));
      return;
    }
  g_autoptr (GString) text = g_string_new (NULL);
  if (!json_is_null (value))
    rs_json_c_append (text, value);
  sl_message_set (msg, sl_field_handle (name), text->str, (gssize) text->len);
}

static gboolean
foreach_process (SlDriver *self, SlMessage **msg)
{
  Foreach *foreach = (Foreach *) self;
  gsize len;
  const gchar *input = sl_parser_input (foreach->template, *msg, &len);
  json_t *array = json_loadb (input, len, 0, NULL);
  gsize i;
  json_t *element;

  if (json_is_array (array))
    json_array_foreach (array, i, element)
      {
        SlMessage *copy = sl_message_clone (*msg);
        set_element (copy, foreach->variable, element);
        sl_parser_emit (copy);
      }
  json_decref (array);
  return FALSE;
}

static const SlParserOps foreach_ops = { .process = foreach_process };

const SlDriverClass rsyslog_foreach_class = {
  .kind = SL_DRIVER_PARSER,
  .name = "rsyslog-foreach",
  .summary = "a copy of the message per element of a JSON array, as rsyslog's foreach; the message itself stops",
  .options = foreach_options,
  .capabilities = SL_CAP_EMITS,
  .instance_size = sizeof (Foreach),
  .init = foreach_init,
  .ops.parser = &foreach_ops,
};
