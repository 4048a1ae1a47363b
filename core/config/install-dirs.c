/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/config/install-dirs-private.h"

static gchar *module_install_dir;

void
sl_cfg_set_module_install_dir (const gchar *dir)
{
  g_free (module_install_dir);
  module_install_dir = g_strdup (dir);
}

const gchar *
sl_cfg_module_install_dir (void)
{
  return module_install_dir ? module_install_dir : SL_MODULE_DIR;
}
