/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* rsyslog's inputs (module(), input(), the legacy listen directives) as
 * Sluice sources, and the $ directives that set defaults for what follows. */
#include "daemon/rsyslog/rsyslog-private.h"

#include "core/config/error.h"
#include "core/i18n.h"
#include "core/plugin/registry-private.h"

#include <stdlib.h>
#include <string.h>

#define DEFAULT_RULESET "RSYSLOG_DefaultRuleset"

/* modules whose loading alone means nothing here, and their parameters
 * (lower case) that Sluice accepts without a meaning of their own */
static const struct
{
  const gchar *module;
  const gchar *const params[16];
} modules[] = {
  { "imuxsock", { "syssock.use", "syssock.name", "syssock.ignoretimestamp", "syssock.ignoreownmessages",
                  "syssock.usesystimestamp", "syssock.annotate", "syssock.parsetrusted", "syssock.usepidfromsystem",
                  "syssock.ratelimit.interval", "syssock.ratelimit.burst", "syssock.ratelimit.severity",
                  "syssock.flowcontrol", "syssock.unlink", "syssock.usespecialparser", "syssock.parsehostname" } },
  { "imfile", { "pollinginterval", "mode", "readtimeout", "timeoutgranularity", "sortfiles" } },
  { "imudp", { "threads", "timerequery", "schedulingpolicy", "schedulingpriority", "batchsize" } },
  { "imtcp", { "maxsessions", "maxlisteners", "keepalive", "notifyonconnectionclose", "flowcontrol",
               "discardtruncatedmsg", "addtlframedelimiter", "disablelfdelimiter", "maxframesize",
               "streamdriver.name", "streamdriver.mode", "streamdriver.authmode", "permittedpeer" } },
  { "imptcp", { "threads", "processonpoller" } },
  { "omfwd", { "template" } },
  { "omfile", { "template", "dirowner", "dirgroup", "fileowner", "filegroup", "filecreatemode", "dircreatemode" } },
  { "omusrmsg", { "template" } }, { "ompipe", { "template" } },
  { "omstdout", { "template" } }, { "mmjsonparse", { NULL } },
  { "builtin:omfile", { "template", "dirowner", "dirgroup", "fileowner", "filegroup", "filecreatemode",
                        "dircreatemode" } },
  { "builtin:omfwd", { "template" } },
  { "omuxsock", { NULL } }, { "omsnmp", { NULL } },
  { "impstats", { "interval", "facility", "severity", "log.syslog", "format", "ruleset", "resetcounters",
                  "bracketing", "log.file" } },
  { "ommail", { NULL } }, { "omhttp", { NULL } }, { "mmpstrucdata", { NULL } },
};

/* rsyslogd's parser chain over the network reads RFC 5424 (a <PRI>1
 * start) and RFC 3164 otherwise, keeping the structured data's text as it
 * came (%structured-data%); its imtcp and imptcp split a line over
 * maxMessageSize, losing the byte after the cut */
static gchar *
with_receive_options (const gchar *driver)
{
  gboolean stream = g_str_has_prefix (driver, "tcp(");
  if (!stream && !g_str_has_prefix (driver, "udp(") && !g_str_has_prefix (driver, "relp("))
    return g_strdup (driver);
  return g_strdup_printf ("%.*s flags(detect-syslog-protocol sdata-as-received)%s)", (gint) strlen (driver) - 1, driver,
                          stream ? " trim-large-messages(rsyslog)" : "");
}

/* The name rsyslogd gives an input of the module driver stands for */
static const gchar *
input_module (const gchar *driver)
{
  static const struct
  {
    const gchar *driver, *module;
  } inputs[] = {
    { "unix-dgram(", "imuxsock" }, { "udp(", "imudp" }, { "tcp(", "imtcp" }, { "relp(", "imrelp" },
    { "kafka(", "imkafka" }, { "file(", "imfile" }, { "wildcard-file(", "imfile" },
    { "systemd-journal(", "imjournal" }, { "kmsg(", "imklog" }, { "internal(", "rsyslogd" }, { "mark(", "immark" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
    if (g_str_has_prefix (driver, inputs[i].driver))
      return inputs[i].module;
  return NULL;
}

/* A source is named PREFIX_sN:INPUTNAME, which $inputname reads back
 * ($(rsyslog-inputname ${SOURCE})), so that no field is set per message. */
gboolean
sl_rs_add_source (SlRsConf *c, const gchar *ruleset, SlCfgPos pos, const gchar *driver, const gchar *input_name,
                  GError **error)
{
  g_autofree gchar *base = sl_rs_new_name (c, "s");
  const gchar *input = input_name ? input_name : input_module (driver);
  g_autofree gchar *name = input ? g_strdup_printf ("%s:%s", base, input) : g_strdup (base);
  g_autofree gchar *quoted = sl_rs_quoted (name);
  g_autofree gchar *full = with_receive_options (driver);
  g_autofree gchar *text = g_strdup_printf ("source %s { %s; };", quoted, full);
  const gchar *key = ruleset ? ruleset : DEFAULT_RULESET;
  GPtrArray *names = g_hash_table_lookup (c->ruleset_sources, key);

  if (!sl_rs_emit (c, pos, text, error))
    return FALSE;
  if (!names)
    {
      names = g_ptr_array_new_with_free_func (g_free);
      g_hash_table_insert (c->ruleset_sources, g_strdup (key), names);
    }
  g_ptr_array_add (names, g_steal_pointer (&name));
  return TRUE;
}

/* A legacy input directive (written: "$UDPServerRun") as the input of the
 * module name with the parameters it stands for, a source of ruleset
 * (NULL: the default one); refused when no plugin serves the module. */
static gboolean
legacy_input (SlRsConf *c, const gchar *name, const gchar *written, const gchar *ruleset, GPtrArray *params,
              SlCfgPos pos, GError **error)
{
  const SlRsModule *module = sl_plugins_rsyslog_lookup (name);

  if (!module || module->kind != SL_RS_MODULE_INPUT)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, pos, _("the rsyslog directive '%s' is not supported"), written);
      return FALSE;
    }
  g_autofree gchar *driver = sl_rs_plugin_input (c, module, written, params, pos, error);
  return driver && sl_rs_add_source (c, ruleset, pos, driver, module->name, error);
}

