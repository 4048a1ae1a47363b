/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: any bytes as a load balancer (or anyone else) could
 * send them before a client's lines, through the PROXY header parser; a
 * verdict on a prefix never contradicts the verdict on the whole. */
#include "core/io/proxy-header.h"

#include <stdlib.h>

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  SlProxyHeader header;
  gsize consumed = 0;
  SlProxyHeaderStatus whole = sl_proxy_header_parse (data, size, &header, &consumed);
  if (whole == SL_PROXY_HEADER_DONE && (consumed == 0 || consumed > size || consumed > SL_PROXY_HEADER_MAX))
    abort ();
  if (whole == SL_PROXY_HEADER_DONE && !header.local && header.ip_version != 4 && header.ip_version != 6)
    abort ();
  /* a header that is done or refused was not incomplete at its end */
  if (size > 0 && whole != SL_PROXY_HEADER_INCOMPLETE)
    {
      gsize end = whole == SL_PROXY_HEADER_DONE ? consumed : size;
      SlProxyHeaderStatus before = sl_proxy_header_parse (data, end - 1, &header, &consumed);
      if (whole == SL_PROXY_HEADER_DONE && before != SL_PROXY_HEADER_INCOMPLETE)
        abort ();
    }
  return 0;
}
