/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Opening, saving and closing the persist file (-R): the daemon's, not
 * the plugin kit's, whose drivers only get and set values. */
#ifndef SL_PERSIST_PRIVATE_H
#define SL_PERSIST_PRIVATE_H

#include "core/store/persist.h"

G_BEGIN_DECLS

/* Maps path, making it when missing, and makes it the store. A file of
 * the text format of version 1 is converted; one cut short or damaged is
 * reported through sl_log() and what is whole in it is kept. FALSE when
 * what is there is not the daemon's (a symbolic link, a folder, another
 * user's file): the store then starts empty and is kept in memory only,
 * so that what is there stays as it is. FALSE as well when it cannot be
 * read; the store then starts empty and is written to path as soon as it
 * can be. */
gboolean sl_persist_open  (const gchar *path, GError **error);
/* Syncs the file to disk (for a power loss; a value set survives the
 * process's death without it) and tries again to write what the file had
 * no room for. FALSE, with *error, when something is still only in
 * memory. */
gboolean sl_persist_sync  (GError **error);
/* Syncs and forgets every value. */
void     sl_persist_close (void);

G_END_DECLS

#endif
