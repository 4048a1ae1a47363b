/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The PROXY protocol header (HAProxy's, v1 text and v2 binary) that a
 * load balancer sends before a client's bytes: who the client was. A pure
 * parser, and the fields a message of such a connection carries, named as
 * syslog-ng 4 names them (PROXIED_SRCIP ...). */
#ifndef SL_PROXY_HEADER_H
#define SL_PROXY_HEADER_H

#include <glib.h>
#include "core/message/message.h"

G_BEGIN_DECLS

/* The longest header taken: v1 is at most 107 bytes; v2 is 16 bytes and
 * its addresses, plus TLVs that a balancer may add. */
#define SL_PROXY_HEADER_MAX 1024

typedef struct
{
  /* v2 LOCAL (a health check), v1 UNKNOWN or an address family other
   * than TCP over IPv4 or IPv6: the connection's own addresses stand */
  gboolean local;
  guint ip_version;         /* 4 or 6 */
  gchar src_ip[48];
  gchar dst_ip[48];
  guint16 src_port;
  guint16 dst_port;
} SlProxyHeader;

typedef enum
{
  SL_PROXY_HEADER_DONE,        /* *consumed bytes were the header */
  SL_PROXY_HEADER_INCOMPLETE,  /* every byte so far belongs to a header that goes on */
  SL_PROXY_HEADER_MALFORMED,   /* no PROXY header (or a broken one) */
  SL_PROXY_HEADER_TOO_LONG,    /* over SL_PROXY_HEADER_MAX (v1: 107) */
} SlProxyHeaderStatus;

/* Reads the header at the start of buf[0..len). */
SlProxyHeaderStatus sl_proxy_header_parse (const guint8 *buf, gsize len, SlProxyHeader *header,
                                           gsize *consumed);
/* Reading a header off a non-blocking socket, taking from it only the
 * header's bytes, so that what follows (the client's lines, or its TLS
 * handshake) stays in the kernel for whoever reads next. */
typedef struct
{
  guint8 buf[SL_PROXY_HEADER_MAX];
  gsize fill;
} SlProxyHeaderReader;

/* INCOMPLETE: call again once fd is readable. *closed when the peer
 * ended the connection (or it failed) before a whole header came. */
SlProxyHeaderStatus sl_proxy_header_read  (SlProxyHeaderReader *r, gint fd, SlProxyHeader *header,
                                           gboolean *closed);
/* A few words on why a status is not DONE, for logs. */
const gchar        *sl_proxy_header_failure (SlProxyHeaderStatus status);
/* Sets PROXIED_SRCIP, PROXIED_SRCPORT, PROXIED_DSTIP, PROXIED_DSTPORT and
 * PROXIED_IP_VERSION on msg (nothing for a local header). */
void                sl_proxy_header_set_fields (const SlProxyHeader *header, SlMessage *msg);

G_END_DECLS

#endif
