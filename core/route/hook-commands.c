/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/route/hook-commands.h"
#include "core/config/error.h"
#include "core/i18n.h"
#include "core/internal.h"

#define HOOKS(m) SlHookCommands, m

const SlOptionSpec sl_hook_commands_option[] = {
  { "hook-commands", SL_BLOCK (HOOKS (node)), NULL,
    "shell commands run as the driver starts and stops: startup(), setup(), teardown(), shutdown()" },
  { NULL }
};

const SlOptionSpec sl_hook_commands_options[] = {
  { "startup", SL_STRING (HOOKS (startup)), NULL, "run once when the daemon starts, before the driver does; "
    "the driver does not start when it fails" },
  { "setup", SL_STRING (HOOKS (setup)), NULL, "run before each start of the driver, at the daemon's start and at "
    "reloads; the driver does not start when it fails" },
  { "teardown", SL_STRING (HOOKS (teardown)), NULL, "run after each stop of the driver, at reloads and at exit" },
  { "shutdown", SL_STRING (HOOKS (shutdown)), NULL, "run once when the daemon exits, after the driver stopped" },
  { NULL }
};

gboolean
sl_hook_commands_bind (SlHookCommands *hooks, GError **error)
{
  if (!hooks->node)
    return TRUE;
  const SlOptionSpec *tables[] = { sl_hook_commands_options, NULL };
  hooks->options = sl_options_new ("hook-commands()", tables, NULL, hooks->node, NULL, error);
  return hooks->options && sl_options_bind (hooks->options, sl_hook_commands_options, hooks, NULL, error);
}

void
sl_hook_commands_clear (SlHookCommands *hooks)
{
  if (hooks->options)
    sl_options_free (hooks->options);
  hooks->options = NULL;
}

gboolean
sl_hook_commands_any (const SlHookCommands *hooks)
{
  return hooks->startup || hooks->setup || hooks->teardown || hooks->shutdown;
}

/* As syslog-ng's system(): through the shell, waited for, its output the
 * daemon's. */
static gboolean
run (const SlHookCommands *hooks, const gchar *owner, const gchar *hook, const gchar *command,
     GError **error)
{
  const gchar *argv[] = { "/bin/sh", "-c", command, NULL };
  gint status;
  GError *inner = NULL;

  sl_log (SL_LOG_DEBUG, _("running the %s hook of %s: %s"), hook, owner, command);
  if (!g_spawn_sync (NULL, (gchar **) argv, NULL, G_SPAWN_CHILD_INHERITS_STDIN, NULL, NULL, NULL, NULL,
                     &status, &inner)
      || !g_spawn_check_wait_status (status, &inner))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, sl_options_pos (hooks->options, hook),
                        _("the %s() hook command of %s failed: %s"), hook, owner, inner->message);
      g_error_free (inner);
      return FALSE;
    }
  return TRUE;
}

gboolean
sl_hook_commands_before_start (SlHookCommands *hooks, const gchar *owner, gboolean daemon_starting,
                               GError **error)
{
  if (daemon_starting && hooks->startup && !run (hooks, owner, "startup", hooks->startup, error))
    return FALSE;
  if (hooks->setup && !run (hooks, owner, "setup", hooks->setup, error))
    return FALSE;
  hooks->set_up = TRUE;
  return TRUE;
}

static void
run_logged (const SlHookCommands *hooks, const gchar *owner, const gchar *hook, const gchar *command)
{
  GError *error = NULL;
  if (command && !run (hooks, owner, hook, command, &error))
    {
      sl_log (SL_LOG_ERROR, "%s", error->message);
      g_error_free (error);
    }
}

void
sl_hook_commands_after_stop (SlHookCommands *hooks, const gchar *owner, gboolean daemon_exiting)
{
  if (!hooks->set_up)
    return;
  hooks->set_up = FALSE;
  run_logged (hooks, owner, "teardown", hooks->teardown);
  if (daemon_exiting)
    run_logged (hooks, owner, "shutdown", hooks->shutdown);
}
