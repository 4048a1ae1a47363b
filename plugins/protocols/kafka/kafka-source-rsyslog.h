/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog's imkafka, which the kafka() source implements. */
#ifndef KAFKA_SOURCE_RSYSLOG_H
#define KAFKA_SOURCE_RSYSLOG_H

#include "core/plugin/rsyslog-module.h"

extern const SlRsModule kafka_imkafka;

#endif
