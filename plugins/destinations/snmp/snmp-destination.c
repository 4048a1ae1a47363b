/* SPDX-License-Identifier: GPL-2.0-or-later */
/* snmp(): each message as one SNMPv2c or SNMPv3 trap, as syslog-ng's
 * snmp() sends it: the variables of snmp-obj() and trap-obj() with
 * template values, to host():port() over transport(). On net-snmp
 * (Debian's libsnmp-dev), the library snmptrapd and snmptrap are made
 * of: BER encoding, USM keys and the transports are its job. A trap has
 * no reply, so a message is done once net-snmp sent it; a send that
 * fails closes the session and keeps the rest; a value net-snmp cannot
 * encode as its type (an ipaddress that is none) is dropped and
 * counted. */
#include "plugins/destinations/snmp/snmp-objects.h"
#include "plugins/destinations/snmp/snmp-session.h"
#include "plugins/destinations/snmp/snmp-rsyslog.h"
#include "core/config/error.h"
#include "core/route/driver.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/plugin/plugin.h"
#include "core/stats.h"

#include <string.h>

typedef struct
{
  SlDriver base;
  SnmpdestSessionSpec spec;
  const gchar *engine_id_text;
  const gchar *auth_algorithm;
  const gchar *enc_algorithm;
  GByteArray *engine_id;
  SnmpdestObjects *objects;
  const SlTemplateEnv *env;
  gpointer session;
  gboolean uptime;
  SlCounter *unencodable;
} SnmpdestDestination;

static const SlOptionSpec snmpdest_options[] = {
  { "host", SL_STRING (SnmpdestDestination, spec.host), NULL, "the trap receiver's name or address (required)" },
  { "port", SL_INT (SnmpdestDestination, spec.port), "162", "the trap receiver's port" },
  { "transport", SL_STRING (SnmpdestDestination, spec.transport), "UDP",
    "the transport, as net-snmp names it: UDP, TCP, UDP6, TCP6" },
  { "version", SL_STRING (SnmpdestDestination, spec.version), "v2c", "the SNMP version of the traps: v2c or v3" },
  { "community", SL_STRING (SnmpdestDestination, spec.community), "public", "v2c: the community" },
  { "engine-id", SL_STRING (SnmpdestDestination, engine_id_text), NULL,
    "v3: this sender's engine ID, 5 to 32 hexadecimal digits, 0x before them or not (required with v3)" },
  { "auth-username", SL_STRING (SnmpdestDestination, spec.auth_username), NULL, "v3: the USM user" },
  { "auth-algorithm", SL_STRING (SnmpdestDestination, auth_algorithm), "SHA", "v3: the authentication hash; SHA" },
  { "auth-password", SL_STRING (SnmpdestDestination, spec.auth_password), NULL,
    "v3: the authentication password; none sends noAuthNoPriv traps" },
  { "enc-algorithm", SL_STRING (SnmpdestDestination, enc_algorithm), "AES", "v3: the privacy cipher; AES (AES-128)" },
  { "enc-password", SL_STRING (SnmpdestDestination, spec.enc_password), NULL,
    "v3: the privacy password; with auth-password(), authPriv traps" },
  { "snmp-obj", SL_UNBOUND (SL_OPT_LIST), NULL,
    "snmp-obj(\"OID\" \"type\" \"template\"): a variable of each trap, type integer, timeticks, octetstring, "
    "counter32, ipaddress or objectid; may be written more than once" },
  { "trap-obj", SL_UNBOUND (SL_OPT_LIST), NULL,
    "trap-obj(\"OID\" \"objectid\" \"value\"): the trap's snmpTrapOID.0 variable (required)" },
  { "sys-uptime", SL_BOOL (SnmpdestDestination, uptime), "no",
    "put sysUpTime.0, the system's uptime in hundredths of a second, first in each trap, as rsyslog's omsnmp does" },
  { NULL }
};

static gboolean
value_error (GError **error, const SlDriver *d, const gchar *option, const gchar *message)
{
  sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, option), "%s", message);
  return FALSE;
}

static gboolean
read_engine_id (SnmpdestDestination *self, GError **error)
{
  const gchar *text = self->engine_id_text;
  if (g_str_has_prefix (text, "0x"))
    text += 2;
  gsize n = strlen (text);
  gboolean hex = n >= 5 && n <= 32 && n % 2 == 0;
  for (gsize i = 0; hex && i < n; i++)
    hex = g_ascii_isxdigit (text[i]);
  if (!hex)
    return value_error (error, &self->base, "engine-id",
                        _("engine-id() of snmp() is an even number, 6 to 32, of hexadecimal digits (RFC 5343), "
                          "0x before them or not"));
  self->engine_id = g_byte_array_new ();
  for (gsize i = 0; i < n; i += 2)
    {
      guint8 b = (guint8) (g_ascii_xdigit_value (text[i]) * 16 + g_ascii_xdigit_value (text[i + 1]));
      g_byte_array_append (self->engine_id, &b, 1);
    }
  self->spec.engine_id = self->engine_id->data;
  self->spec.engine_id_len = self->engine_id->len;
  return TRUE;
}

