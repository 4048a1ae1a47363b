/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A compiled log path: what core/compile/path-compile.c builds from a log {} block
 * and core/route/route.c walks for every message. */
#ifndef SL_PATH_H
#define SL_PATH_H

#include <glib.h>
#include "core/route/destination-private.h"
#include "core/route/filter-expr.h"
#include "core/stats.h"
#include "core/route/tap.h"
#include "core/route/scheduler.h"
#include "core/plugin/options.h"

G_BEGIN_DECLS

typedef enum
{
  SL_STEP_FILTER,
  SL_STEP_PROCESS,
  SL_STEP_PROCESS_EMITTING,   /* a parser with SL_CAP_EMITS: routing tells it where it stands */
  SL_STEP_DESTINATION,
  SL_STEP_PATHS,      /* nested log {} blocks, siblings of one another */
  SL_STEP_JUNCTION,   /* channels: each passes what it let through on to the next step */
  SL_STEP_PARALLELIZE, /* the steps after it run on the scheduler's partitions */
} SlStepKind;

typedef struct
{
  SlStepKind kind;
  SlFilterExpr *filter;
  SlDriver *processor;
  gboolean (*process) (SlDriver *self, SlMessage **msg);   /* its parser or rewrite operation */
  SlDestination *destination;
  GPtrArray *paths;          /* SL_STEP_PATHS, SL_STEP_JUNCTION: SlPath */
  gboolean shared;           /* the paths belong to the configuration, not to this step */
  /* a destination's; a parser or rewrite object's on its last step, so
   * that what the object let through is seen once; else NULL */
  SlTapPoint *tap;
  SlScheduler *scheduler;    /* SL_STEP_PARALLELIZE */
  struct _SlTemplate *partition_key;   /* of it, or NULL */
  SlOptions *options;        /* its parallelize(...), which owns the key */
} SlStep;

typedef struct _SlPath SlPath;

struct _SlPath
{
  gboolean final;
  gboolean fallback;
  gboolean catchall;
  gboolean flow_control;
  /* an if-branch with a condition (its first step): once that passed, the
   * branch counts as taken even when a later step drops the message, as
   * syslog-ng's drop-unmatched branch does, so no later branch gets it */
  gboolean conditional;
  GArray *steps;             /* SlStep */
  SlCounter *matched;
};

G_END_DECLS

#endif
