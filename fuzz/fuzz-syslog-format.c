/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: any bytes as a received frame through the syslog
 * format (RFC 3164 and 5424 detection and parsing), in every parse mode,
 * 3.38's reading and 4.8's. */
#include "core/plugin/plugin.h"
#include "core/compile/loader.h"
#include "core/plugin/registry.h"

#include <stdlib.h>
#include <string.h>

extern const SlModule sl_module;

int
LLVMFuzzerTestOneInput (const guint8 *data, gsize size)
{
  static const SlDriverClass *format;
  if (!format)
    {
      if (!sl_plugins_register (&sl_module, __FILE__, NULL))
        abort ();
      format = sl_plugins_lookup (SL_DRIVER_FORMAT, "syslog");
    }
  /* each mode as syslog-ng 3.38 reads and as 4.8 does (@version: 4.x) */
  for (gint mode = 0; mode < 6; mode++)
    {
      SlParseOptions options = { .default_pri = 13, .syslog_protocol = mode % 3 == 1, .store_raw = mode % 3 == 2,
                                 .detect_syslog_protocol = mode % 3 == 2, .syslog_ng_4 = mode >= 3 };
      SlMessage *msg = sl_message_new ((const gchar *) data, size);
      sl_time_now (&msg->recvd);
      format->ops.format->parse (msg, &options);
      sl_message_unref (msg);
    }
  return 0;
}
