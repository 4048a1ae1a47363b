/* SPDX-License-Identifier: GPL-2.0-or-later */
/* $(rsyslog-property OPTIONS OUTNAME REGEX VALUE): what rsyslogd 8.2302
 * does to a property's value before a template writes it, step by step
 * in its order (field or regular expression, position, sp-if-no-1st-sp,
 * case, control characters, secure path, last line feed, spaces, then
 * csv, json or jsonf). OPTIONS is the rsyslog front end's list of
 * key=value words (see parse_option()); REGEX a POSIX expression, "" for
 * none; OUTNAME the name jsonf writes. */
#include "plugins/templates/rsyslog/rsyslog-classes.h"

#include "core/config/error.h"
#include "core/i18n.h"
#include "core/message/template.h"

#include <ctype.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

enum { FORMAT_NONE, FORMAT_CSV, FORMAT_JSON, FORMAT_JSONF, FORMAT_JSONR, FORMAT_JSONFR };
enum { NOMATCH_DFLT, NOMATCH_BLANK, NOMATCH_FIELD, NOMATCH_ZERO };
enum { TYPE_STRING, TYPE_NUMBER, TYPE_BOOL, TYPE_AUTO };
enum { EMPTY_KEEP, EMPTY_SKIP, EMPTY_NULL };

typedef struct
{
  gint field;              /* 0: no field extraction */
  guchar delimiter;
  gboolean has_regex;
  gboolean bad_regex;      /* a legacy expression that did not compile */
  regex_t regex;
  gint match, submatch, nomatch;
  gboolean has_position, relative, fixed;
  gint from, to;
  gboolean sp_if_no_1st_sp, drop_last_lf, compress;
  gchar casing;            /* 'l', 'u' or 0 */
  gchar control;           /* 'd'rop, 's'pace, 'e'scape or 0 */
  gchar secpath;           /* 'd'rop, 'r'eplace or 0 */
  gint format, datatype, on_empty;
  gchar *outname;
} PropertySpec;

static const struct
{
  const gchar *name;
  gint value;
} words[] = {
  { "csv", FORMAT_CSV }, { "json", FORMAT_JSON }, { "jsonf", FORMAT_JSONF }, { "jsonr", FORMAT_JSONR },
  { "jsonfr", FORMAT_JSONFR }, { "DFLT", NOMATCH_DFLT }, { "BLANK", NOMATCH_BLANK }, { "FIELD", NOMATCH_FIELD },
  { "ZERO", NOMATCH_ZERO }, { "string", TYPE_STRING }, { "number", TYPE_NUMBER }, { "bool", TYPE_BOOL },
  { "auto", TYPE_AUTO }, { "keep", EMPTY_KEEP }, { "skip", EMPTY_SKIP }, { "null", EMPTY_NULL },
};

static gboolean
word_value (const gchar *word, gint *value)
{
  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    if (g_str_equal (word, words[i].name))
      {
        *value = words[i].value;
        return TRUE;
      }
  return FALSE;
}

