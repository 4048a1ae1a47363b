/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sluicectl: talks to a running sluiced over its control socket. */
#include <config.h>
#include "tools/ctl-conn.h"
#include "tools/ctl-verbs.h"

#include <glib/gi18n.h>

#include <locale.h>
#include <stdio.h>
#include <string.h>

/* A reload drains queues, so it may take a few seconds, not minutes. */
#define PATIENCE_SECONDS 30

static gint
print_answer (const gchar *answer)
{
  gboolean ok = g_str_has_prefix (answer, "OK");
  const gchar *body = answer;
  /* "OK\n<payload>" prints only the payload; one-line answers print whole */
  if (g_str_has_prefix (body, "OK\n"))
    body += 3;
  fputs (body, ok ? stdout : stderr);
  return ok ? 0 : 1;
}

gint
sl_ctl_run (const SlCtl *ctl, const gchar *command)
{
  GError *error = NULL;
  gchar *answer = sl_ctl_request (ctl->control, command, PATIENCE_SECONDS, &error);
  if (!answer)
    {
      gboolean late = g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_AGAIN);
      if (late)
        fprintf (stderr, "ERROR %s\n", error->message);
      else
        fprintf (stderr, "sluicectl: %s\n", error->message);
      g_error_free (error);
      return late ? 1 : 2;
    }
  gint status = print_answer (answer);
  g_free (answer);
  return status;
}

static gint
simple (const SlCtl *ctl, const gchar *wire, gchar **args)
{
  return sl_ctl_run (ctl, wire);
}

/* --format or --json says which of the control commands for stats. */
static gint
stats (const SlCtl *ctl, const gchar *wire, gchar **args)
{
  static const gchar *const formats[][2] = {
    { "text", "STATS" }, { "json", "STATS JSON" }, { "prometheus", "STATS PROMETHEUS" },
  };
  const gchar *format = ctl->json ? "json" : ctl->format ? ctl->format : "text";
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    if (strcmp (format, formats[i][0]) == 0)
      return sl_ctl_run (ctl, formats[i][1]);
  fprintf (stderr, _("sluicectl: unknown stats format '%s'; formats: text, json, prometheus\n"), format);
  return 2;
}

static const SlCtlVerb verbs[] = {
  { "stats", NULL, 0, 0, SL_CTL_OPT_FORMAT, stats, NULL,
    N_("counters per source, path and destination (--format text, json or prometheus)") },
  { "reload", "RELOAD", 0, 0, 0, simple, NULL, N_("load the configuration file again; a bad one is refused") },
  { "reopen", "REOPEN", 0, 0, 0, simple, NULL, N_("reopen output files, after logrotate moved them") },
  { "stop", "STOP", 0, 0, 0, simple, NULL, N_("stop the daemon after it wrote what it queued") },
  { "health", "HEALTH", 0, 0, 0, simple, NULL, N_("say whether the daemon answers") },
  { "healthcheck", NULL, 0, 0, SL_CTL_OPT_TIMEOUT, sl_ctl_healthcheck, NULL,
    N_("the main loop's round trip; exit status 1 and why when the daemon does not answer (--timeout)") },
  { "query", NULL, 1, 2, SL_CTL_OPT_SUM, sl_ctl_query, N_("list|get [GLOB]"),
    N_("counters named KIND.ID[.INSTANCE].COUNTER matching GLOB, with values (get, --sum) or without (list)") },
  { "log-level", NULL, 0, 1, 0, sl_ctl_log_level, N_("[default|verbose|debug|trace]"),
    N_("the daemon's log level, or set it") },
  { "config-id", "CONFIG ID", 0, 0, 0, simple, NULL, N_("the running configuration's id (SHA-256 of it as loaded)") },
  { "tap", NULL, 1, 1, SL_CTL_OPT_TAP, sl_ctl_tap, N_("ID"),
    N_("the messages passing the source, parser, rewrite or destination ID, as JSON lines, until Ctrl-C "
       "(--limit, --filter)") },
  { "top", NULL, 0, 0, 0, sl_ctl_top, NULL,
    N_("every source and destination each second: messages in and out per second, queues, drops, connections; "
       "q quits") },
};

