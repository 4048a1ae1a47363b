/* unix-stream() and unix-dgram(): local sockets of the /dev/log kind, as
 * glibc's syslog(3) and logger -u write to them. */
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/socket-reader.h"
#include "core/plugin.h"
#include "core/source.h"
#include "plugins/sources/unix/unix-socket.h"

#include <grp.h>
#include <pwd.h>
#include <string.h>
#include <sys/un.h>
#include <unistd.h>

typedef struct
{
  SlDriver super;
  gchar *path;
  gboolean stream;
  gint perm;
  uid_t owner;
  gid_t group;
  gint so_rcvbuf;
  gboolean optional;
  SlListenerSettings settings;
  SlSocketReader *reader;
} UnixSource;

#define UNIX_OPTIONS \
  { "path", SL_OPT_STRING, NULL, "the socket file to create", NULL, TRUE }, \
  { "perm", SL_OPT_INT, "0666", "mode of the socket file" }, \
  { "owner", SL_OPT_STRING, NULL, "owner of the socket file" }, \
  { "group", SL_OPT_STRING, NULL, "group of the socket file" }, \
  { "so-rcvbuf", SL_OPT_INT, "0", "socket receive buffer in bytes; 0 keeps the system default" }, \
  { "optional", SL_OPT_BOOL, "no", "start without this source when the socket cannot be made" }, \
  { "pass-unix-credentials", SL_OPT_BOOL, "yes", "accepted for syslog-ng compatibility" }, \
  { "create-dirs", SL_OPT_BOOL, "no", "create the socket's folder" }, \
  SL_SOURCE_COMMON_OPTIONS

static const SlOptionSpec stream_options[] = {
  UNIX_OPTIONS,
  { "max-connections", SL_OPT_INT, "256", "connections served at once; more are refused and counted" },
  { "keep-alive", SL_OPT_BOOL, "yes", "accepted for syslog-ng compatibility" },
  { NULL }
};
static const SlOptionSpec dgram_options[] = { UNIX_OPTIONS, { NULL } };

static gboolean
resolve_ids (UnixSource *self, SlOptions *o, GError **error)
{
  const gchar *owner = sl_options_string (o, "owner");
  const gchar *group = sl_options_string (o, "group");
  self->owner = (uid_t) -1;
  self->group = (gid_t) -1;
  if (owner && *owner)
    {
      struct passwd *pw = getpwnam (owner);
      if (!pw)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (o, "owner"), _("unknown user '%s'"), owner);
          return FALSE;
        }
      self->owner = pw->pw_uid;
    }
  if (group && *group)
    {
      struct group *gr = getgrnam (group);
      if (!gr)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (o, "group"), _("unknown group '%s'"), group);
          return FALSE;
        }
      self->group = gr->gr_gid;
    }
  return TRUE;
}

static gboolean
unix_init (SlDriver *d, SlOptions *o, GError **error)
{
  UnixSource *self = (UnixSource *) d;
  self->stream = strcmp (d->klass->name, "unix-stream") == 0;
  const gchar *path = sl_options_string (o, "path");
  if (!path || !*path)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, d->pos, _("%s() needs the path of its socket"), d->klass->name);
      return FALSE;
    }
  if (strlen (path) >= sizeof ((struct sockaddr_un *) NULL)->sun_path)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (o, "path"),
                        _("socket path is longer than the %zu bytes a unix socket allows"),
                        sizeof ((struct sockaddr_un *) NULL)->sun_path - 1);
      return FALSE;
    }
  self->path = g_strdup (path);
  self->perm = sl_options_int (o, "perm");
  self->so_rcvbuf = sl_options_int (o, "so-rcvbuf");
  self->optional = sl_options_bool (o, "optional");
  self->settings.so_rcvbuf = self->so_rcvbuf;
  if (self->stream)
    self->settings.max_connections = MAX (sl_options_int (o, "max-connections"), 1);
  if (sl_options_bool (o, "create-dirs"))
    {
      gchar *dir = g_path_get_dirname (path);
      g_mkdir_with_parents (dir, 0755);
      g_free (dir);
    }
  return resolve_ids (self, o, error);
}

static gint
open_socket (UnixSource *self, GError **error)
{
  SlUnixSocketSpec spec = {
    .path = self->path,
    .stream = self->stream,
    .perm = self->perm,
    .owner = self->owner,
    .group = self->group,
    .so_rcvbuf = self->so_rcvbuf,
  };
  return sl_unix_socket_open (&spec, self->super.klass->name, error);
}

static gboolean
unix_start (SlDriver *d, SlSource *source, GError **error)
{
  UnixSource *self = (UnixSource *) d;
  GError *failure = NULL;
  gint fd = open_socket (self, &failure);
  if (fd < 0 && self->optional)
    {
      sl_log (SL_LOG_NOTICE, "optional source %s() not started: %s", d->klass->name, failure->message);
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
      unlink (self->path);
      return FALSE;
    }
  sl_log (SL_LOG_INFO, "%s() listening on %s", d->klass->name, self->path);
  return TRUE;
}

static void
unix_stop (SlDriver *d)
{
  UnixSource *self = (UnixSource *) d;
  if (self->reader)
    {
      sl_socket_reader_stop (self->reader);
      unlink (self->path);
    }
  self->reader = NULL;
}

static void
unix_free (SlDriver *d)
{
  g_free (((UnixSource *) d)->path);
}

static const SlDriverClass unix_stream_class = {
  .kind = SL_DRIVER_SOURCE,
  .name = "unix-stream",
  .summary = "receive from local programs over a unix stream socket",
  .options = stream_options,
  .instance_size = sizeof (UnixSource),
  .init = unix_init,
  .free = unix_free,
  .start = unix_start,
  .stop = unix_stop,
};

static const SlDriverClass unix_dgram_class = {
  .kind = SL_DRIVER_SOURCE,
  .name = "unix-dgram",
  .summary = "receive from local programs over a unix datagram socket, like /dev/log",
  .options = dgram_options,
  .instance_size = sizeof (UnixSource),
  .init = unix_init,
  .free = unix_free,
  .start = unix_start,
  .stop = unix_stop,
};

G_MODULE_EXPORT const SlModule sl_module = {
  .abi_version = SL_ABI_VERSION,
  .name = "unix-source",
  .drivers = (const SlDriverClass *const[]) { &unix_stream_class, &unix_dgram_class, NULL },
};