/* Sets name=value in *params, made when NULL, in place of an earlier one */
static void
set_param (GPtrArray **params, const gchar *name, const gchar *value, SlCfgPos pos)
{
  if (!*params)
    *params = sl_rs_params_new ();
  for (guint i = 0; i < (*params)->len; i++)
    if (g_str_equal (((const SlRsParam *) g_ptr_array_index (*params, i))->name, name))
      {
        g_ptr_array_remove_index (*params, i);
        break;
      }
  sl_rs_params_add (*params, name, value, pos);
}

/* A socket of imuxsock in the default ruleset, as its input() with
 * socket= and settings, the parameters the directives or SysSock.* before
 * it stand for, NULL for none (written: the directive or module that
 * makes it) */
static gboolean
add_unix_socket (SlRsConf *c, const gchar *written, const gchar *path, GPtrArray *settings, SlCfgPos pos,
                 GError **error)
{
  g_autoptr (GPtrArray) params = sl_rs_params_new ();

  sl_rs_params_add (params, "socket", path, pos);
  for (guint i = 0; settings && i < settings->len; i++)
    {
      const SlRsParam *param = g_ptr_array_index (settings, i);
      sl_rs_params_add (params, param->name, param->value, param->pos);
    }
  return legacy_input (c, "imuxsock", written, NULL, params, pos, error);
}

/* imuxsock's legacy settings: those of the system socket, which rsyslogd
 * refuses after a module(load="imuxsock"), and those of the sockets of
 * the $AddUnixListenSocket after them; the host name is the next
 * socket's only. */
static gboolean
imuxsock_directive (SlRsConf *c, const gchar *name, const gchar *value, SlCfgPos pos, gboolean *taken,
                    GError **error)
{
  static const struct
  {
    const gchar *directive, *param;
    gboolean system;
  } settings[] = {
    { "SystemLogSocketIgnoreMsgTimestamp", "ignoretimestamp", TRUE },
    { "SystemLogUseSysTimeStamp", "usesystimestamp", TRUE },
    { "SystemLogSocketFlowControl", "flowcontrol", TRUE },
    { "SystemLogSocketAnnotate", "annotate", TRUE },
    { "SystemLogParseTrusted", "parsetrusted", TRUE },
    { "SystemLogUsePIDFromSystem", "usepidfromsystem", TRUE },
    { "InputUnixListenSocketIgnoreMsgTimestamp", "ignoretimestamp", FALSE },
    { "InputUnixListenSocketUseSysTimeStamp", "usesystimestamp", FALSE },
    { "InputUnixListenSocketFlowControl", "flowcontrol", FALSE },
    { "InputUnixListenSocketAnnotate", "annotate", FALSE },
    { "InputUnixListenSocketCreatePath", "createpath", FALSE },
    { "InputUnixListenSocketUsePIDFromSystem", "usepidfromsystem", FALSE },
    { "InputUnixListenSocketHostName", "hostname", FALSE },
    { "SystemLogRateLimitInterval", "ratelimit.interval", TRUE },
    { "SystemLogRateLimitBurst", "ratelimit.burst", TRUE },
    { "SystemLogRateLimitSeverity", "ratelimit.severity", TRUE },
    { "IMUXSockRateLimitInterval", "ratelimit.interval", FALSE },
    { "IMUXSockRateLimitBurst", "ratelimit.burst", FALSE },
    { "IMUXSockRateLimitSeverity", "ratelimit.severity", FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (settings); i++)
    if (g_ascii_strcasecmp (name, settings[i].directive) == 0)
      {
        *taken = TRUE;
        if (settings[i].system && c->imuxsock_script)
          {
            sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, pos,
                              _("$%s after module(load=\"imuxsock\") is refused by rsyslogd (\"currently not "
                                "permitted\"): use the module's SysSock.* parameters"), name);
            return FALSE;
          }
        set_param (settings[i].system ? &c->syssock_params : &c->uxsock_params, settings[i].param, value, pos);
        return TRUE;
      }
  return TRUE;
}

/* rsyslogd changes user and group once its inputs are open; Sluice's
 * options { user() group() } do so once the configuration is loaded,
 * keeping the capabilities to open what it names (daemon/privileges.c). */
