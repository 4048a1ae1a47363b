/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SlDgramReader: reads a datagram socket (UDP or unix-dgram) on its own
 * thread, many datagrams per system call (recvmmsg), one message each.
 * Datagrams cannot be paused, so there is no flow-control window here:
 * what the queues cannot hold is dropped and counted. */
#ifndef SL_DGRAM_H
#define SL_DGRAM_H

#include <glib.h>
#include "core/route/source.h"

G_BEGIN_DECLS

typedef struct _SlDgramReader SlDgramReader;

/* Takes fd, a bound datagram socket. With sender_pid or
 * sl_source_sender_pid() (a unix socket), each message's PID is the
 * sending process's as the kernel tells it (SO_PASSCRED), whatever the
 * message says: what syslog-ng's system() does with /dev/log on Linux.
 * With sl_source_tag_pid(), the tag (the message's first word) from its
 * last '[' on, or its last character when it has no '[', becomes
 * "[PID]:" with the sender's PID, the rest of the text as it was: what
 * rsyslogd's imuxsock does with usePIDFromSystem. With
 * sl_source_ignore_own(), what this process sent is dropped. With
 * sl_source_annotate(), the sender's trusted properties are appended to
 * the datagram before it is parsed (sl_trusted_annotate()). With
 * sl_source_rate_limit() set, each sending PID's messages are limited
 * on a unix socket, all of them together on another (SlRateLimit), the
 * drops counted as "rate_limited". */
SlDgramReader *sl_dgram_reader_start (SlSource *src, gint fd, gboolean sender_pid, GError **error);
void           sl_dgram_reader_stop  (SlDgramReader *r);

G_END_DECLS

#endif
