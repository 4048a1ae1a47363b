/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include "core/io/activation-private.h"
#include "core/compile/config.h"
#include "core/compile/config-run.h"
#include "core/config/error.h"
#include "core/config/parser.h"
#include "daemon/rsyslog/rsyslog.h"
#include "core/i18n.h"
#include "core/internal-private.h"
#include "core/io/io-worker.h"
#include "core/message/message-pool.h"
#include "core/store/persist-private.h"
#include "core/config/install-dirs-private.h"
#include "core/compile/loader-private.h"
#include "core/plugin/registry.h"
#include "core/stats-private.h"
#include "daemon/control.h"
#include "daemon/instance.h"
#include "daemon/metrics-http.h"
#include "daemon/ops.h"
#include "daemon/stats-file.h"
#include "daemon/stats-log.h"
#include "daemon/tap.h"
#include "daemon/reference.h"
#include "daemon/notify.h"
#include "daemon/privileges.h"
#include "daemon/test-cases.h"

#include <errno.h>
#include <fcntl.h>
#include <glib-unix.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct
{
  gchar *cfgfile;
  gchar *config_format;
  gboolean print_config;
  gchar *test_file;
  gchar *pidfile;
  gchar *persist_file;
  gchar *control_path;
  gchar *module_path;
  gchar *include_path;
  gchar *module_install_dir;
  gchar *help_driver;
  gchar *dump_reference;
  gchar *user;
  gchar *group;
  gchar *chroot_dir;
  gchar *caps;
  gboolean no_caps;
  gint io_threads;
  gboolean foreground;
  gboolean syntax_only;
  gboolean check_startup;
  gboolean print_config_id;
  gboolean write_plugin_index;
  gchar *preprocess_into;
  gboolean to_stderr;
  gboolean verbose;
  gboolean debug;
  gboolean version;
} Settings;

typedef struct
{
  Settings *settings;
  SlConfig *cfg;
  GMainLoop *loop;
  SlControl *control;
  SlMetricsHttp *metrics;
  SlStatsLog *stats_log;
  gchar *config_id;            /* the running configuration's, see sl_ops_config_id() */
  SlTapSessions *taps;
  SlStatsFile *stats_file;
} Daemon;

