/* SPDX-License-Identifier: GPL-2.0-or-later */
/* omusrmsg as usertty(): one for each user of users= (every user, "*",
 * when not written), which legacy :omusrmsg:a,b, a,b and * are. */
#include "plugins/destinations/usertty/usertty-rsyslog.h"

static const gchar *const omusrmsg_params[] = { "users", NULL };

static gboolean
omusrmsg_write (SlRsCall *call, GString *driver, GError **error)
{
  const gchar *users = sl_rs_call_value (call, "users");
  g_auto (GStrv) names = g_strsplit (users ? users : "*", ",", -1);

  for (guint i = 0; names[i]; i++)
    if (*g_strstrip (names[i]))
      {
        g_string_append (driver, driver->len ? "; usertty(" : "usertty(");
        sl_rs_text_quote (driver, names[i]);
        g_string_append_c (driver, ')');
      }
  return TRUE;
}

const SlRsModule usertty_omusrmsg = {
  "omusrmsg", SL_RS_MODULE_OUTPUT, omusrmsg_params, NULL, omusrmsg_write, SL_RS_MODULE_BUILTIN,
};
