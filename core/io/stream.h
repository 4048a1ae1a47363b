/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Reads a byte stream (a TCP or unix-stream connection, a pipe) in large
 * chunks, frames it by newline or RFC 6587 octet counting as its source
 * declares, and posts the messages in batches under the source's
 * flow-control window. */
#ifndef SL_STREAM_H
#define SL_STREAM_H

#include <glib.h>
#include "core/route/source.h"
#include "core/io/proxy-header.h"
#include "core/io/tls.h"
#include "core/route/rate-limit.h"

G_BEGIN_DECLS

typedef struct _SlStreamReader SlStreamReader;

typedef enum
{
  SL_STREAM_AGAIN,   /* nothing to read now: wait until the descriptor is readable */
  SL_STREAM_MORE,    /* the reads allowed were done; more may be waiting */
  SL_STREAM_FULL,    /* the window is full: its notify is called once it has room */
  SL_STREAM_END,     /* end of stream or an error: what was read is posted */
} SlStreamStatus;

/* How a source's stream is cut into messages; never guessed from the
 * bytes, as a line may well start with digits and a space. */
typedef enum
{
  /* a newline (or NUL) ends each message: tcp(), network(), unix-stream(),
   * pipes and files, as syslog-ng reads them */
  SL_STREAM_FRAME_NEWLINE,
  /* RFC 6587 octet counting, "LEN MESSAGE": syslog() over TCP and
   * network(transport("framed")). Newlines between frames are skipped; a
   * connection whose frame does not start with a length is counted as a
   * framing error and read by newline from there on. */
  SL_STREAM_FRAME_OCTET_COUNT,
} SlStreamFraming;

/* fd may be a socket, a pipe, a terminal or a file; the caller keeps it. */
SlStreamReader *sl_stream_reader_new    (SlSource *src, gint fd, const gchar *peer, SlStreamFraming framing);
/* Reads through tls (whose handshake is over; the caller keeps it) from
 * now on, and sets its peer's certificate fields on every message. */
void            sl_stream_reader_set_tls (SlStreamReader *r, SlTls *tls);
/* Every message is counted in limit (the caller keeps it; other readers
 * may share it), and those it drops are counted as "rate_limited". */
void            sl_stream_reader_set_rate_limit (SlStreamReader *r, SlRateLimit *limit);
/* For a connection behind a load balancer: the client the PROXY header
 * named is the peer from now on ($SOURCEIP, $HOST_FROM), and every
 * message carries its PROXIED_* fields. A local header changes nothing. */
void            sl_stream_reader_set_proxy (SlStreamReader *r, const SlProxyHeader *header);
/* For a PROXY header inside the stream (syslog-ng's proxied-tls: after
 * the TLS handshake): the first bytes read must be one, taken as
 * sl_stream_reader_set_proxy() takes it; without one the stream ends
 * there, counted as "proxy_refused". */
void            sl_stream_reader_expect_proxy (SlStreamReader *r);
/* Whether that header is still awaited. */
gboolean        sl_stream_reader_awaiting_proxy (SlStreamReader *r);
/* The peer its messages name: the client of a PROXY header once read. */
const gchar    *sl_stream_reader_peer (SlStreamReader *r);
/* The connection's flow-control window, for its owner to set a notify. */
SlWindow       *sl_stream_reader_window (SlStreamReader *r);
/* Up to reads read()s of 64 KiB, each framed and its messages posted,
 * while the window has room. Never waits on a non-blocking descriptor:
 * what an I/O worker calls when the descriptor is readable. */
SlStreamStatus  sl_stream_reader_pump   (SlStreamReader *r, guint reads);
/* On the reading thread, at a stop: reads and posts what the kernel
 * already holds (bounded by the receive buffer) without waiting for room
 * in the window; a message cut at the end of that is dropped. */
void            sl_stream_reader_drain  (SlStreamReader *r);

/* Reads a blocking descriptor on the caller's thread until end of
 * stream, an error, or cancel: for pipes and stdin, which have a thread
 * of their own. */
void            sl_stream_reader_run    (SlStreamReader *r);
/* From another thread, at a graceful stop: tells the peer that we are
 * going (our side of the connection is shut down, the peer reads its end)
 * while reading goes on, so a sender that notices closes after its
 * last message instead of sending into a closed socket. */
void            sl_stream_reader_finish (SlStreamReader *r);
/* Monotonic µs of the last read that brought data; 0 before any. */
gint64          sl_stream_reader_last_read (SlStreamReader *r);
/* Monotonic µs of the last read that completed a frame; 0 before any.
 * A peer that trickles a byte at a time moves last_read, not this. */
gint64          sl_stream_reader_last_frame (SlStreamReader *r);
/* From another thread: makes run() return soon, after it drained (see
 * sl_stream_reader_drain). */
void            sl_stream_reader_cancel (SlStreamReader *r);
void            sl_stream_reader_free   (SlStreamReader *r);

G_END_DECLS

#endif
