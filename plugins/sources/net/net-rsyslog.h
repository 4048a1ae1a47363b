/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog's imudp, imtcp and imptcp, which udp() and tcp() implement. */
#ifndef NET_RSYSLOG_H
#define NET_RSYSLOG_H

#include "core/plugin/rsyslog-module.h"

extern const SlRsModule net_imudp;
extern const SlRsModule net_imtcp;
extern const SlRsModule net_imptcp;

#endif
