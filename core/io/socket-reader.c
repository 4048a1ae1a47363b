/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/io/socket-reader.h"
#include "core/io/dgram.h"

struct _SlSocketReader
{
  SlListener *listener;
  SlDgramReader *dgram;
};

SlSocketReader *
sl_socket_reader_start (SlSource *src, gint fd, gboolean stream,
                        const SlListenerSettings *settings, GError **error)
{
  SlSocketReader *r = g_new0 (SlSocketReader, 1);
  if (stream)
    r->listener = sl_listener_start (src, fd, settings, error);
  else
    r->dgram = sl_dgram_reader_start (src, fd, FALSE, error);
  if (!r->listener && !r->dgram)
    {
      g_free (r);
      return NULL;
    }
  return r;
}

void
sl_socket_reader_stop (SlSocketReader *r)
{
  if (r->listener)
    sl_listener_stop (r->listener);
  if (r->dgram)
    sl_dgram_reader_stop (r->dgram);
  g_free (r);
}
