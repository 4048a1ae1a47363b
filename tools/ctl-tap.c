/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sluicectl tap: the messages passing a source, parser, rewrite or
 * destination of the running daemon, a JSON object a line. */
#include <config.h>
#include "tools/ctl-conn.h"
#include "tools/ctl-verbs.h"

#include <glib/gi18n.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

gint
sl_ctl_tap (const SlCtl *ctl, const gchar *wire, gchar **args)
{
  if (ctl->limit < 0)
    {
      fprintf (stderr, _("sluicectl: --limit must be a number of messages above 0\n"));
      return 2;
    }
  if (ctl->filter && strchr (ctl->filter, '\n'))
    {
      fprintf (stderr, _("sluicectl: --filter is one line\n"));
      return 2;
    }
  GString *command = g_string_new ("TAP ");
  g_string_append (command, args[0]);
  if (ctl->limit)
    g_string_append_printf (command, " LIMIT %d", ctl->limit);
  if (ctl->filter)
    g_string_append_printf (command, " FILTER %s", ctl->filter);
  GError *error = NULL;
  /* no patience: a quiet point is no reason to give up */
  gint fd = sl_ctl_connect (ctl->control, 0, &error);
  gboolean sent = fd >= 0 && sl_ctl_send (fd, command->str, &error);
  g_string_free (command, TRUE);
  if (!sent)
    {
      fprintf (stderr, "sluicectl: %s\n", error->message);
      g_error_free (error);
      if (fd >= 0)
        close (fd);
      return 2;
    }
  FILE *in = fdopen (fd, "r");
  gchar *line = NULL;
  size_t size = 0;
  if (getline (&line, &size, in) < 0 || !g_str_has_prefix (line, "OK"))
    {
      fputs (line && *line ? line : _("ERROR sluiced closed the connection\n"), stderr);
      free (line);
      fclose (in);
      return 1;
    }
  /* "OK tapping KIND/NAME": said on stderr, so that stdout is JSON alone */
  fprintf (stderr, _("sluicectl: tapping %s"), line + strlen ("OK tapping "));
  /* each message as it comes, also into a pipe */
  setvbuf (stdout, NULL, _IOLBF, 0);
  while (getline (&line, &size, in) >= 0)
    if (g_str_has_prefix (line, "DROPPED "))
      {
        /* as a string: xgettext cannot read a format with G_GUINT64_FORMAT in it */
        g_autofree gchar *count = g_strdup_printf ("%" G_GUINT64_FORMAT,
                                                   g_ascii_strtoull (line + strlen ("DROPPED "), NULL, 10));
        fprintf (stderr, _("sluicectl: %s messages dropped so far: they passed faster than this reader took them\n"),
                 count);
      }
    else
      fputs (line, stdout);
  free (line);
  fclose (in);
  return 0;
}
