/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog's imkmsg and imklog, which kmsg() implements. */
#ifndef KMSG_RSYSLOG_H
#define KMSG_RSYSLOG_H

#include "core/plugin/rsyslog-module.h"

extern const SlRsModule kmsg_imkmsg;
extern const SlRsModule kmsg_imklog;

#endif
