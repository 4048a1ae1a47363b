/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mmjsonparse as json-parser(): the JSON after cookie= ("@cee:") becomes
 * $! variables (fields under "!") keeping their JSON types; a message that is not one goes on with
 * its text as $!msg, which the front end arranges for this module. */
#include "plugins/parsers/json/json-rsyslog.h"

static const gchar *const mmjsonparse_params[] = { "cookie", "userawmsg", NULL };

static gboolean
mmjsonparse_write (SlRsCall *call, GString *driver, GError **error)
{
  const gchar *cookie = sl_rs_call_value (call, "cookie");

  g_string_append (driver, "json-parser(prefix(\"!\") types(rsyslog)");
  sl_rs_text_option (driver, "marker", cookie ? cookie : "@cee:");
  g_string_append_c (driver, ')');
  return TRUE;
}

const SlRsModule json_mmjsonparse = {
  "mmjsonparse", SL_RS_MODULE_MODIFIER, mmjsonparse_params, NULL, mmjsonparse_write, SL_RS_MODULE_UNPARSED_AS_MSG,
};
