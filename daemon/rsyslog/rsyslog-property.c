/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A template's property and its options, read from either of rsyslog's
 * two ways of writing one: %name:from:to:options:outname% (its
 * template.c do_Parameter() and doOptions()) and property(...)
 * (createPropertyTpe()), each checked as rsyslogd 8.2302 checks it. The
 * options become the words of $(rsyslog-property) (plugins/templates/
 * rsyslog), which applies them in rsyslog's order; rsyslog-template.c
 * writes the property's value. */
#include "daemon/rsyslog/rsyslog-private.h"

#include "core/config/error.h"
#include "core/i18n.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

void
sl_rs_property_clear (SlRsProperty *prop)
{
  g_free (prop->name);
  g_free (prop->outname);
  g_free (prop->regex);
  g_free (prop->date);
  if (prop->words)
    g_string_free (prop->words, TRUE);
  memset (prop, 0, sizeof *prop);
}

static void
word (SlRsProperty *prop, const gchar *format, ...) G_GNUC_PRINTF (2, 3);

static void
word (SlRsProperty *prop, const gchar *format, ...)
{
  va_list args;

  if (prop->words->len)
    g_string_append_c (prop->words, ',');
  va_start (args, format);
  g_string_append_vprintf (prop->words, format, args);
  va_end (args);
}

/* The legacy options (doOptions()) but the date ones, which
 * rsyslog-template.c writes itself, in the words of $(rsyslog-property);
 * "" for mandatory-field, which changes nothing Sluice writes. */
static const struct
{
  const gchar *option;
  const gchar *word;
} legacy_options[] = {
  { "lowercase", "case=l" }, { "uppercase", "case=u" }, { "sp-if-no-1st-sp", "sp1" },
  { "compressspace", "compress" }, { "escape-cc", "cc=e" }, { "drop-cc", "cc=d" }, { "space-cc", "cc=s" },
  { "drop-last-lf", "droplf" }, { "secpath-drop", "secpath=d" }, { "secpath-replace", "secpath=r" },
  { "pos-end-relative", "relative" }, { "fixed-width", "fixed" }, { "csv", "format=csv" },
  { "json", "format=json" }, { "jsonf", "format=jsonf" }, { "jsonr", "format=jsonr" },
  { "jsonfr", "format=jsonfr" }, { "mandatory-field", "" },
};

/* rsyslog's dateFormat values; the legacy options are "date-" and these */
static const gchar *const date_formats[] = {
  "mysql", "pgsql", "rfc3164", "rfc3164-buggyday", "rfc3339", "unixtimestamp", "subseconds", "wdayname", "wday",
  "year", "month", "day", "hour", "minute", "second", "tzoffshour", "tzoffsmin", "tzoffsdirection", "ordinal",
  "week", "iso-week", "iso-week-year",
};

static gboolean
is_date_format (const gchar *value)
{
  for (guint i = 0; i < G_N_ELEMENTS (date_formats); i++)
    if (g_str_equal (value, date_formats[i]))
      return TRUE;
  return FALSE;
}

static gboolean
legacy_option (SlRsProperty *prop, const gchar *option, gboolean *relative, gboolean *format, SlCfgPos pos,
               GError **error)
{
  if (g_str_has_prefix (option, "date-") && is_date_format (option + 5))
    {
      g_free (prop->date);
      prop->date = g_strdup (option + 5);
      return TRUE;
    }
  if (g_str_equal (option, "date-utc"))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, pos,
                        _("the rsyslog property option 'date-utc' is not supported: Sluice writes a template's "
                          "stamps in one time zone, its destination's time-zone()"));
      return FALSE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (legacy_options); i++)
    if (g_str_equal (option, legacy_options[i].option))
      {
        if (g_str_has_prefix (legacy_options[i].word, "format=") && *format)
          {
            sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos,
                              _("the rsyslog property option '%s' is a second format: rsyslogd ignores it, with an "
                                "error, so write one of csv, json, jsonf, jsonr, jsonfr"), option);
            return FALSE;
          }
        *format = *format || g_str_has_prefix (legacy_options[i].word, "format=");
        *relative = *relative || g_str_equal (option, "pos-end-relative");
        if (*legacy_options[i].word)
          word (prop, "%s", legacy_options[i].word);
        return TRUE;
      }
  sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, pos, _("the rsyslog property option '%s' is not supported"),
                    option);
  return FALSE;
}