gboolean
sl_rs_privileges (SlRsConf *c, const gchar *name, const gchar *value, SlCfgPos pos, GError **error)
{
  static const struct
  {
    const gchar *name;
    gboolean group;
  } names[] = {
    { "PrivDropToUser", FALSE }, { "PrivDropToUserID", FALSE }, { "privdrop.user.name", FALSE },
    { "privdrop.user.id", FALSE }, { "PrivDropToGroup", TRUE }, { "PrivDropToGroupID", TRUE },
    { "privdrop.group.name", TRUE }, { "privdrop.group.id", TRUE },
  };

  if (g_ascii_strcasecmp (name, "privdrop.group.keepsupplemental") == 0)
    {
      if (!sl_rs_is_true (value))
        return TRUE;
      sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, pos,
                        _("rsyslog's privDrop.group.keepSupplemental=\"on\" is not supported: Sluice takes the "
                          "user's own groups"));
      return FALSE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_ascii_strcasecmp (name, names[i].name) == 0)
      {
        gchar **slot = names[i].group ? &c->priv_group : &c->priv_user;
        g_free (*slot);
        *slot = g_strdup (value);
        c->priv_pos = pos;
        return TRUE;
      }
  sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, pos, _("the rsyslog setting '%s' is not supported"), name);
  return FALSE;
}

/* With a user and no group rsyslogd keeps the group it started with,
 * root's, and adds the user's groups (initgroups()); sluiced with
 * group("0") does the same. */
gboolean
sl_rs_finish_privileges (SlRsConf *c, GError **error)
{
  g_autoptr (GString) text = g_string_new ("options {");

  if (!c->priv_user && !c->priv_group)
    return TRUE;
  if (c->priv_user)
    {
      g_string_append (text, " user(");
      sl_rs_quote (text, c->priv_user);
      g_string_append (text, ");");
    }
  g_string_append (text, " group(");
  sl_rs_quote (text, c->priv_group ? c->priv_group : "0");
  g_string_append (text, "); };");
  return sl_rs_emit (c, c->priv_pos, text->str, error);
}

void
sl_rs_load_input_free (SlRsLoadInput *input)
{
  g_ptr_array_unref (input->params);
  g_free (input);
}

/* module(load=) or $ModLoad of a module whose loading makes its input:
 * its parameters kept for the input made at the end */
static gboolean
load_input (SlRsConf *c, const SlRsModule *module, GPtrArray *params, SlCfgPos pos, GError **error)
{
  for (guint i = 0; i < c->load_inputs->len; i++)
    if (((SlRsLoadInput *) g_ptr_array_index (c->load_inputs, i))->module == module)
      {
        sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos, _("rsyslog's %s is loaded twice"), module->name);
        return FALSE;
      }
  SlRsLoadInput *input = g_new0 (SlRsLoadInput, 1);
  input->module = module;
  input->params = sl_rs_params_new ();
  input->pos = pos;
  for (guint i = 0; params && i < params->len; i++)
    {
      const SlRsParam *param = g_ptr_array_index (params, i);
      if (!g_str_equal (param->name, "load"))
        sl_rs_params_add (input->params, param->name, param->value, param->pos);
    }
  g_ptr_array_add (c->load_inputs, input);
  return TRUE;
}

/* imjournal's legacy directives, the parameters they stand for */
static const struct
{
  const gchar *directive, *module, *param;
} load_input_directives[] = {
  { "IMJournalStateFile", "imjournal", "statefile" },
  { "IMJournalIgnorePreviousMessages", "imjournal", "ignorepreviousmessages" },
  { "IMJournalDefaultSeverity", "imjournal", "defaultseverity" },
  { "IMJournalDefaultFacility", "imjournal", "defaultfacility" },
  { "IMJournalPersistStateInterval", "imjournal", "persiststateinterval" },
  { "IMJournalRatelimitInterval", "imjournal", "ratelimit.interval" },
  { "IMJournalRatelimitBurst", "imjournal", "ratelimit.burst" },
  { "IMJournalUsePidFromSystem", "imjournal", "usepidfromsystem" },
  { "MarkMessagePeriod", "immark", "interval" },
  { "KLogPermitNonKernelFacility", "imklog", "permitnonkernelfacility" },
};

gboolean
sl_rs_load_input_directive (SlRsConf *c, const gchar *name, const gchar *value, SlCfgPos pos, gboolean *taken,
                            GError **error)
{
  *taken = FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (load_input_directives); i++)
    {
      if (g_ascii_strcasecmp (name, load_input_directives[i].directive) != 0)
        continue;
      *taken = TRUE;
      for (guint k = 0; k < c->load_inputs->len; k++)
        {
          SlRsLoadInput *input = g_ptr_array_index (c->load_inputs, k);
          if (g_str_equal (input->module->name, load_input_directives[i].module))
            {
              set_param (&input->params, load_input_directives[i].param, value, pos);
              return TRUE;
            }
        }
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos, _("$%s needs $ModLoad %s before it"), name,
                        load_input_directives[i].module);
      return FALSE;
    }
  return TRUE;
}

gboolean
sl_rs_finish_inputs (SlRsConf *c, GError **error)
{
  for (guint i = 0; i < c->load_inputs->len; i++)
    {
      SlRsLoadInput *input = g_ptr_array_index (c->load_inputs, i);
      const SlRsParam *ruleset = sl_rs_param_find (input->params, "ruleset");
      if (!legacy_input (c, input->module->name, input->module->name, ruleset ? ruleset->value : NULL, input->params,
                         input->pos, error))
        return FALSE;
    }
  if (!c->imuxsock || !c->syssock_on)
    return TRUE;
  return add_unix_socket (c, "imuxsock", c->syssock_name ? c->syssock_name : "/dev/log", c->syssock_params,
                          c->syssock_pos, error);
}

