/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A datagram source written against the installed kit only:
 * simple-udp(ip("127.0.0.1") port(N)) binds a UDP socket and hands it to
 * the core's datagram reader, one message per datagram.
 * doc/plugin-guide.md ("A datagram source") walks through it. */
#include <sluice/plugin.h>

#include <sys/socket.h>

typedef struct
{
  SlDriver super;
  const gchar *ip;
  gint port;
  SlDgramReader *reader;
} SimpleUdp;

static const SlOptionSpec simple_udp_options[] = {
  { "ip", SL_STRING (SimpleUdp, ip), "127.0.0.1", "the address to receive on" },
  { "port", SL_INT (SimpleUdp, port), NULL, "the UDP port to receive on", .flags = SL_OPT_POSITIONAL },
  { NULL }
};

/* init() checks what the table cannot say; it opens nothing, as
 * `sluiced -s` and a reload that fails make instances that never start. */
static gboolean
simple_udp_init (SlDriver *d, GError **error)
{
  SimpleUdp *self = (SimpleUdp *) d;
  if (self->port < 1 || self->port > 65535)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "port"),
                        _("simple-udp() needs a port from 1 to 65535, as in simple-udp(port(5514))"));
      return FALSE;
    }
  return TRUE;
}

/* The socket systemd passed for this address (socket activation), else a
 * new one; an error names the driver and its position. */
static gint
simple_udp_bind (SimpleUdp *self, GError **error)
{
  gchar port[8];
  g_snprintf (port, sizeof port, "%d", self->port);
  SlListenAddress where = { .ip = self->ip, .port = port, .type = SOCK_DGRAM };
  gboolean inherited;
  return sl_activation_listen (&self->super, &where, &inherited, error);
}

/* start() runs on the main thread when the configuration starts; an error
 * stops the load (at a reload the old configuration goes on). The reader
 * runs a thread of its own that reads many datagrams per system call,
 * parses each with the source's format() and posts them. A datagram
 * cannot be held back, so there is no window here: what the destinations'
 * queues cannot take is dropped and counted. */
static gboolean
simple_udp_start (SlDriver *d, SlSource *source, GError **error)
{
  SimpleUdp *self = (SimpleUdp *) d;
  gint fd = simple_udp_bind (self, error);
  if (fd < 0)
    return FALSE;
  self->reader = sl_dgram_reader_start (source, fd, FALSE, error);
  if (!self->reader)
    return FALSE;
  sl_log (SL_LOG_INFO, _("simple-udp() receiving on %s port %d"), self->ip, self->port);
  return TRUE;
}

/* stop() runs on the main thread, at a reload or the exit; the instance
 * may be started again after it. */
static void
simple_udp_stop (SlDriver *d)
{
  SimpleUdp *self = (SimpleUdp *) d;
  if (self->reader)
    sl_dgram_reader_stop (self->reader);
  self->reader = NULL;
}

static const SlSourceOps simple_udp_ops = {
  .start = simple_udp_start,
  .stop = simple_udp_stop,
};

static const SlDriverClass simple_udp_class = {
  .kind = SL_DRIVER_SOURCE,
  .name = "simple-udp",
  .summary = "receive syslog datagrams on one UDP port",
  .options = simple_udp_options,
  /* format(), flags(), program-override() and the other options of a
   * source that parses what it receives */
  .capabilities = SL_CAP_PARSES,
  .instance_size = sizeof (SimpleUdp),
  .init = simple_udp_init,
  .ops.source = &simple_udp_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "example-simple-udp",
  .drivers = (const SlDriverClass *const[]) { &simple_udp_class, NULL },
};
