/* SPDX-License-Identifier: GPL-2.0-or-later */
/* TLS in front of a transport that speaks plaintext on a socket: the
 * core's TLS session (OpenSSL, tls() as syslog-ng spells it) on the
 * client's connection, the plaintext over a socketpair. libmicrohttpd has
 * only GnuTLS, with options of its own, and nghttp2 takes bytes from
 * whoever reads them; one front serves both with the same tls(). */
#ifndef OTEL_TLS_FRONT_H
#define OTEL_TLS_FRONT_H

#include "core/io/tls.h"

typedef struct _OtelTlsFront OtelTlsFront;

/* Finishes the handshake on fd (non-blocking) within the context's
 * handshake-timeout(), or until stop_fd is readable; NULL with *why set
 * when it fails. *plain is the transport's end of the socketpair. */
OtelTlsFront *otel_tls_front_new  (SlTlsContext *ctx, gint fd, gint stop_fd, gint *plain, gchar **why);
/* Moves bytes both ways until either side ends or stop_fd is readable. */
void          otel_tls_front_pump (OtelTlsFront *front);
/* Closes the front's sockets (not fd) and frees it. */
void          otel_tls_front_free (OtelTlsFront *front);

#endif
