/* SPDX-License-Identifier: GPL-2.0-or-later */
/* $(if (CONDITION) THEN ELSE): THEN when the message passes the filter
 * expression CONDITION, ELSE otherwise. CONDITION is written as in a
 * filter {} block, such as ("${LEVEL_NUM}" < 4) or (level(err) and
 * program(sshd)), and is compiled once. */
#include "plugins/templates/basic/basic-private.h"
#include "core/i18n.h"
#include "core/compile/text-filter.h"

static gboolean
if_prepare (SlTfCall *call, GError **error)
{
  if (call->argc != 3)
    {
      tf_usage_error (call, error, _("a condition, a template for when it holds and one for when not"));
      return FALSE;
    }
  call->state = sl_text_filter_compile (call->args[0], "$(if) condition", error);
  return call->state != NULL;
}

static void
if_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  gint branch = sl_text_filter_eval (call->state, msg) ? 1 : 2;
  sl_template_append (call->arg_templates[branch], msg, env, out);
}

static void
if_free (gpointer state)
{
  sl_text_filter_free (state);
}

static const SlTemplateFunctionOps if_ops = { .prepare = if_prepare, .eval = if_eval, .free = if_free };

const SlDriverClass tf_if_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "if",
  .summary = "one of two templates, as the message passes a filter expression: $(if (COND) THEN ELSE)",
  .ops.template_function = &if_ops,
};
