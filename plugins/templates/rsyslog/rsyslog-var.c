/* SPDX-License-Identifier: GPL-2.0-or-later */
/* $(rsyslog-var NAME): the value of an rsyslog variable (the front end
 * names $!a!b "!a.b"), found as rsyslogd finds it: its own field, else the
 * one whose name is NAME in another case ($!foo reads a member parsed as
 * "Foo"). */
#include "plugins/templates/rsyslog/rsyslog-classes.h"
#include "plugins/templates/rsyslog/variable-name.h"

#include "core/config/error.h"
#include "core/i18n.h"
#include "core/message/template.h"

static gboolean
var_prepare (SlTfCall *call, GError **error)
{
  if (call->argc == 1 && call->args[0][0])
    {
      call->state = GUINT_TO_POINTER (sl_field_handle (call->args[0]));
      return TRUE;
    }
  g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE, "%s", _("$(rsyslog-var) takes one variable name"));
  return FALSE;
}

static void
var_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  (void) env;
  SlHandle h = rs_variable_find (msg, call->args[0], GPOINTER_TO_UINT (call->state));
  gsize len;
  const gchar *value = h ? sl_message_get (msg, h, &len) : NULL;

  if (value)
    g_string_append_len (out, value, (gssize) len);
}

static const SlTemplateFunctionOps var_ops = { .prepare = var_prepare, .eval = var_eval };

const SlDriverClass rsyslog_var_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "rsyslog-var",
  .summary = "an rsyslog variable's value, its name compared ignoring case as rsyslogd does: $(rsyslog-var NAME)",
  .ops.template_function = &var_ops,
};
