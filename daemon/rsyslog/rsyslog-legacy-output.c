/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ommail's and omsnmp's legacy directives ($ActionMail*, $ActionSNMP*)
 * and the legacy actions :ommail: and :omsnmp: that take them, as the
 * call of the module with the parameters they stand for (the plugins'
 * mappings: smtp-rsyslog.c, snmp-rsyslog.c). As in rsyslogd 8.2302, the
 * directives exist once their module is loaded and count for every later
 * action, but the recipients of $ActionMailTo, which the next :ommail:
 * takes. */
#include "daemon/rsyslog/rsyslog-private.h"

#include "core/config/error.h"
#include "core/i18n.h"

#include <string.h>

typedef enum
{
  WORD,   /* taken as written */
  NUMBER, /* an integer, as rsyslogd's */
  SWITCH, /* on or off */
} Kind;

static const struct
{
  const gchar *directive; /* lower case */
  const gchar *module, *param;
  Kind kind;
} directives[] = {
  { "actionmailsmtpserver", "ommail", "server", WORD },
  { "actionmailsmtpport", "ommail", "port", WORD },
  { "actionmailfrom", "ommail", "mailfrom", WORD },
  { "actionmailsubject", "ommail", "subject.template", WORD },
  { "actionmailenablebody", "ommail", "body.enable", SWITCH },
  { "actionsnmptransport", "omsnmp", "transport", WORD },
  { "actionsnmptarget", "omsnmp", "server", WORD },
  { "actionsnmptargetport", "omsnmp", "port", NUMBER },
  { "actionsnmpversion", "omsnmp", "version", NUMBER },
  { "actionsnmpcommunity", "omsnmp", "community", WORD },
  { "actionsnmpenterpriseoid", "omsnmp", "enterpriseoid", WORD },
  { "actionsnmptrapoid", "omsnmp", "trapoid", WORD },
  { "actionsnmpsyslogmessageoid", "omsnmp", "messageoid", WORD },
  { "actionsnmpspecifictype", "omsnmp", "specifictype", NUMBER },
  { "actionsnmptraptype", "omsnmp", "traptype", NUMBER },
};

/* a directive's value, and where it is written: a call's parameter made
 * of it is refused there */
typedef struct
{
  gchar *value;
  SlCfgPos pos;
} Setting;

static void
setting_free (gpointer data)
{
  Setting *setting = data;
  g_free (setting->value);
  g_free (setting);
}

static gboolean
valid (Kind kind, const gchar *value)
{
  gchar *end = NULL;

  if (kind == SWITCH)
    return g_ascii_strcasecmp (value, "on") == 0 || g_ascii_strcasecmp (value, "off") == 0;
  if (kind == NUMBER)
    {
      g_ascii_strtoll (value, &end, 10);
      return *value && end && !*end;
    }
  return *value != '\0';
}

gboolean
sl_rs_legacy_output_directive (SlRsConf *c, const gchar *name, const gchar *value, SlCfgPos pos, gboolean *taken,
                               GError **error)
{
  g_autofree gchar *lower = g_ascii_strdown (name, -1);
  gboolean to = g_str_equal (lower, "actionmailto");
  gint found = -1;

  for (guint i = 0; i < G_N_ELEMENTS (directives) && found < 0; i++)
    if (g_str_equal (lower, directives[i].directive))
      found = (gint) i;
  *taken = to || found >= 0;
  if (!*taken)
    return TRUE;
  const gchar *module = to ? "ommail" : directives[found].module;
  if (!g_hash_table_contains (c->loaded, module))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos, _("$%s needs $ModLoad %s before it, as in rsyslogd"), name,
                        module);
      return FALSE;
    }
  if (!valid (to ? WORD : directives[found].kind, value))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos, _("$%s takes %s, not '%s'"), name,
                        to || directives[found].kind == WORD ? _("a word")
                        : directives[found].kind == NUMBER   ? _("a number")
                                                             : _("on or off"),
                        value);
      return FALSE;
    }
  if (to)
    {
      if (!c->mail_to)
        c->mail_to = g_ptr_array_new_with_free_func (g_free);
      g_ptr_array_add (c->mail_to, g_strdup (value));
      return TRUE;
    }
  if (!c->output_directives)
    c->output_directives = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, setting_free);
  Setting *setting = g_new0 (Setting, 1);
  setting->value = g_strdup (value);
  setting->pos = pos;
  g_hash_table_replace (c->output_directives, g_steal_pointer (&lower), setting);
  return TRUE;
}

static const Setting *
setting_of (SlRsConf *c, const gchar *directive)
{
  return c->output_directives ? g_hash_table_lookup (c->output_directives, directive) : NULL;
}

