/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What systemd learns of the daemon under Type=notify (sd_notify): ready,
 * reloading, stopping, a status line of counters, and watchdog pings.
 * Without NOTIFY_SOCKET in the environment every call does nothing. */
#ifndef SL_NOTIFY_H
#define SL_NOTIFY_H

#include <glib.h>

G_BEGIN_DECLS

/* READY=1 with the first status line, then a status line every few
 * seconds and, when the service has a watchdog (WATCHDOG_USEC), WATCHDOG=1
 * at half its interval, both from the default main context: a main loop
 * that hangs stops the pings. */
void sl_notify_ready     (void);
/* RELOADING=1 before a reload begins; sl_notify_ready() when it ended,
 * taken or not. */
void sl_notify_reloading (void);
/* STOPPING=1, and no more status lines or pings. */
void sl_notify_stopping  (void);

G_END_DECLS

#endif
