/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "plugins/sources/system/system-input.h"

#include <sys/stat.h>

gboolean
system_journald_owns_log (const gchar *run_dir, const gchar *dev_log)
{
  struct stat dir, journald, log;
  gchar *journald_log = g_build_filename (run_dir, "dev-log", NULL);
  gboolean owns = stat (run_dir, &dir) == 0 && S_ISDIR (dir.st_mode) && stat (journald_log, &journald) == 0
                  && stat (dev_log, &log) == 0 && journald.st_dev == log.st_dev && journald.st_ino == log.st_ino;
  g_free (journald_log);
  return owns;
}
