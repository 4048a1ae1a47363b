/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: any bytes as a process accounting record, as file()
 * with format("pacct") hands them over: the counters of struct acct_v3
 * (comp_t floating point among them) come from a file anyone who can
 * write it controls. */
#include "core/plugin/plugin.h"
#include "core/compile/loader.h"
#include "core/plugin/registry.h"

#include <stdlib.h>

extern const SlModule sl_module;

int
LLVMFuzzerTestOneInput (const guint8 *data, gsize size)
{
  static const SlDriverClass *format;
  if (!format)
    {
      if (!sl_plugins_register (&sl_module, __FILE__, NULL))
        abort ();
      format = sl_plugins_lookup (SL_DRIVER_FORMAT, "pacct");
    }
  SlParseOptions options = { .default_pri = 13 };
  SlMessage *msg = sl_message_new ((const gchar *) data, size);
  sl_time_now (&msg->recvd);
  format->ops.format->parse (msg, &options);
  sl_message_unref (msg);
  return 0;
}