/* Nothing given is ignored: an option of another verb is refused. */
static gboolean
options_fit (const SlCtl *ctl, const SlCtlVerb *verb)
{
  static const struct
  {
    SlCtlOptions option;
    const gchar *names;
  } options[] = {
    { SL_CTL_OPT_FORMAT, "--format, --json" },
    { SL_CTL_OPT_SUM, "--sum" },
    { SL_CTL_OPT_TIMEOUT, "--timeout" },
    { SL_CTL_OPT_TAP, "--limit, --filter" },
  };
  SlCtlOptions given = (ctl->format || ctl->json ? SL_CTL_OPT_FORMAT : 0) | (ctl->sum ? SL_CTL_OPT_SUM : 0)
                       | (ctl->timeout != -1 ? SL_CTL_OPT_TIMEOUT : 0) | (ctl->limit || ctl->filter ? SL_CTL_OPT_TAP : 0);
  for (guint i = 0; i < G_N_ELEMENTS (options); i++)
    if ((given & options[i].option) && !(verb->options & options[i].option))
      {
        fprintf (stderr, _("sluicectl: %s do not go with %s; see --help\n"), options[i].names, verb->name);
        return FALSE;
      }
  return TRUE;
}

static void
free_ctl (SlCtl *ctl)
{
  g_free (ctl->control);
  g_free (ctl->format);
  g_free (ctl->filter);
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  textdomain (GETTEXT_PACKAGE);

  SlCtl ctl = { .timeout = -1 };
  gboolean version = FALSE;
  GOptionEntry entries[] = {
    { "control", 'c', 0, G_OPTION_ARG_FILENAME, &ctl.control, N_("control socket of sluiced"), N_("PATH") },
    { "format", 'o', 0, G_OPTION_ARG_STRING, &ctl.format,
      N_("stats as text (kind;id;instance;counter;value), json or prometheus"), N_("FORMAT") },
    { "json", 'j', 0, G_OPTION_ARG_NONE, &ctl.json, N_("stats as JSON: the same as --format json"), NULL },
    { "sum", 0, 0, G_OPTION_ARG_NONE, &ctl.sum, N_("query get: the sum of the values alone"), NULL },
    { "timeout", 't', 0, G_OPTION_ARG_INT, &ctl.timeout,
      N_("healthcheck: seconds to wait for the answer (default 15)"), N_("SECONDS") },
    { "limit", 'n', 0, G_OPTION_ARG_INT, &ctl.limit, N_("tap: end after this many messages"), N_("N") },
    { "filter", 'F', 0, G_OPTION_ARG_STRING, &ctl.filter,
      N_("tap: only the messages this filter expression lets through"), N_("EXPR") },
    { "version", 'V', 0, G_OPTION_ARG_NONE, &version, N_("print the version and exit"), NULL },
    { NULL }
  };
  GOptionContext *octx = g_option_context_new (_("COMMAND [ARGUMENTS] - control a running sluiced"));
  GString *summary = g_string_new (_("Commands:"));
  for (guint i = 0; i < G_N_ELEMENTS (verbs); i++)
    {
      g_autofree gchar *usage = g_strjoin (" ", verbs[i].name, verbs[i].args ? _(verbs[i].args) : NULL, NULL);
      g_string_append_printf (summary, "\n  %s\n      %s", usage, _(verbs[i].help));
    }
  g_option_context_set_summary (octx, summary->str);
  g_string_free (summary, TRUE);
  g_option_context_add_main_entries (octx, entries, GETTEXT_PACKAGE);
  GError *error = NULL;
  gboolean parsed = g_option_context_parse (octx, &argc, &argv, &error);
  g_option_context_free (octx);
  if (parsed && version)
    {
      printf ("sluicectl %s\n", PACKAGE_VERSION);
      free_ctl (&ctl);
      return 0;
    }
  if (!parsed || argc < 2)
    {
      if (error)
        fprintf (stderr, _("sluicectl: %s; see --help\n"), error->message);
      else
        fprintf (stderr, "sluicectl: %s\n", _("give one command; see --help"));
      g_clear_error (&error);
      free_ctl (&ctl);
      return 2;
    }
  if (!ctl.control)
    ctl.control = g_strdup (SL_LOCALSTATEDIR "/run/sluiced.ctl");

  gint status = 2;
  guint i;
  for (i = 0; i < G_N_ELEMENTS (verbs); i++)
    if (strcmp (argv[1], verbs[i].name) == 0)
      break;
  gint n_args = argc - 2;
  if (i == G_N_ELEMENTS (verbs))
    fprintf (stderr, _("sluicectl: unknown command '%s'; see --help\n"), argv[1]);
  else if (!options_fit (&ctl, &verbs[i]))
    ;
  else if (n_args < verbs[i].min_args || n_args > verbs[i].max_args)
    fprintf (stderr, "sluicectl: %s\n",
             verbs[i].max_args == 0 ? _("give one command, not several; see --help")
                                    : _("wrong number of arguments; see --help"));
  else
    status = verbs[i].run (&ctl, verbs[i].wire, argv + 2);
  free_ctl (&ctl);
  return status;
}
