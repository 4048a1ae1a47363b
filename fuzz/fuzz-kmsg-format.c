/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: any bytes as a /dev/kmsg record ("PRI,SEQ,USEC,FLAGS;
 * text" and its " KEY=VALUE" lines) through format("linux-kmsg"): every
 * number the kernel writes is read from bytes a test can make up. */
#include "plugins/sources/kmsg/kmsg-private.h"
#include "core/compile/loader.h"

#include <stdlib.h>

extern const SlModule sl_module;

int
LLVMFuzzerTestOneInput (const guint8 *data, gsize size)
{
  static gboolean registered;
  if (!registered)
    {
      if (!sl_plugins_register (&sl_module, __FILE__, NULL))
        abort ();
      registered = TRUE;
    }
  for (gint mode = 0; mode < 2; mode++)
    {
      SlParseOptions options = { .default_pri = 13, .store_raw = mode == 1 };
      SlMessage *msg = sl_message_new ((const gchar *) data, size);
      sl_time_now (&msg->recvd);
      /* a boot time far back and one near the epoch: stamps are the sum */
      kmsg_parse (msg, mode ? 1 : G_GINT64_CONSTANT (1700000000000000), &options);
      sl_message_unref (msg);
    }
  return 0;
}
