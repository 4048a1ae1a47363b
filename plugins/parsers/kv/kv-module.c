/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kv-parser plugin: kv-parser(), and linux-audit-parser() and
 * snmptrapd-parser(), which read through its scanner. */
#include "plugins/parsers/kv/kv-parser.h"

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "kv-parser",
  .drivers = (const SlDriverClass *const[]) { &kv_parser_class, &linux_audit_parser_class, &snmptrapd_parser_class, NULL },
};