static const gchar *
directive_value (SlRsConf *c, const gchar *directive)
{
  const Setting *setting = setting_of (c, directive);
  return setting ? setting->value : NULL;
}

/* the parameters the module's directives set, as the module takes them,
 * each at its directive's place */
static void
add_directives (SlRsConf *c, const gchar *module, GPtrArray *params)
{
  for (guint i = 0; i < G_N_ELEMENTS (directives); i++)
    {
      const Setting *setting = setting_of (c, directives[i].directive);
      g_autofree gchar *text = NULL;

      if (!setting || !g_str_equal (directives[i].module, module))
        continue;
      if (directives[i].kind == NUMBER)
        text = g_strdup_printf ("%" G_GINT64_FORMAT, g_ascii_strtoll (setting->value, NULL, 10));
      else if (directives[i].kind == SWITCH)
        text = g_ascii_strdown (setting->value, -1);
      sl_rs_params_add (params, directives[i].param, text ? text : setting->value, setting->pos);
    }
}

static gchar *
missing (const gchar *written, const gchar *directive, SlCfgPos pos, GError **error)
{
  sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos, _("rsyslog's %s needs $%s before it, as in rsyslogd"), written,
                    directive);
  return NULL;
}

/* :ommail: sends to 127.0.0.1:25 unless told otherwise, a subject only
 * of $ActionMailSubject's template, and takes the recipients given since
 * the last one */
static gchar *
legacy_mail (SlRsConf *c, const gchar *template_name, SlCfgPos pos, GError **error)
{
  g_autoptr (GPtrArray) params = sl_rs_params_new ();
  g_autoptr (GPtrArray) to = g_steal_pointer (&c->mail_to);

  if (!directive_value (c, "actionmailfrom"))
    return missing (":ommail:", "ActionMailFrom", pos, error) ;
  if (!to || !to->len)
    return missing (":ommail:", "ActionMailTo", pos, error) ;
  add_directives (c, "ommail", params);
  if (!directive_value (c, "actionmailsmtpserver"))
    sl_rs_params_add (params, "server", "127.0.0.1", pos);
  if (!directive_value (c, "actionmailsmtpport"))
    sl_rs_params_add (params, "port", "25", pos);
  g_ptr_array_add (to, NULL);
  SlRsParam *mailto = g_new0 (SlRsParam, 1);
  mailto->name = g_strdup ("mailto");
  mailto->items = g_strdupv ((gchar **) to->pdata);
  mailto->value = g_strjoinv (",", mailto->items);
  mailto->pos = pos;
  g_ptr_array_add (params, mailto);
  sl_rs_params_add (params, "template", template_name, pos);
  return sl_rs_plugin_legacy (c, "ommail", ":ommail:", params, pos, error);
}

/* :omsnmp: sends SNMPv2c traps unless $ActionSNMPVersion is 0 (a version
 * other than 0 and 1 is 1, as rsyslogd takes it), in
 * RSYSLOG_TraditionalForwardFormat unless told otherwise (its action()'s
 * default is RSYSLOG_FileFormat) */
static gchar *
legacy_snmp (SlRsConf *c, const gchar *template_name, SlCfgPos pos, GError **error)
{
  g_autoptr (GPtrArray) params = sl_rs_params_new ();
  const gchar *version = directive_value (c, "actionsnmpversion");

  if (!directive_value (c, "actionsnmptarget"))
    return missing (":omsnmp:", "ActionSNMPTarget", pos, error) ;
  add_directives (c, "omsnmp", params);
  for (guint i = 0; i < params->len; i++)
    {
      SlRsParam *param = g_ptr_array_index (params, i);
      gint64 number = g_ascii_strtoll (param->value, NULL, 10);
      if (g_str_equal (param->name, "version") && number != 0)
        {
          g_free (param->value);
          param->value = g_strdup ("1");
        }
      /* port 0, rsyslogd's unset one, is SNMP's 162 */
      else if (g_str_equal (param->name, "port") && number == 0)
        g_ptr_array_remove_index (params, i--);
    }
  if (!version)
    sl_rs_params_add (params, "version", "1", pos);
  sl_rs_params_add (params, "template", template_name ? template_name : "RSYSLOG_TraditionalForwardFormat", pos);
  return sl_rs_plugin_legacy (c, "omsnmp", ":omsnmp:", params, pos, error);
}

gchar *
sl_rs_legacy_output (SlRsConf *c, const gchar *target, const gchar *template_name, SlCfgPos pos, GError **error)
{
  return g_str_equal (target, ":ommail:") ? legacy_mail (c, template_name, pos, error)
                                           : legacy_snmp (c, template_name, pos, error);
}
