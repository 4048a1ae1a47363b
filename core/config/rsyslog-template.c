/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* rsyslog's templates written as Sluice's. rsyslog splits a local
 * message's text after the header at its first space into syslogtag and
 * msg (which keeps that space); the rsyslog template functions
 * (plugins/templates/rsyslog) make that split of Sluice's tag and text. */
#include "core/config/rsyslog-private.h"

#include "core/config/error.h"
#include "core/i18n.h"

#include <stdlib.h>
#include <string.h>

/* rsyslog 8.2302's built-in formats (its template.c and strgen modules) */
static const struct
{
  const gchar *name;
  const gchar *text;
} builtin_formats[] = {
  { "RSYSLOG_TraditionalFileFormat",
    "%TIMESTAMP% %HOSTNAME% %syslogtag%%msg:::sp-if-no-1st-sp%%msg:::drop-last-lf%\n" },
  { "RSYSLOG_FileFormat",
    "%TIMESTAMP:::date-rfc3339% %HOSTNAME% %syslogtag%%msg:::sp-if-no-1st-sp%%msg:::drop-last-lf%\n" },
  { "RSYSLOG_TraditionalForwardFormat", "<%PRI%>%TIMESTAMP% %HOSTNAME% %syslogtag:1:32%%msg:::sp-if-no-1st-sp%%msg%" },
  { "RSYSLOG_ForwardFormat",
    "<%PRI%>%TIMESTAMP:::date-rfc3339% %HOSTNAME% %syslogtag:1:32%%msg:::sp-if-no-1st-sp%%msg%" },
  { "RSYSLOG_SyslogProtocol23Format",
    "<%PRI%>1 %TIMESTAMP:::date-rfc3339% %HOSTNAME% %APP-NAME% %PROCID% %MSGID% %STRUCTURED-DATA% %msg%\n" },
  { "RSYSLOG_DebugFormat",
    "Debug line with all properties:\nFROMHOST: '%FROMHOST%', fromhost-ip: '%fromhost-ip%', HOSTNAME: '%HOSTNAME%', "
    "PRI: %PRI%,\nsyslogtag '%syslogtag%', programname: '%programname%', APP-NAME: '%APP-NAME%', PROCID: "
    "'%PROCID%', MSGID: '%MSGID%',\nTIMESTAMP: '%TIMESTAMP%', STRUCTURED-DATA: '%STRUCTURED-DATA%',\nmsg: "
    "'%msg%'\nescaped msg: '%msg:::drop-cc%'\ninputname: %inputname% rawmsg: '%rawmsg%'\n$!:%$!%\n$.:%$.%\n"
    "$/:%$/%\n\n" },
  { "RSYSLOG_StdUsrMsgFormat", " %syslogtag%%msg%\n\r" },
  { "RSYSLOG_WallFmt",
    "\r\n\7Message from syslogd@%HOSTNAME% at %timegenerated% ...\r\n %syslogtag%%msg%\n\r" },
};

#define TAG_AND_TEXT "${MSGHDR}${MESSAGE}"

static const struct
{
  const gchar *name;
  const gchar *value;
} properties[] = {
  { "msg", "$(rsyslog-msg " TAG_AND_TEXT ")" },
  { "rawmsg", "<${PRI}>${S_DATE} " TAG_AND_TEXT },
  { "hostname", "${HOST}" },
  { "source", "${HOST}" },
  { "fromhost", "${SOURCEIP:-${LOGHOST}}" },
  { "fromhost-ip", "${SOURCEIP:-127.0.0.1}" },
  { "syslogtag", "$(rsyslog-tag " TAG_AND_TEXT ")" },
  { "programname", "${PROGRAM}" },
  { "app-name", "${PROGRAM:--}" },
  { "procid", "${PID:--}" },
  { "msgid", "${MSGID:--}" },
  { "structured-data", "${SDATA:--}" },
  { "pri", "${PRI}" },
  { "pri-text", "${FACILITY}.${LEVEL}" },
  { "syslogfacility", "${FACILITY_NUM}" },
  { "syslogfacility-text", "${FACILITY}" },
  { "syslogseverity", "${LEVEL_NUM}" },
  { "syslogpriority", "${LEVEL_NUM}" },
  { "syslogseverity-text", "${LEVEL}" },
  { "syslogpriority-text", "${LEVEL}" },
  { "inputname", "$(rsyslog-inputname ${SOURCE})" },
  { "protocol-version", "$(if (\"${MSGID}${SDATA}\" ne \"\") \"1\" \"0\")" },
  { "$myhostname", "${LOGHOST}" },
  { "$now", "${R_YEAR}-${R_MONTH}-${R_DAY}" },
  { "$year", "${R_YEAR}" },
  { "$month", "${R_MONTH}" },
  { "$day", "${R_DAY}" },
  { "$hour", "${R_HOUR}" },
  { "$minute", "${R_MIN}" },
  { "$wday", "${R_WEEKDAY}" },
};

