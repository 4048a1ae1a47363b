/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: any bytes as a received frame through the syslog
 * format (RFC 3164 and 5424 detection and parsing), in every parse mode. */
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
  for (gint mode = 0; mode < 3; mode++)
    {
      SlParseOptions options = { .default_pri = 13, .syslog_protocol = mode == 1, .store_raw = mode == 2,
                                 .detect_syslog_protocol = mode == 2 };
      SlMessage *msg = sl_message_new ((const gchar *) data, size);
      sl_time_now (&msg->recvd);
      format->ops.format->parse (msg, &options);
      sl_message_unref (msg);
    }
  return 0;
}
