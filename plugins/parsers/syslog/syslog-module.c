/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The syslog plugin: format("syslog") of sources, which reads RFC 3164 and
 * RFC 5424 lines in place, syslog-parser(), which reads one out of a
 * message's MESSAGE, and sdata-parser(), which reads structured data
 * (rsyslog's mmpstrucdata: sdata-rsyslog.c). */
#include "plugins/parsers/syslog/syslog-private.h"

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "syslog",
  .drivers = (const SlDriverClass *const[]) { &syslog_format_class, &syslog_parser_class, &syslog_sdata_parser_class, NULL },
  .rsyslog_modules = (const SlRsModule *const[]) { &syslog_mmpstrucdata, NULL },
};
