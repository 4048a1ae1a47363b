/* SPDX-License-Identifier: GPL-2.0-or-later */
/* unix-stream() and unix-dgram(): local sockets of the /dev/log kind, as
 * glibc's syslog(3) and logger -u write to them. */
#include "plugins/sources/unix/unix-rsyslog.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/io/socket-reader.h"
#include "core/plugin/plugin.h"
#include "core/route/source.h"
#include "plugins/sources/unix/unix-socket.h"

#include <grp.h>
#include <pwd.h>
#include <string.h>
#include <sys/un.h>
#include <unistd.h>

typedef struct
{
  SlDriver super;
  const gchar *path;
  gint perm;
  const gchar *owner_name;
  const gchar *group_name;
  gint64 so_rcvbuf;
  gboolean optional;
  gboolean create_dirs;
  gboolean stream;
  gboolean inherited;       /* the socket is one systemd passed, its file systemd's */
  gboolean pass_credentials;
  gboolean tag_pid;
  gboolean ignore_own;
  gboolean annotate;
  gboolean parse_trusted;
  gint rate_limit_interval;
  gint rate_limit_burst;
  gint rate_limit_severity;
  uid_t owner;
  gid_t group;
  SlListenerSettings settings;
  SlSocketReader *reader;
} UnixSource;

#define UNIX_OPTIONS \
  { "path", SL_STRING (UnixSource, path), NULL, "the socket file to create", .flags = SL_OPT_POSITIONAL }, \
  { "perm", SL_INT (UnixSource, perm), "0666", "mode of the socket file", SL_RANGE_MODE }, \
  { "owner", SL_STRING (UnixSource, owner_name), NULL, "owner of the socket file" }, \
  { "group", SL_STRING (UnixSource, group_name), NULL, "group of the socket file" }, \
  { "so-rcvbuf", SL_SIZE (UnixSource, so_rcvbuf), "0", "socket receive buffer; 0 keeps the system default", \
    SL_RANGE (0, G_MAXINT) }, \
  { "optional", SL_BOOL (UnixSource, optional), "no", "start without this source when the socket cannot be made" }, \
  { "create-dirs", SL_BOOL (UnixSource, create_dirs), "no", "create the socket's folder" }

static const SlOptionSpec stream_options[] = {
  UNIX_OPTIONS,
  { "pass-unix-credentials", SL_UNBOUND (SL_OPT_BOOL), "yes", "accepted for syslog-ng compatibility" },
  { "keep-alive", SL_UNBOUND (SL_OPT_BOOL), "yes", "accepted for syslog-ng compatibility", .inherit = "keep-alive" },
  { NULL }
};
/* rsyslogd's imuxsock limits each sending process (SlRateLimit), puts
 * its PID in the tag and drops its own datagrams; no syslog-ng 4.8
 * source has such options */
static const SlOptionSpec dgram_options[] = {
  UNIX_OPTIONS,
  { "pass-unix-credentials", SL_BOOL (UnixSource, pass_credentials), "yes",
    "read the sender's credentials; rate-limit-interval(), tag-pid(), ignore-own-messages() and annotate() need "
    "them" },
  { "tag-pid", SL_BOOL (UnixSource, tag_pid), "no",
    "write the sending process's PID into the tag as rsyslog's usePIDFromSystem does" },
  { "ignore-own-messages", SL_BOOL (UnixSource, ignore_own), "no",
    "drop what sluiced itself sent to the socket (rsyslog's ignoreOwnMessages)" },
  { "annotate", SL_BOOL (UnixSource, annotate), "no",
    "append the sender's PID, UID, GID, command, executable and command line to the message, as rsyslog's "
    "annotate does" },
  { "parse-trusted", SL_BOOL (UnixSource, parse_trusted), "no",
    "with annotate(): set them as the fields !pid, !uid, !gid, !appname, !exe and !cmd (rsyslog's $! fields) "
    "instead, as rsyslog's parseTrusted does" },
  { "rate-limit-interval", SL_INT (UnixSource, rate_limit_interval), "0",
    "seconds of a sending process's rate-limit window; 0: no limit", SL_RANGE (0, G_MAXINT) },
  { "rate-limit-burst", SL_INT (UnixSource, rate_limit_burst), "200",
    "messages a sending process may write in a window; the rest are dropped", SL_RANGE (1, G_MAXINT) },
  { "rate-limit-severity", SL_INT (UnixSource, rate_limit_severity), "1",
    "severities from this number up (less severe) are limited", SL_RANGE (0, 7) },
  { NULL }
};

/* A name the system lacks leaves the id unset (the socket keeps what it
 * is made with), with a warning: syslog-ng logs "Error resolving user"
 * and goes on. */
static void
resolve_ids (UnixSource *self)
{
  SlOptions *o = self->super.options;
  self->owner = (uid_t) -1;
  self->group = (gid_t) -1;
  if (self->owner_name && *self->owner_name)
    {
      struct passwd *pw = getpwnam (self->owner_name);
      SlCfgPos pos = sl_options_pos (o, "owner");
      if (pw)
        self->owner = pw->pw_uid;
      else
        sl_log (SL_LOG_WARNING, _("%s:%d:%d: unknown user '%s' in owner(); it is not set, as syslog-ng goes on "
                                  "after \"Error resolving user\""), pos.file, pos.line, pos.column, self->owner_name);
    }
  if (self->group_name && *self->group_name)
    {
      struct group *gr = getgrnam (self->group_name);
      SlCfgPos pos = sl_options_pos (o, "group");
      if (gr)
        self->group = gr->gr_gid;
      else
        sl_log (SL_LOG_WARNING, _("%s:%d:%d: unknown group '%s' in group(); it is not set, as syslog-ng goes on "
                                  "after \"Error resolving group\""), pos.file, pos.line, pos.column, self->group_name);
    }
}

