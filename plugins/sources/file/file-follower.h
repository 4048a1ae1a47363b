/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Following one file as it grows, rotates and is truncated, its position
 * kept in the persist file: what file() runs for its path and
 * wildcard-file() for each file it finds. */
#ifndef FILE_FOLLOWER_H
#define FILE_FOLLOWER_H

#include "core/route/source.h"
#include "plugins/sources/file/multi-line.h"

G_BEGIN_DECLS

typedef struct _SlFileFollower FileFollower;

/* id names the driver in what is logged; persist_key names its position in
 * the persist file (NULL: "file(PATH)"); follow_ms 0: only inotify wakes
 * it; ml (kept by the caller while the follower lives) NULL: a message a
 * line. */
FileFollower *file_follower_new   (const gchar *id, const gchar *path, const gchar *persist_key,
                                        gint follow_ms, const MultiLine *ml);
const gchar    *file_follower_path  (const FileFollower *follower);
/* Reads on a thread of its own, posting to source, until stopped. */
gboolean        file_follower_start (FileFollower *follower, SlSource *source, GError **error);
void            file_follower_stop  (FileFollower *follower);
void            file_follower_free  (FileFollower *follower);

G_END_DECLS

#endif
