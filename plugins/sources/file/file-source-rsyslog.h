/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rsyslog's imfile, which file() and wildcard-file() implement. */
#ifndef FILE_SOURCE_RSYSLOG_H
#define FILE_SOURCE_RSYSLOG_H

#include "core/plugin/rsyslog-module.h"

extern const SlRsModule file_imfile;

#endif
