/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Opening, saving and closing the persist file (-R): the daemon's, not
 * the plugin kit's, whose drivers only get and set values. */
#ifndef SL_PERSIST_PRIVATE_H
#define SL_PERSIST_PRIVATE_H

#include "core/persist.h"

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
/* Writes the store if it changed since it was last written: to a new file
 * renamed over the old one, so a crash leaves either the old or the new
 * contents. TRUE when nothing needed writing or no file is open. */
gboolean sl_persist_save  (GError **error);

G_END_DECLS

#endif
