/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/io/trusted.h"

#include <fcntl.h>
#include <unistd.h>

/* imuxsock reads into a buffer of this size, one byte kept for its NUL */
#define PROP_MAX 1024

/* /proc/PID/NAME as imuxsock reads it, FALSE when it cannot be read */
static gboolean
read_prop (pid_t pid, const gchar *name, gchar *buf, gsize *len)
{
  gchar path[64];
  g_snprintf (path, sizeof path, "/proc/%lu/%s", (gulong) pid, name);
  gint fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return FALSE;
  gssize got = read (fd, buf, PROP_MAX - 1);
  close (fd);
  if (got < 0)
    return FALSE;
  gsize i = 0;
  for (; i < (gsize) got && buf[i] != '\n'; i++)
    if (g_ascii_iscntrl (buf[i]))
      buf[i] = ' ';
  *len = i;
  return TRUE;
}

void
sl_trusted_annotate (GString *out, pid_t pid, uid_t uid, gid_t gid)
{
  gchar buf[PROP_MAX];
  gsize len;

  g_string_append_printf (out, " @[_PID=%lu _UID=%lu _GID=%lu", (gulong) pid, (gulong) uid, (gulong) gid);
  if (read_prop (pid, "comm", buf, &len))
    {
      g_string_append (out, " _COMM=");
      g_string_append_len (out, buf, len);
    }
  g_autofree gchar *exe_path = g_strdup_printf ("/proc/%lu/exe", (gulong) pid);
  gssize exe_len = readlink (exe_path, buf, PROP_MAX - 1);
  if (exe_len >= 0)
    {
      g_string_append (out, " _EXE=");
      g_string_append_len (out, buf, exe_len);
    }
  if (read_prop (pid, "cmdline", buf, &len))
    {
      g_string_append (out, " _CMDLINE=\"");
      for (gsize i = 0; i < len; i++)
        {
          if (buf[i] == '"' || buf[i] == '\\')
            g_string_append_c (out, '\\');
          g_string_append_c (out, buf[i]);
        }
      g_string_append_c (out, '"');
    }
  g_string_append_c (out, ']');
}
