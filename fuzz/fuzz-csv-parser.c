/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: any text through csv-parser() in its dialects and
 * delimiters. */
#include "fuzz/fuzz-parsers.h"

#define COLUMNS "columns(\"a\" \"b\" \"c\")"

static const gchar *const configs[] = {
  "csv-parser(" COLUMNS ")",
  "csv-parser(" COLUMNS " delimiters(chars(\",;\") strings(\"::\" \"=>\")) quote-pairs('\"\"[]'))",
  "csv-parser(" COLUMNS " dialect(escape-backslash) flags(greedy))",
  "csv-parser(" COLUMNS " dialect(escape-double-char) flags(strip-whitespace drop-invalid))",
};

int
LLVMFuzzerTestOneInput (const guint8 *data, gsize size)
{
  static SlTestParser parsers[G_N_ELEMENTS (configs)];
  sl_fuzz_parse (configs, G_N_ELEMENTS (configs), parsers, data, size);
  return 0;
}
