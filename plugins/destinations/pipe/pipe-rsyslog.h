/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog's ompipe, which pipe() implements. */
#ifndef PIPE_RSYSLOG_H
#define PIPE_RSYSLOG_H

#include "core/plugin/rsyslog-module.h"

extern const SlRsModule pipe_ompipe;

#endif
