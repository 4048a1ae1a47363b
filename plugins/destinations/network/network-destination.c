/* tcp(), udp(), network(), syslog(), unix-stream() and unix-dgram()
 * destinations: the module, its option tables and the drivers' operations.
 * Connections are made lazily on the destination's thread and made again
 * after time-reopen() when they fail; failover() servers stand in for an
 * unreachable primary. */
#include "plugins/destinations/network/network-destination.h"
#include "core/config.h"
#include "core/config/error.h"
#include "core/i18n.h"

#include <string.h>

#define IP_OPTIONS(default_port, port_help) \
  { "host", SL_OPT_STRING, NULL, "the host to send to", NULL, TRUE }, \
  { "port", SL_OPT_STRING, default_port, port_help }, \
  { "destport", SL_OPT_STRING, NULL, "the same as port()" }, \
  { "ip", SL_OPT_STRING, NULL, "local address to send from" }, \
  { "localip", SL_OPT_STRING, NULL, "the same as ip()" }, \
  { "localport", SL_OPT_STRING, NULL, "local port to send from" }, \
  { "ip-protocol", SL_OPT_INT, "0", "4 or 6 to resolve the host to that family only; 0 takes either" }, \
  { "so-keepalive", SL_OPT_BOOL, "no", "enable TCP keepalive probes" }, \
  { "failover", SL_OPT_BLOCK, NULL, "servers(\"h2\" \"h3\") to try in order when the host cannot be reached, failback() to return" }

#define TEMPLATE_OPTION \
  { "template", SL_OPT_TEMPLATE, NULL, "how each message is written (a template or a template's name)" }

/* syslog() writes the RFC 5424 header itself, as syslog-ng does. */
#define MSG_TEMPLATE_OPTION \
  { "template", SL_OPT_TEMPLATE, NULL, "the MSG part after the RFC 5424 header; $MESSAGE when unset" }

#define COMMON_OPTIONS \
  { "so-sndbuf", SL_OPT_INT, "0", "socket send buffer in bytes; 0 keeps the system default" }, \
  { "keep-alive", SL_OPT_BOOL, "yes", "accepted for syslog-ng compatibility; a reload reconnects" }, \
  SL_DESTINATION_COMMON_OPTIONS

#define TRANSPORT_OPTION(def) \
  { "transport", SL_OPT_STRING, def, "tcp or udp" }

#define PORT_HELP "the port to send to"

static const SlOptionSpec tcp_options[] = {
  IP_OPTIONS ("514", PORT_HELP), TEMPLATE_OPTION, COMMON_OPTIONS, { NULL }
};
static const SlOptionSpec udp_options[] = {
  IP_OPTIONS ("514", PORT_HELP), TEMPLATE_OPTION, COMMON_OPTIONS, { NULL }
};
static const SlOptionSpec network_options[] = {
  IP_OPTIONS ("514", PORT_HELP), TRANSPORT_OPTION ("tcp"), TEMPLATE_OPTION, COMMON_OPTIONS, { NULL }
};
static const SlOptionSpec syslog_options[] = {
  IP_OPTIONS (NULL, PORT_HELP "; 601 over tcp, 514 over udp when unset"),
  TRANSPORT_OPTION ("tcp"), MSG_TEMPLATE_OPTION, COMMON_OPTIONS, { NULL }
};
static const SlOptionSpec unix_options[] = {
  { "path", SL_OPT_STRING, NULL, "the socket to send to", NULL, TRUE },
  TEMPLATE_OPTION,
  COMMON_OPTIONS,
  { NULL }
};

static const SlOptionSpec failover_options[] = {
  { "servers", SL_OPT_LIST, NULL, "hosts to try in order when the primary cannot be reached" },
  { "failback", SL_OPT_BLOCK, NULL, "return to the primary once it answers again" },
  { NULL }
};

static const SlOptionSpec failback_options[] = {
  { "tcp-probe-interval", SL_OPT_INT, "60", "seconds between connection probes of the primary" },
  { "successful-probes-required", SL_OPT_INT, "3", "probes in a row that must succeed before failing back" },
  { NULL }
};

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

