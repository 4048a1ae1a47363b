/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* rsyslog's output modules that no plugin serves, refused; and omuxsock's
 * legacy directives, whose socket the next :omuxsock: takes. */
#include "daemon/rsyslog/rsyslog-private.h"

#include "core/config/error.h"
#include "core/i18n.h"

#include <string.h>

gchar *
sl_rs_output_action (SlRsConf *c, GPtrArray *params, const gchar *type, SlCfgPos pos, GError **error)
{
  sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, pos, _("rsyslog's action type '%s' is not supported"), type);
  return NULL;
}

/* $OMUxSockSocket counts for the next :omuxsock: only, as in rsyslogd,
 * which refuses its directives before the module is loaded;
 * $OMUxSockDefaultTemplate is omuxsock's template= for every later one. */
gboolean
sl_rs_uxsock_directive (SlRsConf *c, const gchar *name, const gchar *value, SlCfgPos pos, GError **error)
{
  gchar **slot = g_ascii_strcasecmp (name, "OMUxSockSocket") == 0            ? &c->uxsock_socket
                 : g_ascii_strcasecmp (name, "OMUxSockDefaultTemplate") == 0 ? &c->uxsock_template
                                                                              : NULL;

  if (!slot)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, pos, _("the rsyslog directive '$%s' is not supported"), name);
      return FALSE;
    }
  if (!c->uxsock_loaded)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos, _("$%s needs $ModLoad omuxsock before it"), name);
      return FALSE;
    }
  g_free (*slot);
  *slot = g_strdup (value);
  return TRUE;
}
