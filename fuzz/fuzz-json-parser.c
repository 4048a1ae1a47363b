/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: any bytes as a message's text through json-parser(),
 * the first byte choosing its options and the configuration's version.
 * Under 3.x every text must come out of the single-pass scanner as it
 * comes out of jansson's tree; under 4.x (typed values, json-typed.c) it
 * goes through the typed reader, whose values must all be readable. */
#include "plugins/parsers/json/json-check.h"
#include "core/compile/loader.h"

#include <stdlib.h>
#include <string.h>

extern const SlModule sl_module;

static const gchar *const configs[] = {
  "json-parser()",
  "json-parser(prefix(\"json.\") key-delimiter(\"/\"))",
  "json-parser(marker(\"@cee:\"))",
  "json-parser(extract-prefix(\"a.b[1]\") prefix(\"e.\"))",
  "json-parser(extract-prefix(\"[0]\"))",
};

static gboolean
read_typed (SlHandle h, const gchar *value, gsize len, gpointer user_data)
{
  const SlMessage *msg = user_data;
  SlValueType type;
  gsize got;
  const gchar *again = sl_message_get_typed (msg, h, &got, &type);
  if (!again || got != len || memcmp (again, value, len) != 0 || type > SL_VALUE_NULL)
    abort ();
  return TRUE;
}

int
LLVMFuzzerTestOneInput (const guint8 *data, gsize size)
{
  enum { N = G_N_ELEMENTS (configs) };
  static SlTestParser parsers[N], typed[N];
  static gboolean made;
  if (!made)
    {
      if (!sl_plugins_register (&sl_module, __FILE__, NULL))
        abort ();
      for (guint i = 0; i < N; i++)
        {
          sl_test_parser_init (&parsers[i], configs[i]);
          sl_test_parser_init_version (&typed[i], "4.8", configs[i]);
        }
      made = TRUE;
    }
  if (!size)
    return 0;
  guint choice = data[0] % (2 * N);
  if (choice < N)
    {
      json_check_against_tree (&parsers[choice], (const gchar *) data + 1, size - 1);
      return 0;
    }
  SlMessage *msg = sl_test_message ("");
  sl_message_set (msg, SL_F_MESSAGE, (const gchar *) data + 1, (gssize) size - 1);
  sl_test_parser_process (&typed[choice - N], &msg);
  sl_message_foreach_dynamic (msg, read_typed, msg);
  sl_message_unref (msg);
  return 0;
}
