/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The relp() destination's connection: its bytes, plain or TLS, read
 * and written by a thread that may block on it: every wait is a poll()
 * bounded by a deadline and ended early by the owner's stop descriptor. */
#ifndef RELP_CONN_H
#define RELP_CONN_H

#include <glib.h>
#include "core/io/tls.h"

G_BEGIN_DECLS

typedef struct
{
  gint fd;                  /* non-blocking, owned */
  SlTls *tls;               /* or NULL; owned */
  gint stop_fd;             /* readable once the owner stops; -1: none */
} RelpConn;

typedef enum
{
  RELP_IO_OK,
  RELP_IO_TIMEOUT,
  RELP_IO_STOPPED,
  RELP_IO_CLOSED,           /* the peer ended the connection */
  RELP_IO_FAILED,           /* errno, or the TLS session, says why */
} RelpIoStatus;

/* fd is made non-blocking; with ctx, a TLS session is set up (host: the
 * name the server's certificate must carry, NULL for a server). */
void         relp_conn_init      (RelpConn *c, gint fd, SlTlsContext *ctx, const gchar *host, gint stop_fd);
void         relp_conn_close     (RelpConn *c);
/* Runs the TLS handshake, if any, until deadline (monotonic µs). */
RelpIoStatus relp_conn_handshake (RelpConn *c, gint64 deadline);
/* Reads what is there, waiting until deadline for at least a byte. */
RelpIoStatus relp_conn_read      (RelpConn *c, gchar *buf, gsize len, gsize *got, gint64 deadline);
/* Whether a read would find bytes without waiting (TLS keeps some). */
gboolean     relp_conn_pending   (RelpConn *c);
RelpIoStatus relp_conn_write_all (RelpConn *c, const gchar *buf, gsize len, gint64 deadline);
/* Why the last call failed, in a few words. */
const gchar *relp_conn_failure   (RelpConn *c, RelpIoStatus status);

G_END_DECLS

#endif
