/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tcp(), udp(), network(), syslog(), unix-stream() and unix-dgram()
 * destinations: the module, its option tables and the drivers' operations.
 * TLS is the core's (core/io/tls.h): the context is made from tls(...) at
 * init, so its files are read at start and at each reload.
 * Connections are made lazily on the destination's thread and made again
 * after time-reopen() when they fail; failover() servers stand in for an
 * unreachable primary. */
#include "plugins/destinations/network/network-rsyslog.h"
#include "plugins/destinations/network/network-destination.h"
#include "core/config/error.h"
#include "core/route/driver.h"
#include "core/i18n.h"

#include <string.h>

static const SlOptionWord transport_words[] = {
  { "tcp", NET_TRANSPORT_TCP },
  { "udp", NET_TRANSPORT_UDP },
  { "tls", NET_TRANSPORT_TLS },
  { NULL }
};

static const SlOptionWord ip_protocol_words[] = {
  { "0", 0 }, { "4", 4 }, { "6", 6 }, { NULL }
};

/* What tells the classes apart. */
typedef struct
{
  gboolean unix_socket;      /* a path, not a host and port */
  gboolean has_transport;    /* transport() chooses; without it, tls() makes TCP into TLS */
  gboolean datagram;         /* datagrams whatever was written */
  gboolean rfc5424;          /* syslog(): its own header, octet-counted over streams */
  const gchar *tls_port;     /* the port over TLS without port(), or NULL for the table's */
} NetDestinationKind;

static const NetDestinationKind tcp_kind = { 0 };
static const NetDestinationKind udp_kind = { .datagram = TRUE };
/* RFC 5425's port, as syslog-ng's network() and syslog() use it */
static const NetDestinationKind network_kind = { .has_transport = TRUE, .tls_port = "6514" };
static const NetDestinationKind syslog_kind = { .has_transport = TRUE, .rfc5424 = TRUE, .tls_port = "6514" };
static const NetDestinationKind unix_stream_kind = { .unix_socket = TRUE };
static const NetDestinationKind unix_dgram_kind = { .unix_socket = TRUE, .datagram = TRUE };

#define IP_OPTIONS(default_port, port_help) \
  { "host", SL_STRING (NetDestination, host), NULL, "the host to send to", .flags = SL_OPT_POSITIONAL }, \
  { "port", SL_PORT (NetDestination, port), default_port, port_help }, \
  { "destport", SL_PORT (NetDestination, port), NULL, "the same as port()" }, \
  { "ip", SL_STRING (NetDestination, local_ip), NULL, "local address to send from" }, \
  { "localip", SL_STRING (NetDestination, local_ip), NULL, "the same as ip()" }, \
  { "localport", SL_PORT (NetDestination, local_port), NULL, "local port to send from; 0: any", SL_RANGE (0, 65535) }, \
  { "ip-protocol", SL_CHOICE (NetDestination, ip_protocol), "0", "4 or 6 to resolve the host to that family only; 0 takes either", \
    .words = ip_protocol_words }, \
  { "so-keepalive", SL_BOOL (NetDestination, so_keepalive), "no", "enable TCP keepalive probes" }, \
  { "failover", SL_BLOCK (NetDestination, failover), NULL, \
    "servers(\"h2\" \"h3\") to try in order when the host cannot be reached, failback() to return" }

#define TEMPLATE_OPTION \
  { "template", SL_TEMPLATE (NetDestination, template), NET_LEGACY_TEMPLATE, \
    "how each message is written (a template or a template's name)" }

/* syslog() writes the RFC 5424 header itself, as syslog-ng does. */
#define MSG_TEMPLATE_OPTION \
  { "template", SL_TEMPLATE (NetDestination, template), NULL, "the MSG part after the RFC 5424 header; $MESSAGE when unset" }

