/* SPDX-License-Identifier: GPL-2.0-or-later */
/* $(env), $(or), $(url-decode), $(basename), $(dirname),
 * $(indent-multi-line), $(binary), $(uuid) as syslog-ng 3.38 has them. */
#include "plugins/templates/extra/extra-private.h"
#include "core/config/error.h"
#include "core/i18n.h"

#include <errno.h>
#include <string.h>

static gboolean
exactly_one (SlTfCall *call, GError **error)
{
  if (call->argc == 1)
    return TRUE;
  g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE, _("$(%s) takes one argument"), call->klass->name);
  return FALSE;
}

/* $(env NAME ...): the daemon's environment, values joined by a space */
static void
env_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  GString *name = tf_extra_scratch_acquire ();
  for (gint i = 0; i < call->argc; i++)
    {
      g_string_truncate (name, 0);
      sl_template_append (call->arg_templates[i], msg, env, name);
      const gchar *value = g_getenv (name->str);
      if (i > 0)
        g_string_append_c (out, ' ');
      if (value)
        g_string_append (out, value);
    }
  tf_extra_scratch_release ();
}

/* $(or A B ...): the first that is not empty */
static void
or_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  for (gint i = 0; i < call->argc; i++)
    {
      gsize start = out->len;
      sl_template_append (call->arg_templates[i], msg, env, out);
      if (out->len > start)
        return;
    }
}

/* $(url-decode TEXT ...): %XX decoded; a text with a broken escape gives
 * nothing, as in syslog-ng; '+' stays */
static void
url_decode_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  GString *text = tf_extra_scratch_acquire ();
  for (gint i = 0; i < call->argc; i++)
    {
      g_string_truncate (text, 0);
      sl_template_append (call->arg_templates[i], msg, env, text);
      gsize start = out->len;
      for (gsize k = 0; k < text->len; k++)
        {
          if (text->str[k] != '%')
            {
              g_string_append_c (out, text->str[k]);
              continue;
            }
          gint hi = k + 2 < text->len ? g_ascii_xdigit_value (text->str[k + 1]) : -1;
          gint lo = hi >= 0 ? g_ascii_xdigit_value (text->str[k + 2]) : -1;
          if (lo < 0)
            {
              g_string_truncate (out, start);
              break;
            }
          g_string_append_c (out, (gchar) (hi * 16 + lo));
          k += 2;
        }
    }
  tf_extra_scratch_release ();
}

static void
path_part_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out,
                gchar *(*part) (const gchar *))
{
  GString *text = tf_extra_scratch_acquire ();
  sl_template_append (call->arg_templates[0], msg, env, text);
  gchar *result = part (text->str);
  g_string_append (out, result);
  g_free (result);
  tf_extra_scratch_release ();
}

static void
basename_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  path_part_eval (call, msg, env, out, g_path_get_basename);
}

static void
dirname_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  path_part_eval (call, msg, env, out, g_path_get_dirname);
}

/* $(indent-multi-line TEXT ...): a tab after each newline */
static void
indent_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  GString *text = tf_extra_scratch_acquire ();
  for (gint i = 0; i < call->argc; i++)
    {
      if (i > 0)
        g_string_append_c (text, ' ');
      sl_template_append (call->arg_templates[i], msg, env, text);
    }
  for (gsize k = 0; k < text->len; k++)
    {
      g_string_append_c (out, text->str[k]);
      if (text->str[k] == '\n')
        g_string_append_c (out, '\t');
    }
  tf_extra_scratch_release ();
}

/* $(binary 0x41 66 0103): the bytes, decided when the template is compiled */
static gboolean
binary_prepare (SlTfCall *call, GError **error)
{
  GString *bytes = g_string_new (NULL);
  for (gint i = 0; i < call->argc; i++)
    {
      gchar *end;
      errno = 0;
      guint64 v = g_ascii_strtoull (call->args[i], &end, 0);
      if (!*call->args[i] || *end || errno || v > 255)
        {
          g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE,
                       _("$(binary) takes numbers from 0 to 255 (decimal, 0x hexadecimal or 0 octal), not '%s'"),
                       call->args[i]);
          g_string_free (bytes, TRUE);
          return FALSE;
        }
      g_string_append_c (bytes, (gchar) v);
    }
  call->state = bytes;
  return TRUE;
}

static void
binary_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  const GString *bytes = call->state;
  g_string_append_len (out, bytes->str, bytes->len);
}

static void
binary_free (gpointer state)
{
  g_string_free (state, TRUE);
}

static void
uuid_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  gchar *uuid = g_uuid_string_random ();
  g_string_append (out, uuid);
  g_free (uuid);
}

#define TF_CLASS(var, word, text, prep, ev, fr) \
  const SlDriverClass var = { \
    .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = word, .summary = text, \
    .ops.template_function = &(const SlTemplateFunctionOps) { .prepare = prep, .eval = ev, .free = fr }, \
  }

TF_CLASS (tf_env_class, "env", "the value of an environment variable of sluiced: $(env NAME)", NULL, env_eval, NULL);
TF_CLASS (tf_or_class, "or", "its first argument that renders non-empty", NULL, or_eval, NULL);
TF_CLASS (tf_url_decode_class, "url-decode", "its arguments with %XX escapes decoded", NULL, url_decode_eval, NULL);
TF_CLASS (tf_basename_class, "basename", "the last part of a path", exactly_one, basename_eval, NULL);
TF_CLASS (tf_dirname_class, "dirname", "a path without its last part", exactly_one, dirname_eval, NULL);
TF_CLASS (tf_indent_multi_line_class, "indent-multi-line", "its argument with every line after the first indented by a tab", NULL, indent_eval, NULL);
TF_CLASS (tf_binary_class, "binary", "the bytes given as numbers: $(binary 0x41 66)", binary_prepare, binary_eval, binary_free);
TF_CLASS (tf_uuid_class, "uuid", "a random version 4 UUID", NULL, uuid_eval, NULL);