static gboolean
parse_args (Settings *s, gint *argc, gchar ***argv)
{
  g_autofree gchar *caps_help = g_strdup_printf (_("capabilities kept, in cap_from_text(3) syntax (default with --user: %s)"),
                                                 SL_PRIVILEGES_DEFAULT_CAPS);
  GOptionEntry entries[] = {
    { "cfgfile", 'f', 0, G_OPTION_ARG_FILENAME, &s->cfgfile, N_("configuration file"), N_("FILE") },
    { "config-format", 0, 0, G_OPTION_ARG_STRING, &s->config_format,
      N_("the language of the configuration file: sluice (syslog-ng's, the default) or rsyslog"), N_("LANGUAGE") },
    { "print-config", 0, 0, G_OPTION_ARG_NONE, &s->print_config,
      N_("print the configuration in Sluice's (syslog-ng's) language and exit"), NULL },
    { "foreground", 'F', 0, G_OPTION_ARG_NONE, &s->foreground, N_("do not go into the background"), NULL },
    { "syntax-only", 's', 0, G_OPTION_ARG_NONE, &s->syntax_only, N_("check the configuration and exit"), NULL },
    { "check-startup", 0, 0, G_OPTION_ARG_NONE, &s->check_startup,
      N_("start the configuration's sources and destinations, stop them and exit: 0 when it starts"), NULL },
    { "config-id", 0, 0, G_OPTION_ARG_NONE, &s->print_config_id, N_("print the configuration's id and exit"), NULL },
    { "preprocess-into", 0, 0, G_OPTION_ARG_FILENAME, &s->preprocess_into,
      N_("write the configuration, includes and blocks expanded, into FILE and exit"), N_("FILE") },
    { "test", 0, 0, G_OPTION_ARG_FILENAME, &s->test_file,
      N_("run the test cases of FILE against the configuration, between in-memory ends, and exit"), N_("FILE") },
    { "pidfile", 'p', 0, G_OPTION_ARG_FILENAME, &s->pidfile, N_("file to write the process id to"), N_("FILE") },
    { "persist-file", 'R', 0, G_OPTION_ARG_FILENAME, &s->persist_file, N_("file that keeps state across restarts"), N_("FILE") },
    { "control", 'c', 0, G_OPTION_ARG_FILENAME, &s->control_path, N_("control socket for sluicectl"), N_("PATH") },
    { "stderr", 'e', 0, G_OPTION_ARG_NONE, &s->to_stderr, N_("also print internal messages to stderr"), NULL },
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &s->verbose, N_("print more internal messages"), NULL },
    { "debug", 'd', 0, G_OPTION_ARG_NONE, &s->debug, N_("print debug messages"), NULL },
    { "version", 'V', 0, G_OPTION_ARG_NONE, &s->version, N_("print the version and exit"), NULL },
    { "module-path", 0, 0, G_OPTION_ARG_STRING, &s->module_path,
      N_("more folders to load plugins from, separated by ':', searched before the installed ones"), N_("PATH") },
    { "include-path", 0, 0, G_OPTION_ARG_STRING, &s->include_path,
      N_("folders @include looks in after the including file's, separated by ':'"), N_("PATH") },
    { "module-install-dir", 0, 0, G_OPTION_ARG_FILENAME, &s->module_install_dir,
      N_("syslog-ng's module folder, for its Python modules and the SCL blocks that include them "
         "(default: Sluice's plugin folder)"), N_("DIR") },
    { "help-driver", 0, 0, G_OPTION_ARG_STRING, &s->help_driver, N_("print the options of a driver and exit"), N_("NAME") },
    { "write-plugin-index", 0, 0, G_OPTION_ARG_NONE, &s->write_plugin_index,
      N_("write the index of what the plugins serve into each plugin folder (those of --module-path, or the "
         "installed one), so that sluiced loads a plugin only when a configuration uses it, and exit"), NULL },
    { "dump-reference", 0, 0, G_OPTION_ARG_STRING, &s->dump_reference,
      N_("print the reference of every loaded driver (markdown or man) and exit"), N_("FORMAT") },
    { "io-threads", 0, 0, G_OPTION_ARG_INT, &s->io_threads,
      N_("threads that read every stream connection (default: one per processor)"), N_("N") },
    { "user", 'u', 0, G_OPTION_ARG_STRING, &s->user, N_("run as this user once the pid file is open"),
      N_("USER") },
    { "group", 'g', 0, G_OPTION_ARG_STRING, &s->group, N_("run as this group (default with --user: the user's)"),
      N_("GROUP") },
    { "chroot", 'C', 0, G_OPTION_ARG_FILENAME, &s->chroot_dir,
      N_("change the root folder before reading the configuration"), N_("DIR") },
    { "caps", 0, 0, G_OPTION_ARG_STRING, &s->caps, caps_help, N_("CAPS") },
    { "no-caps", 0, 0, G_OPTION_ARG_NONE, &s->no_caps, N_("keep no capability after --user"), NULL },
    { NULL }
  };
  GOptionContext *ctx = g_option_context_new (_("- the Sluice log router"));
  g_option_context_add_main_entries (ctx, entries, GETTEXT_PACKAGE);
  GError *error = NULL;
  gboolean ok = g_option_context_parse (ctx, argc, argv, &error);
  if (!ok)
    {
      fprintf (stderr, _("sluiced: %s; see --help\n"), error->message);
      g_error_free (error);
    }
  else if (*argc > 1)
    {
      fprintf (stderr, _("sluiced: unexpected argument '%s'; see --help\n"), (*argv)[1]);
      ok = FALSE;
    }
  g_option_context_free (ctx);
  if (ok && (s->io_threads < 0 || s->io_threads > SL_IO_WORKERS_MAX))
    {
      fprintf (stderr, _("sluiced: --io-threads takes a number from 1 to %d\n"), SL_IO_WORKERS_MAX);
      ok = FALSE;
    }
  sl_io_workers_set_count (s->io_threads);
  sl_cfg_rsyslog_register ();
  if (ok && s->config_format && strcmp (s->config_format, "rsyslog") == 0)
    sl_cfg_set_language (SL_CFG_LANGUAGE_RSYSLOG);
  else if (ok && s->config_format && strcmp (s->config_format, "sluice") != 0
           && strcmp (s->config_format, "syslog-ng") != 0)
    {
      fprintf (stderr, _("sluiced: --config-format takes sluice or rsyslog, not '%s'\n"), s->config_format);
      ok = FALSE;
    }
  if (!s->cfgfile)
    s->cfgfile = g_strdup (SL_SYSCONFDIR "/sluice.conf");
  if (!s->pidfile)
    s->pidfile = g_strdup (SL_LOCALSTATEDIR "/run/sluiced.pid");
  if (!s->persist_file)
    s->persist_file = g_strdup (SL_LOCALSTATEDIR "/lib/sluice/sluice.persist");
  if (!s->control_path)
    s->control_path = g_strdup (SL_LOCALSTATEDIR "/run/sluiced.ctl");
  /* a plugin folder of one's own comes before the installed plugins; a
   * file name found there hides the installed one of that name */
  gchar *module_path = s->module_path && !s->write_plugin_index
                        ? g_strconcat (s->module_path, G_SEARCHPATH_SEPARATOR_S, SL_MODULE_DIR, NULL)
                        : g_strdup (s->module_path ? s->module_path : SL_MODULE_DIR);
  g_free (s->module_path);
  s->module_path = module_path;
  if (!s->include_path)
    s->include_path = sl_cfg_default_include_path ();
  sl_cfg_set_paths (s->include_path, s->module_path);
  sl_cfg_set_module_install_dir (s->module_install_dir);
  return ok;
}

