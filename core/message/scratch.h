/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Per-thread scratch buffers: what the hot path renders or copies into
 * once per message, kept per thread so that nothing is allocated once the
 * buffers have grown. A caller owns a key of its own, so that two users
 * never share a buffer (a value that lives in one can be given to the
 * other). A buffer that grew past 256 KiB (a huge message) is made anew
 * rather than kept at that size:
 *   static GPrivate key = SL_SCRATCH_INIT;
 *   GString *s = sl_scratch_get (&key);
 * Callers that nest (a template function rendering its arguments, which
 * may call template functions) take one buffer per level instead:
 * sl_scratch_push() and, when done with it, sl_scratch_pop(). One key is
 * used one way or the other. */
#ifndef SL_SCRATCH_H
#define SL_SCRATCH_H

#include <glib.h>

G_BEGIN_DECLS

#define SL_SCRATCH_INIT G_PRIVATE_INIT (sl_scratch_free)

void     sl_scratch_free (gpointer scratch);
/* The thread's buffer of key, emptied. */
GString *sl_scratch_get  (GPrivate *key);
/* The thread's next buffer of key, emptied; valid until the matching pop. */
GString *sl_scratch_push (GPrivate *key);
void     sl_scratch_pop  (GPrivate *key);

G_END_DECLS

#endif
