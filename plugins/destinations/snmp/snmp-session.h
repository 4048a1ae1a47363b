/* SPDX-License-Identifier: GPL-2.0-or-later */
/* An SNMP session that sends traps, v2c with a community or v3 with USM
 * (SHA authentication, AES privacy) under an engine ID of our own, as
 * net-snmp's snmptrap and syslog-ng's snmp() set it up. */
#ifndef SNMP_SESSION_H
#define SNMP_SESSION_H

#include <glib.h>

typedef struct
{
  const gchar *version;        /* "v2c" or "v3" */
  const gchar *transport;      /* "UDP", "TCP", ... as net-snmp names them */
  const gchar *host;
  gint port;
  const gchar *community;      /* v2c */
  const guchar *engine_id;     /* v3: the binary engine ID */
  gsize engine_id_len;
  const gchar *auth_username;  /* v3 */
  const gchar *auth_password;  /* v3: none is noAuthNoPriv */
  const gchar *enc_password;   /* v3: with an auth password, authPriv */
} SnmpdestSessionSpec;

/* Once per process, before the first session: net-snmp's library, set
 * not to read or write its persistent state (a log router has no engine
 * state to keep; syslog-ng's module keeps none either). */
void      snmpdest_session_library_init (void);
/* net-snmp's single-session handle (snmp_sess_*), or NULL with error. */
gpointer  snmpdest_session_open         (const SnmpdestSessionSpec *spec, GError **error);
void      snmpdest_session_close        (gpointer session);

#endif
