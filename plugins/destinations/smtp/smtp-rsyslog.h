/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog's ommail, which smtp() implements. */
#ifndef SMTP_RSYSLOG_H
#define SMTP_RSYSLOG_H

#include "core/plugin/rsyslog-module.h"

extern const SlRsModule smtp_ommail;

#endif
