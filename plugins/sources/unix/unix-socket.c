/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "plugins/sources/unix/unix-socket.h"
#include "core/io/activation.h"
#include "core/i18n.h"
#include "core/internal.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

/* Whether a process is bound to the socket at addr: connecting to a
 * socket file nobody holds is refused, for stream and datagram sockets
 * alike; a socket of the other type that someone holds gives EPROTOTYPE,
 * a listener with a full backlog EAGAIN (without blocking). */
static gboolean
socket_in_use (const struct sockaddr_un *addr, gboolean stream)
{
  gint fd = socket (AF_UNIX, (stream ? SOCK_STREAM : SOCK_DGRAM) | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0)
    return FALSE;
  gboolean in_use = connect (fd, (const struct sockaddr *) addr, sizeof *addr) == 0 || errno != ECONNREFUSED;
  close (fd);
  return in_use;
}

/* A socket file left by a previous run (or another daemon that died) is
 * replaced; a socket a running process listens on, or anything that is
 * not a socket, is an error, never something to remove. */
static gboolean
remove_stale (const struct sockaddr_un *addr, gboolean stream, GError **error)
{
  struct stat st;
  if (lstat (addr->sun_path, &st) < 0)
    return TRUE;
  if (!S_ISSOCK (st.st_mode))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_EXIST,
                   _("%s exists and is not a socket; not replacing it; owner='%u'"), addr->sun_path,
                   (guint) st.st_uid);
      return FALSE;
    }
  if (st.st_uid != geteuid () && st.st_uid != 0)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_EXIST,
                   _("%s is the socket of another user; not replacing it; owner='%u'"), addr->sun_path,
                   (guint) st.st_uid);
      return FALSE;
    }
  if (socket_in_use (addr, stream))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_EXIST,
                   _("%s is the socket of a running process; not replacing it"), addr->sun_path);
      return FALSE;
    }
  unlink (addr->sun_path);
  return TRUE;
}

gint
unix_socket_open (const UnixSocketSpec *spec, const gchar *driver, gboolean *inherited, GError **error)
{
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  if (strlen (spec->path) >= sizeof addr.sun_path)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NAMETOOLONG,
                   _("%s(): socket path %s is longer than the %zu bytes a unix socket allows"), driver,
                   spec->path, sizeof addr.sun_path - 1);
      return -1;
    }
  strcpy (addr.sun_path, spec->path);
  gint fd = sl_activation_take ((const struct sockaddr *) &addr, sizeof addr, spec->stream ? SOCK_STREAM : SOCK_DGRAM);
  *inherited = fd >= 0;
  if (*inherited)
    return fd;
  if (!remove_stale (&addr, spec->stream, error))
    return -1;
  fd = socket (AF_UNIX, (spec->stream ? SOCK_STREAM : SOCK_DGRAM) | SOCK_CLOEXEC, 0);
  if (fd >= 0 && !spec->stream && spec->so_rcvbuf > 0)
    setsockopt (fd, SOL_SOCKET, SO_RCVBUF, &spec->so_rcvbuf, sizeof spec->so_rcvbuf);
  if (fd < 0 || bind (fd, (struct sockaddr *) &addr, sizeof addr) < 0
      || (spec->stream && listen (fd, 256) < 0))
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
                   _("%s(): cannot create socket %s: %s"), driver, spec->path, g_strerror (errno));
      if (fd >= 0)
        close (fd);
      return -1;
    }
  if (chmod (spec->path, spec->perm) < 0
      || ((spec->owner != (uid_t) -1 || spec->group != (gid_t) -1) && chown (spec->path, spec->owner, spec->group) < 0))
    sl_log (SL_LOG_WARNING, _("cannot set the mode or owner of %s: %s"), spec->path, g_strerror (errno));
  return fd;
}
