/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* State that outlives a restart, such as where a file() source stopped
 * reading: a small store of keys and values kept in the persist file
 * (sluiced -R). One store per process; sources of every configuration
 * share it, so a reload resumes where the previous configuration stopped. */
#ifndef SL_PERSIST_H
#define SL_PERSIST_H

#include <glib.h>

G_BEGIN_DECLS


/* The folder of the persist file, newly allocated, or NULL when none is
 * open: where state kept in files of its own (disk buffers) goes. */
gchar   *sl_persist_dir   (void);

/* The value of key, newly allocated, or NULL. Thread-safe. */
gchar   *sl_persist_get   (const gchar *key);
/* Sets key in the persist file's mapping: once this returns, the value
 * survives the process's death (kill -9). Thread-safe and without a system
 * call, and without allocating when key exists and the value is not much
 * longer than its first one, so a reading thread may call it as often as
 * it moves. */
void     sl_persist_set   (const gchar *key, const gchar *value);

G_END_DECLS

#endif