/* One key=value word of OPTIONS; the front end writes only these. */
static gboolean
parse_option (PropertySpec *spec, const gchar *key, const gchar *value)
{
  if (g_str_equal (key, "field"))
    spec->field = atoi (value);
  else if (g_str_equal (key, "delimiter"))
    spec->delimiter = (guchar) atoi (value);
  else if (g_str_equal (key, "from"))
    spec->from = atoi (value), spec->has_position = TRUE;
  else if (g_str_equal (key, "to"))
    spec->to = atoi (value), spec->has_position = TRUE;
  else if (g_str_equal (key, "match"))
    spec->match = atoi (value);
  else if (g_str_equal (key, "submatch"))
    spec->submatch = atoi (value);
  else if (g_str_equal (key, "nomatch"))
    return word_value (value, &spec->nomatch);
  else if (g_str_equal (key, "format"))
    return word_value (value, &spec->format);
  else if (g_str_equal (key, "datatype"))
    return word_value (value, &spec->datatype);
  else if (g_str_equal (key, "onempty"))
    return word_value (value, &spec->on_empty);
  else if (g_str_equal (key, "case"))
    spec->casing = value[0];
  else if (g_str_equal (key, "cc"))
    spec->control = value[0];
  else if (g_str_equal (key, "secpath"))
    spec->secpath = value[0];
  else if (g_str_equal (key, "relative"))
    spec->relative = TRUE;
  else if (g_str_equal (key, "badregex"))
    spec->bad_regex = TRUE;
  else if (g_str_equal (key, "fixed"))
    spec->fixed = TRUE;
  else if (g_str_equal (key, "sp1"))
    spec->sp_if_no_1st_sp = TRUE;
  else if (g_str_equal (key, "droplf"))
    spec->drop_last_lf = TRUE;
  else if (g_str_equal (key, "compress"))
    spec->compress = TRUE;
  else
    return FALSE;
  return TRUE;
}

static void
spec_free (gpointer data)
{
  PropertySpec *spec = data;

  if (spec->has_regex)
    regfree (&spec->regex);
  g_free (spec->outname);
  g_free (spec);
}

static gboolean
property_prepare (SlTfCall *call, GError **error)
{
  if (call->argc != 4)
    {
      g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE,
                   _("$(rsyslog-property) takes options, a name, a regular expression and a value"));
      return FALSE;
    }
  PropertySpec *spec = g_new0 (PropertySpec, 1);
  g_auto (GStrv) options = g_strsplit (call->args[0], ",", -1);
  gboolean extended = FALSE;

  spec->delimiter = '\t';
  spec->outname = g_strdup (call->args[1]);
  call->state = spec;
  for (guint i = 0; options[i]; i++)
    {
      gchar *eq = strchr (options[i], '=');
      if (!*options[i])
        continue;
      if (eq)
        *eq = '\0';
      if (g_str_equal (options[i], "ere"))
        extended = TRUE;
      else if (!parse_option (spec, options[i], eq ? eq + 1 : ""))
        {
          g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE, _("$(rsyslog-property) has no option '%s'"),
                       options[i]);
          return FALSE;
        }
    }
  if (*call->args[2])
    {
      /* the front end doubles a '$' so that the argument stays literal */
      g_autofree gchar *expression = g_strdup (call->args[2]);
      gchar *w = expression;
      for (const gchar *r = expression; *r; r++)
        {
          *w++ = *r;
          if (r[0] == '$' && r[1] == '$')
            r++;
        }
      *w = '\0';
      if (regcomp (&spec->regex, expression, extended ? REG_EXTENDED : 0) != 0)
        {
          g_set_error (error, SL_CFG_ERROR, SL_CFG_ERROR_VALUE,
                       _("the regular expression '%s' does not compile"), expression);
          return FALSE;
        }
      spec->has_regex = TRUE;
    }
  return TRUE;
}

/* rsyslog's field.number: "**FIELD NOT FOUND**" ends the processing */
static gboolean
take_field (const PropertySpec *spec, GString *value)
{
  const gchar *p = value->str;
  gint current = 1;

  while (*p && current < spec->field)
    {
      while (*p && (guchar) *p != spec->delimiter)
        p++;
      if ((guchar) *p == spec->delimiter)
        {
          p++;
          current++;
        }
    }
  if (current != spec->field)
    return FALSE;
  const gchar *end = p;
  while (*end && (guchar) *end != spec->delimiter)
    end++;
  g_string_erase (value, (gssize) (end - value->str), -1);
  g_string_erase (value, 0, p - value->str);
  return TRUE;
}

