/* SPDX-License-Identifier: GPL-2.0-or-later */
/* snmp-obj() and trap-obj() as syslog-ng's snmp() reads them: a numeric
 * OID, one of six types, and a template for the value; trap-obj() is the
 * snmpTrapOID.0 variable, of type objectid. The variables go into the
 * PDU in the order written, with nothing added (syslog-ng sends no
 * sysUpTime.0 either). syslog-ng 3.38 refuses an snmp-obj() of type
 * objectid after trap-obj() and, before it, leaves trap-obj() out of the
 * trap; here both are variables of the trap. A number type whose value is not all digits is
 * sent as 0, as syslog-ng does, with a warning. */
#include "plugins/destinations/snmp/snmp-objects.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/plugin/options.h"

#include <string.h>

typedef struct
{
  const gchar *name;
  gchar code;          /* snmp_add_var()'s type letter */
  gboolean number;
} SnmpType;

static const SnmpType snmp_types[] = {
  { "integer", 'i', TRUE },
  { "timeticks", 't', TRUE },
  { "octetstring", 's', FALSE },
  { "counter32", 'c', TRUE },
  { "ipaddress", 'a', FALSE },
  { "objectid", 'o', FALSE },
};

typedef struct
{
  oid name[MAX_OID_LEN];
  size_t name_len;
  const SnmpType *type;
  SlTemplate *value;
} SnmpObject;

struct _SnmpdestObjects
{
  GPtrArray *objects;  /* SnmpObject * */
  GString *rendered;
};

static void
object_free (gpointer p)
{
  SnmpObject *o = p;
  if (o->value)
    sl_template_unref (o->value);
  g_free (o);
}

static const SlCfgArg *
arg_at (const SlCfgNode *option, guint i)
{
  return g_ptr_array_index (option->args, i);
}

static gboolean
parse_oid (SnmpObject *o, const SlCfgArg *arg, GError **error)
{
  const gchar *text = arg->value[0] == '.' ? arg->value + 1 : arg->value;
  gchar **parts = g_strsplit (text, ".", -1);
  guint n = g_strv_length (parts);
  gboolean ok = n >= 2 && n <= MAX_OID_LEN;
  for (guint i = 0; ok && i < n; i++)
    {
      guint64 v = 0;
      ok = g_ascii_string_to_unsigned (parts[i], 10, 0, G_MAXUINT32, &v, NULL);
      o->name[i] = (oid) v;
    }
  o->name_len = n;
  g_strfreev (parts);
  if (!ok)
    sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, arg->pos,
                      _("'%s' is not a numeric OID such as \"1.3.6.1.4.1.18372.3.1.1.1.1.1\""), arg->value);
  return ok;
}

static SnmpObject *
read_object (const SlCfgNode *option, GError **error)
{
  if (!option->args || option->args->len != 3)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, option->pos,
                        _("%s() of snmp() takes an OID, a type and a value: %s(\"1.3.6.1.4.1.18372.3.1.1.1.1.3\" "
                          "\"octetstring\" \"${MESSAGE}\")"), option->name, option->name);
      return NULL;
    }
  SnmpObject *o = g_new0 (SnmpObject, 1);
  for (guint i = 0; i < G_N_ELEMENTS (snmp_types); i++)
    if (!g_ascii_strcasecmp (arg_at (option, 1)->value, snmp_types[i].name))
      o->type = &snmp_types[i];
  GError *template_error = NULL;
  if (!o->type)
    sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, arg_at (option, 1)->pos,
                      _("'%s' is not an SNMP type of snmp(); integer, timeticks, octetstring, counter32, ipaddress "
                        "or objectid"), arg_at (option, 1)->value);
  else if (!parse_oid (o, arg_at (option, 0), error))
    ;
  else if (!(o->value = sl_template_compile (arg_at (option, 2)->value, &template_error)))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, arg_at (option, 2)->pos, _("%s() of snmp(): %s"), option->name,
                        template_error->message);
      g_error_free (template_error);
    }
  if (!o->value)
    {
      object_free (o);
      return NULL;
    }
  return o;
}

