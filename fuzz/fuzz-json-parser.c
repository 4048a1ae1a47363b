/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: any bytes as a message's text through json-parser(),
 * the first byte choosing its options; every text must come out of the
 * single-pass scanner as it comes out of jansson's tree. */
#include "plugins/parsers/json/json-check.h"
#include "core/compile/loader.h"

#include <stdlib.h>

extern const SlModule sl_module;

static const gchar *const configs[] = {
  "json-parser()",
  "json-parser(prefix(\"json.\") key-delimiter(\"/\"))",
  "json-parser(marker(\"@cee:\"))",
  "json-parser(extract-prefix(\"a.b[1]\") prefix(\"e.\"))",
  "json-parser(extract-prefix(\"[0]\"))",
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
  json_check_against_tree (&parsers[data[0] % G_N_ELEMENTS (configs)], (const gchar *) data + 1, size - 1);
  return 0;
}
