/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the basic template functions share to render their arguments. */
#include "plugins/templates/basic/basic-private.h"
#include "core/config/error.h"
#include "core/i18n.h"

#include <errno.h>

typedef struct
{
  GPtrArray *buffers;
  guint depth;
} SlTfScratch;

static void
scratch_free (gpointer p)
{
  SlTfScratch *scratch = p;
  g_ptr_array_unref (scratch->buffers);
  g_free (scratch);
}

static void
buffer_free (gpointer p)
{
  g_string_free (p, TRUE);
}

static GPrivate scratch_key = G_PRIVATE_INIT (scratch_free);

GString *
sl_tf_scratch_acquire (void)
{
  SlTfScratch *scratch = g_private_get (&scratch_key);
  if (!scratch)
    {
      scratch = g_new0 (SlTfScratch, 1);
      scratch->buffers = g_ptr_array_new_with_free_func (buffer_free);
      g_private_set (&scratch_key, scratch);
    }
  if (scratch->depth == scratch->buffers->len)
    g_ptr_array_add (scratch->buffers, g_string_sized_new (256));
  GString *buffer = g_ptr_array_index (scratch->buffers, scratch->depth++);
  g_string_truncate (buffer, 0);
  return buffer;
}

void
sl_tf_scratch_release (void)
{
  SlTfScratch *scratch = g_private_get (&scratch_key);
  scratch->depth--;
}

void
sl_tf_render_args (const SlTfCall *call, gint first, const gchar *sep,
                   const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  for (gint i = first; i < call->argc; i++)
    {
      if (i > first && sep)
        g_string_append (out, sep);
      sl_template_append (call->arg_templates[i], msg, env, out);
    }
}

gboolean
sl_tf_render_int (const SlTfCall *call, gint i, const SlMessage *msg, const SlTemplateEnv *env, gint64 *value)
{
  GString *text = sl_tf_scratch_acquire ();
  sl_template_append (call->arg_templates[i], msg, env, text);
  gchar *end;
  errno = 0;
  *value = g_ascii_strtoll (text->str, &end, 10);
  gboolean ok = text->len && end == text->str + text->len && !errno;
  sl_tf_scratch_release ();
  return ok;
}

void
sl_tf_usage_error (const SlTfCall *call, GError **error, const gchar *usage)
{
  g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE, _("$(%s) takes %s"), call->klass->name, usage);
}
