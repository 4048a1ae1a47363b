/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* syslog's facilities and levels by name: the names $FACILITY and $LEVEL
 * print, and the names and aliases configurations may use for them. */
#ifndef SL_PRIORITY_H
#define SL_PRIORITY_H

#include <glib.h>

G_BEGIN_DECLS

#define SL_FACILITY_COUNT 24
#define SL_LEVEL_COUNT 8

/* NULL-terminated, indexed by number: "kern" ... "local7", "emerg" ... "debug". */
extern const gchar *const sl_facility_names[SL_FACILITY_COUNT + 1];
extern const gchar *const sl_level_names[SL_LEVEL_COUNT + 1];

/* The number a name or alias (warn, error, panic, ...) stands for,
 * ignoring case; -1 for anything else. Numbers are the caller's business. */
gint sl_facility_lookup (const gchar *word);
gint sl_level_lookup    (const gchar *word);

G_END_DECLS

#endif
