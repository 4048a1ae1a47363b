/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* hook-commands(): shell commands syslog-ng runs when a source or
 * destination starts and stops: startup() once when the daemon starts,
 * setup() before each start (a reload restarts the driver), teardown()
 * after each stop, shutdown() when the daemon exits. */
#ifndef SL_HOOK_COMMANDS_H
#define SL_HOOK_COMMANDS_H

#include <glib.h>
#include "core/plugin/options.h"

G_BEGIN_DECLS

typedef struct _SlHookCommands
{
  const SlCfgNode *node;   /* the hook-commands(...) block, or NULL */
  SlOptions *options;      /* its values */
  const gchar *startup;
  const gchar *setup;
  const gchar *teardown;
  const gchar *shutdown;
  gboolean set_up;         /* started with its commands run, not yet stopped */
} SlHookCommands;

/* The option every source and destination takes, and the table of what
 * goes inside it. */
extern const SlOptionSpec sl_hook_commands_option[];
extern const SlOptionSpec sl_hook_commands_options[];

/* Checks and stores the block's commands (hooks->node set by binding
 * sl_hook_commands_option). */
gboolean sl_hook_commands_bind  (SlHookCommands *hooks, GError **error);
void     sl_hook_commands_clear (SlHookCommands *hooks);
/* Whether there is any command to run. */
gboolean sl_hook_commands_any   (const SlHookCommands *hooks);

/* Before their driver (named owner in messages: its id) starts: startup()
 * when the daemon is starting, then setup(). A command that fails (exits
 * other than 0) fails the start, as in syslog-ng. */
gboolean sl_hook_commands_before_start (SlHookCommands *hooks, const gchar *owner, gboolean daemon_starting,
                                        GError **error);
/* After their driver stopped, if it had been set up: teardown(), then
 * shutdown() when the daemon is exiting; a failure is logged. */
void     sl_hook_commands_after_stop   (SlHookCommands *hooks, const gchar *owner, gboolean daemon_exiting);

G_END_DECLS

#endif
