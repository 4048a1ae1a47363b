/* set-tag("audit") and clear-tag("audit"): put a tag on the message or
 * take it off; the tag may be a template ("app-$PROGRAM"). */
#include "plugins/rewrites/basic/rewrite-rule.h"
#include "core/config.h"
#include "core/config/error.h"
#include "core/i18n.h"

typedef struct
{
  RewriteRule rule;
  SlTemplate *tag;
  gboolean set;           /* set-tag, else clear-tag */
} TagRule;

static const SlOptionSpec tag_options[] = {
  { "tag", SL_OPT_TEMPLATE, NULL, "the tag, text or a template", NULL, TRUE },
  REWRITE_RULE_OPTIONS,
  { NULL }
};

static gboolean
tag_init (SlDriver *d, SlOptions *o, GError **error)
{
  TagRule *self = (TagRule *) d;
  self->set = d->klass == &rewrite_set_tag_class;
  if (!sl_options_string (o, "tag"))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos, _("%s() needs a tag, as in %s(\"audit\")"),
                        d->klass->name, d->klass->name);
      return FALSE;
    }
  if (!(self->tag = sl_config_template (d->cfg, o, "tag", NULL, error)))
    return FALSE;
  return rewrite_rule_init (&self->rule, o, error);
}

static void
tag_free (SlDriver *d)
{
  TagRule *self = (TagRule *) d;
  if (self->tag)
    sl_template_unref (self->tag);
  rewrite_rule_free (&self->rule);
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

const SlDriverClass rewrite_set_tag_class = {
  .kind = SL_DRIVER_REWRITE,
  .name = "set-tag",
  .summary = "put a tag on the message: set-tag(\"audit\")",
  .options = tag_options,
  .instance_size = sizeof (TagRule),
  .init = tag_init,
  .free = tag_free,
  .process = tag_process,
};

const SlDriverClass rewrite_clear_tag_class = {
  .kind = SL_DRIVER_REWRITE,
  .name = "clear-tag",
  .summary = "take a tag off the message: clear-tag(\"audit\")",
  .options = tag_options,
  .instance_size = sizeof (TagRule),
  .init = tag_init,
  .free = tag_free,
  .process = tag_process,
};
