/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog's omusrmsg, which usertty() implements. */
#ifndef USERTTY_RSYSLOG_H
#define USERTTY_RSYSLOG_H

#include "core/plugin/rsyslog-module.h"

extern const SlRsModule usertty_omusrmsg;

#endif
