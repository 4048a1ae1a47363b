/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: any bytes as a message's text through xml(), the
 * first byte choosing its options: whatever the document, the parser
 * returns, and a field it sets is never longer than what was read and
 * what the field held before, put together. */
#include "tests/unit/parser-harness.h"
#include "core/compile/loader.h"

#include <stdlib.h>

extern const SlModule sl_module;

static const gchar *const configs[] = {
  "xml()",
  "xml(prefix(\"x.\") create-lists(no) strip-whitespaces(yes))",
  "xml(exclude-tags(\"a*\" \"?b\") drop-invalid(yes))",
};

int
LLVMFuzzerTestOneInput (const guint8 *data, gsize size)
{
  static SlTestParser parsers[G_N_ELEMENTS (configs)];
  static gboolean made;
  if (!made)
    {
      if (!sl_plugins_register (&sl_module, __FILE__, NULL))
        abort ();
      for (guint i = 0; i < G_N_ELEMENTS (configs); i++)
        sl_test_parser_init (&parsers[i], configs[i]);
      made = TRUE;
    }
  if (!size)
    return 0;
  SlMessage *msg = sl_message_new ("", 0);
  sl_message_set (msg, SL_F_MESSAGE, (const gchar *) data + 1, size - 1);
  sl_test_parser_process (&parsers[data[0] % G_N_ELEMENTS (configs)], &msg);
  sl_message_unref (msg);
  return 0;
}
