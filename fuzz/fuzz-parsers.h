/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the parser targets share: the first byte of the input chooses one
 * of the plugin's configurations, the rest is MESSAGE. */
#ifndef SL_FUZZ_PARSERS_H
#define SL_FUZZ_PARSERS_H

#include "tests/unit/parser-harness.h"
#include "core/compile/loader.h"

#include <stdlib.h>

extern const SlModule sl_module;

static inline void
sl_fuzz_parse (const gchar *const *configs, gsize n, SlTestParser *parsers, const guint8 *data, gsize size)
{
  static gboolean made;
  if (!made)
    {
      if (!sl_plugins_register (&sl_module, __FILE__, NULL))
        abort ();
      for (gsize i = 0; i < n; i++)
        sl_test_parser_init (&parsers[i], configs[i]);
      made = TRUE;
    }
  if (!size)
    return;
  gchar *text = g_strndup ((const gchar *) data + 1, size - 1);
  SlMessage *msg = sl_test_message (text);
  sl_test_parser_process (&parsers[data[0] % n], &msg);
  sl_message_unref (msg);
  g_free (text);
}

#endif
