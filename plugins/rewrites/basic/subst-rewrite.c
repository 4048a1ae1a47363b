/* SPDX-License-Identifier: GPL-2.0-or-later */
/* subst("pattern" "replacement" value("FIELD") type() flags()): replaces
 * the first match of the pattern in a field (MESSAGE unless value() says
 * otherwise), or every match with flags(global). The replacement is a
 * template in which $0 is the match and $1 ... its groups, as in
 * syslog-ng; they stay set afterwards, as after any match. */
#include "plugins/rewrites/basic/rewrite-rule.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/message/matcher.h"

typedef struct
{
  RewriteRule rule;
  SlHandle field;
  SlMatcher *matcher;
  SlTemplate *replacement;
  GPtrArray *args;
  const gchar *field_name;
  SlMatcherOptions matcher_options;
} SubstRule;

static const SlOptionSpec subst_options[] = {
  { "args", SL_LIST (SubstRule, args), NULL, "the pattern, then the template that replaces what it matches",
    .flags = SL_OPT_POSITIONAL },
  { "value", SL_STRING (SubstRule, field_name), "MESSAGE", "the field to change" },
  SL_MATCHER_OPTIONS (SubstRule, matcher_options),
  REWRITE_RULE_OPTIONS,
  { NULL }
};

static gboolean
subst_init (SlDriver *d, GError **error)
{
  SubstRule *self = (SubstRule *) d;
  SlOptions *o = d->options;
  GPtrArray *args = self->args;
  if (!args || args->len != 2)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, args && args->len ? sl_options_pos (o, "args") : d->pos,
                        _("subst() takes a pattern and a replacement, "
                          "as in subst(\"password=\\\\S+\" \"password=***\")"));
      return FALSE;
    }
  if (!rewrite_rule_field (&self->rule, "value", self->field_name, &self->field, error))
    return FALSE;

  GError *inner = NULL;
  const SlCfgArg *replacement = g_ptr_array_index (sl_options_node (o)->args, 1);
  if (!(self->replacement = sl_template_compile (g_ptr_array_index (args, 1), &inner)))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, replacement->pos, "%s", inner->message);
      g_error_free (inner);
      return FALSE;
    }
  if (!(self->matcher = sl_matcher_new (d, &self->matcher_options, g_ptr_array_index (args, 0), sl_options_pos (o, "args"), error)))
    return FALSE;
  if (sl_matcher_type (self->matcher) == SL_MATCHER_GLOB)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (o, "type"),
                        _("subst() cannot replace what a glob matches; use type(pcre) or type(string)"));
      return FALSE;
    }
  return TRUE;
}

static void
subst_free (SlDriver *d)
{
  SubstRule *self = (SubstRule *) d;
  sl_matcher_free (self->matcher);
  if (self->replacement)
    sl_template_unref (self->replacement);
}

static gboolean
subst_process (SlDriver *d, SlMessage **msg)
{
  SubstRule *self = (SubstRule *) d;
  if (!rewrite_rule_applies (&self->rule, msg))
    return TRUE;
  gsize len;
  const gchar *value = sl_message_get (*msg, self->field, &len);
  GString *out = rewrite_rule_scratch ();
  if (sl_template_is_literal (self->replacement))
    {
      /* nothing is stored: the message is copied only when it changes */
      if (!sl_matcher_replace (self->matcher, *msg, value, len, self->replacement, out))
        return TRUE;
      sl_message_make_writable (msg);
    }
  else
    {
      /* $0, $1 ... are stored while replacing, so the copy comes first */
      if (!sl_matcher_match (self->matcher, value, len))
        return TRUE;
      sl_message_make_writable (msg);
      value = sl_message_get (*msg, self->field, &len);
      if (!sl_matcher_replace (self->matcher, *msg, value, len, self->replacement, out))
        return TRUE;
    }
  sl_message_set (*msg, self->field, out->str, out->len);
  return TRUE;
}

static const SlRewriteOps subst_ops = { .process = subst_process };

const SlDriverClass rewrite_subst_class = {
  .kind = SL_DRIVER_REWRITE,
  .name = "subst",
  .summary = "replace what a pattern matches in a field: "
             "subst(\"(\\\\d+)\\\\.(\\\\d+)\" \"$2.$1\" value(\"MESSAGE\") flags(global))",
  .options = subst_options,
  .instance_size = sizeof (SubstRule),
  .init = subst_init,
  .free = subst_free,
  .ops.rewrite = &subst_ops,
};