static void
settings_clear (Settings *s)
{
  g_free (s->cfgfile);
  g_free (s->config_format);
  g_free (s->pidfile);
  g_free (s->persist_file);
  g_free (s->control_path);
  g_free (s->module_path);
  g_free (s->include_path);
  g_free (s->module_install_dir);
  g_free (s->help_driver);
  g_free (s->dump_reference);
  g_free (s->test_file);
  g_free (s->user);
  g_free (s->group);
  g_free (s->chroot_dir);
  g_free (s->caps);
  g_free (s->preprocess_into);
}

static int
print_driver_help (const gchar *name)
{
  gboolean found = FALSE;
  for (SlDriverKind k = 0; k < SL_DRIVER_KIND_COUNT; k++)
    {
      const SlDriverClass *klass = sl_plugins_lookup (k, name);
      if (!klass)
        continue;
      gchar *help = sl_plugins_help (klass);
      fputs (help, stdout);
      g_free (help);
      found = TRUE;
    }
  if (!found)
    fprintf (stderr, _("sluiced: no driver named '%s' is loaded\n"), name);
  return found ? 0 : 1;
}

/* The tree of either language written in Sluice's, once it compiled,
 * into out (stdout, or --preprocess-into's file). */
static int
print_config (const gchar *path, const gchar *out_path)
{
  GError *error = NULL;
  SlCfgNode *root = sl_cfg_parse_file (path, &error);
  SlConfig *cfg = root ? sl_config_load (path, &error) : NULL;

  if (!cfg)
    {
      sl_log (SL_LOG_ERROR, "%s", error->message);
      g_error_free (error);
      if (root)
        sl_cfg_node_free (root);
      return 1;
    }
  gchar *text = sl_cfg_node_to_string (root);
  gint status = 0;
  if (!out_path)
    fputs (text, stdout);
  else if (!g_file_set_contents (out_path, text, -1, &error))
    {
      sl_log (SL_LOG_ERROR, "%s", error->message);
      g_error_free (error);
      status = 1;
    }
  g_free (text);
  sl_cfg_node_free (root);
  sl_config_free (cfg);
  return status;
}


