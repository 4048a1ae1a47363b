/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/store/owned-path.h"
#include "core/i18n.h"

#include <errno.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

static const gchar *
kind_name (mode_t mode)
{
  switch (mode & S_IFMT)
    {
    case S_IFREG:
      return _("a regular file");
    case S_IFSOCK:
      return _("a socket");
    case S_IFLNK:
      return _("a symbolic link");
    case S_IFDIR:
      return _("a folder");
    case S_IFIFO:
      return _("a named pipe");
    default:
      return _("a device");
    }
}

/* "name (uid N)", or "uid N" for a user without a name. */
static gchar *
owner_name (uid_t uid)
{
  struct passwd *pw = getpwuid (uid);
  if (pw && pw->pw_name)
    return g_strdup_printf ("%s (uid %u)", pw->pw_name, (guint) uid);
  return g_strdup_printf ("uid %u", (guint) uid);
}

gboolean
sl_owned_path_check (const gchar *path, mode_t kind, const gchar *what, GError **error)
{
  struct stat st;
  if (lstat (path, &st) < 0)
    {
      if (errno == ENOENT)
        return TRUE;
      gint err = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (err), _("%s %s: %s"), what, path, g_strerror (err));
      return FALSE;
    }
  gboolean ours = st.st_uid == geteuid () || st.st_uid == 0;
  if ((st.st_mode & S_IFMT) == kind && ours)
    return TRUE;
  gchar *owner = owner_name (st.st_uid);
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_EXIST,
               _("%s %s is %s of %s, not %s the daemon made; not replacing it"), what, path,
               kind_name (st.st_mode), owner, kind_name (kind));
  g_free (owner);
  return FALSE;
}
