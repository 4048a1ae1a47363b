/* SPDX-License-Identifier: GPL-2.0-or-later */
/* syslog-ng-otlp(): a message as the LogRecord syslog-ng 4 sends between
 * syslog-ng instances, every name-value pair carried. */
#ifndef OTEL_SYSLOG_NG_H
#define OTEL_SYSLOG_NG_H

#include "core/message/message.h"

/* The scope of such records: "@syslog-ng", which receivers look for */
#define OTEL_SYSLOG_NG_SCOPE "@syslog-ng"

/* msg's record packed into out (emptied first): the stamps as the
 * record's times, attribute "n" every field by name (as syslog-ng's
 * "string" values; bytes), "m" PRI, TAGS, STAMP_GMTOFF and RECVD_GMTOFF,
 * "sa" the sender's address. */
void otel_syslog_ng_record (const SlMessage *msg, GByteArray *out);

#endif
