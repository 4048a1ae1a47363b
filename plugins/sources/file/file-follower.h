/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Following one file as it grows, rotates and is truncated, its position
 * kept in the persist file: what file() runs for its path and
 * wildcard-file() for each file it finds. */
#ifndef FILE_FOLLOWER_H
#define FILE_FOLLOWER_H

#include "core/route/source.h"
#include "core/io/multi-line.h"

G_BEGIN_DECLS

typedef struct _SlFileFollower FileFollower;

/* What file() and wildcard-file() keep of multi-line-mode(): the kit's
 * options, multi-line-timeout(), and what was made of them. */
typedef struct
{
  SlMultiLineOptions options;
  gint64 timeout;           /* ms; 0: held until the next message starts */
  SlMultiLine *ml;          /* NULL: a message a line */
} FileMultiLine;

/* rsyslog's imfile addMetadata, for the rsyslog front end */
#define FILE_RSYSLOG_METADATA_OPTION(T, f) \
  { "rsyslog-metadata", SL_BOOL (T, f), "no", \
    "each message also gets the file's path and the offset its line starts at as the fields " \
    "!metadata.filename and !metadata.fileoffset: rsyslog's imfile addMetadata" }

/* rsyslog's imfile reopenOnTruncate, for the rsyslog front end */
#define FILE_RSYSLOG_REOPEN_ON_TRUNCATE_OPTION(T, f) \
  { "rsyslog-reopen-on-truncate", SL_BOOL (T, f), "yes", \
    "no: a file that got shorter than what was read is not read from its start again; reading goes on " \
    "from where it was once the file grows past it: rsyslog's imfile reopenOnTruncate=\"off\"" }

#define FILE_MULTI_LINE_OPTIONS(T, m) \
  SL_MULTI_LINE_OPTIONS (T, m.options), \
  { "multi-line-timeout", SL_DURATION (T, m.timeout), "0", \
    "a message waiting for more lines is sent when the file had nothing new this long; 0: when the next one starts" }

/* id names the driver in what is logged; persist_key names its position in
 * the persist file (NULL: "file(PATH)"); follow_ms 0: only inotify wakes
 * it; lines is the driver's multi-line-mode(), kept by it while the
 * follower lives; metadata: rsyslog-metadata(); reread_truncated:
 * rsyslog-reopen-on-truncate(). */
FileFollower *file_follower_new   (const gchar *id, const gchar *path, const gchar *persist_key,
                                   gint follow_ms, const FileMultiLine *lines, gboolean metadata,
                                   gboolean reread_truncated);
const gchar    *file_follower_path  (const FileFollower *follower);
/* Reads on a thread of its own, posting to source, until stopped. */
gboolean        file_follower_start (FileFollower *follower, SlSource *source, GError **error);
void            file_follower_stop  (FileFollower *follower);
void            file_follower_free  (FileFollower *follower);

G_END_DECLS

#endif