#define COMMON_OPTIONS \
  { "so-sndbuf", SL_SIZE (NetDestination, so_sndbuf_bytes), "0", "socket send buffer; 0 keeps the system default", \
    SL_RANGE (0, G_MAXINT) }, \
  { "keep-alive", SL_UNBOUND (SL_OPT_BOOL), "yes", "accepted for syslog-ng compatibility; a reload reconnects", \
    .inherit = "keep-alive" }, \
  { "close-on-input", SL_BOOL (NetDestination, close_on_input), "yes", \
    "close the connection when the server sends anything; no: what it sends is read and dropped" }, \
  { "truncate-size", SL_SIZE (NetDestination, truncate_size), "0", \
    "cut each message to so many bytes as it is written, its line feed too, as syslog-ng does; 0: never", \
    SL_RANGE (0, G_MAXINT) }, \
  { "add-newline", SL_BOOL (NetDestination, add_newline), "no", \
    "end each message with a line feed, after truncate-size(), unless it ends with one: rsyslog's omfwd over TCP" }, \
  { "octet-count", SL_BOOL (NetDestination, octet_count), "no", \
    "on a stream, write each message's length and a space before it (RFC 6587 octet counting), as rsyslog's " \
    "omfwd with TCP_Framing=\"octet-counted\" does" }

#define TRANSPORT_OPTION(def) \
  { "transport", SL_CHOICE (NetDestination, transport), def, "how messages go", .words = transport_words }

#define TLS_OPTION \
  { "tls", SL_BLOCK (NetDestination, tls_node), NULL, \
    "TLS: ca-file() ca-dir() crl-dir() peer-verify() key-file() cert-file() sni() trusted-keys() ..." }

#define PORT_HELP "the port to send to"

static const SlOptionSpec tcp_options[] = {
  IP_OPTIONS ("514", PORT_HELP), TEMPLATE_OPTION, COMMON_OPTIONS, TLS_OPTION, { NULL }
};
static const SlOptionSpec udp_options[] = {
  IP_OPTIONS ("514", PORT_HELP), TEMPLATE_OPTION, COMMON_OPTIONS, { NULL }
};
static const SlOptionSpec network_options[] = {
  IP_OPTIONS ("514", PORT_HELP "; 6514 over tls when unset"), TRANSPORT_OPTION ("tcp"), TEMPLATE_OPTION,
  COMMON_OPTIONS, TLS_OPTION, { NULL }
};
static const SlOptionSpec syslog_options[] = {
  IP_OPTIONS (NULL, PORT_HELP "; 601 over tcp, 514 over udp, 6514 over tls when unset"),
  TRANSPORT_OPTION ("tcp"), MSG_TEMPLATE_OPTION, COMMON_OPTIONS, TLS_OPTION, { NULL }
};
static const SlOptionSpec unix_options[] = {
  { "path", SL_STRING (NetDestination, host), NULL, "the socket to send to", .flags = SL_OPT_POSITIONAL },
  TEMPLATE_OPTION,
  COMMON_OPTIONS,
  { NULL }
};

/* What failover() and its failback() say. */
typedef struct
{
  GPtrArray *servers;
  const SlCfgNode *failback;
} Failover;

typedef struct
{
  gint64 probe_interval_ms;
  gint probes_required;
} Failback;

static const SlOptionSpec failover_options[] = {
  { "servers", SL_LIST (Failover, servers), NULL, "hosts to try in order when the primary cannot be reached" },
  { "failback", SL_BLOCK (Failover, failback), NULL, "return to the primary once it answers again" },
  { NULL }
};

static const SlOptionSpec failback_options[] = {
  { "tcp-probe-interval", SL_DURATION (Failback, probe_interval_ms), "60", "time between connection probes of the primary",
    SL_RANGE (1000, G_MAXINT64) },
  { "successful-probes-required", SL_INT (Failback, probes_required), "3",
    "probes in a row that must succeed before failing back", SL_RANGE_POSITIVE },
  { NULL }
};

/* The options of a block option, checked against table and stored at
 * base; NULL when they are wrong. Free with sl_options_free(). */
