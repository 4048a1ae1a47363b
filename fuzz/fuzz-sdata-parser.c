/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: any bytes as the text sdata-parser() reads, the first
 * byte choosing its prefix: whatever the text, the parser returns, and
 * each field it sets is no longer than the text. */
#include "tests/unit/parser-harness.h"
#include "core/compile/loader.h"

#include <stdlib.h>

extern const SlModule sl_module;

static const gchar *const configs[] = {
  "sdata-parser()",
  "sdata-parser(prefix(\"\"))",
  "sdata-parser(template(\"${sd}\") prefix(\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
  "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"))",
};

static gsize input_len;

static gboolean
check_field (SlHandle h, const gchar *value, gsize len, gpointer user_data)
{
  if (len > input_len)
    abort ();
  return TRUE;
}

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
  input_len = size - 1;
  SlMessage *msg = sl_message_new ("", 0);
  sl_message_set (msg, SL_F_MESSAGE, (const gchar *) data + 1, size - 1);
  sl_message_set (msg, sl_field_handle ("sd"), (const gchar *) data + 1, size - 1);
  sl_test_parser_process (&parsers[data[0] % G_N_ELEMENTS (configs)], &msg);
  sl_message_foreach_dynamic (msg, check_field, NULL);
  sl_message_unref (msg);
  return 0;
}
