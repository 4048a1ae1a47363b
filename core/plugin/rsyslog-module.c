/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/plugin/rsyslog-module-private.h"

#include "core/config/error.h"
#include "core/i18n.h"

#include <string.h>

static const SlRsCallParam *
find (const SlRsCall *call, const gchar *name)
{
  for (guint i = 0; name && i < call->params->len; i++)
    {
      const SlRsCallParam *p = &g_array_index (call->params, SlRsCallParam, i);
      if (g_str_equal (p->name, name))
        return p;
    }
  return NULL;
}

const gchar *
sl_rs_call_type (const SlRsCall *call)
{
  return call->type;
}

const gchar *
sl_rs_call_value (const SlRsCall *call, const gchar *param)
{
  const SlRsCallParam *p = find (call, param);
  return p ? p->value : NULL;
}

const gchar *const *
sl_rs_call_items (const SlRsCall *call, const gchar *param)
{
  const SlRsCallParam *p = find (call, param);
  return p ? p->items : NULL;
}

gboolean
sl_rs_call_flag (const SlRsCall *call, const gchar *param, gboolean unset)
{
  const gchar *value = sl_rs_call_value (call, param);

  if (!value)
    return unset;
  return g_ascii_strcasecmp (value, "on") == 0 || g_ascii_strcasecmp (value, "yes") == 0
         || g_ascii_strcasecmp (value, "true") == 0 || strcmp (value, "1") == 0;
}

gboolean
sl_rs_call_int (const SlRsCall *call, const gchar *param, gint64 dflt, gint64 *out, GError **error)
{
  const gchar *value = sl_rs_call_value (call, param);
  gchar *end;

  *out = dflt;
  if (!value)
    return TRUE;
  *out = g_ascii_strtoll (value, &end, 10);
  if (*value && !*end)
    return TRUE;
  return sl_rs_call_fail (call, param, error, _("rsyslog's %s takes a number for %s, not '%s'"), call->type, param,
                          value);
}

gboolean
sl_rs_call_refuse (const SlRsCall *call, const gchar *param, GError **error, const gchar *why, ...)
{
  const SlRsCallParam *p = find (call, param);
  va_list args;

  if (!p)
    return TRUE;
  va_start (args, why);
  g_autofree gchar *reason = g_strdup_vprintf (why, args);
  va_end (args);
  sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, p->pos, _("the parameter '%s' of rsyslog's %s is not supported: %s"),
                    p->name, call->type, reason);
  return FALSE;
}

/* rsyslog writes a switch on, yes or 1 and off, no or 0 */
static gint
switch_value (const gchar *text)
{
  static const gchar *const words[2][3] = { { "off", "no", "0" }, { "on", "yes", "1" } };

  for (gint v = 0; v < 2; v++)
    for (guint i = 0; i < G_N_ELEMENTS (words[v]); i++)
      if (g_ascii_strcasecmp (text, words[v][i]) == 0)
        return v;
  return -1;
}

static gboolean
same_value (const gchar *value, const gchar *dflt)
{
  gint64 a, b;

  if (g_ascii_strcasecmp (value, dflt) == 0)
    return TRUE;
  if (switch_value (dflt) >= 0)
    return switch_value (value) == switch_value (dflt);
  return g_ascii_string_to_signed (value, 10, G_MININT64, G_MAXINT64, &a, NULL)
         && g_ascii_string_to_signed (dflt, 10, G_MININT64, G_MAXINT64, &b, NULL) && a == b;
}

gboolean
sl_rs_call_refuse_unless (const SlRsCall *call, const gchar *param, const gchar *dflt, GError **error,
                          const gchar *why, ...)
{
  const SlRsCallParam *p = find (call, param);
  va_list args;

  if (!p || same_value (p->value, dflt))
    return TRUE;
  va_start (args, why);
  g_autofree gchar *reason = g_strdup_vprintf (why, args);
  va_end (args);
  sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, p->pos,
                    _("rsyslog's %s %s=\"%s\" is not supported (only %s, the default): %s"), call->type, p->name,
                    p->value, dflt, reason);
  return FALSE;
}

gboolean
sl_rs_call_fail (const SlRsCall *call, const gchar *param, GError **error, const gchar *format, ...)
{
  const SlRsCallParam *p = find (call, param);
  va_list args;

  va_start (args, format);
  g_autofree gchar *message = g_strdup_vprintf (format, args);
  va_end (args);
  sl_cfg_error_set (error, p ? SL_CFG_ERROR_UNKNOWN : SL_CFG_ERROR_VALUE, p ? p->pos : call->pos, "%s", message);
  return FALSE;
}

gchar *
sl_rs_call_template (SlRsCall *call, const gchar *name, GError **error)
{
  return call->ops->template_object (call->front_end, name, call->pos, error);
}

