/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "daemon/control.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/store/owned-path.h"

#include <errno.h>
#include <glib-unix.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#define MAX_COMMAND 4096

struct _SlControl
{
  gchar *path;
  gint fd;
  guint watch;
  SlControlHandler handler;
  gpointer user_data;
  SlControlStreamHandler stream;
  gpointer stream_data;
};

static void
write_all (gint fd, const gchar *data, gsize len)
{
  while (len)
    {
      gssize n = write (fd, data, len);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return;
      data += n;
      len -= n;
    }
}

/* A client has a second to send its command, so a stuck one cannot hold
 * the main loop for long. */
static gboolean
read_command (gint fd, gchar *buf, gsize size)
{
  gsize len = 0;
  while (len < size - 1)
    {
      struct pollfd p = { fd, POLLIN, 0 };
      if (poll (&p, 1, 1000) <= 0)
        return FALSE;
      gssize n = read (fd, buf + len, size - 1 - len);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      len += n;
      if (memchr (buf, '\n', len))
        break;
    }
  buf[len] = '\0';
  g_strstrip (buf);
  return len > 0;
}

static gint
connect_to (const gchar *path)
{
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  if (strlen (path) >= sizeof addr.sun_path)
    {
      errno = ENAMETOOLONG;
      return -1;
    }
  strcpy (addr.sun_path, path);
  /* non-blocking: a listener with a full backlog is busy, not absent,
   * and must not hang a starting daemon */
  gint fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd >= 0 && connect (fd, (struct sockaddr *) &addr, sizeof addr) < 0)
    {
      gint saved = errno;
      close (fd);
      errno = saved;
      return -1;
    }
  return fd;
}

gboolean
sl_control_probe (const gchar *path, gint *pid)
{
  *pid = 0;
  gint fd = connect_to (path);
  if (fd < 0)
    return FALSE;
  static const gchar health[] = "HEALTH\n";
  gchar answer[MAX_COMMAND];
  /* a daemon that accepts but does not answer (stopped, busy) is still
   * there; it only goes unnamed */
  if (write (fd, health, sizeof health - 1) == sizeof health - 1 && read_command (fd, answer, sizeof answer)
      && g_str_has_prefix (answer, "OK pid="))
    *pid = (gint) g_ascii_strtoll (answer + strlen ("OK pid="), NULL, 10);
  close (fd);
  return TRUE;
}

/* Only a socket of ours nobody listens on is replaced: connecting to it
 * is refused. A live daemon's socket makes bind() fail; anything else
 * (another user's file, a symbolic link) is refused. */
static gboolean
remove_stale (const gchar *path, GError **error)
{
  if (!sl_owned_path_check (path, S_IFSOCK, _("the control socket"), error))
    return FALSE;
  gint fd = connect_to (path);
  if (fd >= 0)
    close (fd);
  else if (errno == ECONNREFUSED)
    unlink (path);
  return TRUE;
}

static gboolean
on_accept (gint fd, GIOCondition condition, gpointer data)
{
  SlControl *control = data;
  gint client = accept4 (fd, NULL, NULL, SOCK_CLOEXEC);
  if (client < 0)
    return G_SOURCE_CONTINUE;
  gchar command[MAX_COMMAND];
  gboolean read = read_command (client, command, sizeof command);
  if (read && control->stream && control->stream (command, client, control->stream_data))
    return G_SOURCE_CONTINUE;
  if (read)
    {
      gchar *answer = control->handler (command, control->user_data);
      write_all (client, answer, strlen (answer));
      g_free (answer);
    }
  close (client);
  return G_SOURCE_CONTINUE;
}

SlControl *
sl_control_new (const gchar *path, SlControlHandler handler, gpointer user_data, GError **error)
{
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  if (strlen (path) >= sizeof addr.sun_path)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NAMETOOLONG,
                   _("control socket path is too long: %s"), path);
      return NULL;
    }
  strcpy (addr.sun_path, path);
  if (!remove_stale (path, error))
    return NULL;
  gint fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0 || bind (fd, (struct sockaddr *) &addr, sizeof addr) < 0 || listen (fd, 16) < 0)
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
                   _("cannot listen on control socket %s: %s"), path, g_strerror (errno));
      if (fd >= 0)
        close (fd);
      return NULL;
    }
  chmod (path, 0600);
  SlControl *control = g_new0 (SlControl, 1);
  control->path = g_strdup (path);
  control->fd = fd;
  control->handler = handler;
  control->user_data = user_data;
  control->watch = g_unix_fd_add (fd, G_IO_IN, on_accept, control);
  return control;
}

void
sl_control_set_stream_handler (SlControl *control, SlControlStreamHandler handler, gpointer user_data)
{
  control->stream = handler;
  control->stream_data = user_data;
}

void
sl_control_free (SlControl *control)
{
  if (!control)
    return;
  g_source_remove (control->watch);
  close (control->fd);
  unlink (control->path);
  g_free (control->path);
  g_free (control);
}
