/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog's omfile, which file() implements. */
#ifndef FILE_RSYSLOG_H
#define FILE_RSYSLOG_H

#include "core/plugin/rsyslog-module.h"

extern const SlRsModule file_omfile;

#endif
