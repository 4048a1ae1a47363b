/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog's mmnormalize, which lognorm-parser() implements. */
#ifndef LOGNORM_RSYSLOG_H
#define LOGNORM_RSYSLOG_H

#include "core/plugin/rsyslog-module.h"

extern const SlRsModule lognorm_mmnormalize;

#endif
