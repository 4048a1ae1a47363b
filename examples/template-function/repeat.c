/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A template function written against the installed kit only:
 * $(repeat COUNT TEXT) renders TEXT, a template, COUNT times over.
 * doc/plugin-guide.md ("A template function") walks through it. */
#include <sluice/plugin.h>

#include <stdlib.h>
#include <string.h>

#define REPEAT_MAX 100

/* prepare() runs once per call site, when the template holding the call
 * is compiled: at load, at every reload, and at `sluiced -s`. call->args
 * holds only the arguments, never the function's name: for
 * $(repeat 3 "${HOST} ") argc is 2, args[0] is "3" and args[1] is
 * "${HOST} " (outer quotes removed), compiled in arg_templates[1]. */
static gboolean
repeat_prepare (SlTfCall *call, GError **error)
{
  if (call->argc != 2)
    {
      /* the core puts the file:line:column of the template in front of
       * this sentence and quotes the line under it */
      g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE,
                   _("$(repeat) takes two arguments, a count and a text, as in $(repeat 3 \"-\")"));
      return FALSE;
    }
  gchar *end;
  glong count = strtol (call->args[0], &end, 10);
  if (!*call->args[0] || *end || count < 1 || count > REPEAT_MAX)
    {
      g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE,
                   _("$(repeat) takes a count from 1 to %d, not '%s'"), REPEAT_MAX, call->args[0]);
      return FALSE;
    }
  /* what prepare() works out goes into state; eval() only reads it */
  call->state = GINT_TO_POINTER ((gint) count);
  return TRUE;
}

/* eval() runs on whichever thread renders the template: a destination's
 * writer threads (several with workers()), and the reading threads of the
 * sources when a filter, parser or rewrite renders it, all at once. So it
 * only reads call and its state, and writes only to out. env is never
 * NULL: the core passes its default environment when the caller gave
 * none, and env is what nested templates must be rendered with, so that
 * the destination's ts-format(), time-zone() and template-escape() reach
 * them. */
static void
repeat_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  gint count = GPOINTER_TO_INT (call->state);
  gsize start = out->len;
  sl_template_append (call->arg_templates[1], msg, env, out);
  gsize len = out->len - start;
  g_string_set_size (out, start + len * (gsize) count);
  for (gint i = 1; i < count; i++)
    memcpy (out->str + start + len * (gsize) i, out->str + start, len);
}

static const SlTemplateFunctionOps repeat_ops = {
  .prepare = repeat_prepare,
  .eval = repeat_eval,
};

static const SlDriverClass repeat_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION,
  .name = "repeat",
  .summary = "a text COUNT times over: $(repeat COUNT TEXT)",
  .ops.template_function = &repeat_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "example-repeat",
  .drivers = (const SlDriverClass *const[]) { &repeat_class, NULL },
};
