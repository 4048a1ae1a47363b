/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* TLS for stream connections (OpenSSL), shared by the network sources and
 * destinations: the tls(...) block's options as syslog-ng spells them, a
 * context made from them when the configuration is made (so a bad file is a
 * configuration error with its position, at start and at reload), and a
 * non-blocking session per connection that the listener, the stream reader
 * and the destination writers drive. */
#ifndef SL_TLS_H
#define SL_TLS_H

#include <glib.h>
#include "core/message/message.h"
#include "core/plugin/options.h"

G_BEGIN_DECLS

typedef enum
{
  SL_TLS_SERVER,            /* a source: accepts, asks for the client's certificate */
  SL_TLS_CLIENT,            /* a destination: connects, checks the server's name */
} SlTlsRole;

typedef struct _SlTlsContext SlTlsContext;
typedef struct _SlTls SlTls;

/* Reads node (the driver's tls() block, or NULL for all defaults) as
 * core/io/tls-block.h does, reads the certificate, key, CA and CRL files
 * now, and makes the context; owner names the driver in errors ("tcp()").
 * An error names the option and its position. */
SlTlsContext *sl_tls_context_new   (const gchar *owner, SlTlsRole role, const SlCfgNode *node,
                                    SlCfgPos driver_pos, GError **error);
SlTlsContext *sl_tls_context_ref   (SlTlsContext *ctx);
void          sl_tls_context_unref (SlTlsContext *ctx);
/* handshake-timeout(): how long a peer may take to finish its handshake. */
gint64        sl_tls_context_handshake_timeout_ms (const SlTlsContext *ctx);
/* ALPN (RFC 7301) for a protocol over TLS that needs it, such as gRPC's
 * "h2": a server context selects protocol when the client offers it and
 * goes on without ALPN when it does not; a client context offers it. Call
 * before the first session is made. */
void          sl_tls_context_set_alpn (SlTlsContext *ctx, const gchar *protocol);

typedef enum
{
  SL_TLS_DONE,              /* the handshake is over / the call did its work */
  SL_TLS_WANT_READ,         /* call again once the descriptor is readable */
  SL_TLS_WANT_WRITE,        /* ... writable */
  SL_TLS_CLOSED,            /* the peer ended the session (close_notify or end of stream) */
  SL_TLS_FAILED,            /* refused or broken: sl_tls_failure() says why */
} SlTlsStatus;

/* A session on the connected non-blocking socket fd (the caller keeps
 * it). A client names the host it connects to: its certificate must carry
 * that name when peer-verify() is *-trusted, and sni(yes) sends it. */
SlTls        *sl_tls_new           (SlTlsContext *ctx, gint fd, const gchar *host);
void          sl_tls_free          (SlTls *t);
SlTlsStatus   sl_tls_handshake     (SlTls *t);
/* Why the handshake or the session failed, in a few words ("certificate
 * has expired", "peer did not return a certificate" ...). */
const gchar  *sl_tls_failure       (const SlTls *t);

/* Reads up to len bytes of plaintext, looping over records until len is
 * filled or the socket has nothing more: the bytes read (> 0), or 0 with
 * *status saying why not (WANT_READ: nothing now; CLOSED; FAILED). */
gsize         sl_tls_read          (SlTls *t, gchar *buf, gsize len, SlTlsStatus *status);
/* Plaintext that OpenSSL already holds: epoll does not see it, so a
 * reader that stops before it read everything must come back by itself. */
gboolean      sl_tls_pending       (const SlTls *t);
/* Writes up to len bytes (whole records once accepted): the bytes taken
 * (> 0), or 0 with *status (WANT_WRITE, WANT_READ, FAILED). After a WANT_*
 * the same bytes must be given again. */
gsize         sl_tls_write         (SlTls *t, const gchar *buf, gsize len, SlTlsStatus *status);
/* Of the plaintext sl_tls_write took, how much is not yet known to have
 * reached the peer when the kernel still holds wire_unacked bytes
 * (SIOCOUTQ) of the records: a write's plaintext counts as delivered once
 * the last byte of its records was acknowledged. */
gsize         sl_tls_unacked       (SlTls *t, gsize wire_unacked);
/* Sends close_notify without waiting for the peer's. */
void          sl_tls_close_notify  (SlTls *t);

/* The peer's certificate after the handshake, as syslog-ng names the
 * fields: .tls.x509_cn, .tls.x509_o, .tls.x509_ou, and .tls.x509_fp
 * ("SHA1:..." as trusted-keys() takes it). Sets those the certificate has
 * on msg, copied; handles are interned once. */
void          sl_tls_set_fields    (const SlTls *t, SlMessage *msg);
/* The same fields without a copy per message: appends each value,
 * NUL-terminated (empty when the certificate has none), to tail, which a
 * reader keeps behind every frame (sl_source_parse_extra());
 * sl_tls_set_field_slices() sets them on msg as slices of its copy,
 * the values starting at values. */
void          sl_tls_append_fields (const SlTls *t, GString *tail);
void          sl_tls_set_field_slices (SlMessage *msg, const gchar *values);
/* The peer certificate's common name, or NULL. */
const gchar  *sl_tls_peer_cn       (const SlTls *t);

G_END_DECLS

#endif
