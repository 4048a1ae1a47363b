/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: any bytes as a STOMP broker (or anyone on its port)
 * could send them to stomp(), through the frame reader in each version; a
 * frame read from the whole is read the same from the whole plus more,
 * and no proper prefix of it is a frame already. */
#include "plugins/destinations/stomp/stomp-frame.h"

#include <stdlib.h>
#include <string.h>

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  static StompFrame frame, again;
  static gboolean ready;
  if (!ready)
    {
      stomp_frame_init (&frame);
      stomp_frame_init (&again);
      ready = TRUE;
    }
  for (StompVersion v = STOMP_1_0; v <= STOMP_1_2; v++)
    {
      gsize used = 0;
      GError *error = NULL;
      StompParse whole = stomp_frame_parse ((const gchar *) data, size, v, &frame, &used, &error);
      if ((whole == STOMP_PARSE_ERROR) != (error != NULL))
        abort ();
      g_clear_error (&error);
      if (whole != STOMP_PARSE_FRAME)
        continue;
      if (used == 0 || used > size || !frame.command || !*frame.command
          || frame.names->len != frame.values->len || frame.names->len > STOMP_HEADERS_MAX)
        abort ();
      gsize prefix_used = 0;
      if (stomp_frame_parse ((const gchar *) data, used - 1, v, &again, &prefix_used, NULL) == STOMP_PARSE_FRAME)
        abort ();
      gsize used_again = 0;
      if (stomp_frame_parse ((const gchar *) data, used, v, &again, &used_again, NULL) != STOMP_PARSE_FRAME
          || used_again != used || strcmp (again.command, frame.command) != 0 || again.body->len != frame.body->len
          || memcmp (again.body->str, frame.body->str, frame.body->len) != 0)
        abort ();
    }
  return 0;
}
