/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tcp(), udp(), network() and syslog(): syslog over IP. The sockets are
 * opened here; reading, framing and flow control are the core's listener
 * and readers. Framing is the driver's, as in syslog-ng: tcp() and
 * network() by newline, syslog() over TCP or TLS and
 * network(transport("framed")) by RFC 6587 octet counting. TLS
 * (transport("tls"), or tls() in tcp()) is the core's too: the context is
 * made from tls(...) at init, so its files are read at start and at each
 * reload. */
#include "plugins/sources/net/net-rsyslog.h"
#include "core/io/activation.h"
#include "core/config/error.h"
#include "core/route/driver.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/io/socket-reader.h"
#include "core/plugin/plugin.h"
#include "core/route/source.h"
#include "core/io/tls.h"

#include <sys/socket.h>
#include <unistd.h>

enum
{
  NET_TCP,
  NET_UDP,
  NET_FRAMED,
  NET_TLS,
  NET_PROXIED_TCP,          /* a PROXY header, then the client's lines */
  NET_PROXIED_TLS,          /* TLS (the balancer's), then a PROXY header in it */
  NET_PROXIED_TLS_PASSTHROUGH, /* a PROXY header, then the client's TLS */
};

static const SlOptionWord transport_words[] = {
  { "tcp", NET_TCP },
  { "udp", NET_UDP },
  { "framed", NET_FRAMED },
  { "tls", NET_TLS },
  { "proxied-tcp", NET_PROXIED_TCP },
  { "proxied-tls", NET_PROXIED_TLS },
  { "proxied-tls-passthrough", NET_PROXIED_TLS_PASSTHROUGH },
  { NULL }
};

/* tcp() takes only the stream transports */
static const SlOptionWord tcp_transport_words[] = {
  { "tcp", NET_TCP },
  { "tls", NET_TLS },
  { "proxied-tcp", NET_PROXIED_TCP },
  { "proxied-tls", NET_PROXIED_TLS },
  { "proxied-tls-passthrough", NET_PROXIED_TLS_PASSTHROUGH },
  { NULL }
};

static gboolean
is_tls (gint transport)
{
  return transport == NET_TLS || transport == NET_PROXIED_TLS || transport == NET_PROXIED_TLS_PASSTHROUGH;
}

/* TRANSPORT of each transport(), as syslog-ng 4.8's transport mappers
 * name them (transport-mapper-inet.c) */
static const gchar *const network_transports[] = {
  [NET_TCP] = "rfc3164+tcp", [NET_UDP] = "rfc3164+udp", [NET_FRAMED] = "rfc3164+framed",
  [NET_TLS] = "rfc3164+tls", [NET_PROXIED_TCP] = "rfc3164+proxied-tcp",
  [NET_PROXIED_TLS] = "rfc3164+proxied-tls", [NET_PROXIED_TLS_PASSTHROUGH] = "rfc3164+proxied-tls-passthrough",
};
static const gchar *const syslog_transports[] = {
  [NET_TCP] = "rfc6587", [NET_UDP] = "rfc5426", [NET_FRAMED] = "rfc5424+framed", [NET_TLS] = "rfc5425",
  [NET_PROXIED_TCP] = "rfc6587+proxied-tcp", [NET_PROXIED_TLS] = "rfc5424+proxied-tls",
  [NET_PROXIED_TLS_PASSTHROUGH] = "rfc5424+proxied-tls-passthrough",
};

/* What tells tcp(), udp(), network() and syslog() apart. */
typedef struct
{
  const gchar *const *transports;  /* TRANSPORT by transport(), or NULL for tcp() and udp() */
  gboolean datagram;         /* UDP whatever was written */
  gboolean rfc5424;          /* flags(syslog-protocol), and octet counting over TCP and TLS */
  const gchar *udp_port;     /* the port over UDP without port(), or NULL for the table's */
  const gchar *tls_port;     /* the port over TLS without port(), or NULL for the table's */
} NetSourceKind;

static const NetSourceKind tcp_kind = { 0 };
static const NetSourceKind udp_kind = { .datagram = TRUE };
/* RFC 5425's port, where syslog-ng's network() and syslog() listen for
 * TLS; syslog() over UDP listens where RFC 5426 puts it, as syslog-ng does */
static const NetSourceKind network_kind = { .transports = network_transports, .tls_port = "6514" };
static const NetSourceKind syslog_kind = { .transports = syslog_transports, .rfc5424 = TRUE, .udp_port = "514",
                                           .tls_port = "6514" };

typedef struct
{
  SlDriver super;
  const gchar *ip;
  const gchar *port;
  gint64 so_rcvbuf;
  gboolean so_keepalive;
  gint listen_backlog;
  gint transport;
  const SlCfgNode *tls_node;
  gboolean stream;
  gboolean inherited;       /* the socket is one systemd passed */
  gint rate_limit_interval;
  gint rate_limit_burst;
  SlTlsContext *tls;
  SlListenerSettings settings;
  SlSocketReader *reader;
} NetSource;

