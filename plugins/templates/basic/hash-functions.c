/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Digests of their arguments, joined, in lowercase hex: $(md5 ...),
 * $(hash ...) (the same as md5), $(sha1 ...), $(sha256 ...), $(sha512 ...),
 * each with syslog-ng's --length N (-l N) to keep the first N digits. */
#include "plugins/templates/basic/basic-private.h"
#include "core/i18n.h"

#include <errno.h>
#include <string.h>

typedef struct
{
  gint first;      /* the first argument to digest */
  gsize length;    /* digits kept; 0 for all */
} TfHash;

/* One GChecksum of each type per thread, reset between messages. */
#define TF_CHECKSUM_TYPES (G_CHECKSUM_SHA384 + 1)

static void
checksums_free (gpointer p)
{
  GChecksum **checksums = p;
  for (guint i = 0; i < TF_CHECKSUM_TYPES; i++)
    if (checksums[i])
      g_checksum_free (checksums[i]);
  g_free (checksums);
}

static GPrivate checksums_key = G_PRIVATE_INIT (checksums_free);

static GChecksum *
thread_checksum (GChecksumType type)
{
  GChecksum **checksums = g_private_get (&checksums_key);
  if (!checksums)
    {
      checksums = g_new0 (GChecksum *, TF_CHECKSUM_TYPES);
      g_private_set (&checksums_key, checksums);
    }
  if (!checksums[type])
    checksums[type] = g_checksum_new (type);
  else
    g_checksum_reset (checksums[type]);
  return checksums[type];
}

static gboolean
hash_prepare (SlTfCall *call, GError **error)
{
  TfHash *h = g_new0 (TfHash, 1);
  call->state = h;
  if (call->argc >= 1 && (g_str_equal (call->args[0], "--length") || g_str_equal (call->args[0], "-l")))
    {
      gchar *end = NULL;
      guint64 length = call->argc >= 2 ? g_ascii_strtoull (call->args[1], &end, 10) : 0;
      if (!end || end == call->args[1] || *end || !length)
        {
          tf_usage_error (call, error, _("an optional --length N (N above 0), then texts"));
          return FALSE;
        }
      h->length = length;
      h->first = 2;
    }
  return TRUE;
}

static void
hash_eval (GChecksumType type, const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  const TfHash *h = call->state;
  GString *text = tf_scratch_acquire ();
  tf_render_args (call, h->first, NULL, msg, env, text);
  GChecksum *checksum = thread_checksum (type);
  g_checksum_update (checksum, (const guchar *) text->str, text->len);
  const gchar *digest = g_checksum_get_string (checksum);
  gsize len = strlen (digest);
  g_string_append_len (out, digest, h->length ? MIN (h->length, len) : len);
  tf_scratch_release ();
}

static void
md5_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  hash_eval (G_CHECKSUM_MD5, call, msg, env, out);
}

static void
sha1_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  hash_eval (G_CHECKSUM_SHA1, call, msg, env, out);
}

static void
sha256_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  hash_eval (G_CHECKSUM_SHA256, call, msg, env, out);
}

static void
sha512_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  hash_eval (G_CHECKSUM_SHA512, call, msg, env, out);
}

static const SlTemplateFunctionOps md5_ops = { .prepare = hash_prepare, .eval = md5_eval, .free = g_free };

const SlDriverClass tf_md5_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "md5",
  .summary = "the MD5 digest of its arguments",
  .ops.template_function = &md5_ops,
};

const SlDriverClass tf_hash_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "hash",
  .summary = "the MD5 digest of its arguments",
  .ops.template_function = &md5_ops,
};

static const SlTemplateFunctionOps sha1_ops = { .prepare = hash_prepare, .eval = sha1_eval, .free = g_free };

const SlDriverClass tf_sha1_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "sha1",
  .summary = "the SHA-1 digest of its arguments",
  .ops.template_function = &sha1_ops,
};

static const SlTemplateFunctionOps sha256_ops = {
  .prepare = hash_prepare,
  .eval = sha256_eval,
  .free = g_free,
};

const SlDriverClass tf_sha256_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "sha256",
  .summary = "the SHA-256 digest of its arguments",
  .ops.template_function = &sha256_ops,
};

static const SlTemplateFunctionOps sha512_ops = {
  .prepare = hash_prepare,
  .eval = sha512_eval,
  .free = g_free,
};

const SlDriverClass tf_sha512_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "sha512",
  .summary = "the SHA-512 digest of its arguments",
  .ops.template_function = &sha512_ops,
};
