/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target: any bytes as an rsyslog configuration file through
 * the rsyslog front end (legacy lines, $ directives, RainerScript) into
 * Sluice's tree; errors are expected, crashes and leaks are not. The
 * front end reads files, so each input is written to one temporary file. */
#include "daemon/rsyslog/rsyslog.h"

#include "fuzz/fuzz-file.h"

int
LLVMFuzzerTestOneInput (const guint8 *data, gsize size)
{
  const gchar *path = sl_fuzz_write_file ("fuzz-rsyslog-XXXXXX.conf", data, size);
  if (!path)
    return 0;
  GError *error = NULL;
  SlCfgNode *root = sl_cfg_rsyslog_parse_file (path, &error);
  if (root)
    sl_cfg_node_free (root);
  g_clear_error (&error);
  return 0;
}
