/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* State that outlives a restart, such as where a file() source stopped
 * reading: a small store of keys and values kept in the persist file
 * (sluiced -R). One store per process; sources of every configuration
 * share it, so a reload resumes where the previous configuration stopped. */
#ifndef SL_PERSIST_H
#define SL_PERSIST_H

#include <glib.h>

G_BEGIN_DECLS

/* Loads path (a missing file is an empty store) and makes it the file
 * sl_persist_save() writes. FALSE when what is there is not the daemon's
 * (a symbolic link, a folder, another user's file): the store then starts
 * empty and is kept in memory only, so that what is there stays as it
 * is. FALSE as well when it cannot be read; the store then starts empty
 * and is still saved to path. */
gboolean sl_persist_open  (const gchar *path, GError **error);
/* Saves what changed and forgets every value. */
void     sl_persist_close (void);

/* The folder of the persist file, newly allocated, or NULL when none is
 * open: where state kept in files of its own (disk buffers) goes. */
gchar   *sl_persist_dir   (void);

/* The value of key, newly allocated, or NULL. Thread-safe. */
gchar   *sl_persist_get   (const gchar *key);
/* Sets key in memory; sl_persist_save() writes it. Thread-safe, never
 * touches the disk, so a reading thread may call it as often as it moves. */
void     sl_persist_set   (const gchar *key, const gchar *value);

/* Writes the store if it changed since it was last written: to a new file
 * renamed over the old one, so a crash leaves either the old or the new
 * contents. TRUE when nothing needed writing or no file is open. */
gboolean sl_persist_save  (GError **error);

G_END_DECLS

#endif