static gint
read_number (const gchar **p)
{
  gint n = 0;

  while (g_ascii_isdigit (**p))
    n = n * 10 + *(*p)++ - '0';
  return n;
}

/* R[,BRE|,ERE][,submatch][,DFLT|BLANK|FIELD|ZERO][,match] */
static gboolean
legacy_regex_head (const gchar **text, SlRsProperty *prop, SlCfgPos pos, GError **error)
{
  const gchar *p = *text + 1;
  static const gchar *const nomatch[] = { "DFLT", "BLANK", "FIELD", "ZERO" };

  if (*p == ',' && (g_str_has_prefix (p + 1, "BRE") || g_str_has_prefix (p + 1, "ERE")) && strchr (",:", p[4]))
    {
      if (p[1] == 'E')
        word (prop, "ere");
      p += 4;
    }
  if (*p == ',' && g_ascii_isdigit (p[1]))
    {
      word (prop, "submatch=%c", p[1]);
      p += 2;
    }
  else if (*p == ',' && p[1] != ',')
    p++;
  if (*p == ',')
    {
      gboolean known = p[1] == ',';

      for (guint i = 0; i < G_N_ELEMENTS (nomatch) && !known; i++)
        if (g_str_has_prefix (p + 1, nomatch[i]) && strchr (",:", p[1 + strlen (nomatch[i])]))
          {
            word (prop, "nomatch=%s", nomatch[i]);
            p += strlen (nomatch[i]);
            known = TRUE;
          }
      if (!known)
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos,
                            _("the rsyslog property %s has no regular expression mode DFLT, BLANK, FIELD or ZERO"),
                            prop->name);
          return FALSE;
        }
      p++;
    }
  if (*p == ',' && g_ascii_isdigit (p[1]))
    {
      word (prop, "match=%c", p[1]);
      p += 2;
    }
  if (*p != ':')
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, pos,
                        _("the rsyslog property %s has characters after its R,type,submatch,mode,match"),
                        prop->name);
      return FALSE;
    }
  *text = p;
  return TRUE;
}