/* date options of timestamp (S_) and timegenerated (R_) */
static const struct
{
  const gchar *option;
  const gchar *format;   /* %s: the macro prefix, %w: reported or generated */
} date_options[] = {
  { "date-rfc3164", "$(substr ${%sDATE} 0 15)" },
  { "date-rfc3339", "$(rsyslog-rfc3339 %w)" },
  { "date-mysql", "${%sYEAR}${%sMONTH}${%sDAY}${%sHOUR}${%sMIN}${%sSEC}" },
  { "date-pgsql", "${%sYEAR}-${%sMONTH}-${%sDAY} ${%sHOUR}:${%sMIN}:${%sSEC}" },
  { "date-unixtimestamp", "${%sUNIXTIME}" },
  { "date-year", "${%sYEAR}" },
  { "date-month", "${%sMONTH}" },
  { "date-day", "${%sDAY}" },
  { "date-hour", "${%sHOUR}" },
  { "date-minute", "${%sMIN}" },
  { "date-second", "${%sSEC}" },
  { "date-ordinal", "${%sYEAR_DAY}" },
  { "date-tzoffshour", "${%sTZOFFSET}" },
};

/* options that change nothing of what Sluice writes: it never keeps a
 * trailing line feed nor control characters in MSG */
static const gchar *const neutral_options[] = {
  "drop-last-lf", "escape-cc", "space-cc", "drop-cc", "compressspace",
};

static gboolean
date_property (const gchar *name, const gchar *options, GString *out)
{
  const gchar *prefix;

  if (g_ascii_strcasecmp (name, "timestamp") == 0 || g_ascii_strcasecmp (name, "timereported") == 0)
    prefix = "S_";
  else if (g_ascii_strcasecmp (name, "timegenerated") == 0)
    prefix = "R_";
  else
    return FALSE;

  /* ${DATE} takes the fraction frac-digits() gives ISODATE: its first 15
   * characters are rsyslog's stamp */
  const gchar *format = "$(substr ${%sDATE} 0 15)";
  g_auto (GStrv) words = g_strsplit (options ? options : "", ",", -1);
  for (guint w = 0; words[w]; w++)
    for (guint i = 0; i < G_N_ELEMENTS (date_options); i++)
      if (g_ascii_strcasecmp (g_strstrip (words[w]), date_options[i].option) == 0)
        format = date_options[i].format;
  for (const gchar *p = format; *p; p++)
    if (p[0] == '%' && (p[1] == 's' || p[1] == 'w'))
      {
        g_string_append (out, p[1] == 's' ? prefix : prefix[0] == 'S' ? "reported" : "generated");
        p++;
      }
    else
      g_string_append_c (out, *p);
  return TRUE;
}

/* $!a!b is the field a.b, where mmjsonparse's json-parser puts JSON's
 * a.b; local ($.x) and global ($/x) variables get fields of their own */
gchar *
sl_rs_variable_field (const gchar *name)
{
  const gchar *prefix = name[1] == '.' ? ".rslocal." : name[1] == '/' ? ".rsglobal." : "";
  gchar *field = g_strconcat (prefix, name + 2, NULL);
  for (gchar *p = field + strlen (prefix); *p; p++)
    if (*p == '!' || *p == '.' || *p == '/')
      *p = '.';
  return field;
}

static gboolean
base_property (const gchar *name, SlCfgPos pos, GString *out, GError **error)
{
  if (g_str_has_prefix (name, "$!") || g_str_has_prefix (name, "$.") || g_str_has_prefix (name, "$/"))
    {
      if (!name[2])
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, pos,
                            _("the rsyslog property '%s' (the whole variable tree) is not supported"), name);
          return FALSE;
        }
      g_autofree gchar *field = sl_rs_variable_field (name);
      g_string_append_printf (out, "${%s}", field);
      return TRUE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (properties); i++)
    if (g_ascii_strcasecmp (name, properties[i].name) == 0)
      {
        g_string_append (out, properties[i].value);
        return TRUE;
      }
  sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, pos, _("the rsyslog property '%s' is not supported"), name);
  return FALSE;
}

