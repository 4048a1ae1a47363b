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

/* /proc/PID/exe's target, FALSE when it cannot be read */
static gboolean
read_exe (pid_t pid, gchar *buf, gsize *len)
{
  gchar path[64];
  g_snprintf (path, sizeof path, "/proc/%lu/exe", (gulong) pid);
  gssize got = readlink (path, buf, PROP_MAX - 1);
  if (got < 0)
    return FALSE;
  *len = (gsize) got;
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
  if (read_exe (pid, buf, &len))
    {
      g_string_append (out, " _EXE=");
      g_string_append_len (out, buf, len);
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

enum
{
  FIELD_PID,
  FIELD_UID,
  FIELD_GID,
  FIELD_APPNAME,
  FIELD_EXE,
  FIELD_CMD,
  FIELD_COUNT
};

/* interned once: a message of a parseTrusted socket looks up no name */
static gpointer
intern_fields (gpointer data)
{
  static SlHandle h[FIELD_COUNT];
  static const gchar *const names[FIELD_COUNT] = { "!pid", "!uid", "!gid", "!appname", "!exe", "!cmd" };
  for (guint i = 0; i < FIELD_COUNT; i++)
    h[i] = sl_field_handle (names[i]);
  return h;
}

static void
set_number (SlMessage *msg, SlHandle h, gulong value)
{
  gchar text[24];
  sl_message_set_typed (msg, h, text, g_snprintf (text, sizeof text, "%lu", value), SL_VALUE_INT64);
}

void
sl_trusted_set_fields (SlMessage *msg, pid_t pid, uid_t uid, gid_t gid)
{
  static GOnce once = G_ONCE_INIT;
  const SlHandle *h = g_once (&once, intern_fields, NULL);
  gchar buf[PROP_MAX];
  gsize len;

  set_number (msg, h[FIELD_PID], (gulong) pid);
  set_number (msg, h[FIELD_UID], (gulong) uid);
  set_number (msg, h[FIELD_GID], (gulong) gid);
  if (read_prop (pid, "comm", buf, &len))
    sl_message_set (msg, h[FIELD_APPNAME], buf, len);
  if (read_exe (pid, buf, &len))
    sl_message_set (msg, h[FIELD_EXE], buf, len);
  if (read_prop (pid, "cmdline", buf, &len))
    sl_message_set (msg, h[FIELD_CMD], buf, len);
}
