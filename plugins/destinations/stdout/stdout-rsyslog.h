/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog's omstdout, which stdout() implements. */
#ifndef STDOUT_RSYSLOG_H
#define STDOUT_RSYSLOG_H

#include "core/plugin/rsyslog-module.h"

extern const SlRsModule stdout_omstdout;

#endif