static const gchar *
either (SlOptions *o, const gchar *name, const gchar *alias)
{
  return sl_options_string (o, sl_options_is_set (o, alias) ? alias : name);
}

static gboolean
read_failback (NetDestination *self, const SlCfgNode *node, GError **error)
{
  gchar *owner = g_strdup_printf ("%s() failover() failback()", self->super.klass->name);
  SlOptions *o = sl_options_new (owner, failback_options, node, NULL, error);
  g_free (owner);
  if (!o)
    return FALSE;
  self->failback = TRUE;
  self->probe_interval_us = MAX (sl_options_int (o, "tcp-probe-interval"), 1) * G_USEC_PER_SEC;
  self->probes_required = MAX (sl_options_int (o, "successful-probes-required"), 1);
  sl_options_free (o);
  return TRUE;
}

static gboolean
read_failover (NetDestination *self, SlOptions *o, const gchar *port, GError **error)
{
  const SlCfgNode *node = sl_options_block (o, "failover");
  if (!node)
    return TRUE;
  if (self->socktype != SOCK_STREAM)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (o, "failover"),
                        _("failover() needs transport(tcp): a datagram has no connection that could fail"));
      return FALSE;
    }
  gchar *owner = g_strdup_printf ("%s() failover()", self->super.klass->name);
  SlOptions *fo = sl_options_new (owner, failover_options, node, NULL, error);
  g_free (owner);
  if (!fo)
    return FALSE;
  GPtrArray *servers = sl_options_list (fo, "servers");
  gboolean ok = servers && servers->len;
  if (!ok)
    sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (o, "failover"),
                      _("failover() needs servers(\"host\" ...) to fail over to"));
  for (guint i = 0; ok && i < servers->len; i++)
    g_ptr_array_add (self->targets, target_new (g_ptr_array_index (servers, i), port));
  const SlCfgNode *failback = sl_options_block (fo, "failback");
  if (ok && failback)
    ok = read_failback (self, failback, error);
  sl_options_free (fo);
  return ok;
}

/* tcp, udp, or the transport() of network() and syslog(). */
static gboolean
read_transport (NetDestination *self, SlOptions *o, GError **error)
{
  const gchar *kind = self->super.klass->name;
  self->socktype = strcmp (kind, "udp") == 0 ? SOCK_DGRAM : SOCK_STREAM;
  if (!sl_options_has (o, "transport"))
    return TRUE;
  const gchar *transport = sl_options_string (o, "transport");
  if (g_ascii_strcasecmp (transport, "tcp") == 0)
    self->socktype = SOCK_STREAM;
  else if (g_ascii_strcasecmp (transport, "udp") == 0)
    self->socktype = SOCK_DGRAM;
  else
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (o, "transport"),
                        _("transport '%s' is not one %s() knows; use tcp or udp"), transport, kind);
      return FALSE;
    }
  return TRUE;
}

static gboolean
read_ip_options (NetDestination *self, SlOptions *o, GError **error)
{
  const gchar *kind = self->super.klass->name;
  const gchar *host = sl_options_string (o, "host");
  if (!host || !*host)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, self->super.pos, _("%s() needs the host to send to"), kind);
      return FALSE;
    }
  if (!read_transport (self, o, error))
    return FALSE;
  const gchar *port = either (o, "port", "destport");
  if (!port)
    /* syslog()'s defaults: 601 for RFC 6587 over TCP, 514 for UDP */
    port = self->socktype == SOCK_STREAM ? "601" : "514";
  gint64 ip_protocol = sl_options_int (o, "ip-protocol");
  if (ip_protocol != 0 && ip_protocol != 4 && ip_protocol != 6)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (o, "ip-protocol"),
                        _("ip-protocol() is 4 or 6, not %" G_GINT64_FORMAT), ip_protocol);
      return FALSE;
    }
  self->family = ip_protocol == 4 ? AF_INET : ip_protocol == 6 ? AF_INET6 : AF_UNSPEC;
  self->local_ip = g_strdup (either (o, "ip", "localip"));
  self->local_port = g_strdup (sl_options_string (o, "localport"));
  self->so_keepalive = sl_options_bool (o, "so-keepalive");
  g_ptr_array_add (self->targets, target_new (host, port));
  return read_failover (self, o, port, error);
}

