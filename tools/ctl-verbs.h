/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sluicectl's commands: each a function of the options given and its
 * arguments, returning the exit status. */
#ifndef SL_CTL_VERBS_H
#define SL_CTL_VERBS_H

#include <glib.h>

G_BEGIN_DECLS

/* The options that go with one verb or another; a verb refuses the others. */
typedef enum
{
  SL_CTL_OPT_FORMAT  = 1 << 0,   /* --format, --json */
  SL_CTL_OPT_SUM     = 1 << 1,
  SL_CTL_OPT_TIMEOUT = 1 << 2,
  SL_CTL_OPT_TAP     = 1 << 3,   /* --limit, --filter */
} SlCtlOptions;

typedef struct
{
  gchar *control;
  gchar *format;
  gboolean json;
  gboolean sum;
  gint timeout;              /* healthcheck: seconds; -1: not given */
  gint limit;                /* tap: messages shown before it ends; 0: no end */
  gchar *filter;             /* tap: a filter expression, or NULL */
} SlCtl;

typedef struct
{
  const gchar *name;
  const gchar *wire;         /* the control command of a verb that only sends one */
  gint min_args;
  gint max_args;
  SlCtlOptions options;      /* those it takes */
  gint (*run) (const SlCtl *ctl, const gchar *wire, gchar **args);
  const gchar *args;         /* how its arguments are written, for --help */
  const gchar *help;
} SlCtlVerb;

/* Sends command, prints the answer (OK's payload to stdout, an ERROR to
 * stderr); 0, 1 for an ERROR, 2 when the daemon is out of reach. */
gint sl_ctl_run (const SlCtl *ctl, const gchar *command);

gint sl_ctl_healthcheck (const SlCtl *ctl, const gchar *wire, gchar **args);
gint sl_ctl_query       (const SlCtl *ctl, const gchar *wire, gchar **args);
gint sl_ctl_log_level   (const SlCtl *ctl, const gchar *wire, gchar **args);
gint sl_ctl_tap         (const SlCtl *ctl, const gchar *wire, gchar **args);
gint sl_ctl_top         (const SlCtl *ctl, const gchar *wire, gchar **args);

G_END_DECLS

#endif