static SlOptions *
read_block (NetDestination *self, const gchar *path, const SlOptionSpec *table, const SlCfgNode *node,
            gpointer base, GError **error)
{
  gchar *owner = g_strdup_printf ("%s() %s", self->super.klass->name, path);
  const SlOptionSpec *const tables[] = { table, NULL };
  SlOptions *o = sl_options_new (owner, tables, NULL, node, NULL, error);
  g_free (owner);
  if (o && !sl_options_bind (o, table, base, NULL, error))
    g_clear_pointer (&o, sl_options_free);
  return o;
}

static NetTarget *
target_new (const gchar *host, const gchar *port)
{
  NetTarget *t = g_new0 (NetTarget, 1);
  t->host = g_strdup (host);
  t->port = g_strdup (port);
  return t;
}

static void
target_free (gpointer p)
{
  NetTarget *t = p;
  g_free (t->host);
  g_free (t->port);
  g_free (t);
}

static gboolean
read_failback (NetDestination *self, const SlCfgNode *node, GError **error)
{
  Failback failback;
  SlOptions *o = read_block (self, "failover() failback()", failback_options, node, &failback, error);
  if (!o)
    return FALSE;
  self->failback = TRUE;
  /* probes are made by writes, and not more than once a second */
  self->probe_interval_us = failback.probe_interval_ms * 1000;
  self->probes_required = failback.probes_required;
  sl_options_free (o);
  return TRUE;
}

static gboolean
read_failover (NetDestination *self, const gchar *port, GError **error)
{
  if (!self->failover)
    return TRUE;
  SlOptions *o = self->super.options;
  if (self->socktype != SOCK_STREAM)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (o, "failover"),
                        _("failover() needs transport(tcp): a datagram has no connection that could fail"));
      return FALSE;
    }
  Failover failover = { 0 };
  SlOptions *fo = read_block (self, "failover()", failover_options, self->failover, &failover, error);
  if (!fo)
    return FALSE;
  gboolean ok = failover.servers && failover.servers->len;
  if (!ok)
    sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (o, "failover"),
                      _("failover() needs servers(\"host\" ...) to fail over to"));
  for (guint i = 0; ok && i < failover.servers->len; i++)
    g_ptr_array_add (self->targets, target_new (g_ptr_array_index (failover.servers, i), port));
  if (ok && failover.failback)
    ok = read_failback (self, failover.failback, error);
  sl_options_free (fo);
  return ok;
}

/* tls() alone makes a TLS tcp(), as in syslog-ng; with network() and
 * syslog() it stands for transport("tls") unless another was written. */
static gboolean
read_tls (NetDestination *self, GError **error)
{
  SlDriver *d = &self->super;
  const NetDestinationKind *kind = d->klass->data;
  gboolean written = kind->has_transport && sl_options_is_set (d->options, "transport");
  if (self->tls_node && written && self->transport != NET_TRANSPORT_TLS)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "tls"),
                        _("%s(): tls() needs transport(\"tls\")"), d->klass->name);
      return FALSE;
    }
  if (self->tls_node)
    self->transport = NET_TRANSPORT_TLS;
  if (self->transport != NET_TRANSPORT_TLS)
    return TRUE;
  g_autofree gchar *owner = g_strdup_printf ("%s()", d->klass->name);
  self->tls_ctx = sl_tls_context_new (owner, SL_TLS_CLIENT, self->tls_node, d->pos, error);
  return self->tls_ctx != NULL;
}

