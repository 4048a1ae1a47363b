/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog's immark, which mark() implements. */
#ifndef MARK_RSYSLOG_H
#define MARK_RSYSLOG_H

#include "core/plugin/rsyslog-module.h"

extern const SlRsModule mark_immark;

#endif
