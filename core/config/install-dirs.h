/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The folders syslog-ng's built-in defines name, for plugins that read
 * what lives there. (A kit service.) */
#ifndef SL_CFG_INSTALL_DIRS_H
#define SL_CFG_INSTALL_DIRS_H

#include <glib.h>

G_BEGIN_DECLS

/* What the `module-install-dir` define names: syslog-ng's module folder
 * when sluiced --module-install-dir gives one (its python/ holds
 * syslog-ng's own Python modules), else Sluice's plugin folder. */
const gchar *sl_cfg_module_install_dir (void);

G_END_DECLS

#endif
