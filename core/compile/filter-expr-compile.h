/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Filter expressions compiled from the configuration tree: the part of
 * filter expressions that needs the configuration (its named filters, and
 * filter functions made as its drivers). */
#ifndef SL_FILTER_EXPR_COMPILE_H
#define SL_FILTER_EXPR_COMPILE_H

#include <glib.h>
#include "core/config/tree.h"
#include "core/route/filter-expr.h"
#include "core/plugin/plugin.h"

G_BEGIN_DECLS

/* Compiles an expression node of the configuration tree (a filter's body,
 * or the one child of a condition() option); filter(name) references are
 * resolved through the config's named filters, filter functions made as
 * drivers of cfg. A rewrite or parser compiles its condition() with this in
 * its init and frees it with sl_filter_expr_free() in its free. */
SlFilterExpr *sl_filter_expr_compile (SlConfig *cfg, const SlCfgNode *node, GError **error);

G_END_DECLS

#endif
