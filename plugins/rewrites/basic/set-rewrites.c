/* SPDX-License-Identifier: GPL-2.0-or-later */
/* set("template" value("FIELD")), unset(value("FIELD")),
 * groupset("template" values(".SDATA.*" "json.*")) and
 * groupunset(values(...)): give a field a value rendered from the message,
 * remove one, give every field whose name matches a glob a value rendered
 * from it ($_ is its value, as in syslog-ng), remove every such field.
 * In a syslog-ng 4 configuration set() gives the field the type syslog-ng
 * 4 gives its template: a hint's (set(int("42") ...), set(42 ...)), the
 * type of the one field it copies ("${json.n}"), of its one function
 * ($(list-concat ...)); anything else makes a string. */
#include "plugins/rewrites/basic/rewrite-rule.h"
#include "core/config/syntax-version.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/message/template.h"

#include <string.h>

typedef struct
{
  RewriteRule rule;
  SlHandle field;
  const gchar *field_name;
  SlTemplate *value;      /* set() */
  gboolean typed;         /* set() of a syslog-ng 4 configuration */
} SetRule;

/* groupset() and groupunset() decide once per field name whether it matches: handles
 * below this are remembered without a lock, others asked each time. */
#define REMEMBERED_HANDLES 4096

enum
{
  NAME_UNKNOWN = 0,
  NAME_MATCHES,
  NAME_DIFFERS,
};

typedef struct
{
  RewriteRule rule;
  GPtrArray *glob_texts;
  GPtrArray *globs;       /* GPatternSpec */
  guint8 *decisions;      /* per handle: NAME_* */
  SlTemplate *value;      /* groupset() */
  SlHandle current;       /* groupset(): "_", the value being replaced */
} GroupRule;

static const SlOptionSpec set_options[] = {
  { "template", SL_TEMPLATE (SetRule, value), NULL, "the new value, a template", .flags = SL_OPT_POSITIONAL },
  { "value", SL_STRING (SetRule, field_name), NULL, "the field to set, such as MESSAGE or .app.user" },
  REWRITE_RULE_OPTIONS,
  { NULL }
};

static const SlOptionSpec unset_options[] = {
  { "value", SL_STRING (SetRule, field_name), NULL, "the field to remove" },
  REWRITE_RULE_OPTIONS,
  { NULL }
};

static const SlOptionSpec groupset_options[] = {
  { "template", SL_TEMPLATE (GroupRule, value), NULL, "the new value of each field, a template in which $_ is "
    "the field's own value", .flags = SL_OPT_POSITIONAL },
  { "values", SL_LIST (GroupRule, glob_texts), NULL, "globs of the field names to set, such as \".SDATA.*\"" },
  REWRITE_RULE_OPTIONS,
  { NULL }
};

static const SlOptionSpec groupunset_options[] = {
  { "values", SL_LIST (GroupRule, glob_texts), NULL, "globs of the field names to remove, such as \".SDATA.*\"" },
  REWRITE_RULE_OPTIONS,
  { NULL }
};

/* set() */

static gboolean
set_init (SlDriver *d, GError **error)
{
  SetRule *self = (SetRule *) d;
  if (!self->value)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos,
                        _("set() needs the new value, as in set(\"$HOST\" value(\".origin\"))"));
      return FALSE;
    }
  self->typed = sl_cfg_compiling_version_4 ();
  return rewrite_rule_field (&self->rule, "value", self->field_name, &self->field, error);
}

static gboolean
set_process (SlDriver *d, SlMessage **msg)
{
  SetRule *self = (SetRule *) d;
  if (!rewrite_rule_applies (&self->rule, msg))
    return TRUE;
  sl_message_make_writable (msg);
  gsize len;
  if (self->typed)
    {
      SlValueType type;
      const gchar *value = sl_template_peek_typed (self->value, *msg, &len, &type);
      sl_message_set_typed (*msg, self->field, value, len, type);
      return TRUE;
    }
  const gchar *value = sl_template_peek (self->value, *msg, &len);
  sl_message_set (*msg, self->field, value, len);
  return TRUE;
}

/* unset() */

static gboolean
unset_init (SlDriver *d, GError **error)
{
  SetRule *self = (SetRule *) d;
  return rewrite_rule_field (&self->rule, "value", self->field_name, &self->field, error);
}