static int
dump_reference (const gchar *format)
{
  SlReferenceFormat f;
  if (strcmp (format, "markdown") == 0)
    f = SL_REFERENCE_MARKDOWN;
  else if (strcmp (format, "man") == 0)
    f = SL_REFERENCE_MANPAGE;
  else
    {
      fprintf (stderr, _("sluiced: unknown reference format '%s'; formats: markdown, man\n"), format);
      return 2;
    }
  gchar *text = sl_reference_render (f);
  fputs (text, stdout);
  g_free (text);
  return 0;
}

/* What the daemon itself takes from a configuration: checked when it is
 * loaded, so that -s and a reload refuse a listen() it could not use. */
static gboolean
check_daemon_settings (SlConfig *cfg, GError **error)
{
  const gchar *listen = sl_config_stats (cfg)->listen;
  return !listen || sl_metrics_http_check_address (listen, error);
}

/* options { user() group() } (rsyslog's $PrivDropToUser and
 * $PrivDropToGroup) say whom to run as when the command line does not:
 * --user and --group win. The names are looked up now, so that -s refuses
 * an unknown one as rsyslogd -N1 does. */
static SlPrivileges *
privileges_of_config (const Settings *s, const SlConfig *cfg, SlPrivileges *from_command_line, GError **error)
{
  const SlDaemonSettings *own = sl_config_daemon (cfg);
  const gchar *user = s->user ? s->user : own->user;
  const gchar *group = s->group ? s->group : own->group;

  if (g_strcmp0 (user, s->user) == 0 && g_strcmp0 (group, s->group) == 0)
    return from_command_line;
  sl_privileges_free (from_command_line);
  SlPrivileges *p = sl_privileges_new (user, group, NULL, s->caps, s->no_caps, error);
  if (p)
    return p;
  /* the one the configuration names, at its place */
  gboolean of_group = group && group != s->group && g_str_has_prefix ((*error)->message, "--group");
  gboolean of_user = user && user != s->user && g_str_has_prefix ((*error)->message, "--user");
  SlCfgPos pos = of_group || of_user ? sl_config_daemon_pos (cfg, of_group ? "group" : "user") : (SlCfgPos) { 0 };
  if (!pos.file)
    {
      g_prefix_error (error, "%s: options { user() group() }: ", s->cfgfile);
      return NULL;
    }
  GError *positioned = NULL;
  const gchar *why = strchr ((*error)->message, ':');
  sl_cfg_error_set (&positioned, SL_CFG_ERROR_VALUE, pos, "%s", why ? why + 2 : (*error)->message);
  g_clear_error (error);
  g_propagate_error (error, positioned);
  return NULL;
}

/* The user and group are taken once, at the start: a reload cannot take
 * back what the drop gave away. */
static gboolean
same_user (const Settings *s, const SlConfig *next, const SlConfig *running, GError **error)
{
  const SlDaemonSettings *a = sl_config_daemon (next);
  const SlDaemonSettings *b = sl_config_daemon (running);

  if ((s->user || g_strcmp0 (a->user, b->user) == 0) && (s->group || g_strcmp0 (a->group, b->group) == 0))
    return TRUE;
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
               _("options { user() group() } changed; they take effect at the start only: restart sluiced"));
  return FALSE;
}

static SlConfig *
load_config (const gchar *path)
{
  GError *error = NULL;
  SlConfig *cfg = sl_config_load (path, &error);
  if (cfg && !check_daemon_settings (cfg, &error))
    g_clear_pointer (&cfg, sl_config_free);
  if (!cfg)
    {
      sl_log (SL_LOG_ERROR, "%s", error->message);
      g_error_free (error);
    }
  return cfg;
}

/* syslog-ng's --config-id: the id `sluicectl config-id` names for this
 * configuration once it runs */
