/* SPDX-License-Identifier: GPL-2.0-or-later */
/* system(): the local system's logs on Linux, as syslog-ng's system()
 * gives them. On a host where journald owns /dev/log, the journal (as
 * systemd-journal() reads it: journald takes both /dev/log and the
 * kernel's log); elsewhere, or when socket() is written, /dev/log (a unix
 * datagram socket, where glibc's syslog(3) writes) and the kernel's log
 * (/dev/kmsg). A part that cannot be had, as in a container or without
 * permission, is reported and the other one starts; socket() and kmsg()
 * point the parts elsewhere. The parts are the drivers of those sources,
 * found in the registry by name. */
#include "core/compile/config.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/route/source.h"
#include "plugins/sources/system/system-input.h"

/* The parts system() is made of: drivers of the registry, made and
 * started as a configuration would make systemd-journal(),
 * unix-dgram("/dev/log") and kmsg("/dev/kmsg"). */
enum
{
  PART_JOURNAL,
  PART_SOCKET,
  PART_KMSG,
  PARTS,
};

typedef struct
{
  SlDriver super;
  const gchar *socket_path;
  const gchar *kmsg_path;
  SlCfgNode *nodes[PARTS];
  SlDriver *parts[PARTS];
  gboolean started[PARTS];
} SystemSource;

static const SlOptionSpec system_options[] = {
  { "socket", SL_STRING (SystemSource, socket_path), "/dev/log",
    "the unix datagram socket local programs log to; written, it is read even where journald runs" },
  { "kmsg", SL_STRING (SystemSource, kmsg_path), "/dev/kmsg", "the kernel's log device" },
  { NULL }
};

/* The part named name, its one argument arg (or none), written where
 * system() is. */
static gboolean
make_part (SystemSource *self, guint part, const gchar *name, const gchar *arg, GError **error)
{
  SlDriver *d = &self->super;
  self->nodes[part] = sl_cfg_node_new (name, d->pos);
  if (arg)
    sl_cfg_node_add_arg (self->nodes[part], SL_CFG_ARG_STRING, arg, d->pos);
  self->parts[part] = sl_config_part_new (d, self->nodes[part], error);
  return self->parts[part] != NULL;
}

/* On a host where journald owns /dev/log, the journal (as
 * systemd-journal() reads it, sharing its saved position); else the
 * socket and the kernel's log. */
static gboolean
system_init (SlDriver *d, GError **error)
{
  SystemSource *self = (SystemSource *) d;
  if (!sl_options_is_set (d->options, "socket") && system_journald_owns_log (JOURNALD_RUN_DIR, self->socket_path))
    return make_part (self, PART_JOURNAL, "systemd-journal", NULL, error);
  return make_part (self, PART_SOCKET, "unix-dgram", self->socket_path, error)
         && make_part (self, PART_KMSG, "kmsg", self->kmsg_path, error);
}

static gboolean
start_part (SystemSource *self, guint part, SlSource *source, GError **error)
{
  SlDriver *p = self->parts[part];
  self->started[part] = p->klass->ops.source->start (p, source, error);
  return self->started[part];
}

/* A part that cannot be had, as in a container or without permission, is
 * reported and the other one starts. */
static gboolean
system_start (SlDriver *d, SlSource *source, GError **error)
{
  SystemSource *self = (SystemSource *) d;
  if (self->parts[PART_JOURNAL])
    return start_part (self, PART_JOURNAL, source, error);
  GError *socket_error = NULL;
  GError *kmsg_error = NULL;
  sl_source_set_sender_pid (source, TRUE);
  gboolean socket = start_part (self, PART_SOCKET, source, &socket_error);
  gboolean kmsg = start_part (self, PART_KMSG, source, &kmsg_error);
  if (!socket && !kmsg)
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, _("system(): neither local log can be read: %s; %s"),
                 socket_error->message, kmsg_error->message);
  else if (socket_error)
    sl_log (SL_LOG_NOTICE, _("%s: local programs' messages are not received: %s; the kernel's log is read"),
            d->id, socket_error->message);
  else if (kmsg_error)
    sl_log (SL_LOG_NOTICE, _("%s: the kernel's log is not read: %s; local programs' messages are received on %s"),
            d->id, kmsg_error->message, self->socket_path);
  g_clear_error (&socket_error);
  g_clear_error (&kmsg_error);
  return socket || kmsg;
}

static void
system_stop (SlDriver *d)
{
  SystemSource *self = (SystemSource *) d;
  for (guint part = 0; part < PARTS; part++)
    {
      SlDriver *p = self->parts[part];
      if (self->started[part] && p->klass->ops.source->stop)
        p->klass->ops.source->stop (p);
      self->started[part] = FALSE;
    }
}

static void
system_free (SlDriver *d)
{
  SystemSource *self = (SystemSource *) d;
  for (guint part = 0; part < PARTS; part++)
    {
      sl_config_part_free (self->parts[part]);
      if (self->nodes[part])
        sl_cfg_node_free (self->nodes[part]);
    }
}

static const SlSourceOps system_ops = {
  .start = system_start,
  .stop = system_stop,
};

static const SlDriverClass system_source_class = {
  .kind = SL_DRIVER_SOURCE,
  .name = "system",
  .summary = "the local system's logs: the journal where journald owns /dev/log, else /dev/log and /dev/kmsg",
  .options = system_options,
  .capabilities = SL_CAP_PARSES,
  .instance_size = sizeof (SystemSource),
  .init = system_init,
  .free = system_free,
  .ops.source = &system_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "system-source",
  .drivers = (const SlDriverClass *const[]) { &system_source_class, NULL },
};
