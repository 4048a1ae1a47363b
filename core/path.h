/* A compiled log path: what core/path-compile.c builds from a log {} block
 * and core/route.c walks for every message. */
#ifndef SL_PATH_H
#define SL_PATH_H

#include <glib.h>
#include "core/destination.h"
#include "core/filter-expr.h"
#include "core/stats.h"

G_BEGIN_DECLS

typedef enum
{
  SL_STEP_FILTER,
  SL_STEP_PROCESS,
  SL_STEP_DESTINATION,
  SL_STEP_PATHS,      /* nested log {} blocks, siblings of one another */
  SL_STEP_IF,
} SlStepKind;

typedef struct
{
  SlStepKind kind;
  SlFilterExpr *filter;
  SlDriver *processor;
  gboolean (*process) (SlDriver *self, SlMessage **msg);   /* its parser or rewrite operation */
  SlDestination *destination;
  GPtrArray *paths;          /* SL_STEP_PATHS: SlPath; SL_STEP_IF: the branches */
  GPtrArray *conditions;     /* SL_STEP_IF: SlFilterExpr per branch; NULL for else */
} SlStep;

typedef struct _SlPath SlPath;

struct _SlPath
{
  gboolean final;
  gboolean fallback;
  gboolean catchall;
  gboolean flow_control;
  GArray *steps;             /* SlStep */
  SlCounter *matched;
};

G_END_DECLS

#endif
