/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "daemon/notify.h"
#include "core/stats-private.h"

#include <systemd/sd-daemon.h>

/* often enough that `systemctl status` is current, rarely enough to cost
 * nothing */
#define STATUS_INTERVAL_SECONDS 5

static guint status_timer;
static guint watchdog_timer;

static void
send_with_status (const gchar *state)
{
  gchar *line = g_strdup_printf ("%s%sSTATUS=received %" G_GINT64_FORMAT ", written %" G_GINT64_FORMAT
                                 ", dropped %" G_GINT64_FORMAT,
                                 state ? state : "", state ? "\n" : "", sl_stats_sum ("source", "received"),
                                 sl_stats_sum ("destination", "written"), sl_stats_sum ("destination", "dropped"));
  sd_notify (FALSE, line);
  g_free (line);
}

static gboolean
on_status (gpointer data)
{
  send_with_status (NULL);
  return G_SOURCE_CONTINUE;
}

static gboolean
on_watchdog (gpointer data)
{
  sd_notify (FALSE, "WATCHDOG=1");
  return G_SOURCE_CONTINUE;
}

void
sl_notify_ready (void)
{
  if (!g_getenv ("NOTIFY_SOCKET"))
    return;
  send_with_status ("READY=1");
  if (!status_timer)
    status_timer = g_timeout_add_seconds (STATUS_INTERVAL_SECONDS, on_status, NULL);
  guint64 usec = 0;
  if (!watchdog_timer && sd_watchdog_enabled (FALSE, &usec) > 0 && usec > 0)
    watchdog_timer = g_timeout_add (MAX (usec / 2000, 1), on_watchdog, NULL);
}

void
sl_notify_reloading (void)
{
  if (!g_getenv ("NOTIFY_SOCKET"))
    return;
  /* MONOTONIC_USEC lets Type=notify-reload tell this reload from an
   * earlier one */
  gchar *line = g_strdup_printf ("RELOADING=1\nMONOTONIC_USEC=%" G_GINT64_FORMAT, g_get_monotonic_time ());
  sd_notify (FALSE, line);
  g_free (line);
}

void
sl_notify_stopping (void)
{
  if (!g_getenv ("NOTIFY_SOCKET"))
    return;
  if (status_timer)
    g_source_remove (status_timer);
  if (watchdog_timer)
    g_source_remove (watchdog_timer);
  status_timer = watchdog_timer = 0;
  sd_notify (FALSE, "STOPPING=1");
}