/* impstats: the daemon's counters, every interval seconds, as messages
 * of the syslog facility at info into a ruleset (stats(freq()) writes
 * them through internal(), which its ruleset reads), and with log.file
 * as lines of that file (stats(file()), sl_rs_impstats_file()) */
static gboolean
impstats (SlRsConf *c, GPtrArray *params, SlCfgPos pos, GError **error)
{
  static const struct
  {
    const gchar *param;
    const gchar *const values[3];
  } only[] = {
    { "facility", { "5", "syslog", NULL } }, { "severity", { "6", "info", NULL } },
    { "format", { "legacy", NULL } }, { "resetcounters", { "off", "no", NULL } },
    { "bracketing", { "off", "no", NULL } },
  };
  const SlRsParam *interval = params ? sl_rs_param_find (params, "interval") : NULL;
  const SlRsParam *ruleset = params ? sl_rs_param_find (params, "ruleset") : NULL;
  const SlRsParam *to_syslog = params ? sl_rs_param_find (params, "log.syslog") : NULL;
  gboolean syslog = !to_syslog || sl_rs_is_true (to_syslog->value);
  glong seconds = interval ? g_ascii_strtoll (interval->value, NULL, 10) : 300L;
  g_autoptr (GString) text = g_string_new (NULL);

  for (guint i = 0; params && i < G_N_ELEMENTS (only); i++)
    {
      const SlRsParam *param = sl_rs_param_find (params, only[i].param);
      gboolean known = !param || (!syslog && g_str_equal (only[i].param, "format"));

      for (guint k = 0; !known && only[i].values[k]; k++)
        known = g_ascii_strcasecmp (param->value, only[i].values[k]) == 0;
      if (!known)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, param->pos,
                            _("rsyslog's impstats %s=\"%s\" is not supported: Sluice's statistics messages are "
                              "syslog.info, every counter, counted since the start"),
                            param->name, param->value);
          return FALSE;
        }
    }
  g_string_printf (text, "options { stats(freq(%ld) level(1)", syslog ? seconds : 0L);
  if (!sl_rs_impstats_file (params, seconds, text, error))
    return FALSE;
  g_string_append (text, "); };");
  return sl_rs_emit (c, pos, text->str, error)
         && (!syslog || sl_rs_add_source (c, ruleset ? ruleset->value : NULL, pos, "internal()", "impstats", error));
}

static gint
find_module (const gchar *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (modules); i++)
    if (g_ascii_strcasecmp (name, modules[i].module) == 0)
      return (gint) i;
  return -1;
}

/* omfile's module parameters: the defaults of every file action after
 * them, as $FileCreateMode and the like set them */
static void
file_defaults (SlRsConf *c, GPtrArray *params)
{
  const struct
  {
    const gchar *param;
    gchar **slot;
  } defaults[] = {
    { "template", &c->file_template }, { "fileowner", &c->file_owner }, { "filegroup", &c->file_group },
    { "dirowner", &c->dir_owner }, { "dirgroup", &c->dir_group }, { "filecreatemode", &c->file_mode },
    { "dircreatemode", &c->dir_mode },
  };
  for (guint i = 0; i < G_N_ELEMENTS (defaults); i++)
    {
      const SlRsParam *param = sl_rs_param_find (params, defaults[i].param);
      if (!param)
        continue;
      g_free (*defaults[i].slot);
      *defaults[i].slot = g_strdup (param->value);
    }
}

