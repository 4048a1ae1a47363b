/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sluice-gen's connections: each sends prepared buffers of frames with
 * large writes (sendmmsg for UDP), paced per batch, on a thread of its own
 * or, when each sends a fixed count unpaced, on one of a few threads that
 * take the connections in turn; when asked, it connects again after a
 * break and goes on with the next message (over RELP: with the first one
 * not answered). */
#ifndef SL_GEN_SENDER_H
#define SL_GEN_SENDER_H

#include <glib.h>
#include "tools/gen/format.h"

G_BEGIN_DECLS

typedef enum
{
  SL_GEN_TCP,
  SL_GEN_UDP,
  SL_GEN_UNIX_STREAM,
} SlGenTransport;

typedef struct
{
  SlGenTransport transport;
  const gchar *target;      /* host name or address; the socket's path for unix */
  const gchar *port;
  SlGenFormat format;
  guint connections;
  guint first_conn;         /* id of the first connection */
  guint64 rate;             /* messages per second per connection; 0: no limit */
  guint64 count;            /* messages per connection; 0: no limit */
  gdouble seconds;          /* 0: no limit */
  const GPtrArray *replay;  /* lines to send instead of generated messages, or NULL */
  gboolean reconnect;       /* a stream connection that breaks is made again */
  guint reconnect_timeout;  /* seconds a reconnection may take before the connection fails */
  gboolean tls;             /* TCP connections speak TLS */
  const gchar *tls_ca;      /* CA certificates to check the server's with, or NULL: not checked */
  const gchar *tls_cert;    /* a client certificate and its key, or NULL */
  const gchar *tls_key;
  gboolean relp;            /* TCP connections speak RELP: a message counts once answered */
  guint relp_window;        /* RELP frames sent before their answers came */
} SlGenPlan;

/* What a connection's breaks cost. A stream cannot tell what the peer read
 * of the bytes the kernel took, so possibly_lost counts the messages the
 * last write() before each break completed; a message cut by a break is
 * sent again whole, so its first part may arrive too (possibly_duplicated).
 * "sluice-gen verify" counts what really arrived. */
typedef struct
{
  guint id;
  guint reconnects;
  guint64 possibly_lost;
  guint64 possibly_duplicated;
} SlGenConnBreaks;

typedef struct _SlGenSender SlGenSender;

/* Connects every connection, then starts sending on all of them. NULL and
 * error when a connection cannot be made. */
SlGenSender *sl_gen_sender_start    (const SlGenPlan *plan, GError **error);
/* Messages and bytes sent so far, by all connections. */
void         sl_gen_sender_progress (SlGenSender *s, guint64 *messages, guint64 *bytes);
gboolean     sl_gen_sender_done     (SlGenSender *s);
/* Waits for every connection to finish and frees s. Seconds from the first
 * send to the end of the last; breaks (may be NULL) gets an
 * SlGenConnBreaks per connection. FALSE and error when a connection failed
 * (what it sent still counts). */
gboolean     sl_gen_sender_finish   (SlGenSender *s, guint64 *messages, guint64 *bytes,
                                     gdouble *seconds, GArray **breaks, GError **error);

G_END_DECLS

#endif
