/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog's omprog, which program() implements. */
#ifndef PROGRAM_RSYSLOG_H
#define PROGRAM_RSYSLOG_H

#include "core/plugin/rsyslog-module.h"

extern const SlRsModule program_omprog;

#endif