static gboolean
load_module (SlRsConf *c, const gchar *name, GPtrArray *params, SlCfgPos pos, GError **error)
{
  g_autofree gchar *bare = g_str_has_suffix (name, ".so") ? g_strndup (name, strlen (name) - 3) : g_strdup (name);
  gint m = find_module (bare);

  if (m < 0)
    {
      g_autofree gchar *lower = g_ascii_strdown (bare, -1);
      const SlRsModule *module = sl_plugins_rsyslog_lookup (lower);
      if (!module)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, pos, _("the rsyslog module '%s' is not supported"), name);
          return FALSE;
        }
      g_hash_table_add (c->loaded, g_steal_pointer (&lower));
      if (!sl_rs_plugin_module_params (module, params, error))
        return FALSE;
      return !(module->flags & SL_RS_MODULE_INPUT_AT_LOAD) || load_input (c, module, params, pos, error);
    }
  g_hash_table_add (c->loaded, g_ascii_strdown (bare, -1));
  for (guint i = 0; params && i < params->len; i++)
    {
      const SlRsParam *param = g_ptr_array_index (params, i);
      gboolean known = g_str_equal (param->name, "load");

      for (guint k = 0; modules[m].params[k] && !known; k++)
        known = g_str_equal (param->name, modules[m].params[k]);
      if (!known)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, param->pos,
                            _("the parameter '%s' of rsyslog's module %s is not supported"), param->name, bare);
          return FALSE;
        }
    }
  if (params && (g_str_equal (bare, "omfile") || g_str_equal (bare, "builtin:omfile")))
    file_defaults (c, params);
  else if (params && (g_str_equal (bare, "omfwd") || g_str_equal (bare, "builtin:omfwd")))
    {
      const SlRsParam *template = sl_rs_param_find (params, "template");
      if (template)
        {
          g_free (c->forward_template);
          c->forward_template = g_strdup (template->value);
        }
    }
  else if (g_str_equal (bare, "imuxsock"))
    {
      const SlRsParam *use = params ? sl_rs_param_find (params, "syssock.use") : NULL;
      const SlRsParam *sock = params ? sl_rs_param_find (params, "syssock.name") : NULL;

      c->imuxsock = TRUE;
      c->imuxsock_script = c->imuxsock_script || params;
      c->syssock_pos = pos;
      for (guint i = 0; params && i < params->len; i++)
        {
          const SlRsParam *param = g_ptr_array_index (params, i);
          const gchar *own = param->name + strlen ("syssock.");

          if (g_str_has_prefix (param->name, "syssock.") && !g_str_equal (own, "use") && !g_str_equal (own, "name"))
            set_param (&c->syssock_params, own, param->value, param->pos);
        }
      if (use)
        c->syssock_on = sl_rs_is_true (use->value);
      if (sock)
        {
          g_free (c->syssock_name);
          c->syssock_name = g_strdup (sock->value);
        }
    }
  else if (g_str_equal (bare, "imtcp") && params)
    {
      /* the stream driver of every imtcp input */
      const struct
      {
        const gchar *param;
        gchar **slot;
      } tls[] = {
        { "streamdriver.name", &c->tls_server.driver }, { "streamdriver.mode", &c->tls_server.mode },
        { "streamdriver.authmode", &c->tls_server.auth }, { "permittedpeer", &c->tls_server.peers },
      };
      for (guint i = 0; i < G_N_ELEMENTS (tls); i++)
        if (sl_rs_param_find (params, tls[i].param))
          {
            g_free (*tls[i].slot);
            *tls[i].slot = g_strdup (sl_rs_param_find (params, tls[i].param)->value);
          }
      /* the others are every input's defaults, as in rsyslogd */
      for (guint i = 0; i < params->len; i++)
        {
          const SlRsParam *param = g_ptr_array_index (params, i);
          if (!g_str_equal (param->name, "load") && !g_str_has_prefix (param->name, "streamdriver.")
              && !g_str_equal (param->name, "permittedpeer"))
            set_param (&c->imtcp_params, param->name, param->value, param->pos);
        }
    }
  else if (g_str_equal (bare, "impstats"))
    return impstats (c, params, pos, error);
  else if (g_str_equal (bare, "omuxsock"))
    c->uxsock_loaded = TRUE;
  else if (g_str_equal (bare, "imfile"))
    c->imfile_loaded = TRUE;
  return TRUE;
}

gboolean
sl_rs_module (SlRsConf *c, GPtrArray *params, SlCfgPos pos, GError **error)
{
  const SlRsParam *load = sl_rs_param_find (params, "load");

  if (!load)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos, _("an rsyslog module() needs load="));
      return FALSE;
    }
  return load_module (c, load->value, params, load->pos, error);
}

static const gchar *
value_of (GPtrArray *params, const gchar *name)
{
  const SlRsParam *param = sl_rs_param_find (params, name);
  return param ? param->value : NULL;
}

gboolean
sl_rs_input (SlRsConf *c, GPtrArray *params, SlCfgPos pos, GError **error)
{
  const gchar *type = value_of (params, "type");
  const gchar *ruleset = value_of (params, "ruleset");

  if (!type)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos, _("an rsyslog input() needs type="));
      return FALSE;
    }
  g_autofree gchar *lower = g_ascii_strdown (type, -1);
  const SlRsModule *module = sl_plugins_rsyslog_lookup (lower);
  if (module && (module->flags & SL_RS_MODULE_INPUT_AT_LOAD))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, pos,
                        _("rsyslog's %s takes no input() (rsyslogd: \"input module name is unknown\"): "
                          "module(load=\"%s\") with its parameters makes its input"), module->name, module->name);
      return FALSE;
    }
  if (module && module->kind == SL_RS_MODULE_INPUT)
    {
      g_autofree gchar *driver = sl_rs_plugin_input (c, module, module->name, params, pos, error);
      const gchar *name = value_of (params, "name");
      return driver && sl_rs_add_source (c, ruleset, pos, driver, name ? name : module->name, error);
    }
  sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, pos, _("rsyslog's input type '%s' is not supported"), type);
  return FALSE;
}

static gchar *
mode_after_umask (const gchar *mode, guint umask_bits)
{
  return g_strdup_printf ("0%o", (guint) strtoul (mode, NULL, 8) & ~umask_bits);
}

static gboolean
set_flag (const gchar *value, gboolean *flag, SlCfgPos pos, const gchar *directive, GError **error)
{
  if (g_ascii_strcasecmp (value, "on") == 0 || g_ascii_strcasecmp (value, "yes") == 0)
    *flag = TRUE;
  else if (g_ascii_strcasecmp (value, "off") == 0 || g_ascii_strcasecmp (value, "no") == 0)
    *flag = FALSE;
  else
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos, _("%s takes on or off, not '%s'"), directive, value);
      return FALSE;
    }
  return TRUE;
}

/* $OMFileFlushOnTXEnd: on, rsyslogd's default, writes each batch out, as
 * file() writes what it is given; off holds lines in omfile's buffer until
 * it is full, which file() cannot */
