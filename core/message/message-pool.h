/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Memory for messages. A message is allocated by the thread that reads it
 * and freed by the destination thread that wrote it last; through malloc
 * the two threads contend for one arena lock on every message. Blocks of a
 * few fixed sizes instead circulate in magazines: a thread frees into its
 * own list and hands a full magazine to a shared depot, a reading thread
 * takes a whole magazine at a time: one lock per few hundred messages. */
#ifndef SL_MESSAGE_POOL_H
#define SL_MESSAGE_POOL_H

#include <glib.h>

G_BEGIN_DECLS

/* size bytes, not zeroed; *pool_class says how to give it back (0: malloc). */
gpointer sl_message_pool_alloc (gsize size, guint8 *pool_class);
void     sl_message_pool_free  (gpointer block, guint8 pool_class);
/* The bytes a block of each pool_class holds, from 1 (0: a malloc'd block). */
extern const guint16 sl_message_pool_sizes[];

static inline gsize
sl_message_pool_block_size (guint8 pool_class)
{
  return sl_message_pool_sizes[pool_class];
}
/* Gives back what a burst left: depot magazines unused since the last call
 * and then, once nothing more came back, malloc's free pages. Called about
 * once a second by the daemon; returns the bytes of blocks freed. */
gsize    sl_message_pool_trim (void);
/* For tests: how many full magazines of pool_class wait in the depot. */
guint    sl_message_pool_depot_magazines (guint8 pool_class);

G_END_DECLS

#endif
