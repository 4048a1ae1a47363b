/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The modifiers module: what rsyslog's mmutf8fix, mmanon and mmfields do,
 * as parsers of Sluice's language that the rsyslog front end maps them to. */
#include "plugins/parsers/modifiers/modifiers.h"

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "modifiers",
  .drivers = (const SlDriverClass *const[]) { &utf8_fix_class, &anonymize_ip_class, &split_fields_class, NULL },
  .rsyslog_modules = (const SlRsModule *const[]) { &modifiers_mmutf8fix, &modifiers_mmanon, &modifiers_mmfields,
                                                   NULL },
};
