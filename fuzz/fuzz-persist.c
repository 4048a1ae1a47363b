/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: any bytes as the persist file (-R) that sluiced opens
 * at start: a torn, short or foreign file is reported and what is intact
 * used; nothing may crash, leak or write outside the file. */
#include "core/store/persist-private.h"

#include "fuzz/fuzz-file.h"

int
LLVMFuzzerTestOneInput (const guint8 *data, gsize size)
{
  const gchar *path = sl_fuzz_write_file ("fuzz-persist-XXXXXX", data, size);
  if (!path)
    return 0;
  GError *error = NULL;
  if (sl_persist_open (path, &error))
    {
      /* a key the file may hold, set again (in place or grown), and a new one */
      g_free (sl_persist_get ("file(/var/log/messages)"));
      sl_persist_set ("file(/var/log/messages)", "1234 5678");
      sl_persist_set ("journal-cursor", "s=0123456789abcdef;i=1");
      sl_persist_sync (NULL);
    }
  g_clear_error (&error);
  sl_persist_close ();
  return 0;
}