static gboolean
unset_process (SlDriver *d, SlMessage **msg)
{
  SetRule *self = (SetRule *) d;
  if (!sl_message_has (*msg, self->field) || !rewrite_rule_applies (&self->rule, msg))
    return TRUE;
  sl_message_make_writable (msg);
  sl_message_unset (*msg, self->field);
  return TRUE;
}

/* groupunset() and groupset() */

static gboolean
groupunset_init (SlDriver *d, GError **error)
{
  GroupRule *self = (GroupRule *) d;
  GPtrArray *globs = self->glob_texts;
  if (!globs || !globs->len)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos,
                        _("%s() needs values(), globs of field names such as values(\".SDATA.*\")"),
                        d->klass->name);
      return FALSE;
    }
  self->globs = g_ptr_array_new_with_free_func ((GDestroyNotify) g_pattern_spec_free);
  for (guint i = 0; i < globs->len; i++)
    {
      const gchar *glob = g_ptr_array_index (globs, i);
      if (!g_utf8_validate (glob, -1, NULL))
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "values"),
                            _("a glob of field names must be UTF-8 text"));
          return FALSE;
        }
      g_ptr_array_add (self->globs, g_pattern_spec_new (glob));
    }
  self->decisions = g_new0 (guint8, REMEMBERED_HANDLES);
  return TRUE;
}

static gboolean
groupset_init (SlDriver *d, GError **error)
{
  GroupRule *self = (GroupRule *) d;
  if (!self->value)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos,
                        _("groupset() needs the new value, as in groupset(\"$(uppercase $_)\" values(\"json.*\"))"));
      return FALSE;
    }
  self->current = sl_field_handle ("_");
  return groupunset_init (d, error);
}

static void
groupunset_free (SlDriver *d)
{
  GroupRule *self = (GroupRule *) d;
  if (self->globs)
    g_ptr_array_unref (self->globs);
  g_free (self->decisions);
}

static gboolean
name_matches (const GroupRule *self, SlHandle field)
{
  guint8 known = field < REMEMBERED_HANDLES ? __atomic_load_n (&self->decisions[field], __ATOMIC_RELAXED)
                                             : NAME_UNKNOWN;
  if (known != NAME_UNKNOWN)
    return known == NAME_MATCHES;
  const gchar *name = sl_field_name (field);
  gboolean matches = FALSE;
  for (guint i = 0; name && !matches && i < self->globs->len; i++)
    matches = g_pattern_spec_match_string (g_ptr_array_index (self->globs, i), name);
  if (field < REMEMBERED_HANDLES)
    __atomic_store_n (&self->decisions[field], matches ? NAME_MATCHES : NAME_DIFFERS, __ATOMIC_RELAXED);
  return matches;
}

/* Field handles found in one pass over a message's fields; a message with
 * more takes another pass. */
typedef struct
{
  const GroupRule *self;
  SlHandle found[64];
  guint n;
} Matching;

static gboolean
collect_matching (SlHandle field, const gchar *value, gsize len, gpointer data)
{
  Matching *m = data;
  if (name_matches (m->self, field))
    m->found[m->n++] = field;
  return m->n < G_N_ELEMENTS (m->found);
}

static gboolean
groupunset_has_any (const GroupRule *self, const SlMessage *msg)
{
  for (SlHandle h = SL_F_NONE + 1; h < SL_F_BUILTIN_MAX; h++)
    if (sl_message_has (msg, h) && name_matches (self, h))
      return TRUE;
  Matching m = { self, { 0 }, 0 };
  sl_message_foreach_dynamic (msg, collect_matching, &m);
  return m.n > 0;
}

static gboolean
groupunset_process (SlDriver *d, SlMessage **msg)
{
  GroupRule *self = (GroupRule *) d;
  if (!groupunset_has_any (self, *msg) || !rewrite_rule_applies (&self->rule, msg))
    return TRUE;
  sl_message_make_writable (msg);
  for (SlHandle h = SL_F_NONE + 1; h < SL_F_BUILTIN_MAX; h++)
    if (sl_message_has (*msg, h) && name_matches (self, h))
      sl_message_unset (*msg, h);
  Matching m = { self, { 0 }, 0 };
  do
    {
      m.n = 0;
      sl_message_foreach_dynamic (*msg, collect_matching, &m);
      for (guint i = 0; i < m.n; i++)
        sl_message_unset (*msg, m.found[i]);
    }
  while (m.n == G_N_ELEMENTS (m.found));
  return TRUE;
}

