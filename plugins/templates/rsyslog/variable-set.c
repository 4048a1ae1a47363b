/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog-set(template(T) variable("!a.b")) and
 * rsyslog-unset(variable("!a")): RainerScript's set and unset for the
 * rsyslog front end, with rsyslogd's case-insensitive names. set writes
 * the template's text into the variable spelt as the message already
 * spells it (set $!foo after parsing "Foo" replaces Foo's value); unset
 * removes the variable and its members in any case. number(yes) stores
 * an integer as a number, as rsyslogd stores a numeric expression's;
 * json(yes) takes the text as a JSON value (parse_json()'s that is no
 * object) and stores it with its type, a number as written. A
 * member of a variable that holds no object ($!a!b when $!a is "x" or 5)
 * is not set: rsyslogd 8.2302 keeps the value and drops the member. */
#include "plugins/templates/rsyslog/variable-set.h"
#include "plugins/templates/rsyslog/variable-name.h"

#include "core/config/error.h"
#include "core/i18n.h"
#include "core/message/parser-input.h"
#include "core/plugin/plugin.h"

#include <jansson.h>
#include <string.h>

typedef struct
{
  SlDriver base;
  SlTemplate *template;
  const gchar *variable;
  gboolean number;
  gboolean json;
  SlHandle handle;
} VariableSet;

static const SlOptionSpec set_options[] = {
  { "template", SL_TEMPLATE (VariableSet, template), NULL, "the value to set; ${MESSAGE} when not given" },
  { "variable", SL_STRING (VariableSet, variable), NULL, "the variable's field, such as \"!a.b\" (required)" },
  { "number", SL_BOOL (VariableSet, number), "no", "an integer value is stored as a number: the value of a numeric expression" },
  { "json", SL_BOOL (VariableSet, json), "no",
    "the value is a JSON value's text, stored with its type: a string as its text, a number as written" },
  { NULL }
};

static const SlOptionSpec unset_options[] = {
  { "variable", SL_STRING (VariableSet, variable), NULL, "the variable's field, such as \"!a\" (required)" },
  { NULL }
};

static gboolean
variable_init (SlDriver *self, GError **error)
{
  VariableSet *set = (VariableSet *) self;
  if (set->variable && set->variable[0] && set->variable[1])
    {
      set->handle = sl_field_handle (set->variable);
      return TRUE;
    }
  g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE, _("%s() needs variable(), a variable's field such as \"!a\""),
               self->klass->name);
  return FALSE;
}

/* what rsyslogd's int64 numbers are written as */
static gboolean
is_integer (const gchar *value, gsize len)
{
  gsize i = len && value[0] == '-' ? 1 : 0;
  if (i == len || len > 20)
    return FALSE;
  for (; i < len; i++)
    if (!g_ascii_isdigit (value[i]))
      return FALSE;
  return TRUE;
}

/* A JSON value's text as the type it is stored with; a string's own text
 * in *text when it is one (NULL when the text is no JSON value) */
static SlValueType
value_type (const gchar *value, gsize len, gchar **text)
{
  json_t *parsed = json_loadb (value, len, JSON_DECODE_ANY, NULL);
  SlValueType type = SL_VALUE_JSON;

  *text = NULL;
  switch (parsed ? json_typeof (parsed) : JSON_NULL)
    {
    case JSON_STRING:
      *text = g_strndup (json_string_value (parsed), json_string_length (parsed));
      type = SL_VALUE_STRING;
      break;
    case JSON_INTEGER:
      type = SL_VALUE_INT64;
      break;
    case JSON_REAL:
      type = SL_VALUE_DOUBLE;
      break;
    case JSON_TRUE:
    case JSON_FALSE:
      type = SL_VALUE_BOOLEAN;
      break;
    case JSON_NULL:
      if (!parsed)
        *text = g_strndup (value, len);
      type = parsed ? SL_VALUE_NULL : SL_VALUE_STRING;
      break;
    case JSON_OBJECT:
    case JSON_ARRAY:
      break;
    }
  json_decref (parsed);
  return type;
}

static gboolean
set_process (SlDriver *self, SlMessage **msg)
{
  VariableSet *set = (VariableSet *) self;
  gsize len;
  const gchar *value = sl_parser_input (set->template, *msg, &len);
  SlHandle h = set->handle;

  if (rs_variable_under_scalar (*msg, set->variable))
    return TRUE;
  /* the variable spelt as it was set costs no search, a new one no copy */
  if (!sl_message_has (*msg, h))
    {
      g_autofree gchar *spelt = rs_variable_spelling (*msg, set->variable);
      if (spelt)
        h = sl_field_handle (spelt);
    }
  sl_message_make_writable (msg);
  if (set->json)
    {
      g_autofree gchar *text = NULL;
      SlValueType type = value_type (value, len, &text);
      sl_message_set_typed (*msg, h, text ? text : value, text ? -1 : (gssize) len, type);
      return TRUE;
    }
  sl_message_set_typed (*msg, h, value, (gssize) len,
                        set->number && is_integer (value, len) ? SL_VALUE_INT64 : SL_VALUE_STRING);
  return TRUE;
}

/* the variable itself or a member of it, in any case */
static gboolean
doomed (const VariableSet *set, gsize len, SlHandle h)
{
  const gchar *field = sl_field_name (h);
  return rs_variable_has_prefix (field, set->variable) && (field[len] == '\0' || field[len] == '.');
}

static gboolean
unset_process (SlDriver *self, SlMessage **msg)
{
  VariableSet *set = (VariableSet *) self;
  gsize len = strlen (set->variable);
  guint32 i = 0;

  while (i < (*msg)->n_fields && !doomed (set, len, (*msg)->fields[i].handle))
    i++;
  if (i == (*msg)->n_fields)
    return TRUE;
  sl_message_make_writable (msg);
  /* from the last: an unset moves only the fields after it */
  for (guint32 j = (*msg)->n_fields; j-- > 0;)
    if (doomed (set, len, (*msg)->fields[j].handle))
      sl_message_unset (*msg, (*msg)->fields[j].handle);
  return TRUE;
}

static const SlParserOps set_ops = { .process = set_process };
static const SlParserOps unset_ops = { .process = unset_process };

const SlDriverClass rsyslog_set_class = {
  .kind = SL_DRIVER_PARSER,
  .name = "rsyslog-set",
  .summary = "RainerScript's set: a variable set to a template's text, its name spelt as the message spells it",
  .options = set_options,
  .instance_size = sizeof (VariableSet),
  .init = variable_init,
  .ops.parser = &set_ops,
};

const SlDriverClass rsyslog_unset_class = {
  .kind = SL_DRIVER_PARSER,
  .name = "rsyslog-unset",
  .summary = "RainerScript's unset: a variable and its members removed, its name compared ignoring case",
  .options = unset_options,
  .instance_size = sizeof (VariableSet),
  .init = variable_init,
  .ops.parser = &unset_ops,
};