static int
print_config_id (const gchar *path)
{
  SlConfig *cfg = load_config (path);
  if (!cfg)
    return 1;
  g_autofree gchar *id = sl_ops_config_id (cfg);
  printf ("%s\n", id);
  sl_config_free (cfg);
  return 0;
}

/* sluiced --test: nothing of the configuration is started; internal
 * messages go to stderr, the report to stdout. */
static int
run_tests (const gchar *cfgfile, const gchar *test_file)
{
  sl_internal_set_stderr (TRUE);
  SlConfig *cfg = load_config (cfgfile);
  if (!cfg)
    return 1;
  gint status = sl_test_cases_run (cfg, test_file, stdout, stderr);
  sl_config_free (cfg);
  return status;
}

/* The HTTP endpoint of the running configuration's stats(listen()): kept
 * when the address did not change, so a reload does not drop a scrape. */
static gboolean
apply_metrics (Daemon *d, GError **error)
{
  const gchar *listen = sl_config_stats (d->cfg)->listen;
  if (d->metrics && listen && strcmp (sl_metrics_http_address (d->metrics), listen) == 0)
    return TRUE;
  g_clear_pointer (&d->metrics, sl_metrics_http_free);
  if (listen)
    d->metrics = sl_metrics_http_new (listen, error);
  return !listen || d->metrics;
}

static void
use_config_id (Daemon *d)
{
  gchar *previous = d->config_id;
  d->config_id = sl_ops_config_id (d->cfg);
  sl_ops_config_running (d->config_id, previous);
  g_free (previous);
}

/* A valid new configuration takes over; an invalid one is reported and the
 * running one stays in charge. */
static gboolean
replace_config (Daemon *d, gchar **why)
{
  GError *error = NULL;
  SlConfig *next = sl_config_load_after (d->settings->cfgfile, d->cfg, &error);
  if (next && (!check_daemon_settings (next, &error) || !same_user (d->settings, next, d->cfg, &error)))
    g_clear_pointer (&next, sl_config_free);
  if (!next)
    {
      sl_log (SL_LOG_ERROR, _("reload failed, keeping the running configuration: %s"), error->message);
      *why = g_strdup (error->message);
      g_error_free (error);
      return FALSE;
    }
  if (!sl_config_take_over (next, d->cfg, &error))
    {
      sl_log (SL_LOG_ERROR, _("reload failed, the new configuration did not start: %s; the previous one goes on"),
              error->message);
      *why = g_strdup (error->message);
      g_clear_error (&error);
      sl_config_free (next);
      return FALSE;
    }
  sl_config_free (d->cfg);
  d->cfg = next;
  use_config_id (d);
  if (!apply_metrics (d, &error))
    {
      sl_log (SL_LOG_ERROR, _("%s; metrics are not served"), error->message);
      g_clear_error (&error);
    }
  sl_stats_log_apply (d->stats_log, sl_config_stats (d->cfg));
  sl_stats_file_apply (d->stats_file, sl_config_stats (d->cfg));
  sl_activation_close_unclaimed ();
  /* a SIGHUP also means "reopen your files" after logrotate, and the
   * destinations that were kept still hold the old ones */
  sl_config_reopen (d->cfg);
  sl_log (SL_LOG_NOTICE, _("configuration reloaded; version='%s', config-id='%s'"), PACKAGE_VERSION, d->config_id);
  return TRUE;
}

/* After a burst the message pool holds the blocks of every message that
 * was in flight: what stays unused for a period goes back to the system. */
#define POOL_TRIM_SECONDS 1

static gboolean
trim_pool (gpointer data)
{
  sl_message_pool_trim ();
  return G_SOURCE_CONTINUE;
}

/* For a power loss: a position set is in the persist file's mapping, so
 * the death of the process alone loses none. */
static void
sync_persist (void)
{
  GError *error = NULL;
  if (!sl_persist_sync (&error))
    {
      sl_log (SL_LOG_WARNING, "%s", error->message);
      g_error_free (error);
    }
}

