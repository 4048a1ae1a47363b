/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/message/priority.h"

const gchar *const sl_facility_names[SL_FACILITY_COUNT + 1] = {
  "kern", "user", "mail", "daemon", "auth", "syslog", "lpr", "news", "uucp", "cron",
  "authpriv", "ftp", "ntp", "security", "console", "solaris-cron",
  "local0", "local1", "local2", "local3", "local4", "local5", "local6", "local7", NULL
};

const gchar *const sl_level_names[SL_LEVEL_COUNT + 1] = {
  "emerg", "alert", "crit", "err", "warning", "notice", "info", "debug", NULL
};

/* syslog-ng's and syslogd's other spellings */
static const struct
{
  const gchar *alias;
  const gchar *name;
} aliases[] = {
  { "panic", "emerg" }, { "emergency", "emerg" }, { "critical", "crit" }, { "error", "err" },
  { "warn", "warning" }, { "informational", "info" }, { "clock", "cron" },
};

static gint
lookup (const gchar *word, const gchar *const *names)
{
  for (guint i = 0; i < G_N_ELEMENTS (aliases); i++)
    if (g_ascii_strcasecmp (word, aliases[i].alias) == 0)
      word = aliases[i].name;
  for (guint i = 0; names[i]; i++)
    if (g_ascii_strcasecmp (word, names[i]) == 0)
      return (gint) i;
  return -1;
}

gint
sl_facility_lookup (const gchar *word)
{
  return lookup (word, sl_facility_names);
}

gint
sl_level_lookup (const gchar *word)
{
  return lookup (word, sl_level_names);
}
