/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The variables of snmp()'s traps: snmp-obj("OID" "type" "template") and
 * trap-obj() in the order written, and the trap PDU made of them for a
 * message. */
#ifndef SNMP_OBJECTS_H
#define SNMP_OBJECTS_H

#include "core/plugin/plugin.h"
#include "core/message/template.h"

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>

typedef struct _SnmpdestObjects SnmpdestObjects;

/* Reads snmp-obj() and trap-obj() from the driver's block; NULL with
 * error when one is malformed or trap-obj() is missing. */
SnmpdestObjects *snmpdest_objects_read (const SlDriver *driver, GError **error);
void         snmpdest_objects_free (SnmpdestObjects *objects);

/* A TRAP2 PDU of msg's values, after sysUpTime.0 when uptime is set,
 * or NULL (and a warning naming the value) when net-snmp cannot encode
 * one of them as its type. */
netsnmp_pdu *snmpdest_objects_pdu  (SnmpdestObjects *objects, const SlMessage *msg, const SlTemplateEnv *env,
                                const gchar *driver_id, gboolean uptime);

#endif
