/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What every rewrite rule of this plugin shares: condition(), which limits
 * a rule to the messages that pass a filter expression (compiled by the
 * core and owned by the rule's options), value(), the field a rule
 * changes, and a buffer to build new values in. */
#ifndef REWRITE_RULE_H
#define REWRITE_RULE_H

#include "core/route/filter-expr.h"
#include "core/plugin/plugin.h"

G_BEGIN_DECLS

typedef struct
{
  SlDriver super;
  SlFilterExpr *condition;   /* NULL: every message */
} RewriteRule;

/* Every rule's struct starts with its RewriteRule, so one entry serves all. */
#define REWRITE_RULE_OPTIONS \
  { "condition", SL_FILTER (RewriteRule, condition), NULL, "change only messages that pass this filter expression" }

/* Whether the rule changes *msg; evaluating may replace *msg, as filters
 * that store matches do. */
gboolean rewrite_rule_applies (RewriteRule *self, SlMessage **msg);
/* The field name, the value of an option such as value("MSG"), stands
 * for, aliases resolved; a configuration error at option when name is
 * NULL or names a macro, which is computed and cannot be set. */
gboolean rewrite_rule_field   (RewriteRule *self, const gchar *option, const gchar *name,
                               SlHandle *field, GError **error);
/* A buffer of the calling thread for building a new value. */
GString *rewrite_rule_scratch (void);

/* The rules, for the module's list. */
extern const SlDriverClass rewrite_set_class;
extern const SlDriverClass rewrite_unset_class;
extern const SlDriverClass rewrite_groupunset_class;
extern const SlDriverClass rewrite_groupset_class;
extern const SlDriverClass rewrite_subst_class;
extern const SlDriverClass rewrite_set_tag_class;
extern const SlDriverClass rewrite_clear_tag_class;
extern const SlDriverClass rewrite_set_facility_class;
extern const SlDriverClass rewrite_set_severity_class;
extern const SlDriverClass rewrite_set_pri_class;

G_END_DECLS

#endif