static gboolean
is_objectid (const SnmpObject *o)
{
  return o->type->code == 'o';
}

SnmpdestObjects *
snmpdest_objects_read (const SlDriver *driver, GError **error)
{
  SnmpdestObjects *self = g_new0 (SnmpdestObjects, 1);
  self->objects = g_ptr_array_new_with_free_func (object_free);
  self->rendered = g_string_sized_new (128);
  const SlCfgNode *node = sl_options_node (driver->options);
  const SlCfgNode *trap = NULL;
  for (guint i = 0; node->children && i < node->children->len; i++)
    {
      const SlCfgNode *option = g_ptr_array_index (node->children, i);
      gboolean is_trap = sl_cfg_name_equal (option->name, "trap-obj");
      if (!is_trap && !sl_cfg_name_equal (option->name, "snmp-obj"))
        continue;
      SnmpObject *o = read_object (option, error);
      if (!o)
        goto fail;
      g_ptr_array_add (self->objects, o);
      if (is_trap && !is_objectid (o))
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, option->pos,
                            _("trap-obj() of snmp() is the trap's OID, of type \"objectid\", not \"%s\""),
                            o->type->name);
          goto fail;
        }
      if (is_trap)
        trap = option;
    }
  if (!trap)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, driver->pos,
                        _("snmp() needs trap-obj(), such as trap-obj(\".1.3.6.1.6.3.1.1.4.1.0\" \"objectid\" "
                          "\".1.3.6.1.4.1.18372.3.1.1.1.2.1\")"));
      goto fail;
    }
  return self;

fail:
  snmpdest_objects_free (self);
  return NULL;
}

void
snmpdest_objects_free (SnmpdestObjects *self)
{
  g_ptr_array_free (self->objects, TRUE);
  g_string_free (self->rendered, TRUE);
  g_free (self);
}

static void
zero_unless_digits (GString *value, const gchar *driver_id)
{
  gboolean digits = value->len > 0;
  for (gsize i = 0; digits && i < value->len; i++)
    digits = g_ascii_isdigit (value->str[i]);
  if (digits)
    return;
  sl_log (SL_LOG_WARNING, _("%s: an SNMP number that is not one is sent as 0; value='%s'"), driver_id, value->str);
  g_string_assign (value, "0");
}

netsnmp_pdu *
snmpdest_objects_pdu (SnmpdestObjects *self, const SlMessage *msg, const SlTemplateEnv *env, const gchar *driver_id,
                      gboolean uptime)
{
  netsnmp_pdu *pdu = snmp_pdu_create (SNMP_MSG_TRAP2);
  if (uptime)
    {
      /* the system's uptime in hundredths of a second, as rsyslog's omsnmp sends it */
      static const oid sys_uptime[] = { 1, 3, 6, 1, 2, 1, 1, 3, 0 };
      g_autofree gchar *ticks = g_strdup_printf ("%ld", get_uptime ());
      snmp_add_var (pdu, sys_uptime, G_N_ELEMENTS (sys_uptime), 't', ticks);
    }
  for (guint i = 0; i < self->objects->len; i++)
    {
      const SnmpObject *o = g_ptr_array_index (self->objects, i);
      g_string_truncate (self->rendered, 0);
      sl_template_append (o->value, msg, env, self->rendered);
      if (o->type->number)
        zero_unless_digits (self->rendered, driver_id);
      if (snmp_add_var (pdu, o->name, o->name_len, o->type->code, self->rendered->str) != 0)
        {
          sl_log (SL_LOG_ERROR, _("%s: net-snmp cannot encode a value as %s, the message is dropped; value='%s'"),
                  driver_id, o->type->name, self->rendered->str);
          snmp_free_pdu (pdu);
          return NULL;
        }
    }
  return pdu;
}
