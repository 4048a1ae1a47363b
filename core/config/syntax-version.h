/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The syslog-ng version a configuration is written for (@version): a 4.x
 * configuration (or "current") gets syslog-ng 4's behaviour where it
 * differs from 3.x: typed values (json-parser() keeps the types it reads,
 * $(format-json) writes them), the syslog parser's tags and error
 * records. A 3.x configuration, or one without @version, keeps 3.x's, as
 * syslog-ng 4 keeps a 3.x configuration's. Known while a configuration
 * compiles, so that a driver or template function decides once, in its
 * init or prepare; what is compiled keeps the answer. (A kit service.) */
#ifndef SL_CFG_SYNTAX_VERSION_H
#define SL_CFG_SYNTAX_VERSION_H

#include "core/config/tree.h"

G_BEGIN_DECLS

/* Whether tree's @version is 4.0 or later, or "current". */
gboolean sl_cfg_version_is_4 (const SlCfgNode *tree);

/* What sl_cfg_compiling_version_4() answers until the next call: the
 * compiler sets it from the tree it compiles, and clears it after. */
void     sl_cfg_set_compiling_version_4 (gboolean v4);
/* Whether the configuration now compiling is written for syslog-ng 4. */
gboolean sl_cfg_compiling_version_4 (void);

G_END_DECLS

#endif
