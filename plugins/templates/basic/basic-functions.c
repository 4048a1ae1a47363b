/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Template functions that transform text: $(echo), $(uppercase),
 * $(lowercase), each rendering its arguments joined by spaces; and the
 * module of the basic functions, whose others live in the files next to
 * this one. */
#include "plugins/templates/basic/basic-private.h"

static void
echo_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  tf_render_args (call, 0, " ", msg, env, out);
}

/* Unicode case as syslog-ng's g_utf8_strup()/g_utf8_strdown(); text that
 * is not UTF-8, which GLib would read past, changes only its ASCII
 * letters. */
static void
change_case (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out,
             gchar *(*convert) (const gchar *, gssize), gchar (*convert_ascii) (gchar))
{
  gsize from = out->len;
  tf_render_args (call, 0, " ", msg, env, out);

  const gchar *text = out->str + from;
  gsize len = out->len - from;
  gboolean ascii = TRUE;
  for (gsize i = 0; i < len && ascii; i++)
    ascii = !(text[i] & 0x80);
  if (ascii || !g_utf8_validate_len (text, len, NULL))
    {
      for (gsize i = from; i < out->len; i++)
        out->str[i] = convert_ascii (out->str[i]);
      return;
    }
  gchar *changed = convert (text, (gssize) len);
  g_string_truncate (out, from);
  g_string_append (out, changed);
  g_free (changed);
}

static void
uppercase_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  change_case (call, msg, env, out, g_utf8_strup, g_ascii_toupper);
}

static void
lowercase_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  change_case (call, msg, env, out, g_utf8_strdown, g_ascii_tolower);
}

static const SlTemplateFunctionOps echo_ops = { .eval = echo_eval };

static const SlDriverClass echo_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "echo",
  .summary = "its arguments, as they render",
  .ops.template_function = &echo_ops,
};

static const SlTemplateFunctionOps uppercase_ops = { .eval = uppercase_eval };

static const SlDriverClass uppercase_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "uppercase",
  .summary = "its arguments in upper case (Unicode)",
  .ops.template_function = &uppercase_ops,
};

static const SlTemplateFunctionOps lowercase_ops = { .eval = lowercase_eval };

static const SlDriverClass lowercase_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "lowercase",
  .summary = "its arguments in lower case (Unicode)",
  .ops.template_function = &lowercase_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "basic-functions",
  .drivers = (const SlDriverClass *const[]) {
    &echo_class, &uppercase_class, &lowercase_class,
    &tf_substr_class, &tf_strip_class, &tf_sanitize_class, &tf_length_class,
    &tf_replace_delimiter_class, &tf_padding_class, &tf_url_encode_class,
    &tf_base64_encode_class, &tf_ipv4_to_int_class,
    &tf_add_class, &tf_subtract_class, &tf_multiply_class, &tf_divide_class, &tf_modulo_class,
    &tf_md5_class, &tf_hash_class, &tf_sha1_class, &tf_sha256_class, &tf_sha512_class,
    &tf_if_class, &tf_dns_resolve_ip_class,
    NULL
  },
};
