/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog's omrelp and imrelp as relp(). omrelp's port is 514 and its
 * format RSYSLOG_ForwardFormat unless told otherwise; a window of 0 is
 * librelp's own, 128 as relp()'s. Keepalive timings change when a dead
 * peer is noticed, not what is sent or read. */
#include "plugins/protocols/relp/relp-module.h"
#include "core/i18n.h"

static const gchar *const omrelp_params[] = {
  "target", "port", "template", "timeout", "conn.timeout", "windowsize", "rebindinterval", "keepalive",
  "keepalive.probes", "keepalive.interval", "keepalive.time", "tls", "tls.compression", "tls.cacert", "tls.mycert",
  "tls.myprivkey", "tls.authmode", "tls.permittedpeer", "tls.prioritystring", "tls.tlscfgcmd", "localclient", NULL,
};
static const gchar *const omrelp_tls[] = {
  "tls", "tls.compression", "tls.cacert", "tls.mycert", "tls.myprivkey", "tls.authmode", "tls.permittedpeer",
  "tls.prioritystring", "tls.tlscfgcmd",
};
/* what module(load=) takes: the TLS library, of no use without TLS */
static const gchar *const relp_module_params[] = { "tls.tlslib", NULL };

static gboolean
omrelp_write (SlRsCall *call, GString *driver, GError **error)
{
  static const struct
  {
    const gchar *param;
    const gchar *option;
  } same[] = {
    { "timeout", "timeout" }, { "conn.timeout", "conn-timeout" }, { "rebindinterval", "rebind-interval" },
  };
  const gchar *port = sl_rs_call_value (call, "port");
  const gchar *window = sl_rs_call_value (call, "windowsize");

  for (guint i = 0; i < G_N_ELEMENTS (omrelp_tls); i++)
    if (!sl_rs_call_refuse (call, omrelp_tls[i], error,
                            _("RELP over TLS is not mapped; relp(tls(...)) of Sluice's language does it")))
      return FALSE;
  if (!sl_rs_call_refuse (call, "localclient", error, _("relp() binds no local address")))
    return FALSE;
  if (!sl_rs_call_value (call, "target"))
    return sl_rs_call_fail (call, NULL, error, _("rsyslog's omrelp needs target="));
  g_autofree gchar *template = sl_rs_call_template (call, sl_rs_call_value (call, "template")
                                                            ? sl_rs_call_value (call, "template")
                                                            : "RSYSLOG_ForwardFormat", error);
  if (!template)
    return FALSE;
  g_string_append (driver, "relp(");
  sl_rs_text_quote (driver, sl_rs_call_value (call, "target"));
  sl_rs_text_option (driver, "port", port && *port ? port : "514");
  g_string_append_printf (driver, " template(%s)", template);
  for (guint i = 0; i < G_N_ELEMENTS (same); i++)
    if (sl_rs_call_value (call, same[i].param))
      sl_rs_text_option (driver, same[i].option, sl_rs_call_value (call, same[i].param));
  if (window && g_ascii_strtoll (window, NULL, 10) > 0)
    sl_rs_text_option (driver, "window-size", window);
  if (sl_rs_call_value (call, "keepalive"))
    g_string_append_printf (driver, " so-keepalive(%s)", sl_rs_call_flag (call, "keepalive", FALSE) ? "yes" : "no");
  g_string_append_c (driver, ')');
  return TRUE;
}

static const gchar *const imrelp_params[] = { "port", "address", "keepalive", "keepalive.probes",
                                              "keepalive.interval", "keepalive.time", NULL };

/* imrelp: port= is required, as in rsyslog */
static gboolean
imrelp_write (SlRsCall *call, GString *driver, GError **error)
{
  if (!sl_rs_call_value (call, "port"))
    return sl_rs_call_fail (call, NULL, error, _("rsyslog's imrelp input needs port="));
  g_string_append (driver, "relp(");
  if (sl_rs_call_value (call, "address"))
    {
      g_string_append (driver, "ip(");
      sl_rs_text_quote (driver, sl_rs_call_value (call, "address"));
      g_string_append (driver, ") ");
    }
  g_string_append (driver, "port(");
  sl_rs_text_quote (driver, sl_rs_call_value (call, "port"));
  g_string_append_c (driver, ')');
  if (sl_rs_call_value (call, "keepalive"))
    g_string_append_printf (driver, " so-keepalive(%s)", sl_rs_call_flag (call, "keepalive", FALSE) ? "yes" : "no");
  g_string_append (driver, " keep-hostname(yes))");
  return TRUE;
}

const SlRsModule relp_omrelp = {
  "omrelp", SL_RS_MODULE_OUTPUT, omrelp_params, relp_module_params, omrelp_write,
};
const SlRsModule relp_imrelp = {
  "imrelp", SL_RS_MODULE_INPUT, imrelp_params, relp_module_params, imrelp_write,
};
