/* Template functions that transform text: $(echo), $(uppercase),
 * $(lowercase). Each renders its arguments, joined by spaces. */
#include "core/plugin.h"
#include "core/template.h"

#include <string.h>

static void
render_args (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  for (gint i = 0; i < call->argc; i++)
    {
      if (i)
        g_string_append_c (out, ' ');
      sl_template_append (call->arg_templates[i], msg, env, out);
    }
}

static void
echo_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  render_args (call, msg, env, out);
}

static void
change_case (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out,
             gchar (*convert) (gchar))
{
  gsize from = out->len;
  render_args (call, msg, env, out);
  for (gsize i = from; i < out->len; i++)
    out->str[i] = convert (out->str[i]);
}

static void
uppercase_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  change_case (call, msg, env, out, g_ascii_toupper);
}

static void
lowercase_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  change_case (call, msg, env, out, g_ascii_tolower);
}

static const SlDriverClass echo_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "echo",
  .summary = "its arguments, as they render", .tf_eval = echo_eval,
};

static const SlDriverClass uppercase_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "uppercase",
  .summary = "its arguments in upper case (ASCII)", .tf_eval = uppercase_eval,
};

static const SlDriverClass lowercase_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "lowercase",
  .summary = "its arguments in lower case (ASCII)", .tf_eval = lowercase_eval,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "basic-functions",
  .drivers = (const SlDriverClass *const[]) { &echo_class, &uppercase_class, &lowercase_class, NULL },
};