static gboolean
read_unix_options (NetDestination *self, SlOptions *o, GError **error)
{
  const gchar *path = sl_options_string (o, "path");
  if (!path || !*path)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, self->super.pos, _("%s() needs the path of the socket"),
                        self->super.klass->name);
      return FALSE;
    }
  self->family = AF_UNIX;
  self->socktype = strcmp (self->super.klass->name, "unix-dgram") == 0 ? SOCK_DGRAM : SOCK_STREAM;
  g_ptr_array_add (self->targets, target_new (path, NULL));
  return TRUE;
}

static gboolean
net_init (SlDriver *d, SlOptions *o, GError **error)
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

  gboolean unix_socket = g_str_has_prefix (d->klass->name, "unix-");
  if (!(unix_socket ? read_unix_options (self, o, error) : read_ip_options (self, o, error)))
    return FALSE;
  self->so_sndbuf = sl_options_int (o, "so-sndbuf");

  NetFormat *f = &self->format;
  f->rfc5424 = strcmp (d->klass->name, "syslog") == 0;
  f->octet_count = f->rfc5424 && self->socktype == SOCK_STREAM;
  if (f->rfc5424)
    {
      f->sdata = sl_template_compile ("${SDATA}", NULL);
      if (sl_options_is_set (o, "template")
          && !(f->template = sl_config_template (d->cfg, o, "template", NULL, error)))
        return FALSE;
    }
  else if (!(f->template = sl_config_template (d->cfg, o, "template", NET_LEGACY_TEMPLATE, error)))
    return FALSE;
  return sl_config_template_env (d->cfg, o, &f->env, error);
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

static guint
net_write (SlDriver *d, SlMessage **msgs, guint n)
{
  NetDestination *self = (NetDestination *) d;
  if (self->socktype == SOCK_STREAM)
    return net_stream_write (self, msgs, n);
  return net_dgram_write (self, msgs, n);
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
  if (self->format.template)
    sl_template_unref (self->format.template);
  if (self->format.sdata)
    sl_template_unref (self->format.sdata);
  if (self->targets)
    g_ptr_array_unref (self->targets);
  if (self->frame)
    g_string_free (self->frame, TRUE);
  if (self->datagrams)
    g_string_free (self->datagrams, TRUE);
  sl_resend_buffer_clear (&self->backlog);
  g_free (self->local_ip);
  g_free (self->local_port);
  g_free (self->hdrs);
  g_free (self->iovs);
}

#define NET_DESTINATION_CLASS(var, word, table, text) \
  static const SlDriverClass var = { \
    .kind = SL_DRIVER_DESTINATION, \
    .name = word, \
    .summary = text, \
    .options = table, \
    .instance_size = sizeof (NetDestination), \
    .init = net_init, \
    .free = net_free, \
    .open = net_open, \
    .write = net_write, \
    .flush = net_flush, \
    .close = net_close, \
  }

NET_DESTINATION_CLASS (tcp_class, "tcp", tcp_options, "send syslog over TCP, one line per message");
NET_DESTINATION_CLASS (udp_class, "udp", udp_options, "send syslog over UDP, one datagram per message");
NET_DESTINATION_CLASS (network_class, "network", network_options,
                       "send syslog over TCP or UDP, chosen by transport()");
NET_DESTINATION_CLASS (syslog_class, "syslog", syslog_options,
                       "send RFC 5424 syslog, octet-counted over TCP (RFC 6587) or over UDP");
NET_DESTINATION_CLASS (unix_stream_class, "unix-stream", unix_options, "send syslog to a unix stream socket");
NET_DESTINATION_CLASS (unix_dgram_class, "unix-dgram", unix_options, "send syslog to a unix datagram socket");

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "network-destination",
  .drivers = (const SlDriverClass *const[]) {
    &tcp_class, &udp_class, &network_class, &syslog_class, &unix_stream_class, &unix_dgram_class, NULL
  },
};
