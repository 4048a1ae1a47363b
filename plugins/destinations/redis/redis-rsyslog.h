/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog's omhiredis, which redis() implements. */
#ifndef REDIS_RSYSLOG_H
#define REDIS_RSYSLOG_H

#include "core/plugin/rsyslog-module.h"

extern const SlRsModule redis_omhiredis;

#endif
