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
 * is not set: rsyslogd 8.2302 keeps the value and drops the member.
 *
 * A tree's members are written in the order of their fields (SlValue's
 * order). libfastjson keeps an object's members in slots: unset empties
 * a slot, and the next member added to that object takes the first
 * empty one. An unset here keeps the places of the objects around what it
 * removes (an object emptied stays, as "{ }", at its place; one that keeps
 * members keeps its place too) and numbers the fields left 0, 1, ...
 * again, so that what is set next goes last; it keeps no empty slot for a
 * later member to fill (doc/rsyslog.md says why). */
#include "plugins/templates/rsyslog/variable-set.h"
#include "plugins/templates/rsyslog/variable-name.h"

#include "core/config/error.h"
#include "core/i18n.h"
#include "core/message/member-name.h"
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

/* unset of a sigil alone is the whole tree's (unset $!;) */
static gboolean
unset_init (SlDriver *self, GError **error)
{
  const gchar *variable = ((VariableSet *) self)->variable;

  if (variable && variable[0] && !variable[1] && strchr ("!./", variable[0]))
    return TRUE;
  return variable_init (self, error);
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

/* The field h in msg's dynamic store, NULL when not set */
static SlValue *
field_of (SlMessage *msg, SlHandle h)
{
  for (guint32 i = 0; i < msg->n_fields; i++)
    if (msg->fields[i].handle == h)
      return &msg->fields[i];
  return NULL;
}

/* "{ }", "{}": an object without members, as an unset or mmjsonparse left it */
static gboolean
empty_object (const SlValue *v)
{
  if (!rs_variable_is_object (v))
    return FALSE;
  for (guint32 i = 1; i < v->len; i++)
    if (v->ptr[i] != ' ' && v->ptr[i] != '}')
      return FALSE;
  return TRUE;
}

/* A member set in an empty object: the object's value goes, its place in
 * the tree is the member's, as libfastjson adds the member to the object */
static void
fill_empty_object (SlMessage *msg, const gchar *name, SlHandle h)
{
  for (guint32 i = 0; i < msg->n_fields; i++)
    {
      const gchar *field = sl_field_name (msg->fields[i].handle);
      gsize len = field ? strlen (field) : 0;
      if (len && g_ascii_strncasecmp (field, name, len) == 0 && name[len] == '.' && empty_object (&msg->fields[i]))
        {
          guint32 order = msg->fields[i].order;
          sl_message_unset (msg, msg->fields[i].handle);
          SlValue *member = field_of (msg, h);
          if (member)
            member->order = MIN (member->order, order);
          return;
        }
    }
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
  gboolean added = !sl_message_has (*msg, h);
  if (set->json)
    {
      g_autofree gchar *text = NULL;
      SlValueType type = value_type (value, len, &text);
      sl_message_set_typed (*msg, h, text ? text : value, text ? -1 : (gssize) len, type);
    }
  else
    sl_message_set_typed (*msg, h, value, (gssize) len,
                          set->number && is_integer (value, len) ? SL_VALUE_INT64 : SL_VALUE_STRING);
  /* only a member ($!a!b) can be set in an object a field holds */
  if (added && *sl_member_name_end (set->variable + 1))
    fill_empty_object (*msg, sl_field_name (h), h);
  return TRUE;
}

/* the variable itself or a member of it, in any case; every variable of
 * the tree for its sigil alone, syslog-ng's structured data none of $. */
static gboolean
doomed (const VariableSet *set, gsize len, SlHandle h)
{
  const gchar *field = sl_field_name (h);
  if (!rs_variable_has_prefix (field, set->variable))
    return FALSE;
  if (len == 1)
    return field[1] && !g_str_has_prefix (field, ".SDATA.");
  return field[len] == '\0' || field[len] == '.';
}

/* The object of len bytes (spelt as spelt) that lost members whose first
 * place was order keeps its place: its first member left takes that place,
 * or, with none left, the object stays there without members. */
static void
keep_place (SlMessage *msg, const gchar *spelt, gsize len, guint32 order)
{
  SlValue *first = NULL;

  for (guint32 i = 0; i < msg->n_fields; i++)
    {
      const gchar *field = sl_field_name (msg->fields[i].handle);
      if (field && g_ascii_strncasecmp (field, spelt, len) == 0 && field[len] == '.'
          && (!first || msg->fields[i].order < first->order))
        first = &msg->fields[i];
    }
  if (first)
    {
      first->order = MIN (first->order, order);
      return;
    }
  g_autofree gchar *name = g_strndup (spelt, len);
  SlHandle h = sl_field_handle (name);
  sl_message_set_typed (msg, h, "{ }", 3, SL_VALUE_JSON);
  /* NULL when the name table is full: the object is not kept then */
  SlValue *object = field_of (msg, h);
  if (object)
    object->order = order;
}

static gint
compare_order (gconstpointer a, gconstpointer b)
{
  const SlValue *x = *(const SlValue *const *) a, *y = *(const SlValue *const *) b;
  return (gint) x->order - (gint) y->order;
}

/* The fields' orders 0, 1, ... as they were: a field added later, whose
 * order is the number of fields, goes after every one */
static void
renumber (SlMessage *msg)
{
  g_autoptr (GPtrArray) fields = g_ptr_array_sized_new (msg->n_fields);

  for (guint32 i = 0; i < msg->n_fields; i++)
    g_ptr_array_add (fields, &msg->fields[i]);
  g_ptr_array_sort (fields, compare_order);
  for (guint i = 0; i < fields->len; i++)
    ((SlValue *) g_ptr_array_index (fields, i))->order = MIN (i, SL_VALUE_ORDER_MAX);
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
  /* the object the variable is a member of, spelt as the message spells it */
  const gchar *dot = sl_member_name_last (set->variable + 1);
  const gchar *spelt = sl_field_name ((*msg)->fields[i].handle);
  guint32 order = SL_VALUE_ORDER_MAX;
  /* from the last: an unset moves only the fields after it */
  for (guint32 j = (*msg)->n_fields; j-- > 0;)
    if (doomed (set, len, (*msg)->fields[j].handle))
      {
        order = MIN (order, (*msg)->fields[j].order);
        sl_message_unset (*msg, (*msg)->fields[j].handle);
      }
  if (dot)
    keep_place (*msg, spelt, (gsize) (dot - set->variable), order);
  renumber (*msg);
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
  .summary = "RainerScript's unset: a variable and its members removed, its name compared ignoring case; "
             "variable(\"!\") the whole tree",
  .options = unset_options,
  .instance_size = sizeof (VariableSet),
  .init = unset_init,
  .ops.parser = &unset_ops,
};
