/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "plugins/rewrites/basic/rewrite-rule.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/message/template.h"

gboolean
rewrite_rule_applies (RewriteRule *self, SlMessage **msg)
{
  return !self->condition || sl_filter_expr_eval (self->condition, msg);
}

gboolean
rewrite_rule_field (RewriteRule *self, const gchar *option, const gchar *name, SlHandle *field,
                    GError **error)
{
  SlOptions *options = self->super.options;
  if (!name)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, self->super.pos,
                        _("%s() needs %s(\"FIELD\"), the field it changes"), self->super.klass->name, option);
      return FALSE;
    }
  GError *inner = NULL;
  SlTemplate *t = sl_template_compile_name (name, &inner);
  if (!t)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (options, option), "%s", inner->message);
      g_error_free (inner);
      return FALSE;
    }
  *field = sl_template_single_field (t);
  sl_template_unref (t);
  if (*field == SL_F_NONE)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (options, option),
                        _("'%s' is a macro, computed from the message: it cannot be changed"), name);
      return FALSE;
    }
  return TRUE;
}

static GPrivate scratch_key = SL_SCRATCH_INIT;

GString *
rewrite_rule_scratch (void)
{
  return sl_scratch_get (&scratch_key);
}
