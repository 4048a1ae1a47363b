/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* rsyslog's output modules that no plugin serves, refused; and omuxsock's
 * legacy directives. */
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

/* omuxsock sends each message as one datagram to a Unix socket, in
 * RSYSLOG_TraditionalForwardFormat unless $OMUxSockDefaultTemplate or the
 * action names another. $OMUxSockSocket counts for the next :omuxsock:
 * only, as in rsyslogd, which refuses one without a socket, and its
 * directives before the module is loaded. */
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

gchar *
sl_rs_legacy_uxsock (SlRsConf *c, const gchar *template_name, SlCfgPos pos, GError **error)
{
  g_autofree gchar *socket = g_steal_pointer (&c->uxsock_socket);
  const gchar *format = template_name ? template_name : c->uxsock_template ? c->uxsock_template
                                                                           : "RSYSLOG_TraditionalForwardFormat";

  if (!socket)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos, _("rsyslog's :omuxsock: needs $OMUxSockSocket before it"));
      return NULL;
    }
  g_autofree gchar *object = sl_rs_template_ref (c, format, pos, error);
  if (!object)
    return NULL;
  g_autoptr (GString) drivers = g_string_new ("unix-dgram(");
  sl_rs_quote (drivers, socket);
  g_string_append_printf (drivers, " template(%s)", object);
  for (guint i = 0; c->action_queue && i < c->action_queue->len; i++)
    g_string_append_printf (drivers, " %s", (const gchar *) g_ptr_array_index (c->action_queue, i));
  g_string_append (drivers, ");");
  return sl_rs_emit_destination (c, pos, drivers->str, error);
}
