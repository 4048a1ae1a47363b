/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog's omfwd and omuxsock, which network() and unix-dgram()
 * implement. */
#ifndef NETWORK_RSYSLOG_H
#define NETWORK_RSYSLOG_H

#include "core/plugin/rsyslog-module.h"

extern const SlRsModule network_omfwd;
extern const SlRsModule network_omuxsock;

#endif