static void
take_regex (const PropertySpec *spec, GString *value)
{
  regmatch_t matches[10];
  gint offset = 0;
  gboolean found = FALSE;

  for (gint tries = 0; regexec (&spec->regex, value->str + offset, 10, matches, 0) == 0;)
    {
      if (matches[0].rm_so == -1)
        break;
      if (tries == spec->match)
        {
          found = TRUE;
          break;
        }
      offset += matches[0].rm_eo;
      tries++;
    }
  gint sub = spec->submatch;
  if (found && sub >= 0 && sub < 10 && matches[sub].rm_so != -1)
    {
      g_autofree gchar *match = g_strndup (value->str + offset + matches[sub].rm_so,
                                           (gsize) (matches[sub].rm_eo - matches[sub].rm_so));
      g_string_assign (value, match);
      return;
    }
  static const gchar *const nomatch[] = { [NOMATCH_DFLT] = "**NO MATCH**", [NOMATCH_BLANK] = "",
                                          [NOMATCH_ZERO] = "0" };
  if (spec->nomatch != NOMATCH_FIELD)
    g_string_assign (value, nomatch[spec->nomatch]);
}

static void
take_position (const PropertySpec *spec, GString *value)
{
  gint len = (gint) strlen (value->str);
  gint from = spec->from, to = spec->to;

  if (from == 0 && to == 0)
    return;
  if (spec->relative)
    {
      from = len < from ? 0 : len - from;
      to = len < to ? 0 : len - to;
    }
  else
    {
      if (from > 0)
        from--;
      if (to > 0)
        to--;
      else if (to < 0)
        to = MAX (len - 1 + to, 0);
    }
  if (from >= len)
    {
      g_string_truncate (value, 0);
      return;
    }
  if (from == 0 && to >= len && !spec->fixed)
    return;
  if (to >= len && !spec->fixed)
    to = len - 1;
  g_autoptr (GString) cut = g_string_new (NULL);
  for (gint i = from; i <= to; i++)
    g_string_append_c (cut, i < len ? value->str[i] : ' ');
  g_string_assign (value, cut->str);
}

static void
control_characters (const PropertySpec *spec, GString *value)
{
  g_autoptr (GString) done = g_string_new (NULL);

  for (const gchar *p = value->str; *p; p++)
    if (!iscntrl ((guchar) *p))
      g_string_append_c (done, *p);
    else if (spec->control == 's')
      g_string_append_c (done, ' ');
    else if (spec->control == 'e')
      g_string_append_printf (done, "#%3.3d", (guchar) *p);
  g_string_assign (value, done->str);
}

static void
secure_path (const PropertySpec *spec, GString *value)
{
  g_autoptr (GString) done = g_string_new (NULL);

  for (const gchar *p = value->str; *p; p++)
    if (*p != '/')
      g_string_append_c (done, *p);
    else if (spec->secpath == 'r')
      g_string_append_c (done, '_');
  if (!done->len || g_str_equal (done->str, "."))
    g_string_assign (done, "_");
  else if (g_str_equal (done->str, ".."))
    g_string_assign (done, "_.");
  g_string_assign (value, done->str);
}

static void
compress_spaces (GString *value)
{
  gsize w = 0;

  for (gsize r = 0; r < value->len; r++)
    if (value->str[r] != ' ' || !w || value->str[w - 1] != ' ')
      value->str[w++] = value->str[r];
  g_string_truncate (value, w);
}

/* rsyslog's jsonAddVal(): jsonr and jsonfr leave what is escaped already */
static void
json_escape (GString *out, const gchar *text, gboolean all)
{
  static const gchar named[] = { ['\b'] = 'b', ['\f'] = 'f', ['\n'] = 'n', ['\r'] = 'r', ['\t'] = 't' };

  for (const guchar *p = (const guchar *) text; *p; p++)
    if (*p == '"' || *p == '/')
      g_string_append_printf (out, "\\%c", *p);
    else if (*p == '\\' && !all && p[1] && strchr ("\"/\\bfnrtu", p[1]))
      {
        g_string_append_c (out, '\\');
        g_string_append_c (out, (gchar) *++p);
      }
    else if (*p == '\\')
      g_string_append (out, "\\\\");
    else if (*p < 0x20 && *p < sizeof named && named[*p])
      g_string_append_printf (out, "\\%c", named[*p]);
    else if (*p < 0x20)
      g_string_append_printf (out, "\\u%04X", *p);
    else
      g_string_append_c (out, (gchar) *p);
}

