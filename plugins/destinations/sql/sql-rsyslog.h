/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog's ommysql and ompgsql, which sql() implements. */
#ifndef SQL_RSYSLOG_H
#define SQL_RSYSLOG_H

#include "core/plugin/rsyslog-module.h"

extern const SlRsModule sql_ommysql;
extern const SlRsModule sql_ompgsql;

#endif
