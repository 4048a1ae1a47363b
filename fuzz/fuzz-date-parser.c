/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: any text through date-parser(): the numbers of a
 * stamp (years, days of the year, fractions, zone offsets) as a sender
 * writes them. */
#include "fuzz/fuzz-parsers.h"

static const gchar *const configs[] = {
  "date-parser()",
  "date-parser(format(\"%d/%b/%Y:%H:%M:%S %Z\"))",
  "date-parser(format(\"%Y %j %T %z\"))",
  "date-parser(format(\"%FT%H:%M:%S.%f%Z\"))",
  "date-parser(format(\"%s\"))",
  "date-parser(format(\"%C %z\" \"%A, %B %e %Y %r %Z\"))",
};

int
LLVMFuzzerTestOneInput (const guint8 *data, gsize size)
{
  static SlTestParser parsers[G_N_ELEMENTS (configs)];
  sl_fuzz_parse (configs, G_N_ELEMENTS (configs), parsers, data, size);
  return 0;
}
