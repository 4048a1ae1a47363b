/* SPDX-License-Identifier: GPL-2.0-or-later */
/* $(template NAME [FALLBACK ...]), as syslog-ng 3.38 has it: renders the
 * template object NAME of the configuration, with the caller's options
 * and context (not its template-escape(), which syslog-ng leaves to the
 * values of the caller's own text). A NAME known when the template is compiled is bound then
 * (FALLBACK unused); an unknown NAME without '$' is an error; one with '$'
 * is rendered for each message and looked up then, and when no template
 * has that name the FALLBACK arguments are written instead, joined by
 * spaces. */
#include "core/plugin/plugin.h"
#include "core/i18n.h"
#include "core/message/template.h"
#include "core/config/error.h"

#include <string.h>

typedef struct
{
  SlTemplate *bound;     /* the template named when compiled, or NULL */
  GHashTable *named;     /* for a name found while rendering: the configuration's templates */
} TemplateCall;

static GPrivate name_key = SL_SCRATCH_INIT;

static void
template_call_free (gpointer state)
{
  TemplateCall *t = state;
  if (t->bound)
    sl_template_unref (t->bound);
  if (t->named)
    g_hash_table_unref (t->named);
  g_free (t);
}

static gboolean
template_call_prepare (SlTfCall *call, GError **error)
{
  if (call->argc < 1)
    {
      g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE,
                   _("$(template) takes the name of a template object, and text for when a name made "
                     "from the message names none"));
      return FALSE;
    }
  TemplateCall *t = g_new0 (TemplateCall, 1);
  call->state = t;
  GHashTable *named = sl_template_named ();
  SlTemplate *found = named ? sl_template_named_lookup (named, call->args[0]) : NULL;
  if (found)
    {
      t->bound = sl_template_ref (found);
      return TRUE;
    }
  if (!strchr (call->args[0], '$') || !named)
    {
      g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE,
                   _("$(template): no template function or template is called '%s'"), call->args[0]);
      return FALSE;
    }
  t->named = g_hash_table_ref (named);
  return TRUE;
}

static void
template_call_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  const TemplateCall *t = call->state;
  SlTemplate *invoked = t->bound;
  if (!invoked)
    {
      GString *name = sl_scratch_push (&name_key);
      sl_template_append (call->arg_templates[0], msg, env, name);
      invoked = sl_template_named_lookup (t->named, name->str);
      sl_scratch_pop (&name_key);
    }
  if (!invoked)
    {
      for (gint i = 1; i < call->argc; i++)
        {
          if (i > 1)
            g_string_append_c (out, ' ');
          sl_template_append (call->arg_templates[i], msg, env, out);
        }
      return;
    }
  /* syslog-ng escapes a template's own values, not what a template
   * object it calls writes: the caller's template-escape() stays out */
  SlTemplateEnv own = env ? *env : sl_template_env_default;
  own.escape = FALSE;
  guint n;
  const SlMessage *const *messages = sl_template_env_context (env, &msg, &n);
  sl_template_append_context (invoked, messages, n, &own, out);
}

static const SlTemplateFunctionOps template_call_ops = {
  .prepare = template_call_prepare, .eval = template_call_eval, .free = template_call_free,
};

static const SlDriverClass template_call_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "template",
  .summary = "the template object of that name, rendered here",
  .ops.template_function = &template_call_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "template-call",
  .drivers = (const SlDriverClass *const[]) { &template_call_class, NULL },
};
