/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SlStreamWriter: the writing side of a byte stream, for destinations that
 * write to a pipe, a FIFO, a program's stdin or the daemon's stdout. A
 * batch is rendered into one buffer and written with as few calls as the
 * reader lets through; the writer waits a bounded time for room and never
 * leaves half a message: a message a full pipe cut is finished before
 * anything else is written. */
#ifndef SL_STREAM_WRITER_H
#define SL_STREAM_WRITER_H

#include <glib.h>
#include "core/message/message.h"
#include "core/message/template.h"

G_BEGIN_DECLS

typedef struct _SlStreamWriter SlStreamWriter;

/* keep_unread: remember what was written until the reader read it (for a
 * pipe whose reader can die: a program), so it can be written again to the
 * next reader. */
SlStreamWriter *sl_stream_writer_new   (gboolean keep_unread);
void            sl_stream_writer_free  (SlStreamWriter *w);

/* Writes what an earlier call left, then msgs[0..n) rendered with t; waits
 * at most wait_ms at a time for room. Returns how many of msgs went out,
 * counting one that was started (its end is written by the next call or
 * flush). When that is fewer than n, *err says why (EAGAIN: the reader
 * did not make room in time). */
guint           sl_stream_writer_write (SlStreamWriter *w, gint fd, const SlTemplate *t,
                                        const SlTemplateEnv *env, SlMessage *const *msgs, guint n,
                                        gint wait_ms, gint *err);
/* Writes only what earlier calls left; TRUE when nothing is left. */
gboolean        sl_stream_writer_flush (SlStreamWriter *w, gint fd, gint wait_ms, gint *err);
/* True while a started message or unread bytes to write again wait. */
gboolean        sl_stream_writer_pending (const SlStreamWriter *w);
/* The reader of fd is gone (call before closing fd): the messages it did
 * not read whole, as far as the pipe can tell, are written again, whole, to
 * the next fd. */
void            sl_stream_writer_reader_gone (SlStreamWriter *w, gint fd);

G_END_DECLS

#endif
