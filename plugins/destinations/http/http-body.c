/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Request bodies: body-prefix(), the messages rendered with body() and
 * joined by delimiter(), body-suffix(); cut at batch-lines() messages or
 * before batch-bytes() would be passed; gzip when content-compression()
 * asks for it. */
#include "plugins/destinations/http/http-destination.h"
#include "core/i18n.h"
#include "core/internal.h"

#include <zlib.h>

guint
http_body_build (HttpDestination *self, SlMessage *const *msgs, const guint *members, guint n, GString *body)
{
  g_string_truncate (body, 0);
  if (self->body_prefix)
    g_string_append (body, self->body_prefix);
  gsize limit = self->batch_bytes > 0 ? (gsize) self->batch_bytes : G_MAXSIZE;
  guint max = MIN (n, (guint) MAX (self->batch_lines, 1));
  guint taken = 0;
  for (; taken < max; taken++)
    {
      gsize before = body->len;
      if (taken && self->delimiter)
        g_string_append (body, self->delimiter);
      sl_template_append (self->body, msgs[members[taken]], &self->env, body);
      /* the message that passes the limit waits for the next request,
       * unless it is the first: a message is never split */
      if (taken && body->len > limit)
        {
          g_string_truncate (body, before);
          break;
        }
    }
  if (self->body_suffix)
    g_string_append (body, self->body_suffix);
  return taken;
}

gboolean
http_body_compress (HttpDestination *self, GString *body)
{
  if (self->compression != HTTP_COMPRESS_GZIP)
    return TRUE;
  z_stream z = { 0 };
  /* 16 + MAX_WBITS: a gzip header and trailer rather than zlib's */
  if (deflateInit2 (&z, Z_BEST_SPEED, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    {
      sl_log (SL_LOG_ERROR, _("cannot compress a request body; driver='%s'"), self->super.id);
      return FALSE;
    }
  gsize bound = deflateBound (&z, body->len);
  GString *out = self->rendered;
  g_string_set_size (out, bound);
  z.next_in = (Bytef *) body->str;
  z.avail_in = body->len;
  z.next_out = (Bytef *) out->str;
  z.avail_out = bound;
  gint rc = deflate (&z, Z_FINISH);
  gsize len = z.total_out;
  deflateEnd (&z);
  if (rc != Z_STREAM_END)
    {
      sl_log (SL_LOG_ERROR, _("cannot compress a request body; driver='%s'"), self->super.id);
      return FALSE;
    }
  g_string_truncate (body, 0);
  g_string_append_len (body, out->str, len);
  return TRUE;
}
