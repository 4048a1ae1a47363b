/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* rsyslog's templates written as Sluice's. rsyslog splits a local
 * message's text after the header at its first space into syslogtag and
 * msg (which keeps that space); the rsyslog template functions
 * (plugins/templates/rsyslog) make that split of Sluice's tag and text. */
#include "daemon/rsyslog/rsyslog-private.h"

#include "core/config/error.h"
#include "core/i18n.h"
#include "core/message/member-name.h"

#include <stdio.h>
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

/* dateFormat values of timestamp (S_) and timegenerated (R_) */
static const struct
{
  const gchar *format;
  const gchar *text;   /* %s: the macro prefix, %w: reported or generated */
} date_formats[] = {
  { "rfc3164", "$(rsyslog-rfc3164 %w)" },
  { "rfc3164-buggyday", "${%sMONTH_ABBREV} ${%sDAY} ${%sHOUR}:${%sMIN}:${%sSEC}" },
  { "rfc3339", "$(rsyslog-rfc3339 %w)" },
  { "mysql", "${%sYEAR}${%sMONTH}${%sDAY}${%sHOUR}${%sMIN}${%sSEC}" },
  { "pgsql", "${%sYEAR}-${%sMONTH}-${%sDAY} ${%sHOUR}:${%sMIN}:${%sSEC}" },
  /* the seconds before any fraction that frac-digits() adds */
  { "unixtimestamp", "$(rsyslog-property field=1,delimiter=46 \"\" \"\" ${%sUNIXTIME})" },
  { "subseconds", "$(rsyslog-subseconds %w)" },
  { "wdayname", "${%sWEEKDAY}" },
  { "wday", "$(rsyslog-date wday ${%sYEAR} ${%sMONTH} ${%sDAY} ${%sHOUR} ${%sMIN} ${%sSEC} ${%sTZOFFSET})" },
  { "year", "${%sYEAR}" },
  { "month", "${%sMONTH}" },
  { "day", "${%sDAY}" },
  { "hour", "${%sHOUR}" },
  { "minute", "${%sMIN}" },
  { "second", "${%sSEC}" },
  { "tzoffshour", "$(substr ${%sTZOFFSET} 1 2)" },
  { "tzoffsmin", "$(substr ${%sTZOFFSET} 4 2)" },
  { "tzoffsdirection", "$(substr ${%sTZOFFSET} 0 1)" },
  { "ordinal", "$(rsyslog-date ordinal ${%sYEAR} ${%sMONTH} ${%sDAY} ${%sHOUR} ${%sMIN} ${%sSEC} ${%sTZOFFSET})" },
  { "week", "$(rsyslog-date week ${%sYEAR} ${%sMONTH} ${%sDAY} ${%sHOUR} ${%sMIN} ${%sSEC} ${%sTZOFFSET})" },
  { "iso-week", "$(rsyslog-date isoweek ${%sYEAR} ${%sMONTH} ${%sDAY} ${%sHOUR} ${%sMIN} ${%sSEC} ${%sTZOFFSET})" },
  { "iso-week-year", "$(rsyslog-date isoweekyear ${%sYEAR} ${%sMONTH} ${%sDAY} ${%sHOUR} ${%sMIN} ${%sSEC} ${%sTZOFFSET})" },
};