gboolean
sl_rs_property_legacy (const gchar **text, SlRsProperty *prop, SlCfgPos pos, GError **error)
{
  const gchar *p = *text;
  gboolean regex = FALSE, field = FALSE, relative = FALSE, format = FALSE;
  gint from = 0, to = 0, field_nr = 0;

  prop->words = g_string_new (NULL);
  while (*p && *p != '%' && *p != ':')
    p++;
  prop->name = g_strndup (*text, (gsize) (p - *text));
  if (*p == ':')
    {
      p++;
      if (*p == 'R')
        {
          if (!legacy_regex_head (&p, prop, pos, error))
            return FALSE;
          regex = TRUE;
        }
      else if (*p == 'F')
        {
          field = TRUE;
          p++;
          if (*p == ',' && g_ascii_isdigit (p[1]))
            {
              p++;
              gint delimiter = read_number (&p);
              if (delimiter > 255)
                delimiter = 9;
              word (prop, "delimiter=%d", delimiter);
              if (*p == ',')
                {
                  p++;
                  from = read_number (&p);
                }
            }
          if (*p != ':')
            {
              sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, pos,
                                _("the rsyslog property %s needs F: or F,DELIMITER: (a decimal character code)"),
                                prop->name);
              return FALSE;
            }
        }
      else
        {
          from = read_number (&p);
          while (*p && *p != '%' && *p != ':')
            p++;
        }
    }
  if (*p == ':')
    {
      p++;
      if (regex)
        {
          const gchar *end = strstr (p, "--end");
          if (!end)
            {
              sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, pos,
                                _("the regular expression of the rsyslog property %s does not end with --end"),
                                prop->name);
              return FALSE;
            }
          prop->regex = g_strndup (p, (gsize) (end - p));
          p = end + strlen ("--end");
          /* rsyslogd takes a legacy expression that does not compile and
           * writes that it did not */
          regex_t compiled;
          if (regcomp (&compiled, prop->regex, g_str_has_prefix (prop->words->str, "ere") ? REG_EXTENDED : 0) != 0)
            {
              g_clear_pointer (&prop->regex, g_free);
              word (prop, "badregex");
            }
          else
            regfree (&compiled);
        }
      else if (*p == '$')
        {
          p++;
          to = 9999999;
        }
      else
        {
          gint n = read_number (&p);
          if (field)
            {
              field_nr = n;
              if (*p == ',')
                {
                  p++;
                  to = read_number (&p);
                }
            }
          else
            to = n;
          while (*p && *p != '%' && *p != ':')
            p++;
        }
    }
  if (*p == ':')
    {
      p++;
      while (*p && *p != '%' && *p != ':')
        {
          const gchar *end = p + strcspn (p, ",%:");
          g_autofree gchar *option = g_ascii_strdown (p, end - p);
          if (!legacy_option (prop, option, &relative, &format, pos, error))
            return FALSE;
          p = *end == ',' ? end + 1 : end;
        }
    }
  if (relative ? to > from : to < from)
    {
      gint swap = to;
      to = from;
      from = swap;
    }
  if (field)
    word (prop, "field=%d", field_nr);
  if (from || to)
    word (prop, "from=%d,to=%d", from, to);
  if (*p == ':')
    {
      const gchar *start = ++p;
      while (*p && *p != ':' && *p != '%')
        p++;
      prop->outname = g_strndup (start, (gsize) (p - start));
    }
  if (*p != '%')
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, pos, _("a '%%' of this rsyslog template is not closed"));
      return FALSE;
    }
  if (!prop->outname)
    prop->outname = g_strdup (prop->name + (g_str_has_prefix (prop->name, "$!") || g_str_has_prefix (prop->name, "$.")
                                            ? 2 : 0));
  *text = p + 1;
  return TRUE;
}

/* property()'s string values, each one of a list, as rsyslogd checks them */
static const struct
{
  const gchar *param;
  const gchar *key;     /* of $(rsyslog-property)'s word key=value */
  gboolean initial;     /* the value's first letter is the word's value */
  const gchar *values[6];
} choices[] = {
  { "format", "format", FALSE, { "csv", "json", "jsonf", "jsonr", "jsonfr" } },
  { "datatype", "datatype", FALSE, { "string", "number", "bool", "auto" } },
  { "onempty", "onempty", FALSE, { "keep", "skip", "null" } },
  { "regex.type", NULL, FALSE, { "BRE", "ERE" } },
  { "regex.nomatchmode", "nomatch", FALSE, { "DFLT", "BLANK", "FIELD", "ZERO" } },
  { "controlcharacters", "cc", TRUE, { "escape", "space", "drop" } },
  { "securepath", "secpath", TRUE, { "drop", "replace" } },
  { "caseconversion", "case", TRUE, { "lower", "upper" } },
};

/* property()'s switches */
static const struct
{
  const gchar *param;
  const gchar *word;
} switches[] = {
  { "droplastlf", "droplf" }, { "fixedwidth", "fixed" }, { "spifno1stsp", "sp1" },
  { "compressspace", "compress" }, { "position.relativetoend", "relative" }, { "mandatory", "" },
};

static gboolean
param_choice (SlRsProperty *prop, const SlRsParam *p, gboolean *handled, GError **error)
{
  for (guint i = 0; i < G_N_ELEMENTS (choices); i++)
    if (g_str_equal (p->name, choices[i].param))
      {
        *handled = TRUE;
        for (guint v = 0; v < G_N_ELEMENTS (choices[i].values) && choices[i].values[v]; v++)
          if (g_str_equal (p->value, choices[i].values[v]))
            {
              /* BRE is the default: ERE is the word "ere" alone */
              if (!choices[i].key && g_str_equal (p->value, "ERE"))
                word (prop, "ere");
              else if (choices[i].key)
                word (prop, "%s=%.*s", choices[i].key, choices[i].initial ? 1 : -1, p->value);
              return TRUE;
            }
        sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, p->pos, _("'%s' is not a value of rsyslog's property %s="),
                          p->value, p->name);
        return FALSE;
      }
  for (guint i = 0; i < G_N_ELEMENTS (switches); i++)
    if (g_str_equal (p->name, switches[i].param))
      {
        *handled = TRUE;
        if (sl_rs_is_true (p->value) && *switches[i].word)
          word (prop, "%s", switches[i].word);
        return TRUE;
      }
  return TRUE;
}

