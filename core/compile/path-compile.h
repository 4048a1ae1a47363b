/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Log paths compiled from the configuration tree: references to source and
 * destination groups, filters, parsers and rewrites, flags, nested paths
 * if/elif/else, junctions and channels become the steps of core/path.h. */
#ifndef SL_PATH_COMPILE_H
#define SL_PATH_COMPILE_H

#include "core/plugin/plugin.h"
#include "core/route/path.h"

G_BEGIN_DECLS

/* Compiles every top-level log {} of cfg->tree into cfg->paths and tells
 * each source which paths take it. */
gboolean sl_path_compile_all (SlConfig *cfg, GError **error);
void     sl_path_free        (SlPath *path);

G_END_DECLS

#endif
