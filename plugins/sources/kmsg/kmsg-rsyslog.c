/* SPDX-License-Identifier: GPL-2.0-or-later */
/* imkmsg as kmsg(optional(yes)): every record of /dev/kmsg, whatever its
 * facility (what programs write there too, unlike imklog), tagged
 * "kernel:"; it takes no parameter in rsyslogd 8.2302. The $! variables
 * imkmsg sets are kmsg()'s .linux.* fields (doc/rsyslog.md, "Known
 * differences"). */
#include "plugins/sources/kmsg/kmsg-rsyslog.h"

static gboolean
imkmsg_write (SlRsCall *call, GString *driver, GError **error)
{
  g_string_append (driver, "kmsg(optional(yes))");
  return TRUE;
}

const SlRsModule kmsg_imkmsg = {
  "imkmsg", SL_RS_MODULE_INPUT, NULL, NULL, imkmsg_write, SL_RS_MODULE_INPUT_AT_LOAD,
};
