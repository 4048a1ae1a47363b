/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: any bytes as an rsyslog configuration file through
 * the rsyslog front end (legacy lines, $ directives, RainerScript) into
 * Sluice's tree; errors are expected, crashes and leaks are not. The
 * front end reads files, so each input is written to one temporary file. */
#include "core/config/rsyslog.h"

#include <glib/gstdio.h>
#include <unistd.h>

static gchar *path;

static void
remove_file (void)
{
  g_unlink (path);
}

int
LLVMFuzzerTestOneInput (const guint8 *data, gsize size)
{
  if (!path)
    {
      gint fd = g_file_open_tmp ("fuzz-rsyslog-XXXXXX.conf", &path, NULL);
      if (fd < 0)
        return 0;
      close (fd);
      atexit (remove_file);
    }
  if (!g_file_set_contents (path, (const gchar *) data, size, NULL))
    return 0;
  GError *error = NULL;
  SlCfgNode *root = sl_cfg_rsyslog_parse_file (path, &error);
  if (root)
    sl_cfg_node_free (root);
  g_clear_error (&error);
  return 0;
}
