/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SlSession: one connection of a protocol that SlListener serves on a
 * thread of the session's own, for a protocol whose answer waits (relp()
 * answers frames once its window is empty, OTLP an export once its records
 * are safe), so that a session waiting holds its peer only.
 *
 * The listener accepts, admits (max-connections-per-ip(),
 * max-connections() with SlAdmission making room), reads the PROXY
 * header and runs the TLS handshake before opened is called; then the
 * session's thread reads and hands what came to readable. The listener
 * hands a connection on once it brought bytes, and judges the session by
 * what the protocol reports
 * (complete messages, waits for its window), and ends it (evicted, timed
 * out, stopping) by shutting its socket down, which ends its read and its
 * writes. */
#ifndef SL_SESSION_H
#define SL_SESSION_H

#include <glib.h>
#include "core/io/tls.h"

G_BEGIN_DECLS

typedef struct _SlSession SlSession;

typedef struct
{
  /* On the session's thread, before anything is read: the protocol's
   * state for the session; NULL ends it at once. */
  gpointer (*opened)   (SlSession *session, gpointer data);
  /* On the session's thread, what the peer sent; FALSE ends the session.
   * more: TLS holds further bytes that the next read returns at once. */
  gboolean (*readable) (SlSession *session, gpointer state, const gchar *buf, gsize len, gboolean more);
  /* On the session's thread, once it ended (peer gone, evicted, timed
   * out, stopping, or readable said so): frees state. */
  void     (*closed)   (SlSession *session, gpointer state);
  /* The listener stops: on the stopping thread, with the listener's lock
   * held, while the session may be inside readable; it must give up
   * waiting (sl_window_cancel) without blocking. NULL: nothing waits. */
  void     (*cancel)   (SlSession *session, gpointer state);
  gsize read_size;     /* the largest read; 0: 64 KiB */
  /* Instead of the four above, for a protocol whose library reads the
   * socket itself (libmicrohttpd): on the session's thread, serves it
   * until it is over. */
  void     (*serve)    (SlSession *session, gpointer data);
} SlSessionOps;

/* The peer's numeric address (the PROXY header's client behind a
 * balancer), "local" for a unix peer. */
const gchar *sl_session_peer    (SlSession *s);
/* The handshaken TLS session, NULL without TLS (for sl_tls_set_fields
 * and the peer's identity). */
SlTls       *sl_session_tls     (SlSession *s);
/* Writes all of buf, waiting as long as the peer takes; FALSE when the
 * connection failed or was ended. */
gboolean     sl_session_write   (SlSession *s, const void *buf, gsize len);
/* The connected socket (non-blocking; the listener's, for serve to
 * dup). */
gint         sl_session_fd      (SlSession *s);
/* A complete message came: first-message-timeout() and idle-timeout()
 * count from it. */
void         sl_session_message (SlSession *s);
/* The protocol waits for room in its window (TRUE) or no longer: while
 * it waits its silence is ours, neither idle nor one to make room. */
void         sl_session_waiting (SlSession *s, gboolean waiting);
/* Why the read ended, when the connection broke (not when the peer
 * closed it, nor when the listener ended it): for the protocol's log. */
const gchar *sl_session_failure (SlSession *s);

G_END_DECLS

#endif
