/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog's imjournal, which systemd-journal() implements. */
#ifndef JOURNAL_RSYSLOG_H
#define JOURNAL_RSYSLOG_H

#include "core/plugin/rsyslog-module.h"

extern const SlRsModule journal_imjournal;

#endif
