/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog's imuxsock, which unix-dgram() implements. */
#ifndef UNIX_RSYSLOG_H
#define UNIX_RSYSLOG_H

#include "core/plugin/rsyslog-module.h"

extern const SlRsModule unix_imuxsock;

#endif
