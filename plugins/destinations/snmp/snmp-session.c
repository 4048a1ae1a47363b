/* SPDX-License-Identifier: GPL-2.0-or-later */
/* net-snmp's single-session API, which a writer thread may use on its own
 * session while other writers use theirs. A trap sender is its own
 * authoritative engine (RFC 3414): the engine ID given, boots 1, time
 * since start, so that no discovery round trip is needed and the
 * receiver's createUser names this engine. */
#include "plugins/destinations/snmp/snmp-session.h"
#include "core/i18n.h"

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>
#include <string.h>

static gpointer
library_init_once (gpointer unused)
{
  netsnmp_ds_set_boolean (NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_DONT_PERSIST_STATE, 1);
  netsnmp_ds_set_boolean (NETSNMP_DS_LIBRARY_ID, NETSNMP_DS_LIB_DISABLE_PERSISTENT_LOAD, 1);
  /* OIDs are numeric here: no MIB to load, nor a complaint for each
   * module missing (Debian ships none of the non-free ones) */
  netsnmp_config_remember ((char *) "mibs :");
  init_snmp ("sluice");
  /* the local engine, whose ID a v3 trap carries when none is given */
  setup_engineID (NULL, NULL);
  return NULL;
}

void
snmpdest_session_library_init (void)
{
  static GOnce once = G_ONCE_INIT;
  g_once (&once, library_init_once, NULL);
}

static gboolean
set_key (const gchar *password, u_char *key, size_t *key_len, GError **error)
{
  *key_len = USM_AUTH_KU_LEN;
  if (generate_Ku (usmHMACSHA1AuthProtocol, OID_LENGTH (usmHMACSHA1AuthProtocol), (const u_char *) password,
                   strlen (password), key, key_len) == SNMPERR_SUCCESS)
    return TRUE;
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
               _("net-snmp cannot make a key of the password (USM needs at least 8 characters)"));
  return FALSE;
}

static gboolean
set_v3 (netsnmp_session *s, const SnmpdestSessionSpec *spec, GError **error)
{
  s->version = SNMP_VERSION_3;
  s->securityEngineID = g_memdup2 (spec->engine_id, spec->engine_id_len);
  s->securityEngineIDLen = spec->engine_id_len;
  s->contextEngineID = g_memdup2 (spec->engine_id, spec->engine_id_len);
  s->contextEngineIDLen = spec->engine_id_len;
  if (spec->auth_username)
    {
      s->securityName = (char *) spec->auth_username;
      s->securityNameLen = strlen (spec->auth_username);
    }
  s->securityLevel = SNMP_SEC_LEVEL_NOAUTH;
  if (spec->auth_password)
    {
      s->securityAuthProto = usmHMACSHA1AuthProtocol;
      s->securityAuthProtoLen = OID_LENGTH (usmHMACSHA1AuthProtocol);
      if (!set_key (spec->auth_password, s->securityAuthKey, &s->securityAuthKeyLen, error))
        return FALSE;
      s->securityLevel = SNMP_SEC_LEVEL_AUTHNOPRIV;
      if (spec->enc_password)
        {
          s->securityPrivProto = usmAESPrivProtocol;
          s->securityPrivProtoLen = OID_LENGTH (usmAESPrivProtocol);
          if (!set_key (spec->enc_password, s->securityPrivKey, &s->securityPrivKeyLen, error))
            return FALSE;
          s->securityLevel = SNMP_SEC_LEVEL_AUTHPRIV;
        }
    }
  s->engineBoots = 1;
  s->engineTime = get_uptime ();
  return TRUE;
}

gpointer
snmpdest_session_open (const SnmpdestSessionSpec *spec, GError **error)
{
  snmpdest_session_library_init ();
  netsnmp_session s;
  snmp_sess_init (&s);
  gpointer handle = NULL;
  g_autofree gchar *peer = g_strdup_printf ("%s:%s:%d", spec->transport, spec->host, spec->port);
  s.peername = peer;
  gboolean ok = TRUE;
  if (!g_ascii_strcasecmp (spec->version, "v3"))
    ok = set_v3 (&s, spec, error);
  else
    {
      s.version = SNMP_VERSION_2c;
      s.community = (u_char *) spec->community;
      s.community_len = strlen (spec->community);
    }
  if (ok)
    {
      netsnmp_transport *transport = netsnmp_transport_open_client ("snmptrap", peer);
      if (transport)
        handle = snmp_sess_add (&s, transport, NULL, NULL);
      if (!handle)
        g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, _("net-snmp cannot open a session to %s: %s"), peer,
                     snmp_api_errstring (snmp_errno));
    }
  g_free (s.securityEngineID);
  g_free (s.contextEngineID);
  return handle;
}

void
snmpdest_session_close (gpointer session)
{
  snmp_sess_close (session);
}