static gboolean
snmpdest_init (SlDriver *d, GError **error)
{
  SnmpdestDestination *self = (SnmpdestDestination *) d;
  if (!self->spec.host)
    return value_error (error, d, "host", _("snmp() needs host(), the trap receiver"));
  gboolean v3 = !g_ascii_strcasecmp (self->spec.version, "v3");
  if (!v3 && g_ascii_strcasecmp (self->spec.version, "v2c"))
    return value_error (error, d, "version", _("version() of snmp() is v2c or v3"));
  if (g_ascii_strcasecmp (self->auth_algorithm, "SHA"))
    return value_error (error, d, "auth-algorithm", _("auth-algorithm() of snmp() is SHA, as in syslog-ng"));
  if (g_ascii_strcasecmp (self->enc_algorithm, "AES"))
    return value_error (error, d, "enc-algorithm", _("enc-algorithm() of snmp() is AES, as in syslog-ng"));
  if (v3 && !self->engine_id_text)
    return value_error (error, d, "engine-id", _("snmp() with version(v3) needs engine-id()"));
  if (v3 && !read_engine_id (self, error))
    return FALSE;
  if (!(self->objects = snmpdest_objects_read (d, error)))
    return FALSE;
  snmpdest_session_library_init ();
  self->env = sl_driver_template_env (d);
  self->unencodable = sl_stats_counter ("destination", d->id, d->klass->name, "unencodable");
  return TRUE;
}

static gboolean
snmpdest_open (SlDriver *d, GError **error)
{
  SnmpdestDestination *self = (SnmpdestDestination *) d;
  self->session = snmpdest_session_open (&self->spec, error);
  return self->session != NULL;
}

static void
snmpdest_close (SlDriver *d)
{
  SnmpdestDestination *self = (SnmpdestDestination *) d;
  if (self->session)
    snmpdest_session_close (self->session);
  self->session = NULL;
}

static SlWriteResult
snmpdest_write (SlDriver *d, SlWriteBatch *batch)
{
  SnmpdestDestination *self = (SnmpdestDestination *) d;
  for (; batch->done < batch->n; batch->done++)
    {
      netsnmp_pdu *pdu = snmpdest_objects_pdu (self->objects, batch->msgs[batch->done], self->env, d->id, self->uptime);
      if (!pdu)
        {
          sl_counter_add (self->unencodable, 1);
          batch->dropped++;
          continue;
        }
      if (!snmp_sess_send (self->session, pdu))
        {
          gint errors = 0, snmp_error = 0;
          gchar *text = NULL;
          snmp_sess_error (self->session, &errors, &snmp_error, &text);
          sl_write_batch_fail (batch, SL_WRITE_NOT_CONNECTED, 0, _("sending a trap failed: %s"), text ? text : "");
          free (text);
          snmp_free_pdu (pdu);
          return SL_WRITE_NOT_CONNECTED;
        }
    }
  return SL_WRITE_OK;
}

static void
snmpdest_free (SlDriver *d)
{
  SnmpdestDestination *self = (SnmpdestDestination *) d;
  snmpdest_close (d);
  if (self->objects)
    snmpdest_objects_free (self->objects);
  if (self->engine_id)
    g_byte_array_unref (self->engine_id);
}

static const SlDestinationOps snmpdest_ops = {
  .open = snmpdest_open,
  .write = snmpdest_write,
  .close = snmpdest_close,
};

static const SlDriverClass snmpdest_class = {
  .kind = SL_DRIVER_DESTINATION,
  .name = "snmp",
  .summary = "each message as an SNMPv2c or SNMPv3 trap of template variables",
  .options = snmpdest_options,
  .capabilities = SL_CAP_TEMPLATES | SL_CAP_WORKERS | SL_CAP_DISK_BUFFER,
  .instance_size = sizeof (SnmpdestDestination),
  .init = snmpdest_init,
  .free = snmpdest_free,
  .ops.destination = &snmpdest_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "snmp",
  .drivers = (const SlDriverClass *const[]) { &snmpdest_class, NULL },
  .rsyslog_modules = (const SlRsModule *const[]) { &snmp_omsnmp, NULL },
};
