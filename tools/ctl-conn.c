/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include "tools/ctl-conn.h"

#include <glib/gi18n.h>

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

gint
sl_ctl_connect (const gchar *path, gint seconds, GError **error)
{
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  if (strlen (path) >= sizeof addr.sun_path)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_NAMETOOLONG, _("control socket path too long: %s"), path);
      return -1;
    }
  strcpy (addr.sun_path, path);
  gint fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  /* a daemon that accepts but never answers must not hang the caller */
  struct timeval patience = { .tv_sec = seconds };
  if (fd >= 0 && seconds > 0)
    {
      setsockopt (fd, SOL_SOCKET, SO_RCVTIMEO, &patience, sizeof patience);
      setsockopt (fd, SOL_SOCKET, SO_SNDTIMEO, &patience, sizeof patience);
    }
  if (fd < 0 || connect (fd, (struct sockaddr *) &addr, sizeof addr) < 0)
    {
      gint saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), _("cannot reach sluiced at %s: %s"), path,
                   g_strerror (saved));
      if (fd >= 0)
        close (fd);
      return -1;
    }
  return fd;
}

gboolean
sl_ctl_send (gint fd, const gchar *command, GError **error)
{
  gchar *line = g_strconcat (command, "\n", NULL);
  gboolean sent = write (fd, line, strlen (line)) == (gssize) strlen (line);
  g_free (line);
  if (!sent)
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno), _("cannot send to sluiced: %s"),
                 g_strerror (errno));
  return sent;
}

gchar *
sl_ctl_request (const gchar *path, const gchar *command, gint seconds, GError **error)
{
  gint fd = sl_ctl_connect (path, seconds, error);
  if (fd < 0)
    return NULL;
  if (!sl_ctl_send (fd, command, error))
    {
      close (fd);
      return NULL;
    }
  GString *answer = g_string_new (NULL);
  gchar buf[4096];
  gssize n;
  while ((n = read (fd, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
    if (n > 0)
      g_string_append_len (answer, buf, n);
  gint saved = errno;
  close (fd);
  if (n < 0)
    {
      if (saved == EAGAIN || saved == EWOULDBLOCK)
        g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_AGAIN, _("sluiced did not answer within %d seconds"), seconds);
      else
        g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), _("cannot read from sluiced: %s"),
                     g_strerror (saved));
      g_string_free (answer, TRUE);
      return NULL;
    }
  return g_string_free (answer, FALSE);
}