static gboolean
read_ip_options (NetDestination *self, GError **error)
{
  const NetDestinationKind *kind = self->super.klass->data;
  SlOptions *o = self->super.options;
  if (!self->host || !*self->host)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, self->super.pos, _("%s() needs the host to send to"),
                        self->super.klass->name);
      return FALSE;
    }
  if (!read_tls (self, error))
    return FALSE;
  self->socktype = kind->datagram || self->transport == NET_TRANSPORT_UDP ? SOCK_DGRAM : SOCK_STREAM;
  gboolean tls = self->transport == NET_TRANSPORT_TLS;
  const gchar *port = self->port;
  if (tls && kind->tls_port && !sl_options_is_set (o, "port") && !sl_options_is_set (o, "destport"))
    port = kind->tls_port;
  else if (!port)
    /* syslog()'s defaults: 601 for RFC 6587 over TCP, 514 for UDP */
    port = self->socktype == SOCK_STREAM ? "601" : "514";
  self->family = self->ip_protocol == 4 ? AF_INET : self->ip_protocol == 6 ? AF_INET6 : AF_UNSPEC;
  g_ptr_array_add (self->targets, target_new (self->host, port));
  return read_failover (self, port, error);
}

static gboolean
read_unix_options (NetDestination *self, GError **error)
{
  const gchar *path = self->host;
  if (!path || !*path)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, self->super.pos, _("%s() needs the path of the socket"),
                        self->super.klass->name);
      return FALSE;
    }
  self->family = AF_UNIX;
  self->socktype = ((const NetDestinationKind *) self->super.klass->data)->datagram ? SOCK_DGRAM : SOCK_STREAM;
  g_ptr_array_add (self->targets, target_new (path, NULL));
  return TRUE;
}

static gboolean
net_init (SlDriver *d, GError **error)
{
  NetDestination *self = (NetDestination *) d;
  self->fd = -1;
  self->targets = g_ptr_array_new_with_free_func (target_free);
  self->frame = g_string_sized_new (1024);
  self->datagrams = g_string_sized_new (64 * 1024);
  sl_resend_buffer_init (&self->backlog);
  self->connections = sl_stats_counter ("destination", d->id, d->klass->name, "connections");
  self->connect_errors = sl_stats_counter ("destination", d->id, d->klass->name, "connect_errors");
  self->resent = sl_stats_counter ("destination", d->id, d->klass->name, "resent");
  self->oversize = sl_stats_counter ("destination", d->id, d->klass->name, "oversize");
  self->dropped = sl_stats_counter ("destination", d->id, d->klass->name, "dropped");

  const NetDestinationKind *kind = d->klass->data;
  if (!(kind->unix_socket ? read_unix_options (self, error) : read_ip_options (self, error)))
    return FALSE;
  self->so_sndbuf = (gint) self->so_sndbuf_bytes;

  NetFormat *f = &self->format;
  f->rfc5424 = kind->rfc5424;
  f->octet_count = (f->rfc5424 || self->octet_count) && self->socktype == SOCK_STREAM;
  if (f->rfc5424)
    f->sdata = sl_template_compile ("${SDATA}", NULL);
  f->template = self->template;
  f->env = *sl_driver_template_env (d);
  f->truncate_size = (gsize) self->truncate_size;
  f->add_newline = self->add_newline;
  return TRUE;
}

static gboolean
net_open (SlDriver *d, GError **error)
{
  NetDestination *self = (NetDestination *) d;
  self->given_up = FALSE;
  /* the first connection is tried at once, as syslog-ng does; a remote
   * that is not there yet is retried when messages come */
  net_connect (self);
  return TRUE;
}

/* A connection that failed is made again by the next write, which keeps
 * the stream's backlog: the rest waits for time-reopen() and a RETRY,
 * never a close(), which would give the backlog up. */
static SlWriteResult
net_write (SlDriver *d, SlWriteBatch *batch)
{
  NetDestination *self = (NetDestination *) d;
  self->why[0] = '\0';
  if (self->socktype == SOCK_STREAM)
    batch->done = net_stream_write (self, batch->msgs, batch->n);
  else
    batch->done = net_dgram_write (self, batch->msgs, batch->n, &batch->dropped);
  if (batch->done == batch->n)
    return SL_WRITE_OK;
  return sl_write_batch_fail (batch, SL_WRITE_RETRY, 0, "%s", self->why);
}

