/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: any text through utf8-fix(), anonymize-ip() and
 * split-fields(), which change or cut what senders wrote. */
#include "fuzz/fuzz-parsers.h"

static const gchar *const configs[] = {
  "utf8-fix()",
  "utf8-fix(mode(control-characters) replacement(\"?\"))",
  "anonymize-ip()",
  "anonymize-ip(bits(32))",
  "anonymize-ip(mode(simple) bits(24))",
  "anonymize-ip(mode(random-consistent) bits(7))",
  "split-fields()",
  "split-fields(separator(\" \") prefix(\"x.f\") json-field(\"x\"))",
};

int
LLVMFuzzerTestOneInput (const guint8 *data, gsize size)
{
  static SlTestParser parsers[G_N_ELEMENTS (configs)];
  sl_fuzz_parse (configs, G_N_ELEMENTS (configs), parsers, data, size);
  return 0;
}