typedef struct
{
  const GroupRule *self;
  GArray *found;   /* SlHandle */
} AllMatching;

static gboolean
collect_all_matching (SlHandle field, const gchar *value, gsize len, gpointer data)
{
  AllMatching *m = data;
  if (field != m->self->current && name_matches (m->self, field))
    g_array_append_val (m->found, field);
  return TRUE;
}

/* Each matching field gets the template rendered with $_ holding its own
 * value; $_ is gone again afterwards. */
static void
set_each (GroupRule *self, SlMessage *msg, const SlHandle *fields, guint n)
{
  GString *old = g_string_new (NULL);
  for (guint i = 0; i < n; i++)
    {
      gsize len;
      const gchar *value = sl_message_get (msg, fields[i], &len);
      g_string_truncate (old, 0);
      g_string_append_len (old, value ? value : "", value ? len : 0);
      sl_message_set (msg, self->current, old->str, old->len);
      const gchar *rendered = sl_template_peek (self->value, msg, &len);
      sl_message_set (msg, fields[i], rendered, len);
    }
  sl_message_unset (msg, self->current);
  g_string_free (old, TRUE);
}

static gboolean
groupset_process (SlDriver *d, SlMessage **msg)
{
  GroupRule *self = (GroupRule *) d;
  if (!groupunset_has_any (self, *msg) || !rewrite_rule_applies (&self->rule, msg))
    return TRUE;
  sl_message_make_writable (msg);
  GArray *fields = g_array_new (FALSE, FALSE, sizeof (SlHandle));
  for (SlHandle h = SL_F_NONE + 1; h < SL_F_BUILTIN_MAX; h++)
    if (sl_message_has (*msg, h) && name_matches (self, h))
      g_array_append_val (fields, h);
  AllMatching all = { self, fields };
  sl_message_foreach_dynamic (*msg, collect_all_matching, &all);
  set_each (self, *msg, (const SlHandle *) fields->data, fields->len);
  g_array_free (fields, TRUE);
  return TRUE;
}

static const SlRewriteOps set_ops = { .process = set_process };
static const SlRewriteOps unset_ops = { .process = unset_process };
static const SlRewriteOps groupunset_ops = { .process = groupunset_process };
static const SlRewriteOps groupset_ops = { .process = groupset_process };

const SlDriverClass rewrite_set_class = {
  .kind = SL_DRIVER_REWRITE,
  .name = "set",
  .summary = "set a field to a template: set(\"$PROGRAM/$PID\" value(\".app.id\")); under @version: 4.x the "
              "field takes the template's type, or a hint's: set(int(\"$PID\") value(\"pid\")), as in syslog-ng 4",
  .options = set_options,
  .instance_size = sizeof (SetRule),
  .init = set_init,
  .ops.rewrite = &set_ops,
};

const SlDriverClass rewrite_unset_class = {
  .kind = SL_DRIVER_REWRITE,
  .name = "unset",
  .summary = "remove a field: unset(value(\"PID\"))",
  .options = unset_options,
  .instance_size = sizeof (SetRule),
  .init = unset_init,
  .ops.rewrite = &unset_ops,
};

const SlDriverClass rewrite_groupunset_class = {
  .kind = SL_DRIVER_REWRITE,
  .name = "groupunset",
  .summary = "remove the fields whose names match globs: groupunset(values(\".SDATA.*\" \"json.*\"))",
  .options = groupunset_options,
  .instance_size = sizeof (GroupRule),
  .init = groupunset_init,
  .free = groupunset_free,
  .ops.rewrite = &groupunset_ops,
};

const SlDriverClass rewrite_groupset_class = {
  .kind = SL_DRIVER_REWRITE,
  .name = "groupset",
  .summary = "set the fields whose names match globs: groupset(\"$(uppercase $_)\" values(\"json.*\"))",
  .options = groupset_options,
  .instance_size = sizeof (GroupRule),
  .init = groupset_init,
  .free = groupunset_free,
  .ops.rewrite = &groupset_ops,
};