static void
json_field (const PropertySpec *spec, const gchar *value, gboolean all, GString *out)
{
  gboolean numeric = *value != '\0';

  if (!*value && spec->on_empty == EMPTY_SKIP)
    return;
  g_string_append_printf (out, "\"%s\":", spec->outname);
  if (!*value && spec->on_empty == EMPTY_NULL)
    {
      g_string_append (out, "null");
      return;
    }
  switch (spec->datatype)
    {
    case TYPE_AUTO:
      for (const gchar *p = value; *p && numeric; p++)
        numeric = g_ascii_isdigit (*p);
      break;
    case TYPE_NUMBER:
      numeric = TRUE;
      if (!*value)
        {
          g_string_append_c (out, '0');
          return;
        }
      break;
    case TYPE_BOOL:
      g_string_append (out, g_str_equal (value, "0") ? "false" : "true");
      return;
    default:
      numeric = FALSE;
    }
  if (!numeric)
    g_string_append_c (out, '"');
  json_escape (out, value, all);
  if (!numeric)
    g_string_append_c (out, '"');
}

static void
property_eval (const SlTfCall *call, const SlMessage *msg, const SlTemplateEnv *env, GString *out)
{
  const PropertySpec *spec = call->state;
  g_autoptr (GString) value = g_string_new (NULL);

  sl_template_append (call->arg_templates[3], msg, env, value);
  if (spec->field && !take_field (spec, value))
    {
      g_string_append (out, "**FIELD NOT FOUND**");
      return;
    }
  if (!spec->field && spec->bad_regex)
    {
      g_string_append (out, "**NO MATCH** **BAD REGULAR EXPRESSION**");
      return;
    }
  if (!spec->field && spec->has_regex)
    take_regex (spec, value);
  if (spec->has_position)
    take_position (spec, value);
  if (value->len && spec->sp_if_no_1st_sp)
    g_string_assign (value, value->str[0] == ' ' ? "" : " ");
  if (value->len)
    {
      for (gsize i = 0; spec->casing && i < value->len; i++)
        value->str[i] = (gchar) (spec->casing == 'u' ? toupper ((guchar) value->str[i])
                                                      : tolower ((guchar) value->str[i]));
      if (spec->control)
        control_characters (spec, value);
      if (spec->secpath)
        secure_path (spec, value);
    }
  if (spec->drop_last_lf && spec->control != 'e' && value->len && value->str[value->len - 1] == '\n')
    g_string_truncate (value, value->len - 1);
  if (spec->compress)
    compress_spaces (value);
  switch (spec->format)
    {
    case FORMAT_CSV:
      g_string_append_c (out, '"');
      for (const gchar *p = value->str; *p; p++)
        g_string_append (out, *p == '"' ? "\"\"" : (gchar[]) { *p, 0 });
      g_string_append_c (out, '"');
      break;
    case FORMAT_JSON:
    case FORMAT_JSONR:
      json_escape (out, value->str, spec->format == FORMAT_JSON);
      break;
    case FORMAT_JSONF:
    case FORMAT_JSONFR:
      json_field (spec, value->str, spec->format == FORMAT_JSONF, out);
      break;
    default:
      g_string_append (out, value->str);
    }
}

static const SlTemplateFunctionOps property_ops = {
  .prepare = property_prepare, .eval = property_eval, .free = spec_free,
};

const SlDriverClass rsyslog_property_class = {
  .kind = SL_DRIVER_TEMPLATE_FUNCTION, .name = "rsyslog-property",
  .summary = "a value through rsyslog's property options: $(rsyslog-property OPTIONS OUTNAME REGEX VALUE), "
             "written by the rsyslog front end",
  .ops.template_function = &property_ops,
};
