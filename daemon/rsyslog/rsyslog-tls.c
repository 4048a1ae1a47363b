/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* rsyslog's network stream drivers as the tls() of network() and tcp():
 * the default driver's CA, certificate and key (global() or the
 * $DefaultNetstreamDriver* directives) unless an imtcp input names its
 * own, and for each side the driver, its mode (1: TLS) and how the peer
 * is authenticated. See doc/rsyslog.md. */
#include "daemon/rsyslog/rsyslog-private.h"

#include "core/config/error.h"
#include "core/i18n.h"

#include <string.h>

void
sl_rs_tls_clear (SlRsTls *tls)
{
  g_clear_pointer (&tls->driver, g_free);
  g_clear_pointer (&tls->mode, g_free);
  g_clear_pointer (&tls->auth, g_free);
  g_clear_pointer (&tls->peers, g_free);
}

static void
set (gchar **slot, const gchar *value)
{
  g_free (*slot);
  *slot = g_strdup (value);
}

gboolean
sl_rs_tls_setting (SlRsConf *c, const gchar *name, const gchar *value)
{
  const struct
  {
    const gchar *name;
    gchar **slot;
  } settings[] = {
    /* global() and the legacy directives, lower case */
    { "defaultnetstreamdriver", &c->tls_default_driver }, { "defaultnetstreamdrivercafile", &c->tls_ca },
    { "defaultnetstreamdrivercertfile", &c->tls_cert }, { "defaultnetstreamdriverkeyfile", &c->tls_key },
    { "actionsendstreamdriver", &c->tls_send.driver }, { "actionsendstreamdrivermode", &c->tls_send.mode },
    { "actionsendstreamdriverauthmode", &c->tls_send.auth },
    { "actionsendstreamdriverpermittedpeer", &c->tls_send.peers },
    { "inputtcpserverstreamdrivermode", &c->tls_server.mode },
    { "inputtcpserverstreamdriverauthmode", &c->tls_server.auth },
    { "inputtcpserverstreamdriverpermittedpeer", &c->tls_server.peers },
  };

  for (guint i = 0; i < G_N_ELEMENTS (settings); i++)
    if (g_ascii_strcasecmp (name, settings[i].name) == 0)
      {
        set (settings[i].slot, value);
        return TRUE;
      }
  return FALSE;
}

static gboolean
is_tls_driver (const gchar *driver)
{
  return driver && (g_ascii_strcasecmp (driver, "gtls") == 0 || g_ascii_strcasecmp (driver, "ossl") == 0);
}

/* " tls(...)" for a side whose mode is 1, nothing for mode 0. anon is
 * peer-verify(optional-untrusted): nothing of the peer is checked, and a
 * server asks for no certificate; x509/certvalid a certificate its CA
 * signed; x509/name, as rsyslog's client without permitted peers, the
 * certificate of the host it connects to, with them (either side) one
 * that carries a name they match; x509/fingerprint the SHA1 fingerprints
 * of the permitted peers. */
gboolean
sl_rs_tls_option (SlRsConf *c, const SlRsTls *side, gboolean server, SlCfgPos pos, GString *out, GError **error)
{
  const gchar *driver = side->driver ? side->driver : c->tls_default_driver;
  const gchar *auth = side->auth ? side->auth : "anon";

  if (!side->mode || g_ascii_strtoll (side->mode, NULL, 10) == 0)
    return TRUE;
  if (g_strcmp0 (side->mode, "1") != 0 || !is_tls_driver (driver))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos,
                        _("rsyslog's stream driver mode %s needs the gtls or ossl driver, not '%s'"), side->mode,
                        driver ? driver : "ptcp");
      return FALSE;
    }
  g_string_append (out, " tls(");
  const gchar *ca = side->ca ? side->ca : c->tls_ca;
  const gchar *cert = side->cert ? side->cert : c->tls_cert;
  const gchar *key = side->key ? side->key : c->tls_key;
  if (ca)
    sl_rs_append_option (out, "ca-file", ca);
  if (cert)
    sl_rs_append_option (out, "cert-file", cert);
  if (key)
    sl_rs_append_option (out, "key-file", key);
  if (g_ascii_strcasecmp (auth, "anon") == 0)
    g_string_append (out, " peer-verify(optional-untrusted)");
  else if (g_ascii_strcasecmp (auth, "x509/fingerprint") == 0 && side->peers)
    {
      g_auto (GStrv) keys = g_strsplit (side->peers, ",", -1);
      g_string_append (out, " peer-verify(required-untrusted) trusted-keys(");
      for (guint i = 0; keys[i]; i++)
        {
          g_string_append (out, i ? " " : "");
          sl_rs_quote (out, g_strstrip (keys[i]));
        }
      g_string_append_c (out, ')');
    }
  else if ((g_ascii_strcasecmp (auth, "x509/certvalid") == 0 && server)
           || (g_ascii_strcasecmp (auth, "x509/name") == 0 && !server && !side->peers))
    g_string_append (out, " peer-verify(required-trusted)");
  else if (g_ascii_strcasecmp (auth, "x509/name") == 0 && side->peers)
    {
      g_auto (GStrv) names = g_strsplit (side->peers, ",", -1);
      g_string_append (out, " peer-verify(required-trusted) trusted-names(");
      for (guint i = 0; names[i]; i++)
        {
          g_string_append (out, i ? " " : "");
          sl_rs_quote (out, g_strstrip (names[i]));
        }
      g_string_append_c (out, ')');
    }
  else
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, pos,
                        _("rsyslog's stream driver auth mode '%s'%s is not supported on the %s side: Sluice checks "
                          "a server's certificate against the name it connects to, and a client's by its CA or "
                          "fingerprint"),
                        auth, side->peers ? _(" with permitted peers") : "", server ? _("receiving") : _("sending"));
      return FALSE;
    }
  g_string_append_c (out, ')');
  return TRUE;
}
