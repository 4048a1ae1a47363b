/* tcp(), udp(), network() and syslog(): syslog over IP. The sockets are
 * opened here; reading, framing and flow control are the core's listener
 * and readers. On TCP each connection's first frame tells newline framing
 * from RFC 6587 octet counting. */
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/socket-reader.h"
#include "core/plugin.h"
#include "core/source.h"

#include <errno.h>
#include <netdb.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

typedef struct
{
  SlDriver super;
  gchar *ip;
  gchar *port;
  gboolean stream;
  gint backlog;
  gint so_rcvbuf;
  SlListenerSettings settings;
  SlSocketReader *reader;
} NetSource;

#define NET_OPTIONS(default_port) \
  { "ip", SL_OPT_STRING, "0.0.0.0", "address to listen on" }, \
  { "localip", SL_OPT_STRING, NULL, "the same as ip()" }, \
  { "port", SL_OPT_STRING, default_port, "port to listen on" }, \
  { "localport", SL_OPT_STRING, NULL, "the same as port()" }, \
  { "so-rcvbuf", SL_OPT_INT, "0", "socket receive buffer in bytes; 0 keeps the system default" }, \
  { "ip-protocol", SL_OPT_INT, "4", "accepted for syslog-ng compatibility; the address decides" }, \
  SL_SOURCE_COMMON_OPTIONS

#define STREAM_OPTIONS \
  { "max-connections", SL_OPT_INT, "10", "connections served at once; more are refused and counted" }, \
  { "keep-alive", SL_OPT_BOOL, "yes", "accepted for syslog-ng compatibility" }, \
  { "so-keepalive", SL_OPT_BOOL, "no", "enable TCP keepalive probes" }, \
  { "listen-backlog", SL_OPT_INT, "256", "pending connections the kernel keeps" }

static const SlOptionSpec tcp_options[] = { NET_OPTIONS ("514"), STREAM_OPTIONS, { NULL } };
static const SlOptionSpec udp_options[] = { NET_OPTIONS ("514"), { NULL } };
static const SlOptionSpec network_options[] = {
  NET_OPTIONS ("514"), STREAM_OPTIONS,
  { "transport", SL_OPT_STRING, "tcp", "tcp or udp" },
  { NULL }
};
/* RFC 5424 on port 601 over TCP (syslog-conn, where syslog-ng listens)
 * and 514 over UDP; its own flags() default comes first and wins over the
 * common one */
static const SlOptionSpec syslog_options[] = {
  { "flags", SL_OPT_FLAGS, "syslog-protocol", "how to take messages; RFC 5424 (syslog-protocol) unless flags() says otherwise",
    SL_SOURCE_FLAG_CHOICES },
  NET_OPTIONS ("601"), STREAM_OPTIONS,
  { "transport", SL_OPT_STRING, "tcp", "tcp or udp" },
  { NULL }
};

static gboolean
net_init (SlDriver *d, SlOptions *o, GError **error)
{
  NetSource *self = (NetSource *) d;
  const gchar *kind = d->klass->name;
  self->ip = g_strdup (sl_options_string (o, sl_options_is_set (o, "localip") ? "localip" : "ip"));
  self->port = g_strdup (sl_options_string (o, sl_options_is_set (o, "localport") ? "localport" : "port"));
  self->so_rcvbuf = sl_options_int (o, "so-rcvbuf");
  self->stream = strcmp (kind, "udp") != 0;
  if (sl_options_has (o, "transport"))
    {
      const gchar *transport = sl_options_string (o, "transport");
      if (g_ascii_strcasecmp (transport, "udp") != 0 && g_ascii_strcasecmp (transport, "tcp") != 0)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (o, "transport"),
                            _("transport '%s' is not one %s() knows; use tcp or udp"), transport, kind);
          return FALSE;
        }
      self->stream = g_ascii_strcasecmp (transport, "tcp") == 0;
    }
  /* syslog() over UDP listens where RFC 5426 puts it, as syslog-ng does */
  if (strcmp (kind, "syslog") == 0 && !self->stream && !sl_options_is_set (o, "port")
      && !sl_options_is_set (o, "localport"))
    {
      g_free (self->port);
      self->port = g_strdup ("514");
    }
  if (sl_options_has (o, "max-connections"))
    {
      self->settings.max_connections = MAX (sl_options_int (o, "max-connections"), 1);
      self->settings.so_keepalive = sl_options_bool (o, "so-keepalive");
      self->backlog = MAX (sl_options_int (o, "listen-backlog"), 1);
    }
  self->settings.so_rcvbuf = self->so_rcvbuf;
  return TRUE;
}

static gint
open_socket (NetSource *self, GError **error)
{
  gint type = self->stream ? SOCK_STREAM : SOCK_DGRAM;
  struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = type, .ai_flags = AI_PASSIVE };
  struct addrinfo *res = NULL;
  gint rc = getaddrinfo (self->ip, self->port, &hints, &res);
  if (rc != 0)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, self->super.pos,
                        _("%s(): cannot resolve %s port %s: %s"), self->super.klass->name,
                        self->ip, self->port, gai_strerror (rc));
      return -1;
    }
  gint fd = socket (res->ai_family, type | SOCK_CLOEXEC, 0);
  gint one = 1;
  if (fd >= 0)
    setsockopt (fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (fd >= 0 && !self->stream && self->so_rcvbuf > 0)
    setsockopt (fd, SOL_SOCKET, SO_RCVBUF, &self->so_rcvbuf, sizeof self->so_rcvbuf);
  if (fd < 0 || bind (fd, res->ai_addr, res->ai_addrlen) < 0
      || (self->stream && listen (fd, self->backlog) < 0))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, self->super.pos,
                        _("%s(): cannot listen on %s port %s: %s"), self->super.klass->name,
                        self->ip, self->port, g_strerror (errno));
      if (fd >= 0)
        close (fd);
      fd = -1;
    }
  freeaddrinfo (res);
  return fd;
}

static gboolean
net_start (SlDriver *d, SlSource *source, GError **error)
{
  NetSource *self = (NetSource *) d;
  gint fd = open_socket (self, error);
  if (fd < 0)
    return FALSE;
  self->reader = sl_socket_reader_start (source, fd, self->stream, &self->settings, error);
  if (!self->reader)
    return FALSE;
  sl_log (SL_LOG_INFO, "%s() listening on %s port %s (%s)", d->klass->name, self->ip, self->port,
          self->stream ? "tcp" : "udp");
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

static void
net_free (SlDriver *d)
{
  NetSource *self = (NetSource *) d;
  g_free (self->ip);
  g_free (self->port);
}

#define NET_SOURCE_CLASS(var, word, table, text) \
  static const SlDriverClass var = { \
    .kind = SL_DRIVER_SOURCE, \
    .name = word, \
    .summary = text, \
    .options = table, \
    .instance_size = sizeof (NetSource), \
    .init = net_init, \
    .free = net_free, \
    .start = net_start, \
    .stop = net_stop, \
  }

NET_SOURCE_CLASS (tcp_class, "tcp", tcp_options, "receive syslog over TCP, newline or octet-count framed");
NET_SOURCE_CLASS (udp_class, "udp", udp_options, "receive syslog datagrams over UDP");
NET_SOURCE_CLASS (network_class, "network", network_options, "receive syslog over TCP or UDP, chosen by transport()");
NET_SOURCE_CLASS (syslog_class, "syslog", syslog_options, "receive RFC 5424 syslog over TCP (port 601) or UDP (port 514)");

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "net-source",
  .drivers = (const SlDriverClass *const[]) { &tcp_class, &udp_class, &network_class, &syslog_class, NULL },
};
