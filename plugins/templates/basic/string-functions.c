/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Template functions on text, as syslog-ng has them: $(substr), $(strip),
 * $(sanitize), $(length), $(replace-delimiter), $(padding), $(url-encode),
 * $(base64-encode), $(ipv4-to-int). Lengths, offsets and widths count
 * bytes, as syslog-ng 3.38 counts them (its $(length) of "é" is 2). */
#include "plugins/templates/basic/basic-private.h"
#include "core/i18n.h"

#include <arpa/inet.h>
#include <string.h>

/* $(substr TEXT OFFSET [LENGTH]). Offsets and lengths written as numbers
 * (the usual case: $(substr ${S_DATE} 0 15)) are read once. */

typedef struct
{
  gint64 offset;
  gint64 length;
} SubstrFixed;

static gboolean
substr_prepare (SlTfCall *call, GError **error)
{
  SubstrFixed fixed = { 0 };

  if (call->argc != 2 && call->argc != 3)
    {
      tf_usage_error (call, error, _("a text, an offset and an optional length"));
      return FALSE;
    }
  if (tf_literal_int (call, 1, &fixed.offset) && (call->argc == 2 || tf_literal_int (call, 2, &fixed.length)))
    call->state = g_memdup2 (&fixed, sizeof fixed);
  return TRUE;
}

static void
substr_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  gsize start = out->len;
  gint64 offset, length = 0;
  const SubstrFixed *fixed = call->state;

  if (fixed)
    {
      offset = fixed->offset;
      length = fixed->length;
    }
  else if (!tf_render_int (call, 1, msg, env, &offset)
           || (call->argc == 3 && !tf_render_int (call, 2, msg, env, &length)))
    return;
  sl_template_append (call->arg_templates[0], msg, env, out);

  /* syslog-ng's clamping, case by case: a negative length counts back
   * from the end, an offset or end outside the text gives nothing */
  gint64 total = (gint64) (out->len - start);
  gint64 length_or_rest = call->argc == 3 ? length : total;
  if ((length_or_rest < 0 && -length_or_rest > total) || offset >= total || (offset < 0 && -offset > total)
      || (length_or_rest < 0 && ((offset < 0 && offset > length_or_rest)
                                 || (offset >= 0 && length_or_rest + total - offset < 0))))
    {
      g_string_truncate (out, start);
      return;
    }
  length_or_rest = MIN (length_or_rest, total);
  if (offset < 0)
    offset += total;
  if (length_or_rest < 0)
    length_or_rest = total - offset + length_or_rest;
  if (length_or_rest < 0)
    length_or_rest = 0;
  length_or_rest = MIN (length_or_rest, total - offset);

  memmove (out->str + start, out->str + start + offset, (gsize) length_or_rest);
  g_string_truncate (out, start + (gsize) length_or_rest);
}

/* $(strip TEXT ...): each without the whitespace around it, the empty ones
 * left out. */

static void
strip_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  gboolean any = FALSE;

  for (gint i = 0; i < call->argc; i++)
    {
      gsize mark = out->len;
      if (any)
        g_string_append_c (out, ' ');
      gsize start = out->len;
      sl_template_append (call->arg_templates[i], msg, env, out);
      gsize from = start;
      gsize to = out->len;
      while (from < to && g_ascii_isspace (out->str[from]))
        from++;
      while (to > from && g_ascii_isspace (out->str[to - 1]))
        to--;
      if (from == to)
        {
          g_string_truncate (out, mark);
          continue;
        }
      memmove (out->str + start, out->str + from, to - from);
      g_string_truncate (out, start + (to - from));
      any = TRUE;
    }
}

/* $(sanitize [--ctrl-chars|-c] [--no-ctrl-chars|-C] [--invalid-chars|-i CHARS]
 *            [--replacement|-r CHAR] TEXT ...): each with the characters a
 * file name must not hold replaced, joined by '/'. */

typedef struct
{
  gint first;             /* the first argument that is text */
  gboolean ctrl_chars;
  gboolean invalid[256];
  gchar replacement;
} Sanitize;

