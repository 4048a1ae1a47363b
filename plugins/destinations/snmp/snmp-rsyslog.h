/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog's omsnmp, which snmp() implements. */
#ifndef SNMP_RSYSLOG_H
#define SNMP_RSYSLOG_H

#include "core/plugin/rsyslog-module.h"

extern const SlRsModule snmp_omsnmp;

#endif
