/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog-set(template(T) variable("!a.b")) and
 * rsyslog-unset(variable("!a")): RainerScript's set and unset for the
 * rsyslog front end, with rsyslogd's case-insensitive names. set writes
 * the template's text into the variable spelt as the message already
 * spells it (set $!foo after parsing "Foo" replaces Foo's value); unset
 * removes the variable and its members in any case. */
#include "plugins/templates/rsyslog/variable-set.h"
#include "plugins/templates/rsyslog/variable-name.h"

#include "core/config/error.h"
#include "core/i18n.h"
#include "core/message/parser-input.h"
#include "core/plugin/plugin.h"

#include <string.h>

typedef struct
{
  SlDriver base;
  SlTemplate *template;
  const gchar *variable;
  SlHandle handle;
} VariableSet;

static const SlOptionSpec set_options[] = {
  { "template", SL_TEMPLATE (VariableSet, template), NULL, "the value to set; ${MESSAGE} when not given" },
  { "variable", SL_STRING (VariableSet, variable), NULL, "the variable's field, such as \"!a.b\" (required)" },
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

static gboolean
set_process (SlDriver *self, SlMessage **msg)
{
  VariableSet *set = (VariableSet *) self;
  gsize len;
  const gchar *value = sl_parser_input (set->template, *msg, &len);
  SlHandle h = set->handle;

  /* the common case, the variable spelt as it was set, costs no search */
  if (!sl_message_has (*msg, h))
    {
      g_autofree gchar *spelt = rs_variable_spelling (*msg, set->variable);
      h = sl_field_handle (spelt);
    }
  sl_message_make_writable (msg);
  sl_message_set (*msg, h, value, (gssize) len);
  return TRUE;
}

typedef struct
{
  const gchar *name;
  gsize len;
  GArray *handles;
} Doomed;

static gboolean
collect_doomed (SlHandle h, const gchar *value, gsize len, gpointer user_data)
{
  (void) value;
  (void) len;
  Doomed *d = user_data;
  const gchar *field = sl_field_name (h);

  if (rs_variable_has_prefix (field, d->name) && (field[d->len] == '\0' || field[d->len] == '.'))
    g_array_append_val (d->handles, h);
  return TRUE;
}

static gboolean
unset_process (SlDriver *self, SlMessage **msg)
{
  VariableSet *set = (VariableSet *) self;
  g_autoptr (GArray) handles = g_array_new (FALSE, FALSE, sizeof (SlHandle));
  Doomed d = { set->variable, strlen (set->variable), handles };

  sl_message_foreach_dynamic (*msg, collect_doomed, &d);
  if (!handles->len)
    return TRUE;
  sl_message_make_writable (msg);
  for (guint i = 0; i < handles->len; i++)
    sl_message_unset (*msg, g_array_index (handles, SlHandle, i));
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