static gboolean
sanitize_prepare (SlTfCall *call, GError **error)
{
  Sanitize *s = g_new0 (Sanitize, 1);
  const gchar *invalid = "/";
  s->ctrl_chars = TRUE;
  s->replacement = '_';
  call->state = s;

  gint i = 0;
  for (; i < call->argc && call->args[i][0] == '-'; i++)
    {
      const gchar *opt = call->args[i];
      if (g_str_equal (opt, "--ctrl-chars") || g_str_equal (opt, "-c"))
        s->ctrl_chars = TRUE;
      else if (g_str_equal (opt, "--no-ctrl-chars") || g_str_equal (opt, "-C"))
        s->ctrl_chars = FALSE;
      else if ((g_str_equal (opt, "--invalid-chars") || g_str_equal (opt, "-i")) && i + 1 < call->argc)
        invalid = call->args[++i];
      else if ((g_str_equal (opt, "--replacement") || g_str_equal (opt, "-r")) && i + 1 < call->argc
               && strlen (call->args[i + 1]) == 1)
        s->replacement = call->args[++i][0];
      else
        {
          tf_usage_error (call, error, _("--ctrl-chars, --no-ctrl-chars, --invalid-chars CHARS and "
                                            "--replacement CHAR, then texts"));
          return FALSE;
        }
    }
  s->first = i;
  for (const gchar *c = invalid; *c; c++)
    s->invalid[(guchar) *c] = TRUE;
  return TRUE;
}

static void
sanitize_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  const Sanitize *s = call->state;

  for (gint i = s->first; i < call->argc; i++)
    {
      if (i > s->first)
        g_string_append_c (out, '/');
      gsize start = out->len;
      sl_template_append (call->arg_templates[i], msg, env, out);
      for (gsize k = start; k < out->len; k++)
        {
          guchar c = (guchar) out->str[k];
          if ((s->ctrl_chars && c < 32) || s->invalid[c])
            out->str[k] = s->replacement;
        }
    }
}

/* $(length TEXT ...): the length of each, joined by spaces. */

static void
length_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  for (gint i = 0; i < call->argc; i++)
    {
      if (i)
        g_string_append_c (out, ' ');
      gsize start = out->len;
      sl_template_append (call->arg_templates[i], msg, env, out);
      gsize n = out->len - start;
      g_string_truncate (out, start);
      g_string_append_printf (out, "%" G_GSIZE_FORMAT, n);
    }
}

/* $(replace-delimiter OLD NEW TEXT): each character of OLD in TEXT becomes NEW. */

static gboolean
replace_delimiter_prepare (SlTfCall *call, GError **error)
{
  if (call->argc == 3)
    return TRUE;
  tf_usage_error (call, error, _("the delimiters to replace, the new delimiter and a text"));
  return FALSE;
}

static void
replace_delimiter_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  GString *old = tf_scratch_acquire ();
  GString *replacement = tf_scratch_acquire ();
  GString *text = tf_scratch_acquire ();
  sl_template_append (call->arg_templates[0], msg, env, old);
  sl_template_append (call->arg_templates[1], msg, env, replacement);
  sl_template_append (call->arg_templates[2], msg, env, text);

  for (gsize i = 0; i < text->len; i++)
    {
      if (old->len && memchr (old->str, text->str[i], old->len))
        g_string_append_len (out, replacement->str, replacement->len);
      else
        g_string_append_c (out, text->str[i]);
    }
  tf_scratch_release ();
  tf_scratch_release ();
  tf_scratch_release ();
}

/* $(padding TEXT WIDTH [PAD]): TEXT after as much of PAD (a space by
 * default), repeated, as makes it WIDTH long. */

static gboolean
padding_prepare (SlTfCall *call, GError **error)
{
  if (call->argc == 2 || call->argc == 3)
    return TRUE;
  tf_usage_error (call, error, _("a text, a width and an optional padding text"));
  return FALSE;
}

static void
padding_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  gint64 width;
  if (!tf_render_int (call, 1, msg, env, &width))
    return;

  GString *text = tf_scratch_acquire ();
  GString *pad = tf_scratch_acquire ();
  sl_template_append (call->arg_templates[0], msg, env, text);
  if (call->argc == 3)
    sl_template_append (call->arg_templates[2], msg, env, pad);
  if (!pad->len)
    g_string_assign (pad, " ");

  /* syslog-ng repeats PAD byte by byte, so a cut may split a character */
  gint64 missing = width - (gint64) text->len;
  for (gsize p = 0; missing > 0; missing--)
    {
      g_string_append_c (out, pad->str[p]);
      p = p + 1 < pad->len ? p + 1 : 0;
    }
  g_string_append_len (out, text->str, text->len);
  tf_scratch_release ();
  tf_scratch_release ();
}

/* $(url-encode TEXT ...): all but A-Z a-z 0-9 - . _ ~ as %XX. */