gboolean
sl_rs_property_params (GPtrArray *params, SlRsProperty *prop, SlCfgPos pos, GError **error)
{
  gint from = -1, to = 0, field = -1;
  gboolean to_set = FALSE, relative = FALSE;
  const gchar *regex_pos = NULL;

  prop->words = g_string_new (NULL);
  for (guint i = 0; i < params->len; i++)
    {
      const SlRsParam *p = g_ptr_array_index (params, i);
      gboolean handled = FALSE;

      if (!param_choice (prop, p, &handled, error))
        return FALSE;
      if (handled)
        {
          relative = relative || (g_str_equal (p->name, "position.relativetoend") && sl_rs_is_true (p->value));
          continue;
        }
      if (g_str_equal (p->name, "name"))
        prop->name = g_strdup (p->value);
      else if (g_str_equal (p->name, "outname"))
        prop->outname = g_strdup (p->value);
      else if (g_str_equal (p->name, "position.from"))
        from = atoi (p->value);
      else if (g_str_equal (p->name, "position.to"))
        to = atoi (p->value), to_set = TRUE;
      else if (g_str_equal (p->name, "field.number"))
        field = atoi (p->value);
      else if (g_str_equal (p->name, "field.delimiter"))
        word (prop, "delimiter=%d", atoi (p->value));
      else if (g_str_equal (p->name, "regex.expression"))
        {
          prop->regex = g_strdup (p->value);
          regex_pos = p->value;
        }
      else if (g_str_equal (p->name, "regex.match") || g_str_equal (p->name, "regex.submatch"))
        word (prop, "%s=%d", p->name + strlen ("regex."), atoi (p->value));
      else if (g_str_equal (p->name, "dateformat") && is_date_format (p->value) && !strstr (p->value, "iso-"))
        {
          g_free (prop->date);
          prop->date = g_strdup (p->value);
        }
      else if (g_str_equal (p->name, "dateformat"))
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, p->pos, _("'%s' is not a dateFormat of rsyslog's property()"),
                            p->value);
          return FALSE;
        }
      else if (g_str_equal (p->name, "date.inutc") && sl_rs_is_true (p->value))
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, p->pos,
                            _("rsyslog's date.inUTC is not supported: Sluice writes a template's stamps in one time "
                              "zone, its destination's time-zone()"));
          return FALSE;
        }
      else if (!g_str_equal (p->name, "date.inutc"))
        {
          sl_cfg_error_set (error, SL_CFG_ERROR_UNKNOWN, p->pos,
                            _("the parameter '%s' of rsyslog's property() is not supported"), p->name);
          return FALSE;
        }
    }
  if (!prop->name)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_SYNTAX, pos, "%s", _("an rsyslog property() needs name="));
      return FALSE;
    }
  if (!to_set && from != -1)
    to = 2000000000;
  if (from == -1 && to_set)
    from = 0;
  if (relative ? to > from : (to >= 0 && to < from))
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos,
                        relative ? _("rsyslog's position.to=%d is higher than position.from=%d in relativeToEnd mode")
                                 : _("rsyslog's position.to=%d is lower than position.from=%d"), to, from);
      return FALSE;
    }
  if (field != -1 && regex_pos)
    {
      sl_cfg_error_set (error, SL_CFG_ERROR_VALUE, pos, "%s",
                        _("rsyslog's property() takes field.number or regex.expression, not both"));
      return FALSE;
    }
  if (field != -1)
    word (prop, "field=%d", field);
  if (from > 0 || to != 0)
    word (prop, "from=%d,to=%d", MAX (from, 0), to);
  if (!prop->outname)
    prop->outname = g_strdup (prop->name + (g_str_has_prefix (prop->name, "$!") ? 2 : 0));
  return TRUE;
}