static gboolean
flush_on_tx_end (const gchar *value, SlCfgPos pos, GError **error)
{
  gboolean flush = TRUE;

  if (!set_flag (value, &flush, pos, "$OMFileFlushOnTXEnd", error))
    return FALSE;
  if (!flush)
    sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, pos,
                      _("$OMFileFlushOnTXEnd off is not supported: Sluice writes lines out as they come, where "
                        "omfile then holds them in its buffer until it is full"));
  return flush;
}

/* $template NAME,"text"[,option] */
static gboolean
legacy_template (SlRsConf *c, const gchar *args, SlCfgPos pos, GError **error)
{
  const gchar *comma = strchr (args, ',');
  g_autofree gchar *name = comma ? g_strstrip (g_strndup (args, (gsize) (comma - args))) : NULL;
  g_autofree gchar *text = NULL;
  SlRsLexer lx;

  if (!name)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, pos, _("$template needs NAME,\"text\""));
      return FALSE;
    }
  sl_rs_lexer_init (&lx, pos.file, comma + 1);
  lx.line = pos.line;
  sl_rs_lexer_skip_blanks (&lx, FALSE);
  if (sl_rs_lexer_peek (&lx, 0) != '"' || !sl_rs_lexer_read_string (&lx, &text, error))
    {
      if (!error || !*error)
        sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, pos, _("$template %s needs its text in quotes"), name);
      return FALSE;
    }
  static const struct
  {
    const gchar *word;
    guint option;
  } options[] = { { "json", SL_RS_TPL_JSON }, { "jsonf", SL_RS_TPL_JSONF }, { "sql", SL_RS_TPL_SQL },
                  { "stdsql", SL_RS_TPL_STDSQL }, { "casesensitive", SL_RS_TPL_CASESENSITIVE } };
  guint chosen = 0;
  gboolean known = TRUE;
  for (sl_rs_lexer_skip_blanks (&lx, FALSE); known && sl_rs_lexer_peek (&lx, 0) == ',';
       sl_rs_lexer_skip_blanks (&lx, FALSE))
    {
      sl_rs_lexer_advance (&lx, 1);
      sl_rs_lexer_skip_blanks (&lx, FALSE);
      g_autofree gchar *word = sl_rs_lexer_read_word (&lx, "");
      guint i = 0;
      while (i < G_N_ELEMENTS (options) && (!word || g_ascii_strcasecmp (word, options[i].word) != 0))
        i++;
      known = i < G_N_ELEMENTS (options);
      chosen |= known ? options[i].option : 0;
    }
  if (!known || !sl_rs_lexer_at_line_end (&lx))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, pos,
                        _("the options of $template %s (%s) are not supported; json, jsonf, sql, stdsql and "
                          "casesensitive are"), name, comma + 1);
      return FALSE;
    }
  return sl_rs_template_define (c, name, text, chosen, pos, error);
}

/* directives that Sluice accepts with nothing to do: see doc/rsyslog.md */
static const gchar *const neutral_directives[] = {
  "WorkDirectory", "ActionResumeInterval",
  "KLogConsoleLogLevel",
  "MainMsgQueueSize", "MainMsgQueueDiscardMark",
  "RepeatedMsgContainsOriginalMsg",
  "MaxOpenFiles", "AbortOnUncleanConfig",
};

static gboolean
is_neutral (const gchar *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (neutral_directives); i++)
    if (g_ascii_strcasecmp (name, neutral_directives[i]) == 0)
      return TRUE;
  return FALSE;
}

/* rsyslog reads a directive's value word by word, and a word starting
 * with '#' begins a comment to the end of the line */
static gchar *
without_comment (const gchar *value)
{
  const gchar *p = value;

  while (*p && !(*p == '#' && (p == value || p[-1] == ' ' || p[-1] == '\t')))
    p++;
  return g_strchomp (g_strndup (value, (gsize) (p - value)));
}

