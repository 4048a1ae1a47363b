/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the parts of the network destinations share: the driver instance,
 * the wire format, the connection to the current target, and the backlog
 * of stream bytes the peer has not yet acknowledged. */
#ifndef NETWORK_DESTINATION_H
#define NETWORK_DESTINATION_H

#include "core/plugin/plugin.h"
#include "core/io/resend-buffer.h"
#include "core/stats.h"
#include "core/message/template.h"
#include "core/io/tls.h"

#include <sys/socket.h>
#include <sys/uio.h>

G_BEGIN_DECLS

/* syslog-ng's legacy network form, the default template of all but
 * syslog(); the date is always the BSD one, as syslog-ng writes it
 * (ts-format() is for $STAMP in a template of one's own). */
#define NET_LEGACY_TEMPLATE "<${PRI}>${DATE} ${HOST} ${MSGHDR}${MESSAGE}\n"

/* How one message is put on the wire. */
typedef struct
{
  SlTemplate *template;     /* the whole message, or with rfc5424 its MSG part (NULL: $MESSAGE) */
  SlTemplate *sdata;        /* $SDATA, for the RFC 5424 header */
  SlTemplateEnv env;        /* the driver's, whose time zone it borrows */
  gboolean rfc5424;         /* syslog(): <PRI>1 ISODATE HOST APP PROCID MSGID SD MSG */
  gboolean octet_count;     /* RFC 6587 "LEN " before each frame: syslog() on a stream, or octet-count() */
  gsize truncate_size;      /* truncate-size(): a message cut to so many bytes; 0: never */
  gboolean add_newline;     /* add-newline(): one line feed at the end, unless it is there */
} NetFormat;

/* Appends msg as it goes on the wire; scratch is the caller's buffer for
 * an octet-counted frame. */
void net_format_append (const NetFormat *f, const SlMessage *msg, GString *out, GString *scratch);

typedef struct
{
  gchar *host;              /* or the path of a unix socket */
  gchar *port;
} NetTarget;

/* transport() of network() and syslog() */
typedef enum
{
  NET_TRANSPORT_TCP,
  NET_TRANSPORT_UDP,
  NET_TRANSPORT_TLS,
} NetTransport;

typedef struct
{
  SlDriver super;
  /* options */
  const gchar *host;        /* or the path of a unix socket */
  const gchar *port;
  const gchar *local_ip;
  const gchar *local_port;
  gint ip_protocol;
  gint transport;           /* NetTransport */
  gint64 so_sndbuf_bytes;
  gboolean so_keepalive;
  gboolean close_on_input;  /* data from a stream peer ends the connection */
  const SlCfgNode *failover;
  const SlCfgNode *tls_node;
  SlTemplate *template;
  gint64 truncate_size;
  gboolean add_newline;
  gboolean octet_count;

  NetFormat format;
  gint family;              /* AF_UNSPEC, AF_INET, AF_INET6 or AF_UNIX */
  gint socktype;            /* SOCK_STREAM or SOCK_DGRAM */
  gint so_sndbuf;

  GPtrArray *targets;       /* NetTarget: the primary, then failover servers in order */
  guint current;
  gboolean failback;
  gint64 probe_interval_us;
  guint probes_required;
  guint probes_passed;
  gint64 next_probe;        /* monotonic µs */

  SlTlsContext *tls_ctx;    /* transport("tls"): made at init */
  gint fd;
  SlTls *tls;               /* the connection's session, with tls_ctx */
  gchar why[SL_WRITE_REASON_MAX]; /* why the last connection or send failed: the write's reason */
  gboolean given_up;        /* see net_give_up() */
  SlResendBuffer backlog;   /* streams: wire bytes until the peer acknowledged them */
  GString *frame;           /* scratch for octet-counted frames */
  GString *datagrams;       /* datagrams: a batch's messages back to back */
  struct mmsghdr *hdrs;     /* one per message of the batch */
  struct iovec *iovs;
  guint hdrs_size;

  SlCounter *connections;
  SlCounter *connect_errors;
  SlCounter *resent;
  SlCounter *oversize;
  SlCounter *dropped;
} NetDestination;

/* Connecting: tries the current target, then the others in order; FALSE
 * when none could be reached, and why says why for each. */
gboolean net_connect          (NetDestination *self);
/* Whether the primary answers a connection (failback probes). */
gboolean net_probe_primary    (NetDestination *self);
/* Closes the socket at once. */
void     net_disconnect       (NetDestination *self);
/* send() and a recv() whose bytes are dropped (syslog peers send nothing
 * back), through the TLS session when there is one; -1 and errno
 * (EAGAIN: not now) as the system calls. */
gssize   net_send             (NetDestination *self, const gchar *data, gsize len);
gssize   net_recv_discard     (NetDestination *self);
const NetTarget *net_current_target (NetDestination *self);

typedef enum
{
  NET_WAIT_WRITABLE,
  NET_WAIT_CLOSED,          /* the stream peer closed or failed */
  NET_WAIT_STALLED,         /* the destination stops and the peer took nothing for a while */
} NetWait;

/* Waits until the socket can take more, or why it will not. */
NetWait  net_wait_writable    (NetDestination *self);
/* The destination stops and its peer stalled: nothing more is tried. */
void     net_give_up          (NetDestination *self);

/* Streams: tcp(), unix-stream(), network(transport(tcp)), syslog().
 * Both writers return how many messages, from the first, they handled;
 * the rest is given again after time-reopen(). */
guint    net_stream_write     (NetDestination *self, SlMessage *const *msgs, guint n);
void     net_stream_flush     (NetDestination *self);
void     net_stream_close     (NetDestination *self);

/* Datagrams: udp(), unix-dgram(), transport(udp). *dropped counts the
 * handled messages too large for a datagram. */
guint    net_dgram_write      (NetDestination *self, SlMessage *const *msgs, guint n, guint *dropped);

G_END_DECLS

#endif
