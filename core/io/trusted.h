/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What rsyslogd's imuxsock appends to a local message with annotate on,
 * or sets as its $! fields with parseTrusted on too: the sender's
 * "trusted properties", which the kernel (SO_PASSCRED) and /proc tell
 * rather than the message. */
#ifndef SL_TRUSTED_H
#define SL_TRUSTED_H

#include <glib.h>
#include <sys/types.h>
#include "core/message/message.h"

G_BEGIN_DECLS

/* Appends " @[_PID=P _UID=U _GID=G _COMM=C _EXE=E _CMDLINE="L"]" to out,
 * each of the last three only when /proc still has it for pid (1023
 * bytes at most, up to the first line feed, control characters as
 * spaces; the command line quoted, '"' and '\' escaped), as imuxsock of
 * rsyslogd 8.2302 writes them. */
void sl_trusted_annotate (GString *out, pid_t pid, uid_t uid, gid_t gid);
/* Sets the fields !pid, !uid, !gid (integers), !appname, !exe and !cmd
 * (the command, the executable and the command line, read as above and
 * kept as they are) on msg, as imuxsock of rsyslogd 8.2302 sets them at
 * the root of $! with parseTrusted on. */
void sl_trusted_set_fields (SlMessage *msg, pid_t pid, uid_t uid, gid_t gid);

G_END_DECLS

#endif
