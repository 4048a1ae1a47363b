/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: any text through kv-parser() and linux-audit-parser()
 * (whose hex-encoded values are decoded). */
#include "fuzz/fuzz-parsers.h"

static const gchar *const configs[] = {
  "kv-parser()",
  "kv-parser(value-separator(\":\") pair-separator(\";\") prefix(\"kv.\"))",
  "kv-parser(extract-stray-words-into(\"stray\"))",
  "linux-audit-parser(prefix(\".auditd.\"))",
};

int
LLVMFuzzerTestOneInput (const guint8 *data, gsize size)
{
  static SlTestParser parsers[G_N_ELEMENTS (configs)];
  sl_fuzz_parse (configs, G_N_ELEMENTS (configs), parsers, data, size);
  return 0;
}
