/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Filter expressions: and, or, not, comparisons of templates, references
 * to named filters, and calls of filter-function plugins. */
#ifndef SL_FILTER_EXPR_H
#define SL_FILTER_EXPR_H

#include <glib.h>
#include "core/message/message.h"
#include "core/plugin/plugin.h"

G_BEGIN_DECLS

typedef struct _SlFilterExpr SlFilterExpr;

/* Made by sl_filter_expr_compile() (core/compile/filter-expr-compile.h). */
/* TRUE when *msg passes. A filter function that stores matches may replace
 * *msg with a writable copy, as a rewrite does. */
gboolean      sl_filter_expr_eval    (const SlFilterExpr *expr, SlMessage **msg);
void          sl_filter_expr_free    (SlFilterExpr *expr);

G_END_DECLS

#endif
