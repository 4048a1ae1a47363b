/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "daemon/ops.h"
#include "core/config/tree.h"
#include "core/i18n.h"
#include "core/internal-private.h"
#include "core/stats-private.h"

#include <string.h>

/* The word after prefix (case-insensitive), or NULL when command does not
 * start with prefix and a space. */
static const gchar *
argument_of (const gchar *command, const gchar *prefix)
{
  gsize n = strlen (prefix);
  if (g_ascii_strncasecmp (command, prefix, n) != 0 || command[n] != ' ')
    return NULL;
  const gchar *arg = command + n;
  while (*arg == ' ')
    arg++;
  return *arg ? arg : NULL;
}

static gchar *
answer_query (const gchar *command)
{
  const gchar *glob;
  gboolean names_only = FALSE, sum = FALSE;
  if ((glob = argument_of (command, "QUERY LIST")))
    names_only = TRUE;
  else if ((glob = argument_of (command, "QUERY SUM")))
    sum = TRUE;
  else if (!(glob = argument_of (command, "QUERY GET")))
    return g_strdup (_("ERROR give QUERY LIST, QUERY GET or QUERY SUM and a glob\n"));
  gchar *found = sl_stats_query (glob, names_only, sum);
  gchar *answer = g_strconcat ("OK\n", found, NULL);
  g_free (found);
  return answer;
}

static gchar *
answer_log_level (const gchar *command)
{
  const gchar *name = argument_of (command, "LOG-LEVEL");
  SlInternalLevel level;
  if (name)
    {
      if (!sl_internal_level_parse (name, &level))
        return g_strdup_printf (_("ERROR unknown log level '%s'; levels: default, verbose, debug, trace\n"), name);
      if (level != sl_internal_level ())
        {
          sl_internal_set_level (level);
          sl_log (SL_LOG_NOTICE, _("log level changed; level='%s'"), sl_internal_level_name (level));
        }
    }
  return g_strdup_printf ("OK log-level=%s\n", sl_internal_level_name (sl_internal_level ()));
}

gchar *
sl_ops_answer (const gchar *command)
{
  if (g_ascii_strncasecmp (command, "QUERY", 5) == 0 && (!command[5] || command[5] == ' '))
    return answer_query (command);
  if (g_ascii_strncasecmp (command, "LOG-LEVEL", 9) == 0 && (!command[9] || command[9] == ' '))
    return answer_log_level (command);
  return NULL;
}

gchar *
sl_ops_config_id (const SlConfig *cfg)
{
  gchar *text = sl_cfg_node_to_string (sl_config_tree (cfg));
  gchar *id = g_compute_checksum_for_string (G_CHECKSUM_SHA256, text, -1);
  g_free (text);
  return id;
}

void
sl_ops_config_running (const gchar *id, const gchar *previous)
{
  if (previous && strcmp (previous, id) != 0)
    sl_counter_set (sl_stats_gauge ("config", previous, NULL, "running"), 0);
  sl_counter_set (sl_stats_gauge ("config", id, NULL, "running"), 1);
}
