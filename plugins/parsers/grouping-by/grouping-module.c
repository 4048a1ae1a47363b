/* SPDX-License-Identifier: GPL-2.0-or-later */
/* syslog-ng's grouping parsers: grouping-by() and group-lines(). */
#include "plugins/parsers/grouping-by/grouping-private.h"

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "grouping-by",
  .drivers = (const SlDriverClass *const[]) { &grouping_by_class, &group_lines_class, NULL },
};
