/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/config/syntax-version.h"

#include <stdlib.h>

/* configurations compile one at a time, on the main thread */
static gboolean compiling_version_4;

gboolean
sl_cfg_version_is_4 (const SlCfgNode *tree)
{
  const gchar *version = tree->args->len ? sl_cfg_node_arg (tree, 0) : NULL;

  return version && (g_ascii_strcasecmp (version, "current") == 0 || g_ascii_strtoull (version, NULL, 10) >= 4);
}

void
sl_cfg_set_compiling_version_4 (gboolean v4)
{
  compiling_version_4 = v4;
}

gboolean
sl_cfg_compiling_version_4 (void)
{
  return compiling_version_4;
}
