/* Reads a byte stream (a TCP or unix-stream connection, a pipe) in large
 * chunks, frames it by newline or RFC 6587 octet counting, and posts the
 * messages in batches under the source's flow-control window. */
#ifndef SL_STREAM_H
#define SL_STREAM_H

#include <glib.h>
#include "core/source.h"

G_BEGIN_DECLS

typedef struct _SlStreamReader SlStreamReader;

/* fd may be a socket, a pipe, a terminal or a file; the caller keeps it. */
SlStreamReader *sl_stream_reader_new    (SlSource *src, gint fd, const gchar *peer);
/* Frames by newline (or NUL) only, for pipes and files whose lines may
 * start with digits and a space: no RFC 6587 octet counting. Call before run. */
void            sl_stream_reader_frame_by_newline (SlStreamReader *r);
/* Reads until end of stream, an error, or cancel. Runs on the caller's thread. */
void            sl_stream_reader_run    (SlStreamReader *r);
/* From another thread, at a graceful stop: tells the peer that we are
 * going (our side of the connection is shut down, the peer reads its end)
 * while run() goes on reading, so a sender that notices closes after its
 * last message instead of sending into a closed socket. */
void            sl_stream_reader_finish (SlStreamReader *r);
/* Monotonic µs of the last read that brought data; 0 before any. */
gint64          sl_stream_reader_last_read (SlStreamReader *r);
/* From another thread: makes run() return soon, after it has read and
 * posted what the kernel already holds (bounded by the receive buffer),
 * without waiting for room in the window; a message cut at the end of
 * that is dropped. */
void            sl_stream_reader_cancel (SlStreamReader *r);
void            sl_stream_reader_free   (SlStreamReader *r);

G_END_DECLS

#endif
