/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "otel-gzip.h"

#include <zlib.h>

gboolean
otel_gunzip (const guint8 *data, gsize len, gsize max, GByteArray *out)
{
  z_stream z = { 0 };
  /* 16: a gzip header and trailer around the deflate stream */
  if (inflateInit2 (&z, 16 + MAX_WBITS) != Z_OK)
    return FALSE;
  z.next_in = (Bytef *) data;
  z.avail_in = (uInt) len;
  gint rc = Z_OK;
  while (rc == Z_OK)
    {
      if (out->len >= max)
        break;
      gsize chunk = MIN (max - out->len, 65536);
      guint at = out->len;
      g_byte_array_set_size (out, at + chunk);
      z.next_out = out->data + at;
      z.avail_out = (uInt) chunk;
      rc = inflate (&z, Z_NO_FLUSH);
      g_byte_array_set_size (out, at + (guint) (chunk - z.avail_out));
    }
  inflateEnd (&z);
  return rc == Z_STREAM_END;
}
