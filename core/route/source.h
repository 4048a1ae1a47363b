/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What a source driver sees of the core while it runs: parse what it read
 * into messages and post them into the log paths. */
#ifndef SL_SOURCE_H
#define SL_SOURCE_H

#include <glib.h>
#include "core/message/message.h"
#include "core/plugin/plugin.h"
#include "core/route/source-receive.h"
#include "core/message/window.h"
#include "core/route/rate-limit.h"

G_BEGIN_DECLS

/* Makes a message of one received frame: receive time, HOST_FROM/SOURCEIP
 * from peer (NULL for local), then the source's format parser with its
 * options. Counts oversize frames; never fails. */
SlMessage *sl_source_parse      (SlSource *src, const gchar *data, gsize len,
                                 const gchar *peer);
/* The same with extra_len bytes at peer: its NUL-terminated address, then
 * what the caller keeps behind every frame of a connection (its TLS
 * fields, sl_tls_append_fields()) instead of a copy per field;
 * *extra_copy is the message's copy of peer. */
SlMessage *sl_source_parse_extra (SlSource *src, const gchar *data, gsize len, const gchar *peer,
                                  gsize extra_len, const gchar **extra_copy);
/* The same with another format than the source's format() (or its own,
 * NULL) and another transport than sl_source_set_transport()'s, for a
 * source that reads inputs of two kinds, such as system() (/dev/log and
 * the kernel's log). */
SlMessage *sl_source_parse_with (SlSource *src, const SlDriverClass *format, const gchar *transport,
                                 const gchar *data, gsize len, const gchar *peer);
/* For a source whose input is fields rather than a frame of text, such as
 * a journal entry: makes the message of data as sl_source_parse() does,
 * with fill() in place of a format's parser. fill() sets the message's
 * fields (slices of msg->raw, which holds data, need no copy), its pri and
 * stamp; the source's host and program overrides and tags apply after it. */
typedef void (*SlSourceFill) (SlMessage *msg, gpointer user_data);
SlMessage *sl_source_parse_fields (SlSource *src, const gchar *data, gsize len,
                                   SlSourceFill fill, gpointer user_data);
/* What syslog-ng 4 sets as TRANSPORT on every message of this kind of
 * source ("rfc3164+tcp", "local+file", ...; transport-mapper-inet.c and
 * affile-source.c of 4.8): a string that outlives the source, set on
 * each message it parses under a @version: 4.x configuration, after the
 * format's parser. A driver sets it as it starts; NULL (the default) sets
 * none, as 4.8's sources without a transport name. */
void       sl_source_set_transport (SlSource *src, const gchar *transport);
/* Takes the receive time for the frames this thread parses next: a reader
 * calls it after each read, so a chunk's messages share one clock reading
 * instead of one each. A thread that never calls it gets a reading per
 * message. */
void       sl_source_mark_read_time (void);
/* Routes msgs[0..n) through every path that takes this source, and gives
 * up the caller's references. Thread-safe; call from the reading thread. */
void       sl_source_post       (SlSource *src, SlMessage **msgs, guint n);
/* A window for one connection of this source, sized from log-iw-size()
 * divided among max-connections(). */
SlWindow  *sl_source_new_window (SlSource *src);
/* The size of the windows sl_source_new_window() makes: the messages a
 * connection may have in flight. */
guint      sl_source_window_size (SlSource *src);
/* Whether a unix datagram socket's reader on src sets each message's PID
 * to the sending process's (SO_PASSCRED), whatever the message says, as
 * syslog-ng's system() does with /dev/log: set by a driver whose parts
 * read on its source (system()) before it starts them. */
void       sl_source_set_sender_pid (SlSource *src, gboolean sender_pid);
gboolean   sl_source_sender_pid (SlSource *src);
/* Whether a unix datagram socket's reader on src writes the sending
 * process's PID into each message's tag as rsyslogd's imuxsock does with
 * usePIDFromSystem (sl_dgram_reader_start() says how), and whether it
 * drops what this process sent itself, as imuxsock's ignoreOwnMessages:
 * set by the driver before it starts its reader. */
void       sl_source_set_tag_pid (SlSource *src, gboolean tag_pid);
gboolean   sl_source_tag_pid (SlSource *src);
void       sl_source_set_ignore_own (SlSource *src, gboolean ignore_own);
gboolean   sl_source_ignore_own (SlSource *src);
/* Whether that reader gives each message the sender's trusted
 * properties, as imuxsock does with annotate: */
typedef enum
{
  SL_ANNOTATE_NONE,
  /* appended to the text before it is parsed (sl_trusted_annotate()) */
  SL_ANNOTATE_TEXT,
  /* as the fields !pid, !uid, ... (sl_trusted_set_fields()), with
   * parseTrusted too */
  SL_ANNOTATE_FIELDS,
} SlAnnotate;
void       sl_source_set_annotate (SlSource *src, SlAnnotate annotate);
SlAnnotate sl_source_annotate (SlSource *src);
/* How many messages of each sending process a unix datagram socket's
 * reader on src takes (SlRateLimit; SO_PASSCRED tells the PID), or of
 * all senders together a UDP socket's, the rest dropped and counted as
 * "rate_limited": set by the driver before it starts its reader.
 * Interval 0, the default: no limit. */
void       sl_source_set_rate_limit (SlSource *src, const SlRateLimitSpec *spec);
const SlRateLimitSpec *sl_source_rate_limit (SlSource *src);
/* max-connections() of a source with SL_CAP_CONNECTIONS; 1 otherwise */
guint      sl_source_max_connections (SlSource *src);
/* max-connections-per-ip() (0: no limit) and idle-timeout() in ms (0:
 * never) of a source with SL_CAP_CONNECTIONS that serves its connections
 * itself; 0 otherwise. */
guint      sl_source_max_connections_per_ip (SlSource *src);
gint64     sl_source_idle_timeout_ms (SlSource *src);
/* The record size of the source's format() (SlFormatOps), 0 for lines. */
gsize      sl_source_record_size (SlSource *src);
/* log-msg-size() */
gsize      sl_source_max_msg_size (SlSource *src);

/* trim-large-messages() and escape-control-chars() */
SlTrimLargeMessages sl_source_trim_large_messages (SlSource *src);
SlEscapeControlChars sl_source_escape_control_chars (SlSource *src);
/* A stream source cut a line to log-msg-size(): counted and logged as
 * the source counts a message it cut itself. */
void       sl_source_count_truncated (SlSource *src);
/* Counts an event of this source: "connections", "rejected", "truncated",
 * "errors" ... */
void       sl_source_count      (SlSource *src, const gchar *counter, gint64 n);
const gchar *sl_source_id       (SlSource *src);

G_END_DECLS

#endif