gboolean
sl_rs_directive (SlRsConf *c, const gchar *line, SlCfgPos pos, GError **error)
{
  g_autofree gchar *name = NULL;
  g_autofree gchar *bare_value = NULL;
  const gchar *value;
  const gchar *space = strpbrk (line, " \t");

  name = g_strndup (line + 1, space ? (gsize) (space - line - 1) : strlen (line + 1));
  value = space ? space : "";
  while (*value == ' ' || *value == '\t')
    value++;
  /* a template's text is a quoted string, which may hold a '#' */
  if (g_ascii_strcasecmp (name, "template") == 0)
    return legacy_template (c, value, pos, error);
  value = bare_value = without_comment (value);

  if (g_ascii_strcasecmp (name, "IncludeConfig") == 0)
    return c->read_files (c, value, pos, error);
  if (g_ascii_strcasecmp (name, "ModLoad") == 0)
    return load_module (c, value, NULL, pos, error);
  if (g_ascii_strcasecmp (name, "AddUnixListenSocket") == 0)
    {
      if (!add_unix_socket (c, "$AddUnixListenSocket", value, c->uxsock_params, pos, error))
        return FALSE;
      if (c->uxsock_params)
        set_param (&c->uxsock_params, "hostname", NULL, pos);
      return TRUE;
    }
  if (g_ascii_strcasecmp (name, "SystemLogSocketName") == 0)
    {
      g_free (c->syssock_name);
      c->syssock_name = g_strdup (value);
      return TRUE;
    }
  if (g_ascii_strcasecmp (name, "OmitLocalLogging") == 0 && c->imuxsock_script)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, pos,
                        _("$OmitLocalLogging after module(load=\"imuxsock\") is refused by rsyslogd (\"currently not "
                          "permitted\"): use the module's SysSock.Use=\"off\""));
      return FALSE;
    }
  if (g_ascii_strcasecmp (name, "OmitLocalLogging") == 0)
    {
      gboolean omit = FALSE;
      if (!set_flag (value, &omit, pos, "$OmitLocalLogging", error))
        return FALSE;
      c->syssock_on = !omit;
      return TRUE;
    }
  /* a listener on the port, as the module's input() with port= */
  if (g_ascii_strcasecmp (name, "UDPServerRun") == 0 || g_ascii_strcasecmp (name, "InputTCPServerRun") == 0)
    {
      gboolean udp = g_ascii_strcasecmp (name, "UDPServerRun") == 0;
      g_autofree gchar *port = g_strdup_printf ("%ld", strtol (value, NULL, 10));
      g_autofree gchar *written = g_strconcat ("$", name, NULL);
      g_autoptr (GPtrArray) params = sl_rs_params_new ();
      sl_rs_params_add (params, "port", port, pos);
      return legacy_input (c, udp ? "imudp" : "imtcp", written, NULL, params, pos, error);
    }
  struct
  {
    const gchar *directive;
    gchar **slot;
  } strings[] = {
    { "FileOwner", &c->file_owner }, { "FileGroup", &c->file_group }, { "DirOwner", &c->dir_owner },
    { "DirGroup", &c->dir_group }, { "FileCreateMode", &c->file_mode }, { "DirCreateMode", &c->dir_mode },
  };
  for (guint i = 0; i < G_N_ELEMENTS (strings); i++)
    if (g_ascii_strcasecmp (name, strings[i].directive) == 0)
      {
        g_free (*strings[i].slot);
        *strings[i].slot = g_strdup (value);
        return TRUE;
      }
  if (g_ascii_strcasecmp (name, "Umask") == 0)
    {
      guint bits = (guint) strtoul (value, NULL, 8);
      gchar *file = mode_after_umask (c->file_mode, bits);
      gchar *dir = mode_after_umask (c->dir_mode, bits);

      g_free (c->file_mode);
      g_free (c->dir_mode);
      c->file_mode = file;
      c->dir_mode = dir;
      return TRUE;
    }
  if (g_ascii_strcasecmp (name, "CreateDirs") == 0)
    return set_flag (value, &c->create_dirs, pos, "$CreateDirs", error);
  if (g_ascii_strcasecmp (name, "ActionFileDefaultTemplate") == 0
      || g_ascii_strcasecmp (name, "ActionForwardDefaultTemplate") == 0)
    {
      gboolean forward = g_ascii_strcasecmp (name, "ActionForwardDefaultTemplate") == 0;
      gchar **slot = forward ? &c->forward_template : &c->file_template;

      g_free (*slot);
      *slot = g_strdup (value);
      return TRUE;
    }
  if (g_ascii_strcasecmp (name, "RepeatedMsgReduction") == 0)
    {
      gboolean on = FALSE;
      if (!set_flag (value, &on, pos, "$RepeatedMsgReduction", error))
        return FALSE;
      /* rsyslog's "message repeated N times: [...]" */
      return !on || sl_rs_emit (c, pos, "options { reduce-repeats(yes); };", error);
    }
  if (g_ascii_strcasecmp (name, "ActionResumeRetryCount") == 0)
    {
      if (g_str_equal (value, "-1"))
        sl_rs_ruleset_waits (c);
      return TRUE;
    }
  if (sl_rs_tls_setting (c, name, value))
    return TRUE;
  if (g_ascii_strncasecmp (name, "OMUxSock", strlen ("OMUxSock")) == 0)
    return sl_rs_uxsock_directive (c, name, value, pos, error);
  if (g_ascii_strcasecmp (name, "outchannel") == 0)
    return sl_rs_outchannel_directive (c, value, pos, error);
  gboolean output = FALSE;
  if (!sl_rs_legacy_output_directive (c, name, value, pos, &output, error))
    return FALSE;
  if (output)
    return TRUE;
  if (g_ascii_strncasecmp (name, "mmnormalize", strlen ("mmnormalize")) == 0)
    return sl_rs_mmnormalize_directive (c, name, value, pos, error);
  if (g_ascii_strcasecmp (name, "AllowedSender") == 0)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, pos,
                        _("$AllowedSender is not supported: Sluice's network sources take every sender (a "
                          "netmask() filter in the rules drops what they received, but rsyslogd's host names "
                          "and its per-protocol lists have no equal)"));
      return FALSE;
    }
  gboolean module_param = FALSE;
  if (!sl_rs_load_input_directive (c, name, value, pos, &module_param, error))
    return FALSE;
  if (module_param)
    return TRUE;
  if (g_ascii_strncasecmp (name, "InputFile", strlen ("InputFile")) == 0
      || g_ascii_strcasecmp (name, "InputRunFileMonitor") == 0)
    return sl_rs_imfile_directive (c, name, value, pos, error);
  if (g_ascii_strncasecmp (name, "PrivDropTo", strlen ("PrivDropTo")) == 0)
    return sl_rs_privileges (c, name, value, pos, error);
  if (g_ascii_strcasecmp (name, "MaxMessageSize") == 0)
    return sl_rs_max_message_size (c, value, pos, error);
  if (g_ascii_strcasecmp (name, "PreserveFQDN") == 0 || g_ascii_strcasecmp (name, "LocalHostName") == 0)
    {
      gboolean fqdn = FALSE;
      g_autofree gchar *quoted = sl_rs_quoted (value);
      if (g_ascii_strcasecmp (name, "PreserveFQDN") == 0 && !set_flag (value, &fqdn, pos, "$PreserveFQDN", error))
        return FALSE;
      g_autofree gchar *text = g_ascii_strcasecmp (name, "LocalHostName") == 0
                               ? g_strdup_printf ("options { local-hostname(%s); };", quoted)
                               : g_strdup_printf ("options { use-fqdn(%s); };", fqdn ? "yes" : "no");
      return sl_rs_emit (c, pos, text, error);
    }
  if (g_ascii_strcasecmp (name, "OMFileFlushOnTXEnd") == 0)
    return flush_on_tx_end (value, pos, error);
  if (g_ascii_strcasecmp (name, "ActionFileEnableSync") == 0)
    return set_flag (value, &c->file_sync, pos, "$ActionFileEnableSync", error);
  gboolean taken = FALSE;
  if (!imuxsock_directive (c, name, value, pos, &taken, error))
    return FALSE;
  if (taken)
    return TRUE;
  if (!sl_rs_escape_setting (c, name, value, pos, &taken, error))
    return FALSE;
  if (taken)
    return TRUE;
  if (g_ascii_strncasecmp (name, "ActionQueue", strlen ("ActionQueue")) == 0)
    return sl_rs_action_queue_directive (c, name, value, pos, error);
  if (g_ascii_strcasecmp (name, "MainMsgQueueType") == 0)
    return sl_rs_main_queue_type (value, pos, error);
  if (is_neutral (name))
    return TRUE;
  sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, pos, _("the rsyslog directive '$%s' is not supported"), name);
  return FALSE;
}