static gboolean
date_property (const gchar *name, const gchar *date, GString *out)
{
  const gchar *prefix;

  if (g_ascii_strcasecmp (name, "timestamp") == 0 || g_ascii_strcasecmp (name, "timereported") == 0)
    prefix = "S_";
  else if (g_ascii_strcasecmp (name, "timegenerated") == 0)
    prefix = "R_";
  else
    return FALSE;

  const gchar *format = date_formats[0].text;
  for (guint i = 0; date && i < G_N_ELEMENTS (date_formats); i++)
    if (g_str_equal (date, date_formats[i].format))
      format = date_formats[i].text;
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

/* A template function's argument in quotes, as the template compiler reads it */
static void
append_argument (GString *out, const gchar *text)
{
  g_string_append_c (out, '"');
  for (const gchar *p = text; *p; p++)
    {
      if (*p == '"' || *p == '\\')
        g_string_append_c (out, '\\');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

/* A variable's field name as a template function's argument: in quotes
 * when the template compiler would read it otherwise (!a\.b) */
static void
append_field (GString *out, const gchar *field)
{
  if (strpbrk (field, " \t\"'\\$(){}"))
    append_argument (out, field);
  else
    g_string_append (out, field);
}

/* $!a!b is the field !a.b, $.a .a and $/a /a: each tree's fields have
 * the tree's sigil before them, so that the whole tree can be told apart
 * ($(rsyslog-tree)); mmjsonparse's json-parser writes under "!". rsyslogd
 * splits a path at '!' alone: $!a.b is the one member "a.b", the field
 * "!a\.b" (core/message/member-name.h). */
gchar *
sl_rs_variable_field (const gchar *name)
{
  GString *out = g_string_new (NULL);
  g_string_append_c (out, name[1]);
  for (const gchar *p = name + 2; *p;)
    {
      gsize len = strcspn (p, "!");
      sl_member_name_append (out, p, len);
      p += len;
      if (*p == '!')
        {
          g_string_append_c (out, '.');
          p++;
        }
    }
  return g_string_free (out, FALSE);
}

/* A variable tree whole: $!, $!all-json, $!all-json-plain, $. and $/ */
static gboolean
variable_tree (const gchar *name, GString *out)
{
  static const gchar *const modes[] = { "", "all-json", "all-json-plain" };
  static const gchar *const functions[] = { "tree", "all-json", "all-json-plain" };

  for (guint i = 0; i < G_N_ELEMENTS (modes); i++)
    if (g_ascii_strcasecmp (name + 2, modes[i]) == 0 && (!i || name[1] == '!'))
      {
        g_string_append_printf (out, "$(rsyslog-tree %s %c)", functions[i], name[1]);
        return TRUE;
      }
  return FALSE;
}

static gboolean
base_property (const gchar *name, SlCfgPos pos, GString *out, GError **error)
{
  if (g_str_has_prefix (name, "$!") || g_str_has_prefix (name, "$.") || g_str_has_prefix (name, "$/"))
    {
      if (variable_tree (name, out))
        return TRUE;
      /* rsyslogd compares variable names ignoring case */
      g_autofree gchar *field = sl_rs_variable_field (name);
      g_string_append (out, "$(rsyslog-var ");
      append_field (out, field);
      g_string_append_c (out, ')');
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

/* words of msg's options that change nothing of what Sluice writes: it
 * never keeps a trailing line feed nor control characters in MSG */
static gboolean
msg_neutral (const gchar *words)
{
  g_auto (GStrv) list = g_strsplit (words, ",", -1);

  for (guint i = 0; list[i]; i++)
    if (!g_str_equal (list[i], "droplf") && !g_str_has_prefix (list[i], "cc="))
      return FALSE;
  return TRUE;
}

/* The options that existing template functions write as rsyslogd does
 * (a range from its start, the json format), on value in place */
static gboolean
simple_option (const gchar *words, GString *value)
{
  gint from, to, end = 0;

  if (g_str_equal (words, "format=json"))
    {
      g_string_prepend (value, "$(rsyslog-json ");
      g_string_append_c (value, ')');
      return TRUE;
    }
  if (sscanf (words, "from=%d,to=%d%n", &from, &to, &end) != 2 || words[end] || from < 1 || to < from)
    return FALSE;
  g_string_prepend (value, "$(substr ");
  g_string_append_printf (value, " %d %d)", from - 1, to - from + 1);
  return TRUE;
}

/* value as the last argument of $(rsyslog-property) with the options */
static void
wrap_property (const SlRsProperty *prop, const gchar *words, const gchar *outname, GString *value)
{
  g_autofree gchar *inner = g_strdup (value->str);
  g_autoptr (GString) regex = g_string_new (NULL);
  gboolean jsonf = strstr (words, "format=jsonf") != NULL;

  /* a '$' doubled keeps the argument literal */
  for (const gchar *p = prop->regex ? prop->regex : ""; *p; p++)
    g_string_append (regex, *p == '$' ? "$$" : (gchar[]) { *p, 0 });
  g_string_assign (value, "$(rsyslog-property ");
  append_argument (value, words);
  g_string_append_c (value, ' ');
  append_argument (value, jsonf ? outname : "");
  g_string_append_c (value, ' ');
  append_argument (value, regex->str);
  /* a property's template has no space outside its $(...) and ${...}, so
   * it is one argument as it stands */
  g_string_append_printf (value, " %s)", inner);
}

gboolean
sl_rs_template_property (const SlRsProperty *prop, guint options, SlCfgPos pos, GString *out, GError **error)
{
  g_autoptr (GString) value = g_string_new (NULL);
  const gchar *name = prop->name;
  gboolean variable = name[0] == '$' && name[1] && strchr ("!./", name[1]);
  /* a variable's jsonf name is in lower case unless option.casesensitive,
   * as rsyslog's templates write it */
  g_autofree gchar *outname = variable && !(options & SL_RS_TPL_CASESENSITIVE) ? g_ascii_strdown (prop->outname, -1)
                                                                                : g_strdup (prop->outname);
  const gchar *words = prop->words ? prop->words->str : "";
  gboolean msg = g_ascii_strcasecmp (name, "msg") == 0;

  if (msg && g_str_equal (words, "sp1") && !prop->regex)
    /* sp-if-no-1st-sp writes the space alone, not the property */
    g_string_append (value, "$(rsyslog-msg-space " TAG_AND_TEXT ")");
  else
    {
      if (!date_property (name, prop->date, value) && !base_property (name, pos, value, error))
        return FALSE;
      if (variable && g_str_has_prefix (value->str, "$(rsyslog-var "))
        {
          /* a variable that holds an object is written as json-c writes
           * it: its own value where parse_json() or foreach gave it one
           * (with its members' types), else the tree of its fields */
          g_autofree gchar *field = sl_rs_variable_field (name);
          g_autofree gchar *members = g_strconcat (field, ".", NULL);
          g_autoptr (GString) var = g_string_new ("$(rsyslog-var ");
          g_autoptr (GString) tree = g_string_new ("$(rsyslog-tree tree ");
          append_field (var, field);
          g_string_append_c (var, ')');
          append_field (tree, members);
          g_string_append_c (tree, ')');
          g_string_assign (value, "$(if (");
          append_argument (value, var->str);
          g_string_append (value, " ne \"\") ");
          append_argument (value, var->str);
          g_string_append_c (value, ' ');
          append_argument (value, tree->str);
          g_string_append_c (value, ')');
        }
      if (prop->regex || (*words && !(msg && msg_neutral (words)) && !simple_option (words, value)))
        wrap_property (prop, words, outname, value);
    }
  if (options & SL_RS_TPL_STDSQL)
    g_string_append_printf (out, "$(rsyslog-stdsql-quotes %s)", value->str);
  else if (options & SL_RS_TPL_SQL)
    g_string_append_printf (out, "$(rsyslog-sql-quotes %s)", value->str);
  else if (options & SL_RS_TPL_JSON)
    g_string_append_printf (out, "$(rsyslog-json-quotes %s)", value->str);
  else
    g_string_append (out, value->str);
  return TRUE;
}

void
sl_rs_json_string (GString *out, const gchar *text)
{
  static const gchar named[] = { ['\b'] = 'b', ['\f'] = 'f', ['\n'] = 'n', ['\r'] = 'r', ['\t'] = 't' };

  g_string_append_c (out, '"');
  for (const guchar *p = (const guchar *) text; *p; p++)
    if (*p == '"' || *p == '\\' || *p == '/')
      g_string_append_printf (out, "\\%c", *p);
    else if (*p < 0x20 && *p < sizeof named && named[*p])
      g_string_append_printf (out, "\\%c", named[*p]);
    else if (*p < 0x20)
      g_string_append_printf (out, "\\u%04x", *p);
    else
      g_string_append_c (out, (gchar) *p);
  g_string_append_c (out, '"');
}

/* %syslogtag%%msg:::sp-if-no-1st-sp%%msg% (RSYSLOG_TraditionalFileFormat's
 * and RSYSLOG_FileFormat's) as one function that renders the tag and text
 * once instead of three times: what it writes is the same */
static const gchar *const tag_and_msg[] = {
  "$(rsyslog-tag " TAG_AND_TEXT ")",
  "$(rsyslog-msg-space " TAG_AND_TEXT ")",
  "$(rsyslog-msg " TAG_AND_TEXT ")",
};

static guint
append_entry (GString *out, GPtrArray *entries, guint i)
{
  for (guint k = 0; k < G_N_ELEMENTS (tag_and_msg); k++)
    if (i + k >= entries->len || !g_str_equal (g_ptr_array_index (entries, i + k), tag_and_msg[k]))
      {
        g_string_append (out, g_ptr_array_index (entries, i));
        return 1;
      }
  g_string_append (out, "$(rsyslog-tag-msg " TAG_AND_TEXT ")");
  return G_N_ELEMENTS (tag_and_msg);
}

gchar *
sl_rs_template_join (GPtrArray *entries, guint options)
{
  GString *out = g_string_new (NULL);

  if (options & SL_RS_TPL_JSONF && !(options & (SL_RS_TPL_JSON | SL_RS_TPL_SQL | SL_RS_TPL_STDSQL)))
    {
      g_string_append (out, "$(rsyslog-jsonf");
      for (guint i = 0; i < entries->len; i++)
        {
          g_string_append_c (out, ' ');
          append_argument (out, g_ptr_array_index (entries, i));
        }
      g_string_append_c (out, ')');
    }
  else
    for (guint i = 0; i < entries->len;)
      i += append_entry (out, entries, i);
  return g_string_free (out, FALSE);
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

gboolean
sl_rs_template_from_string (const gchar *text, guint options, SlCfgPos pos, GString *out, GError **error)
{
  g_autoptr (GPtrArray) entries = g_ptr_array_new_with_free_func (g_free);

  for (const gchar *p = text; *p;)
    {
      g_autoptr (GString) entry = g_string_new (NULL);
      const gchar *open = strchr (p, '%');

      if (open != p)
        {
          gsize len = open ? (gsize) (open - p) : strlen (p);
          append_constant (entry, p, len);
          p += len;
        }
      else if (p[1] == '%')
        {
          g_string_append_c (entry, '%');
          p += 2;
        }
      else
        {
          SlRsProperty prop = { 0 };
          p++;
          gboolean ok = sl_rs_property_legacy (&p, &prop, pos, error)
                        && sl_rs_template_property (&prop, options, pos, entry, error);
          sl_rs_property_clear (&prop);
          if (!ok)
            return FALSE;
        }
      g_ptr_array_add (entries, g_string_free (g_steal_pointer (&entry), FALSE));
    }
  g_autofree gchar *joined = sl_rs_template_join (entries, options);
  g_string_append (out, joined);
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
sl_rs_template_define_sluice (SlRsConf *c, const gchar *name, const gchar *text, SlCfgPos pos, GError **error)
{
  g_autoptr (GString) statement = g_string_new (NULL);
  g_autofree gchar *object = object_name (c, name);

  g_string_append_printf (statement, "template %s { template(", object);
  sl_rs_quote (statement, text);
  g_string_append (statement, "); };");
  if (!sl_rs_emit (c, pos, statement->str, error))
    return FALSE;
  g_hash_table_insert (c->template_objects, g_steal_pointer (&object), g_strdup (text));
  g_hash_table_insert (c->templates, g_ascii_strdown (name, -1), g_strdup (text));
  return TRUE;
}

gboolean
sl_rs_template_define (SlRsConf *c, const gchar *name, const gchar *rsyslog_text, guint options, SlCfgPos pos,
                       GError **error)
{
  g_autoptr (GString) text = g_string_new (NULL);

  return sl_rs_template_from_string (rsyslog_text, options, pos, text, error)
         && sl_rs_template_define_sluice (c, name, text->str, pos, error);
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
