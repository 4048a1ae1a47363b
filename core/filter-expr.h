/* Filter expressions: and, or, not, comparisons of templates, references
 * to named filters, and calls of filter-function plugins. */
#ifndef SL_FILTER_EXPR_H
#define SL_FILTER_EXPR_H

#include <glib.h>
#include "core/config/tree.h"
#include "core/message.h"
#include "core/plugin.h"

G_BEGIN_DECLS

typedef struct _SlFilterExpr SlFilterExpr;

/* Resolves filter(name) references through the config's named filters. */
SlFilterExpr *sl_filter_expr_compile (SlConfig *cfg, const SlCfgNode *node, GError **error);
gboolean      sl_filter_expr_eval    (const SlFilterExpr *expr, const SlMessage *msg);
void          sl_filter_expr_free    (SlFilterExpr *expr);

G_END_DECLS

#endif