static void
net_flush (SlDriver *d)
{
  NetDestination *self = (NetDestination *) d;
  if (self->socktype == SOCK_STREAM)
    net_stream_flush (self);
}

static void
net_close (SlDriver *d)
{
  NetDestination *self = (NetDestination *) d;
  if (self->socktype == SOCK_STREAM)
    net_stream_close (self);
  net_disconnect (self);
}

static void
net_free (SlDriver *d)
{
  NetDestination *self = (NetDestination *) d;
  net_disconnect (self);
  if (self->format.sdata)
    sl_template_unref (self->format.sdata);
  if (self->targets)
    g_ptr_array_unref (self->targets);
  if (self->frame)
    g_string_free (self->frame, TRUE);
  if (self->datagrams)
    g_string_free (self->datagrams, TRUE);
  sl_resend_buffer_clear (&self->backlog);
  if (self->tls_ctx)
    sl_tls_context_unref (self->tls_ctx);
  g_free (self->hdrs);
  g_free (self->iovs);
}

static const SlDestinationOps net_ops = {
  .open = net_open,
  .write = net_write,
  .flush = net_flush,
  .close = net_close,
};

#define NET_DESTINATION_CLASS(var, word, variant, table, caps, defs, text) \
  static const SlDriverClass var = { \
    .kind = SL_DRIVER_DESTINATION, \
    .name = word, \
    .summary = text, \
    .options = table, \
    .defaults = defs, \
    .capabilities = caps, \
    .instance_size = sizeof (NetDestination), \
    .data = &variant, \
    .init = net_init, \
    .free = net_free, \
    .ops.destination = &net_ops, \
  }

/* Each of workers() writers is an instance with its own connection and
 * backlog; on a local socket the order is expected, so no workers. Every
 * one can keep its queue in a disk-buffer(). As in syslog-ng, MARKs are
 * off by default on unix sockets and follow options {} on the others. */
#define IP_CAPS (SL_CAP_TEMPLATES | SL_CAP_WORKERS | SL_CAP_DISK_BUFFER | SL_CAP_SUPPRESS | SL_CAP_MARKS)
#define UNIX_CAPS (SL_CAP_TEMPLATES | SL_CAP_DISK_BUFFER | SL_CAP_SUPPRESS | SL_CAP_MARKS)
static const gchar *const unix_defaults[] = { "mark-mode", "none", NULL };

NET_DESTINATION_CLASS (tcp_class, "tcp", tcp_kind, tcp_options, IP_CAPS, NULL, "send syslog over TCP (TLS with tls()), one line per message");
NET_DESTINATION_CLASS (udp_class, "udp", udp_kind, udp_options, IP_CAPS, NULL, "send syslog over UDP, one datagram per message");
NET_DESTINATION_CLASS (network_class, "network", network_kind, network_options, IP_CAPS, NULL,
                       "send syslog over TCP, UDP or TLS, chosen by transport()");
NET_DESTINATION_CLASS (syslog_class, "syslog", syslog_kind, syslog_options, IP_CAPS, NULL,
                       "send RFC 5424 syslog, octet-counted over TCP (RFC 6587) or TLS (RFC 5425), or over UDP");
NET_DESTINATION_CLASS (unix_stream_class, "unix-stream", unix_stream_kind, unix_options, UNIX_CAPS, unix_defaults,
                       "send syslog to a unix stream socket");
NET_DESTINATION_CLASS (unix_dgram_class, "unix-dgram", unix_dgram_kind, unix_options, UNIX_CAPS, unix_defaults,
                       "send syslog to a unix datagram socket");

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "network-destination",
  .drivers = (const SlDriverClass *const[]) {
    &tcp_class, &udp_class, &network_class, &syslog_class, &unix_stream_class, &unix_dgram_class, NULL
  },
  .rsyslog_modules = (const SlRsModule *const[]) { &network_omfwd, &network_omuxsock, NULL },
};
