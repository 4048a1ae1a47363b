/* SPDX-License-Identifier: GPL-2.0-or-later */
/* system(): the local system's logs on Linux, as syslog-ng's system()
 * gives them. On a host where journald owns /dev/log, the journal (as
 * systemd-journal() reads it: journald takes both /dev/log and the
 * kernel's log); elsewhere, or when socket() is written, /dev/log (a unix
 * datagram socket, where glibc's syslog(3) writes) and the kernel's log
 * (/dev/kmsg). A part that cannot be had, as in a container or without
 * permission, is reported and the other one starts; socket() and kmsg()
 * point the parts elsewhere. */
#include "core/io/dgram.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/route/source.h"
#include "plugins/sources/journal/journal-private.h"
#include "plugins/sources/kmsg/kmsg-private.h"
#include "plugins/sources/system/system-input.h"
#include "plugins/sources/unix/unix-socket.h"

#include <unistd.h>

typedef struct
{
  SlDriver super;
  const gchar *socket_path;
  const gchar *kmsg_path;
  gboolean inherited;       /* the socket is one systemd passed, its file systemd's */
  SlDgramReader *dgram;
  KmsgReader *kmsg;
  JournalReader *journal;
} SystemSource;

static const SlOptionSpec system_options[] = {
  { "socket", SL_STRING (SystemSource, socket_path), "/dev/log",
    "the unix datagram socket local programs log to; written, it is read even where journald runs" },
  { "kmsg", SL_STRING (SystemSource, kmsg_path), "/dev/kmsg", "the kernel's log device" },
  { NULL }
};

static SlDgramReader *
start_socket (SystemSource *self, SlSource *source, GError **error)
{
  UnixSocketSpec spec = {
    .path = self->socket_path,
    .perm = 0666,
    .owner = (uid_t) -1,
    .group = (gid_t) -1,
  };
  gint fd = unix_socket_open (&spec, "system", &self->inherited, error);
  if (fd < 0)
    return NULL;
  SlDgramReader *reader = sl_dgram_reader_start (source, fd, TRUE, error);
  if (!reader && !self->inherited)
    unlink (self->socket_path);
  return reader;
}

/* systemd-journal()'s defaults, so that the two share the saved position */
static const JournalSettings journal_settings = {
  .prefix = ".journald.",
  .max_field_size = 65536,
  .read_old_records = TRUE,
};

static gboolean
system_start (SlDriver *d, SlSource *source, GError **error)
{
  SystemSource *self = (SystemSource *) d;
  if (!sl_options_is_set (d->options, "socket") && system_journald_owns_log (JOURNALD_RUN_DIR, self->socket_path))
    {
      self->journal = journal_reader_start (source, &journal_settings, error);
      return self->journal != NULL;
    }
  GError *socket_error = NULL;
  GError *kmsg_error = NULL;
  self->dgram = start_socket (self, source, &socket_error);
  self->kmsg = kmsg_reader_start (source, &kmsg_format_class, self->kmsg_path, FALSE, &kmsg_error);
  if (!self->dgram && !self->kmsg)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
                   _("system(): neither local log can be read: %s; %s"), socket_error->message,
                   kmsg_error->message);
    }
  else if (socket_error)
    sl_log (SL_LOG_NOTICE, _("%s: local programs' messages are not received: %s; the kernel's log is read"),
            d->id, socket_error->message);
  else if (kmsg_error)
    sl_log (SL_LOG_NOTICE, _("%s: the kernel's log is not read: %s; local programs' messages are received on %s"),
            d->id, kmsg_error->message, self->socket_path);
  g_clear_error (&socket_error);
  g_clear_error (&kmsg_error);
  return self->dgram || self->kmsg;
}

static void
system_stop (SlDriver *d)
{
  SystemSource *self = (SystemSource *) d;
  if (self->dgram)
    {
      sl_dgram_reader_stop (self->dgram);
      if (!self->inherited)
        unlink (self->socket_path);
    }
  if (self->kmsg)
    kmsg_reader_stop (self->kmsg);
  if (self->journal)
    journal_reader_stop (self->journal);
  self->dgram = NULL;
  self->kmsg = NULL;
  self->journal = NULL;
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
  .ops.source = &system_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "system-source",
  .drivers = (const SlDriverClass *const[]) { &system_source_class, NULL },
};
