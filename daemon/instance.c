/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "daemon/instance.h"
#include "core/i18n.h"
#include "core/internal.h"
#include "core/store/owned-path.h"
#include "daemon/control.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

struct _SlInstance
{
  gchar *pidfile;
  gint fd;              /* the locked pid file, or -1 */
};

static GQuark
instance_error_quark (void)
{
  return g_quark_from_static_string ("sluiced-instance");
}

/* The pid the file names, or 0 while its owner has not written it yet. */
static gint
read_pid (gint fd)
{
  gchar text[32];
  gssize n = pread (fd, text, sizeof text - 1, 0);
  if (n <= 0)
    return 0;
  text[n] = '\0';
  return (gint) g_ascii_strtoll (text, NULL, 10);
}

/* A daemon that stops removes its pid file while it holds the lock; a
 * lock taken on the file it removed would guard nothing, so the lock
 * counts only while the path still names the locked file. */
static gboolean
lock_pidfile (SlInstance *instance, GError **error)
{
  for (;;)
    {
      gint fd = open (instance->pidfile, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
      if (fd < 0)
        {
          sl_log (SL_LOG_WARNING, _("cannot open the pid file %s: %s; starting without it"), instance->pidfile,
                  g_strerror (errno));
          return TRUE;
        }
      if (flock (fd, LOCK_EX | LOCK_NB) < 0)
        {
          gint saved = errno;
          if (saved == EWOULDBLOCK)
            {
              gint pid = read_pid (fd);
              if (pid > 0)
                g_set_error (error, instance_error_quark (), 0,
                             _("another sluiced (pid %d) holds the pid file %s; not starting"), pid,
                             instance->pidfile);
              else
                g_set_error (error, instance_error_quark (), 0,
                             _("another sluiced holds the pid file %s; not starting"), instance->pidfile);
            }
          else
            g_set_error (error, instance_error_quark (), 0, _("cannot lock the pid file %s: %s"),
                         instance->pidfile, g_strerror (saved));
          close (fd);
          return FALSE;
        }
      struct stat locked, named;
      if (fstat (fd, &locked) == 0 && stat (instance->pidfile, &named) == 0 && locked.st_dev == named.st_dev
          && locked.st_ino == named.st_ino)
        {
          instance->fd = fd;
          return TRUE;
        }
      close (fd);
    }
}

SlInstance *
sl_instance_claim (const gchar *pidfile, const gchar *control_path, GError **error)
{
  /* a file of someone else's at either path is never truncated or
   * removed; the daemon does not start */
  if (!sl_owned_path_check (pidfile, S_IFREG, _("the pid file"), error)
      || !sl_owned_path_check (control_path, S_IFSOCK, _("the control socket"), error))
    return NULL;
  SlInstance *instance = g_new0 (SlInstance, 1);
  instance->pidfile = g_strdup (pidfile);
  instance->fd = -1;
  if (!lock_pidfile (instance, error))
    {
      g_free (instance->pidfile);
      g_free (instance);
      return NULL;
    }
  gint pid;
  if (sl_control_probe (control_path, &pid))
    {
      if (pid > 0)
        g_set_error (error, instance_error_quark (), 0,
                     _("another sluiced (pid %d) answers on the control socket %s; not starting"), pid,
                     control_path);
      else
        g_set_error (error, instance_error_quark (), 0,
                     _("another process listens on the control socket %s; not starting"), control_path);
      sl_instance_release (instance);
      return NULL;
    }
  return instance;
}

void
sl_instance_write_pid (SlInstance *instance)
{
  if (instance->fd < 0)
    return;
  gchar text[32];
  gint len = g_snprintf (text, sizeof text, "%d\n", (int) getpid ());
  if (ftruncate (instance->fd, 0) < 0 || pwrite (instance->fd, text, len, 0) != len)
    sl_log (SL_LOG_ERROR, _("cannot write the pid file %s: %s"), instance->pidfile, g_strerror (errno));
}

void
sl_instance_release (SlInstance *instance)
{
  if (!instance)
    return;
  if (instance->fd >= 0)
    {
      unlink (instance->pidfile);
      close (instance->fd);
    }
  g_free (instance->pidfile);
  g_free (instance);
}