static void
url_encode_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  GString *text = tf_scratch_acquire ();
  tf_render_args (call, 0, NULL, msg, env, text);
  for (gsize i = 0; i < text->len; i++)
    {
      guchar c = (guchar) text->str[i];
      if (g_ascii_isalnum (c) || c == '-' || c == '.' || c == '_' || c == '~')
        g_string_append_c (out, c);
      else
        g_string_append_printf (out, "%%%02X", c);
    }
  tf_scratch_release ();
}

/* $(base64-encode TEXT ...): the texts joined, in base64. */

static void
base64_encode_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  GString *text = tf_scratch_acquire ();
  tf_render_args (call, 0, NULL, msg, env, text);

  gint state = 0;
  gint save = 0;
  gsize start = out->len;
  g_string_set_size (out, start + (text->len / 3 + 1) * 4 + 4);
  gsize n = g_base64_encode_step ((const guchar *) text->str, text->len, FALSE, out->str + start, &state, &save);
  n += g_base64_encode_close (FALSE, out->str + start + n, &state, &save);
  g_string_truncate (out, start + n);
  tf_scratch_release ();
}

/* $(ipv4-to-int ADDRESS ...): each dotted IPv4 address as the number it
 * is, joined by commas; what is no address is left out. */

static void
ipv4_to_int_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  gboolean any = FALSE;

  for (gint i = 0; i < call->argc; i++)
    {
      GString *text = tf_scratch_acquire ();
      sl_template_append (call->arg_templates[i], msg, env, text);
      struct in_addr addr;
      if (strlen (text->str) == text->len && inet_pton (AF_INET, text->str, &addr) == 1)
        {
          if (any)
            g_string_append_c (out, ',');
          g_string_append_printf (out, "%u", (guint) ntohl (addr.s_addr));
          any = TRUE;
        }
      tf_scratch_release ();
    }
}

static const SlTemplateFunctionOps substr_ops = { .prepare = substr_prepare, .eval = substr_eval, .free = g_free };

const SlDriverClass tf_substr_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "substr",
  .summary = "a part of a text: $(substr TEXT OFFSET [LENGTH])",
  .ops.template_function = &substr_ops,
};

static const SlTemplateFunctionOps strip_ops = { .eval = strip_eval };

const SlDriverClass tf_strip_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "strip",
  .summary = "its arguments without surrounding whitespace",
  .ops.template_function = &strip_ops,
};

static const SlTemplateFunctionOps sanitize_ops = {
  .prepare = sanitize_prepare,
  .eval = sanitize_eval,
  .free = g_free,
};

const SlDriverClass tf_sanitize_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "sanitize",
  .summary = "its arguments fit for a file name, joined by '/'",
  .ops.template_function = &sanitize_ops,
};

static const SlTemplateFunctionOps length_ops = { .eval = length_eval };

const SlDriverClass tf_length_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "length",
  .summary = "the length of each argument in bytes",
  .ops.template_function = &length_ops,
};

static const SlTemplateFunctionOps replace_delimiter_ops = {
  .prepare = replace_delimiter_prepare,
  .eval = replace_delimiter_eval,
};

const SlDriverClass tf_replace_delimiter_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "replace-delimiter",
  .summary = "a text with delimiters replaced: $(replace-delimiter OLD NEW TEXT)",
  .ops.template_function = &replace_delimiter_ops,
};

static const SlTemplateFunctionOps padding_ops = { .prepare = padding_prepare, .eval = padding_eval };

const SlDriverClass tf_padding_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "padding",
  .summary = "a text padded on the left to a width: $(padding TEXT WIDTH [PAD])",
  .ops.template_function = &padding_ops,
};

static const SlTemplateFunctionOps url_encode_ops = { .eval = url_encode_eval };

const SlDriverClass tf_url_encode_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "url-encode",
  .summary = "its arguments percent-encoded for a URL",
  .ops.template_function = &url_encode_ops,
};

static const SlTemplateFunctionOps base64_encode_ops = { .eval = base64_encode_eval };

const SlDriverClass tf_base64_encode_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "base64-encode",
  .summary = "its arguments, joined, in base64",
  .ops.template_function = &base64_encode_ops,
};

static const SlTemplateFunctionOps ipv4_to_int_ops = { .eval = ipv4_to_int_eval };

const SlDriverClass tf_ipv4_to_int_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "ipv4-to-int",
  .summary = "IPv4 addresses as numbers",
  .ops.template_function = &ipv4_to_int_ops,
};
