/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sluicectl: talks to a running sluiced over its control socket. */
#include <config.h>
#include <glib.h>
#include <glib/gi18n.h>

#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

static const struct
{
  const gchar *name;
  const gchar *wire;
  const gchar *help;
} commands[] = {
  { "stats", "STATS", N_("counters per source, path and destination (--format text, json or prometheus)") },
  { "reload", "RELOAD", N_("load the configuration file again; a bad one is refused") },
  { "reopen", "REOPEN", N_("reopen output files, after logrotate moved them") },
  { "stop", "STOP", N_("stop the daemon after it wrote what it queued") },
  { "health", "HEALTH", N_("say whether the daemon answers") },
};

static gint
send_command (const gchar *path, const gchar *command)
{
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  if (strlen (path) >= sizeof addr.sun_path)
    {
      fprintf (stderr, _("sluicectl: control socket path too long: %s\n"), path);
      return 2;
    }
  strcpy (addr.sun_path, path);
  gint fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  /* a daemon that accepts but never answers must not hang the caller (a
   * reload drains queues, so it may take a few seconds, not minutes) */
  struct timeval patience = { .tv_sec = 30 };
  if (fd >= 0)
    {
      setsockopt (fd, SOL_SOCKET, SO_RCVTIMEO, &patience, sizeof patience);
      setsockopt (fd, SOL_SOCKET, SO_SNDTIMEO, &patience, sizeof patience);
    }
  if (fd < 0 || connect (fd, (struct sockaddr *) &addr, sizeof addr) < 0)
    {
      fprintf (stderr, _("sluicectl: cannot reach sluiced at %s: %s\n"), path, g_strerror (errno));
      if (fd >= 0)
        close (fd);
      return 2;
    }
  gchar *line = g_strconcat (command, "\n", NULL);
  gboolean sent = write (fd, line, strlen (line)) == (gssize) strlen (line);
  g_free (line);
  GString *answer = g_string_new (NULL);
  gchar buf[4096];
  gssize n = 0;
  while (sent && (n = read (fd, buf, sizeof buf)) > 0)
    g_string_append_len (answer, buf, n);
  if (sent && n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
    g_string_assign (answer, _("ERROR sluiced did not answer within 30 seconds\n"));
  close (fd);
  gboolean ok = g_str_has_prefix (answer->str, "OK");
  const gchar *body = answer->str;
  /* "OK\n<payload>" prints only the payload; one-line answers print whole */
  if (g_str_has_prefix (body, "OK\n"))
    body += 3;
  fputs (body, ok ? stdout : stderr);
  g_string_free (answer, TRUE);
  return ok ? 0 : 1;
}

/* The control command that asks for stats in format, NULL for an unknown one. */
static const gchar *
stats_wire (const gchar *format)
{
  static const gchar *const formats[][2] = {
    { "text", "STATS" }, { "json", "STATS JSON" }, { "prometheus", "STATS PROMETHEUS" },
  };
  if (!format)
    return "STATS";
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    if (strcmp (format, formats[i][0]) == 0)
      return formats[i][1];
  return NULL;
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  textdomain (GETTEXT_PACKAGE);

  gchar *control = NULL;
  gchar *format = NULL;
  gboolean json = FALSE;
  gboolean version = FALSE;
  GOptionEntry entries[] = {
    { "control", 'c', 0, G_OPTION_ARG_FILENAME, &control, N_("control socket of sluiced"), N_("PATH") },
    { "format", 'o', 0, G_OPTION_ARG_STRING, &format,
      N_("stats as text (kind;id;instance;counter;value), json or prometheus"), N_("FORMAT") },
    { "json", 'j', 0, G_OPTION_ARG_NONE, &json, N_("stats as JSON: the same as --format json"), NULL },
    { "version", 'V', 0, G_OPTION_ARG_NONE, &version, N_("print the version and exit"), NULL },
    { NULL }
  };
  GOptionContext *ctx = g_option_context_new (_("COMMAND - control a running sluiced"));
  GString *summary = g_string_new (_("Commands:"));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    g_string_append_printf (summary, "\n  %-8s %s", commands[i].name, _(commands[i].help));
  g_option_context_set_summary (ctx, summary->str);
  g_string_free (summary, TRUE);
  g_option_context_add_main_entries (ctx, entries, GETTEXT_PACKAGE);
  GError *error = NULL;
  gboolean parsed = g_option_context_parse (ctx, &argc, &argv, &error);
  g_option_context_free (ctx);
  if (parsed && version)
    {
      printf ("sluicectl %s\n", PACKAGE_VERSION);
      g_free (control);
      g_free (format);
      return 0;
    }
  if (!parsed || argc != 2)
    {
      if (error)
        fprintf (stderr, _("sluicectl: %s; see --help\n"), error->message);
      else
        fprintf (stderr, "sluicectl: %s\n", argc > 2 ? _("give one command, not several; see --help") : _("give one command; see --help"));
      g_clear_error (&error);
      g_free (control);
      g_free (format);
      return 2;
    }
  const gchar *stats_command = stats_wire (json ? "json" : format);
  if (!stats_command)
    {
      fprintf (stderr, _("sluicectl: unknown stats format '%s'; formats: text, json, prometheus\n"), format);
      g_free (control);
      g_free (format);
      return 2;
    }
  if (!control)
    control = g_strdup (SL_LOCALSTATEDIR "/run/sluiced.ctl");

  gint status = 2;
  guint i;
  for (i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (argv[1], commands[i].name) == 0)
      break;
  if (i == G_N_ELEMENTS (commands))
    fprintf (stderr, _("sluicectl: unknown command '%s'; see --help\n"), argv[1]);
  else
    status = send_command (control, i == 0 ? stats_command : commands[i].wire);
  g_free (control);
  g_free (format);
  return status;
}
