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

/* A front for tls, handshaken on fd (non-blocking; both the caller's);
 * NULL with *why set when no socketpair could be made. *plain is the
 * transport's end of the socketpair. */
OtelTlsFront *otel_tls_front_new  (SlTls *tls, gint fd, gint *plain, gchar **why);
/* Moves bytes both ways until either side ends. */
void          otel_tls_front_pump (OtelTlsFront *front);
/* Closes the front's end of the socketpair and frees it. */
void          otel_tls_front_free (OtelTlsFront *front);

#endif