gboolean
sl_rs_property_value (const gchar *name, SlCfgPos pos, GString *out, GError **error)
{
  return date_property (name, NULL, out) || base_property (name, pos, out, error);
}

gboolean
sl_rs_template_property (const gchar *name, const gchar *from, const gchar *to, const gchar *options,
                         SlCfgPos pos, GString *out, GError **error)
{
  g_autoptr (GString) value = g_string_new (NULL);
  g_auto (GStrv) words = g_strsplit (options ? options : "", ",", -1);
  const gchar *casing = NULL;
  gboolean json = FALSE;

  if (!date_property (name, options, value) && !base_property (name, pos, value, error))
    return FALSE;
  for (guint w = 0; words[w]; w++)
    {
      const gchar *word = g_strstrip (words[w]);
      gboolean known = !*word || g_str_has_prefix (word, "date-");

      for (guint i = 0; i < G_N_ELEMENTS (neutral_options); i++)
        known = known || g_ascii_strcasecmp (word, neutral_options[i]) == 0;
      if (g_ascii_strcasecmp (word, "lowercase") == 0 || g_ascii_strcasecmp (word, "uppercase") == 0)
        {
          casing = word;
          known = TRUE;
        }
      if (g_ascii_strcasecmp (word, "json") == 0)
        json = known = TRUE;
      if (!known)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, pos,
                            _("the rsyslog property option '%s' is not supported"), word);
          return FALSE;
        }
    }
  gint start = from && *from ? atoi (from) : 1;
  gint end = to && *to ? atoi (to) : 0;
  if ((from && *from && start < 1) || (to && *to && end < start))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, pos,
                        _("the rsyslog property range %s:%s is not supported (only positions from 1)"),
                        from, to);
      return FALSE;
    }
  if (start > 1 || end > 0)
    {
      g_autofree gchar *inner = g_string_free (g_steal_pointer (&value), FALSE);
      value = g_string_new (NULL);
      /* a property's template has no space outside its $(...), so it is
       * one argument as it stands */
      g_string_append_printf (value, "$(substr %s %d", inner, start - 1);
      if (end > 0)
        g_string_append_printf (value, " %d", end - start + 1);
      g_string_append_c (value, ')');
    }
  if (json)
    g_string_append (out, "$(rsyslog-json ");
  if (casing)
    g_string_append_printf (out, "$(%s %s)", g_ascii_strncasecmp (casing, "lower", 5) == 0
                                                ? "lowercase" : "uppercase", value->str);
  else
    g_string_append (out, value->str);
  if (json)
    g_string_append_c (out, ')');
  return TRUE;
}

static void
append_constant (GString *out, const gchar *text, gsize len)
{
  for (gsize i = 0; i < len; i++)
    {
      if (text[i] == '$')
        g_string_append_c (out, '$');
      g_string_append_c (out, text[i]);
    }
}

static gboolean
has_option (const gchar *options, const gchar *option)
{
  g_auto (GStrv) words = g_strsplit (options ? options : "", ",", -1);
  for (guint w = 0; words[w]; w++)
    if (g_ascii_strcasecmp (g_strstrip (words[w]), option) == 0)
      return TRUE;
  return FALSE;
}

gboolean
sl_rs_template_from_string (const gchar *text, gboolean json_quotes, SlCfgPos pos, GString *out, GError **error)
{
  for (const gchar *p = text; *p;)
    {
      const gchar *open = strchr (p, '%');

      if (!open)
        {
          append_constant (out, p, strlen (p));
          break;
        }
      append_constant (out, p, (gsize) (open - p));
      const gchar *close = strchr (open + 1, '%');
      if (!close)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, pos, _("a '%%' of this rsyslog template is not closed"));
          return FALSE;
        }
      if (close == open + 1)
        {
          g_string_append_c (out, '%');
          p = close + 1;
          continue;
        }
      g_autofree gchar *inside = g_strndup (open + 1, (gsize) (close - open - 1));
      g_auto (GStrv) parts = g_strsplit (inside, ":", 4);
      const gchar *name = parts[0];
      const gchar *from = parts[1] ? parts[1] : NULL;
      const gchar *to = from && parts[2] ? parts[2] : NULL;
      const gchar *options = to && parts[3] ? parts[3] : NULL;
      /* sp-if-no-1st-sp writes the space alone, not the property */
      g_autoptr (GString) value = g_string_new (NULL);
      if (g_ascii_strcasecmp (name, "msg") == 0 && has_option (options, "sp-if-no-1st-sp"))
        g_string_append (out, "$(rsyslog-msg-space " TAG_AND_TEXT ")");
      else if (!sl_rs_template_property (name, from, to, options, pos, value, error))
        return FALSE;
      else if (json_quotes)
        g_string_append_printf (out, "$(rsyslog-json-quotes %s)", value->str);
      else
        g_string_append (out, value->str);
      p = close + 1;
    }
  return TRUE;
}