static gboolean
reload (Daemon *d, gchar **why)
{
  sl_notify_reloading ();
  gboolean reloaded = replace_config (d, why);
  /* the positions the old sources stopped at */
  sync_persist ();
  sl_notify_ready ();
  return reloaded;
}

static gboolean
on_hup (gpointer data)
{
  gchar *why = NULL;
  reload (data, &why);
  g_free (why);
  return G_SOURCE_CONTINUE;
}

static gboolean
on_term (gpointer data)
{
  Daemon *d = data;
  g_main_loop_quit (d->loop);
  return G_SOURCE_CONTINUE;
}

static gchar *
on_command (const gchar *command, gpointer data)
{
  Daemon *d = data;
  if (g_ascii_strcasecmp (command, "STATS") == 0 || g_ascii_strcasecmp (command, "STATS TEXT") == 0)
    {
      gchar *text = sl_stats_to_text ();
      gchar *answer = g_strconcat ("OK\n", text, NULL);
      g_free (text);
      return answer;
    }
  if (g_ascii_strcasecmp (command, "STATS JSON") == 0)
    {
      gchar *text = sl_stats_to_json ();
      gchar *answer = g_strconcat ("OK\n", text, "\n", NULL);
      free (text);
      return answer;
    }
  if (g_ascii_strcasecmp (command, "STATS PROMETHEUS") == 0)
    {
      gchar *text = sl_stats_to_prometheus ();
      gchar *answer = g_strconcat ("OK\n", text, NULL);
      g_free (text);
      return answer;
    }
  if (g_ascii_strcasecmp (command, "RELOAD") == 0)
    {
      gchar *why = NULL;
      if (reload (d, &why))
        return g_strdup ("OK configuration reloaded\n");
      gchar *answer = g_strdup_printf ("ERROR %s\n", why);
      g_free (why);
      return answer;
    }
  if (g_ascii_strcasecmp (command, "REOPEN") == 0)
    {
      sl_config_reopen (d->cfg);
      return g_strdup ("OK files will be reopened\n");
    }
  if (g_ascii_strcasecmp (command, "STOP") == 0)
    {
      g_main_loop_quit (d->loop);
      return g_strdup ("OK stopping\n");
    }
  if (g_ascii_strcasecmp (command, "HEALTH") == 0)
    return g_strdup_printf ("OK pid=%d\n", (int) getpid ());
  if (g_ascii_strcasecmp (command, "CONFIG ID") == 0)
    return g_strdup_printf ("OK\n%s\n", d->config_id);
  gchar *answer = sl_ops_answer (command);
  if (answer)
    return answer;
  return g_strdup_printf ("ERROR unknown command '%s'; commands: STATS, STATS JSON, STATS PROMETHEUS, RELOAD, REOPEN, STOP, "
                          "HEALTH, CONFIG ID, QUERY LIST|GET|SUM GLOB, LOG-LEVEL [LEVEL]\n",
                          command);
}

static gboolean
on_stream_command (const gchar *command, gint client, gpointer data)
{
  Daemon *d = data;
  if (g_ascii_strncasecmp (command, "TAP ", 4) != 0)
    return FALSE;
  sl_tap_sessions_start (d->taps, d->cfg, command, client);
  return TRUE;
}

static void
open_persist (const gchar *path)
{
  GError *error = NULL;
  if (!sl_persist_open (path, &error))
    {
      sl_log (SL_LOG_WARNING, _("%s; starting without saved positions"), error->message);
      g_error_free (error);
    }
}

/* Classic double fork; the parent waits for the child to say the
 * configuration started, so its exit status tells init the truth. */
static gint
daemonize (void)
{
  gint ready[2];
  if (pipe (ready) < 0)
    return -1;
  pid_t pid = fork ();
  if (pid < 0)
    return -1;
  if (pid > 0)
    {
      close (ready[1]);
      gchar status = 1;
      if (read (ready[0], &status, 1) != 1)
        status = 1;
      _exit (status);
    }
  close (ready[0]);
  setsid ();
  if (fork () > 0)
    _exit (0);
  gint null = open ("/dev/null", O_RDWR);
  if (null >= 0)
    {
      dup2 (null, STDIN_FILENO);
      dup2 (null, STDOUT_FILENO);
      dup2 (null, STDERR_FILENO);
      if (null > STDERR_FILENO)
        close (null);
    }
  return ready[1];
}