#define NET_OPTIONS(default_port) \
  { "ip", SL_STRING (NetSource, ip), "0.0.0.0", "address to listen on" }, \
  { "localip", SL_STRING (NetSource, ip), NULL, "the same as ip()" }, \
  { "port", SL_PORT (NetSource, port), default_port, "port to listen on" }, \
  { "localport", SL_PORT (NetSource, port), NULL, "the same as port()" }, \
  { "so-rcvbuf", SL_SIZE (NetSource, so_rcvbuf), "0", "socket receive buffer; 0 keeps the system default", \
    SL_RANGE (0, G_MAXINT) }, \
  { "ip-protocol", SL_UNBOUND (SL_OPT_INT), "4", "accepted for syslog-ng compatibility; the address decides" }

#define STREAM_OPTIONS \
  { "keep-alive", SL_UNBOUND (SL_OPT_BOOL), "yes", "accepted for syslog-ng compatibility", .inherit = "keep-alive" }, \
  { "so-keepalive", SL_BOOL (NetSource, so_keepalive), "no", "enable TCP keepalive probes" }, \
  { "listen-backlog", SL_INT (NetSource, listen_backlog), "256", "pending connections the kernel keeps", \
    SL_RANGE (1, 65535) }, \
  { "tls", SL_BLOCK (NetSource, tls_node), NULL, \
    "TLS: key-file() cert-file() ca-file() ca-dir() crl-dir() peer-verify() trusted-keys() trusted-dn() ..." }

/* rsyslogd's imudp limits what a socket takes in a window, its imtcp
 * what a listening socket's connections take together, whoever sends it
 * (SlRateLimit, every severity); no syslog-ng 4.8 source has such options */
#define RATE_LIMIT_OPTIONS(window, takes) \
  { "rate-limit-interval", SL_INT (NetSource, rate_limit_interval), "0", \
    "seconds of " window "; 0: no limit", SL_RANGE (0, G_MAXINT) }, \
  { "rate-limit-burst", SL_INT (NetSource, rate_limit_burst), "10000", \
    "messages " takes " in a window; the rest are dropped", SL_RANGE (1, G_MAXINT) }

static const SlOptionSpec tcp_options[] = {
  NET_OPTIONS ("514"), STREAM_OPTIONS,
  { "transport", SL_CHOICE (NetSource, transport), "tcp", "how messages come", .words = tcp_transport_words },
  RATE_LIMIT_OPTIONS ("the rate-limit window that all connections share", "all connections take"),
  { NULL }
};
static const SlOptionSpec udp_options[] = {
  NET_OPTIONS ("514"),
  RATE_LIMIT_OPTIONS ("the socket's rate-limit window", "the socket takes"),
  { NULL }
};
static const SlOptionSpec network_options[] = {
  NET_OPTIONS ("514"), STREAM_OPTIONS,
  { "transport", SL_CHOICE (NetSource, transport), "tcp", "how messages come", .words = transport_words },
  { NULL }
};
/* RFC 5424 goes on port 601 over TCP (syslog-conn, where syslog-ng
 * listens); over UDP syslog() takes 514 and over TLS 6514 (RFC 5425)
 * unless port() says otherwise */
static const SlOptionSpec syslog_options[] = {
  NET_OPTIONS ("601"), STREAM_OPTIONS,
  { "transport", SL_CHOICE (NetSource, transport), "tcp", "how messages come", .words = transport_words },
  { NULL }
};

/* tls() alone makes a TLS tcp(), as in syslog-ng; with network() and
 * syslog() it stands for transport("tls") unless another was written. */
static gboolean
read_tls (NetSource *self, GError **error)
{
  SlDriver *d = &self->super;
  /* udp() has neither transport() nor tls() */
  gboolean written = self->tls_node && sl_options_is_set (d->options, "transport");
  if (written && !is_tls (self->transport))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "tls"),
                        _("%s(): tls() needs transport(\"tls\")"), d->klass->name);
      return FALSE;
    }
  if (self->tls_node && !written)
    self->transport = NET_TLS;
  if (!is_tls (self->transport))
    return TRUE;
  if (!self->tls_node)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "transport"),
                        _("%s(): transport(\"tls\") needs tls(key-file(...) cert-file(...))"), d->klass->name);
      return FALSE;
    }
  g_autofree gchar *owner = g_strdup_printf ("%s()", d->klass->name);
  self->tls = sl_tls_context_new (owner, SL_TLS_SERVER, self->tls_node, d->pos, error);
  return self->tls != NULL;
}

