/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sluicectl's commands: each a function of the options given and its
 * arguments, returning the exit status. */
#ifndef SL_CTL_VERBS_H
#define SL_CTL_VERBS_H

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  gchar *control;
  gchar *format;
  gboolean json;
  gboolean sum;
  gint timeout;
  gint limit;                /* tap: messages shown before it ends; 0: no end */
  gchar *filter;             /* tap: a filter expression, or NULL */
} SlCtl;

typedef struct
{
  const gchar *name;
  const gchar *wire;         /* the control command of a verb that only sends one */
  gint min_args;
  gint max_args;
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