gboolean
sl_rs_call_define_template (SlRsCall *call, const gchar *name, const gchar *rsyslog_text, GError **error)
{
  return call->ops->define_template (call->front_end, name, rsyslog_text, call->pos, error);
}

gchar *
sl_rs_call_template_text (SlRsCall *call, const gchar *rsyslog_text, GError **error)
{
  g_autoptr (GString) out = g_string_new (NULL);
  if (!call->ops->template_text (call->front_end, rsyslog_text, call->pos, out, error))
    return NULL;
  return g_string_free (g_steal_pointer (&out), FALSE);
}

gchar *
sl_rs_call_property (SlRsCall *call, const gchar *property, GError **error)
{
  g_autoptr (GString) out = g_string_new (NULL);
  if (!call->ops->property (call->front_end, property, call->pos, out, error))
    return NULL;
  return g_string_free (g_steal_pointer (&out), FALSE);
}

gchar *
sl_rs_call_variable_field (SlRsCall *call, const gchar *variable)
{
  return call->ops->variable_field (call->front_end, variable);
}

gchar *
sl_rs_call_template_value (SlRsCall *call, const gchar *name, GError **error)
{
  g_autoptr (GString) out = g_string_new (NULL);
  if (!call->ops->template_value (call->front_end, name, call->pos, out, error))
    return NULL;
  return g_string_free (g_steal_pointer (&out), FALSE);
}

gboolean
sl_rs_call_tls (SlRsCall *call, const SlRsTlsParams *names, gboolean server, GString *driver, GError **error)
{
  const gchar *files[3] = {
    names->ca ? sl_rs_call_value (call, names->ca) : NULL,
    names->cert ? sl_rs_call_value (call, names->cert) : NULL,
    names->key ? sl_rs_call_value (call, names->key) : NULL,
  };
  return call->ops->tls (call->front_end, sl_rs_call_value (call, names->driver),
                         sl_rs_call_value (call, names->mode), sl_rs_call_value (call, names->auth),
                         sl_rs_call_value (call, names->peers), files, server, call->pos, driver, error);
}

const gchar *
sl_rs_call_global (const SlRsCall *call, const gchar *name)
{
  return call->ops->global (call->front_end, name);
}

void
sl_rs_text_quote (GString *out, const gchar *text)
{
  g_string_append_c (out, '"');
  for (const gchar *p = text; *p; p++)
    switch (*p)
      {
      case '"': g_string_append (out, "\\\""); break;
      case '\\': g_string_append (out, "\\\\"); break;
      case '\n': g_string_append (out, "\\n"); break;
      case '\r': g_string_append (out, "\\r"); break;
      case '\t': g_string_append (out, "\\t"); break;
      /* an empty backtick name is a backtick */
      case '`': g_string_append (out, "``"); break;
      default: g_string_append_c (out, *p);
      }
  g_string_append_c (out, '"');
}

void
sl_rs_text_option (GString *out, const gchar *option, const gchar *value)
{
  g_string_append_printf (out, " %s(", option);
  sl_rs_text_quote (out, value);
  g_string_append_c (out, ')');
}

const gchar *
sl_rs_syslog_name (const gchar *value, gboolean facility)
{
  static const gchar *const facilities[][2] = {
    { "kern", "kern" }, { "user", "user" }, { "mail", "mail" }, { "daemon", "daemon" }, { "auth", "auth" },
    { "security", "auth" }, { "syslog", "syslog" }, { "lpr", "lpr" }, { "news", "news" }, { "uucp", "uucp" },
    { "cron", "cron" }, { "authpriv", "authpriv" }, { "ftp", "ftp" }, { "local0", "local0" },
    { "local1", "local1" }, { "local2", "local2" }, { "local3", "local3" }, { "local4", "local4" },
    { "local5", "local5" }, { "local6", "local6" }, { "local7", "local7" }, { NULL, NULL },
  };
  static const gchar *const severities[][2] = {
    { "emerg", "emerg" }, { "panic", "emerg" }, { "alert", "alert" }, { "crit", "crit" }, { "err", "err" },
    { "error", "err" }, { "warning", "warning" }, { "warn", "warning" }, { "notice", "notice" },
    { "info", "info" }, { "debug", "debug" }, { NULL, NULL },
  };
  const gchar *const (*names)[2] = facility ? facilities : severities;

  for (guint i = 0; names[i][0]; i++)
    if (g_ascii_strcasecmp (value, names[i][0]) == 0)
      return names[i][1];
  return NULL;
}

gchar *
sl_rs_text_literal (const gchar *text)
{
  g_auto (GStrv) parts = g_strsplit (text, "$", -1);
  return g_strjoinv ("$$", parts);
}
