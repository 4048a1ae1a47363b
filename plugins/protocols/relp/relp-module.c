/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "plugins/protocols/relp/relp-module.h"

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "relp",
  .drivers = (const SlDriverClass *const[]) { &relp_source_class, &relp_destination_class, NULL },
  .rsyslog_modules = (const SlRsModule *const[]) { &relp_omrelp, &relp_imrelp, NULL },
};
