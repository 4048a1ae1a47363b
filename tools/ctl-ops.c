/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The operations verbs of syslog-ng-ctl 4: healthcheck, query, log-level. */
#include <config.h>
#include "tools/ctl-conn.h"
#include "tools/ctl-verbs.h"

#include <glib/gi18n.h>

#include <stdio.h>
#include <string.h>

/* Healthy is a daemon whose main loop answers within the timeout: it is
 * the loop that serves the control socket, reloads and stops. */
gint
sl_ctl_healthcheck (const SlCtl *ctl, const gchar *wire, gchar **args)
{
  if (ctl->timeout == 0 || ctl->timeout < -1)
    {
      fprintf (stderr, _("sluicectl: --timeout must be a positive number of seconds\n"));
      return 2;
    }
  GError *error = NULL;
  gint64 start = g_get_monotonic_time ();
  gchar *answer = sl_ctl_request (ctl->control, "HEALTH", ctl->timeout == -1 ? 15 : ctl->timeout, &error);
  gint64 took = g_get_monotonic_time () - start;
  if (!answer || !g_str_has_prefix (answer, "OK pid="))
    {
      fprintf (stderr, _("unhealthy: %s\n"), answer ? g_strchomp (answer) : error->message);
      g_clear_error (&error);
      g_free (answer);
      return 1;
    }
  printf ("sluiced_pid %s", answer + strlen ("OK pid="));
  printf ("sluiced_mainloop_roundtrip_latency_seconds %.6f\n", took / 1e6);
  g_free (answer);
  return 0;
}

gint
sl_ctl_query (const SlCtl *ctl, const gchar *wire, gchar **args)
{
  const gchar *how = args[0];
  const gchar *glob = args[1] ? args[1] : "*";
  if (strcmp (how, "list") != 0 && strcmp (how, "get") != 0)
    {
      fprintf (stderr, _("sluicectl: query list or query get, not '%s'; see --help\n"), how);
      return 2;
    }
  if (ctl->sum && strcmp (how, "list") == 0)
    {
      fprintf (stderr, _("sluicectl: --sum goes with query get\n"));
      return 2;
    }
  g_autofree gchar *command = g_strdup_printf ("QUERY %s %s", strcmp (how, "list") == 0 ? "LIST" : ctl->sum ? "SUM" : "GET",
                                               glob);
  return sl_ctl_run (ctl, command);
}

gint
sl_ctl_log_level (const SlCtl *ctl, const gchar *wire, gchar **args)
{
  g_autofree gchar *command = g_strjoin (" ", "LOG-LEVEL", args[0], NULL);
  return sl_ctl_run (ctl, command);
}