/* imfile's legacy directives set the file, tag and priority of
 * the next $InputRunFileMonitor, which starts following it and puts them
 * back to their defaults, as imfile does; the ruleset stays for the files
 * after it (imfile does not reset it). Its state file and how often it is
 * written: Sluice keeps every position in its persist file (-R). The poll
 * interval and how many lines are read at once change when lines are
 * read, not which. */
void
sl_rs_imfile_clear (SlRsConf *c)
{
  g_clear_pointer (&c->imfile_name, g_free);
  g_clear_pointer (&c->imfile_tag, g_free);
  g_clear_pointer (&c->imfile_facility, g_free);
  g_clear_pointer (&c->imfile_severity, g_free);
}

gboolean
sl_rs_imfile_directive (SlRsConf *c, const gchar *name, const gchar *value, SlCfgPos pos, GError **error)
{
  static const gchar *const neutral[] = { "InputFileStateFile", "InputFilePersistStateInterval",
                                          "InputFilePollInterval", "InputFileMaxLinesAtOnce" };
  struct
  {
    const gchar *directive;
    gchar **slot;
  } settings[] = {
    { "InputFileName", &c->imfile_name }, { "InputFileTag", &c->imfile_tag },
    { "InputFileFacility", &c->imfile_facility }, { "InputFileSeverity", &c->imfile_severity },
    { "InputFileBindRuleset", &c->imfile_ruleset },
  };

  if (!c->imfile_loaded)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos, _("$%s needs $ModLoad imfile before it"), name);
      return FALSE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (settings); i++)
    if (g_ascii_strcasecmp (name, settings[i].directive) == 0)
      {
        g_free (*settings[i].slot);
        *settings[i].slot = g_strdup (value);
        return TRUE;
      }
  for (guint i = 0; i < G_N_ELEMENTS (neutral); i++)
    if (g_ascii_strcasecmp (name, neutral[i]) == 0)
      return TRUE;
  if ((g_ascii_strcasecmp (name, "InputFileReadMode") == 0 || g_ascii_strcasecmp (name, "InputFileTrimLineOverBytes") == 0)
      && g_strcmp0 (value, "0") == 0)
    return TRUE;
  if (g_ascii_strcasecmp (name, "InputRunFileMonitor") != 0)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, pos, _("the rsyslog directive '$%s' is not supported"), name);
      return FALSE;
    }
  if (!c->imfile_name || !c->imfile_tag)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos, _("$InputRunFileMonitor needs $InputFileName and "
                                                           "$InputFileTag before it"));
      return FALSE;
    }
  g_autoptr (GPtrArray) params = sl_rs_params_new ();
  sl_rs_params_add (params, "file", c->imfile_name, pos);
  sl_rs_params_add (params, "tag", c->imfile_tag, pos);
  sl_rs_params_add (params, "facility", c->imfile_facility, pos);
  sl_rs_params_add (params, "severity", c->imfile_severity, pos);
  /* imfile's legacy inputs add no metadata, its input()s do unless told */
  sl_rs_params_add (params, "addmetadata", "off", pos);
  if (!legacy_input (c, "imfile", "$InputRunFileMonitor", c->imfile_ruleset, params, pos, error))
    return FALSE;
  sl_rs_imfile_clear (c);
  return TRUE;
}