static gboolean
is_builtin (const gchar *name, guint *index)
{
  for (guint i = 0; i < G_N_ELEMENTS (builtin_formats); i++)
    if (g_ascii_strcasecmp (name, builtin_formats[i].name) == 0)
      {
        *index = i;
        return TRUE;
      }
  return FALSE;
}

static gchar *
object_name (SlRsConf *c, const gchar *name)
{
  gchar *object = g_strdup_printf ("%s_t_%s", c->prefix, name);

  for (gchar *p = object; *p; p++)
    *p = g_ascii_isalnum (*p) ? g_ascii_tolower (*p) : '_';
  return object;
}

gboolean
sl_rs_template_define (SlRsConf *c, const gchar *name, const gchar *rsyslog_text, gboolean json_quotes, SlCfgPos pos,
                       GError **error)
{
  g_autoptr (GString) text = g_string_new (NULL);
  g_autoptr (GString) statement = g_string_new (NULL);
  g_autofree gchar *object = object_name (c, name);

  if (!sl_rs_template_from_string (rsyslog_text, json_quotes, pos, text, error))
    return FALSE;
  g_string_append_printf (statement, "template %s { template(", object);
  sl_rs_quote (statement, text->str);
  g_string_append (statement, "); };");
  if (!sl_rs_emit (c, pos, statement->str, error))
    return FALSE;
  g_hash_table_insert (c->template_objects, g_steal_pointer (&object), g_strdup (text->str));
  g_hash_table_insert (c->templates, g_ascii_strdown (name, -1), g_string_free (g_steal_pointer (&text), FALSE));
  return TRUE;
}

static gboolean
define_builtin (SlRsConf *c, const gchar *name, SlCfgPos pos, GError **error)
{
  g_autofree gchar *key = g_ascii_strdown (name, -1);
  guint i;

  if (g_hash_table_contains (c->templates, key) || !is_builtin (name, &i))
    return TRUE;
  return sl_rs_template_define (c, builtin_formats[i].name, builtin_formats[i].text, FALSE, pos, error);
}

const gchar *
sl_rs_template_lookup (SlRsConf *c, const gchar *name, SlCfgPos pos, GError **error)
{
  g_autofree gchar *key = g_ascii_strdown (name, -1);
  const gchar *text;

  if (!define_builtin (c, name, pos, error))
    return NULL;
  if (!(text = g_hash_table_lookup (c->templates, key)))
    sl_cfg_error_set (error, SL_CFG_ERROR_REFERENCE, pos,
                      _("there is no rsyslog template named '%s' before this line"), name);
  return text;
}

gchar *
sl_rs_template_ref (SlRsConf *c, const gchar *name, SlCfgPos pos, GError **error)
{
  SlRsTemplateRef ref = { g_strdup (name), pos };

  if (!define_builtin (c, name, pos, error))
    {
      g_free (ref.name);
      return NULL;
    }
  g_array_append_val (c->template_refs, ref);
  return object_name (c, name);
}

gboolean
sl_rs_template_check_refs (SlRsConf *c, GError **error)
{
  for (guint i = 0; i < c->template_refs->len; i++)
    {
      const SlRsTemplateRef *ref = &g_array_index (c->template_refs, SlRsTemplateRef, i);
      g_autofree gchar *key = g_ascii_strdown (ref->name, -1);

      if (!g_hash_table_contains (c->templates, key))
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_REFERENCE, ref->pos, _("there is no rsyslog template named '%s'"),
                            ref->name);
          return FALSE;
        }
    }
  return TRUE;
}
