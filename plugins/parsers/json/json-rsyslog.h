/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog's mmjsonparse, which json-parser() implements. */
#ifndef JSON_RSYSLOG_H
#define JSON_RSYSLOG_H

#include "core/plugin/rsyslog-module.h"

extern const SlRsModule json_mmjsonparse;

#endif
