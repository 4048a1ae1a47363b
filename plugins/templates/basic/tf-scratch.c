/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the basic template functions share to render their arguments. */
#include "plugins/templates/basic/basic-private.h"
#include "core/config/error.h"
#include "core/i18n.h"

#include <errno.h>

static GPrivate scratch_key = SL_SCRATCH_INIT;

GString *
tf_scratch_acquire (void)
{
  return sl_scratch_push (&scratch_key);
}

void
tf_scratch_release (void)
{
  sl_scratch_pop (&scratch_key);
}

void
tf_render_args (const SlTfCall *call, gint first, const gchar *sep,
                   const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  for (gint i = first; i < call->argc; i++)
    {
      if (i > first && sep)
        g_string_append (out, sep);
      sl_template_append (call->arg_templates[i], msg, env, out);
    }
}

static gboolean
parse_int (const gchar *text, gsize len, gint64 *value)
{
  gchar *end;
  errno = 0;
  *value = g_ascii_strtoll (text, &end, 10);
  return len && end == text + len && !errno;
}

gboolean
tf_render_int (const SlTfCall *call, gint i, const SlMessage *msg, const SlTemplateEnv *env, gint64 *value)
{
  GString *text = tf_scratch_acquire ();
  sl_template_append (call->arg_templates[i], msg, env, text);
  gboolean ok = parse_int (text->str, text->len, value);
  tf_scratch_release ();
  return ok;
}

gboolean
tf_literal_int (const SlTfCall *call, gint i, gint64 *value)
{
  if (!sl_template_is_literal (call->arg_templates[i]))
    return FALSE;
  /* a literal renders to its text without a message */
  g_autoptr (GString) text = g_string_new (NULL);
  sl_template_append (call->arg_templates[i], NULL, NULL, text);
  return parse_int (text->str, text->len, value);
}

void
tf_usage_error (const SlTfCall *call, GError **error, const gchar *usage)
{
  g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE, _("$(%s) takes %s"), call->klass->name, usage);
}
