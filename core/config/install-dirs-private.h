/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Setting what install-dirs.h reads: sluiced's command line. */
#ifndef SL_CFG_INSTALL_DIRS_PRIVATE_H
#define SL_CFG_INSTALL_DIRS_PRIVATE_H

#include "core/config/install-dirs.h"

G_BEGIN_DECLS

/* What the `module-install-dir` define names from now on (NULL: Sluice's
 * plugin folder), for every configuration parsed after. */
void sl_cfg_set_module_install_dir (const gchar *dir);

G_END_DECLS

#endif
