/* SPDX-License-Identifier: GPL-2.0-or-later */
/* geoip2() and $(geoip2), on libmaxminddb (Debian's libmaxminddb-dev): the
 * library MaxMind keeps for its own format, which syslog-ng uses too. */
#include "core/plugin/plugin.h"

extern const SlDriverClass geoip2_parser_class;
extern const SlDriverClass geoip2_function_class;

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "geoip2",
  .drivers = (const SlDriverClass *const[]) { &geoip2_parser_class, &geoip2_function_class, NULL },
};