static gboolean
net_init (SlDriver *d, GError **error)
{
  NetSource *self = (NetSource *) d;
  const NetSourceKind *kind = d->klass->data;
  if (!read_tls (self, error))
    return FALSE;
  self->stream = !kind->datagram && self->transport != NET_UDP;
  if (kind->rfc5424)
    sl_driver_source_add_flags (d, SL_SOURCE_FLAG_SYSLOG_PROTOCOL);
  gboolean syslog_stream = kind->rfc5424 && self->stream && self->transport != NET_FRAMED;
  gboolean octets = self->transport == NET_FRAMED || syslog_stream;
  self->settings.framing = octets ? SL_STREAM_FRAME_OCTET_COUNT : SL_STREAM_FRAME_NEWLINE;
  gboolean port_set = sl_options_is_set (d->options, "port") || sl_options_is_set (d->options, "localport");
  if (kind->udp_port && !self->stream && !port_set)
    self->port = kind->udp_port;
  if (kind->tls_port && is_tls (self->transport) && !port_set)
    self->port = kind->tls_port;
  self->settings.so_keepalive = self->so_keepalive;
  self->settings.so_rcvbuf = (gint) self->so_rcvbuf;
  self->settings.tls = self->tls;
  self->settings.proxy = self->transport == NET_PROXIED_TLS ? SL_LISTENER_PROXY_IN_TLS
                         : self->transport == NET_PROXIED_TCP || self->transport == NET_PROXIED_TLS_PASSTHROUGH
                           ? SL_LISTENER_PROXY_FIRST : SL_LISTENER_PROXY_NONE;
  return TRUE;
}

static void
net_free (SlDriver *d)
{
  NetSource *self = (NetSource *) d;
  if (self->tls)
    sl_tls_context_unref (self->tls);
}

static gint
open_socket (NetSource *self, GError **error)
{
  SlListenAddress where = { .ip = self->ip, .port = self->port, .type = self->stream ? SOCK_STREAM : SOCK_DGRAM,
                            .backlog = self->listen_backlog, .so_rcvbuf = self->settings.so_rcvbuf };
  return sl_activation_listen (&self->super, &where, &self->inherited, error);
}

static const gchar *
transport_name (const NetSource *self, const NetSourceKind *kind)
{
  if (kind->datagram)
    return "rfc3164+udp";
  if (!kind->transports)
    return self->tls ? "rfc3164+tls" : "rfc3164+tcp";
  return kind->transports[self->transport];
}

static gboolean
net_start (SlDriver *d, SlSource *source, GError **error)
{
  NetSource *self = (NetSource *) d;
  const NetSourceKind *kind = d->klass->data;
  self->settings.max_connections = sl_source_max_connections (source);
  sl_source_set_transport (source, transport_name (self, kind));
  SlRateLimitSpec limit = { (guint) self->rate_limit_interval, (guint) self->rate_limit_burst, 0 };
  sl_source_set_rate_limit (source, &limit);
  gint fd = open_socket (self, error);
  if (fd < 0)
    return FALSE;
  self->reader = sl_socket_reader_start (source, fd, self->stream, &self->settings, error);
  if (!self->reader)
    return FALSE;
  if (self->inherited)
    sl_log (SL_LOG_NOTICE, _("%s() listening on %s port %s (%s), on the socket systemd passed"), d->klass->name,
            self->ip, self->port, self->tls ? "tls" : self->stream ? "tcp" : "udp");
  else
    sl_log (SL_LOG_INFO, _("%s() listening on %s port %s (%s)"), d->klass->name, self->ip, self->port,
            self->tls ? "tls" : self->stream ? "tcp" : "udp");
  return TRUE;
}

static void
net_stop (SlDriver *d)
{
  NetSource *self = (NetSource *) d;
  if (self->reader)
    sl_socket_reader_stop (self->reader);
  self->reader = NULL;
}

static const SlSourceOps net_ops = {
  .start = net_start,
  .stop = net_stop,
};

#define NET_SOURCE_CLASS(var, word, variant, table, caps, defs, text) \
  static const SlDriverClass var = { \
    .kind = SL_DRIVER_SOURCE, \
    .name = word, \
    .summary = text, \
    .options = table, \
    .defaults = defs, \
    .capabilities = caps, \
    .instance_size = sizeof (NetSource), \
    .data = &variant, \
    .init = net_init, \
    .free = net_free, \
    .ops.source = &net_ops, \
  }

#define STREAM_CAPS (SL_CAP_PARSES | SL_CAP_CONNECTIONS)

NET_SOURCE_CLASS (tcp_class, "tcp", tcp_kind, tcp_options, STREAM_CAPS, NULL,
                  "receive syslog over TCP, one message a line; TLS with tls()");
NET_SOURCE_CLASS (udp_class, "udp", udp_kind, udp_options, SL_CAP_PARSES, NULL, "receive syslog datagrams over UDP");
NET_SOURCE_CLASS (network_class, "network", network_kind, network_options, STREAM_CAPS, NULL,
                  "receive syslog over TCP (one message a line, or octet-counted with transport(\"framed\")), UDP or TLS");
NET_SOURCE_CLASS (syslog_class, "syslog", syslog_kind, syslog_options, STREAM_CAPS,
                  ((const gchar *const[]) { "flags", "syslog-protocol", NULL }),
                  "receive RFC 5424 syslog over TCP (port 601, octet-counted), UDP (port 514) or TLS (port 6514)");

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "net-source",
  .drivers = (const SlDriverClass *const[]) { &tcp_class, &udp_class, &network_class, &syslog_class, NULL },
  .rsyslog_modules = (const SlRsModule *const[]) { &net_imudp, &net_imtcp, &net_imptcp, NULL },
};