static void
tell_parent (gint fd, gchar status)
{
  if (fd < 0)
    return;
  if (write (fd, &status, 1) != 1)
    status = 1;
  close (fd);
}

static int
run (Settings *s)
{
  Daemon d = { .settings = s };
  GError *error = NULL;
  /* names are looked up before a chroot takes /etc/passwd away; the
   * configuration and every path it names are read inside it, as
   * syslog-ng does */
  SlPrivileges *privileges = sl_privileges_new (s->user, s->group, s->chroot_dir, s->caps, s->no_caps, &error);
  if (!privileges || !sl_privileges_chroot (privileges, &error))
    {
      sl_log (SL_LOG_ERROR, "%s", error->message);
      g_error_free (error);
      sl_privileges_free (privileges);
      return 1;
    }
  d.cfg = load_config (s->cfgfile);
  if (d.cfg && !(privileges = privileges_of_config (s, d.cfg, privileges, &error)))
    {
      sl_log (SL_LOG_ERROR, "%s", error->message);
      g_clear_error (&error);
      g_clear_pointer (&d.cfg, sl_config_free);
    }
  if (!d.cfg || s->syntax_only)
    {
      if (d.cfg)
        sl_config_free (d.cfg);
      sl_privileges_free (privileges);
      return d.cfg ? 0 : 1;
    }
  /* LISTEN_PID names this process, not the one daemonize() makes */
  sl_activation_init ();
  /* before anything of the configuration is opened: a second daemon must
   * not take over a running one's sockets on its way to failing */
  SlInstance *instance = sl_instance_claim (s->pidfile, s->control_path, &error);
  if (!instance)
    {
      sl_log (SL_LOG_ERROR, "%s", error->message);
      g_error_free (error);
      sl_config_free (d.cfg);
      sl_privileges_free (privileges);
      return 1;
    }
  gint ready = -1;
  if (!s->foreground && !s->check_startup)
    {
      sl_internal_set_stderr (s->to_stderr);
      ready = daemonize ();
    }
  if (!s->check_startup)
    sl_instance_write_pid (instance);
  signal (SIGPIPE, SIG_IGN);
  open_persist (s->persist_file);
  /* Before the configuration starts its threads: capabilities are per
   * thread, and a setuid() would leave the threads already running with
   * none. Sockets below 1024 are bound with the capability kept, at the
   * start as at a reload, so a configuration that starts also reloads. */
  gboolean dropped = sl_privileges_drop (privileges, &error);
  sl_privileges_free (privileges);
  if (!dropped || !sl_config_start (d.cfg, &error))
    {
      sl_log (SL_LOG_ERROR, "%s", error->message);
      g_error_free (error);
      sl_config_free (d.cfg);
      sl_persist_close ();
      sl_instance_release (instance);
      tell_parent (ready, 1);
      return 1;
    }
  d.loop = g_main_loop_new (NULL, FALSE);
  use_config_id (&d);
  if (!apply_metrics (&d, &error))
    {
      sl_log (SL_LOG_ERROR, "%s", error->message);
      g_error_free (error);
      sl_config_free (d.cfg);
      g_free (d.config_id);
      sl_persist_close ();
      sl_instance_release (instance);
      g_main_loop_unref (d.loop);
      tell_parent (ready, 1);
      return 1;
    }
  /* made once every source started: its socket file says so */
  d.control = sl_control_new (s->control_path, on_command, &d, &error);
  d.taps = sl_tap_sessions_new ();
  if (d.control)
    sl_control_set_stream_handler (d.control, on_stream_command, &d);
  else
    {
      sl_log (SL_LOG_WARNING, _("%s; sluicectl will not reach this daemon"), error->message);
      g_clear_error (&error);
    }
  if (s->check_startup)
    {
      /* as syslog-ng's --check-startup: everything opened and started,
       * then stopped as at a stop, before any main loop runs */
      sl_log (SL_LOG_NOTICE, _("sluiced would start; version='%s', config-id='%s'"), PACKAGE_VERSION, d.config_id);
      sl_control_free (d.control);
      sl_tap_sessions_free (d.taps);
      sl_metrics_http_free (d.metrics);
      sl_config_free (d.cfg);
      g_free (d.config_id);
      sl_persist_close ();
      sl_instance_release (instance);
      g_main_loop_unref (d.loop);
      return 0;
    }
  g_unix_signal_add (SIGTERM, on_term, &d);
  g_unix_signal_add (SIGINT, on_term, &d);
  g_unix_signal_add (SIGHUP, on_hup, &d);
  g_timeout_add_seconds (POOL_TRIM_SECONDS, trim_pool, NULL);
  d.stats_log = sl_stats_log_new ();
  sl_stats_log_apply (d.stats_log, sl_config_stats (d.cfg));
  d.stats_file = sl_stats_file_new ();
  sl_stats_file_apply (d.stats_file, sl_config_stats (d.cfg));
  sl_activation_close_unclaimed ();
  sl_log (SL_LOG_NOTICE, _("sluiced starting up; version='%s', config-id='%s'"), PACKAGE_VERSION, d.config_id);
  tell_parent (ready, 0);
  sl_notify_ready ();

  g_main_loop_run (d.loop);

  sl_notify_stopping ();
  sl_log (SL_LOG_NOTICE, _("sluiced shutting down; version='%s'"), PACKAGE_VERSION);
  sl_control_free (d.control);
  sl_tap_sessions_free (d.taps);
  sl_metrics_http_free (d.metrics);
  sl_stats_log_free (d.stats_log);
  sl_stats_file_free (d.stats_file);
  sl_config_free (d.cfg);
  g_free (d.config_id);
  sl_persist_close ();
  sl_instance_release (instance);
  g_main_loop_unref (d.loop);
  return 0;
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  Settings s = { 0 };
  if (!parse_args (&s, &argc, &argv))
    {
      settings_clear (&s);
      return 2;
    }
  if (s.version)
    {
      printf (_("sluiced %s (plugin ABI %d)\n"), PACKAGE_VERSION, SL_ABI_VERSION);
      settings_clear (&s);
      return 0;
    }
  sl_internal_set_level (s.debug ? SL_INTERNAL_DEBUG : s.verbose ? SL_INTERNAL_VERBOSE : SL_INTERNAL_DEFAULT);
  sl_internal_set_stderr (TRUE);

  GError *error = NULL;
  int status;
  /* a plugin loaded when a configuration names it is loaded after a
   * chroot, where its folder may not be: then every one is loaded first */
  SlPluginsLoading how = s.chroot_dir ? SL_PLUGINS_ALL : SL_PLUGINS_AS_NAMED;
  gboolean plugins = s.write_plugin_index ? sl_plugins_write_index (s.module_path, &error)
                                           : sl_plugins_load (s.module_path, how, &error);
  if (!plugins)
    {
      sl_log (SL_LOG_ERROR, "%s", error->message);
      g_error_free (error);
      status = 1;
    }
  else if (s.write_plugin_index)
    status = 0;
  else if (s.help_driver)
    status = print_driver_help (s.help_driver);
  else if (s.dump_reference)
    status = dump_reference (s.dump_reference);
  else if (s.print_config || s.preprocess_into)
    status = print_config (s.cfgfile, s.preprocess_into);
  else if (s.print_config_id)
    status = print_config_id (s.cfgfile);
  else if (s.test_file)
    status = run_tests (s.cfgfile, s.test_file);
  else
    {
      sl_internal_set_stderr (s.to_stderr || s.foreground);
      status = run (&s);
    }
  settings_clear (&s);
  return status;
}
