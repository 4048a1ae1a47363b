/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What compiling a filter expression (filter-expr-compile.c) builds and
 * evaluating it (filter-expr.c) reads. */
#ifndef SL_FILTER_EXPR_PRIVATE_H
#define SL_FILTER_EXPR_PRIVATE_H

#include "core/route/filter-expr.h"
#include "core/message/template.h"

G_BEGIN_DECLS

typedef enum
{
  SL_EXPR_AND,
  SL_EXPR_OR,
  SL_EXPR_NOT,
  SL_EXPR_CALL,
  SL_EXPR_COMPARE,
} SlExprKind;

typedef enum
{
  SL_CMP_EQ, SL_CMP_NE, SL_CMP_LT, SL_CMP_LE, SL_CMP_GT, SL_CMP_GE
} SlCompareOp;

struct _SlFilterExpr
{
  SlExprKind kind;
  SlFilterExpr *left;
  SlFilterExpr *right;
  SlDriver *driver;         /* SL_EXPR_CALL */
  SlTemplate *lhs;          /* SL_EXPR_COMPARE */
  SlTemplate *rhs;
  SlCompareOp op;
  gboolean numeric;
  /* syslog-ng 4's type-aware ==, <, ... (3.x's beside a bare number) */
  gboolean typed;
};

G_END_DECLS

#endif
