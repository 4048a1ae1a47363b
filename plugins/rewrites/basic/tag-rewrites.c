/* SPDX-License-Identifier: GPL-2.0-or-later */
/* set-tag("audit") and clear-tag("audit"): put a tag on the message or
 * take it off; the tag may be a template ("app-$PROGRAM"). */
#include "plugins/rewrites/basic/rewrite-rule.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/message/template.h"

typedef struct
{
  RewriteRule rule;
  SlTemplate *tag;
  gboolean set;           /* set-tag, else clear-tag */
} TagRule;

static const SlOptionSpec tag_options[] = {
  { "tag", SL_TEMPLATE (TagRule, tag), NULL, "the tag, text or a template", .flags = SL_OPT_POSITIONAL },
  REWRITE_RULE_OPTIONS,
  { NULL }
};

static gboolean
tag_init (SlDriver *d, GError **error)
{
  TagRule *self = (TagRule *) d;
  self->set = d->klass == &rewrite_set_tag_class;
  if (!self->tag)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos, _("%s() needs a tag, as in %s(\"audit\")"),
                        d->klass->name, d->klass->name);
      return FALSE;
    }
  return TRUE;
}

static gboolean
tag_process (SlDriver *d, SlMessage **msg)
{
  TagRule *self = (TagRule *) d;
  if (!rewrite_rule_applies (&self->rule, msg))
    return TRUE;
  gsize len;
  const gchar *value = sl_template_peek (self->tag, *msg, &len);
  if (!len)
    return TRUE;
  /* tags are NUL-terminated names; a field's value need not be */
  GString *tag = rewrite_rule_scratch ();
  g_string_append_len (tag, value, len);
  if (sl_message_has_tag (*msg, tag->str) == self->set)
    return TRUE;
  sl_message_make_writable (msg);
  if (self->set)
    sl_message_set_tag (*msg, tag->str);
  else
    sl_message_clear_tag (*msg, tag->str);
  return TRUE;
}

static const SlRewriteOps tag_ops = { .process = tag_process };

const SlDriverClass rewrite_set_tag_class = {
  .kind = SL_DRIVER_REWRITE,
  .name = "set-tag",
  .summary = "put a tag on the message: set-tag(\"audit\")",
  .options = tag_options,
  .instance_size = sizeof (TagRule),
  .init = tag_init,
  .ops.rewrite = &tag_ops,
};

const SlDriverClass rewrite_clear_tag_class = {
  .kind = SL_DRIVER_REWRITE,
  .name = "clear-tag",
  .summary = "take a tag off the message: clear-tag(\"audit\")",
  .options = tag_options,
  .instance_size = sizeof (TagRule),
  .init = tag_init,
  .ops.rewrite = &tag_ops,
};
