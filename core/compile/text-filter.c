/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/compile/text-filter.h"
#include "core/compile/config-private.h"
#include "core/compile/config-run.h"
#include "core/config/parser.h"
#include "core/compile/filter-expr-compile.h"

struct _SlTextFilter
{
  SlConfig *owner;     /* holds the filter-function drivers the expression made */
  SlCfgNode *tree;
  SlFilterExpr *expr;
};

SlTextFilter *
sl_text_filter_compile (const gchar *text, const gchar *name, GError **error)
{
  SlCfgNode *tree = sl_cfg_parse_filter_expr (text, name, error);
  if (!tree)
    return NULL;

  SlTextFilter *filter = g_new0 (SlTextFilter, 1);
  filter->tree = tree;
  filter->owner = sl_config_new_empty ();
  filter->expr = sl_filter_expr_compile (filter->owner, tree, error);
  if (!filter->expr)
    {
      sl_text_filter_free (filter);
      return NULL;
    }
  return filter;
}

/* A filter function that stores matches writes to its own copy: the extra
 * reference makes it copy rather than change the caller's message. */
gboolean
sl_text_filter_eval (const SlTextFilter *filter, const SlMessage *msg)
{
  SlMessage *held = sl_message_ref ((SlMessage *) msg);
  gboolean matched = sl_filter_expr_eval (filter->expr, &held);
  sl_message_unref (held);
  return matched;
}

void
sl_text_filter_free (SlTextFilter *filter)
{
  if (!filter)
    return;
  sl_filter_expr_free (filter->expr);
  sl_config_free (filter->owner);
  sl_cfg_node_free (filter->tree);
  g_free (filter);
}