static gboolean
unix_init (SlDriver *d, GError **error)
{
  UnixSource *self = (UnixSource *) d;
  self->stream = *(const gboolean *) d->klass->data;
  if (!self->path || !*self->path)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos, _("%s() needs the path of its socket"), d->klass->name);
      return FALSE;
    }
  if (strlen (self->path) >= sizeof ((struct sockaddr_un *) NULL)->sun_path)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "path"),
                        _("socket path is longer than the %zu bytes a unix socket allows"),
                        sizeof ((struct sockaddr_un *) NULL)->sun_path - 1);
      return FALSE;
    }
  self->settings.so_rcvbuf = (gint) self->so_rcvbuf;
  if (self->create_dirs)
    {
      gchar *dir = g_path_get_dirname (self->path);
      g_mkdir_with_parents (dir, 0755);
      g_free (dir);
    }
  if ((self->rate_limit_interval || self->tag_pid || self->ignore_own || self->annotate) && !self->pass_credentials)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "pass-unix-credentials"),
                        _("rate-limit-interval(), tag-pid(), ignore-own-messages() and annotate() need the "
                          "sending process, which only pass-unix-credentials(yes) tells"));
      return FALSE;
    }
  if (self->parse_trusted && !self->annotate)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (d->options, "parse-trusted"),
                        _("parse-trusted() sets the fields annotate() reads, and needs annotate(yes)"));
      return FALSE;
    }
  resolve_ids (self);
  return TRUE;
}

static gint
open_socket (UnixSource *self, GError **error)
{
  UnixSocketSpec spec = {
    .path = self->path,
    .stream = self->stream,
    .perm = self->perm,
    .owner = self->owner,
    .group = self->group,
    .so_rcvbuf = self->settings.so_rcvbuf,
  };
  return unix_socket_open (&spec, self->super.klass->name, &self->inherited, error);
}

static gboolean
unix_start (SlDriver *d, SlSource *source, GError **error)
{
  UnixSource *self = (UnixSource *) d;
  self->settings.max_connections = sl_source_max_connections (source);
  sl_source_set_transport (source, self->stream ? "local+unix-stream" : "local+unix-dgram");
  if (!self->stream)
    {
      SlRateLimitSpec limit = { (guint) self->rate_limit_interval, (guint) self->rate_limit_burst,
                                (gint) self->rate_limit_severity };
      sl_source_set_rate_limit (source, &limit);
      sl_source_set_tag_pid (source, self->tag_pid);
      sl_source_set_ignore_own (source, self->ignore_own);
      sl_source_set_annotate (source, !self->annotate        ? SL_ANNOTATE_NONE
                                      : self->parse_trusted ? SL_ANNOTATE_FIELDS
                                                            : SL_ANNOTATE_TEXT);
    }
  GError *failure = NULL;
  gint fd = open_socket (self, &failure);
  if (fd < 0 && self->optional)
    {
      sl_log (SL_LOG_NOTICE, _("optional source %s() not started: %s"), d->klass->name, failure->message);
      g_error_free (failure);
      return TRUE;
    }
  if (fd < 0)
    {
      g_propagate_error (error, failure);
      return FALSE;
    }
  self->reader = sl_socket_reader_start (source, fd, self->stream, &self->settings, error);
  if (!self->reader)
    {
      if (!self->inherited)
        unlink (self->path);
      return FALSE;
    }
  if (self->inherited)
    sl_log (SL_LOG_NOTICE, _("%s() listening on %s, the socket systemd passed"), d->klass->name, self->path);
  else
    sl_log (SL_LOG_INFO, _("%s() listening on %s"), d->klass->name, self->path);
  return TRUE;
}

static void
unix_stop (SlDriver *d)
{
  UnixSource *self = (UnixSource *) d;
  if (self->reader)
    {
      sl_socket_reader_stop (self->reader);
      if (!self->inherited)
        unlink (self->path);
    }
  self->reader = NULL;
}

static const SlSourceOps unix_ops = {
  .start = unix_start,
  .stop = unix_stop,
};

/* what tells the classes apart: whether the socket is a stream */
static const gboolean stream_socket = TRUE;
static const gboolean datagram_socket = FALSE;

static const SlDriverClass unix_stream_class = {
  .kind = SL_DRIVER_SOURCE,
  .name = "unix-stream",
  .summary = "receive from local programs over a unix stream socket",
  .options = stream_options,
  .defaults = (const gchar *const[]) { "max-connections", "256", NULL },
  .capabilities = SL_CAP_PARSES | SL_CAP_CONNECTIONS,
  .instance_size = sizeof (UnixSource),
  .data = &stream_socket,
  .init = unix_init,
  .ops.source = &unix_ops,
};

static const SlDriverClass unix_dgram_class = {
  .kind = SL_DRIVER_SOURCE,
  .name = "unix-dgram",
  .summary = "receive from local programs over a unix datagram socket, like /dev/log",
  .options = dgram_options,
  .capabilities = SL_CAP_PARSES,
  .instance_size = sizeof (UnixSource),
  .data = &datagram_socket,
  .init = unix_init,
  .ops.source = &unix_ops,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "unix-source",
  .drivers = (const SlDriverClass *const[]) { &unix_stream_class, &unix_dgram_class, NULL },
  .rsyslog_modules = (const SlRsModule *const[]) { &unix_imuxsock, NULL },
};
